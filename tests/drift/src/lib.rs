//! Readers of the repository's own files for the tests that hold them
//! together: template.yaml's functions and the grants of their policies.
//! The drift tests (`tests/drift/tests/`) use them without the local stack;
//! the black-box test of least privilege (`tests/tests/iam_policies.rs`)
//! compares the same grants with the calls the functions make on the stack.

use serde_norway::Value as Yaml;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The repository's root directory.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("tests/drift is in the repo")
        .to_path_buf()
}

/// template.yaml, parsed (intrinsic functions are tagged values).
pub fn template() -> Yaml {
    let text = std::fs::read_to_string(repo_root().join("template.yaml")).unwrap();
    serde_norway::from_str(&text).unwrap()
}

/// Everything the quota counter's UpdateItem may touch (`QuotaCounter::consume`:
/// the key `pk`/`sk`, `used` and its TTL `expiresAt`) and the `ReturnValues`
/// it may ask for. Every grant of UpdateItem on the keys table carries exactly
/// this condition, so no function can rewrite a key record (`name`, `plan`,
/// `disabled`, `customLimit`) or read one back through an update.
pub const COUNTER_ATTRIBUTES: [&str; 4] = ["pk", "sk", "used", "expiresAt"];
pub const COUNTER_RETURN_VALUES: [&str; 2] = ["NONE", "UPDATED_NEW"];

/// Every function of the template, by binary name, with its policy statements.
pub fn function_statements(doc: &Yaml) -> BTreeMap<String, Vec<&Yaml>> {
    let mut functions = BTreeMap::new();
    for (_, resource) in doc["Resources"].as_mapping().unwrap() {
        if resource["Type"].as_str() != Some("AWS::Serverless::Function") {
            continue;
        }
        let binary = resource["Metadata"]["BuildProperties"]["Binary"]
            .as_str()
            .unwrap()
            .to_string();
        let policies = resource["Properties"]["Policies"].as_sequence();
        let statements = policies
            .into_iter()
            .flatten()
            .flat_map(|p| p["Statement"].as_sequence().unwrap())
            .collect();
        functions.insert(binary, statements);
    }
    functions
}

/// A value or a list of values.
pub fn one_or_many(value: &Yaml) -> Vec<&Yaml> {
    match value.as_sequence() {
        Some(list) => list.iter().collect(),
        None => vec![value],
    }
}
