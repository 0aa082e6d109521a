//! Presigned S3 GET URLs for audio objects, when no CDN is configured: SigV4
//! in the query string, signed as the S3 SDK's presigning signs a GetObject
//! (single percent-encoding, no path normalisation, unsigned payload). Signing
//! needs only the credentials and `aws-sigv4`, so the functions that answer
//! with audio URLs do not link S3's whole client.

use crate::error::ApiError;
use aws_credential_types::provider::{ProvideCredentials, SharedCredentialsProvider};
use aws_sigv4::http_request::{
    sign, PercentEncodingMode, SignableBody, SignableRequest, SignatureLocation, SigningSettings,
    UriPathNormalizationMode,
};
use aws_sigv4::sign::v4;
use aws_smithy_runtime_api::client::identity::Identity;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use std::time::{Duration, SystemTime};

/// What S3 leaves unencoded in an object key's path: RFC 3986's unreserved
/// characters and the path separator.
const KEY_PATH: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'/');

/// Signs GET URLs of one bucket's objects.
#[derive(Debug, Clone)]
pub struct AudioSigner {
    /// As the SDK's configuration found them (`None`: signing fails).
    credentials: Option<SharedCredentialsProvider>,
    region: Option<String>,
    bucket: String,
    /// An emulator's endpoint (moto), addressed by path; `None`: S3 itself,
    /// addressed by virtual host.
    endpoint: Option<String>,
}

impl AudioSigner {
    pub fn new(
        credentials: Option<SharedCredentialsProvider>,
        region: Option<String>,
        bucket: String,
        endpoint: Option<String>,
    ) -> Self {
        Self {
            credentials,
            region,
            bucket,
            endpoint,
        }
    }

    /// The object's URL without a signature.
    pub fn object_url(&self, key: &str, region: &str) -> String {
        let key = utf8_percent_encode(key, KEY_PATH);
        match &self.endpoint {
            Some(endpoint) => format!("{}/{}/{key}", endpoint.trim_end_matches('/'), self.bucket),
            None => format!("https://{}.s3.{region}.amazonaws.com/{key}", self.bucket),
        }
    }

