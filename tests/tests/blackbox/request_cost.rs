//! What a request costs, through the whole pipeline in-process (`pipeline::serve`
//! with the real handlers) on the local stack's DynamoDB, with every DynamoDB
//! call recorded: a refused request does no endpoint work, GraphQL counts one
//! unit per root field, and an unknown key is remembered for a short while.

use blackbox::{create_key, lambda_request, recorded, recorded_app, stack_clients};
use lambda_http::{Body, Request, Response};
use serde_json::Value;
use shared::access::auth::Plan;
use shared::access::auth::{hash_key, KeyCacheTtls, KeyRecord, KeyStore};
use shared::api::pipeline::{self, Endpoint};
use shared::api::routes;
use shared::error::ApiError;
use shared::App;
use std::time::Duration;

fn get(path: &str, key: &str) -> Request {
    lambda_request(path, key, None)
}

fn graphql(query: &str, key: &str) -> Request {
    lambda_request("/api/v1/api/graphql", key, Some(query))
}

async fn serve(app: &'static App, endpoint: &'static Endpoint, request: Request) -> Response<Body> {
    pipeline::serve(app, endpoint, request).await
}

fn header(response: &Response<Body>, name: &str) -> u64 {
    response.headers()[name].to_str().unwrap().parse().unwrap()
}

fn body(response: &Response<Body>) -> Value {
    match response.body() {
        Body::Text(text) => serde_json::from_str(text).unwrap(),
        other => panic!("unexpected body {other:?}"),
    }
}

async fn usage(app: &App, secret: &str) -> u64 {
    let record = app.keys.authenticate(secret).await.unwrap();
    app.quota.used(&record, (app.clock)()).await.unwrap()
}

#[tokio::test]
async fn a_refused_request_does_no_endpoint_work() {
    let (app, calls) = recorded_app().await;
    let app: &'static App = Box::leak(Box::new(app));
    let (secret, _) = create_key("free", Some(1));
    let path = "/api/v1/api/entry/freedict-eng-fra/word/bank";

    let first = serve(app, &routes::ENTRY_BY_WORD, get(path, &secret)).await;
    assert_eq!(first.status(), 200);
    let served = calls.take_operations();
    assert!(
        served.len() >= 3,
        "the key, the counter and the endpoint's own reads: {served:?}"
    );

    let refused = serve(app, &routes::ENTRY_BY_WORD, get(path, &secret)).await;
    assert_eq!(refused.status(), 429);
    assert_eq!(
        calls.take_operations(),
        ["UpdateItem"],
        "a 429 costs the refused counter update and nothing else"
    );

    // 401 and 403 stop before the counter and the endpoint alike.
    let unknown = serve(
        app,
        &routes::ENTRY_BY_WORD,
        get(path, "dk_unknownKey0000000000000000000000"),
    )
    .await;
    assert_eq!(unknown.status(), 401);
    assert_eq!(calls.take_operations(), ["GetItem"], "only the key lookup");
}

#[tokio::test]
async fn graphql_counts_one_unit_per_root_field() {
    let (app, calls) = recorded_app().await;
    let app: &'static App = Box::leak(Box::new(app));
    let (secret, _) = create_key("free", Some(5));
    let three_fields = r#"{
        a: autocomplete(q: "ba")
        b: search(q: "bank") { total }
        c: search(q: "house") { total }
    }"#;

    let response = serve(app, &routes::GRAPHQL, graphql(three_fields, &secret)).await;
    assert_eq!(response.status(), 200, "{:?}", body(&response));
    assert_eq!(
        body(&response)["data"]["b"]["total"]
            .as_u64()
            .map(|t| t > 0),
        Some(true)
    );
    assert_eq!(header(&response, "ratelimit-remaining"), 2);
    assert_eq!(usage(app, &secret).await, 3, "three root fields count 3");
    calls.take();

    // Two units remain: a query that needs three is refused whole, and
    // neither counts nor reads anything.
    let response = serve(app, &routes::GRAPHQL, graphql(three_fields, &secret)).await;
    assert_eq!(response.status(), 429);
    assert_eq!(
        body(&response)["errors"][0]["extensions"]["code"],
        "QUOTA_EXCEEDED"
    );
    assert_eq!(body(&response)["data"], Value::Null);
    assert_eq!(calls.take_operations(), ["UpdateItem"]);
    assert_eq!(
        header(&response, "ratelimit-remaining"),
        2,
        "what remains, as me/usage says: the refusal took nothing"
    );
    assert_eq!(
        usage(app, &secret).await,
        3,
        "the refused query counted nothing"
    );

    // A fragment's root fields count too; two units are exactly enough.
    let fragment = r#"query { ...two } fragment two on Query {
        x: autocomplete(q: "ho") y: autocomplete(q: "ba") }"#;
    let response = serve(app, &routes::GRAPHQL, graphql(fragment, &secret)).await;
    assert_eq!(response.status(), 200, "{:?}", body(&response));
    assert_eq!(header(&response, "ratelimit-remaining"), 0);
    assert_eq!(usage(app, &secret).await, 5);
}

