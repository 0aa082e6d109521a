//! Logs hold no key material at any level: a real function binary, run
//! with `RUST_LOG=trace` on one API Gateway event through a loopback Runtime
//! API, answers normally and writes neither the key nor its stored hash.

use blackbox::{create_key, function_binary, repo_root, stack_env};
use runtime_api::invoke_once;
use serde_json::Value;
use shared::access::auth::hash_key;
use std::time::Duration;

#[tokio::test]
async fn no_key_material_in_trace_logs() {
    let (secret, key_id) = create_key("free", Some(10));
    let text = std::fs::read_to_string(repo_root().join("events/entry-by-word.json")).unwrap();
    let mut event: Value = serde_json::from_str(&text).unwrap();
    event["headers"]["authorization"] = format!("Bearer {secret}").into();

    let mut env = stack_env();
    env.retain(|(name, _)| name != "RUST_LOG");
    env.push(("RUST_LOG".into(), "trace".into()));
    let run = invoke_once(
        &function_binary("entry-by-word"),
        &env,
        &event,
        Duration::from_secs(60),
    )
    .await;

    assert_eq!(
        run.response["statusCode"], 200,
        "{}\n{}",
        run.response, run.logs
    );
    let lines: Vec<&str> = run.logs.lines().collect();
    assert!(
        lines.iter().any(|l| l.contains("\"level\":\"DEBUG\"")),
        "the log runs below info: {} lines",
        lines.len()
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("\"message\":\"request\"") && l.contains(&key_id)),
        "the request line names the key by its public id"
    );
    let hash = hash_key(&secret);
    for (what, material) in [
        ("the key", secret.as_str()),
        ("the key without its prefix", &secret[3..]),
        ("the key's hash", hash.as_str()),
    ] {
        let leaks: Vec<&&str> = lines.iter().filter(|l| l.contains(material)).collect();
        assert!(leaks.is_empty(), "{what} is logged: {leaks:#?}");
    }
}
