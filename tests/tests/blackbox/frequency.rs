//! `frequency` on search results and entries, against the running stack
//! (docs/api.md, "Frequency"): the headword's Zipf frequency from the
//! fixture's wordfreq excerpt (data/fixture/wordfreq/), 0 for a word no list
//! has, the same from search and from the entry endpoints, in REST and
//! GraphQL, and the order of a search's tiers.

use aws_sdk_dynamodb::types::AttributeValue;
use blackbox::{enc, get_demo, repo_root, stack_clients};
use serde_json::{json, Value};
use shared::fold::fold;

/// The Zipf frequency of a folded word in a fixture list, as the TSV says.
fn listed(lang: &str, word: &str) -> Option<f64> {
    let path = repo_root().join(format!("data/fixture/wordfreq/{lang}.tsv"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|line| line.split_once('\t'))
        .find(|(w, _)| fold(w) == word)
        .map(|(_, zipf)| zipf.parse().unwrap())
}

/// A search's results.
async fn search(query: &str) -> Vec<Value> {
    let reply = get_demo(&format!("/api/v1/api/search?{query}")).await;
    assert_eq!(reply.status, 200, "{query}: {}", reply.text);
    reply.data().as_array().unwrap().clone()
}

fn frequency(value: &Value) -> f64 {
    value["frequency"]
        .as_f64()
        .unwrap_or_else(|| panic!("frequency is a number: {value}"))
}

/// The entry of a result, by id and by word: both carry the frequency the
/// result shows.
async fn assert_entries_agree(result: &Value) {
    let (source, id, word) = (
        result["dictionaryId"].as_str().unwrap(),
        result["id"].as_str().unwrap(),
        result["word"].as_str().unwrap(),
    );
    let by_id = get_demo(&format!("/api/v1/entry/{source}/{id}")).await;
    assert_eq!(by_id.status, 200, "{}", by_id.text);
    assert_eq!(
        frequency(by_id.data()),
        frequency(result),
        "entry {source}/{id} ({word}) and its search result"
    );
    let by_word = get_demo(&format!("/api/v1/api/entry/{source}/word/{}", enc(word))).await;
    assert_eq!(by_word.status, 200, "{}", by_word.text);
    assert_eq!(
        frequency(by_word.data()),
        frequency(result),
        "entry by word {source}/{word} and its search result"
    );
}

#[tokio::test]
async fn search_results_and_entries_carry_the_headwords_frequency() {
    let bank = search("q=bank&matchType=exact&fuzzy=false&limit=100").await;
    assert!(
        bank.len() > 5,
        "the fixture has bank in several dictionaries"
    );
    assert_eq!(listed("en", "bank"), Some(5.16));
    assert_eq!(listed("de", "bank"), Some(4.91));
    for result in &bank {
        // Each dictionary's `bank` takes its own language's frequency: the
        // German one the German list's, lower than English's.
        let lang = result["sourceLang"].as_str().unwrap();
        assert_eq!(Some(frequency(result)), listed(lang, "bank"), "{result}");
        assert_entries_agree(result).await;
    }
    assert!(bank
        .iter()
        .any(|r| r["dictionaryId"] == "freedict-deu-eng" && r["sourceLang"] == "de"));
    // The more common word first: every English `bank`, then the German.
    let langs: Vec<&str> = bank
        .iter()
        .map(|r| r["sourceLang"].as_str().unwrap())
        .collect();
    let first_german = langs.iter().position(|l| *l == "de").unwrap();
    assert!(
        langs[first_german..].iter().all(|l| *l == "de"),
        "{langs:?}"
    );
    // Two decimals, as a JSON number.
    let reply = get_demo("/api/v1/api/search?q=bank&lang=en&limit=1").await;
    assert!(reply.text.contains("\"frequency\":5.16"), "{}", reply.text);
    // A French headword takes the French list's value.
    let maison = search("q=maison&matchType=exact&fuzzy=false&source=freedict-fra-eng").await;
    assert!(!maison.is_empty());
    for result in &maison {
        assert_eq!(frequency(result), listed("fr", "maison").unwrap());
        assert_entries_agree(result).await;
    }
}

/// `per` is common in Italian (7.15) and much less so in English (5.45):
/// an English search ranks English `per` by its English frequency, after
/// `place` (5.71) and `put` (5.66), and shows 5.45; a search of every
/// language puts the Italian word first.
#[tokio::test]
async fn a_word_ranks_by_its_frequency_in_its_own_language() {
    assert_eq!(listed("it", "per"), Some(7.15));
    assert_eq!(listed("en", "per"), Some(5.45));
    let english = search("q=p&matchType=prefix&fuzzy=false&lang=en&limit=100").await;
    let place_of = |word: &str| {
        english
            .iter()
            .position(|r| r["word"] == word)
            .unwrap_or_else(|| panic!("{word} is an English word of the fixture"))
    };
    assert!(place_of("place") < place_of("per"));
    assert!(place_of("put") < place_of("per"));
    assert!(place_of("per") < place_of("pay"), "pay is 5.40");
    assert_eq!(frequency(&english[place_of("per")]), 5.45);
    let per = search("q=per&matchType=exact&fuzzy=false").await;
    assert_eq!(per[0]["sourceLang"], "it", "{per:?}");
    assert_eq!(frequency(&per[0]), 7.15);
    for result in &per {
        let lang = result["sourceLang"].as_str().unwrap();
        assert_eq!(Some(frequency(result)), listed(lang, "per"), "{result}");
        assert_entries_agree(result).await;
    }
    assert!(per.iter().any(|r| r["sourceLang"] == "en"));
}

#[tokio::test]
async fn a_word_no_list_has_has_frequency_0() {
    for lang in ["en", "fr", "de", "es"] {
        assert_eq!(listed(lang, "abbatial"), None);
    }
    let results = search("q=abbatial&matchType=exact&fuzzy=false").await;
    assert!(!results.is_empty(), "the fixture has abbatial");
    for result in &results {
        assert_eq!(frequency(result), 0.0, "{result}");
        assert_entries_agree(result).await;
    }
}

/// Within a tier, listed headwords come most frequent first, then the
/// unlisted ones (0): `frequency` never increases down the exact tier or the
/// literal prefix tier of a search.
#[tokio::test]
async fn within_a_tier_results_are_ordered_by_frequency() {
    for (q, match_type) in [
        ("ho", "prefix"),
        ("ba", "prefix"),
        ("b", "prefix"),
        ("s", "prefix"),
        ("ma", "prefix"),
        ("bank", "exact"),
        ("house", "exact"),
    ] {
        let results = search(&format!(
            "q={q}&matchType={match_type}&fuzzy=false&limit=100"
        ))
        .await;
        assert!(results.len() > 1, "{q}");
        // The exact tier, then (prefix) the literal tier; lemma matches of
        // a form would come after them and are left out here.
        let exact: Vec<f64> = results
            .iter()
            .filter(|r| fold(r["word"].as_str().unwrap()) == q)
            .map(frequency)
            .collect();
        let literal: Vec<f64> = results
            .iter()
            .filter(|r| {
                let word = fold(r["word"].as_str().unwrap());
                word != q && word.starts_with(q)
            })
            .map(frequency)
            .collect();
        for (tier, frequencies) in [("exact", &exact), ("literal", &literal)] {
            assert!(
                frequencies.windows(2).all(|w| w[0] >= w[1]),
                "{q} ({match_type}), {tier} tier: {frequencies:?}"
            );
        }
        if match_type == "prefix" {
            assert!(
                literal.iter().filter(|f| **f > 0.0).count() > 1,
                "{q}: several listed headwords to order: {literal:?}"
            );
        }
    }
}

async fn graphql_data(query: &str, variables: Value) -> Value {
    let reply = blackbox::graphql(query, variables).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert!(reply.json.get("errors").is_none(), "{}", reply.text);
    reply.json["data"].clone()
}

#[tokio::test]
async fn graphql_gives_the_same_frequencies() {
    let rest = search("q=ba&limit=30").await;
    let data = graphql_data(
        "query($q: String!) { search(q: $q, limit: 30) { results { id dictionaryId word frequency } } }",
        json!({"q": "ba"}),
    )
    .await;
    let results = data["search"]["results"].as_array().unwrap();
    assert_eq!(results.len(), rest.len());
    for (g, r) in results.iter().zip(&rest) {
        assert_eq!(
            (&g["id"], &g["dictionaryId"]),
            (&r["id"], &r["dictionaryId"])
        );
        assert_eq!(frequency(g), frequency(r), "{g} and {r}");
    }
    for (source, word, expected) in [
        ("freedict-deu-eng", "Bank", listed("de", "bank").unwrap()),
        ("freedict-eng-fra", "house", listed("en", "house").unwrap()),
        ("freedict-eng-fra", "abbatial", 0.0),
    ] {
        let data = graphql_data(
            "query($s: String!, $w: String!) { wordEntry(word: $w, source: $s) { id frequency } }",
            json!({"s": source, "w": word}),
        )
        .await;
        let entry = &data["wordEntry"];
        assert_eq!(frequency(entry), expected, "{source} {word}");
        let id = entry["id"].as_str().unwrap();
        let data = graphql_data(
            "query($s: String!, $id: String!) { entry(id: $id, source: $s) { frequency } }",
            json!({"s": source, "id": id}),
        )
        .await;
        assert_eq!(frequency(&data["entry"]), expected, "{source} {id}");
    }
}

/// Runs dictadmin against `table` instead of the stack's entries table, and
/// gives its output; it must succeed.
fn dictadmin_on(table: &str, args: &[&str]) -> String {
    let state = std::env::temp_dir().join(format!("import-state-frequency-{}", std::process::id()));
    let out = blackbox::dictadmin_on_table(table, args, &[], &state);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "dictadmin {args:?}: {text}");
    text
}

