//! A snapshot build of another release (another format on its pointer, none
//! at all, or other sections) makes searches answer 503 "rebuild the index"
//! with `Retry-After`, never a 500, while the endpoints that do not read the
//! snapshot answer as usual; a build of this release's format is read.
//!
//! The pipeline runs in-process against a table of its own on the local
//! stack's DynamoDB, so that the stack's entries table and its pointer are
//! never touched: the functions of the stack, which cache the catalog for
//! minutes, cannot see these pointers, and no test after this one can be
//! affected. The table is deleted whether the checks pass or not.

use blackbox::{create_key, lambda_request, stack_clients};
use lambda_http::Body;
use serde_json::Value;
use shared::access::auth::KeyStore;
use shared::access::quota::QuotaCounter;
use shared::api::pipeline::{self, Endpoint};
use shared::api::routes;
use shared::runtime::app::Clients;
use shared::runtime::config::Config;
use shared::search::snapshot::{self, Section};
use shared::storage::items::{snapshot_part_item, snapshot_pointer_item, SnapshotBuild};
use shared::storage::store::Store;
use shared::App;
use std::collections::BTreeMap;

const SEARCH: &str = "/api/v1/api/search?q=bank";

#[tokio::test]
async fn a_build_of_another_release_answers_503_rebuild_the_index() {
    let (clients, config) = stack_clients().await;
    let table = format!("format-test-{}", std::process::id());
    blackbox::create_pk_sk_table(&clients.dynamodb, &table).await;
    let checks = check_every_pointer(&clients, &config, &table);
    blackbox::on_scratch_table(&clients.dynamodb, &table, checks).await;
}

async fn check_every_pointer(clients: &Clients, config: &Config, table: &str) {
    let client = &clients.dynamodb;
    let (secret, _) = create_key("free", Some(100));

    // A real build of no entries, under this release's format: read.
    let built = snapshot::build(Vec::new(), &Default::default());
    let mut parts = BTreeMap::new();
    for (section, stored) in &built.sections {
        parts.insert(*section, stored.len());
        for (n, part) in stored.iter().cloned().enumerate() {
            client
                .put_item()
                .table_name(table)
                .set_item(Some(snapshot_part_item("b1", *section, n, part)))
                .send()
                .await
                .expect("put part");
        }
    }
    let ours = SnapshotBuild {
        build: "b1".into(),
        format: Some(snapshot::FORMAT),
        parts,
        ..Default::default()
    };
    put_pointer(client, table, &ours).await;
    let (status, _, json) = call(clients, config, table, &routes::SEARCH, SEARCH, &secret).await;
    assert_eq!(status, 200, "this release's build: {json}");

    let mut fewer = ours.clone();
    fewer.parts.remove(&Section::Definitions);
    let others = [
        (
            "a build from before formats were recorded",
            SnapshotBuild {
                format: None,
                ..ours.clone()
            },
        ),
        (
            "a build of an older format",
            SnapshotBuild {
                format: Some(snapshot::FORMAT - 1),
                ..ours.clone()
            },
        ),
        ("a build with other sections", fewer),
    ];
    for (what, other) in others {
        put_pointer(client, table, &other).await;
        // A fresh instance for each pointer: a warm one caches the catalog.
        let (status, retry_after, json) =
            call(clients, config, table, &routes::SEARCH, SEARCH, &secret).await;
        assert_eq!(status, 503, "{what}: {json}");
        assert_eq!(retry_after.as_deref(), Some("5"), "{what}");
        assert_eq!(json["ok"], false, "{what}: {json}");
        let message = json["error"].as_str().unwrap_or_default();
        assert!(message.contains("rebuild the index"), "{what}: {json}");
        let (status, _, json) = call(
            clients,
            config,
            table,
            &routes::DICTIONARIES,
            "/api/v1/api/dictionaries",
            &secret,
        )
        .await;
        assert_eq!(status, 200, "{what}, dictionaries: {json}");
    }
}

async fn put_pointer(client: &aws_sdk_dynamodb::Client, table: &str, build: &SnapshotBuild) {
    client
        .put_item()
        .table_name(table)
        .set_item(Some(snapshot_pointer_item(build, &[])))
        .send()
        .await
        .expect("put pointer");
}

/// One request to a cold instance whose entries table is `table`: status,
/// `Retry-After` and JSON body.
async fn call(
    clients: &Clients,
    config: &Config,
    table: &str,
    endpoint: &'static Endpoint,
    path: &str,
    key: &str,
) -> (u16, Option<String>, Value) {
    let app = App {
        store: Store::new(clients.dynamodb.clone(), table.to_string()),
        keys: KeyStore::new(clients.dynamodb.clone(), config.keys_table.clone()),
        quota: QuotaCounter::new(clients.dynamodb.clone(), config.keys_table.clone()),
        audio: Some(clients.audio.clone()),
        config: config.clone(),
        clock: shared::runtime::app::system_clock,
    };
    let app: &'static App = Box::leak(Box::new(app));
    let response = pipeline::serve(app, endpoint, lambda_request(path, key, None)).await;
    let json = match response.body() {
        Body::Text(text) => serde_json::from_str(text).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    (response.status().as_u16(), retry_after, json)
}
