//! API key management: create (the secret is printed once and stored only as a
//! SHA-256 hash), list, disable, enable, change plan or custom limit.

use aws_sdk_dynamodb::types::AttributeValue;
use rand::distr::Alphanumeric;
use rand::Rng;
use shared::auth::{
    hash_key, is_well_formed_key, key_pk, KeyRecord, BY_KEY_ID_INDEX, KEY_PREFIX, KEY_RECORD_SK,
    KEY_SECRET_LEN,
};
use shared::quota::Plan;

pub fn new_secret() -> String {
    let secret: String = rand::rng()
        .sample_iter(Alphanumeric)
        .take(KEY_SECRET_LEN)
        .map(char::from)
        .collect();
    format!("{KEY_PREFIX}{secret}")
}

fn new_key_id() -> String {
    let id: String = rand::rng()
        .sample_iter(Alphanumeric)
        .take(12)
        .map(|b| (b as char).to_ascii_lowercase())
        .collect();
    format!("key_{id}")
}

pub fn parse_plan(name: &str) -> Result<Plan, String> {
    Plan::parse(name).ok_or_else(|| format!("unknown plan {name:?}: one of free, starter, pro"))
}

/// Creates a key. With `secret`, that exact key is created (the local demo key);
/// creating an existing key changes nothing and reports it.
pub async fn create(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    name: &str,
    plan: Plan,
    custom_limit: Option<u64>,
    secret: Option<String>,
) -> Result<(String, KeyRecord, bool), String> {
    let secret = secret.unwrap_or_else(new_secret);
    if !is_well_formed_key(&secret) {
        return Err(format!(
            "a key is {KEY_PREFIX} followed by {KEY_SECRET_LEN} letters or digits"
        ));
    }
    let record = KeyRecord {
        key_hash: hash_key(&secret),
        key_id: new_key_id(),
        name: name.to_string(),
        plan,
        custom_limit,
        disabled: false,
        created_at: now_iso(),
    };
    let result = client
        .put_item()
        .table_name(table)
        .set_item(Some(record.to_item()))
        .condition_expression("attribute_not_exists(pk)")
        .send()
        .await;
    match result {
        Ok(_) => Ok((secret, record, true)),
        Err(e)
            if e.as_service_error()
                .is_some_and(|s| s.is_conditional_check_failed_exception()) =>
        {
            let existing = get_by_hash(client, table, &record.key_hash)
                .await?
                .ok_or("key vanished while creating it")?;
            Ok((secret, existing, false))
        }
        Err(e) => Err(crate::sdk_error("creating key".into(), e)),
    }
}

async fn get_by_hash(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    key_hash: &str,
) -> Result<Option<KeyRecord>, String> {
    let output = client
        .get_item()
        .table_name(table)
        .key("pk", AttributeValue::S(key_pk(key_hash)))
        .key("sk", AttributeValue::S(KEY_RECORD_SK.into()))
        .consistent_read(true)
        .send()
        .await
        .map_err(|e| format!("reading key: {e}"))?;
    Ok(output.item.as_ref().and_then(KeyRecord::from_item))
}

/// The record of a key by its public id.
pub async fn find(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    key_id: &str,
) -> Result<KeyRecord, String> {
    let output = client
        .query()
        .table_name(table)
        .index_name(BY_KEY_ID_INDEX)
        .key_condition_expression("keyId = :id")
        .expression_attribute_values(":id", AttributeValue::S(key_id.to_string()))
        .send()
        .await
        .map_err(|e| format!("finding key: {e}"))?;
    output
        .items()
        .iter()
        .find_map(KeyRecord::from_item)
        .ok_or_else(|| format!("no key with id {key_id}"))
}

/// Every key record. An admin listing, never a request path: a Scan is fine.
pub async fn list(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
) -> Result<Vec<KeyRecord>, String> {
    let mut records = Vec::new();
    let mut start = None;
    loop {
        let output = client
            .scan()
            .table_name(table)
            .filter_expression("sk = :sk")
            .expression_attribute_values(":sk", AttributeValue::S(KEY_RECORD_SK.into()))
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(|e| format!("listing keys: {e}"))?;
        records.extend(output.items().iter().filter_map(KeyRecord::from_item));
        start = output.last_evaluated_key;
        if start.is_none() {
            break;
        }
    }
    records.sort_by(|a, b| a.created_at.cmp(&b.created_at));
    Ok(records)
}

/// Writes a changed record back (plan, limit, disabled).
pub async fn save(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    record: &KeyRecord,
) -> Result<(), String> {
    client
        .put_item()
        .table_name(table)
        .set_item(Some(record.to_item()))
        .condition_expression("attribute_exists(pk)")
        .send()
        .await
        .map_err(|e| format!("updating key: {e}"))?;
    Ok(())
}

fn now_iso() -> String {
    let now = time::OffsetDateTime::now_utc();
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        now.year(),
        now.month() as u8,
        now.day(),
        now.hour(),
        now.minute(),
        now.second()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_secrets_are_well_formed_and_distinct() {
        let (a, b) = (new_secret(), new_secret());
        assert!(is_well_formed_key(&a), "{a}");
        assert_ne!(a, b);
        assert!(new_key_id().starts_with("key_"));
    }

    #[test]
    fn plans_parse_by_name() {
        assert_eq!(parse_plan("pro"), Ok(Plan::Pro));
        assert!(parse_plan("platinum").is_err());
    }
}
