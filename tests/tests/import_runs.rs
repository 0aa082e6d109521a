//! The importer against the running stack: a re-import changes nothing, and a
//! killed import resumes without listing a half-written dictionary.

use aws_sdk_dynamodb::types::AttributeValue;
use blackbox::{repo_root, stack_env};
use shared::app::Clients;
use shared::config::Config;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

fn dictadmin(args: &[&str], extra_env: &[(&str, &str)]) -> Output {
    let root = repo_root();
    Command::new(root.join("target/debug/dictadmin"))
        .args(args)
        .envs(stack_env())
        .envs(extra_env.iter().copied())
        .env(
            "DICTADMIN_STATE_DIR",
            std::env::temp_dir().join(format!("import-state-{}", std::process::id())),
        )
        .output()
        .expect("dictadmin runs")
}

async fn dynamodb() -> (aws_sdk_dynamodb::Client, Config) {
    let env = stack_env();
    let config =
        Config::from_lookup(|name| env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()))
            .unwrap();
    for (name, value) in &env {
        std::env::set_var(name, value);
    }
    (Clients::new(&config).await.dynamodb, config)
}

/// Every (pk, sk) of one dictionary's entries and links. A test may scan.
async fn keys_of(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    dictionary: &str,
) -> BTreeSet<(String, String)> {
    let mut keys = BTreeSet::new();
    let mut start = None;
    loop {
        let page = client
            .scan()
            .table_name(table)
            .filter_expression("dictionaryId = :d")
            .expression_attribute_values(":d", AttributeValue::S(dictionary.into()))
            .set_exclusive_start_key(start)
            .send()
            .await
            .unwrap();
        for item in page.items() {
            let s = |k: &str| item[k].as_s().unwrap().clone();
            keys.insert((s("pk"), s("sk")));
        }
        start = page.last_evaluated_key;
        if start.is_none() {
            return keys;
        }
    }
}

async fn is_listed(client: &aws_sdk_dynamodb::Client, table: &str, dictionary: &str) -> bool {
    let item = client
        .get_item()
        .table_name(table)
        .key(
            "pk",
            AttributeValue::S(shared::items::DICTIONARIES_PK.into()),
        )
        .key("sk", AttributeValue::S(dictionary.into()))
        .consistent_read(true)
        .send()
        .await
        .unwrap()
        .item;
    item.is_some()
}

/// Deletes a dictionary's record, entries and links (what a test imported).
async fn remove_dictionary(client: &aws_sdk_dynamodb::Client, table: &str, dictionary: &str) {
    let record = (
        shared::items::DICTIONARIES_PK.to_string(),
        dictionary.to_string(),
    );
    for (pk, sk) in keys_of(client, table, dictionary)
        .await
        .into_iter()
        .chain([record])
    {
        client
            .delete_item()
            .table_name(table)
            .key("pk", AttributeValue::S(pk))
            .key("sk", AttributeValue::S(sk))
            .send()
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn a_re_import_leaves_items_and_ids_unchanged() {
    let (client, config) = dynamodb().await;
    let before = keys_of(&client, &config.entries_table, "freedict-fra-eng").await;
    assert!(before.len() > 300);
    let prefix = repo_root().join("data/fixture/freedict/freedict-fra-eng");
    let out = dictadmin(&["import", "freedict", prefix.to_str().unwrap()], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = keys_of(&client, &config.entries_table, "freedict-fra-eng").await;
    assert_eq!(before, after, "same items, same ids");
}

#[tokio::test]
async fn a_killed_import_resumes_and_is_listed_only_when_complete() {
    let (client, config) = dynamodb().await;
    remove_dictionary(&client, &config.entries_table, "freedict-deu-nld").await;
    // A copy of a fixture under a new name is a new dictionary (German–Dutch).
    let dir = std::env::temp_dir().join(format!("resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = repo_root().join("data/fixture/freedict");
    for ext in ["index", "dict.dz"] {
        std::fs::copy(
            source.join(format!("freedict-deu-eng.{ext}")),
            dir.join(format!("freedict-deu-nld.{ext}")),
        )
        .unwrap();
    }
    let prefix = dir.join("freedict-deu-nld");
    let prefix = prefix.to_str().unwrap();

    let killed = dictadmin(
        &["import", "freedict", prefix],
        &[("DICTADMIN_CRASH_AFTER_ITEMS", "250")],
    );
    assert_eq!(killed.status.code(), Some(137), "the first run is cut off");
    assert!(
        !is_listed(&client, &config.entries_table, "freedict-deu-nld").await,
        "half-written is not listed"
    );
    assert_eq!(
        keys_of(&client, &config.entries_table, "freedict-deu-nld")
            .await
            .len(),
        250
    );

    let resumed = dictadmin(&["import", "freedict", prefix], &[]);
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        resumed.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert!(stdout.contains("resuming after 250 of"), "{stdout}");
    assert!(is_listed(&client, &config.entries_table, "freedict-deu-nld").await);
    let complete = keys_of(&client, &config.entries_table, "freedict-deu-nld").await;
    let english = keys_of(&client, &config.entries_table, "freedict-deu-eng").await;
    assert_eq!(
        complete.len(),
        english.len(),
        "every item of the source is in"
    );
    // Leave the local stack as it was: the German–Dutch copy is not real data.
    remove_dictionary(&client, &config.entries_table, "freedict-deu-nld").await;
    std::fs::remove_dir_all(&dir).unwrap();
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
