//! Each endpoint served by the App its function builds at cold start
//! (`Endpoint::start`), in-process on the local stack, which has no audio
//! CDN: an endpoint whose answers carry audio URLs must start with the
//! signer, or those answers would be 500s. The other tests serve every
//! endpoint with a full App, so only this one holds the starts to the
//! handlers.

use blackbox::{create_key, lambda_request, stack_clients};
use lambda_http::Body;
use shared::api::pipeline;
use shared::App;
use std::collections::BTreeMap;

/// An entry of the fixture with audio (freedict-eng-fra's `bank`).
const WITH_AUDIO: &str = "ca0e5aa6bf1c6edd";

#[tokio::test]
async fn every_endpoint_answers_with_the_app_its_function_starts() {
    // The stack's environment, for the starts to read.
    stack_clients().await;
    let (key, _) = create_key("pro", None);
    let entry = format!("/api/v1/entry/freedict-eng-fra/{WITH_AUDIO}");
    let audio = format!("/api/v1/api/audio/freedict-eng-fra/{WITH_AUDIO}");
    let graphql = format!(
        r#"{{ entry(id: "{WITH_AUDIO}", source: "freedict-eng-fra") {{ audioUrls {{ url }} }}
             wordEntry(word: "bank", source: "freedict-eng-fra") {{ audioUrls {{ url }} }} }}"#
    );
    // What each endpoint of shared::api::routes is asked, by its function, and answers.
    let cases: BTreeMap<&str, (&str, Option<&str>, u16)> = BTreeMap::from([
        ("search", ("/api/v1/api/search?q=bank", None, 200)),
        (
            "reverse",
            ("/api/v1/api/reverse?q=house&lang=fr-en", None, 200),
        ),
        ("autocomplete", ("/api/v1/api/autocomplete?q=ba", None, 200)),
        ("entry", (entry.as_str(), None, 200)),
        (
            "entry-by-word",
            ("/api/v1/api/entry/freedict-eng-fra/word/bank", None, 200),
        ),
        ("thesaurus", ("/api/v1/api/thesaurus/good", None, 200)),
        ("rhymes", ("/api/v1/api/rhymes/cloison?lang=fr", None, 200)),
        ("random", ("/api/v1/random?hasAudio=true", None, 200)),
        ("audio", (audio.as_str(), None, 302)),
        ("dictionaries", ("/api/v1/api/dictionaries", None, 200)),
        ("usage", ("/api/v1/api/me/usage", None, 200)),
        (
            "graphql",
            ("/api/v1/api/graphql", Some(graphql.as_str()), 200),
        ),
        ("not-found", ("/api/v1/nope", None, 404)),
    ]);
    for endpoint in drift::endpoints() {
        let (path, query, status) = cases
            .get(endpoint.route.name)
            .copied()
            .unwrap_or_else(|| panic!("no request for {} here: add one", endpoint.route.name));
        let app: &'static App = Box::leak(Box::new((endpoint.start)().await.unwrap()));
        let response = pipeline::serve(app, endpoint, lambda_request(path, &key, query)).await;
        let text = match response.body() {
            Body::Text(text) => text.clone(),
            _ => String::new(),
        };
        assert_eq!(response.status(), status, "{path}: {text}");
        assert!(!text.contains("\"errors\""), "{path}: {text}");
        if endpoint.route.name == "entry" || endpoint.route.name == "graphql" {
            assert!(
                text.contains("X-Amz-Signature"),
                "{path}: a signed audio URL in {text}"
            );
        }
    }
}
