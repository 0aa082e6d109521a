//! What a function builds once per cold start and borrows into every request:
//! configuration, AWS clients, caches.

use crate::auth::KeyStore;
use crate::config::Config;
use crate::quota::QuotaCounter;
use crate::store::Store;
use aws_config::BehaviorVersion;
use std::time::Duration;
use time::OffsetDateTime;

/// The clock, injectable so that quota periods can be tested.
pub type Clock = fn() -> OffsetDateTime;

pub fn system_clock() -> OffsetDateTime {
    OffsetDateTime::now_utc()
}

pub struct App {
    pub config: Config,
    pub store: Store,
    pub keys: KeyStore,
    pub quota: QuotaCounter,
    pub s3: aws_sdk_s3::Client,
    pub clock: Clock,
}

/// The AWS clients, configured for the real services or, when endpoint
/// overrides are set, for DynamoDB Local and moto's S3.
pub struct Clients {
    pub dynamodb: aws_sdk_dynamodb::Client,
    pub s3: aws_sdk_s3::Client,
}

impl Clients {
    /// Clients for serving requests: Lambda's own timeout is 10 s, so a call
    /// fails fast enough to answer 503 within it.
    pub async fn new(config: &Config) -> Self {
        let timeouts = aws_config::timeout::TimeoutConfig::builder()
            .connect_timeout(Duration::from_secs(2))
            .operation_attempt_timeout(Duration::from_secs(3))
            .operation_timeout(Duration::from_secs(8))
            .build();
        Self::with_timeouts(config, timeouts).await
    }

    /// Clients for batch jobs (imports, index builds): a BatchWriteItem of 25
    /// index chunks carries up to 9 MB, which DynamoDB Local takes seconds to
    /// store, so attempts may take a minute.
    pub async fn for_batch_jobs(config: &Config) -> Self {
        let timeouts = aws_config::timeout::TimeoutConfig::builder()
            .connect_timeout(Duration::from_secs(5))
            .operation_attempt_timeout(Duration::from_secs(60))
            .operation_timeout(Duration::from_secs(300))
            .build();
        Self::with_timeouts(config, timeouts).await
    }

    async fn with_timeouts(config: &Config, timeouts: aws_config::timeout::TimeoutConfig) -> Self {
        let shared = aws_config::defaults(BehaviorVersion::latest())
            .timeout_config(timeouts)
            .load()
            .await;
        let mut dynamodb = aws_sdk_dynamodb::config::Builder::from(&shared);
        if let Some(endpoint) = &config.dynamodb_endpoint {
            dynamodb = dynamodb.endpoint_url(endpoint);
        }
        let mut s3 = aws_sdk_s3::config::Builder::from(&shared);
        if let Some(endpoint) = &config.s3_endpoint {
            // Emulators serve buckets by path, not by virtual host.
            s3 = s3.endpoint_url(endpoint).force_path_style(true);
        }
        Self {
            dynamodb: aws_sdk_dynamodb::Client::from_conf(dynamodb.build()),
            s3: aws_sdk_s3::Client::from_conf(s3.build()),
        }
    }
}

impl App {
    /// Everything a function needs, from the environment. Called once in `main`.
    pub async fn from_env() -> Result<Self, crate::config::MissingVariable> {
        let config = Config::from_env()?;
        let clients = Clients::new(&config).await;
        Ok(Self::new(config, clients, system_clock))
    }

    pub fn new(config: Config, clients: Clients, clock: Clock) -> Self {
        Self {
            store: Store::new(clients.dynamodb.clone(), config.entries_table.clone()),
            keys: KeyStore::new(clients.dynamodb.clone(), config.keys_table.clone()),
            quota: QuotaCounter::new(clients.dynamodb, config.keys_table.clone()),
            s3: clients.s3,
            config,
            clock,
        }
    }
}
