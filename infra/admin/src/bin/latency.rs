//! Latency of every endpoint's read path on whatever the local stack holds
//! (the benchmark corpus for docs/benchmarks.md), side by side with a bare
//! DynamoDB GetItem against the same DynamoDB Local, in the same run: each
//! round runs every scenario once, so all share the same conditions.
//!
//!   set -a; . infra/local/stack.env; set +a
//!   cargo run --release -p admin --bin latency -- [rounds]
//!
//! It calls the service layer in-process, as a warm function does after auth;
//! the quota update runs concurrently with these reads in the functions and
//! is one UpdateItem, measured here as its own line.

use aws_sdk_dynamodb::types::AttributeValue;
use shared::app::App;
use shared::params::LangFilter;
use shared::search::rank::MatchType;
use shared::service::{self, SearchParams};
use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

type Scenario<'a> = (
    &'static str,
    Box<dyn Fn(usize) -> Pin<Box<dyn Future<Output = ()> + 'a>> + 'a>,
);

fn search(q: &str, match_type: MatchType, fuzzy: bool) -> SearchParams {
    SearchParams {
        q: q.into(),
        lang: None,
        source: None,
        match_type,
        pos: None,
        has_audio: false,
        fuzzy,
        limit: 20,
        offset: 0,
    }
}

