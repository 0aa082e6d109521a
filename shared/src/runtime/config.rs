//! Configuration from the environment, read once per cold start.

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
}

#[derive(Debug, thiserror::Error, PartialEq)]
#[error("missing environment variable {0}")]
pub struct MissingVariable(pub &'static str);

impl Config {
    pub fn from_env() -> Result<Self, MissingVariable> {
        Self::from_lookup(|name| env::var(name).ok())
    }

    /// Reads the configuration through `lookup`, so that tests need not touch
    /// the process environment.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, MissingVariable> {
        let optional = |name: &str| {
            lookup(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let required = |name: &'static str| optional(name).ok_or(MissingVariable(name));
        Ok(Self {
            entries_table: required("ENTRIES_TABLE")?,
            keys_table: required("KEYS_TABLE")?,
            audio_bucket: required("AUDIO_BUCKET")?,
            audio_base_url: optional("AUDIO_BASE_URL")
                .map(|url| url.trim_end_matches('/').to_string()),
            dynamodb_endpoint: optional("DYNAMODB_ENDPOINT"),
            s3_endpoint: optional("S3_ENDPOINT"),
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
    }

    #[test]
    fn names_the_missing_variable() {
        let err = Config::from_lookup(lookup(&[("ENTRIES_TABLE", "e")])).unwrap_err();
        assert_eq!(err, MissingVariable("KEYS_TABLE"));
    }
}
