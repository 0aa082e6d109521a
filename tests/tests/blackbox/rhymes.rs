//! Rhymes by pronunciation (`/api/v1/api/rhymes/{word}`, GraphQL `rhymes`)
//! on the fixture's transcriptions and espeak-ng's: English, French,
//! Spanish, Italian and German words that rhyme, every result sharing the
//! query's rhyme part, near rhymes, paging, filters and the errors.

use blackbox::{get_demo, graphql};
use serde_json::{json, Value};
use shared::search::rhyme::{Pronunciation, StressRule};

/// Where a pronunciation may come from.
const SOURCES: [&str; 2] = ["dictionary", "espeak-ng"];

fn words(reply: &blackbox::Reply) -> Vec<String> {
    let data = reply.data().as_array().expect("an array of rhymes");
    data.iter()
        .map(|r| r["word"].as_str().unwrap().to_string())
        .collect()
}

/// The rhyme part of a transcription in `lang`.
fn rhyme(ipa: &str, lang: &str) -> String {
    Pronunciation::parse(ipa)
        .unwrap_or_else(|| panic!("{ipa} has a syllable"))
        .rhyme(StressRule::of(lang))
}

/// Every result of a perfect lookup shares the rhyme part of one of the
/// query's pronunciations, in the query's language, and says so.
fn assert_all_rhyme(reply: &blackbox::Reply, lang: &str) {
    let meta = &reply.json["meta"];
    assert_eq!(meta["lang"], lang, "{}", reply.text);
    let mine: Vec<String> = meta["pronunciations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            assert!(SOURCES.contains(&p["source"].as_str().unwrap()), "{p}");
            rhyme(p["pronunciation"].as_str().unwrap(), lang)
        })
        .collect();
    for result in reply.data().as_array().unwrap() {
        let theirs = rhyme(result["pronunciation"].as_str().unwrap(), lang);
        assert!(mine.contains(&theirs), "{result} rhymes with {mine:?}");
        assert_eq!(result["lang"], lang);
        let source = result["pronunciationSource"].as_str().unwrap();
        assert!(SOURCES.contains(&source), "{result}");
        assert!(result["syllables"].as_u64().unwrap() >= 1, "{result}");
        let entries = result["entries"].as_array().unwrap();
        assert!(
            !entries.is_empty() && entries.len() as u64 <= result["entryCount"].as_u64().unwrap()
        );
        for entry in entries {
            assert_eq!(entry["word"], result["word"], "{entry}");
            assert_eq!(entry["sourceLang"], lang);
        }
    }
}

#[tokio::test]
async fn french_words_in_on_rhyme_with_cloison() {
    let reply = get_demo("/api/v1/api/rhymes/cloison?lang=fr&limit=100").await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let found = words(&reply);
    for word in ["bon", "charbon", "con"] {
        assert!(found.iter().any(|w| w == word), "{word} in {found:?}");
    }
    assert!(!found.iter().any(|w| w == "cloison"), "not the word itself");
    assert_all_rhyme(&reply, "fr");
    assert_eq!(reply.json["meta"]["word"], "cloison");
    assert_eq!(reply.json["meta"]["kind"], "perfect");
    assert_eq!(reply.json["meta"]["total"], found.len() as u64);
    // Without `lang`: the word's own language.
    let unasked = get_demo("/api/v1/api/rhymes/cloison?limit=100").await;
    assert_eq!(unasked.data(), reply.data());
}

#[tokio::test]
async fn italian_and_english_words_rhyme_in_their_language() {
    let italian = get_demo("/api/v1/api/rhymes/andare?lang=it&limit=100").await;
    assert_eq!(italian.status, 200, "{}", italian.text);
    let found = words(&italian);
    for word in ["fermare", "errare", "affaticare"] {
        assert!(found.iter().any(|w| w == word), "{word} in {found:?}");
    }
    assert_all_rhyme(&italian, "it");
    let english = get_demo("/api/v1/api/rhymes/cat?lang=en&limit=100").await;
    assert_eq!(english.status, 200, "{}", english.text);
    // `rat` through the dictionaries' transcriptions, `hat` through
    // espeak-ng's (its dictionary transcribes it `/heit/`).
    let found = words(&english);
    for (word, source) in [("rat", "dictionary"), ("hat", "espeak-ng")] {
        let results = english.data().as_array().unwrap();
        let result = results.iter().find(|r| r["word"] == word);
        let result = result.unwrap_or_else(|| panic!("{word} in {found:?}"));
        assert_eq!(result["pronunciationSource"], source, "{result}");
    }
    assert_all_rhyme(&english, "en");
}

#[tokio::test]
async fn spanish_and_german_words_rhyme_in_their_language() {
    let spanish = get_demo("/api/v1/api/rhymes/coraz%C3%B3n?lang=es&limit=100").await;
    assert_eq!(spanish.status, 200, "{}", spanish.text);
    let found = words(&spanish);
    for word in ["canción", "ratón", "camión"] {
        assert!(found.iter().any(|w| w == word), "{word} in {found:?}");
    }
    assert_all_rhyme(&spanish, "es");
    let gato = words(&get_demo("/api/v1/api/rhymes/gato?lang=es").await);
    assert!(gato.iter().any(|w| w == "zapato"), "{gato:?}");
    let german = get_demo("/api/v1/api/rhymes/Schnur?lang=de").await;
    assert_eq!(german.status, 200, "{}", german.text);
    let found = words(&german);
    assert!(found.iter().any(|w| w == "Kupferlasur"), "{found:?}");
    assert_all_rhyme(&german, "de");
}

