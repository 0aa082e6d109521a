//! API keys: their format, the `Authorization` header, their plans, their
//! stored records and the one key store that the functions and the admin tool
//! read and write.
//! Keys are stored only as SHA-256 hashes. Nothing here logs key material.

use crate::error::ApiError;
use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::operation::get_item::GetItemError;
use aws_sdk_dynamodb::operation::put_item::PutItemError;
use aws_sdk_dynamodb::operation::query::QueryError;
use aws_sdk_dynamodb::operation::scan::ScanError;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::time::{Duration, Instant};
use tokio::sync::RwLock;

/// Every key is `dk_` followed by 32 ASCII letters and digits.
pub const KEY_PREFIX: &str = "dk_";
pub const KEY_SECRET_LEN: usize = 32;
/// A header longer than this is not an API key; it is rejected unread.
pub(crate) const MAX_AUTHORIZATION_BYTES: usize = 256;
/// How long a warm instance trusts a key record. A disabled key stops working
/// within this time (the contract allows 60 seconds).
pub(crate) const KEY_CACHE_TTL: Duration = Duration::from_secs(30);
/// How long a warm instance remembers that a well-formed key is unknown, so
/// that a client retrying a wrong key costs no read each time. A key just
/// created works at once on instances that never saw it, and within this
/// time on those that did.
pub(crate) const UNKNOWN_KEY_CACHE_TTL: Duration = Duration::from_secs(10);
/// Bounds the key cache so a flood of distinct keys cannot grow it without limit.
const KEY_CACHE_MAX: usize = 10_000;
pub(crate) const KEY_RECORD_SK: &str = "KEY";
pub const BY_KEY_ID_INDEX: &str = "ByKeyId";

/// The key from an `Authorization` header value: `Bearer dk_…`.
pub(crate) fn parse_authorization(header: Option<&[u8]>) -> Result<String, ApiError> {
    let raw = header.ok_or(ApiError::MissingKey)?;
    if raw.len() > MAX_AUTHORIZATION_BYTES {
        return Err(ApiError::InvalidKey);
    }
    let text = std::str::from_utf8(raw)
        .map_err(|_| ApiError::InvalidKey)?
        .trim();
    if text.is_empty() {
        return Err(ApiError::MissingKey);
    }
    // `Bearer`, one or more spaces, the key (RFC 6750). Another scheme
    // carries no API key; anything else (a tab for the space, no space, a
    // bare key) is a header the caller meant for one and wrote wrongly.
    let Some((scheme, token)) = text.split_once(' ') else {
        return Err(ApiError::MalformedAuthorization);
    };
    if !scheme.eq_ignore_ascii_case("bearer") {
        let is_scheme = scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-');
        return Err(if is_scheme {
            ApiError::MissingKey
        } else {
            ApiError::MalformedAuthorization
        });
    }
    let token = token.trim();
    if is_well_formed_key(token) {
        Ok(token.to_string())
    } else {
        Err(ApiError::InvalidKey)
    }
}

pub fn is_well_formed_key(token: &str) -> bool {
    token.strip_prefix(KEY_PREFIX).is_some_and(|secret| {
        secret.len() == KEY_SECRET_LEN && secret.bytes().all(|b| b.is_ascii_alphanumeric())
    })
}

/// The stored form of a key: hex SHA-256.
pub fn hash_key(key: &str) -> String {
    Sha256::digest(key.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub(crate) fn key_pk(key_hash: &str) -> String {
    format!("KEY#{key_hash}")
}

/// A key's plan: its monthly limit unless the key has a custom one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    Free,
    Starter,
    Pro,
}

impl Plan {
    pub const ALL: [Plan; 3] = [Plan::Free, Plan::Starter, Plan::Pro];

    pub fn name(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Starter => "starter",
            Plan::Pro => "pro",
        }
    }

    /// Requests per calendar month.
    pub(crate) fn monthly_limit(self) -> u64 {
        match self {
            Plan::Free => 1_000,
            Plan::Starter => 50_000,
            Plan::Pro => 1_000_000,
        }
    }

    pub fn parse(name: &str) -> Option<Plan> {
        Plan::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// A key's record. `key_id` is its public name, safe to log and show.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyRecord {
    pub key_hash: String,
    pub key_id: String,
    pub name: String,
    pub plan: Plan,
    pub custom_limit: Option<u64>,
    pub disabled: bool,
    pub created_at: String,
}

impl KeyRecord {
    pub fn limit(&self) -> u64 {
        self.custom_limit
            .unwrap_or_else(|| self.plan.monthly_limit())
    }

    pub fn to_item(&self) -> HashMap<String, AttributeValue> {
        let mut item = HashMap::new();
        item.insert("pk".into(), AttributeValue::S(key_pk(&self.key_hash)));
        item.insert("sk".into(), AttributeValue::S(KEY_RECORD_SK.into()));
        item.insert("keyId".into(), AttributeValue::S(self.key_id.clone()));
        item.insert("name".into(), AttributeValue::S(self.name.clone()));
        item.insert("plan".into(), AttributeValue::S(self.plan.name().into()));
        if let Some(limit) = self.custom_limit {
            item.insert("customLimit".into(), AttributeValue::N(limit.to_string()));
        }
        item.insert("disabled".into(), AttributeValue::Bool(self.disabled));
        item.insert(
            "createdAt".into(),
            AttributeValue::S(self.created_at.clone()),
        );
        item
    }

    pub(crate) fn from_item(item: &HashMap<String, AttributeValue>) -> Option<Self> {
        let s = |name: &str| item.get(name).and_then(|v| v.as_s().ok()).cloned();
        Some(Self {
            key_hash: s("pk")?.strip_prefix("KEY#")?.to_string(),
            key_id: s("keyId")?,
            name: s("name").unwrap_or_default(),
            plan: Plan::parse(&s("plan")?)?,
            custom_limit: item
                .get("customLimit")
                .and_then(|v| v.as_n().ok())
                .and_then(|n| n.parse().ok()),
            disabled: item
                .get("disabled")
                .and_then(|v| v.as_bool().ok())
                .copied()
                .unwrap_or(false),
            created_at: s("createdAt").unwrap_or_default(),
        })
    }
}

/// How long a warm instance keeps what it read about a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyCacheTtls {
    pub known: Duration,
    pub unknown: Duration,
}

