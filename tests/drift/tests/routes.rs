//! One list of routes, `shared::api::routes::ROUTES`, and every place that must
//! agree with it: the router of `cargo lambda watch` (Cargo.toml), the HttpApi
//! events of template.yaml, docs/openapi.json, the crates of functions/, the
//! sample events of events/ and the README's table of endpoints.
//! A route added, renamed or dropped in one place and not the others fails
//! here. These tests read files only; they do not need the local stack.

use drift::repo_root;
use lambda_http::http::Method;
use serde_json::Value;
use serde_norway::Value as Yaml;
use shared::api::routes::{NOT_FOUND, ROUTES};
use std::collections::BTreeSet;

/// (path template, function) of every route.
fn routes() -> BTreeSet<(String, String)> {
    ROUTES
        .iter()
        .map(|e| (e.path.to_string(), e.name.to_string()))
        .collect()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo_root().join(path)).unwrap()
}

/// The `"path" = "function"` lines of Cargo.toml's router table.
fn local_router() -> BTreeSet<(String, String)> {
    let cargo = read("Cargo.toml");
    let table = cargo
        .split("[workspace.metadata.lambda.watch.router]")
        .nth(1)
        .expect("Cargo.toml has the router table");
    table
        .lines()
        .take_while(|line| !line.starts_with('['))
        .filter(|line| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|line| {
            let (path, function) = line.split_once('=').expect("path = function");
            let unquote = |s: &str| s.trim().trim_matches('"').to_string();
            (unquote(path), unquote(function))
        })
        .collect()
}

/// (path, binary, method) of every HttpApi event in template.yaml.
fn template_routes() -> BTreeSet<(String, String, String)> {
    let doc: Yaml = serde_norway::from_str(&read("template.yaml")).unwrap();
    let mut routes = BTreeSet::new();
    for (_, resource) in doc["Resources"].as_mapping().unwrap() {
        if resource["Type"].as_str() != Some("AWS::Serverless::Function") {
            continue;
        }
        let binary = resource["Metadata"]["BuildProperties"]["Binary"]
            .as_str()
            .unwrap();
        for (_, event) in resource["Properties"]["Events"].as_mapping().unwrap() {
            assert_eq!(event["Type"].as_str(), Some("HttpApi"), "{binary}");
            let properties = &event["Properties"];
            routes.insert((
                properties["Path"].as_str().unwrap().to_string(),
                binary.to_string(),
                properties["Method"].as_str().unwrap_or("ANY").to_string(),
            ));
        }
    }
    routes
}

fn openapi() -> Value {
    serde_json::from_str(&read("docs/openapi.json")).expect("docs/openapi.json is JSON")
}

#[test]
fn the_local_router_sends_every_route_to_its_function() {
    let mut expected = routes();
    expected.insert(("/{*path}".into(), NOT_FOUND.route.name.into()));
    assert_eq!(local_router(), expected);
}

#[test]
fn the_template_sends_every_route_to_its_function_for_every_method() {
    let mut expected: BTreeSet<_> = routes()
        .into_iter()
        // ANY: a wrong method reaches the function, which answers 405 in the envelope.
        .map(|(path, function)| (path, function, "ANY".to_string()))
        .collect();
    expected.insert(("$default".into(), NOT_FOUND.route.name.into(), "ANY".into()));
    assert_eq!(template_routes(), expected);
}

#[test]
fn every_function_crate_serves_a_route_and_every_route_has_a_crate() {
    let crates: BTreeSet<String> = std::fs::read_dir(repo_root().join("functions"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    let mut functions: BTreeSet<String> = ROUTES.iter().map(|e| e.name.to_string()).collect();
    functions.insert(NOT_FOUND.route.name.to_string());
    assert_eq!(crates, functions);
}

#[test]
fn the_openapi_document_describes_exactly_the_routes_and_their_methods() {
    let doc = openapi();
    assert_eq!(doc["openapi"].as_str().map(|v| &v[..4]), Some("3.1."));
    let mut documented = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().unwrap().keys() {
            if [
                "get", "post", "put", "patch", "delete", "head", "options", "trace",
            ]
            .contains(&method.as_str())
            {
                documented.insert((path.clone(), method.clone()));
            }
        }
    }
    let mut expected = BTreeSet::new();
    for endpoint in ROUTES {
        expected.insert((
            endpoint.path.to_string(),
            endpoint.method.as_str().to_lowercase(),
        ));
        if endpoint.browser_page.is_some() {
            expected.insert((
                endpoint.path.to_string(),
                Method::GET.as_str().to_lowercase(),
            ));
        }
    }
    assert_eq!(documented, expected);
}

#[test]
fn keyless_routes_are_documented_without_security_and_the_others_with_the_bearer_key() {
    let doc = openapi();
    let global = !doc["security"].as_array().is_none_or(Vec::is_empty);
    for endpoint in ROUTES {
        let method = endpoint.method.as_str().to_lowercase();
        let operation = &doc["paths"][endpoint.path][&method];
        let secured = match operation["security"].as_array() {
            Some(requirements) => !requirements.is_empty(),
            None => global,
        };
        assert_eq!(
            secured, endpoint.requires_key,
            "{method} {} in docs/openapi.json",
            endpoint.path
        );
        if endpoint.browser_page.is_some() {
            let page = &doc["paths"][endpoint.path]["get"];
            assert_eq!(
                page["security"],
                serde_json::json!([]),
                "the page at GET {} needs no key",
                endpoint.path
            );
        }
    }
}

/// Each sample event of events/ is what API Gateway sends its function: the
/// route key of one of the function's routes (`ANY path`, or `$default` for
/// the fallback), a raw path that route matches, and the route's method.
#[test]
fn every_sample_event_names_a_route_of_its_function() {
    let mut functions = BTreeSet::new();
    for file in std::fs::read_dir(repo_root().join("events")).unwrap() {
        let path = file.unwrap().path();
        let function = path.file_stem().unwrap().to_string_lossy().into_owned();
        let event: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let raw_path = event["rawPath"].as_str().unwrap_or_default();
        let method = event["requestContext"]["http"]["method"].as_str();
        if function == NOT_FOUND.route.name {
            assert_eq!(event["routeKey"], "$default", "{function}.json");
            assert!(
                ROUTES
                    .iter()
                    .all(|r| shared::api::pipeline::match_path(r.path, raw_path).is_err()),
                "{function}.json: {raw_path} is the path of a route"
            );
        } else {
            let route = ROUTES
                .iter()
                .find(|r| r.name == function && event["routeKey"] == format!("ANY {}", r.path))
                .unwrap_or_else(|| panic!("{function}.json names no route of {function}"));
            assert!(
                shared::api::pipeline::match_path(route.path, raw_path).is_ok(),
                "{function}.json: {raw_path} is not on {}",
                route.path
            );
            assert_eq!(method, Some(route.method.as_str()), "{function}.json");
        }
        functions.insert(function);
    }
    let mut expected: BTreeSet<String> = ROUTES.iter().map(|r| r.name.to_string()).collect();
    expected.insert(NOT_FOUND.route.name.to_string());
    assert_eq!(functions, expected, "one sample event per function");
}

/// The README's table of endpoints lists exactly the routes behind a key.
#[test]
fn the_readme_lists_every_endpoint_behind_a_key() {
    let listed: BTreeSet<String> = read("README.md")
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once('`').map(|(route, _)| route.to_string()))
        .filter(|route| route.starts_with("GET /") || route.starts_with("POST /"))
        .collect();
    let expected: BTreeSet<String> = ROUTES
        .iter()
        .filter(|r| r.requires_key)
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    assert_eq!(listed, expected);
}
