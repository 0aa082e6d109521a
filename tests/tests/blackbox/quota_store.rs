//! The quota counter against the real DynamoDB Local of the running stack,
//! through `shared`'s KeyStore and QuotaCounter and the whole request pipeline in-process:
//! true concurrency (no HTTP server in between to queue requests) and an
//! injected clock.

use blackbox::{create_key, lambda_request, stack_clients};
use futures::future::join_all;
use shared::access::auth::{hash_key, KeyStore};
use shared::access::quota::QuotaCounter;
use shared::api::{pipeline, routes};
use shared::error::ApiError;
use shared::runtime::app::Clients;
use shared::runtime::config::Config;
use shared::{service, App};
use std::sync::Arc;
use time::macros::datetime;
use time::OffsetDateTime;

fn end_of_november() -> OffsetDateTime {
    datetime!(2026-11-30 23:59:59 UTC)
}

fn start_of_december() -> OffsetDateTime {
    datetime!(2026-12-01 00:00:00 UTC)
}

/// The key store and the quota counter, as a function holds them.
struct Keys {
    keys: KeyStore,
    quota: QuotaCounter,
}

async fn key_store() -> (Arc<Keys>, Config) {
    let (clients, config) = stack_clients().await;
    let keys = Keys {
        keys: KeyStore::new(clients.dynamodb.clone(), config.keys_table.clone()),
        quota: QuotaCounter::new(clients.dynamodb, config.keys_table.clone()),
    };
    (Arc::new(keys), config)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hundred_simultaneous_updates_leave_exactly_the_limit() {
    let (store, _) = key_store().await;
    let (secret, _) = create_key("free", Some(50));
    let record = store.keys.authenticate(&secret).await.unwrap();
    assert_eq!(record.key_hash, hash_key(&secret));
    let now = datetime!(2026-11-22 12:00:00 UTC);
    let tasks = (0..200).map(|_| {
        let (store, record) = (store.clone(), record.clone());
        tokio::spawn(async move { store.quota.consume(&record, now, 1).await })
    });
    let results: Vec<_> = join_all(tasks)
        .await
        .into_iter()
        .map(|r| r.unwrap())
        .collect();
    let ok = results.iter().filter(|r| r.is_ok()).count();
    let refused = results
        .iter()
        .filter(|r| matches!(r, Err(ApiError::QuotaExceeded { .. })))
        .count();
    assert_eq!((ok, refused), (50, 150));
    let mut remaining: Vec<u64> = results
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .map(|s| s.remaining)
        .collect();
    remaining.sort_unstable();
    assert_eq!(
        remaining,
        (0..50).collect::<Vec<_>>(),
        "every success saw a distinct count"
    );
    assert_eq!(store.quota.used(&record, now).await.unwrap(), 50);
}

/// 200 requests at once through `pipeline::serve` (key, counter, the entry read,
/// the envelope), as 200 warm Lambda instances would run them.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_hundred_simultaneous_requests_through_the_pipeline() {
    let (clients, config) = stack_clients().await;
    let app: &'static App = Box::leak(Box::new(App::new(
        config,
        clients,
        shared::runtime::app::system_clock,
    )));
    let (secret, _) = create_key("free", Some(50));
    let request = || {
        lambda_request(
            "/api/v1/api/entry/freedict-eng-fra/word/bank",
            &secret,
            None,
        )
    };
    let tasks = (0..200).map(|_| {
        let request = request();
        tokio::spawn(async move {
            let endpoint = &routes::ENTRY_BY_WORD;
            pipeline::serve(app, endpoint, request).await
        })
    });
    let responses: Vec<_> = join_all(tasks)
        .await
        .into_iter()
        .map(|r| r.unwrap())
        .collect();
    let status = |code: u16| responses.iter().filter(|r| r.status() == code).count();
    assert_eq!((status(200), status(429)), (50, 150));
    for response in &responses {
        let remaining: u64 = response.headers()["ratelimit-remaining"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        if response.status() == 429 {
            assert_eq!(remaining, 0);
            assert!(response.headers().contains_key("retry-after"));
        } else {
            assert!(remaining < 50);
        }
    }
    let record = app.keys.authenticate(&secret).await.unwrap();
    let usage = service::usage(app, &record).await.unwrap();
    assert_eq!((usage.usage, usage.limit, usage.remaining), (50, 50, 0));
}

