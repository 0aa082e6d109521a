//! Cache headers on the running stack, route by route of `ROUTES`: an answer
//! to a keyed request is never `public` (a shared cache or CDN that kept it
//! would hand it to callers without a key, uncounted); where it may be kept
//! it is `private, max-age=…` with `Vary: Authorization`. The keyless pages
//! keep their public caching. Each route is called as its example event in
//! `events/` calls it.

use blackbox::{demo_key, repo_root, send};
use reqwest::Method;
use serde_json::Value;
use shared::api::routes::ROUTES;

/// The request of `events/<name>.json`: method, path with query, body.
fn example(name: &str) -> (Method, String, Option<String>) {
    let text = std::fs::read_to_string(repo_root().join(format!("events/{name}.json"))).unwrap();
    let event: Value = serde_json::from_str(&text).unwrap();
    let method = event["requestContext"]["http"]["method"].as_str().unwrap();
    let mut path = event["rawPath"].as_str().unwrap().to_string();
    if let Some(query) = event["rawQueryString"].as_str().filter(|q| !q.is_empty()) {
        path = format!("{path}?{query}");
    }
    let body = event["body"].as_str().map(str::to_string);
    (method.parse().unwrap(), path, body)
}

#[tokio::test]
async fn keyed_answers_are_private_and_vary_by_key() {
    let mut cacheable = Vec::new();
    for route in ROUTES {
        let (method, path, body) = example(route.name);
        let key = route.requires_key.then(demo_key);
        let reply = send(method, &path, key.as_deref(), body).await;
        assert!(reply.status < 400, "{} {path}: {}", route.name, reply.text);
        let cache = reply
            .header("cache-control")
            .unwrap_or_default()
            .to_string();
        if !route.requires_key {
            assert_eq!(cache, "public, max-age=300", "{}", route.name);
            continue;
        }
        assert!(!cache.contains("public"), "{}: {cache}", route.name);
        if cache.contains("max-age") {
            assert!(
                cache.starts_with("private, max-age="),
                "{}: {cache}",
                route.name
            );
            let vary = reply.header("vary").unwrap_or_default();
            assert!(
                vary.contains("Authorization"),
                "{}: Vary {vary:?}",
                route.name
            );
            cacheable.push(route.name);
        } else {
            assert_eq!(cache, "no-store", "{}", route.name);
        }
    }
    assert_eq!(cacheable, ["autocomplete", "dictionaries"]);
}
