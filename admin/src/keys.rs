//! API key management: create (the secret is printed once and stored only as a
//! SHA-256 hash), list, disable, enable, change plan or custom limit. Records
//! are read and written through the functions' own `shared::access::auth::KeyStore`.

use aws_sdk_dynamodb::error::DisplayErrorContext;
use rand::distr::Alphanumeric;
use rand::Rng;
use shared::access::auth::Plan;
use shared::access::auth::{
    hash_key, is_well_formed_key, KeyRecord, KeyStore, Read, KEY_PREFIX, KEY_SECRET_LEN,
};

/// Whatever stops a key command. The SDK's errors are kept as their one-line
/// rendering, so that a key error compares equal in tests.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum KeyError {
    #[error("unknown plan {0:?}: one of free, starter, pro")]
    UnknownPlan(String),
    #[error("a key is {KEY_PREFIX} followed by {KEY_SECRET_LEN} letters or digits")]
    Malformed,
    #[error("no key with id {0}")]
    NoSuchKey(String),
    #[error("key vanished while creating it")]
    Vanished,
    /// The store refused: what was being done, then the SDK's error.
    #[error("{doing}: {message}")]
    Store {
        doing: &'static str,
        message: String,
    },
}

impl KeyError {
    /// For `map_err`: the store failed while `doing`, said with the error's
    /// causes.
    fn store_with_causes<E: std::error::Error>(doing: &'static str) -> impl FnOnce(E) -> Self {
        move |e| KeyError::Store {
            doing,
            message: DisplayErrorContext(e).to_string(),
        }
    }

    /// For `map_err`: the store failed while `doing`, said as the SDK says it.
    fn store<E: std::fmt::Display>(doing: &'static str) -> impl FnOnce(E) -> Self {
        move |e| KeyError::Store {
            doing,
            message: e.to_string(),
        }
    }
}

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

pub fn parse_plan(name: &str) -> Result<Plan, KeyError> {
    Plan::parse(name).ok_or_else(|| KeyError::UnknownPlan(name.to_string()))
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
) -> Result<(String, KeyRecord, bool), KeyError> {
    let secret = secret.unwrap_or_else(new_secret);
    if !is_well_formed_key(&secret) {
        return Err(KeyError::Malformed);
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
    let store = key_store(client, table);
    let created = store
        .create(&record)
        .await
        .map_err(KeyError::store_with_causes("creating key"))?;
    if created {
        return Ok((secret, record, true));
    }
    let existing = store
        .record(&record.key_hash, Read::Consistent)
        .await
        .map_err(KeyError::store("reading key"))?
        .ok_or(KeyError::Vanished)?;
    Ok((secret, existing, false))
}

/// The functions' key store, for the keys table.
fn key_store(client: &aws_sdk_dynamodb::Client, table: &str) -> KeyStore {
    KeyStore::new(client.clone(), table.to_string())
}

/// The record of a key by its public id.
pub async fn find(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    key_id: &str,
) -> Result<KeyRecord, KeyError> {
    key_store(client, table)
        .by_key_id(key_id)
        .await
        .map_err(KeyError::store("finding key"))?
        .ok_or_else(|| KeyError::NoSuchKey(key_id.to_string()))
}

/// Every key record, oldest first.
pub async fn list(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
) -> Result<Vec<KeyRecord>, KeyError> {
    key_store(client, table)
        .list()
        .await
        .map_err(KeyError::store("listing keys"))
}

/// Writes a changed record back (plan, limit, disabled).
pub async fn save(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    record: &KeyRecord,
) -> Result<(), KeyError> {
    key_store(client, table)
        .save(record)
        .await
        .map_err(KeyError::store("updating key"))
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