fn pick<'a>(words: &'a [&'a str], round: usize) -> &'a str {
    words[round % words.len()]
}

#[tokio::main]
async fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(300);
    let app = App::from_env().await.expect("stack.env in the environment");
    // A client of its own, configured like the functions' one.
    let dynamodb = shared::app::Clients::new(&app.config).await.dynamodb;
    let table = app.config.entries_table.clone();
    let keys_table = app.config.keys_table.clone();

    // Known entries to read: the first results of a few searches.
    let sample = service::search(&app, &search("house", MatchType::Prefix, false))
        .await
        .expect("search works");
    let entries: Vec<(String, String, String)> = sample
        .results
        .iter()
        .map(|r| (r.dictionary_id.clone(), r.id.clone(), r.word.clone()))
        .collect();
    assert!(!entries.is_empty(), "the stack holds data");
    let with_audio = service::search(
        &app,
        &SearchParams {
            has_audio: true,
            ..search("b", MatchType::Prefix, false)
        },
    )
    .await
    .expect("search works")
    .results;
    service::dictionaries(&app).await.expect("dictionaries");

    let en = LangFilter::parse("en").unwrap();
    let prefixes = ["ba", "con", "st", "ha", "pre", "tr"];
    let letters = ["s", "c", "a", "m", "b"];
    let typos = ["hosue", "wrok", "bakn", "hosre", "freind"];
    let long_typos = ["dictoinary", "informaiton", "govermnent", "begining"];
    let grams = ["tion", "ous", "ment", "ing", "ab"];
    let a = &app;
    let scenarios: Vec<Scenario> = vec![
        (
            "bare GetItem (baseline)",
            Box::new(|r| {
                let (d, id, _) = entries[r % entries.len()].clone();
                let (client, table) = (&dynamodb, &table);
                Box::pin(async move {
                    client
                        .get_item()
                        .table_name(table)
                        .key("pk", AttributeValue::S(format!("E#{d}#{id}")))
                        .key("sk", AttributeValue::S("E".into()))
                        .send()
                        .await
                        .unwrap();
                })
            }),
        ),
        (
            "quota UpdateItem (concurrent with each read)",
            Box::new(|_| {
                let (client, table) = (&dynamodb, &keys_table);
                Box::pin(async move {
                    client
                        .update_item()
                        .table_name(table)
                        .key("pk", AttributeValue::S("KEY#latency-bench".into()))
                        .key("sk", AttributeValue::S("USAGE#bench".into()))
                        .update_expression("SET used = if_not_exists(used, :z) + :one")
                        .condition_expression("attribute_not_exists(used) OR used < :limit")
                        .expression_attribute_values(":z", AttributeValue::N("0".into()))
                        .expression_attribute_values(":one", AttributeValue::N("1".into()))
                        .expression_attribute_values(
                            ":limit",
                            AttributeValue::N("1000000000".into()),
                        )
                        .send()
                        .await
                        .unwrap();
                })
            }),
        ),
        (
            "entry by id",
            Box::new(|r| {
                let (d, id, _) = entries[r % entries.len()].clone();
                Box::pin(async move {
                    service::entry_by_id(a, &d, &id).await.unwrap();
                })
            }),
        ),
        (
            "entry by word",
            Box::new(|r| {
                let (d, _, word) = entries[r % entries.len()].clone();
                Box::pin(async move {
                    service::entry_by_word(a, &d, &word).await.unwrap();
                })
            }),
        ),
        (
            "audio",
            Box::new(|r| {
                let hit = with_audio.get(r % with_audio.len().max(1)).cloned();
                Box::pin(async move {
                    if let Some(hit) = hit {
                        service::audio_url(a, &hit.dictionary_id, &hit.id)
                            .await
                            .unwrap();
                    }
                })
            }),
        ),
        (
            "thesaurus",
            Box::new(|r| {
                let word = pick(&["good", "house", "run", "light"], r).to_string();
                Box::pin(async move {
                    service::thesaurus(a, &word, None, None).await.unwrap();
                })
            }),
        ),
        (
            "dictionaries (warm cache)",
            Box::new(|_| {
                Box::pin(async move {
                    service::dictionaries(a).await.unwrap();
                })
            }),
        ),
        (
            "random (count 10, lang=en)",
            Box::new(|_| {
                let en = en.clone();
                Box::pin(async move {
                    service::random(a, Some(&en), None, false, 10)
                        .await
                        .unwrap();
                })
            }),
        ),
        (
            "autocomplete, 2-3 letters",
            Box::new(|r| {
                let q = pick(&prefixes, r).to_string();
                Box::pin(async move {
                    service::autocomplete(a, &q, None, None, 10).await.unwrap();
                })
            }),
        ),
        (
            "autocomplete, 1 letter",
            Box::new(|r| {
                let q = pick(&letters, r).to_string();
                Box::pin(async move {
                    service::autocomplete(a, &q, None, None, 10).await.unwrap();
                })
            }),
        ),
        (
            "search exact (fuzzy=false)",
            Box::new(|r| {
                let (_, _, word) = entries[r % entries.len()].clone();
                Box::pin(async move {
                    service::search(a, &search(&word, MatchType::Exact, false))
                        .await
                        .unwrap();
                })
            }),
        ),
        (
            "search prefix, 2-3 letters",
            Box::new(|r| {
                let q = pick(&prefixes, r).to_string();
                Box::pin(async move {
                    service::search(a, &search(&q, MatchType::Prefix, true))
                        .await
                        .unwrap();
                })
            }),
        ),
        (
            "search prefix, 1 letter",
            Box::new(|r| {
                let q = pick(&letters, r).to_string();
                Box::pin(async move {
                    service::search(a, &search(&q, MatchType::Prefix, true))
                        .await
                        .unwrap();
                })
            }),
        ),
        (
            "search fuzzy, 4-7 letters (1 edit)",
            Box::new(|r| {
                let q = pick(&typos, r).to_string();
                Box::pin(async move {
                    service::search(a, &search(&q, MatchType::Prefix, true))
                        .await
                        .unwrap();
                })
            }),
        ),
        (
            "search fuzzy, 8+ letters (2 edits)",
            Box::new(|r| {
                let q = pick(&long_typos, r).to_string();
                Box::pin(async move {
                    service::search(a, &search(&q, MatchType::Prefix, true))
                        .await
                        .unwrap();
                })
            }),
        ),
        (
            "search contains, 2-4 letters",
            Box::new(|r| {
                let q = pick(&grams, r).to_string();
                Box::pin(async move {
                    service::search(a, &search(&q, MatchType::Contains, true))
                        .await
                        .unwrap();
                })
            }),
        ),
        (
            "search contains, 1 letter",
            Box::new(|r| {
                let q = pick(&letters, r).to_string();
                Box::pin(async move {
                    service::search(a, &search(&q, MatchType::Contains, true))
                        .await
                        .unwrap();
                })
            }),
        ),
    ];

    // One warm-up round, then the measured ones.
    let mut timings: Vec<Vec<Duration>> = vec![Vec::new(); scenarios.len()];
    for round in 0..=rounds {
        for (i, (_, run)) in scenarios.iter().enumerate() {
            let started = Instant::now();
            run(round).await;
            if round > 0 {
                timings[i].push(started.elapsed());
            }
        }
    }
    println!("| Read path | p50 ms | p99 ms |");
    println!("|---|---:|---:|");
    for ((name, _), mut samples) in scenarios.iter().zip(timings) {
        samples.sort();
        let at = |q: f64| {
            let i = ((samples.len() as f64 * q).ceil() as usize).clamp(1, samples.len()) - 1;
            samples[i].as_secs_f64() * 1000.0
        };
        println!("| {name} | {:.1} | {:.1} |", at(0.50), at(0.99));
    }
    println!("\n{rounds} rounds, every scenario once per round.");
}