#[tokio::test]
async fn a_query_that_cannot_run_counts_one_and_one_over_the_limit_nothing() {
    let (app, calls) = recorded_app().await;
    let app: &'static App = Box::leak(Box::new(app));
    let (secret, _) = create_key("free", Some(100));
    for query in ["{ search(q: ", "{ search(q: \"a\") { total } nope }"] {
        let response = serve(app, &routes::GRAPHQL, graphql(query, &secret)).await;
        assert_eq!(response.status(), 400, "{query}");
    }
    assert_eq!(usage(app, &secret).await, 2);
    calls.take();
    let too_many: String = (0..40)
        .map(|i| format!("f{i}: autocomplete(q: \"a\") "))
        .collect();
    let response = serve(
        app,
        &routes::GRAPHQL,
        graphql(&format!("{{ {too_many} }}"), &secret),
    )
    .await;
    assert_eq!(response.status(), 400);
    assert_eq!(
        calls.take_operations(),
        ["GetItem"],
        "over the root-field limit: the usage read for the headers, no counter update"
    );
    assert_eq!(usage(app, &secret).await, 2, "not counted");
}

#[tokio::test]
async fn a_document_built_to_hide_work_is_refused_unrun_and_a_spent_key_gets_429_first() {
    let (app, calls) = recorded_app().await;
    let app: &'static App = Box::leak(Box::new(app));
    let (secret, _) = create_key("free", Some(3));
    for levels in [19, 23, 40] {
        let response = serve(
            app,
            &routes::GRAPHQL,
            graphql(&blackbox::fragment_chain(levels), &secret),
        )
        .await;
        assert_eq!(response.status(), 400, "{levels}");
        assert_eq!(
            body(&response)["errors"][0]["message"],
            "Query expands to more than 2000 selections (fragments expanded).",
            "{levels}"
        );
        if levels == 19 {
            // The key and the counter: nothing of the index, no entry.
            assert_eq!(calls.take_operations(), ["GetItem", "UpdateItem"]);
        }
    }
    // Three units, three chains answered: the fourth finds none left, and
    // is refused by the counter's one update before its document is looked
    // at any further.
    assert_eq!(usage(app, &secret).await, 3);
    calls.take();
    let response = serve(
        app,
        &routes::GRAPHQL,
        graphql(&blackbox::fragment_chain(40), &secret),
    )
    .await;
    assert_eq!(response.status(), 429);
    assert_eq!(header(&response, "ratelimit-remaining"), 0);
    assert_eq!(calls.take_operations(), ["UpdateItem"]);
}

#[tokio::test]
async fn a_document_that_fails_validation_gives_back_all_but_one_unit() {
    let (app, calls) = recorded_app().await;
    let app: &'static App = Box::leak(Box::new(app));
    let (secret, _) = create_key("free", Some(10));
    let unknown_field = r#"{ a: search(q: "bank") { total } b: search(q: "x") { total } c: search(q: "x") { nope } }"#;
    let response = serve(app, &routes::GRAPHQL, graphql(unknown_field, &secret)).await;
    assert_eq!(response.status(), 400, "{:?}", body(&response));
    // The key, charged three before validation, given two back after it:
    // the headers say what me/usage says.
    assert_eq!(
        calls.take_operations(),
        ["GetItem", "UpdateItem", "UpdateItem"]
    );
    assert_eq!(header(&response, "ratelimit-remaining"), 9);
    assert_eq!(usage(app, &secret).await, 1);
}

#[tokio::test]
async fn an_unknown_key_is_remembered_briefly() {
    let (clients, config) = stack_clients().await;
    let (dynamodb, calls) = recorded(&clients.dynamodb);
    let ttls = KeyCacheTtls {
        known: Duration::from_secs(30),
        unknown: Duration::from_millis(1500),
    };
    let store = KeyStore::with_cache_ttls(dynamodb.clone(), config.keys_table.clone(), ttls);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let secret = format!("dk_unknown{:022}", nanos % 10u128.pow(22));

    assert_eq!(store.authenticate(&secret).await, Err(ApiError::InvalidKey));
    assert_eq!(calls.take_operations(), ["GetItem"]);
    assert_eq!(store.authenticate(&secret).await, Err(ApiError::InvalidKey));
    assert!(calls.take_operations().is_empty(), "the second try is free");

    // The key is created now: the instance that saw it unknown accepts it
    // once the negative entry expires.
    let record = KeyRecord {
        key_hash: hash_key(&secret),
        key_id: "key_negcache".into(),
        name: "negative cache test".into(),
        plan: Plan::Free,
        custom_limit: None,
        disabled: false,
        created_at: "2026-11-23T00:00:00Z".into(),
    };
    dynamodb
        .put_item()
        .table_name(&config.keys_table)
        .set_item(Some(record.to_item()))
        .send()
        .await
        .unwrap();
    calls.take();
    assert_eq!(store.authenticate(&secret).await, Err(ApiError::InvalidKey));
    tokio::time::sleep(ttls.unknown).await;
    assert_eq!(store.authenticate(&secret).await, Ok(record.clone()));
    assert_eq!(calls.take_operations(), ["GetItem"]);

    // A fresh instance (no negative entry) accepts a new key at once.
    let fresh = KeyStore::new(clients.dynamodb, config.keys_table);
    assert_eq!(fresh.authenticate(&secret).await, Ok(record));
}
