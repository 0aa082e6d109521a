//! GraphQL against the running stack: every query gives the same data as its
//! REST endpoint, and bad requests get clear GraphQL errors with the right
//! code and status.

use blackbox::{demo_key, enc, get_demo, graphql, send, unsigned};
use reqwest::Method;
use serde_json::{json, Value};

const PATH: &str = "/api/v1/api/graphql";

async fn graphql_with(key: Option<&str>, body: Value) -> blackbox::Reply {
    blackbox::graphql_body(key, &body).await
}

/// The `data.<field>` of a successful GraphQL answer.
async fn data(query: &str, variables: Value, field: &str) -> Value {
    let reply = graphql(query, variables).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert!(reply.json.get("errors").is_none(), "{}", reply.text);
    reply.json["data"][field].clone()
}

const RESULT_FIELDS: &str =
    "id word preview sourceLang targetLang dictionaryId dictionaryName partOfSpeech phonetic hasAudio frequency";
const ENTRY_FIELDS: &str = "id word htmlContent plainText sourceLang targetLang dictionaryId \
    dictionaryName partOfSpeech phonetic translations synonyms antonyms examples hasAudio frequency audioUrl \
    audioFormats audioUrls { format url } audioSource { kind synthesizer voice }";

/// GraphQL lists `audioUrls` as `{format, url}` objects; REST gives one
/// object from format to URL.
fn audio_urls_as_rest(entry: &Value) -> Value {
    let mut entry = entry.clone();
    if let Some(list) = entry["audioUrls"].as_array() {
        let urls: serde_json::Map<String, Value> = list
            .iter()
            .map(|u| (u["format"].as_str().unwrap().to_string(), u["url"].clone()))
            .collect();
        entry["audioUrls"] = Value::Object(urls);
    }
    entry
}

/// REST omits absent optional fields and empty lists; GraphQL gives null and
/// []. Compare the same way: drop nulls and empty lists from both, and the
/// signatures of presigned URLs.
fn normalised(value: &Value) -> Value {
    without_empty_fields(&unsigned(value))
}

fn without_empty_fields(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null() && v.as_array().is_none_or(|a| !a.is_empty()))
                .map(|(k, v)| (k.clone(), without_empty_fields(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_empty_fields).collect()),
        other => other.clone(),
    }
}

#[tokio::test]
async fn search_matches_rest_field_by_field() {
    for (rest, args) in [
        ("q=bank", json!({"q": "bank"})),
        (
            "q=hosue&matchType=exact",
            json!({"q": "hosue", "matchType": "exact"}),
        ),
        (
            "q=b&limit=7&offset=14",
            json!({"q": "b", "limit": 7, "offset": 14}),
        ),
        (
            "q=an&matchType=contains&lang=en-fr&hasAudio=false",
            json!({"q": "an", "matchType": "contains", "lang": "en-fr", "hasAudio": false}),
        ),
        (
            "q=house&pos=noun&fuzzy=false",
            json!({"q": "house", "pos": "noun", "fuzzy": false}),
        ),
        ("q=ba&source=gcide", json!({"q": "ba", "source": "gcide"})),
        ("q=b&hasAudio=true", json!({"q": "b", "hasAudio": true})),
    ] {
        let reply = get_demo(&format!("/api/v1/api/search?{rest}")).await;
        let query = format!(
            "query S($q: String!, $matchType: String, $lang: String, $source: String, $pos: String, \
             $hasAudio: Boolean, $fuzzy: Boolean, $limit: Int, $offset: Int) {{ search(q: $q, \
             matchType: $matchType, lang: $lang, source: $source, pos: $pos, hasAudio: $hasAudio, \
             fuzzy: $fuzzy, limit: $limit, offset: $offset) {{ total limit offset results {{ {RESULT_FIELDS} }} }} }}"
        );
        let page = data(&query, args, "search").await;
        assert_eq!(
            normalised(&page["results"]),
            normalised(reply.data()),
            "{rest}"
        );
        assert_eq!(page["total"], reply.json["meta"]["total"], "{rest}");
        assert_eq!(page["limit"], reply.json["meta"]["limit"], "{rest}");
        assert_eq!(page["offset"], reply.json["meta"]["offset"], "{rest}");
    }
}

