//! Readers of the repository's own files for the tests that hold them
//! together: template.yaml's functions and the grants of their policies, and
//! the endpoints behind the routes of `shared::api::routes::ROUTES`.
//! The drift tests (`tests/drift/tests/`) use them without the local stack;
//! the black-box test of least privilege (`tests/tests/blackbox/iam_policies.rs`)
//! compares the same grants with the calls the functions make on the stack.

use serde_norway::Value as Yaml;
use shared::api::pipeline::{Endpoint, Route};
use shared::api::routes::{ENDPOINTS, NOT_FOUND, ROUTES};
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
/// this condition and [`counter_leading_keys`], so no function can rewrite a
/// key record (`name`, `plan`, `disabled`, `customLimit`), set `used` or
/// `expiresAt` on one, or read one back through an update.
pub const COUNTER_ATTRIBUTES: [&str; 4] = ["pk", "sk", "used", "expiresAt"];
/// The partitions the counter grant admits (`dynamodb:LeadingKeys`): the
/// counters' own key space (`shared::access::quota::COUNTER_PK_PREFIX`),
/// which no key record shares.
pub fn counter_leading_keys() -> String {
    format!("{}*", shared::access::quota::COUNTER_PK_PREFIX)
}
pub const COUNTER_RETURN_VALUES: [&str; 2] = ["NONE", "UPDATED_NEW"];

/// Every function of the template, by binary name, with its policy
/// statements: those written inline in its `Policies` and those of the
/// managed policies of the template (`AWS::IAM::ManagedPolicy`) it lists
/// there by `!Ref`. Any other kind of policy (an AWS managed policy's name or
/// ARN, a SAM policy template) grants what this cannot read, and panics.
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
        let mut statements = Vec::new();
        for policy in policies.into_iter().flatten() {
            let document = match reference(policy) {
                Some(name) => managed_policy_document(doc, name)
                    .unwrap_or_else(|| panic!("{binary} lists !Ref {name}, which is no AWS::IAM::ManagedPolicy of the template")),
                None => policy,
            };
            let listed = document["Statement"].as_sequence().unwrap_or_else(|| {
                panic!("{binary} has a policy whose statements cannot be read here: {policy:?}")
            });
            statements.extend(listed);
        }
        functions.insert(binary, statements);
    }
    functions
}

/// The name in `!Ref Name`.
pub fn reference(value: &Yaml) -> Option<&str> {
    match value {
        Yaml::Tagged(tagged) if tagged.tag.to_string().trim_start_matches('!') == "Ref" => {
            tagged.value.as_str()
        }
        _ => None,
    }
}

/// The managed policies of the template (`AWS::IAM::ManagedPolicy`), by logical id.
pub fn managed_policies(doc: &Yaml) -> BTreeMap<String, &Yaml> {
    doc["Resources"]
        .as_mapping()
        .unwrap()
        .iter()
        .filter(|(_, r)| r["Type"].as_str() == Some("AWS::IAM::ManagedPolicy"))
        .map(|(name, r)| (name.as_str().unwrap().to_string(), r))
        .collect()
}

/// The policy document of the template's managed policy `name`, if it is one.
fn managed_policy_document<'a>(doc: &'a Yaml, name: &str) -> Option<&'a Yaml> {
    let resource = &doc["Resources"][name];
    (resource["Type"].as_str() == Some("AWS::IAM::ManagedPolicy"))
        .then(|| &resource["Properties"]["PolicyDocument"])
}

/// A value or a list of values.
pub fn one_or_many(value: &Yaml) -> Vec<&Yaml> {
    match value.as_sequence() {
        Some(list) => list.iter().collect(),
        None => vec![value],
    }
}

/// Every endpoint the request pipeline serves, in the order of
/// `shared::api::routes::ROUTES`: the endpoint of each route behind a key, then
/// the unknown-path fallback. The keyless routes of `ROUTES` are the pages
/// (the playground, its assets, the OpenAPI document), which functions serve
/// from files without the pipeline.
pub fn endpoints() -> Vec<&'static Endpoint> {
    ROUTES
        .iter()
        .filter(|route| route.requires_key)
        .map(|route| endpoint_of(route))
        .chain([&NOT_FOUND])
        .collect()
}

/// The endpoint whose route is `route` itself.
fn endpoint_of(route: &'static Route) -> &'static Endpoint {
    ENDPOINTS
        .into_iter()
        .find(|endpoint| std::ptr::eq(&endpoint.route, route))
        .unwrap_or_else(|| panic!("{} {} is the route of no endpoint", route.name, route.path))
}

/// Every function, by name (its crate in `functions/`), in the order of
/// `shared::api::routes::ROUTES`: those that serve its routes, then the
/// unknown-path fallback's.
pub fn functions() -> Vec<&'static str> {
    let mut names = Vec::new();
    for route in ROUTES.iter().copied().chain([&NOT_FOUND.route]) {
        if !names.contains(&route.name) {
            names.push(route.name);
        }
    }
    names
}
