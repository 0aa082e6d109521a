//! Hostile input at every endpoint, on the running stack: a table of inputs
//! (huge, empty, non-UTF-8, control characters, folding bombs,
//! injection-shaped, nested JSON, repeated parameters) with what each gets.
//! Never a 5xx; a refusal is a 4xx in the endpoint's own error shape (the
//! envelope, or GraphQL's `errors`); and each request counts what it costs,
//! never twice (a path value refused with the path, before the key, counts
//! nothing). docs/decisions.md ("Hostile input") lists the same table.

use blackbox::{client, create_key, emulator_retries, enc, get, send};
use reqwest::Method;
use serde_json::Value;
use shared::api::routes::ROUTES;

/// One row: a request and what it must get.
struct Case {
    /// The function of `ROUTES` that serves it.
    endpoint: &'static str,
    input: &'static str,
    method: Method,
    target: String,
    /// A body and its content type.
    body: Option<(Vec<u8>, &'static str)>,
    /// The statuses it may get (more than one only where another agent's
    /// rule decides between serving and refusing).
    statuses: &'static [u16],
    /// A part of the error message, when refused.
    says: &'static str,
    /// Units it counts.
    units: u64,
}

fn case(
    endpoint: &'static str,
    input: &'static str,
    target: impl Into<String>,
    statuses: &'static [u16],
    says: &'static str,
    units: u64,
) -> Case {
    Case {
        endpoint,
        input,
        method: Method::GET,
        target: target.into(),
        body: None,
        statuses,
        says,
        units,
    }
}

fn graphql(
    input: &'static str,
    body: impl Into<Vec<u8>>,
    content_type: &'static str,
    statuses: &'static [u16],
    says: &'static str,
    units: u64,
) -> Case {
    Case {
        endpoint: "graphql",
        input,
        method: Method::POST,
        target: "/api/v1/api/graphql".into(),
        body: Some((body.into(), content_type)),
        statuses,
        says,
        units,
    }
}

fn query_body(query: &str) -> Vec<u8> {
    serde_json::json!({ "query": query })
        .to_string()
        .into_bytes()
}

const HUGE: usize = 3000;
/// U+FDFA, one character that folds (NFKD) to 18: a `q` of 100 of them
/// folds to 1,800.
const FOLDING_BOMB: &str = "%EF%B7%BA";
const SQL: &str = "' OR '1'='1' --";
const SCRIPT: &str = "<script>alert(1)</script>";
const NESTED_JSON: &str = r#"{"a":{"a":{"a":{"a":{"$ne":null}}}}}"#;

fn table() -> Vec<Case> {
    let huge = "a".repeat(HUGE);
    let bomb = FOLDING_BOMB.repeat(100);
    let word = "/api/v1/api/entry/freedict-eng-fra/word";
    let entry = "/api/v1/entry/freedict-eng-fra";
    let audio = "/api/v1/api/audio/freedict-eng-fra";
    let mut cases = Vec::new();
    for (endpoint, path) in [
        ("search", "/api/v1/api/search"),
        ("reverse", "/api/v1/api/reverse"),
        ("autocomplete", "/api/v1/api/autocomplete"),
    ] {
        cases.extend([
            case(
                endpoint,
                "huge",
                format!("{path}?q={huge}"),
                &[400],
                "q is too long",
                1,
            ),
            case(
                endpoint,
                "empty",
                format!("{path}?q="),
                &[400],
                "q must not be empty",
                1,
            ),
            case(
                endpoint,
                "non-UTF-8",
                format!("{path}?q=ba%FFnk"),
                &[400],
                "q must be valid UTF-8",
                1,
            ),
            case(
                endpoint,
                "control characters",
                format!("{path}?q=ba%00nk"),
                &[400],
                "control characters",
                1,
            ),
            case(
                endpoint,
                "control characters",
                format!("{path}?q=%1B%5B31mbank"),
                &[400],
                "control characters",
                1,
            ),
            case(
                endpoint,
                "folding bomb",
                format!("{path}?q={bomb}"),
                &[200, 400],
                "q",
                1,
            ),
            case(
                endpoint,
                "injection-shaped",
                format!("{path}?q={}", enc(SQL)),
                &[200],
                "",
                1,
            ),
            case(
                endpoint,
                "injection-shaped",
                format!("{path}?q={}", enc(SCRIPT)),
                &[200],
                "",
                1,
            ),
            case(
                endpoint,
                "nested JSON",
                format!("{path}?q={}", enc(NESTED_JSON)),
                &[200],
                "",
                1,
            ),
            case(
                endpoint,
                "repeated parameters",
                format!("{path}?q=bank&q=%FF&limit=5&limit=0"),
                &[200],
                "",
                1,
            ),
            case(
                endpoint,
                "repeated parameters",
                format!("{path}?q=%FF&q=bank"),
                &[400],
                "q must be valid UTF-8",
                1,
            ),
            case(
                endpoint,
                "huge",
                format!("{path}?q=bank&limit=99999999999999999999"),
                &[400],
                "limit must be an integer",
                1,
            ),
        ]);
    }
    cases.extend([
        case(
            "search",
            "huge",
            "/api/v1/api/search?q=bank&offset=10001",
            &[400],
            "offset",
            1,
        ),
        case(
            "reverse",
            "huge",
            "/api/v1/api/reverse?q=house&offset=10001",
            &[400],
            "offset",
            1,
        ),
        case(
            "entry",
            "huge",
            format!("{entry}/{huge}"),
            &[400],
            "id is too long",
            0,
        ),
        case(
            "entry",
            "empty",
            format!("{entry}/"),
            &[404],
            "Not found",
            0,
        ),
        case(
            "entry",
            "non-UTF-8",
            format!("{entry}/%FF"),
            &[400],
            "id must be valid UTF-8",
            0,
        ),
        case(
            "entry",
            "control characters",
            format!("{entry}/ab%00"),
            &[400],
            "id must be an entry id",
            1,
        ),
        case(
            "entry",
            "injection-shaped",
            format!("{entry}/..%2F..%2Fetc%2Fpasswd"),
            &[400],
            "id must be an entry id",
            1,
        ),
        case(
            "entry",
            "injection-shaped",
            format!("/api/v1/entry/{}/abc", enc(SQL)),
            &[404],
            "Unknown dictionary",
            1,
        ),
        case(
            "entry",
            "repeated parameters",
            format!("{entry}/ca0e5aa6bf1c6edd?id=x&id=%FF"),
            &[200],
            "",
            1,
        ),
        case(
            "entry-by-word",
            "huge",
            format!("{word}/{huge}"),
            &[400],
            "word is too long",
            0,
        ),
        case(
            "entry-by-word",
            "non-UTF-8",
            format!("{word}/%FF"),
            &[400],
            "word must be valid UTF-8",
            0,
        ),
        case(
            "entry-by-word",
            "control characters",
            format!("{word}/a%0Ab"),
            &[400],
            "control characters",
            1,
        ),
        case(
            "entry-by-word",
            "folding bomb",
            format!("{word}/{bomb}"),
            &[400, 404],
            "",
            1,
        ),
        case(
            "entry-by-word",
            "injection-shaped",
            format!("{word}/100%2525"),
            &[404],
            "Entry not found",
            1,
        ),
        case(
            "entry-by-word",
            "injection-shaped",
            format!("{word}/what%3F"),
            &[404],
            "Entry not found",
            1,
        ),
        case(
            "entry-by-word",
            "injection-shaped",
            format!("{word}/a%23b"),
            &[404],
            "Entry not found",
            1,
        ),
        case(
            "entry-by-word",
            "injection-shaped",
            format!("{word}/{}", enc(SQL)),
            &[404],
            "Entry not found",
            1,
        ),
        case(
            "entry-by-word",
            "nested JSON",
            format!("{word}/{}", enc(NESTED_JSON)),
            &[404],
            "Entry not found",
            1,
        ),
        case(
            "thesaurus",
            "huge",
            format!("/api/v1/api/thesaurus/{huge}"),
            &[400],
            "word is too long",
            0,
        ),
        case(
            "thesaurus",
            "non-UTF-8",
            "/api/v1/api/thesaurus/%C3",
            &[400],
            "word must be valid UTF-8",
            0,
        ),
        case(
            "thesaurus",
            "control characters",
            "/api/v1/api/thesaurus/good%7F",
            &[400],
            "control characters",
            1,
        ),
        case(
            "thesaurus",
            "injection-shaped",
            format!("/api/v1/api/thesaurus/{}", enc(SCRIPT)),
            &[200],
            "",
            1,
        ),
        case(
            "thesaurus",
            "repeated parameters",
            "/api/v1/api/thesaurus/good?lang=en&lang=%FF",
            &[200],
            "",
            1,
        ),
        case(
            "thesaurus",
            "non-UTF-8",
            "/api/v1/api/thesaurus/good?lang=%FF",
            &[400],
            "lang must be valid UTF-8",
            1,
        ),
        case(
            "rhymes",
            "huge",
            format!("/api/v1/api/rhymes/{huge}"),
            &[400],
            "word is too long",
            0,
        ),
        case(
            "rhymes",
            "non-UTF-8",
            "/api/v1/api/rhymes/%C3",
            &[400],
            "word must be valid UTF-8",
            0,
        ),
        case(
            "rhymes",
            "injection-shaped",
            format!("/api/v1/api/rhymes/{}", enc(SCRIPT)),
            &[404],
            "No pronunciation found for this word",
            1,
        ),
        case(
            "rhymes",
            "folding bomb",
            format!("/api/v1/api/rhymes/{}", FOLDING_BOMB.repeat(100)),
            &[404],
            "No pronunciation found for this word",
            1,
        ),
        case(
            "rhymes",
            "non-UTF-8",
            "/api/v1/api/rhymes/cloison?kind=%FF",
            &[400],
            "kind must be valid UTF-8",
            1,
        ),
        case(
            "random",
            "huge",
            "/api/v1/random?count=99999999999999999999",
            &[400],
            "count must be an integer from 1 to 10",
            1,
        ),
        case(
            "random",
            "empty",
            "/api/v1/random?count=",
            &[400],
            "count must be an integer from 1 to 10",
            1,
        ),
        case(
            "random",
            "non-UTF-8",
            "/api/v1/random?lang=%FF",
            &[400],
            "lang must be valid UTF-8",
            1,
        ),
        case(
            "random",
            "control characters",
            "/api/v1/random?lang=en%00",
            &[400],
            "lang",
            1,
        ),
        case(
            "random",
            "injection-shaped",
            format!("/api/v1/random?source={}", enc(SQL)),
            &[404],
            "Unknown dictionary",
            1,
        ),
        case(
            "random",
            "repeated parameters",
            "/api/v1/random?count=2&count=0&hasAudio=maybe",
            &[400],
            "hasAudio",
            1,
        ),
        case(
            "audio",
            "huge",
            format!("{audio}/{huge}"),
            &[400],
            "lexid is too long",
            0,
        ),
        case(
            "audio",
            "non-UTF-8",
            format!("{audio}/%FF%FE"),
            &[400],
            "lexid must be valid UTF-8",
            0,
        ),
        case(
            "audio",
            "injection-shaped",
            format!("{audio}/..%2F..%2Fkeys"),
            &[400],
            "lexid must be an entry id",
            1,
        ),
        case(
            "audio",
            "injection-shaped",
            format!("{audio}/ca0e5aa6bf1c6edd?format=..%2Fmp3"),
            &[400],
            "format",
            1,
        ),
        case(
            "audio",
            "repeated parameters",
            format!("{audio}/ca0e5aa6bf1c6edd?format=mp3&format=wav"),
            &[302],
            "",
            1,
        ),
        case(
            "dictionaries",
            "huge",
            format!("/api/v1/api/dictionaries?x={huge}"),
            &[200],
            "",
            1,
        ),
        case(
            "dictionaries",
            "non-UTF-8",
            "/api/v1/api/dictionaries?source=%FF",
            &[200],
            "",
            1,
        ),
        case(
            "dictionaries",
            "repeated parameters",
            "/api/v1/api/dictionaries?a=1&a=%00&a=",
            &[200],
            "",
            1,
        ),
        case(
            "usage",
            "non-UTF-8",
            "/api/v1/api/me/usage?x=%FF",
            &[200],
            "",
            0,
        ),
        case(
            "usage",
            "huge",
            format!("/api/v1/api/me/usage?x={huge}"),
            &[200],
            "",
            0,
        ),
        case(
            "usage",
            "repeated parameters",
            "/api/v1/api/me/usage?x=1&x=2",
            &[200],
            "",
            0,
        ),
    ]);
    let json = "application/json";
    let nested = format!(
        r#"{{"query":"{{ __typename }}","variables":{}1{}}}"#,
        r#"{"a":"#.repeat(200),
        "}".repeat(200)
    );
    let deep_query = format!(
        "{{ {}__typename{} }}",
        "... { ".repeat(1000),
        " }".repeat(1000)
    );
    let forty: String = (0..40).map(|i| format!("f{i}: __typename ")).collect();
    // Documents built to hide work (issue 36): each is refused by admission
    // before validation, priced 1.
    let chain = blackbox::fragment_chain;
    let aliases: String = (0..2_100).map(|i| format!("a{i}: total ")).collect();
    let spreads = format!(
        "query($v: Boolean = true) {{ search(q: \"a\") {{ {} }} }} fragment T on SearchPage {{ total @include(if: $v) }}",
        "...T ".repeat(201)
    );
    let inline_nest = format!(
        "{{ search(q: \"a\") {{ {}total{} }} }}",
        "... on SearchPage { ".repeat(41),
        " }".repeat(41)
    );
    let one_line = format!(
        "{{ search(q: \"a\") {{ total }} <script> {} }}",
        "x ".repeat(30_000)
    );
    cases.extend([
        graphql(
            "fragment chain, 19 levels",
            query_body(&chain(19)),
            json,
            &[400],
            "more than 2000 selections",
            1,
        ),
        graphql(
            "fragment chain, 23 levels",
            query_body(&chain(23)),
            json,
            &[400],
            "more than 2000 selections",
            1,
        ),
        graphql(
            "fragment chain, 40 levels",
            query_body(&chain(40)),
            json,
            &[400],
            "more than 2000 selections",
            1,
        ),
        graphql(
            "aliases",
            query_body(&format!("{{ search(q: \"a\") {{ {aliases} }} }}")),
            json,
            &[400],
            "more than 2000 selections",
            1,
        ),
        graphql(
            "fragment spreads",
            query_body(&spreads),
            json,
            &[400],
            "more than 200 times",
            1,
        ),
        graphql(
            "inline fragments",
            query_body(&inline_nest),
            json,
            &[400],
            "more than 40 deep",
            1,
        ),
        graphql(
            "fragment cycle",
            query_body("{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }"),
            json,
            &[400],
            "within itself",
            1,
        ),
        graphql(
            "a 60 KB line",
            query_body(&one_line),
            json,
            &[400],
            "script",
            1,
        ),
        graphql(
            "empty",
            "",
            json,
            &[400],
            "Request body must be a JSON object",
            1,
        ),
        graphql("empty", query_body(""), json, &[400], "", 1),
        graphql(
            "huge",
            vec![b' '; 70 * 1024],
            json,
            &[413],
            "Request body too large",
            0,
        ),
        graphql(
            "huge",
            query_body(&format!(
                "{{ search(q: \"{}\") {{ total }} }}",
                "a".repeat(HUGE)
            )),
            json,
            &[200],
            "",
            1,
        ),
        graphql(
            "huge",
            query_body(&format!("{{ {forty} }}")),
            json,
            &[400],
            "more than 10 root fields",
            0,
        ),
        graphql(
            "non-UTF-8",
            b"{\"query\": \"{ search(q: \\\"\xff\\\") { total } }\"}".to_vec(),
            "application/octet-stream",
            &[400],
            "Request body must be a JSON object",
            1,
        ),
        graphql(
            "control characters",
            b"{\"query\": \"{ search(q: \\\"ba\\u0000nk\\\") { total } }\"}".to_vec(),
            json,
            &[200],
            "",
            1,
        ),
        graphql(
            "folding bomb",
            query_body(&format!(
                "{{ search(q: \"{}\") {{ total }} }}",
                "\u{FDFA}".repeat(100)
            )),
            json,
            &[200],
            "",
            1,
        ),
        graphql(
            "injection-shaped",
            query_body(&format!(
                "{{ search(q: {}) {{ total }} }}",
                serde_json::json!(SQL)
            )),
            json,
            &[200],
            "",
            1,
        ),
        graphql(
            "injection-shaped",
            br#"{"query": "{ __typename }", "operationName": "x\"; DROP TABLE keys; --"}"#.to_vec(),
            json,
            &[400],
            "operationName must be a GraphQL name",
            1,
        ),
        graphql(
            "nested JSON",
            nested.into_bytes(),
            json,
            &[400],
            "Request body must be a JSON object",
            1,
        ),
        graphql(
            "nested JSON",
            format!(
                r#"{{"query":{}"{{ __typename }}"{}}}"#,
                "[".repeat(100),
                "]".repeat(100)
            )
            .into_bytes(),
            json,
            &[400],
            "Request body must be a JSON object",
            1,
        ),
        graphql("nested JSON", query_body(&deep_query), json, &[400], "", 1),
        graphql(
            "repeated parameters",
            br#"{"query": "{ search(q: \"bank\") { total } }", "query": "{ __typename }"}"#
                .to_vec(),
            json,
            &[200],
            "",
            1,
        ),
    ]);
    cases
}

async fn used(key: &str) -> u64 {
    let usage = get("/api/v1/api/me/usage", Some(key)).await;
    usage.data()["usage"].as_u64().unwrap()
}

async fn call(case: &Case, key: &str) -> blackbox::Reply {
    match &case.body {
        None => send(case.method.clone(), &case.target, Some(key), None).await,
        Some((body, content_type)) => {
            let response = client()
                .request(
                    case.method.clone(),
                    format!("{}{}", blackbox::api_url(), case.target),
                )
                .header("Authorization", format!("Bearer {key}"))
                .header("Content-Type", *content_type)
                .body(body.clone())
                .send()
                .await
                .expect("the local stack answers");
            let status = response.status().as_u16();
            let headers = response.headers().clone();
            let text = response.text().await.unwrap_or_default();
            let json = serde_json::from_str(&text).unwrap_or(Value::Null);
            blackbox::Reply {
                status,
                headers,
                text,
                json,
            }
        }
    }
}

#[tokio::test]
async fn hostile_input_gets_a_4xx_never_a_5xx_and_counts_once() {
    let cases = table();
    for route in ROUTES.iter().filter(|r| r.requires_key) {
        assert!(
            cases.iter().filter(|c| c.endpoint == route.name).count() >= 3,
            "{} has hostile cases",
            route.name
        );
    }
    let (key, _) = create_key("free", Some(100_000));
    let mut problems = Vec::new();
    for case in &cases {
        let before = used(&key).await;
        let retries_before = emulator_retries();
        let reply = call(case, &key).await;
        let retried = emulator_retries() - retries_before;
        let after = used(&key).await;
        let what = format!(
            "{} ({}) {} {}",
            case.endpoint,
            case.input,
            case.method,
            case.target.chars().take(120).collect::<String>()
        );
        let text: String = reply.text.chars().take(300).collect();
        if !case.statuses.contains(&reply.status) {
            problems.push(format!(
                "{what}: status {} not {:?}: {text}",
                reply.status, case.statuses
            ));
        }
        // An attempt the emulator answered for may have been served and
        // counted too: each retry may add the request's units once more.
        let counted = after - before;
        if counted < case.units || counted > case.units * (1 + retried) {
            problems.push(format!("{what}: counted {counted}, not {}", case.units));
        }
        if reply.status >= 400 {
            let message = if case.endpoint == "graphql" {
                (reply.json["data"].is_null()).then(|| reply.json["errors"][0]["message"].as_str())
            } else {
                (reply.json["ok"] == false).then(|| reply.json["error"].as_str())
            };
            match message.flatten() {
                // Quoted input is cut and cannot act in a page.
                Some(message) if message.len() > 1_000 || message.contains('<') => problems.push(
                    format!("{what}: the message quotes the input as given: {text}"),
                ),
                Some(message) if message.contains(case.says) => {}
                _ => problems.push(format!(
                    "{what}: not an error saying {:?}: {text}",
                    case.says
                )),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