#[tokio::test]
async fn autocomplete_thesaurus_and_dictionaries_match_rest() {
    for (rest, args) in [
        ("q=ba", json!({"q": "ba"})),
        (
            &format!("q={}&limit=50", enc("é")),
            json!({"q": "é", "limit": 50}),
        ),
        (
            "q=b&lang=de&source=freedict-deu-eng",
            json!({"q": "b", "lang": "de", "source": "freedict-deu-eng"}),
        ),
    ] {
        let reply = get_demo(&format!("/api/v1/api/autocomplete?{rest}")).await;
        let got = data(
            "query A($q: String!, $lang: String, $source: String, $limit: Int) { autocomplete(q: $q, lang: $lang, source: $source, limit: $limit) }",
            args,
            "autocomplete",
        )
        .await;
        assert_eq!(&got, reply.data(), "{rest}");
    }
    for (rest, args) in [
        ("good", json!({"word": "good"})),
        (
            "good?lang=en&source=wordnet-en",
            json!({"word": "good", "lang": "en", "source": "wordnet-en"}),
        ),
        ("nothingatall", json!({"word": "nothingatall"})),
    ] {
        let reply = get_demo(&format!("/api/v1/api/thesaurus/{rest}")).await;
        let got = data(
            "query T($word: String!, $lang: String, $source: String) { thesaurus(word: $word, lang: $lang, source: $source) { word relationshipType dictionaryId dictionaryName sourceLang targetLang } }",
            args,
            "thesaurus",
        )
        .await;
        assert_eq!(normalised(&got), normalised(reply.data()), "{rest}");
    }
    let reply = get_demo("/api/v1/api/dictionaries").await;
    let got = data(
        "{ dictionaries { dictionaryId dictionaryName sourceLang targetLang entryCount licence origin } }",
        json!({}),
        "dictionaries",
    )
    .await;
    assert_eq!(normalised(&got), normalised(reply.data()));
}

#[tokio::test]
async fn entries_match_rest() {
    let query = format!(
        "query E($id: String!, $source: String!, $word: String!) {{ entry(id: $id, source: $source) {{ {ENTRY_FIELDS} }} wordEntry(word: $word, source: $source) {{ {ENTRY_FIELDS} }} }}"
    );
    for (source, word) in [
        ("freedict-eng-fra", "bank"),
        ("freedict-fra-eng", "école"),
        ("wordnet-en", "good"),
        ("gcide", "house"),
    ] {
        let by_word = get_demo(&format!("/api/v1/api/entry/{source}/word/{}", enc(word))).await;
        let id = by_word.data()["id"].as_str().unwrap().to_string();
        let by_id = get_demo(&format!("/api/v1/entry/{source}/{id}")).await;
        let reply = graphql(&query, json!({"id": id, "source": source, "word": word})).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        assert_eq!(
            normalised(&audio_urls_as_rest(&reply.json["data"]["entry"])),
            normalised(by_id.data())
        );
        assert_eq!(
            normalised(&audio_urls_as_rest(&reply.json["data"]["wordEntry"])),
            normalised(by_word.data())
        );
    }
}

#[tokio::test]
async fn examples_are_those_of_the_rest_entries() {
    for word in ["good", "bank", "house"] {
        let found = get_demo(&format!(
            "/api/v1/api/search?q={word}&matchType=exact&fuzzy=false&limit=100"
        ))
        .await;
        let mut expected = Vec::new();
        for result in found.data().as_array().unwrap() {
            let entry = get_demo(&format!(
                "/api/v1/entry/{}/{}",
                result["dictionaryId"].as_str().unwrap(),
                result["id"].as_str().unwrap()
            ))
            .await;
            for example in entry.data()["examples"]
                .as_array()
                .cloned()
                .unwrap_or_default()
            {
                expected.push(json!({"text": example, "entryId": result["id"], "dictionaryId": result["dictionaryId"]}));
            }
        }
        let got = data(
            "query X($q: String!) { examples(q: $q) { text entryId dictionaryId } }",
            json!({"q": word}),
            "examples",
        )
        .await;
        assert_eq!(got, Value::Array(expected), "{word}");
    }
    let good = data(
        "{ examples(q: \"good\") { text word } }",
        json!({}),
        "examples",
    )
    .await;
    assert!(
        !good.as_array().unwrap().is_empty(),
        "WordNet has examples for good"
    );
}

