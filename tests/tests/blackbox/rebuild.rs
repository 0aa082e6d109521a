//! A rebuild of the index seen from instances that search meanwhile: the
//! first search of a fresh instance after `dictadmin index` answers 200 from
//! the new build (no 503 while it loads), and every search that runs during
//! a rebuild, or on a warm instance still holding the build it replaced,
//! answers from one build whole: its total is that of one of the two.
//!
//! The two builds differ: the second is made after another dictionary was
//! imported, so their totals for the same query differ. A replaced build
//! stays readable for its grace period, through further rebuilds, and goes
//! after it. Everything runs on a table of its own (made by `dictadmin
//! setup`), deleted at the end.

use aws_sdk_dynamodb::types::AttributeValue;
use blackbox::{repo_root, stack_clients};
use shared::queries::SearchQuery;
use shared::search::matching::MatchType;
use shared::search::snapshot::Section;
use shared::service;
use shared::storage::items::snapshot_part_pk;
use shared::storage::store::Store;
use std::process::Output;

fn dictadmin(table: &str, args: &[&str]) -> Output {
    let state = std::env::temp_dir().join(format!("rebuild-state-{}", std::process::id()));
    let out = blackbox::dictadmin_on_table(table, args, &[], &state);
    assert!(
        out.status.success(),
        "dictadmin {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn fixture(name: &str) -> String {
    let path = repo_root().join("data/fixture/freedict").join(name);
    path.to_str().expect("a UTF-8 path").to_string()
}

/// A fresh instance of the service on `table`: nothing of the snapshot held.
async fn instance(table: &str) -> shared::App {
    let (clients, config) = stack_clients().await;
    let config = shared::runtime::config::Config {
        entries_table: table.to_string(),
        ..config
    };
    shared::App::new(config, clients, shared::runtime::app::system_clock)
}

/// The total of a prefix search (typo-tolerant), as a page reports it.
async fn total(app: &shared::App, q: &str) -> u64 {
    let query = SearchQuery::new(q, MatchType::Prefix, true);
    match service::search(app, &query).await {
        Ok(page) => page.total,
        Err(e) => panic!("search {q}: {e:?}"),
    }
}

#[tokio::test]
async fn searches_answer_from_one_build_through_a_rebuild() {
    let (clients, _) = stack_clients().await;
    let table = format!("test-rebuild-{}", std::process::id());
    dictadmin(&table, &["setup"]);
    blackbox::on_scratch_table(&clients.dynamodb, &table, check_rebuild(table.clone())).await;
}

async fn check_rebuild(table: String) {
    dictadmin(
        &table,
        &["import", "freedict", &fixture("freedict-eng-fra")],
    );
    dictadmin(&table, &["index"]);
    let first_build = current_build(&table).await;
    let warm = instance(&table).await;
    let queries = ["ba", "ho", "ca", "wa"];
    let mut first = Vec::new();
    for q in &queries[..2] {
        first.push(total(&warm, q).await);
    }
    assert!(
        first.iter().all(|&t| t > 0),
        "the first build finds {first:?}"
    );

    // Another dictionary with the same words, then a rebuild, searched
    // meanwhile by fresh instances: each answers 200 with one build's total.
    dictadmin(
        &table,
        &["import", "freedict", &fixture("freedict-eng-spa")],
    );
    let rebuild = {
        let table = table.clone();
        tokio::task::spawn_blocking(move || dictadmin(&table, &["index"]))
    };
    let mut during = Vec::new();
    while !rebuild.is_finished() {
        during.push(total(&instance(&table).await, "ba").await);
    }
    rebuild.await.expect("the rebuild ran");
    let after = total(&instance(&table).await, "ba").await;
    assert!(
        after > first[0],
        "the second build has more: {after} vs {first:?}"
    );
    for t in &during {
        assert!([first[0], after].contains(t), "{t} is one build's total");
    }

    // The warm instance still holds the first build's pointer (the catalog
    // is cached for minutes): queries whose blocks it never read answer
    // from that build's blocks, kept with the pointer, not half from each.
    let fresh = instance(&table).await;
    for q in &queries[2..] {
        let (old, new) = (total(&warm, q).await, total(&fresh, q).await);
        assert!(old > 0 && new > old, "{q}: {old} before, {new} after");
    }
    assert_eq!(total(&warm, "ba").await, first[0], "warm: still one build");

    // Another rebuild at once: the first build, retired twice now, is
    // within its grace period (15 minutes by default), so it is still
    // stored and the warm instance still answers from it.
    dictadmin(&table, &["index"]);
    assert!(
        build_items(&table, &first_build).await > 0,
        "kept in its grace"
    );
    let (old, new) = (
        total(&warm, "ma").await,
        total(&instance(&table).await, "ma").await,
    );
    assert!(
        old > 0 && new > old,
        "ma: {old} from the first build, {new} now"
    );

    // A rebuild without a grace period deletes every retired build, and
    // keeps the current one.
    let before = current_build(&table).await;
    dictadmin(&table, &["index", "--grace-minutes", "0"]);
    assert_eq!(
        build_items(&table, &first_build).await,
        0,
        "the first build"
    );
    assert_eq!(build_items(&table, &before).await, 0, "the one it replaced");
    assert!(build_items(&table, &current_build(&table).await).await > 0);
}

/// The id of the build the pointer of `table` names as current, as a
/// fresh instance reads it.
async fn current_build(table: &str) -> String {
    let (clients, _) = stack_clients().await;
    Store::new(clients.dynamodb, table.to_string())
        .catalog()
        .await
        .expect("the catalog")
        .snapshot
        .clone()
        .expect("a current build")
        .build
}

/// How many items of its `core` section `build` still has in `table`.
async fn build_items(table: &str, build: &str) -> i32 {
    let (clients, _) = stack_clients().await;
    clients
        .dynamodb
        .query()
        .table_name(table)
        .key_condition_expression("pk = :pk")
        .expression_attribute_values(
            ":pk",
            AttributeValue::S(snapshot_part_pk(build, Section::Core)),
        )
        .select(aws_sdk_dynamodb::types::Select::Count)
        .consistent_read(true)
        .send()
        .await
        .expect("query a build's core")
        .count
}
