//! What a function builds once per cold start and borrows into every request:
//! configuration, AWS clients, caches.

use crate::access::auth::KeyStore;
use crate::access::quota::QuotaCounter;
use crate::runtime::config::{Config, ConfigError};
use crate::storage::presign::AudioSigner;
use crate::storage::store::Store;
use aws_config::BehaviorVersion;
use aws_smithy_http_client::tls;
use futures::future::BoxFuture;
use std::time::Duration;
use time::OffsetDateTime;

/// The clock, injectable so that quota periods can be tested.
pub(crate) type Clock = fn() -> OffsetDateTime;

pub fn system_clock() -> OffsetDateTime {
    OffsetDateTime::now_utc()
}

pub struct App {
    pub config: Config,
    pub store: Store,
    pub keys: KeyStore,
    pub quota: QuotaCounter,
    /// Only for the functions that sign audio URLs ([`TABLES_AND_AUDIO`]).
    pub audio: Option<AudioSigner>,
    pub clock: Clock,
}

/// How a function builds its App at cold start. Its endpoint names one of
/// [`TABLES`] and [`TABLES_AND_AUDIO`], so a function that signs no audio URL
/// never builds, and never links, the signer.
pub(crate) type AppStart = fn() -> BoxFuture<'static, Result<App, ConfigError>>;

/// DynamoDB only.
pub(crate) const TABLES: AppStart = || Box::pin(App::from_env_without_audio());
/// DynamoDB and the signer of audio URLs.
pub(crate) const TABLES_AND_AUDIO: AppStart = || Box::pin(App::from_env());

/// The AWS clients, configured for the real services or, when endpoint
/// overrides are set, for DynamoDB Local and moto's S3.
pub struct Clients {
    pub dynamodb: aws_sdk_dynamodb::Client,
    /// For the admin tool's uploads and the tests; the functions only sign.
    pub s3: aws_sdk_s3::Client,
    pub audio: AudioSigner,
}

impl Clients {
    /// Clients for serving requests ([`request_timeouts`]).
    pub async fn new(config: &Config) -> Self {
        Self::with_timeouts(config, request_timeouts()).await
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
        let shared = shared_config(timeouts, config).await;
        Self {
            dynamodb: dynamodb_client(&shared, config),
            s3: s3_client(&shared, config),
            audio: audio_signer(&shared, config),
        }
    }
}

/// Timeouts for serving requests: Lambda's own timeout is 10 s, so a call
/// fails fast enough to answer 503 within it.
fn request_timeouts() -> aws_config::timeout::TimeoutConfig {
    aws_config::timeout::TimeoutConfig::builder()
        .connect_timeout(Duration::from_secs(2))
        .operation_attempt_timeout(Duration::from_secs(3))
        .operation_timeout(Duration::from_secs(8))
        .build()
}

async fn shared_config(
    timeouts: aws_config::timeout::TimeoutConfig,
    config: &Config,
) -> aws_config::SdkConfig {
    aws_config::defaults(BehaviorVersion::latest())
        .http_client(https_client(Roots::for_endpoints(config)))
        .timeout_config(timeouts)
        .load()
        .await
}

/// The root certificates a function trusts, compiled into the binary
/// (webpki-root-certs, Mozilla's list), not read from the system: the
/// platform roots are every file of the certificate directory read at cold
/// start (2.2-3.5x the hello world's init, docs/benchmarks.md), and the one
/// bundle that would avoid it has a path on provided.al2023 that nothing here
/// can check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Roots {
    /// The CAs AWS names for its service endpoints: Amazon Trust Services'
    /// four roots and the Starfield root that cross-signs them
    /// (docs/deployment.md, "Certificates"). Parsing 5 roots instead of all
    /// of Mozilla's is most of what keeps cold init within 2x the hello world.
    AmazonTrustServices,
    /// All of Mozilla's roots: for an HTTPS endpoint override
    /// (DYNAMODB_ENDPOINT, S3_ENDPOINT), whose certificate may come from any
    /// public CA.
    Mozilla,
}

