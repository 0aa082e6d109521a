//! Least privilege, checked: every function's requests (hits, misses and
//! errors) run through the real pipeline against the local stack while an SDK
//! interceptor records each DynamoDB action and the table or index it touches.
//! What a function does must be exactly what its policy in template.yaml
//! grants: a call without a grant fails on AWS (DynamoDB Local enforces no
//! IAM, so nothing else would notice), and a grant without a call is more
//! than the function needs. The one write, the quota counter's UpdateItem on
//! the keys table, is granted only under a condition on its attributes; the
//! template's condition is checked without the stack, and every recorded
//! counter update against it with the stack. The template's side, which needs
//! no stack, is in tests/drift/tests/iam_template.rs (`make check` runs it).

use blackbox::{create_key, recorded_app, DynamoCall};
use drift::{
    counter_leading_keys, function_statements, one_or_many, template, COUNTER_ATTRIBUTES,
    COUNTER_RETURN_VALUES,
};
use lambda_http::Body;
use serde_json::Value;
use serde_norway::Value as Yaml;
use shared::api::pipeline::{self, Endpoint};
use shared::runtime::app::App;
use std::collections::{BTreeMap, BTreeSet};

/// (`dynamodb:Action`, `LogicalTableId` or `LogicalTableId/index/Name`)
type Access = (String, String);

/// The IAM actions and resources of recorded calls, by template logical id.
fn accesses(app: &App, calls: Vec<DynamoCall>) -> BTreeSet<Access> {
    let logical = |table: &str| {
        if table == app.config.entries_table {
            "EntriesTable".to_string()
        } else if table == app.config.keys_table {
            "KeysTable".to_string()
        } else {
            format!("unknown table {table}")
        }
    };
    let mut seen = BTreeSet::new();
    for call in calls {
        let action = format!("dynamodb:{}", call.operation);
        let body = &call.body;
        if let Some(table) = body["TableName"].as_str() {
            let mut resource = logical(table);
            if let Some(index) = body["IndexName"].as_str() {
                resource.push_str(&format!("/index/{index}"));
            }
            seen.insert((action.clone(), resource));
        }
        for table in body["RequestItems"]
            .as_object()
            .into_iter()
            .flat_map(|m| m.keys())
        {
            seen.insert((action.clone(), logical(table)));
        }
    }
    seen
}

/// A cold instance of a function (empty caches), whose DynamoDB calls are recorded.
async fn cold_app() -> (&'static App, blackbox::CallRecorder) {
    let (app, recorder) = recorded_app().await;
    (Box::leak(Box::new(app)), recorder)
}

/// The `dynamodb:` grants of every function in template.yaml, by binary name.
fn granted_by_template() -> BTreeMap<String, BTreeSet<Access>> {
    let doc = template();
    let mut grants = BTreeMap::new();
    for (binary, statements) in function_statements(&doc) {
        let mut granted = BTreeSet::new();
        for statement in statements {
            assert_eq!(statement["Effect"].as_str(), Some("Allow"));
            for action in one_or_many(&statement["Action"]) {
                let action = action.as_str().unwrap().to_string();
                assert!(
                    action.starts_with("dynamodb:"),
                    "{binary} is granted {action}; functions use DynamoDB only"
                );
                for arn in one_or_many(&statement["Resource"]) {
                    granted.insert((action.clone(), logical_resource(arn)));
                }
            }
        }
        grants.insert(binary, granted);
    }
    grants
}

/// `!GetAtt T.Arn` → `T`; `!Sub "${T.Arn}/index/I"` → `T/index/I`.
fn logical_resource(arn: &Yaml) -> String {
    let Yaml::Tagged(tagged) = arn else {
        panic!("resource {arn:?} is not an intrinsic function of a table");
    };
    let text = tagged.value.as_str().unwrap();
    match tagged.tag.to_string().trim_start_matches('!') {
        "GetAtt" => text.strip_suffix(".Arn").unwrap().to_string(),
        "Sub" => {
            let (table, rest) = text
                .strip_prefix("${")
                .and_then(|t| t.split_once(".Arn}"))
                .unwrap();
            format!("{table}{rest}")
        }
        other => panic!("unexpected intrinsic {other}"),
    }
}