#[tokio::test]
async fn near_rhymes_share_the_vowels_and_leave_perfect_ones_out() {
    let perfect = words(&get_demo("/api/v1/api/rhymes/cat?lang=en&limit=100").await);
    let reply = get_demo("/api/v1/api/rhymes/cat?lang=en&kind=near&limit=100").await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.json["meta"]["kind"], "near");
    let near = words(&reply);
    assert!(near.iter().any(|w| w == "bad"), "{}", reply.text);
    let vowels_of = |ipa: &str| {
        Pronunciation::parse(ipa)
            .unwrap()
            .rhyme_vowels(StressRule::of("en"))
    };
    let own = reply.json["meta"]["pronunciations"].as_array().unwrap();
    let own: Vec<String> = own
        .iter()
        .map(|p| vowels_of(p["pronunciation"].as_str().unwrap()))
        .collect();
    assert!(own.contains(&"æ".to_string()), "{own:?}");
    for result in reply.data().as_array().unwrap() {
        let word = result["word"].as_str().unwrap();
        assert!(
            !perfect.iter().any(|p| p == word),
            "{word} is a perfect rhyme"
        );
        let vowels = vowels_of(result["pronunciation"].as_str().unwrap());
        assert!(own.contains(&vowels), "{result}");
    }
    // A rhyme part that is its vowel alone has no near rhymes beyond it.
    let open = get_demo("/api/v1/api/rhymes/cloison?lang=fr&kind=near").await;
    assert_eq!(open.json["meta"]["total"], 0, "{}", open.text);
}

#[tokio::test]
async fn pages_of_rhymes_make_up_the_whole_list() {
    let whole = get_demo("/api/v1/api/rhymes/cloison?lang=fr&limit=100").await;
    let total = whole.json["meta"]["total"].as_u64().unwrap();
    assert!(total >= 4, "{}", whole.text);
    let mut paged = Vec::new();
    for offset in (0..total).step_by(3) {
        let page = get_demo(&format!(
            "/api/v1/api/rhymes/cloison?lang=fr&limit=3&offset={offset}"
        ))
        .await;
        assert_eq!(page.json["meta"]["total"], total);
        paged.extend(words(&page));
    }
    assert_eq!(paged, words(&whole));
}

#[tokio::test]
async fn a_filter_keeps_the_words_with_an_entry_that_passes_it() {
    let reply = get_demo("/api/v1/api/rhymes/cat?lang=en&source=freedict-eng-spa&limit=100").await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    for result in reply.data().as_array().unwrap() {
        for entry in result["entries"].as_array().unwrap() {
            assert_eq!(entry["dictionaryId"], "freedict-eng-spa", "{entry}");
        }
    }
    let none = get_demo("/api/v1/api/rhymes/cat?lang=en&pos=nosuchpart").await;
    assert_eq!(none.status, 200);
    assert_eq!(none.json["meta"]["total"], 0);
}

#[tokio::test]
async fn bad_lookups_answer_clear_errors() {
    for (path, status, says) in [
        (
            "/api/v1/api/rhymes/cloison?lang=fr-en",
            400,
            "lang must be one language code like en: rhymes are within a language",
        ),
        (
            "/api/v1/api/rhymes/cloison?kind=slant",
            400,
            "kind must be one of perfect, near",
        ),
        (
            "/api/v1/api/rhymes/cloison?limit=0",
            400,
            "limit must be an integer from 1 to 100",
        ),
        (
            "/api/v1/api/rhymes/zzzqqq",
            404,
            "No pronunciation found for this word",
        ),
        (
            "/api/v1/api/rhymes/cloison?lang=de",
            404,
            "No pronunciation found for this word",
        ),
        (
            "/api/v1/api/rhymes/cloison?source=nope",
            404,
            "Unknown dictionary: nope",
        ),
    ] {
        let reply = get_demo(path).await;
        assert_eq!(reply.status, status, "{path}: {}", reply.text);
        assert_eq!(reply.error(), says, "{path}");
    }
}

#[tokio::test]
async fn graphql_rhymes_match_rest() {
    let rest = get_demo("/api/v1/api/rhymes/cat?lang=en&kind=near&limit=5").await;
    let reply = graphql(
        "query R($word: String!) { rhymes(word: $word, lang: \"en\", kind: \"near\", limit: 5) { word lang pronunciations { pronunciation source } kind total limit offset rhymes { word lang pronunciation pronunciationSource syllables frequency entryCount entries { id word dictionaryId } } } }",
        json!({ "word": "cat" }),
    )
    .await;
    let page = &reply.json["data"]["rhymes"];
    assert_eq!(page["total"], rest.json["meta"]["total"], "{}", reply.text);
    assert_eq!(page["pronunciations"], rest.json["meta"]["pronunciations"]);
    let rest_words: Vec<Value> = rest
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["word"].clone())
        .collect();
    let graphql_words: Vec<Value> = page["rhymes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["word"].clone())
        .collect();
    assert_eq!(graphql_words, rest_words);
}
