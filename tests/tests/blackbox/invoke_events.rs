//! Each function invoked directly with its sample event from events/, as
//! `cargo lambda invoke` does, through the running `cargo lambda watch`.

use blackbox::{repo_root, sample_event_statuses, NOT_200};
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
    // Every function of shared::api::routes, with what it answers.
    let expected: Vec<(&str, &[u64])> = drift::functions()
        .into_iter()
        .map(|function| (function, sample_event_statuses(function)))
        .collect();
    let functions: std::collections::BTreeSet<&str> = NOT_200.iter().map(|(f, _)| *f).collect();
    let routed: std::collections::BTreeSet<&str> = shared::api::routes::ROUTES
        .iter()
        .chain([&&shared::api::routes::NOT_FOUND.route])
        .map(|e| e.name)
        .collect();
    assert!(
        functions.is_subset(&routed),
        "every function named here is routed"
    );
    for (function, statuses) in &expected {
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
