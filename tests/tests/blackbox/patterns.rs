//! Wildcard patterns (`matchType=pattern`) against the running stack: every
//! result of a pattern matches it, in the literal order of search, with an
//! exact `total`, every filter and pages that never overlap; a pattern of
//! fewer than 2 letters is a 400; GraphQL answers as REST does.

use crate::search::{graphql_searches_as_rest, page_through, Query};
use blackbox::{all_entries, demo_key, enc, get_demo, stored_lexicon};
use serde_json::{json, Value};
use shared::fold::fold;
use shared::search::matching::MatchType;
use std::collections::HashSet;

fn pattern(q: &'static str) -> Query {
    Query::new(q, "pattern")
}

/// The headwords (as written) of every result of a pattern.
async fn words(q: &str, extra: &str) -> (Vec<String>, u64) {
    let reply = get_demo(&format!(
        "/api/v1/api/search?q={}&matchType=pattern&limit=100{extra}",
        enc(q)
    ))
    .await;
    let words = reply
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["word"].as_str().unwrap().to_string())
        .collect();
    (words, reply.json["meta"]["total"].as_u64().unwrap())
}

#[tokio::test]
async fn every_pattern_filter_and_order_agrees_with_a_scan() {
    let entries = all_entries().await;
    let lexicon = stored_lexicon().await;
    assert!(entries.len() > 1000, "the fixture is imported");
    let mut queries = Vec::new();
    for q in [
        "h?use", "*tion", "c*t", "s??ing", "?a?e", "*a*e*", "ca*", "*at", "co?*t", "**on*",
        "H?USE", "*ation*", "?ous*", "ha*", "haus",
    ] {
        queries.push(pattern(q));
        // `fuzzy` has no effect: no typo tier, no lemma tier.
        queries.push(Query {
            fuzzy: false,
            ..pattern(q)
        });
    }
    for q in ["c*t", "*tion", "?a?e"] {
        queries.push(Query {
            lang: Some("en-fr"),
            ..pattern(q)
        });
        queries.push(Query {
            source: Some("gcide"),
            ..pattern(q)
        });
        queries.push(Query {
            pos: Some("noun"),
            ..pattern(q)
        });
        queries.push(Query {
            has_audio: true,
            ..pattern(q)
        });
        queries.push(Query {
            lang: Some("fr"),
            pos: Some("NOUN"),
            ..pattern(q)
        });
    }
    let mut found_some = 0;
    for query in &queries {
        assert_eq!(query.match_type, MatchType::Pattern);
        let expected = query.expected(&entries, &lexicon);
        let (got, totals) = page_through(query, 100).await;
        assert_eq!(got, expected, "{query:?}");
        assert_eq!(
            totals.into_iter().collect::<Vec<_>>(),
            vec![expected.len() as u64],
            "exact total: {query:?}"
        );
        found_some += usize::from(!expected.is_empty());
    }
    assert!(
        found_some > queries.len() / 2,
        "most patterns find something"
    );
}

#[tokio::test]
async fn each_result_matches_its_pattern() {
    let (found, total) = words("h?use", "").await;
    assert!(found.iter().any(|w| w == "house"), "{found:?}");
    assert_eq!(total, found.len() as u64);
    for w in &found {
        let w: Vec<char> = fold(w).chars().collect();
        assert!(
            w.len() == 5 && w[0] == 'h' && w[2..] == ['u', 's', 'e'],
            "{w:?}"
        );
    }

    let (found, total) = words("*tion", "").await;
    assert!(total >= 5, "the fixture has words in -tion: {found:?}");
    assert!(found.iter().all(|w| fold(w).ends_with("tion")), "{found:?}");

    let (found, _) = words("c*t", "").await;
    assert!(found.iter().any(|w| w == "cat"), "{found:?}");
    assert!(
        found.iter().all(|w| {
            let w = fold(w);
            w.starts_with('c') && w.ends_with('t')
        }),
        "{found:?}"
    );

    let (found, _) = words("s??ing", "").await;
    assert!(
        found.iter().all(|w| {
            let w = fold(w);
            w.chars().count() == 6 && w.starts_with('s') && w.ends_with("ing")
        }),
        "{found:?}"
    );

    // Literals are folded: capitals and diacritics find the same.
    assert_eq!(words("H?USE", "").await, words("h?use", "").await);
    assert_eq!(words("*TİON", "").await, words("*tion", "").await);

    // A filter: only that dictionary's matches.
    let reply =
        get_demo("/api/v1/api/search?q=c*t&matchType=pattern&source=freedict-eng-fra&limit=100")
            .await;
    let data = reply.data().as_array().unwrap();
    assert!(!data.is_empty());
    assert!(data.iter().all(|r| r["dictionaryId"] == "freedict-eng-fra"));
}

#[tokio::test]
async fn pages_of_a_pattern_never_overlap() {
    let (whole, _) = page_through(&pattern("*a*e*"), 100).await;
    assert!(whole.len() > 40, "*a*e* has several pages");
    for limit in [1, 7, 20] {
        let (paged, totals) = page_through(&pattern("*a*e*"), limit).await;
        assert_eq!(paged, whole, "limit {limit}");
        assert_eq!(totals.len(), 1, "total is the same on every page");
        let distinct: HashSet<&String> = paged.iter().collect();
        assert_eq!(distinct.len(), paged.len(), "no result twice");
    }
    let past_the_end = get_demo(&pattern("*a*e*").path(10, whole.len() + 5)).await;
    assert_eq!(past_the_end.data(), &Value::Array(vec![]));
    assert_eq!(past_the_end.json["meta"]["total"], whole.len() as u64);
    let far = get_demo(&pattern("*a*e*").path(10, 10_000)).await;
    assert_eq!(far.data(), &Value::Array(vec![]));
}

#[tokio::test]
async fn a_pattern_of_fewer_than_two_letters_is_a_400() {
    // `??`, `*a`, `a`, `?a*`, `* *`, a combining mark (which folds to nothing).
    for q in ["%3F%3F", "*a", "a", "%3Fa*", "*%20*", "%CC%81*%CC%81"] {
        let reply = get_demo(&format!("/api/v1/api/search?q={q}&matchType=pattern")).await;
        assert_eq!(reply.status, 400, "{q}: {}", reply.text);
        assert_eq!(
            reply.error(),
            "q must have at least 2 characters other than ? and * for matchType=pattern",
            "{q}"
        );
    }
    // Other match types take `?` and `*` as characters, as before.
    let reply = get_demo("/api/v1/api/search?q=%3F%3F&matchType=contains").await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let reply = get_demo("/api/v1/api/search?q=zz&matchType=patterns").await;
    assert_eq!(
        reply.error(),
        "matchType must be one of exact, prefix, contains, pattern, soundsLike"
    );
}

#[tokio::test]
async fn graphql_search_takes_a_pattern() {
    assert!(!graphql_searches_as_rest("c*t", "pattern", 50)
        .await
        .is_empty());

    let body = json!({
        "query": "{ search(q: \"?a\", matchType: \"pattern\") { total } }",
    });
    let reply = blackbox::graphql_body(Some(&demo_key()), &body).await;
    assert!(
        reply
            .text
            .contains("at least 2 characters other than ? and *"),
        "{}",
        reply.text
    );
}
