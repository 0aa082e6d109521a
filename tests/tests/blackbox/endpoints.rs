//! Every path answers with a correct envelope (or GraphQL document), never a
//! 500 or a hang; CORS, methods and unknown paths follow decisions.md.

use blackbox::{demo_key, get, get_demo, send};
use reqwest::Method;
use shared::api::routes::ROUTES;

/// A request that is valid for the endpoint of each GET route behind a key.
fn valid_request(function: &str) -> &'static str {
    match function {
        "search" => "/api/v1/api/search?q=bank",
        "reverse" => "/api/v1/api/reverse?q=house",
        "autocomplete" => "/api/v1/api/autocomplete?q=ban",
        "entry" => "/api/v1/entry/freedict-eng-fra/0123456789abcdef",
        "entry-by-word" => "/api/v1/api/entry/freedict-eng-fra/word/bank",
        "thesaurus" => "/api/v1/api/thesaurus/good",
        "rhymes" => "/api/v1/api/rhymes/cloison",
        "random" => "/api/v1/random",
        "audio" => "/api/v1/api/audio/freedict-eng-fra/0123456789abcdef",
        "usage" => "/api/v1/api/me/usage",
        "dictionaries" => "/api/v1/api/dictionaries",
        other => panic!("no valid request for {other} here: add one"),
    }
}

/// Every endpoint (the GET routes behind a key of `shared::api::routes::ROUTES`),
/// with a request that is valid for it.
fn paths() -> Vec<&'static str> {
    ROUTES
        .iter()
        .filter(|route| route.requires_key && route.method.as_str() == "GET")
        .map(|route| valid_request(route.name))
        .collect()
}

