//! One result per word (`group=word`, issue 40) on search and reverse
//! lookup, REST and GraphQL, held to the entry results of the same query:
//! the words are the entries' (folded headword, language) pairs in the
//! order of their first entry, each once, each with its entries in order,
//! and the totals agree.

use blackbox::{get_demo, graphql, Reply};
use serde_json::{json, Value};
use shared::fold::fold;
use shared::search::engine::entries_per_word;

/// Words a page when the tests page through words.
const WORDS_A_PAGE: usize = 7;

/// Every page of `path` (a query string without paging) at `limit`, and
/// the `meta` of the first.
async fn every_page(path: &str, limit: usize) -> (Vec<Value>, Value) {
    let mut all = Vec::new();
    let mut first_meta = None;
    for offset in (0..).step_by(limit) {
        let reply = get_demo(&format!("{path}&limit={limit}&offset={offset}")).await;
        let page = reply.data().as_array().unwrap().clone();
        first_meta.get_or_insert(reply.json["meta"].clone());
        let last = page.len() < limit;
        all.extend(page);
        if last {
            break;
        }
    }
    (all, first_meta.unwrap())
}

/// `dictionaryId/id`.
fn key_of(result: &Value) -> String {
    format!("{}/{}", result["dictionaryId"], result["id"])
}

/// The word of an entry result: folded headword and source language.
fn word_of(result: &Value) -> (String, String) {
    let word = fold(result["word"].as_str().unwrap());
    (word, result["sourceLang"].as_str().unwrap().to_string())
}

/// `words` (of `group=word`, in pages of [`WORDS_A_PAGE`]) are `entries`
/// (of the same query, in order) grouped: checks it, field by field.
fn assert_grouped(path: &str, entries: &[Value], words: &[Value]) {
    let mut expected: Vec<((String, String), Vec<String>)> = Vec::new();
    for entry in entries {
        let word = word_of(entry);
        match expected.iter_mut().find(|(w, _)| *w == word) {
            Some((_, keys)) => keys.push(key_of(entry)),
            None => expected.push((word, vec![key_of(entry)])),
        }
    }
    assert_eq!(words.len(), expected.len(), "{path}: one result per word");
    for (word, (key, keys)) in words.iter().zip(&expected) {
        let listed: Vec<String> = word["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(key_of)
            .collect();
        let listed_most = entries_per_word(WORDS_A_PAGE);
        let want: Vec<String> = keys.iter().take(listed_most).cloned().collect();
        assert_eq!(listed, want, "{path}: the entries of {key:?}, in order");
        assert_eq!(word["entryCount"], keys.len() as u64, "{path}: {key:?}");
        assert_eq!(fold(word["word"].as_str().unwrap()), key.0, "{path}");
        assert_eq!(word["lang"], key.1.as_str(), "{path}");
        assert_eq!(
            word["frequency"], word["entries"][0]["frequency"],
            "{path}: a word shows its headword's frequency"
        );
    }
}

#[tokio::test]
async fn words_are_the_entry_results_grouped_in_order() {
    for path in [
        "/api/v1/api/search?q=house",
        "/api/v1/api/search?q=hous&matchType=prefix",
        "/api/v1/api/search?q=bank",
        "/api/v1/api/search?q=ma&matchType=prefix&lang=fr",
        "/api/v1/api/reverse?q=house",
        "/api/v1/api/reverse?q=dog",
    ] {
        let (entries, entry_meta) = every_page(path, 100).await;
        // Paging by words neither repeats nor skips one.
        let (words, word_meta) = every_page(&format!("{path}&group=word"), WORDS_A_PAGE).await;
        assert!(!entries.is_empty(), "{path} finds entries in the fixture");
        assert_grouped(path, &entries, &words);
        assert_eq!(word_meta["total"], words.len() as u64, "{path}");
        assert_eq!(word_meta["totalEntries"], entry_meta["total"], "{path}");
        assert_eq!(entry_meta["total"], entries.len() as u64, "{path}");
        assert!(entry_meta.get("totalEntries").is_none(), "{path}");
    }
}

#[tokio::test]
async fn a_page_of_words_reaches_more_words_than_a_page_of_entries() {
    // The fixture's `bank` has 7 English entries: a page of 5 shows it alone.
    let path = "/api/v1/api/search?q=bank&limit=5";
    let entries = get_demo(path).await;
    let words = get_demo(&format!("{path}&group=word")).await;
    let distinct = |results: &[Value]| {
        let mut seen: Vec<(String, String)> = results.iter().map(word_of).collect();
        seen.sort();
        seen.dedup();
        seen.len()
    };
    let on_entry_page = distinct(entries.data().as_array().unwrap());
    let on_word_page = words.data().as_array().unwrap().len();
    assert!(
        on_word_page > on_entry_page,
        "{on_word_page} words against {on_entry_page} on a page of entries"
    );
}

#[tokio::test]
async fn graphql_answers_the_words_that_rest_does() {
    for (field, rest) in [("search", "search"), ("reverse", "reverse")] {
        let query = format!(
            "{{ {field}(q: \"house\", group: \"word\", limit: 5, offset: 1) {{ total totalEntries limit offset \
             results {{ id }} words {{ word lang frequency entryCount entries {{ id dictionaryId }} }} }} }}"
        );
        let answer = graphql(&query, json!({})).await;
        let page = &answer.json["data"][field];
        let reply = get_demo(&format!(
            "/api/v1/api/{rest}?q=house&group=word&limit=5&offset=1"
        ))
        .await;
        let meta = &reply.json["meta"];
        assert_eq!(page["total"], meta["total"], "{field}");
        assert_eq!(page["totalEntries"], meta["totalEntries"], "{field}");
        assert_eq!(page["results"], json!([]), "{field}: words only");
        let rest_words: Vec<Value> = reply
            .data()
            .as_array()
            .unwrap()
            .iter()
            .map(|w| {
                let entries: Vec<Value> = w["entries"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| json!({"id": e["id"], "dictionaryId": e["dictionaryId"]}))
                    .collect();
                json!({"word": w["word"], "lang": w["lang"], "frequency": w["frequency"],
                       "entryCount": w["entryCount"], "entries": entries})
            })
            .collect();
        assert!(!rest_words.is_empty(), "{field}: house has words");
        assert_eq!(page["words"], Value::Array(rest_words), "{field}");
        // Without grouping the page has entries and no words.
        let plain = graphql(
            &format!("{{ {field}(q: \"house\") {{ total totalEntries results {{ id }} words {{ word }} }} }}"),
            json!({}),
        )
        .await;
        let plain = &plain.json["data"][field];
        assert_eq!(plain["words"], json!([]), "{field}");
        assert_eq!(plain["total"], plain["totalEntries"], "{field}");
    }
}

#[tokio::test]
async fn an_unknown_grouping_is_a_400() {
    for path in [
        "/api/v1/api/search?q=house&group=words",
        "/api/v1/api/reverse?q=house&group=none",
    ] {
        let reply: Reply = get_demo(path).await;
        assert_eq!(reply.status, 400, "{path}");
        assert_eq!(reply.error(), "group must be one of entry, word", "{path}");
    }
    let answer = graphql(
        "{ search(q: \"house\", group: \"lemma\") { total } }",
        json!({}),
    )
    .await;
    assert_eq!(answer.json["data"]["search"], Value::Null);
    let message = answer.json["errors"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("group must be one of entry, word"),
        "{message}"
    );
}
