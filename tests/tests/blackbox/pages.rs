//! What the service serves to browsers and tools without a key, against the
//! running stack: the playground page and its assets, the GraphQL explorer,
//! the OpenAPI document. None of them needs a key or counts against a quota,
//! and no page refers to another origin.

use blackbox::{api_url, client, create_key, get, repo_root};
use reqwest::header::ACCEPT;

const BROWSER_ACCEPT: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/// GET without a key. Like `blackbox::send`, it retries the 500 that
/// `cargo lambda watch` now and then answers itself (a problem document the
/// function never sent), and only that.
async fn fetch(path: &str, accept: Option<&str>) -> reqwest::Response {
    let mut attempt = 1;
    loop {
        let mut request = client().get(format!("{}{path}", api_url()));
        if let Some(accept) = accept {
            request = request.header(ACCEPT, accept);
        }
        let response = request.send().await.expect("the local stack answers");
        if response.status() != 500 || attempt == 3 {
            return response;
        }
        let (status, headers) = (response.status(), response.headers().clone());
        let body = response.bytes().await.expect("a body");
        let problem: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        if problem["type"] != "https://httpstatuses.com/500" {
            let mut rebuilt = lambda_http::http::Response::new(body.to_vec());
            *rebuilt.status_mut() = status;
            *rebuilt.headers_mut() = headers;
            return reqwest::Response::from(rebuilt);
        }
        eprintln!("cargo lambda watch answered its own 500 for GET {path}; retrying");
        attempt += 1;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

fn header(response: &reqwest::Response, name: &str) -> String {
    response
        .headers()
        .get(name)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default()
}

/// The values of `src="…"` and `href="…"` in an HTML page.
fn references(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for attribute in ["src=\"", "href=\""] {
        for part in html.split(attribute).skip(1) {
            found.push(part.split('"').next().unwrap().to_string());
        }
    }
    found
}

async fn usage(key: &str) -> u64 {
    get("/api/v1/api/me/usage", Some(key)).await.json["data"]["usage"]
        .as_u64()
        .unwrap()
}

/// Every script, style and link of `html` is on this service and answers 200.
async fn assert_same_origin_and_served(page: &str, html: &str) {
    let refs = references(html);
    assert!(!refs.is_empty(), "{page} refers to its assets");
    for reference in refs {
        assert!(
            reference.starts_with('/') && !reference.starts_with("//")
                || reference.starts_with('#'),
            "{page} refers to {reference}, not a path of this service"
        );
        if reference.starts_with('/') {
            // As a browser follows it: a link to the explorer asks for HTML.
            let status = fetch(&reference, Some(BROWSER_ACCEPT)).await.status();
            assert_eq!(status, 200, "{page} refers to {reference}");
        }
    }
}

#[tokio::test]
async fn the_playground_is_served_without_a_key_and_not_counted() {
    let page = fetch("/", Some(BROWSER_ACCEPT)).await;
    assert_eq!(page.status(), 200);
    assert_eq!(header(&page, "content-type"), "text/html; charset=utf-8");
    let policy = header(&page, "content-security-policy");
    assert!(policy.contains("default-src 'self'"), "{policy}");
    assert!(policy.contains("script-src 'self'"), "{policy}");
    let html = page.text().await.unwrap();
    assert!(html.to_lowercase().starts_with("<!doctype html>"));
    assert_same_origin_and_served("/", &html).await;

    // A browser that sends a key anyway is not counted for the page.
    let (key, _) = create_key("free", None);
    for path in ["/", "/assets/playground.js", "/api/v1/openapi.json"] {
        assert_eq!(get(path, Some(&key)).await.status, 200, "{path}");
    }
    let explorer = client()
        .get(format!("{}/api/v1/api/graphql", api_url()))
        .header(ACCEPT, BROWSER_ACCEPT)
        .bearer_auth(&key)
        .send()
        .await
        .unwrap();
    assert_eq!(explorer.status(), 200);
    assert_eq!(usage(&key).await, 0);
}

#[tokio::test]
async fn assets_are_the_files_of_the_repository() {
    let assets = repo_root().join("functions/playground/assets");
    for (path, file) in [
        ("/assets/playground.js", assets.join("playground.js")),
        (
            "/assets/graphiql.min.js",
            assets.join("vendor/graphiql.min.js"),
        ),
        (
            "/assets/graphiql.min.css",
            assets.join("vendor/graphiql.min.css"),
        ),
    ] {
        let response = fetch(path, None).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(header(&response, "x-content-type-options"), "nosniff");
        let body = response.bytes().await.unwrap();
        assert!(
            body == std::fs::read(&file).unwrap(),
            "{path} differs from {file:?}"
        );
    }
}

#[tokio::test]
async fn unknown_assets_and_other_methods_get_the_envelope() {
    let missing = get("/assets/nope.js", None).await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.json["ok"], false);
    let traversal = get("/assets/..%2Fsrc%2Fmain.rs", None).await;
    assert_eq!(traversal.status, 404);
    let post = blackbox::send(reqwest::Method::POST, "/", None, Some("{}".into())).await;
    assert_eq!(post.status, 405);
    assert_eq!(post.json["error"], "Method not allowed");
}

#[tokio::test]
async fn the_graphql_explorer_is_the_page_for_browsers_only() {
    let page = fetch("/api/v1/api/graphql", Some(BROWSER_ACCEPT)).await;
    assert_eq!(page.status(), 200);
    assert_eq!(header(&page, "content-type"), "text/html; charset=utf-8");
    let html = page.text().await.unwrap();
    assert!(html.contains("/assets/graphiql.min.js"));
    assert_same_origin_and_served("/api/v1/api/graphql", &html).await;

    // An API client's GET is still the GraphQL endpoint's 405.
    let api = get("/api/v1/api/graphql", None).await;
    assert_eq!(api.status, 405);
    assert_eq!(api.json["errors"][0]["message"], "Method not allowed");
}

#[tokio::test]
async fn the_openapi_document_is_served_as_it_is_in_the_repository() {
    let response = fetch("/api/v1/openapi.json", None).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        header(&response, "content-type"),
        "application/json; charset=utf-8"
    );
    assert_eq!(header(&response, "access-control-allow-origin"), "*");
    let served = response.text().await.unwrap();
    let file = std::fs::read_to_string(repo_root().join("docs/openapi.json")).unwrap();
    assert!(
        served == file,
        "the running service serves another docs/openapi.json: rebuild"
    );
}
