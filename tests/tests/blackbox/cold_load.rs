//! A cold instance's load of the index snapshot, against the local stack's
//! DynamoDB: it runs in tasks of its own, so a request whose deadline fires
//! in the middle of it leaves it running and the next request joins it;
//! requests that arrive together share one load; and each snapshot item is
//! asked for once, counted in the BatchGetItem requests DynamoDB Local gets.

use blackbox::{create_key, gated_app, lambda_request, recorded_app, snapshot_items_asked, Gate};
use lambda_http::{Body, Context, RequestExt};
use serde_json::Value;
use shared::api::pipeline;
use shared::api::routes;
use shared::queries::{AutocompleteQuery, RandomQuery, SearchQuery};
use shared::search::matching::MatchType;
use shared::search::snapshot::{Assemble, Index, Section};
use shared::service;
use std::collections::HashMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How many times each snapshot item was asked for.
fn asked_counts(calls: &[blackbox::DynamoCall]) -> HashMap<(String, String), usize> {
    let mut counts = HashMap::new();
    for key in snapshot_items_asked(calls) {
        *counts.entry(key).or_default() += 1;
    }
    counts
}

/// The items the index is read from (the sections every search reads
/// whole, the root of `terms`), as the pointer counts them.
async fn index_items(app: &shared::App) -> usize {
    let catalog = app.store.catalog().await.unwrap();
    let build = catalog.snapshot.as_ref().expect("the stack holds a build");
    let read_whole = |s: &Section| s.items_read_whole(build.parts[s]).len();
    Index::SECTIONS.iter().map(read_whole).sum()
}

/// Whether a snapshot item is one the index is read from (the items of
/// `core` and `forms`, the root of `terms`), not a term block a query reads.
fn is_index_item((pk, sk): &(String, String)) -> bool {
    pk.ends_with("#core") || pk.ends_with("#forms") || (pk.ends_with("#terms") && sk == "0")
}

/// Serves a search through the pipeline, as the function does, with a
/// Lambda deadline `budget` (plus the pipeline's margin) from now.
async fn serve_search(app: &'static shared::App, key: &str, budget: Duration) -> (u16, Value) {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    let mut context = Context::default();
    context.deadline = (now + budget + Duration::from_secs(1)).as_millis() as u64;
    let request = lambda_request("/api/v1/api/search?q=house&limit=20", key, None)
        .with_lambda_context(context);
    let response = pipeline::serve(app, &routes::SEARCH, request).await;
    let json = match response.body() {
        Body::Text(text) => serde_json::from_str(text).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    (response.status().as_u16(), json)
}

/// The deadline of the request that starts a load fires while its reads
/// are held back: that request answers 503, the load goes on, and the next
/// request is answered from it without asking DynamoDB for any snapshot
/// item again.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_cold_load_survives_the_deadline_of_the_request_that_started_it() {
    let gate = Gate::default();
    let (app, log) = gated_app(&gate).await;
    let app: &'static shared::App = Box::leak(Box::new(app));
    let (secret, _) = create_key("pro", None);
    let index_items = index_items(app).await;
    log.take();

    gate.close();
    let (status, json) = serve_search(app, &secret, Duration::from_secs(1)).await;
    let held = gate.held();
    gate.open();
    assert_eq!(status, 503, "the deadline fired: {json}");
    assert!(
        held > 0,
        "the deadline fired while the load's reads were held"
    );

    let (status, json) = serve_search(app, &secret, Duration::from_secs(5)).await;
    assert_eq!(status, 200, "{json}");
    assert!(json["meta"]["total"].as_u64().unwrap() > 0, "{json}");

    let counts = asked_counts(&log.take());
    let twice: Vec<_> = counts.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "asked again: {twice:?}");
    let index_asked = counts.keys().filter(|k| is_index_item(k)).count();
    assert_eq!(
        index_asked, index_items,
        "every item of the index, once, over both requests"
    );
}

fn search(q: &str, match_type: MatchType, fuzzy: bool) -> SearchQuery {
    SearchQuery::new(q, match_type, fuzzy)
}

/// Requests of every kind that reach a cold instance together share its
/// loads: no snapshot item is asked for twice, and the index's items are
/// each asked for once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_first_requests_read_each_part_once() {
    let (app, log) = recorded_app().await;
    let index_items = index_items(&app).await;
    log.take();
    let mut filtered = search("ba", MatchType::Prefix, true);
    filtered.lang = Some(shared::search::filters::LangFilter::parse("en-fr").unwrap());
    filtered.has_audio = true;
    let searches = [
        search("house", MatchType::Exact, false),
        search("house", MatchType::Exact, false),
        search("ba", MatchType::Prefix, true),
        search("hosue", MatchType::Exact, true),
        search("ous", MatchType::Contains, true),
        search("ouse", MatchType::Contains, true),
        search("ous", MatchType::Contains, true),
        filtered,
    ];
    let app = &app;
    let pages = futures::future::join_all(searches.iter().map(|q| service::search(app, q)));
    let suggest = AutocompleteQuery {
        q: "ba".into(),
        lang: None,
        source: None,
        limit: 10,
    };
    let draw = RandomQuery {
        lang: None,
        source: None,
        has_audio: false,
        count: 10,
    };
    let words = service::autocomplete(app, &suggest);
    let picks = service::random(app, &draw);
    let (pages, words, picks) = tokio::join!(pages, words, picks);
    for (q, page) in searches.iter().zip(pages) {
        assert!(page.unwrap().total > 0, "{} finds something", q.q);
    }
    assert!(!words.unwrap().is_empty());
    assert_eq!(picks.unwrap().len(), 10);

    let calls = log.take();
    assert!(
        calls.iter().all(|c| c.operation == "BatchGetItem"),
        "only snapshot reads: {:?}",
        calls.iter().map(|c| &c.operation).collect::<Vec<_>>()
    );
    let counts = asked_counts(&calls);
    let twice: Vec<_> = counts.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "asked more than once: {twice:?}");
    let index_asked = counts.keys().filter(|k| is_index_item(k)).count();
    assert_eq!(index_asked, index_items);
}