/// Subjects' common names of [`Roots::AmazonTrustServices`], as written in
/// the certificates.
const AMAZON_TRUST_SERVICES_ROOTS: [&str; 5] = [
    "Amazon Root CA 1",
    "Amazon Root CA 2",
    "Amazon Root CA 3",
    "Amazon Root CA 4",
    "Starfield Services Root Certificate Authority - G2",
];

impl Roots {
    /// An override over plain HTTP (an emulator on loopback) needs no root,
    /// so it keeps the roots of AWS's own endpoints.
    fn for_endpoints(config: &Config) -> Self {
        let https = |endpoint: &Option<String>| {
            endpoint.as_deref().is_some_and(|url| {
                url.get(..8)
                    .is_some_and(|s| s.eq_ignore_ascii_case("https://"))
            })
        };
        if https(&config.dynamodb_endpoint) || https(&config.s3_endpoint) {
            Roots::Mozilla
        } else {
            Roots::AmazonTrustServices
        }
    }

    /// The DER certificates trusted. A root is picked by its name's bytes:
    /// a root is self-signed, so only Amazon's own roots carry these names.
    fn certificates(self) -> impl Iterator<Item = &'static [u8]> {
        webpki_root_certs::TLS_SERVER_ROOT_CERTS
            .iter()
            .map(|der| der.as_ref())
            .filter(move |der| {
                self == Roots::Mozilla
                    || AMAZON_TRUST_SERVICES_ROOTS
                        .iter()
                        .any(|name| memchr::memmem::find(der, name.as_bytes()).is_some())
            })
    }

    /// The SDK takes roots as PEM, so each DER certificate is encoded.
    fn tls_context(self) -> tls::TlsContext {
        use base64::Engine;
        let mut pem = String::new();
        for der in self.certificates() {
            pem.push_str("-----BEGIN CERTIFICATE-----\n");
            pem.push_str(&base64::engine::general_purpose::STANDARD.encode(der));
            pem.push_str("\n-----END CERTIFICATE-----\n");
        }
        let roots = tls::TrustStore::empty()
            .with_native_roots(false)
            .with_pem_certificate(pem);
        tls::TlsContext::builder()
            .with_trust_store(roots)
            .build()
            .expect("a TLS context of certificates alone builds")
    }
}

/// The one HTTPS client of every AWS client: rustls with ring, trusting
/// `roots` only.
fn https_client(roots: Roots) -> aws_smithy_runtime_api::client::http::SharedHttpClient {
    aws_smithy_http_client::Builder::new()
        .tls_provider(tls::Provider::Rustls(
            tls::rustls_provider::CryptoMode::Ring,
        ))
        .tls_context(roots.tls_context())
        .build_https()
}

fn dynamodb_client(shared: &aws_config::SdkConfig, config: &Config) -> aws_sdk_dynamodb::Client {
    let mut dynamodb = aws_sdk_dynamodb::config::Builder::from(shared);
    if let Some(endpoint) = &config.dynamodb_endpoint {
        dynamodb = dynamodb.endpoint_url(endpoint);
    }
    aws_sdk_dynamodb::Client::from_conf(dynamodb.build())
}

fn audio_signer(shared: &aws_config::SdkConfig, config: &Config) -> AudioSigner {
    AudioSigner::new(
        shared.credentials_provider(),
        shared.region().map(ToString::to_string),
        config.audio_bucket.clone(),
        config.s3_endpoint.clone(),
    )
}

fn s3_client(shared: &aws_config::SdkConfig, config: &Config) -> aws_sdk_s3::Client {
    let mut s3 = aws_sdk_s3::config::Builder::from(shared);
    if let Some(endpoint) = &config.s3_endpoint {
        // Emulators serve buckets by path, not by virtual host.
        s3 = s3.endpoint_url(endpoint).force_path_style(true);
    }
    aws_sdk_s3::Client::from_conf(s3.build())
}

impl App {
    /// Everything a function needs, from the environment, for the tools and
    /// the functions that sign audio URLs.
    pub async fn from_env() -> Result<Self, ConfigError> {
        let config = Config::from_env()?;
        let shared = shared_config(request_timeouts(), &config).await;
        let dynamodb = dynamodb_client(&shared, &config);
        let audio = audio_signer(&shared, &config);
        Ok(Self::with_clients(
            config,
            dynamodb,
            Some(audio),
            system_clock,
        ))
    }

