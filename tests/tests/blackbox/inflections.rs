//! Words as people type them, against the running stack (docs/api.md,
//! "Inflected forms" and "Matching and ranking"): an
//! inflected form finds its lemma in entry by word, search and the
//! thesaurus, in REST and GraphQL; a typo that finds little takes one edit
//! more. The fixture's lexicon is the committed excerpt of WordNet's and
//! Hunspell's data and of wordfreq's lists (data/fixture/LICENSES.md).

use blackbox::{demo_key, enc, get_demo};
use serde_json::{json, Value};

/// Entry by word: the entry's headword and its `meta`.
async fn entry_by_word(source: &str, word: &str) -> (u16, String, Value) {
    let reply = get_demo(&format!("/api/v1/api/entry/{source}/word/{}", enc(word))).await;
    let headword = reply.json["data"]["word"]
        .as_str()
        .unwrap_or("")
        .to_string();
    (reply.status, headword, reply.json["meta"].clone())
}

#[tokio::test]
async fn an_inflected_form_answers_its_lemmas_entry_and_says_so() {
    for (source, form, lemma) in [
        ("wordnet-en", "houses", "house"),
        ("freedict-eng-fra", "houses", "house"),
        ("freedict-eng-fra", "cats", "cat"),
        ("freedict-eng-fra", "mice", "mouse"),
        ("freedict-eng-spa", "went", "go"),
        ("wordnet-en", "running", "run"),
        ("wordnet-en", "better", "good"),
        ("freedict-fra-eng", "maisons", "maison"),
        ("freedict-deu-eng", "Häuser", "Haus"),
        ("freedict-deu-eng", "Hunde", "Hund"),
        ("mythes-es", "casas", "casa"),
    ] {
        let (status, headword, meta) = entry_by_word(source, form).await;
        assert_eq!(status, 200, "{source} {form}");
        assert_eq!(headword, lemma, "{source} {form}");
        assert_eq!(meta["lemma"], lemma, "{source} {form}");
        assert_eq!(meta["inflection"], form, "{source} {form}");
    }
}

/// Irregular forms of every language with lemma lookup tables, Italian's
/// among them, which no Hunspell dictionary or WordNet gives here
/// (data/fixture/lemma-lookups/). FreeDict's French–English spells `œil`
/// `oeil`, and folding makes them one.
#[tokio::test]
async fn irregular_forms_of_every_language_answer_their_lemma() {
    for (source, form, lemma) in [
        ("freedict-deu-eng", "ging", "gehen"),
        ("freedict-deu-eng", "Bücher", "Buch"),
        ("freedict-fra-eng", "yeux", "oeil"),
        ("freedict-ita-eng", "uomini", "uomo"),
    ] {
        let (status, headword, meta) = entry_by_word(source, form).await;
        assert_eq!(status, 200, "{source} {form}: {meta}");
        assert_eq!(headword, lemma, "{source} {form}");
        assert_eq!(meta["lemma"], lemma, "{source} {form}");
        assert_eq!(meta["inflection"], form, "{source} {form}");
    }
    // Search finds the lemma too, and only in its language.
    let (results, _) = search("q=uomini&matchType=exact&fuzzy=false").await;
    assert_eq!(results, vec![("uomo".into(), "freedict-ita-eng".into())]);
    // `ging`: the verb `gehen` and the noun `Gehen`, which fold alike.
    let (results, _) = search("q=ging&matchType=exact&fuzzy=false").await;
    assert!(!results.is_empty());
    assert!(
        results
            .iter()
            .all(|(w, d)| w.eq_ignore_ascii_case("gehen") && d == "freedict-deu-eng"),
        "{results:?}"
    );
}

#[tokio::test]
async fn a_headword_is_found_as_itself_and_forms_stay_in_their_language() {
    let (status, headword, meta) = entry_by_word("freedict-eng-fra", "house").await;
    assert_eq!((status, headword.as_str()), (200, "house"));
    assert!(
        meta.get("lemma").is_none() && meta.get("inflection").is_none(),
        "{meta}"
    );
    // `maisons` is a French form: an English dictionary does not take it,
    // and a miss is still the 404 with suggestions.
    let reply = get_demo("/api/v1/api/entry/freedict-eng-fra/word/maisons").await;
    assert_eq!(reply.status, 404);
    assert_eq!(reply.error(), "Entry not found");
    assert!(reply.json["suggestions"].is_array());
    // Nor does a German dictionary take an English form.
    let reply = get_demo("/api/v1/api/entry/freedict-deu-eng/word/houses").await;
    assert_eq!(reply.status, 404);
}

