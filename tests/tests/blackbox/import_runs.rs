//! The importer against the running stack: a re-import changes nothing, and a
//! killed import resumes without listing a half-written dictionary.

use aws_sdk_dynamodb::types::AttributeValue;
use blackbox::{listed_dictionary, repo_root, stack_clients};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Output;

/// Runs dictadmin against `table` instead of the stack's entries table.
fn dictadmin(table: &str, args: &[&str], extra_env: &[(&str, &str)]) -> Output {
    let state = std::env::temp_dir().join(format!("import-state-{}", std::process::id()));
    blackbox::dictadmin_on_table(table, args, extra_env, &state)
}

/// A fresh entries table for one test, made by `dictadmin setup` from
/// template.yaml, so that the test sees only what it imports however much
/// data the local stack holds.
async fn fresh_table(name: &str) -> (aws_sdk_dynamodb::Client, String) {
    let (clients, _) = stack_clients().await;
    let table = format!("test-{name}-{}", std::process::id());
    let out = dictadmin(&table, &["setup"], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (clients.dynamodb, table)
}

async fn drop_table(client: &aws_sdk_dynamodb::Client, table: &str) {
    client
        .delete_table()
        .table_name(table)
        .send()
        .await
        .unwrap();
}

/// Every (pk, sk) of one dictionary's entries and links. A test may scan.
async fn keys_of(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    dictionary: &str,
) -> BTreeSet<(String, String)> {
    let scan = client
        .scan()
        .table_name(table)
        .filter_expression("dictionaryId = :d")
        .expression_attribute_values(":d", AttributeValue::S(dictionary.into()));
    blackbox::scanned(scan)
        .await
        .iter()
        .map(blackbox::key_of)
        .collect()
}

fn fixture(name: &str) -> String {
    repo_root()
        .join("data/fixture/freedict")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn a_re_import_leaves_items_and_ids_unchanged() {
    let (client, table) = fresh_table("reimport").await;
    let source = fixture("freedict-fra-eng");
    for _ in 0..2 {
        let out = dictadmin(&table, &["import", "freedict", &source], &[]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let first = keys_of(&client, &table, "freedict-fra-eng").await;
    assert!(first.len() > 300);
    let out = dictadmin(&table, &["import", "freedict", &source], &[]);
    assert!(out.status.success());
    assert_eq!(
        keys_of(&client, &table, "freedict-fra-eng").await,
        first,
        "same items, same ids"
    );
    drop_table(&client, &table).await;
}

#[tokio::test]
async fn a_killed_import_resumes_and_is_listed_only_when_complete() {
    let (client, table) = fresh_table("resume").await;
    let source = fixture("freedict-deu-eng");
    let killed = dictadmin(
        &table,
        &["import", "freedict", &source],
        &[("DICTADMIN_CRASH_AFTER_ITEMS", "250")],
    );
    assert_eq!(killed.status.code(), Some(137), "the first run is cut off");
    assert!(
        listed_dictionary(&client, &table, "freedict-deu-eng")
            .await
            .is_none(),
        "half-written is not listed"
    );
    assert_eq!(
        keys_of(&client, &table, "freedict-deu-eng").await.len(),
        250
    );

    let resumed = dictadmin(&table, &["import", "freedict", &source], &[]);
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        resumed.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert!(stdout.contains("resuming after 250 of"), "{stdout}");
    assert!(listed_dictionary(&client, &table, "freedict-deu-eng")
        .await
        .is_some());
    let resumed_keys = keys_of(&client, &table, "freedict-deu-eng").await;

    let (_, whole) = fresh_table("whole").await;
    assert!(dictadmin(&whole, &["import", "freedict", &source], &[])
        .status
        .success());
    assert_eq!(
        resumed_keys,
        keys_of(&client, &whole, "freedict-deu-eng").await,
        "every item is in"
    );
    drop_table(&client, &table).await;
    drop_table(&client, &whole).await;
}

#[test]
fn a_truncated_source_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("truncated-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = repo_root().join("data/fixture/freedict/freedict-eng-spa");
    std::fs::copy(
        source.with_extension("index"),
        dir.join("freedict-eng-spa.index"),
    )
    .unwrap();
    let data = std::fs::read(Path::new(&format!("{}.dict.dz", source.display()))).unwrap();
    std::fs::write(
        dir.join("freedict-eng-spa.dict.dz"),
        &data[..data.len() / 3],
    )
    .unwrap();
    let out = dictadmin(
        "unused",
        &[
            "import",
            "freedict",
            dir.join("freedict-eng-spa").to_str().unwrap(),
        ],
        &[],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("freedict-eng-spa.dict.dz") && stderr.contains("truncated"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