#[tokio::test]
async fn random_and_usage_match_rest() {
    let picks = data(
        "{ random(count: 5, lang: \"fr\") { id word dictionaryId dictionaryName sourceLang targetLang } }",
        json!({}),
        "random",
    )
    .await;
    assert_eq!(picks.as_array().unwrap().len(), 5);
    for pick in picks.as_array().unwrap() {
        let entry = get_demo(&format!(
            "/api/v1/entry/{}/{}",
            pick["dictionaryId"].as_str().unwrap(),
            pick["id"].as_str().unwrap()
        ))
        .await;
        let entry = entry.data();
        for field in [
            "id",
            "word",
            "dictionaryId",
            "dictionaryName",
            "sourceLang",
            "targetLang",
        ] {
            assert_eq!(pick[field], entry[field], "{field}");
        }
        assert_eq!(pick["sourceLang"], "fr");
    }
    let none = data("{ random(lang: \"xx\") { id } }", json!({}), "random").await;
    assert_eq!(none, json!([]));

    let rest = get_demo("/api/v1/api/me/usage").await;
    let usage = data(
        "{ usage { plan usage limit remaining resetDate } }",
        json!({}),
        "usage",
    )
    .await;
    for field in ["plan", "limit", "resetDate"] {
        assert_eq!(usage[field], rest.data()[field], "{field}");
    }
    assert_eq!(
        usage["usage"].as_u64().unwrap() + usage["remaining"].as_u64().unwrap(),
        usage["limit"].as_u64().unwrap()
    );
}