/// Search results as (word, dictionary).
async fn search(query: &str) -> (Vec<(String, String)>, u64) {
    let reply = get_demo(&format!("/api/v1/api/search?{query}")).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let results = reply
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["word"].as_str().unwrap().to_string(),
                r["dictionaryId"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (results, reply.json["meta"]["total"].as_u64().unwrap())
}

#[tokio::test]
async fn search_lists_lemma_matches_after_literal_ones_and_counts_them() {
    // `went` has no headword in the fixture: `go` (English–Spanish) comes
    // first, before any typo (`wet`, `west`, `want` …), and is counted.
    let (results, total) = search("q=went&matchType=exact&limit=100").await;
    assert_eq!(results.len() as u64, total);
    assert_eq!(
        results[0],
        ("go".into(), "freedict-eng-spa".into()),
        "{results:?}"
    );
    assert!(results[1..].iter().all(|(w, _)| w != "go"), "once");
    // Not a typo: fuzzy=false keeps it, and then it is all there is.
    let (strict, total) = search("q=went&matchType=exact&fuzzy=false").await;
    assert_eq!(strict, vec![("go".into(), "freedict-eng-spa".into())]);
    assert_eq!(total, 1);
    // `houses`: every dictionary with `house` in English, lemma matches
    // before typos such as `housed`, `hoses`; a literal prefix match comes
    // before them.
    let (results, _) = search("q=houses&matchType=exact&fuzzy=false").await;
    assert!(!results.is_empty());
    assert!(
        results.iter().all(|(w, _)| w.eq_ignore_ascii_case("house")),
        "{results:?}"
    );
    let (prefix, _) = search("q=hous&matchType=prefix&limit=3").await;
    assert_eq!(prefix[0].0, "house", "the most common first: {prefix:?}");
    // `better`: its lemma `good` in every English dictionary first, then
    // the typo `butter`.
    let (better, total) = search("q=better&matchType=exact&limit=100").await;
    assert_eq!(better.len() as u64, total);
    let lemmas = better
        .iter()
        .take_while(|(w, _)| w.eq_ignore_ascii_case("good"))
        .count();
    assert!(
        lemmas >= 5,
        "good in several dictionaries first: {better:?}"
    );
    assert!(
        better[lemmas..].iter().any(|(w, _)| w == "butter"),
        "{better:?}"
    );
    assert!(better[lemmas..]
        .iter()
        .all(|(w, _)| !w.eq_ignore_ascii_case("good")));
    // `contains` stays literal.
    let (contains, _) = search("q=went&matchType=contains").await;
    assert!(contains
        .iter()
        .all(|(w, _)| w.to_lowercase().contains("went")));
    // German, through a bilingual dictionary's source language.
    let (german, _) = search(&format!("q={}&matchType=exact&fuzzy=false", enc("Häuser"))).await;
    assert_eq!(german, vec![("Haus".into(), "freedict-deu-eng".into())]);
}

#[tokio::test]
async fn a_typo_that_finds_little_takes_one_edit_more() {
    // `unirom` is 2 edits from `uniform`, and nothing is within 1.
    let (results, total) = search("q=unirom&matchType=exact").await;
    assert!(
        results.iter().any(|(w, _)| w == "uniform"),
        "{results:?} ({total})"
    );
    // Not without typo tolerance, and not below 5 characters.
    let (strict, _) = search("q=unirom&matchType=exact&fuzzy=false").await;
    assert!(strict.is_empty());
    // `hxse` is exactly 2 edits from `house` (`hose`, then `house`).
    let (short, _) = search("q=hxse&matchType=exact").await;
    assert!(
        !short.iter().any(|(w, _)| w.eq_ignore_ascii_case("house")),
        "{short:?}"
    );
    let (five, _) = search("q=hxuse&matchType=exact").await;
    assert!(five.iter().any(|(w, _)| w == "house"), "{five:?}");
}

#[tokio::test]
async fn the_thesaurus_of_a_form_is_its_lemmas() {
    let own = get_demo("/api/v1/api/thesaurus/house").await;
    let form = get_demo("/api/v1/api/thesaurus/houses").await;
    assert_eq!(form.status, 200);
    let own = own.data().as_array().unwrap().clone();
    assert!(!own.is_empty(), "house has links in the fixture");
    // Every link of `house` is from an English dictionary, so `houses`, an
    // English form, has exactly them.
    assert!(own.iter().all(|l| l["sourceLang"] == "en"));
    assert_eq!(form.data().as_array().unwrap(), &own);
    // Filters apply as to any word.
    let filtered = get_demo("/api/v1/api/thesaurus/houses?lang=fr").await;
    assert_eq!(filtered.data(), &json!([]));
}

#[tokio::test]
async fn graphql_gives_lemma_and_inflection_as_fields() {
    let body = json!({
        "query": "query($w: String!) { wordEntry(word: $w, source: \"freedict-deu-eng\") { word lemma inflection } plain: wordEntry(word: \"Haus\", source: \"freedict-deu-eng\") { word lemma inflection } search(q: $w, matchType: \"exact\", fuzzy: false) { total results { word } } }",
        "variables": {"w": "Häuser"},
    });
    let reply = blackbox::graphql_body(Some(&demo_key()), &body).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let data = &reply.json["data"];
    assert_eq!(
        data["wordEntry"],
        json!({"word": "Haus", "lemma": "Haus", "inflection": "Häuser"})
    );
    assert_eq!(
        data["plain"],
        json!({"word": "Haus", "lemma": null, "inflection": null})
    );
    assert_eq!(data["search"]["total"], 1);
    assert_eq!(data["search"]["results"][0]["word"], "Haus");
}
