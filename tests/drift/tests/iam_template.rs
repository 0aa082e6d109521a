//! The template's side of least privilege, without the stack: the one write
//! of the functions, the quota counter's UpdateItem on the keys table, is
//! granted only under a condition on its partitions (the counters' own,
//! never a key record's), attributes and return values. The
//! black-box test of tests/tests/blackbox/iam_policies.rs checks every recorded
//! counter update against the same condition on the stack. And the grants
//! that functions share follow their routes' keys and costs. A function's
//! grants are its inline statements and those of the managed policies it
//! lists (`drift::function_statements`).

use drift::{
    counter_leading_keys, endpoints, function_statements, managed_policies, one_or_many, reference,
    template, COUNTER_ATTRIBUTES, COUNTER_RETURN_VALUES,
};
use serde_norway::Value as Yaml;
use shared::api::pipeline::Cost;
use shared::api::routes::ROUTES;
use std::collections::BTreeSet;

/// Any action that writes items, by name or by wildcard.
fn writes_items(action: &str) -> bool {
    action.contains('*')
        || [
            "dynamodb:PutItem",
            "dynamodb:UpdateItem",
            "dynamodb:DeleteItem",
            "dynamodb:BatchWriteItem",
            "dynamodb:PartiQLInsert",
            "dynamodb:PartiQLUpdate",
            "dynamodb:PartiQLDelete",
        ]
        .contains(&action)
}

/// Whether a statement's resource may be the keys table (or one of its
/// indexes): `KeysTable` by intrinsic, or anything that is not an intrinsic
/// of a known table (`*`, a literal ARN).
fn may_be_keys_table(resource: &Yaml) -> bool {
    match resource {
        Yaml::Tagged(tagged) => tagged
            .value
            .as_str()
            .is_none_or(|text| text.contains("KeysTable") || !text.contains("Table")),
        _ => true,
    }
}

