//! What GraphQL documents built to hide work cost a function, beside a
//! trivial document's (issue 36): each request goes through the whole
//! pipeline in-process (`pipeline::serve`: the key, the quota's update,
//! admission, validation, execution) on the local stack, release build. Each
//! round sends every line once, in a new order, and renames every fragment,
//! so that all lines share the machine's state and no line is a repeat.
//!
//!   set -a; . infra/local/stack.env; set +a
//!   cargo run --release -p bench --bin graphql-admission -- [rounds]
//!
//! It also times admission alone (`graphql::units`: parsing, admission and
//! the root-field count, all that runs before the quota) on the same
//! documents, and prints the status each line answered.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use shared::api::pipeline::{self, ApiRequest};
use shared::api::routes;
use shared::runtime::app::App;
use std::time::Instant;

/// The local stack's demo key (infra/scripts/lib.sh), which `make up` creates.
const DEMO_KEY: &str = "dk_localDemoKey00000000000000000000";

/// Fragments that each spread the next twice, `levels` of them, named `p`.
fn chain(levels: usize, p: &str) -> String {
    let mut query = format!("{{ search(q: \"bank\", limit: 1) {{ results {{ ...{p}0 }} }} }}\n");
    for i in 0..levels - 1 {
        query.push_str(&format!(
            "fragment {p}{i} on SearchResult {{ ...{p}{n} ...{p}{n} }}\n",
            n = i + 1
        ));
    }
    query + &format!("fragment {p}{} on SearchResult {{ id }}\n", levels - 1)
}

/// A fan-out chain that fills the body limit: each fragment spreads the
/// next four times under an alias and a directive.
fn full_body(p: &str) -> String {
    let mut query = format!("query($v: Boolean = true) {{ search(q: \"bank\") {{ ...{p}0 }} }}\n");
    let mut i = 0;
    while query.len() < 60 * 1024 {
        query.push_str(&format!(
            "fragment {p}{i} on SearchPage {{ l{i}: limit @include(if: $v) {} }}\n",
            format!("...{p}{} ", i + 1).repeat(4)
        ));
        i += 1;
    }
    query + &format!("fragment {p}{i} on SearchPage {{ total }}\n")
}

/// The largest shape admission lets through to validation: 1,990 aliased
/// fields (the engine's complexity limit then refuses it, after walking
/// every one).
fn widest_admitted(p: &str) -> String {
    let fields: String = (0..1_990).map(|i| format!("{p}{i}: total ")).collect();
    format!("{{ search(q: \"bank\", limit: 1) {{ {fields}}} }}")
}

/// 38 inline fragments in one another around one search: admitted, and
/// refused by the engine's depth limit.
fn deepest_admitted(_: &str) -> String {
    format!(
        "{{ {}search(q: \"bank\", limit: 1) {{ total }}{} }}",
        "... on Query { ".repeat(38),
        " }".repeat(38)
    )
}

type Document = fn(&str) -> String;

fn lines() -> Vec<(&'static str, Document)> {
    vec![
        ("trivial: { __typename }", |_| "{ __typename }".to_string()),
        ("one search, limit 1", |_| {
            "{ search(q: \"bank\", limit: 1) { total } }".to_string()
        }),
        ("fragment chain, 19 levels", |p| chain(19, p)),
        ("fragment chain, 23 levels", |p| chain(23, p)),
        ("fragment chain, 40 levels", |p| chain(40, p)),
        ("60 KB of fragments spread 4 times each", full_body),
        ("widest admitted: 1,990 fields", widest_admitted),
        ("deepest admitted: 38 inline fragments", deepest_admitted),
    ]
}

fn request(query: &str) -> lambda_http::Request {
    lambda_http::http::Request::builder()
        .method("POST")
        .uri("/api/v1/api/graphql")
        .header("authorization", format!("Bearer {DEMO_KEY}"))
        .header("content-type", "application/json")
        .body(lambda_http::Body::Text(
            serde_json::json!({ "query": query }).to_string(),
        ))
        .expect("a valid request")
}

fn api_request(query: &str) -> ApiRequest {
    ApiRequest {
        path_params: Vec::new(),
        query: shared::api::params::QueryParams::parse(""),
        body: serde_json::json!({ "query": query })
            .to_string()
            .into_bytes(),
        headers: Default::default(),
        request_id: "bench".into(),
        key: None,
        units: 0,
    }
}

#[tokio::main]
async fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50);
    let app: &'static App = Box::leak(Box::new(
        App::from_env().await.expect("stack.env in the environment"),
    ));
    let lines = lines();
    let mut whole: Vec<Vec<f64>> = vec![Vec::new(); lines.len()];
    let mut admission: Vec<Vec<f64>> = vec![Vec::new(); lines.len()];
    let mut statuses: Vec<Option<u16>> = vec![None; lines.len()];
    let mut rng = StdRng::seed_from_u64(36);
    let mut order: Vec<usize> = (0..lines.len()).collect();
    for round in 0..rounds + 1 {
        order.shuffle(&mut rng);
        for &i in &order {
            let prefix = format!("R{}x{}_", round, rng.random_range(0..1_000_000u32));
            let query = (lines[i].1)(&prefix);
            let started = Instant::now();
            let units = shared::api::graphql::units(&api_request(&query)).await;
            let admitted = started.elapsed().as_secs_f64() * 1000.0;
            let started = Instant::now();
            let response = pipeline::serve(app, &routes::GRAPHQL, request(&query)).await;
            let served = started.elapsed().as_secs_f64() * 1000.0;
            std::hint::black_box(units);
            // The first round warms the key cache and the index: not counted.
            if round > 0 {
                whole[i].push(served);
                admission[i].push(admitted);
            }
            let status = response.status().as_u16();
            assert!(
                statuses[i].is_none_or(|s| s == status),
                "{} answered {status} after {:?}",
                lines[i].0,
                statuses[i]
            );
            statuses[i] = Some(status);
        }
    }
    let (trivial, _, _) = bench::stats(&mut whole[0].clone());
    let (trivial_admission, _, _) = bench::stats(&mut admission[0].clone());
    println!(
        "| document | bytes | status | whole request p50 / p99 ms | × trivial (p50) | admission alone p50 / p99 ms | × trivial (p50) |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (i, (name, document)) in lines.iter().enumerate() {
        let bytes = serde_json::json!({ "query": document("R0x0_") })
            .to_string()
            .len();
        let (p50, p99, _) = bench::stats(&mut whole[i]);
        let (a50, a99, _) = bench::stats(&mut admission[i]);
        println!(
            "| {name} | {bytes} | {} | {p50:.2} / {p99:.2} | {:.2} | {a50:.3} / {a99:.3} | {:.2} |",
            statuses[i].unwrap_or_default(),
            p50 / trivial,
            a50 / trivial_admission
        );
    }
    println!("\n{rounds} rounds, release build, in-process pipeline on the local stack.");
}
