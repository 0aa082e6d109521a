//! Each endpoint served by the App its function builds at cold start
//! (`Endpoint::start`), in-process on the local stack, which has no audio
//! CDN: an endpoint whose answers carry audio URLs must start with the
//! signer, or those answers would be 500s. The other tests serve every
//! endpoint with a full App, so only this one holds the starts to the
//! handlers.

use blackbox::{create_key, lambda_request, stack_clients};
use lambda_http::Body;
use shared::api::pipeline::{self, Endpoint};
use shared::api::routes;
use shared::App;

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
    let cases: [(&'static Endpoint, &str, Option<&str>, u16); 11] = [
        (&routes::SEARCH, "/api/v1/api/search?q=bank", None, 200),
        (
            &routes::AUTOCOMPLETE,
            "/api/v1/api/autocomplete?q=ba",
            None,
            200,
        ),
        (&routes::ENTRY, &entry, None, 200),
        (
            &routes::ENTRY_BY_WORD,
            "/api/v1/api/entry/freedict-eng-fra/word/bank",
            None,
            200,
        ),
        (&routes::THESAURUS, "/api/v1/api/thesaurus/good", None, 200),
        (&routes::RANDOM, "/api/v1/random?hasAudio=true", None, 200),
        (&routes::AUDIO, &audio, None, 302),
        (&routes::DICTIONARIES, "/api/v1/api/dictionaries", None, 200),
        (&routes::USAGE, "/api/v1/api/me/usage", None, 200),
        (&routes::GRAPHQL, "/api/v1/api/graphql", Some(&graphql), 200),
        (&routes::NOT_FOUND, "/api/v1/nope", None, 404),
    ];
    for (endpoint, path, query, status) in cases {
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