#[tokio::test]
async fn a_new_month_starts_at_zero() {
    let (store, _) = key_store().await;
    let (secret, _) = create_key("free", Some(2));
    let record = store.keys.authenticate(&secret).await.unwrap();
    let (november, december) = (end_of_november(), start_of_december());
    store.quota.consume(&record, november, 1).await.unwrap();
    store.quota.consume(&record, november, 1).await.unwrap();
    match store.quota.consume(&record, november, 1).await {
        Err(ApiError::QuotaExceeded {
            retry_after_secs,
            remaining,
        }) => assert_eq!((retry_after_secs, remaining), (1, 0)),
        other => panic!("expected 429, got {other:?}"),
    }
    assert_eq!(store.quota.used(&record, november).await.unwrap(), 2);
    assert_eq!(
        store.quota.used(&record, december).await.unwrap(),
        0,
        "the new period starts at 0"
    );
    let state = store.quota.consume(&record, december, 1).await.unwrap();
    assert_eq!((state.limit, state.remaining), (2, 1));
    assert_eq!(state.reset_secs, 31 * 24 * 3600, "resets on 1 January");
}

#[tokio::test]
async fn usage_report_moves_its_reset_date_with_the_clock() {
    let (store, config) = key_store().await;
    let (secret, _) = create_key("starter", None);
    let record = store.keys.authenticate(&secret).await.unwrap();
    store
        .quota
        .consume(&record, end_of_november(), 1)
        .await
        .unwrap();

    let november = App::new(config.clone(), Clients::new(&config).await, end_of_november);
    let report = service::usage(&november, &record).await.unwrap();
    assert_eq!(
        (report.usage, report.limit, report.remaining),
        (1, 50_000, 49_999)
    );
    assert_eq!(report.reset_date, "2026-12-01T00:00:00Z");

    let december = App::new(
        config.clone(),
        Clients::new(&config).await,
        start_of_december,
    );
    let report = service::usage(&december, &record).await.unwrap();
    assert_eq!((report.usage, report.remaining), (0, 50_000));
    assert_eq!(report.reset_date, "2027-01-01T00:00:00Z");
}

/// A refusal tells what remains, as `/me/usage` would: at 4 of 5 a request
/// of 3 units is refused with 1 remaining, and one of 6 (more than the
/// whole limit) too. Units given back are counted off at once, never below
/// zero.
#[tokio::test]
async fn a_refusal_says_what_remains_and_units_come_back() {
    let (store, _) = key_store().await;
    let (secret, _) = create_key("free", Some(5));
    let record = store.keys.authenticate(&secret).await.unwrap();
    let now = end_of_november();
    assert_eq!(
        store
            .quota
            .consume(&record, now, 4)
            .await
            .unwrap()
            .remaining,
        1
    );
    for units in [3, 6] {
        match store.quota.consume(&record, now, units).await {
            Err(ApiError::QuotaExceeded { remaining, .. }) => assert_eq!(remaining, 1, "{units}"),
            other => panic!("expected 429, got {other:?}"),
        }
    }
    assert_eq!(
        store
            .quota
            .give_back(&record, now, 3)
            .await
            .unwrap()
            .remaining,
        4
    );
    assert_eq!(store.quota.used(&record, now).await.unwrap(), 1);
    assert!(
        store.quota.give_back(&record, now, 2).await.is_err(),
        "never below zero"
    );
    assert_eq!(store.quota.used(&record, now).await.unwrap(), 1);
}
