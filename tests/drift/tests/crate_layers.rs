//! The crates' layers, as Cargo.lock records them: the search engine
//! (`engine/`) depends, directly or not, on no AWS SDK, no Lambda runtime, no
//! GraphQL and nothing of the service; `shared` on no function, tool or test
//! crate; and no function on another. The compiler then keeps HTTP out of
//! the engine, and a layer can only be imported from above
//! (docs/architecture.md draws them).

use drift::repo_root;
use std::collections::{BTreeMap, BTreeSet};

/// Every package of Cargo.lock and the names of the packages it depends on.
fn lock_graph(lock: &str) -> BTreeMap<String, Vec<String>> {
    let mut graph = BTreeMap::new();
    for package in lock.split("[[package]]").skip(1) {
        let name = package
            .lines()
            .find_map(|l| l.strip_prefix("name = "))
            .map(|n| n.trim_matches('"').to_string())
            .expect("every package has a name");
        // `dependencies = [ "a", "b 1.2.3", ]`: the first word of each.
        let dependencies = package
            .split_once("dependencies = [")
            .map(|(_, rest)| rest.split(']').next().unwrap_or_default())
            .unwrap_or_default()
            .split(',')
            .filter_map(|d| d.trim().trim_matches('"').split(' ').next())
            .filter(|d| !d.is_empty())
            .map(String::from)
            .collect();
        graph.entry(name).or_insert(dependencies);
    }
    graph
}

/// `crate` and everything it depends on, directly or not.
fn closure(graph: &BTreeMap<String, Vec<String>>, crate_name: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![crate_name.to_string()];
    while let Some(name) = stack.pop() {
        if seen.insert(name.clone()) {
            stack.extend(graph.get(&name).into_iter().flatten().cloned());
        }
    }
    seen
}

/// The packages of `crate_name`'s closure that `forbidden` names.
fn forbidden_in(lock: &str, crate_name: &str, forbidden: impl Fn(&str) -> bool) -> Vec<String> {
    let graph = lock_graph(lock);
    assert!(
        graph.contains_key(crate_name),
        "{crate_name} is in Cargo.lock"
    );
    closure(&graph, crate_name)
        .into_iter()
        .filter(|name| name != crate_name && forbidden(name))
        .collect()
}

fn lock() -> String {
    std::fs::read_to_string(repo_root().join("Cargo.lock")).unwrap()
}

/// What the engine may never depend on: the service's crates and what
/// knows HTTP, AWS or GraphQL.
fn beyond_the_engine(name: &str) -> bool {
    name.starts_with("aws-")
        || name.starts_with("lambda_")
        || name.starts_with("async-graphql")
        || name == "shared"
}

/// The crates of the workspace's functions (`functions/*`).
fn functions() -> BTreeSet<String> {
    std::fs::read_dir(repo_root().join("functions"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn the_engine_depends_on_no_http_aws_graphql_or_service_crate() {
    assert_eq!(
        forbidden_in(&lock(), "engine", beyond_the_engine),
        Vec::<String>::new()
    );
}

#[test]
fn shared_depends_on_no_function_tool_or_test_crate() {
    let functions = functions();
    let above = |name: &str| {
        functions.contains(name)
            || ["admin", "bench", "blackbox", "drift", "hello-world"].contains(&name)
    };
    assert_eq!(forbidden_in(&lock(), "shared", above), Vec::<String>::new());
}

#[test]
fn no_function_depends_on_another() {
    let functions = functions();
    for function in &functions {
        let others = forbidden_in(&lock(), function, |name| functions.contains(name));
        assert_eq!(others, Vec::<String>::new(), "{function}");
    }
}

/// The check sees a dependency the engine gains at any depth: a lock in
/// which the engine depends on `fst`, and `fst` on `aws-smithy-types`.
#[test]
fn a_forbidden_dependency_at_any_depth_is_found() {
    let lock = r#"
[[package]]
name = "engine"
version = "0.1.0"
dependencies = [
 "fst",
]

[[package]]
name = "fst"
version = "0.4.7"
dependencies = [
 "aws-smithy-types 1.3.0",
]

[[package]]
name = "aws-smithy-types"
version = "1.3.0"
"#;
    assert_eq!(
        forbidden_in(lock, "engine", beyond_the_engine),
        ["aws-smithy-types"]
    );
}
