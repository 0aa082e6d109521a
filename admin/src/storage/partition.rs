//! Reading one partition of the entries table with Query (the admin command
//! line never scans), and the primary keys of what it reads: to tell which
//! items a new write leaves behind, and to name them for deletion.

use aws_sdk_dynamodb::types::AttributeValue;
use shared::storage::items::Item;

#[derive(Debug, thiserror::Error)]
#[error("reading {pk} from {table}: {message}")]
pub struct QueryError {
    pub table: String,
    pub pk: String,
    pub message: String,
}

/// Every item of partition `pk` (only those whose sort key starts with
/// `sk_prefix`, if given), through all Query pages. `keys_only` reads just
/// `pk` and `sk`.
pub async fn read(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    pk: &str,
    sk_prefix: Option<&str>,
    keys_only: bool,
) -> Result<Vec<Item>, QueryError> {
    let mut query = client
        .query()
        .table_name(table)
        .expression_attribute_names("#pk", "pk")
        .expression_attribute_values(":pk", AttributeValue::S(pk.to_string()));
    query = match sk_prefix {
        Some(prefix) => query
            .key_condition_expression("#pk = :pk AND begins_with(#sk, :prefix)")
            .expression_attribute_names("#sk", "sk")
            .expression_attribute_values(":prefix", AttributeValue::S(prefix.to_string())),
        None => query.key_condition_expression("#pk = :pk"),
    };
    if keys_only {
        query = query
            .projection_expression("#pk, #sk")
            .expression_attribute_names("#sk", "sk");
    }
    query
        .into_paginator()
        .items()
        .send()
        .try_collect()
        .await
        .map_err(|e| QueryError {
            table: table.to_string(),
            pk: pk.to_string(),
            message: aws_sdk_dynamodb::error::DisplayErrorContext(e).to_string(),
        })
}

/// The primary key (`pk`, `sk`) of an item, if both are strings.
pub fn key_of(item: &Item) -> Option<(String, String)> {
    let s = |name: &str| item.get(name).and_then(|v| v.as_s().ok()).cloned();
    Some((s("pk")?, s("sk")?))
}

/// The item that names a primary key, for deletes.
pub fn key_item(pk: &str, sk: &str) -> Item {
    Item::from([
        ("pk".to_string(), AttributeValue::S(pk.to_string())),
        ("sk".to_string(), AttributeValue::S(sk.to_string())),
    ])
}
