//! Reverse lookup on real data: the default data set of `make up` (complete
//! FreeDict dictionaries and WordNet's common words), which
//! infra/scripts/real-data-test.sh loads before it runs these (they are
//! `#[ignore]`d: the fixture holds too little to draw from). Entries are
//! drawn at random through the API, so every run tries others; each test
//! prints its rate, which docs/benchmarks.md records.

use blackbox::{enc, get_demo};
use shared::model::Entry;
use shared::search::definitions::definition_text;
use std::collections::HashSet;

/// Entries drawn for each rate.
const DRAWS: usize = 50;
/// The share of them that must be found in the first 10.
const FOUND_AT_LEAST: f64 = 0.9;

/// Distinct random entries of `source` that `keep` gives a query for, as
/// (entry, query).
async fn draw(source: &str, keep: impl Fn(&Entry) -> Option<String>) -> Vec<(Entry, String)> {
    let mut drawn = Vec::new();
    let mut seen = HashSet::new();
    for _ in 0..200 {
        let reply = get_demo(&format!("/api/v1/random?source={source}&count=10")).await;
        for item in reply.data().as_array().expect("random items") {
            let id = item["id"].as_str().expect("id").to_string();
            if drawn.len() == DRAWS || !seen.insert(id.clone()) {
                continue;
            }
            let reply = get_demo(&format!("/api/v1/entry/{source}/{id}")).await;
            let entry: Entry = serde_json::from_value(reply.data().clone()).expect("an entry");
            if let Some(q) = keep(&entry) {
                drawn.push((entry, q));
            }
        }
        if drawn.len() == DRAWS {
            return drawn;
        }
    }
    panic!("{source}: only {} entries to draw from", drawn.len());
}

/// The ids of the first 10 results of a reverse lookup.
async fn first_ten(q: &str, lang: &str) -> Vec<String> {
    let reply = get_demo(&format!(
        "/api/v1/api/reverse?q={}&lang={lang}&limit=10",
        enc(q)
    ))
    .await;
    reply
        .data()
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["id"].as_str().expect("id").to_string())
        .collect()
}

/// The share of `drawn` that a reverse lookup of its query in `lang` finds
/// in its first 10, printed with the misses.
async fn rate(name: &str, drawn: &[(Entry, String)], lang: &str) -> f64 {
    let mut found = 0;
    for (entry, q) in drawn {
        if first_ten(q, lang).await.contains(&entry.id) {
            found += 1;
        } else {
            println!("{name}: {q:?} did not find {} ({})", entry.word, entry.id);
        }
    }
    let rate = found as f64 / drawn.len() as f64;
    println!("{name}: {found} of {} found in the first 10", drawn.len());
    rate
}

#[tokio::test]
#[ignore = "needs the default data set: infra/scripts/real-data-test.sh"]
async fn house_in_french_lists_maison() {
    let reply = get_demo("/api/v1/api/reverse?q=house&lang=fr-en&limit=10").await;
    let words: Vec<&str> = reply
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["word"].as_str().unwrap())
        .collect();
    assert!(words.contains(&"maison"), "{words:?}");
}

/// A one-word translation of a random French–English or Spanish–English
/// entry finds that entry in the first 10.
#[tokio::test]
#[ignore = "needs the default data set: infra/scripts/real-data-test.sh"]
async fn a_translation_finds_its_entry() {
    let one_word = |entry: &Entry| {
        entry
            .translations
            .iter()
            .find(|t| !t.trim().is_empty() && !t.trim().contains(char::is_whitespace))
            .map(|t| t.trim().to_string())
    };
    let mut drawn = draw("freedict-fra-eng", one_word).await;
    drawn.truncate(DRAWS / 2);
    let mut spanish = draw("freedict-spa-eng", one_word).await;
    spanish.truncate(DRAWS - drawn.len());
    let french = rate("fra-eng translations", &drawn, "fr-en").await;
    let spanish = rate("spa-eng translations", &spanish, "es-en").await;
    let both = (french + spanish) / 2.0;
    assert!(both >= FOUND_AT_LEAST, "{both:.2} of translations found");
}

/// The first gloss of a random WordNet entry finds that entry in the first
/// 10.
#[tokio::test]
#[ignore = "needs the default data set: infra/scripts/real-data-test.sh"]
async fn a_gloss_finds_its_entry() {
    let first_gloss = |entry: &Entry| {
        let text = definition_text(&entry.plain_text, &entry.examples);
        // The gloss, without the notes in parentheses (`(also: respond)`).
        let line = text.lines().next()?.split(';').next()?;
        let mut gloss = String::new();
        let mut depth = 0usize;
        for c in line.chars() {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ if depth == 0 => gloss.push(c),
                _ => {}
            }
        }
        // `q` takes 100 characters: a longer gloss is cut between words.
        let mut q = String::new();
        for word in gloss.split_whitespace() {
            if q.chars().count() + word.chars().count() + 1 > 100 {
                break;
            }
            if !q.is_empty() {
                q.push(' ');
            }
            q.push_str(word);
        }
        (!q.is_empty()).then_some(q)
    };
    let drawn = draw("wordnet-en", first_gloss).await;
    let found = rate("WordNet glosses", &drawn, "en").await;
    assert!(found >= FOUND_AT_LEAST, "{found:.2} of glosses found");
}
