//! Random headwords against the running stack: filters, counts, and a
//! statistical test that picks are uniform over the filtered set.

use blackbox::{all_entries, get_demo};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

async fn picks(path: &str) -> Vec<Value> {
    get_demo(path).await.data().as_array().unwrap().clone()
}

#[tokio::test]
async fn one_pick_by_default_and_count_distinct_picks() {
    let one = picks("/api/v1/random").await;
    assert_eq!(one.len(), 1);
    for field in ["id", "word", "dictionaryId", "dictionaryName", "sourceLang"] {
        assert!(one[0][field].is_string(), "{field}: {}", one[0]);
    }
    assert!(one[0].as_object().unwrap().contains_key("targetLang"));
    let ten = picks("/api/v1/random?count=10").await;
    assert_eq!(ten.len(), 10);
    let distinct: HashSet<String> = ten.iter().map(|p| p["id"].to_string()).collect();
    assert_eq!(distinct.len(), 10, "no entry twice in one answer");
}

#[tokio::test]
async fn picks_honour_the_filters() {
    for _ in 0..5 {
        for p in picks("/api/v1/random?count=10&lang=fr").await {
            assert_eq!(p["sourceLang"], "fr", "{p}");
        }
        for p in picks("/api/v1/random?count=10&lang=en-es").await {
            assert_eq!(
                (p["sourceLang"].as_str(), p["targetLang"].as_str()),
                (Some("en"), Some("es"))
            );
        }
        for p in picks("/api/v1/random?count=10&source=gcide").await {
            assert_eq!(p["dictionaryId"], "gcide");
        }
    }
    // Every audio pick has audio, checked through the entry endpoint.
    for p in picks("/api/v1/random?count=10&hasAudio=true").await {
        let path = format!(
            "/api/v1/entry/{}/{}",
            p["dictionaryId"].as_str().unwrap(),
            p["id"].as_str().unwrap()
        );
        assert_eq!(get_demo(&path).await.data()["hasAudio"], true, "{p}");
    }
    assert_eq!(picks("/api/v1/random?lang=xx").await, Vec::<Value>::new());
    assert_eq!(
        picks("/api/v1/random?lang=de&source=freedict-eng-fra").await,
        Vec::<Value>::new()
    );
}

/// Upper critical value of the chi-square distribution (Wilson–Hilferty), for
/// a false alarm rate of 1 in 10,000.
fn chi_square_critical(df: f64) -> f64 {
    let z = 3.719;
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

#[tokio::test]
async fn picks_are_uniform_over_a_filtered_set() {
    // The entries with audio in German: a small set spread over dictionaries
    // of very different sizes (FreeDict's and MyThes's excerpts), so a bias
    // towards a dictionary would show.
    let mut counts: HashMap<String, u32> = HashMap::new();
    let requests = 300;
    for _ in 0..requests {
        for p in picks("/api/v1/random?count=10&hasAudio=true&lang=de").await {
            *counts
                .entry(p["id"].as_str().unwrap().to_string())
                .or_default() += 1;
        }
    }
    let set = all_entries()
        .await
        .into_iter()
        .filter(|e| e.has_audio && e.source_lang == "de")
        .count();
    assert!(set >= 10, "a set of some size: {set}");
    assert_eq!(counts.len(), set, "every entry of the set is picked");
    let n = set as f64;
    let draws: u32 = counts.values().sum();
    assert_eq!(draws, requests * 10);
    let expected = f64::from(draws) / n;
    let chi_square: f64 = counts
        .values()
        .map(|&c| (f64::from(c) - expected).powi(2) / expected)
        .sum();
    assert!(
        chi_square < chi_square_critical(n - 1.0),
        "chi-square {chi_square:.1} over {n} entries: {counts:?}"
    );
}