/// A string or a list of strings (anything else counts as nothing).
fn strings(value: &Yaml) -> Vec<String> {
    one_or_many(value)
        .into_iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// Does not need the local stack: reads template.yaml only.
#[test]
fn the_keys_table_is_written_only_through_the_counter_condition() {
    let doc = template();
    let expected_attributes: BTreeSet<String> =
        COUNTER_ATTRIBUTES.iter().map(|a| a.to_string()).collect();
    let expected_returns: BTreeSet<String> = COUNTER_RETURN_VALUES
        .iter()
        .map(|a| a.to_string())
        .collect();
    let mut problems = Vec::new();
    let mut counters = 0;
    for (binary, statements) in function_statements(&doc) {
        for statement in statements {
            let sid = statement["Sid"].as_str().unwrap_or("(no Sid)");
            let actions = strings(&statement["Action"]);
            let keys = one_or_many(&statement["Resource"])
                .into_iter()
                .any(may_be_keys_table);
            if statement["Effect"].as_str() != Some("Allow")
                || !keys
                || !actions.iter().any(|a| writes_items(a))
            {
                continue;
            }
            let what = format!("{binary} {sid}");
            if actions != ["dynamodb:UpdateItem"] {
                problems.push(format!(
                    "{what}: writes on the keys table must be a statement of UpdateItem alone, not {actions:?}"
                ));
            }
            let condition = &statement["Condition"];
            let operators: BTreeSet<&str> = condition
                .as_mapping()
                .into_iter()
                .flat_map(|m| m.keys())
                .filter_map(Yaml::as_str)
                .collect();
            if operators
                != BTreeSet::from([
                    "ForAllValues:StringLike",
                    "ForAllValues:StringEquals",
                    "StringEqualsIfExists",
                ])
            {
                problems.push(format!(
                    "{what}: condition operators {operators:?}, expected ForAllValues:StringLike, ForAllValues:StringEquals and StringEqualsIfExists"
                ));
            }
            // The counters' own partitions, and nothing else: no key record.
            let partitions = &condition["ForAllValues:StringLike"];
            let partition_keys = partitions.as_mapping().map_or(0, |m| m.len());
            let leading = strings(&partitions["dynamodb:LeadingKeys"]);
            if partition_keys != 1 || leading != [counter_leading_keys()] {
                problems.push(format!(
                    "{what}: ForAllValues:StringLike {partitions:?}, expected exactly dynamodb:LeadingKeys [{:?}]",
                    counter_leading_keys()
                ));
            }
            let attributes = &condition["ForAllValues:StringEquals"];
            let attribute_keys = attributes.as_mapping().map_or(0, |m| m.len());
            let granted: BTreeSet<String> = strings(&attributes["dynamodb:Attributes"])
                .into_iter()
                .collect();
            if attribute_keys != 1 || granted != expected_attributes {
                problems.push(format!(
                    "{what}: ForAllValues:StringEquals {attributes:?}, expected exactly dynamodb:Attributes {expected_attributes:?}"
                ));
            }
            let returns = &condition["StringEqualsIfExists"];
            let return_keys = returns.as_mapping().map_or(0, |m| m.len());
            let granted: BTreeSet<String> = strings(&returns["dynamodb:ReturnValues"])
                .into_iter()
                .collect();
            if return_keys != 1 || granted != expected_returns {
                problems.push(format!(
                    "{what}: StringEqualsIfExists {returns:?}, expected exactly dynamodb:ReturnValues {expected_returns:?}"
                ));
            }
            counters += 1;
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        counters > 0,
        "no function is granted the quota counter's UpdateItem"
    );
}

/// Whether `statements` allow `action` on what may be the keys table.
fn allowed_on_the_keys_table(statements: &[&Yaml], action: &str) -> bool {
    statements.iter().any(|statement| {
        statement["Effect"].as_str() == Some("Allow")
            && strings(&statement["Action"]).iter().any(|a| a == action)
            && one_or_many(&statement["Resource"])
                .into_iter()
                .any(may_be_keys_table)
    })
}

/// The shared grants follow the routes (`shared::api::routes`): the key lookup
/// for every function behind a key, the quota counter for every function
/// whose requests cost units, and neither for the others. The black-box test
/// of iam_policies.rs holds every grant to the calls made on the stack; this
/// holds these two without it.
#[test]
fn the_key_lookup_and_the_counter_are_granted_to_the_functions_that_use_them() {
    let doc = template();
    let keyed: BTreeSet<&str> = ROUTES
        .iter()
        .filter(|route| route.requires_key)
        .map(|route| route.name)
        .collect();
    let counted: BTreeSet<&str> = endpoints()
        .into_iter()
        .filter(|endpoint| !matches!(endpoint.cost, Cost::Free))
        .map(|endpoint| endpoint.route.name)
        .collect();
    let mut problems = Vec::new();
    for (binary, statements) in function_statements(&doc) {
        let looks_up = allowed_on_the_keys_table(&statements, "dynamodb:GetItem");
        if looks_up != keyed.contains(binary.as_str()) {
            problems.push(format!(
                "{binary}: key lookup granted {looks_up}, behind a key {}",
                !looks_up
            ));
        }
        let counts = allowed_on_the_keys_table(&statements, "dynamodb:UpdateItem");
        if counts != counted.contains(binary.as_str()) {
            problems.push(format!(
                "{binary}: quota counter granted {counts}, requests cost units {}",
                !counts
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A managed policy grants through the functions that list it in their
/// `Policies`, where the tests read it; one attached any other way (its own
/// `Roles`, `Users` or `Groups`) would grant what no test sees, and one that
/// no function lists is dead.
#[test]
fn every_managed_policy_is_attached_by_the_functions_that_list_it() {
    let doc = template();
    let listed: BTreeSet<&str> = doc["Resources"]
        .as_mapping()
        .unwrap()
        .values()
        .filter(|r| r["Type"].as_str() == Some("AWS::Serverless::Function"))
        .flat_map(|r| {
            r["Properties"]["Policies"]
                .as_sequence()
                .into_iter()
                .flatten()
        })
        .filter_map(reference)
        .collect();
    for (name, policy) in managed_policies(&doc) {
        for other in ["Roles", "Users", "Groups"] {
            assert!(
                policy["Properties"][other].is_null(),
                "{name} is attached through its {other}, not a function's Policies"
            );
        }
        assert!(listed.contains(name.as_str()), "no function lists {name}");
    }
}