    /// As [`App::from_env`], without the signer of audio URLs (a function of
    /// its own, so that the functions starting with it do not link the signer).
    pub(crate) async fn from_env_without_audio() -> Result<Self, ConfigError> {
        let config = Config::from_env()?;
        let dynamodb = dynamodb_client(&shared_config(request_timeouts(), &config).await, &config);
        Ok(Self::with_clients(config, dynamodb, None, system_clock))
    }

    pub fn new(config: Config, clients: Clients, clock: Clock) -> Self {
        Self::with_clients(config, clients.dynamodb, Some(clients.audio), clock)
    }

    fn with_clients(
        config: Config,
        dynamodb: aws_sdk_dynamodb::Client,
        audio: Option<AudioSigner>,
        clock: Clock,
    ) -> Self {
        Self {
            store: Store::with_cache(
                dynamodb.clone(),
                config.entries_table.clone(),
                config.snapshot_cache_bytes,
            ),
            keys: KeyStore::new(dynamodb.clone(), config.keys_table.clone()),
            quota: QuotaCounter::new(dynamodb, config.keys_table.clone()),
            audio,
            config,
            clock,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::error::SdkError;

    /// AWS's five roots are found by name in Mozilla's list, each once:
    /// a renamed or dropped root fails here, not in a deployed function.
    #[test]
    fn amazon_trust_services_roots_are_all_found_once() {
        let picked: Vec<&[u8]> = Roots::AmazonTrustServices.certificates().collect();
        assert_eq!(picked.len(), AMAZON_TRUST_SERVICES_ROOTS.len());
        for name in AMAZON_TRUST_SERVICES_ROOTS {
            let carrying = picked
                .iter()
                .filter(|der| memchr::memmem::find(der, name.as_bytes()).is_some())
                .count();
            assert_eq!(carrying, 1, "{name}");
        }
        assert!(Roots::Mozilla.certificates().count() > 100);
    }

    #[test]
    fn an_https_endpoint_override_trusts_every_public_root() {
        let mut config = Config::from_lookup(|name| {
            ["ENTRIES_TABLE", "KEYS_TABLE", "AUDIO_BUCKET"]
                .contains(&name)
                .then(|| name.to_lowercase())
        })
        .unwrap();
        assert_eq!(Roots::for_endpoints(&config), Roots::AmazonTrustServices);
        config.dynamodb_endpoint = Some("http://127.0.0.1:8720".into());
        assert_eq!(Roots::for_endpoints(&config), Roots::AmazonTrustServices);
        config.s3_endpoint = Some("HTTPS://s3.example.net".into());
        assert_eq!(Roots::for_endpoints(&config), Roots::Mozilla);
    }

    /// The compiled-in roots are parsed when the first connection is made
    /// (the SDK panics on a certificate it cannot parse): a request to a
    /// closed loopback port gets that far and fails only to connect.
    #[tokio::test]
    async fn the_compiled_in_roots_make_a_working_https_client() {
        for roots in [Roots::AmazonTrustServices, Roots::Mozilla] {
            the_https_client_gets_as_far_as_connecting(roots).await;
        }
    }

    async fn the_https_client_gets_as_far_as_connecting(roots: Roots) {
        let config = aws_sdk_dynamodb::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .http_client(https_client(roots))
            .region(aws_sdk_dynamodb::config::Region::new("us-east-1"))
            .credentials_provider(aws_credential_types::Credentials::new(
                "AKIDLOCAL",
                "local",
                None,
                None,
                "test",
            ))
            .endpoint_url("https://127.0.0.1:9")
            .retry_config(aws_sdk_dynamodb::config::retry::RetryConfig::disabled())
            .build();
        let client = aws_sdk_dynamodb::Client::from_conf(config);
        let error = client.list_tables().send().await.unwrap_err();
        assert!(
            matches!(&error, SdkError::DispatchFailure(failure) if failure.is_io()),
            "{error:?}"
        );
    }
}
