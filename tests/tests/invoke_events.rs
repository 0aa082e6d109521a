//! Each function invoked directly with its sample event from events/, as
//! `cargo lambda invoke` does, through the running `cargo lambda watch`.

use blackbox::repo_root;
use serde_json::Value;
use std::process::Command;

fn invoke(function: &str) -> Value {
    let root = repo_root();
    let output = Command::new(root.join(".tools/venv/bin/cargo-lambda"))
        .current_dir(&root)
        .args([
            "lambda",
            "invoke",
            function,
            "--invoke-address",
            "127.0.0.1",
            "--invoke-port",
            "9000",
            "--data-file",
        ])
        .arg(root.join(format!("events/{function}.json")))
        .output()
        .expect("cargo-lambda runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{function}: {stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{function}: {e}: {stdout}"))
}

fn body(response: &Value) -> Value {
    serde_json::from_str(response["body"].as_str().unwrap_or("null")).unwrap_or(Value::Null)
}

#[test]
fn every_function_answers_its_sample_event() {
    let expected: &[(&str, &[u64])] = &[
        ("search", &[200]),
        ("autocomplete", &[200]),
        ("entry", &[200]),
        ("entry-by-word", &[200]),
        ("thesaurus", &[200]),
        ("random", &[200]),
        ("audio", &[302]),
        ("graphql", &[200]),
        ("usage", &[200]),
        ("dictionaries", &[200]),
        ("not-found", &[404]),
        ("playground", &[200]),
        ("openapi", &[200]),
    ];
    let functions: std::collections::BTreeSet<&str> = expected.iter().map(|(f, _)| *f).collect();
    let routed: std::collections::BTreeSet<&str> = shared::api::routes::ROUTES
        .iter()
        .chain([&&shared::api::routes::NOT_FOUND.route])
        .map(|e| e.name)
        .collect();
    assert_eq!(functions, routed, "every function has a sample event here");
    for (function, statuses) in expected {
        let response = invoke(function);
        let status = response["statusCode"].as_u64().unwrap_or_default();
        assert!(statuses.contains(&status), "{function}: {response}");
        if *function == "playground" {
            let page = response["body"].as_str().unwrap_or_default();
            assert!(page.to_lowercase().starts_with("<!doctype html>"), "{page}");
        } else if status != 302 {
            let body = body(&response);
            assert!(
                body["ok"].is_boolean()
                    || body["data"].is_object()
                    || body["errors"].is_array()
                    || body["openapi"].is_string(),
                "{function}: {body}"
            );
        }
    }
    let entry = body(&invoke("entry"));
    assert_eq!(
        entry["data"]["word"], "bank",
        "events/entry.json names bank's stable id"
    );
}