impl Default for KeyCacheTtls {
    fn default() -> Self {
        Self {
            known: KEY_CACHE_TTL,
            unknown: UNKNOWN_KEY_CACHE_TTL,
        }
    }
}

pub struct KeyStore {
    client: aws_sdk_dynamodb::Client,
    table: String,
    ttls: KeyCacheTtls,
    /// By key hash: when it was read, and the record (`None`: unknown).
    cache: RwLock<HashMap<String, (Instant, Option<KeyRecord>)>>,
}

impl KeyStore {
    pub fn new(client: aws_sdk_dynamodb::Client, table: String) -> Self {
        Self::with_cache_ttls(client, table, KeyCacheTtls::default())
    }

    pub fn with_cache_ttls(
        client: aws_sdk_dynamodb::Client,
        table: String,
        ttls: KeyCacheTtls,
    ) -> Self {
        Self {
            client,
            table,
            ttls,
            cache: RwLock::new(HashMap::new()),
        }
    }

    /// The key record for a (well-formed) key, from the warm cache or one
    /// GetItem: 401 when unknown, 403 when disabled.
    pub async fn authenticate(&self, key: &str) -> Result<KeyRecord, ApiError> {
        let key_hash = hash_key(key);
        let cached = self.cache.read().await.get(&key_hash).cloned();
        let record = match cached {
            Some((fetched, record)) if fetched.elapsed() < self.ttl(&record) => record,
            _ => {
                let record = self.fetch(&key_hash).await?;
                let mut cache = self.cache.write().await;
                if cache.len() >= KEY_CACHE_MAX {
                    cache.clear();
                }
                cache.insert(key_hash, (Instant::now(), record.clone()));
                record
            }
        };
        match record {
            None => Err(ApiError::InvalidKey),
            Some(record) if record.disabled => Err(ApiError::KeyDisabled),
            Some(record) => Ok(record),
        }
    }

    fn ttl(&self, record: &Option<KeyRecord>) -> Duration {
        match record {
            Some(_) => self.ttls.known,
            None => self.ttls.unknown,
        }
    }

    async fn fetch(&self, key_hash: &str) -> Result<Option<KeyRecord>, ApiError> {
        Ok(self.record(key_hash, Read::Eventual).await?)
    }

    /// The record stored for a key hash, read once (no cache).
    pub async fn record(
        &self,
        key_hash: &str,
        read: Read,
    ) -> Result<Option<KeyRecord>, SdkError<GetItemError, HttpResponse>> {
        let output = self
            .client
            .get_item()
            .table_name(&self.table)
            .key("pk", AttributeValue::S(key_pk(key_hash)))
            .key("sk", AttributeValue::S(KEY_RECORD_SK.into()))
            .consistent_read(read == Read::Consistent)
            .send()
            .await?;
        Ok(output.item.as_ref().and_then(KeyRecord::from_item))
    }

    /// The record of a key by its public id (the `ByKeyId` index).
    pub async fn by_key_id(
        &self,
        key_id: &str,
    ) -> Result<Option<KeyRecord>, SdkError<QueryError, HttpResponse>> {
        let output = self
            .client
            .query()
            .table_name(&self.table)
            .index_name(BY_KEY_ID_INDEX)
            .key_condition_expression("keyId = :id")
            .expression_attribute_values(":id", AttributeValue::S(key_id.to_string()))
            .send()
            .await?;
        Ok(output.items().iter().find_map(KeyRecord::from_item))
    }