/// The `frequency` attribute of every entry item of a dictionary's folded
/// headword (the `ByWord` index, as entry by word reads it).
async fn stored_frequencies(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    dictionary: &str,
    folded: &str,
) -> Vec<String> {
    let found = client
        .query()
        .table_name(table)
        .index_name("ByWord")
        .key_condition_expression("wordKey = :k")
        .expression_attribute_values(":k", AttributeValue::S(format!("{dictionary}#{folded}")))
        .send()
        .await
        .unwrap();
    found
        .items()
        .iter()
        .map(|item| item["frequency"].as_n().unwrap().clone())
        .collect()
}

/// Whatever order dictionaries come in, an entry keeps the value search
/// will rank its word by, its own language's: the German dictionary stamps
/// `bank` with German's 4.91, and the English one imported after it, which
/// stamps its own `bank` with English's 5.16, leaves them so.
#[tokio::test]
async fn each_dictionary_keeps_its_own_languages_frequency() {
    let (clients, _) = stack_clients().await;
    let client = clients.dynamodb;
    let table = format!("test-frequency-{}", std::process::id());
    dictadmin_on(&table, &["setup"]);
    for lang in ["en", "de"] {
        let list = repo_root().join(format!("data/fixture/wordfreq/{lang}.tsv"));
        let list = list.to_str().unwrap();
        dictadmin_on(
            &table,
            &[
                "lexicon", "--origin", "test", "wordfreq", "--lang", lang, list,
            ],
        );
    }
    let fixture = |name: &str| {
        let path = repo_root().join("data/fixture/freedict").join(name);
        path.to_str().unwrap().to_string()
    };
    dictadmin_on(
        &table,
        &["import", "freedict", &fixture("freedict-deu-eng")],
    );
    let german = stored_frequencies(&client, &table, "freedict-deu-eng", "bank").await;
    assert!(!german.is_empty());
    assert!(german.iter().all(|f| f == "4.91"), "{german:?}");
    dictadmin_on(
        &table,
        &["import", "freedict", &fixture("freedict-eng-fra")],
    );
    for (dictionary, expected) in [("freedict-deu-eng", "4.91"), ("freedict-eng-fra", "5.16")] {
        let stored = stored_frequencies(&client, &table, dictionary, "bank").await;
        assert!(!stored.is_empty(), "{dictionary}");
        assert!(
            stored.iter().all(|f| f == expected),
            "{dictionary}: {stored:?}"
        );
    }
    let haus = stored_frequencies(&client, &table, "freedict-deu-eng", "haus").await;
    assert!(haus.iter().all(|f| f == "5.41"), "{haus:?}");
    client
        .delete_table()
        .table_name(&table)
        .send()
        .await
        .unwrap();
}