#[tokio::test]
async fn every_endpoint_answers_a_json_envelope() {
    for path in paths() {
        let reply = get_demo(path).await;
        assert!(
            reply.status < 500,
            "{path}: {} {}",
            reply.status,
            reply.text
        );
        assert_eq!(
            reply.header("content-type"),
            Some("application/json; charset=utf-8"),
            "{path}"
        );
        assert!(reply.json["ok"].is_boolean(), "{path}: {}", reply.text);
        assert_eq!(
            reply.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        if reply.json["ok"] == true {
            assert!(reply.json["meta"]["took_ms"].is_u64(), "{path}");
        } else {
            assert!(reply.json["error"].is_string(), "{path}");
        }
    }
}

#[tokio::test]
async fn every_endpoint_requires_a_key() {
    for path in paths() {
        let reply = get(path, None).await;
        assert_eq!(reply.status, 401, "{path}");
        assert_eq!(reply.error(), "Missing API key");
    }
    let reply = send(
        Method::POST,
        "/api/v1/api/graphql",
        None,
        Some(r#"{"query":"{__typename}"}"#.into()),
    )
    .await;
    assert_eq!(reply.status, 401);
    assert_eq!(
        reply.json["errors"][0]["extensions"]["code"],
        "UNAUTHENTICATED"
    );
}

#[tokio::test]
async fn query_parameters_are_validated_before_anything_else() {
    let cases = [
        ("/api/v1/api/search", "q is required"),
        (
            "/api/v1/api/search?q=bank&limit=0",
            "limit must be an integer from 1 to 100",
        ),
        (
            "/api/v1/api/search?q=bank&offset=10001",
            "offset must be an integer from 0 to 10000",
        ),
        (
            "/api/v1/api/search?q=bank&matchType=fuzzy",
            "matchType must be one of exact, prefix, contains, pattern, soundsLike",
        ),
        (
            "/api/v1/api/search?q=bank&hasAudio=yes",
            "hasAudio must be true or false",
        ),
        (
            "/api/v1/api/search?q=bank&hasAudio=TRUE",
            "hasAudio must be true or false",
        ),
        (
            "/api/v1/api/search?q=bank&fuzzy=False",
            "fuzzy must be true or false",
        ),
        ("/api/v1/api/search?q=bank&pos=", "pos must not be empty"),
        ("/api/v1/api/search?q=+", "q must not be empty"),
        (
            "/api/v1/api/search?q=bank&lang=english",
            "lang must be a language code like en or a pair like en-fr",
        ),
        (
            "/api/v1/api/autocomplete?q=ban&limit=51",
            "limit must be an integer from 1 to 50",
        ),
        (
            "/api/v1/random?count=11",
            "count must be an integer from 1 to 10",
        ),
        (
            "/api/v1/api/thesaurus/good?lang=e",
            "lang must be a language code like en or a pair like en-fr",
        ),
    ];
    for (path, message) in cases {
        let reply = get_demo(path).await;
        assert_eq!(reply.status, 400, "{path}: {}", reply.text);
        assert_eq!(reply.error(), message, "{path}");
    }
}

#[tokio::test]
async fn unknown_sources_are_404_everywhere() {
    for path in [
        "/api/v1/api/search?q=bank&source=nope",
        "/api/v1/api/reverse?q=house&source=nope",
        "/api/v1/api/autocomplete?q=ban&source=nope",
        "/api/v1/api/thesaurus/good?source=nope",
        "/api/v1/random?source=nope",
    ] {
        let reply = get_demo(path).await;
        assert_eq!(reply.status, 404, "{path}");
        assert_eq!(reply.error(), "Unknown dictionary: nope");
    }
}

#[tokio::test]
async fn dictionaries_are_listed_with_their_licences() {
    let reply = get_demo("/api/v1/api/dictionaries").await;
    let list = reply.data().as_array().unwrap();
    let ids: Vec<&str> = list
        .iter()
        .map(|d| d["dictionaryId"].as_str().unwrap())
        .collect();
    for id in [
        "freedict-deu-eng",
        "freedict-eng-fra",
        "freedict-eng-spa",
        "freedict-fra-eng",
    ] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    let deu_eng = list
        .iter()
        .find(|d| d["dictionaryId"] == "freedict-deu-eng")
        .unwrap();
    assert_eq!(deu_eng["licence"], "GPL-3.0-or-later AND AGPL-3.0-or-later");
    assert_eq!(deu_eng["sourceLang"], "de");
    assert!(deu_eng["entryCount"].as_u64().unwrap() > 100);
    assert_eq!(reply.header("cache-control"), Some("private, max-age=300"));
    assert_eq!(reply.header("vary"), Some("Authorization"));
}

#[tokio::test]
async fn preflight_needs_no_key() {
    let reply = send(Method::OPTIONS, "/api/v1/api/search?q=bank", None, None).await;
    assert!(
        reply.status == 204 || reply.status == 200,
        "{}",
        reply.status
    );
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
}

#[tokio::test]
async fn wrong_methods_are_405() {
    let reply = send(
        Method::DELETE,
        "/api/v1/api/dictionaries",
        Some(&demo_key()),
        None,
    )
    .await;
    assert_eq!(reply.status, 405);
    assert_eq!(reply.error(), "Method not allowed");
    let reply = send(Method::GET, "/api/v1/api/graphql", Some(&demo_key()), None).await;
    assert_eq!(reply.status, 405);
}

#[tokio::test]
async fn unknown_paths_are_404_envelopes() {
    for path in [
        "/api/v1/api/nope",
        "/index.html",
        "/assets",
        "/assets/playground.js/x",
        "/api/v2/api/search?q=x",
        "/api/v1/api/entry/freedict-eng-fra/words/bank",
    ] {
        let reply = get_demo(path).await;
        assert_eq!(reply.status, 404, "{path}: {}", reply.text);
        assert_eq!(reply.error(), "Not found");
    }
}

/// Every answer, whatever its status or shape, tells browsers not to sniff
/// its type: the JSON answers, the error envelopes before the key and
/// after it, GraphQL's, the preflight, an unknown path and the pages.
#[tokio::test]
async fn every_answer_says_nosniff() {
    let graphql = Some(r#"{"query":"{ __typename }"}"#.to_string());
    let replies = [
        get_demo("/api/v1/api/search?q=bank").await,
        get("/api/v1/api/search?q=bank", None).await,
        get_demo("/api/v1/api/search?limit=0").await,
        send(
            Method::POST,
            "/api/v1/api/graphql",
            Some(&demo_key()),
            graphql,
        )
        .await,
        send(Method::OPTIONS, "/api/v1/api/search", None, None).await,
        get("/api/v1/nowhere", None).await,
        get("/", None).await,
    ];
    for reply in replies {
        assert_eq!(
            reply.header("x-content-type-options"),
            Some("nosniff"),
            "{} {}",
            reply.status,
            reply.text.chars().take(80).collect::<String>()
        );
    }
}