fn request(method: &str, path: &str, key: &str, body: Option<Value>) -> lambda_http::Request {
    lambda_http::http::Request::builder()
        .method(method)
        .uri(path)
        .header("authorization", format!("Bearer {key}"))
        .header("content-type", "application/json")
        .body(body.map_or(Body::Empty, |b| Body::Text(b.to_string())))
        .unwrap()
}

/// Every request path of each function: the hits, the misses (which read
/// the dictionary list or look for suggestions) and unknown dictionaries, for
/// every endpoint of `shared::api::routes` (`drift::endpoints`).
fn scenarios(
    entry_id: &str,
    audio_id: &str,
) -> Vec<(&'static Endpoint, Vec<(&'static str, String)>)> {
    let get = |paths: &[&str]| paths.iter().map(|p| ("GET", p.to_string())).collect();
    let miss = "0123456789abcdef";
    let mut requests: BTreeMap<&str, Vec<(&'static str, String)>> = BTreeMap::from([
        (
            "search",
            get(&[
                "/api/v1/api/search?q=bank",
                "/api/v1/api/search?q=hosue&matchType=exact",
                "/api/v1/api/search?q=ous&matchType=contains",
                "/api/v1/api/search?q=bank&source=freedict-eng-fra&lang=en",
                "/api/v1/api/search?q=bank&source=nope",
            ]),
        ),
        (
            "reverse",
            get(&[
                "/api/v1/api/reverse?q=house",
                "/api/v1/api/reverse?q=houses&lang=fr-en",
                "/api/v1/api/reverse?q=a+young+dog&lang=en&pos=noun",
                "/api/v1/api/reverse?q=house&source=freedict-fra-eng&hasAudio=true",
                "/api/v1/api/reverse?q=house&source=nope",
            ]),
        ),
        (
            "autocomplete",
            get(&[
                "/api/v1/api/autocomplete?q=ba",
                "/api/v1/api/autocomplete?q=ba&source=nope",
            ]),
        ),
        (
            "entry",
            vec![
                ("GET", format!("/api/v1/entry/gcide/{entry_id}")),
                ("GET", format!("/api/v1/entry/freedict-eng-fra/{miss}")),
                ("GET", format!("/api/v1/entry/nope/{miss}")),
            ],
        ),
        (
            "entry-by-word",
            get(&[
                "/api/v1/api/entry/freedict-eng-fra/word/bank",
                "/api/v1/api/entry/freedict-eng-fra/word/hosue",
                "/api/v1/api/entry/freedict-eng-fra/word/houses",
                "/api/v1/api/entry/nope/word/bank",
            ]),
        ),
        (
            "thesaurus",
            get(&[
                "/api/v1/api/thesaurus/good",
                // An inflected form without links: its lemma's, through the
                // snapshot's forms.
                "/api/v1/api/thesaurus/houses",
                "/api/v1/api/thesaurus/good?source=wordnet-en",
                "/api/v1/api/thesaurus/good?source=nope",
            ]),
        ),
        (
            "rhymes",
            get(&[
                "/api/v1/api/rhymes/cloison",
                "/api/v1/api/rhymes/cat?lang=en&kind=near",
                "/api/v1/api/rhymes/cloison?source=nope",
                "/api/v1/api/rhymes/zzzqqq",
            ]),
        ),
        (
            "random",
            get(&[
                "/api/v1/random?count=3",
                "/api/v1/random?hasAudio=true&lang=en",
                "/api/v1/random?source=nope",
            ]),
        ),
        (
            "audio",
            vec![
                (
                    "GET",
                    format!("/api/v1/api/audio/freedict-eng-fra/{audio_id}"),
                ),
                ("GET", format!("/api/v1/api/audio/gcide/{entry_id}")),
                ("GET", format!("/api/v1/api/audio/freedict-eng-fra/{miss}")),
            ],
        ),
        ("graphql", vec![("POST", "/api/v1/api/graphql".to_string())]),
        ("usage", get(&["/api/v1/api/me/usage"])),
        ("dictionaries", get(&["/api/v1/api/dictionaries"])),
        ("not-found", get(&["/api/v1/nope"])),
    ]);
    drift::endpoints()
        .into_iter()
        .map(|endpoint| {
            let name = endpoint.route.name;
            let paths = requests
                .remove(name)
                .unwrap_or_else(|| panic!("no scenarios for {name} here: add them"));
            (endpoint, paths)
        })
        .collect()
}

