//! The artifacts `sam build` made (`$SAM_BUILD_DIR/<Function>/bootstrap`),
//! not a cargo build: each one, run under the loopback Runtime API against
//! the local stack, answers its events/ sample with the status the route's
//! own test expects (tests/tests/invoke_events.rs). `make deploy-check`
//! builds them first and runs this with `--ignored`; without a SAM build
//! there is nothing to run.

use blackbox::{repo_root, sample_event_statuses, stack_env};
use runtime_api::invoke_once;
use serde_json::Value;
use std::time::Duration;

/// (function name, template logical id) for every function of the template:
/// the name is its `BuildProperties.Binary`.
fn template_functions() -> Vec<(String, String)> {
    let doc = drift::template();
    doc["Resources"]
        .as_mapping()
        .expect("Resources")
        .iter()
        .filter(|(_, r)| r["Type"].as_str() == Some("AWS::Serverless::Function"))
        .map(|(id, r)| {
            let binary = r["Metadata"]["BuildProperties"]["Binary"]
                .as_str()
                .unwrap_or_else(|| panic!("{id:?} names its binary"));
            (binary.to_string(), id.as_str().unwrap().to_string())
        })
        .collect()
}

#[tokio::test]
#[ignore = "needs `sam build` (make deploy-check) and the local stack"]
async fn every_sam_built_artifact_answers_its_sample_event() {
    let functions = template_functions();
    let mut names: Vec<&str> = functions.iter().map(|(name, _)| name.as_str()).collect();
    names.sort_unstable();
    let mut routed = drift::functions();
    routed.sort_unstable();
    assert_eq!(names, routed, "the template deploys every routed function");

    let build = std::path::PathBuf::from(
        std::env::var("SAM_BUILD_DIR").expect("SAM_BUILD_DIR: where make deploy-check built"),
    );
    for (function, logical_id) in &functions {
        let artifact = build.join(logical_id).join("bootstrap");
        assert!(artifact.is_file(), "{} was built", artifact.display());
        let text = std::fs::read_to_string(repo_root().join(format!("events/{function}.json")))
            .unwrap_or_else(|e| panic!("events/{function}.json: {e}"));
        let event: Value = serde_json::from_str(&text).unwrap();
        let run = invoke_once(&artifact, &stack_env(), &event, Duration::from_secs(60)).await;
        let status = run.response["statusCode"].as_u64().unwrap_or_default();
        let size = std::fs::metadata(&artifact).unwrap().len();
        assert!(
            sample_event_statuses(function).contains(&status),
            "{logical_id} ({function}): {}\n{}",
            run.response,
            run.logs
        );
        println!(
            "    {} ({size} bytes): events/{function}.json -> {status}",
            artifact.display()
        );
    }
}
