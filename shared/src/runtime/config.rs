//! Configuration from the environment, read once per cold start.

use crate::storage::store::DEFAULT_SNAPSHOT_CACHE_MB;
use std::env;

#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Entries, dictionaries and (later) search indexes.
    pub entries_table: String,
    /// API keys and their quota counters.
    pub keys_table: String,
    /// Bucket holding pronunciation audio.
    pub audio_bucket: String,
    /// Public base URL of the audio CDN (`https://d123.cloudfront.net`). When
    /// absent, audio URLs are presigned S3 GET URLs.
    pub audio_base_url: Option<String>,
    /// Endpoint overrides for local emulators (DynamoDB Local, moto's S3).
    pub dynamodb_endpoint: Option<String>,
    pub s3_endpoint: Option<String>,
    /// Bytes of the snapshot's paged parts (records, grams, definitions) a
    /// warm instance keeps, least recently used let go first
    /// (`SNAPSHOT_CACHE_MB`, default [`DEFAULT_SNAPSHOT_CACHE_MB`]).
    pub snapshot_cache_bytes: usize,
}

/// A setting the process cannot start without, or cannot read.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ConfigError {
    #[error("missing environment variable {0}")]
    Missing(&'static str),
    #[error("environment variable {name} must be {expected}, not {value:?}")]
    Invalid {
        name: &'static str,
        expected: &'static str,
        value: String,
    },
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| env::var(name).ok())
    }

    /// Reads the configuration through `lookup`, so that tests need not touch
    /// the process environment.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let optional = |name: &str| {
            lookup(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let required = |name: &'static str| optional(name).ok_or(ConfigError::Missing(name));
        Ok(Self {
            entries_table: required("ENTRIES_TABLE")?,
            keys_table: required("KEYS_TABLE")?,
            audio_bucket: required("AUDIO_BUCKET")?,
            audio_base_url: optional("AUDIO_BASE_URL")
                .map(|url| url.trim_end_matches('/').to_string()),
            dynamodb_endpoint: optional("DYNAMODB_ENDPOINT"),
            s3_endpoint: optional("S3_ENDPOINT"),
            snapshot_cache_bytes: match optional("SNAPSHOT_CACHE_MB") {
                None => DEFAULT_SNAPSHOT_CACHE_MB << 20,
                Some(value) => value
                    .parse::<usize>()
                    .ok()
                    .and_then(|mb| mb.checked_mul(1 << 20))
                    .ok_or(ConfigError::Invalid {
                        name: "SNAPSHOT_CACHE_MB",
                        expected: "a number of megabytes",
                        value,
                    })?,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn lookup(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn reads_required_and_optional_variables() {
        let config = Config::from_lookup(lookup(&[
            ("ENTRIES_TABLE", "entries"),
            ("KEYS_TABLE", "keys"),
            ("AUDIO_BUCKET", "audio"),
            ("AUDIO_BASE_URL", "https://cdn.example/"),
            ("DYNAMODB_ENDPOINT", ""),
        ]))
        .unwrap();
        assert_eq!(config.entries_table, "entries");
        assert_eq!(
            config.audio_base_url.as_deref(),
            Some("https://cdn.example")
        );
        assert_eq!(config.dynamodb_endpoint, None, "empty means unset");
        assert_eq!(config.snapshot_cache_bytes, DEFAULT_SNAPSHOT_CACHE_MB << 20);
    }

    #[test]
    fn the_snapshot_cache_is_a_number_of_megabytes() {
        let with = |value: &str| {
            Config::from_lookup(lookup(&[
                ("ENTRIES_TABLE", "e"),
                ("KEYS_TABLE", "k"),
                ("AUDIO_BUCKET", "a"),
                ("SNAPSHOT_CACHE_MB", value),
            ]))
        };
        assert_eq!(with("64").unwrap().snapshot_cache_bytes, 64 << 20);
        assert_eq!(with(" 0 ").unwrap().snapshot_cache_bytes, 0);
        for bad in ["-1", "1.5", "lots", "99999999999999999999"] {
            assert_eq!(
                with(bad).unwrap_err().to_string(),
                format!(
                    "environment variable SNAPSHOT_CACHE_MB must be a number of megabytes, not {bad:?}"
                )
            );
        }
    }

    #[test]
    fn names_the_missing_variable() {
        let err = Config::from_lookup(lookup(&[("ENTRIES_TABLE", "e")])).unwrap_err();
        assert_eq!(err, ConfigError::Missing("KEYS_TABLE"));
    }
}
