//! GraphQL introspection as tools send it: the standard queries of
//! graphql-js and graphql-core (tests/fixtures/graphql/) answer the whole
//! schema against the running stack, under introspection's own rule, and
//! cost what a request without data fields costs; data fields beside them
//! keep their limits and their cost. (That the answer is docs/schema.graphql
//! field by field: shared's `introspection` unit tests, and
//! tests/clients/test_introspection.py through graphql-core.)

use blackbox::{create_key, demo_key, recorded_app, repo_root};
use serde_json::{json, Value};
use shared::api::pipeline;
use shared::api::routes;
use shared::App;

const PATH: &str = "/api/v1/api/graphql";

fn standard_queries() -> Vec<(String, String)> {
    let dir = repo_root().join("tests/fixtures/graphql");
    ["graphql-js-16.15.0.graphql", "graphql-core-3.3.2.graphql"]
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(dir.join(file)).unwrap();
            (file.to_string(), text)
        })
        .collect()
}

async fn graphql(key: &str, body: Value) -> blackbox::Reply {
    blackbox::graphql_body(Some(key), &body).await
}

#[tokio::test]
async fn the_standard_introspection_queries_answer_the_whole_schema() {
    for (file, query) in standard_queries() {
        // As the tools send it: the operation named, no variables.
        let reply = graphql(
            &demo_key(),
            json!({"query": query, "operationName": "IntrospectionQuery", "variables": {}}),
        )
        .await;
        assert_eq!(reply.status, 200, "{file}: {}", reply.text);
        assert!(reply.json.get("errors").is_none(), "{file}: {}", reply.text);
        let schema = &reply.json["data"]["__schema"];
        assert_eq!(schema["queryType"]["name"], "Query", "{file}");
        let types: Vec<&str> = schema["types"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        for name in ["Query", "SearchPage", "Entry", "UsageRecord", "__Schema"] {
            assert!(types.contains(&name), "{file}: {name} in {types:?}");
        }
        let query_type = schema["types"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "Query")
            .unwrap();
        let search = query_type["fields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["name"] == "search")
            .expect("Query.search");
        assert_eq!(search["args"].as_array().unwrap().len(), 10, "{file}");
    }
}

async fn error_of(query: &str) -> (u16, String, Value) {
    let reply = graphql(&demo_key(), json!({"query": query})).await;
    let message = reply.json["errors"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    (
        reply.status,
        message,
        reply.json["errors"][0]["extensions"]["code"].clone(),
    )
}

fn of_types(n: usize) -> String {
    let mut selection = String::from("name");
    for _ in 0..n {
        selection = format!("name ofType {{ {selection} }}");
    }
    format!("{{ __type(name: \"Entry\") {{ fields {{ type {{ {selection} }} }} }} }}")
}

#[tokio::test]
async fn introspection_has_its_own_bounds_and_data_keeps_its_limits() {
    // ofType as deep as the standard query nests it, not deeper.
    let reply = graphql(&demo_key(), json!({"query": of_types(9)})).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    let (status, message, code) = error_of(&of_types(10)).await;
    assert_eq!((status, code), (400, json!("BAD_USER_INPUT")), "{message}");
    assert!(message.contains("ofType"), "{message}");
    // graphql-js's MaxIntrospectionDepthRule: a third nested list of types.
    let (status, message, _) = error_of(
        "{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }",
    )
    .await;
    assert_eq!(status, 400, "{message}");
    assert!(message.contains("possibleTypes"), "{message}");
    // Wide: more selections than the rule admits.
    let wide: String = (0..600).map(|i| format!("a{i}: name ")).collect();
    let (status, message, _) = error_of(&format!("{{ __schema {{ types {{ {wide} }} }} }}")).await;
    assert_eq!(status, 400, "{message}");
    assert!(message.contains("more than 500"), "{message}");
    // Within the selections, but an answer over the size bound.
    let names: String = (0..230).map(|i| format!("a{i}: name ")).collect();
    let (status, message, _) = error_of(&format!(
        "{{ __schema {{ types {{ fields {{ type {{ fields {{ {names} }} ofType {{ fields {{ {names} }} }} }} }} }} }} }}"
    ))
    .await;
    assert_eq!(status, 400, "{message}");
    assert!(message.contains("answer is larger"), "{message}");

    // Data fields beside introspection: the data limits, exactly.
    let (status, message, _) = error_of(
        "{ __schema { queryType { name } } search(q: \"bank\") { results { a { b { c { d { e } } } } } } }",
    )
    .await;
    assert_eq!(
        (status, message.as_str()),
        (400, "Query is nested too deep.")
    );
    // Nine searches of complexity 13 (within the 10 root fields, `__schema`
    // included): over 100.
    let nine: String = (0..9)
        .map(|i| format!("s{i}: search(q: \"bank\") {{ total results {{ id }} }} "))
        .collect();
    let (status, message, _) = error_of(&format!("{{ __schema {{ description }} {nine} }}")).await;
    assert_eq!((status, message.as_str()), (400, "Query is too complex."));
    let (status, message, _) = error_of(&format!("{{ {nine} }}")).await;
    assert_eq!((status, message.as_str()), (400, "Query is too complex."));
}

async fn usage(app: &App, secret: &str) -> u64 {
    let record = app.keys.authenticate(secret).await.unwrap();
    app.quota.used(&record, (app.clock)()).await.unwrap()
}

#[tokio::test]
async fn introspection_costs_what_a_request_without_data_fields_costs() {
    let (app, _) = recorded_app().await;
    let app: &'static App = Box::leak(Box::new(app));
    let (secret, _) = create_key("free", Some(100));
    let mut expected = 0;
    let mut cases: Vec<(String, u64)> = standard_queries()
        .into_iter()
        .map(|(_, query)| (query, 1))
        .collect();
    cases.extend([
        ("{ __typename }".to_string(), 1),
        ("{ __type(name: \"Entry\") { name } __typename }".to_string(), 1),
        // Mixed: the data fields pay, the introspection beside them does not.
        (
            "{ __schema { queryType { name } } a: autocomplete(q: \"ba\") b: autocomplete(q: \"ho\") }"
                .to_string(),
            2,
        ),
        (
            "{ __typename search(q: \"bank\") { total } }".to_string(),
            1,
        ),
    ]);
    for (query, units) in cases {
        let request = blackbox::lambda_request(PATH, &secret, Some(&query));
        let response = pipeline::serve(app, &routes::GRAPHQL, request).await;
        assert_eq!(response.status(), 200, "{query}");
        expected += units;
        assert_eq!(usage(app, &secret).await, expected, "{query}");
    }
}