    /// Stores a new key's record: `false`, changing nothing, when its hash
    /// is already stored.
    pub async fn create(
        &self,
        record: &KeyRecord,
    ) -> Result<bool, SdkError<PutItemError, HttpResponse>> {
        let result = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(record.to_item()))
            .condition_expression("attribute_not_exists(pk)")
            .send()
            .await;
        match result {
            Ok(_) => Ok(true),
            Err(e)
                if e.as_service_error()
                    .is_some_and(PutItemError::is_conditional_check_failed_exception) =>
            {
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// Writes a changed record back (plan, limit, disabled); the key must exist.
    pub async fn save(
        &self,
        record: &KeyRecord,
    ) -> Result<(), SdkError<PutItemError, HttpResponse>> {
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(record.to_item()))
            .condition_expression("attribute_exists(pk)")
            .send()
            .await?;
        Ok(())
    }

    /// Every key record, oldest first. For the admin tool's listing, never a
    /// request path: a Scan is fine there.
    pub async fn list(&self) -> Result<Vec<KeyRecord>, SdkError<ScanError, HttpResponse>> {
        let items: Vec<_> = self
            .client
            .scan()
            .table_name(&self.table)
            .filter_expression("sk = :sk")
            .expression_attribute_values(":sk", AttributeValue::S(KEY_RECORD_SK.into()))
            .into_paginator()
            .items()
            .send()
            .try_collect()
            .await?;
        let mut records: Vec<KeyRecord> = items.iter().filter_map(KeyRecord::from_item).collect();
        records.sort_by(|a, b| a.created_at.cmp(&b.created_at));
        Ok(records)
    }
}

/// How a read sees recent writes: requests may read a record a moment old;
/// the admin tool reads what it just wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    Eventual,
    Consistent,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_have_the_documented_limits() {
        assert_eq!(Plan::Free.monthly_limit(), 1_000);
        assert_eq!(Plan::Starter.monthly_limit(), 50_000);
        assert_eq!(Plan::Pro.monthly_limit(), 1_000_000);
        assert_eq!(Plan::parse("starter"), Some(Plan::Starter));
        assert_eq!(Plan::parse("gold"), None);
    }

    const KEY: &str = "dk_abcdefghijklmnopqrstuvwxyz012345";

    #[test]
    fn accepts_bearer_keys_in_any_scheme_case() {
        assert_eq!(
            parse_authorization(Some(format!("Bearer {KEY}").as_bytes())).unwrap(),
            KEY
        );
        assert_eq!(
            parse_authorization(Some(format!("bearer  {KEY} ").as_bytes())).unwrap(),
            KEY
        );
    }

    #[test]
    fn missing_or_other_schemes_are_missing_keys() {
        assert_eq!(parse_authorization(None), Err(ApiError::MissingKey));
        assert_eq!(parse_authorization(Some(b"")), Err(ApiError::MissingKey));
        assert_eq!(
            parse_authorization(Some(b"Basic dXNlcjpwYXNz")),
            Err(ApiError::MissingKey)
        );
    }

    #[test]
    fn headers_meant_for_a_key_but_written_wrongly_say_so() {
        for header in [
            KEY.to_string(),
            format!("Bearer\t{KEY}"),
            format!("Bearer{KEY}"),
            format!("Bearer\t{KEY} x"),
            "Bearer".to_string(),
        ] {
            assert_eq!(
                parse_authorization(Some(header.as_bytes())),
                Err(ApiError::MalformedAuthorization),
                "{header:?}"
            );
        }
        assert_eq!(
            ApiError::MalformedAuthorization.public_message(),
            "Malformed Authorization header: send \"Bearer <key>\""
        );
    }

    #[test]
    fn malformed_long_or_binary_headers_are_invalid_keys() {
        assert_eq!(
            parse_authorization(Some(b"Bearer dk_short")),
            Err(ApiError::InvalidKey)
        );
        assert_eq!(
            parse_authorization(Some(b"Bearer dk_abcdefghijklmnopqrstuvwxyz01234!")),
            Err(ApiError::InvalidKey)
        );
        let long = format!("Bearer {}", "a".repeat(10_000));
        assert_eq!(
            parse_authorization(Some(long.as_bytes())),
            Err(ApiError::InvalidKey)
        );
        assert_eq!(
            parse_authorization(Some(b"Bearer \xff\xfe")),
            Err(ApiError::InvalidKey)
        );
    }

    #[test]
    fn hashes_are_hex_sha256_and_never_the_key() {
        let hash = hash_key(KEY);
        assert_eq!(hash.len(), 64);
        assert!(!hash.contains(&KEY[3..]));
        assert_eq!(
            hash_key("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn key_record_round_trips_and_limit_prefers_custom() {
        let mut record = KeyRecord {
            key_hash: hash_key(KEY),
            key_id: "key_0123abcd".into(),
            name: "demo".into(),
            plan: Plan::Starter,
            custom_limit: None,
            disabled: false,
            created_at: "2026-11-22T00:00:00Z".into(),
        };
        assert_eq!(KeyRecord::from_item(&record.to_item()).unwrap(), record);
        assert_eq!(record.limit(), 50_000);
        record.custom_limit = Some(50);
        assert_eq!(KeyRecord::from_item(&record.to_item()).unwrap().limit(), 50);
    }
}