/// Requests of every GraphQL field, including a word that is not found: two
/// documents, since one request runs at most ten root fields (and a
/// complexity of 100).
fn graphql_bodies() -> [Value; 2] {
    [
        graphql_body(),
        serde_json::json!({"query": r#"{
        reverse(q: "house") { total }
        b: reverse(q: "houses", lang: "fr-en", source: "freedict-fra-eng") { total }
    }"#}),
    ]
}

/// One request of every GraphQL field but reverse, including a word that is
/// not found.
fn graphql_body() -> Value {
    serde_json::json!({"query": r#"{
        search(q: "bank") { total }
        autocomplete(q: "ba")
        examples(q: "good") { text }
        thesaurus(word: "good") { word }
        random(count: 2) { id }
        entry(id: "0123456789abcdef", source: "freedict-eng-fra") { id }
        wordEntry(word: "hosue", source: "freedict-eng-fra") { id }
        dictionaries { dictionaryId }
        usage { usage }
    }"#})
}

#[tokio::test]
async fn every_function_is_granted_exactly_the_calls_it_makes() {
    let mut granted = granted_by_template();
    // The functions that serve files (the keyless routes of shared::api::routes)
    // hold no AWS client: nothing is granted.
    let files: BTreeSet<&str> = shared::api::routes::ROUTES
        .iter()
        .filter(|route| !route.requires_key)
        .map(|route| route.name)
        .collect();
    for files in files {
        assert_eq!(granted.remove(files), Some(BTreeSet::new()), "{}", files);
    }
    let (secret, _) = create_key("pro", None);
    let (lookup, _) = cold_app().await;
    let bank = shared::service::entry_by_word(lookup, "freedict-eng-fra", "bank")
        .await
        .unwrap();
    assert!(bank.has_audio, "the fixture gives bank audio");
    // The fixture's GCIDE has no audio.
    let silent = shared::service::entry_by_word(lookup, "gcide", "bank")
        .await
        .unwrap();
    assert!(!silent.has_audio);

    let mut mismatches = Vec::new();
    let scenarios = scenarios(&silent.id, &bank.id);
    assert_eq!(
        scenarios.len(),
        granted.len(),
        "every function of template.yaml has scenarios here"
    );
    for (endpoint, requests) in scenarios {
        let (app, log) = cold_app().await;
        for (method, path) in requests {
            let bodies = match method {
                "POST" => graphql_bodies().map(Some).to_vec(),
                _ => vec![None],
            };
            for body in bodies {
                let response =
                    pipeline::serve(app, endpoint, request(method, &path, &secret, body)).await;
                assert!(
                    response.status().as_u16() < 500,
                    "{method} {path}: {}",
                    response.status()
                );
                // A GraphQL document refused whole (too complex, too many
                // root fields) would run none of its fields' calls.
                if method == "POST" {
                    assert_eq!(response.status(), 200, "{method} {path}");
                }
            }
        }
        let calls = log.take();
        mismatches.extend(counter_updates_outside_the_grant(
            &app.config.keys_table,
            &calls,
            endpoint.route.name,
        ));
        let used = accesses(app, calls);
        let allowed = granted
            .get(endpoint.route.name)
            .unwrap_or_else(|| panic!("template.yaml has no function {}", endpoint.route.name));
        if &used != allowed {
            mismatches.push(format!(
                "{}:\n  calls without a grant: {:?}\n  grants without a call: {:?}",
                endpoint.route.name,
                used.difference(allowed).collect::<Vec<_>>(),
                allowed.difference(&used).collect::<Vec<_>>(),
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

/// UpdateItem calls on the keys table that the grant's condition would
/// refuse on AWS: attributes beyond [`COUNTER_ATTRIBUTES`] (the key's names,
/// the expression's `#names` and any legacy `AttributeUpdates`; the code names
/// every attribute through a placeholder), a partition outside the counters'
/// ([`counter_leading_keys`]) or other `ReturnValues`.
fn counter_updates_outside_the_grant(
    keys_table: &str,
    calls: &[DynamoCall],
    name: &str,
) -> Vec<String> {
    let mut refused = Vec::new();
    for call in calls {
        let body = &call.body;
        if call.operation != "UpdateItem" || body["TableName"].as_str() != Some(keys_table) {
            continue;
        }
        let mut attributes: BTreeSet<&str> = BTreeSet::new();
        for map in ["Key", "AttributeUpdates"] {
            attributes.extend(
                body[map]
                    .as_object()
                    .into_iter()
                    .flat_map(|m| m.keys())
                    .map(String::as_str),
            );
        }
        attributes.extend(
            body["ExpressionAttributeNames"]
                .as_object()
                .into_iter()
                .flat_map(|m| m.values())
                .map(|v| v.as_str().unwrap()),
        );
        let outside: Vec<_> = attributes
            .iter()
            .filter(|a| !COUNTER_ATTRIBUTES.contains(a))
            .collect();
        if !outside.is_empty() {
            refused.push(format!(
                "{name}: UpdateItem on the keys table touches {outside:?}"
            ));
        }
        let partition = body["Key"]["pk"]["S"].as_str().unwrap_or_default();
        let prefix = counter_leading_keys();
        if !partition.starts_with(prefix.trim_end_matches('*')) {
            refused.push(format!(
                "{name}: UpdateItem on the keys table in partition {partition:?}, outside {prefix}"
            ));
        }
        let returns = body["ReturnValues"].as_str().unwrap_or("NONE");
        if !COUNTER_RETURN_VALUES.contains(&returns) {
            refused.push(format!(
                "{name}: UpdateItem on the keys table asks for ReturnValues {returns}"
            ));
        }
    }
    refused
}

/// Does not need the local stack: the check that the recorded counter
/// updates stay inside the grant refuses what the condition would refuse.
#[test]
fn the_counter_update_check_refuses_other_attributes_and_return_values() {
    let update = |names: Value, returns: Option<&str>| {
        DynamoCall::new(
            "UpdateItem",
            serde_json::json!({
                "TableName": "keys",
                "Key": {"pk": {"S": "USAGE#00"}, "sk": {"S": "2026-11"}},
                "UpdateExpression": "SET #used = #used + :one",
                "ExpressionAttributeNames": names,
                "ReturnValues": returns,
            }),
        )
    };
    let counter = serde_json::json!({"#used": "used", "#exp": "expiresAt"});
    let check = |call: DynamoCall| counter_updates_outside_the_grant("keys", &[call], "f");
    assert!(check(update(counter.clone(), Some("UPDATED_NEW"))).is_empty());
    assert!(check(update(counter.clone(), None)).is_empty());
    assert_eq!(
        check(update(serde_json::json!({"#p": "plan"}), None)).len(),
        1
    );
    assert_eq!(check(update(counter.clone(), Some("ALL_OLD"))).len(), 1);
    let mut key_record = update(counter, None);
    key_record.body["Key"]["pk"] = serde_json::json!({"S": "KEY#00"});
    assert_eq!(check(key_record).len(), 1, "a key record's partition");
    let mut elsewhere = update(serde_json::json!({"#p": "plan"}), Some("ALL_NEW"));
    elsewhere.body["TableName"] = "entries".into();
    assert!(
        check(elsewhere).is_empty(),
        "only the keys table is checked"
    );
}
