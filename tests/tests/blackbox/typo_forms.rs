//! Typos of inflected forms against the running stack (decisions.md, "Typos
//! of inflected forms"; docs/api.md, "Matching and ranking"): a query within
//! the allowed edits of a form finds the form's lemmas, in search and in the
//! suggestions of entry by word. The fixture has no `attach`, so its English
//! forms stand in: `running` (WordNet's `verb.exc`) and `booked` (morphy's
//! `ed` rule on the verb `book`). search.rs holds the same queries to the
//! scan of every entry, order and `total` included.

use blackbox::{enc, get_demo, stored_lexicon};
use serde_json::Value;
use shared::fold::fold;

/// A typo, the form it is one edit from, and the form's lemma.
const TYPOS: [(&str, &str, &str); 2] = [("runnin", "running", "run"), ("boked", "booked", "book")];

/// The first `n` distinct headwords (folded) of a search, and its `total`.
async fn first_headwords(query: &str, n: usize) -> (Vec<String>, u64) {
    let reply = get_demo(&format!("/api/v1/api/search?{query}&limit=50")).await;
    let mut words: Vec<String> = Vec::new();
    for r in reply.data().as_array().unwrap() {
        let word = fold(r["word"].as_str().unwrap());
        if words.len() < n && !words.contains(&word) {
            words.push(word);
        }
    }
    (words, reply.json["meta"]["total"].as_u64().unwrap())
}

#[tokio::test]
async fn the_fixture_has_the_forms_these_typos_are_of() {
    let lexicon = stored_lexicon().await;
    for (_, form, lemma) in TYPOS {
        let lemmas: Vec<&str> = lexicon.forms["en"].lemmas(form).collect();
        assert!(lemmas.contains(&lemma), "{form} → {lemma}: {lemmas:?}");
    }
}

#[tokio::test]
async fn a_typo_of_an_inflected_form_finds_its_lemma() {
    for (typo, form, lemma) in TYPOS {
        for match_type in ["prefix", "exact"] {
            let query = format!("q={}&lang=en&matchType={match_type}", enc(typo));
            let (words, total) = first_headwords(&query, 5).await;
            assert!(
                words.iter().any(|w| w == lemma),
                "{typo} ({match_type}) is one edit from {form}: {words:?}"
            );
            assert!(total >= words.len() as u64, "{total} {words:?}");
            // Typos of forms are typos: without them the lemma is gone.
            let (strict, _) = first_headwords(&format!("{query}&fuzzy=false"), 50).await;
            assert!(!strict.iter().any(|w| w == lemma), "{typo}: {strict:?}");
        }
    }
}

#[tokio::test]
async fn a_missing_word_suggests_the_lemma_of_the_form_it_is_a_typo_of() {
    for (source, typo, lemma) in [
        ("wordnet-en", "runnin", "run"),
        ("freedict-eng-fra", "boked", "book"),
    ] {
        let reply = get_demo(&format!("/api/v1/api/entry/{source}/word/{}", enc(typo))).await;
        assert_eq!(reply.status, 404, "{source} {typo}: {}", reply.text);
        assert_eq!(reply.error(), "Entry not found");
        let suggestions = reply.json["suggestions"].as_array().expect("suggestions");
        assert!(suggestions.len() <= 5);
        assert!(
            suggestions.contains(&Value::from(lemma)),
            "{source} {typo}: {suggestions:?}"
        );
    }
}
