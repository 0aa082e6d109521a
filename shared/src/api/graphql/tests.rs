use super::*;

/// docs/schema.graphql is the schema the code builds; regenerate it with
/// `UPDATE_SCHEMA=1 cargo test -p shared graphql`.
#[test]
fn committed_sdl_matches_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/schema.graphql");
    let sdl = schema().sdl();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(path, &sdl).unwrap();
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == sdl,
        "docs/schema.graphql drifted from the code; run UPDATE_SCHEMA=1 cargo test -p shared graphql"
    );
}

/// A GraphQL field's arguments, as the engine hands them to a resolver.
fn arguments(json: Value) -> FieldArguments {
    let Value::Object(map) = json else {
        panic!("arguments are an object")
    };
    FieldArguments(
        map.into_iter()
            .map(|(name, value)| (Name::new(name), GraphqlValue::from_json(value).unwrap()))
            .collect(),
    )
}

fn message(err: ApiError) -> String {
    err.public_message()
}

/// The same values, written as a query string and as GraphQL arguments,
/// give the same query or the same first error.
#[test]
fn both_sources_agree_value_for_value() {
    use crate::api::params::QueryParams;
    let cases: [(&str, Value); 6] = [
        (
            "q=bank&lang=EN-fr&source=freedict-eng-fra&matchType=exact&pos=noun&hasAudio=true&fuzzy=false&limit=7&offset=3",
            json!({
                "q": "bank",
                "lang": "EN-fr",
                "source": "freedict-eng-fra",
                "matchType": "exact",
                "pos": "noun",
                "hasAudio": true,
                "fuzzy": false,
                "limit": 7,
                "offset": 3,
            }),
        ),
        ("q=+bank+", json!({"q": " bank "})),
        ("q=bank&limit=0", json!({"q": "bank", "limit": 0})),
        ("q=bank&offset=10001", json!({"q": "bank", "offset": 10_001})),
        ("q=&lang=xx-", json!({"q": "", "lang": "xx-"})),
        (
            "q=bank&matchType=fuzzy&limit=0",
            json!({"q": "bank", "matchType": "fuzzy", "limit": 0}),
        ),
    ];
    for (text, json) in cases {
        let rest = SearchQuery::read(&QueryParams::parse(text)).map_err(message);
        let graphql = SearchQuery::read(&arguments(json)).map_err(message);
        assert_eq!(rest, graphql, "{text}");
    }
}

#[test]
fn negative_and_huge_numbers_are_out_of_range_as_in_a_query_string() {
    for value in [-1, i64::MIN, i64::MAX, 101] {
        let read = SearchQuery::read(&arguments(json!({"q": "bank", "limit": value})));
        assert_eq!(
            message(read.unwrap_err()),
            "limit must be an integer from 1 to 100"
        );
    }
    assert_eq!(RandomQuery::read(&arguments(json!({}))).unwrap().count, 1);
    let fifty = AutocompleteQuery::read(&arguments(json!({"q": "a", "limit": 50})));
    assert_eq!(fifty.unwrap().limit, 50);
}

#[test]
fn long_arguments_are_refused_unread_as_in_a_query_string() {
    use crate::api::params::QueryParams;
    let long = "x".repeat(3000);
    let err = ThesaurusQuery::read("bank", &arguments(json!({"lang": long.clone()}))).unwrap_err();
    assert_eq!(message(err), "lang is too long");
    let err =
        ThesaurusQuery::read("bank", &QueryParams::parse(&format!("lang={long}"))).unwrap_err();
    assert_eq!(message(err), "lang is too long");
}

fn document(query: &str) -> ExecutableDocument {
    async_graphql::parser::parse_query(query).unwrap()
}

fn variables(json: Value) -> Variables {
    Variables::from_json(json)
}

#[test]
fn required_variables_must_be_given() {
    let doc = document(
        "query Q($n: Int!, $m: Int, $d: Int! = 3) { search(q: \"a\", limit: $n) { total } }",
    );
    let op = chosen_operation(&doc, None).unwrap();
    assert_eq!(
        missing_variable(op, &variables(json!({}))).as_deref(),
        Some("Variable $n of required type Int! was not provided")
    );
    assert!(missing_variable(op, &variables(json!({"n": null}))).is_some());
    assert_eq!(missing_variable(op, &variables(json!({"n": 5}))), None);
}

/// The response keys of the root fields `query` executes.
fn root_keys(query: &str, name: Option<&str>, vars: Value) -> Option<Vec<String>> {
    let doc = document(query);
    let op = chosen_operation(&doc, name).unwrap();
    cost::executed_root_fields(&doc, op, &variables(vars))
        .map(|fields| fields.into_iter().map(|f| f.key).collect())
}

#[test]
fn operations_are_chosen_by_name() {
    let doc = document("query A { dictionaries { dictionaryId } } query B { usage { plan } }");
    assert!(
        chosen_operation(&doc, None).is_none(),
        "ambiguous: the engine reports it"
    );
    let keys = root_keys(
        "query A { dictionaries { dictionaryId } } query B { usage { plan } }",
        Some("B"),
        json!({}),
    );
    assert_eq!(keys.unwrap(), ["usage"]);
}

