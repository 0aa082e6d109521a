//! What GraphQL documents cost on the running stack: one unit per root-field
//! selection that executes, whatever the document does to hide them
//! (docs/api.md, "Plans, quotas and the cost of a request"). Each test uses a
//! key of its own and reads its usage from `me/usage`, which is not counted.

use blackbox::{create_key, get, send};
use reqwest::Method;
use serde_json::{json, Value};

async fn graphql(key: &str, query: &str) -> blackbox::Reply {
    blackbox::graphql_as(key, query, json!({})).await
}

async fn used(key: &str) -> u64 {
    let usage = get("/api/v1/api/me/usage", Some(key)).await;
    usage.data()["usage"].as_u64().unwrap()
}

fn searches(n: usize) -> String {
    (1..=n)
        .map(|i| format!("s{i}: search(q: \"bank\", limit: 1) {{ total }} "))
        .collect()
}

/// Root fields that answered (a search that ran has a total).
fn answered(reply: &blackbox::Reply) -> usize {
    reply.json["data"].as_object().map_or(0, |data| {
        data.values().filter(|v| v["total"].is_u64()).count()
    })
}

#[tokio::test]
async fn nine_searches_beside_typename_cost_nine() {
    let (key, _) = create_key("free", Some(100));
    let reply = graphql(&key, &format!("{{ {} t1: __typename }}", searches(9))).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(answered(&reply), 9, "{}", reply.text);
    assert_eq!(reply.header("ratelimit-remaining"), Some("91"));
    assert_eq!(used(&key).await, 9);

    // Nine searches and two `__typename` are eleven root fields: over the
    // limit, refused unrun and not counted.
    let reply = graphql(
        &key,
        &format!("{{ {} t1: __typename t2: __typename }}", searches(9)),
    )
    .await;
    assert_eq!(reply.status, 400, "{}", reply.text);
    assert_eq!(reply.json["data"], Value::Null);
    assert_eq!(
        reply.json["errors"][0]["extensions"]["code"],
        "BAD_USER_INPUT"
    );
    assert_eq!(used(&key).await, 9, "the refused document counted nothing");
}

#[tokio::test]
async fn searches_under_seven_fragment_levels_cost_what_runs() {
    let (key, _) = create_key("free", Some(100));
    let deep = format!(
        "{{ ... {{ ... {{ ... {{ ... {{ ... {{ ... {{ ... on Query {{ {} }} }} }} }} }} }} }} }}",
        searches(3)
    );
    let reply = graphql(&key, &deep).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(answered(&reply), 3);
    assert_eq!(used(&key).await, 3);

    // Named fragments spread in one another count the same.
    let named = "{ ...A } fragment A on Query { ...B } fragment B on Query { ...C }
        fragment C on Query { x: search(q: \"bank\") { total } y: search(q: \"house\") { total } }";
    let reply = graphql(&key, named).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(used(&key).await, 5);
}

#[tokio::test]
async fn duplicates_cost_each_execution() {
    let (key, _) = create_key("free", Some(100));
    // async-graphql runs every occurrence of a field, identical or not, and
    // merges the answers of one response key afterwards: three runs here.
    let duplicates = "{ search(q: \"bank\") { total } search(q: \"bank\") { total }
        ... on Query { search(q: \"bank\") { total } } }";
    let reply = graphql(&key, duplicates).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert!(
        reply.json["data"]["search"]["total"].is_u64(),
        "{}",
        reply.text
    );
    assert_eq!(used(&key).await, 3);

    // Skipped ones do not run, and cost nothing.
    let skipped = "query($no: Boolean!) { a: search(q: \"bank\") { total }
        b: search(q: \"bank\") @include(if: $no) { total } c: search(q: \"bank\") @skip(if: true) { total } }";
    let reply = send(
        Method::POST,
        "/api/v1/api/graphql",
        Some(&key),
        Some(json!({"query": skipped, "variables": {"no": false}}).to_string()),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(answered(&reply), 1);
    assert_eq!(used(&key).await, 4);
}

#[tokio::test]
async fn a_document_that_fails_validation_costs_one() {
    let (key, _) = create_key("free", Some(100));
    for query in [
        // Three searches, but an unknown field: nothing runs.
        "{ a: search(q: \"bank\") { total } b: search(q: \"bank\") { total } c: search(q: \"x\") { nope } }",
        // A required argument missing.
        "{ a: search(q: \"bank\") { total } b: search { total } }",
    ] {
        let reply = graphql(&key, query).await;
        assert_eq!(reply.status, 400, "{}", reply.text);
    }
    assert_eq!(used(&key).await, 2);
}

/// Chains of 19, 23 and 40 levels are refused by admission, each counted
/// once, while a trivial request sent alongside answers (before admission,
/// 23 levels held the function for 25 s and answered 503; 40 never ended).
/// How long each takes beside the trivial one is in docs/benchmarks.md.
#[tokio::test]
async fn fragment_chains_are_refused_unrun_beside_a_trivial_request() {
    let (key, _) = create_key("free", Some(100));
    let chains = [19, 23, 40].map(blackbox::fragment_chain);
    let (trivial, refused) = tokio::join!(
        graphql(&key, "{ __typename }"),
        futures::future::join_all(chains.iter().map(|chain| graphql(&key, chain)))
    );
    assert_eq!(trivial.status, 200, "{}", trivial.text);
    assert_eq!(trivial.json["data"]["__typename"], "Query");
    for reply in refused {
        assert_eq!(reply.status, 400, "{}", reply.text);
        assert_eq!(
            reply.json["errors"][0]["message"],
            "Query expands to more than 2000 selections (fragments expanded)."
        );
        assert_eq!(
            reply.json["errors"][0]["extensions"]["code"],
            "BAD_USER_INPUT"
        );
    }
    assert_eq!(used(&key).await, 4, "each counted once");

    // A key with nothing left gets its 429 for the chain, not the work.
    let (spent, _) = create_key("free", Some(1));
    assert_eq!(graphql(&spent, "{ __typename }").await.status, 200);
    let reply = graphql(&spent, &chains[2]).await;
    assert_eq!(reply.status, 429, "{}", reply.text);
    assert_eq!(
        reply.json["errors"][0]["extensions"]["code"],
        "QUOTA_EXCEEDED"
    );
    assert_eq!(reply.header("ratelimit-remaining"), Some("0"));
}

/// At 4 of 5 units, a document of 3 is refused whole, and the headers say
/// what `me/usage` says: 1 remains.
#[tokio::test]
async fn a_refusal_tells_what_remains() {
    let (key, _) = create_key("free", Some(5));
    let reply = graphql(&key, &format!("{{ {} }}", searches(4))).await;
    assert_eq!(reply.header("ratelimit-remaining"), Some("1"));
    let reply = graphql(&key, &format!("{{ {} }}", searches(3))).await;
    assert_eq!(reply.status, 429, "{}", reply.text);
    assert_eq!(reply.header("ratelimit-remaining"), Some("1"));
    let usage = get("/api/v1/api/me/usage", Some(&key)).await;
    assert_eq!(usage.data()["remaining"], 1);
}
