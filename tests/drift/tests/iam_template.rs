//! The template's side of least privilege, without the stack: the one write
//! of the functions, the quota counter's UpdateItem on the keys table, is
//! granted only under a condition on its attributes and return values. The
//! black-box test of tests/tests/iam_policies.rs checks every recorded
//! counter update against the same condition on the stack.

use drift::{
    function_statements, one_or_many, template, COUNTER_ATTRIBUTES, COUNTER_RETURN_VALUES,
};
use serde_norway::Value as Yaml;
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
            if operators != BTreeSet::from(["ForAllValues:StringEquals", "StringEqualsIfExists"]) {
                problems.push(format!(
                    "{what}: condition operators {operators:?}, expected ForAllValues:StringEquals and StringEqualsIfExists"
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