#[test]
fn root_fields_follow_the_engine_through_fragments_aliases_and_directives() {
    let keys = root_keys(
        "{ z: usage { plan } ...F ... on Query { autocomplete(q: \"a\") } usage { plan } }
         fragment F on Query { search(q: \"a\") { total } z: usage { plan } }",
        None,
        json!({}),
    );
    assert_eq!(
        keys.unwrap(),
        ["z", "search", "z", "autocomplete", "usage"],
        "every occurrence runs"
    );
    let cyclic = root_keys(
        "{ ...A } fragment A on Query { ...A usage { plan } }",
        None,
        json!({}),
    );
    assert_eq!(cyclic.unwrap(), ["usage"], "a fragment cycle ends");
    let seven_deep = root_keys(
        "{ ... { ... { ... { ... { ... { ... { ... on Query {
           a: search(q: \"a\") { total } b: search(q: \"b\") { total } c: search(q: \"c\") { total }
         } } } } } } } }",
        None,
        json!({}),
    );
    assert_eq!(seven_deep.unwrap(), ["a", "b", "c"]);
    let directives = root_keys(
        "query($yes: Boolean, $no: Boolean = true) {
           a: usage @skip(if: true) { plan }
           b: usage @include(if: $yes) { plan }
           c: usage @include(if: $no) { plan }
           ... @skip(if: $no) { d: usage { plan } }
           e: usage @skip(if: false) @include(if: true) { plan }
         }",
        None,
        json!({"yes": true}),
    );
    // `$no` is not given: the engine reads it as false, default or not.
    assert_eq!(directives.unwrap(), ["b", "d", "e"]);
}

#[test]
fn root_fields_are_bounded() {
    let eleven: String = (0..11).map(|i| format!("t{i}: __typename ")).collect();
    assert_eq!(root_keys(&format!("{{ {eleven} }}"), None, json!({})), None);
    let ten: String = (0..10).map(|i| format!("t{i}: __typename ")).collect();
    assert_eq!(
        root_keys(&format!("{{ {ten} }}"), None, json!({}))
            .unwrap()
            .len(),
        10
    );
    // Fragments that multiply without reaching a field stop the walk too.
    let mut bomb = String::from("{ ...F0 } ");
    for i in 0..20 {
        bomb.push_str(&format!(
            "fragment F{i} on Query {{ ...F{} ...F{} }} ",
            i + 1,
            i + 1
        ));
    }
    bomb.push_str("fragment F20 on Query { __typename @skip(if: true) }");
    assert_eq!(root_keys(&bomb, None, json!({})), None);
}

#[test]
fn failed_root_fields_are_null_in_query_order() {
    let keys: Vec<String> = ["search", "random", "usage"].map(String::from).into();
    let body = json!({
        "data": {"usage": {"plan": "pro"}, "random": []},
        "errors": [{"message": "limit …", "path": ["search"]}],
    });
    let data = complete_root(&body, &keys);
    assert_eq!(
        data,
        json!({"search": null, "random": [], "usage": {"plan": "pro"}})
    );
    assert_eq!(
        data.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["search", "random", "usage"]
    );
    let all_failed = json!({"data": null, "errors": [{"message": "x", "path": ["search"]}]});
    assert_eq!(
        complete_root(&all_failed, &keys[..1]),
        json!({"search": null})
    );
    let all_skipped = json!({"data": null});
    assert_eq!(complete_root(&all_skipped, &[]), json!({}));
}

#[test]
fn engine_messages_quote_the_document_cut_and_defused() {
    let query = format!(
        "{{ search(q: \"a\") {{ total }} <script>{} }}",
        "x".repeat(10_000)
    );
    let body = json!({ "query": query }).to_string();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let Reply::Raw { status, body, .. } =
        runtime.block_on(answer(body.as_bytes(), 1, |r| r)).unwrap()
    else {
        panic!("GraphQL answers raw")
    };
    assert_eq!(status, 400);
    let message = body["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("script"), "{message}");
    assert!(
        message.chars().count() <= MAX_MESSAGE_CHARS + 1,
        "{message}"
    );
    assert!(
        !message.contains('<') && !message.contains('>'),
        "{message}"
    );
}

#[test]
fn operation_names_are_graphql_names() {
    for name in ["Q", "_a1", "searchBank_2", &"x".repeat(MAX_NAME_CHARS)] {
        assert!(is_graphql_name(name), "{name}");
    }
    for name in [
        "1a",
        "a-b",
        "x\"; DROP TABLE keys; --",
        "<script>",
        "a b",
        &"x".repeat(MAX_NAME_CHARS + 1),
    ] {
        assert!(!is_graphql_name(name), "{name}");
    }
}

#[test]
fn bodies_must_be_objects_with_a_query_string() {
    for bad in [
        "",
        "[]",
        "{}",
        "not json",
        "{\"query\": 5}",
        "[{\"query\": \"{ usage { plan } }\"}]",
    ] {
        assert!(parse_request(bad.as_bytes()).is_none(), "{bad}");
    }
    let ok = parse_request(br#"{"query": "{ usage { plan } }", "operationName": null}"#);
    assert!(ok.is_some());
}

#[test]
fn the_schema_has_every_query_of_the_contract() {
    let sdl = schema().sdl();
    for query in [
        "search(",
        "reverse(",
        "autocomplete(",
        "examples(",
        "thesaurus(",
        "random(",
        "entry(",
        "wordEntry(",
        "dictionaries:",
        "usage:",
    ] {
        assert!(sdl.contains(query), "{query}");
    }
}