    /// A GET URL of `key` valid for `expires_in` from `now`.
    pub async fn presigned_get(
        &self,
        key: &str,
        expires_in: Duration,
        now: SystemTime,
    ) -> Result<String, ApiError> {
        let missing = |what: &str| ApiError::Internal(format!("no {what} to presign with"));
        let region = self.region.as_deref().ok_or_else(|| missing("region"))?;
        let credentials = self
            .credentials
            .as_ref()
            .ok_or_else(|| missing("credentials"))?
            .provide_credentials()
            .await
            .map_err(|e| ApiError::Internal(format!("credentials for presigning: {e}")))?;
        let identity = Identity::from(credentials);
        let mut settings = SigningSettings::default();
        settings.signature_location = SignatureLocation::QueryParams;
        settings.expires_in = Some(expires_in);
        settings.percent_encoding_mode = PercentEncodingMode::Single;
        settings.uri_path_normalization_mode = UriPathNormalizationMode::Disabled;
        let params = v4::SigningParams::builder()
            .identity(&identity)
            .region(region)
            .name("s3")
            .time(now)
            .settings(settings)
            .build()
            .map_err(|e| ApiError::Internal(format!("presigning parameters: {e}")))?
            .into();
        // The operation, as the SDK names it in every GetObject URL.
        let url = format!("{}?x-id=GetObject", self.object_url(key, region));
        let signable = SignableRequest::new(
            "GET",
            &url,
            std::iter::empty(),
            SignableBody::UnsignedPayload,
        )
        .map_err(|e| ApiError::Internal(format!("presigning {url}: {e}")))?;
        let (instructions, _signature) = sign(signable, &params)
            .map_err(|e| ApiError::Internal(format!("presigning {url}: {e}")))?
            .into_parts();
        let mut request = lambda_http::http::Request::get(&url)
            .body(())
            .map_err(|e| ApiError::Internal(format!("presigning {url}: {e}")))?;
        instructions.apply_to_request_http1x(&mut request);
        Ok(request.uri().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_credential_types::Credentials;

    fn signer(endpoint: Option<&str>) -> AudioSigner {
        let credentials = Credentials::new("AKIDEXAMPLE", "secret", None, None, "test");
        AudioSigner::new(
            Some(SharedCredentialsProvider::new(credentials)),
            Some("eu-west-1".into()),
            "audio-bucket".into(),
            endpoint.map(str::to_string),
        )
    }

    #[test]
    fn s3_is_addressed_by_virtual_host_and_emulators_by_path() {
        let key = "audio/freedict-eng-fra/9f19d31d09ca93a0.mp3";
        assert_eq!(
            signer(None).object_url(key, "eu-west-1"),
            "https://audio-bucket.s3.eu-west-1.amazonaws.com/audio/freedict-eng-fra/9f19d31d09ca93a0.mp3"
        );
        assert_eq!(
            signer(Some("http://127.0.0.1:8721/")).object_url("a b+c/é.mp3", "eu-west-1"),
            "http://127.0.0.1:8721/audio-bucket/a%20b%2Bc/%C3%A9.mp3"
        );
    }

    /// The S3 SDK's own presigning is the reference: the same credentials,
    /// region, key, instant and lifetime give the same URL, byte for byte.
    #[tokio::test]
    async fn urls_are_those_of_the_s3_sdk() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        for (endpoint, key) in [
            (None, "audio/freedict-eng-fra/9f19d31d09ca93a0.mp3"),
            (Some("http://127.0.0.1:8721"), "audio/d/0a1b.spx"),
            (None, "a b+c/é~_.mp3"),
        ] {
            let credentials =
                Credentials::new("AKIDEXAMPLE", "secret", Some("token".into()), None, "test");
            let mut config = aws_sdk_s3::Config::builder()
                .behavior_version(aws_sdk_s3::config::BehaviorVersion::latest())
                .region(aws_sdk_s3::config::Region::new("eu-west-1"))
                .credentials_provider(credentials.clone());
            if let Some(endpoint) = endpoint {
                config = config.endpoint_url(endpoint).force_path_style(true);
            }
            let client = aws_sdk_s3::Client::from_conf(config.build());
            let presigning = aws_sdk_s3::presigning::PresigningConfig::builder()
                .start_time(now)
                .expires_in(Duration::from_secs(3600))
                .build()
                .unwrap();
            let reference = client
                .get_object()
                .bucket("audio-bucket")
                .key(key)
                .presigned(presigning)
                .await
                .unwrap();
            let ours = AudioSigner::new(
                Some(SharedCredentialsProvider::new(credentials)),
                Some("eu-west-1".into()),
                "audio-bucket".into(),
                endpoint.map(str::to_string),
            )
            .presigned_get(key, Duration::from_secs(3600), now)
            .await
            .unwrap();
            assert_eq!(ours, reference.uri(), "{key}");
        }
    }

    #[tokio::test]
    async fn the_url_carries_a_query_signature_that_expires() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let url = signer(None)
            .presigned_get("audio/d/1.mp3", Duration::from_secs(3600), now)
            .await
            .unwrap();
        assert!(url.starts_with("https://audio-bucket.s3.eu-west-1.amazonaws.com/audio/d/1.mp3?"));
        for part in [
            "X-Amz-Algorithm=AWS4-HMAC-SHA256",
            "X-Amz-Credential=AKIDEXAMPLE%2F20231114%2Feu-west-1%2Fs3%2Faws4_request",
            "X-Amz-Date=20231114T221320Z",
            "X-Amz-Expires=3600",
            "X-Amz-SignedHeaders=host",
            "X-Amz-Signature=",
        ] {
            assert!(url.contains(part), "{part} in {url}");
        }
    }
}