#[tokio::test]
async fn variables_operation_name_and_introspection_work() {
    let reply = graphql_with(
        Some(&demo_key()),
        json!({
            "query": "query One { autocomplete(q: \"ba\", limit: 1) } query Two($q: String!) { autocomplete(q: $q, limit: 2) }",
            "operationName": "Two",
            "variables": {"q": "ba"},
        }),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(
        reply.json["data"]["autocomplete"].as_array().unwrap().len(),
        2
    );
    let schema = data("{ __schema { queryType { name } } }", json!({}), "__schema").await;
    assert_eq!(schema["queryType"]["name"], "Query");
    // Every root field skipped: an executed operation still has a `data` object.
    let skipped = graphql(
        "query($no: Boolean!) { usage @skip(if: true) { plan } random @include(if: $no) { word } }",
        json!({"no": false}),
    )
    .await;
    assert_eq!(skipped.status, 200, "{}", skipped.text);
    assert_eq!(skipped.json, json!({"data": {}}));
}

/// Asserts a GraphQL error answer: status, code, and a message containing `says`.
fn assert_graphql_error(reply: &blackbox::Reply, status: u16, code: &str, says: &str) {
    assert_eq!(reply.status, status, "{}", reply.text);
    assert_eq!(
        reply.header("content-type"),
        Some("application/json; charset=utf-8")
    );
    let errors = reply.json["errors"]
        .as_array()
        .unwrap_or_else(|| panic!("{}", reply.text));
    assert!(!errors.is_empty());
    assert_eq!(errors[0]["extensions"]["code"], code, "{}", reply.text);
    let message = errors[0]["message"].as_str().unwrap();
    assert!(message.contains(says), "{message:?} should say {says:?}");
    assert!(
        reply.json.get("ok").is_none(),
        "no REST envelope: {}",
        reply.text
    );
}

#[tokio::test]
async fn bad_requests_are_clear_graphql_errors() {
    let reply = graphql("{ search(q: \"bank\" { total } }", json!({})).await;
    assert_graphql_error(&reply, 400, "BAD_USER_INPUT", "");
    let reply = graphql("{ search(q: \"bank\") { total nope } }", json!({})).await;
    assert_graphql_error(&reply, 400, "BAD_USER_INPUT", "nope");
    let reply = graphql(
        "{ search(q: \"bank\", limit: \"ten\") { total } }",
        json!({}),
    )
    .await;
    assert_graphql_error(&reply, 400, "BAD_USER_INPUT", "limit");
    let reply = graphql(
        "query($q: Int!) { search(q: $q) { total } }",
        json!({"q": 1}),
    )
    .await;
    assert_graphql_error(&reply, 400, "BAD_USER_INPUT", "");
    // Depth 7 of data (introspection has its own rule: tests/introspection.rs).
    let reply = graphql(
        "{ search(q: \"bank\") { results { a { b { c { d { e } } } } } } }",
        json!({}),
    )
    .await;
    assert_graphql_error(&reply, 400, "BAD_USER_INPUT", "deep");
    let searches = |n: usize| -> String {
        (0..n)
            .map(|i| format!("s{i}: search(q: \"bank\") {{ total }} "))
            .collect()
    };
    let reply = graphql(&format!("{{ {} }}", searches(10)), json!({})).await;
    assert_graphql_error(&reply, 400, "BAD_USER_INPUT", "complex");
    let reply = graphql(&format!("{{ {} }}", searches(12)), json!({})).await;
    assert_graphql_error(&reply, 400, "BAD_USER_INPUT", "more than 10 root fields");

    // Argument values follow the REST rules, per field, next to other data.
    let reply = graphql(
        "{ search(q: \"bank\", limit: 0) { total } dictionaries { dictionaryId } }",
        json!({}),
    )
    .await;
    assert_graphql_error(
        &reply,
        200,
        "BAD_USER_INPUT",
        "limit must be an integer from 1 to 100",
    );
    // `search` is present and null (indexing a JSON object gives null for a
    // missing key too, so look at the keys), the other field keeps its data,
    // and both come in the order of the query.
    let data = reply.json["data"].as_object().expect("data is an object");
    assert_eq!(
        data.keys().collect::<Vec<_>>(),
        ["search", "dictionaries"],
        "{}",
        reply.text
    );
    assert_eq!(data["search"], Value::Null);
    assert!(data["dictionaries"]
        .as_array()
        .is_some_and(|d| !d.is_empty()));
    assert_eq!(reply.json["errors"][0]["path"], json!(["search"]));
    let reply = graphql(
        "{ b: entry(id: \"0123456789abcdef\", source: \"freedict-eng-fra\") { id } a: random { word id } }",
        json!({}),
    )
    .await;
    let data = reply.json["data"].as_object().expect("data is an object");
    assert_eq!(
        data.keys().collect::<Vec<_>>(),
        ["b", "a"],
        "{}",
        reply.text
    );
    assert_eq!(data["b"], Value::Null);
    assert_eq!(
        data["a"][0].as_object().unwrap().keys().collect::<Vec<_>>(),
        ["word", "id"],
        "fields in the order selected"
    );
    // A required variable that is not given stops the request before it runs.
    for variables in [json!({}), json!({"n": null})] {
        let reply = graphql(
            "query Q($n: Int!) { search(q: \"bank\", limit: $n) { total } }",
            variables,
        )
        .await;
        assert_graphql_error(&reply, 400, "BAD_USER_INPUT", "$n");
        assert_eq!(reply.json["data"], Value::Null);
    }
    let reply = graphql(
        "{ entry(id: \"0123456789abcdef\", source: \"freedict-eng-fra\") { id } }",
        json!({}),
    )
    .await;
    assert_graphql_error(&reply, 200, "NOT_FOUND", "Entry not found");
    assert_eq!(reply.json["data"]["entry"], Value::Null);
    let reply = graphql(
        "{ wordEntry(word: \"x\", source: \"nope\") { id } }",
        json!({}),
    )
    .await;
    assert_graphql_error(&reply, 200, "NOT_FOUND", "Unknown dictionary: nope");
    let reply = graphql(
        "{ wordEntry(word: \"hosue\", source: \"freedict-eng-fra\") { id } }",
        json!({}),
    )
    .await;
    assert_graphql_error(&reply, 200, "NOT_FOUND", "Entry not found");
    assert!(reply.json["errors"][0]["extensions"]["suggestions"]
        .as_array()
        .is_some_and(|s| s.contains(&json!("house"))));
}

#[tokio::test]
async fn malformed_bodies_oversized_bodies_and_missing_keys() {
    for body in [
        "not json",
        "{\"query\": 5}",
        "[]",
        "{}",
        "{\"variables\": {}}",
    ] {
        let reply = send(
            Method::POST,
            PATH,
            Some(&demo_key()),
            Some(body.to_string()),
        )
        .await;
        assert_graphql_error(
            &reply,
            400,
            "BAD_USER_INPUT",
            "Request body must be a JSON object with a query string",
        );
    }
    let reply = send(Method::POST, PATH, Some(&demo_key()), Some(String::new())).await;
    assert_graphql_error(&reply, 400, "BAD_USER_INPUT", "");
    let huge =
        json!({"query": format!("{{ dictionaries {{ dictionaryId }} }} #{}", "x".repeat(70_000))});
    let reply = graphql_with(Some(&demo_key()), huge).await;
    assert_graphql_error(&reply, 413, "BAD_USER_INPUT", "Request body too large");
    let reply = graphql_with(None, json!({"query": "{ dictionaries { dictionaryId } }"})).await;
    assert_graphql_error(&reply, 401, "UNAUTHENTICATED", "Missing API key");
    let reply = graphql_with(
        Some("dk_nope"),
        json!({"query": "{ dictionaries { dictionaryId } }"}),
    )
    .await;
    assert_graphql_error(&reply, 401, "UNAUTHENTICATED", "Invalid API key");
    let reply = send(Method::GET, PATH, Some(&demo_key()), None).await;
    assert_eq!(reply.status, 405);
}
