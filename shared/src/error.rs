//! The one error type every endpoint returns, mapped to the status codes and
//! messages of decisions.md. Messages are for the caller; internal detail goes to
//! the log only.

use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// 400: a parameter is missing, malformed or out of range.
    #[error("{0}")]
    BadRequest(String),
    /// 401: no usable `Authorization: Bearer` header.
    #[error("Missing API key")]
    MissingKey,
    /// 401: a well-formed header whose key is unknown (or malformed).
    #[error("Invalid API key")]
    InvalidKey,
    /// 403: the key exists but was disabled.
    #[error("API key disabled")]
    KeyDisabled,
    /// 404: an entry or word that does not exist; `suggestions` may help.
    #[error("Entry not found")]
    EntryNotFound { suggestions: Vec<String> },
    /// 404: a `source` that names no dictionary.
    #[error("Unknown dictionary: {0}")]
    UnknownDictionary(String),
    /// 404: the entry exists but has no pronunciation audio.
    #[error("No audio found")]
    NoAudio,
    /// 404: no endpoint at this path.
    #[error("Not found")]
    UnknownPath,
    /// 405: a known path with the wrong method.
    #[error("Method not allowed")]
    MethodNotAllowed { allow: &'static str },
    /// 413: a request body over the limit.
    #[error("Request body too large")]
    PayloadTooLarge,
    /// 429: the key's quota for the period is used up.
    #[error("Quota exceeded")]
    QuotaExceeded { retry_after_secs: u64 },
    /// 503: storage throttled or unreachable after the SDK's retries.
    #[error("Service temporarily unavailable")]
    Unavailable,
    /// 500: a bug. The detail is logged with the request id, never returned.
    #[error("Internal error")]
    Internal(String),
}

/// Seconds a client should wait after a 503.
pub const UNAVAILABLE_RETRY_AFTER_SECS: u64 = 5;

impl ApiError {
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::BadRequest(message.into())
    }

    pub fn status(&self) -> u16 {
        match self {
            Self::BadRequest(_) => 400,
            Self::MissingKey | Self::InvalidKey => 401,
            Self::KeyDisabled => 403,
            Self::EntryNotFound { .. }
            | Self::UnknownDictionary(_)
            | Self::NoAudio
            | Self::UnknownPath => 404,
            Self::MethodNotAllowed { .. } => 405,
            Self::PayloadTooLarge => 413,
            Self::QuotaExceeded { .. } => 429,
            Self::Internal(_) => 500,
            Self::Unavailable => 503,
        }
    }

    /// The `Retry-After` value in seconds, for the statuses that carry one.
    pub fn retry_after_secs(&self) -> Option<u64> {
        match self {
            Self::QuotaExceeded { retry_after_secs } => Some(*retry_after_secs),
            Self::Unavailable => Some(UNAVAILABLE_RETRY_AFTER_SECS),
            _ => None,
        }
    }

    /// The message shown to the caller. `Display` gives the same text; this name
    /// makes call sites say what they mean.
    pub fn public_message(&self) -> String {
        self.to_string()
    }
}

/// Storage errors: throttling, timeouts and unreachable endpoints become 503
/// (the SDK has already retried them); anything else is a bug on our side.
impl<E, R> From<SdkError<E, R>> for ApiError
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
    R: std::fmt::Debug,
{
    fn from(err: SdkError<E, R>) -> Self {
        match &err {
            SdkError::TimeoutError(_) | SdkError::DispatchFailure(_) => Self::Unavailable,
            SdkError::ServiceError(service) => {
                let code = service.err().code().unwrap_or_default();
                if is_throttling_code(code) {
                    Self::Unavailable
                } else {
                    Self::Internal(format!("storage error {code}: {}", service.err()))
                }
            }
            other => Self::Internal(format!("storage error: {other:?}")),
        }
    }
}

fn is_throttling_code(code: &str) -> bool {
    matches!(
        code,
        "ProvisionedThroughputExceededException"
            | "ThrottlingException"
            | "RequestLimitExceeded"
            | "InternalServerError"
            | "ServiceUnavailable"
            | "SlowDown"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_follow_the_decisions_table() {
        assert_eq!(ApiError::bad_request("x").status(), 400);
        assert_eq!(ApiError::MissingKey.status(), 401);
        assert_eq!(ApiError::InvalidKey.status(), 401);
        assert_eq!(ApiError::KeyDisabled.status(), 403);
        assert_eq!(ApiError::NoAudio.status(), 404);
        assert_eq!(ApiError::UnknownDictionary("xx".into()).status(), 404);
        assert_eq!(ApiError::MethodNotAllowed { allow: "GET" }.status(), 405);
        assert_eq!(ApiError::PayloadTooLarge.status(), 413);
        assert_eq!(
            ApiError::QuotaExceeded {
                retry_after_secs: 9
            }
            .status(),
            429
        );
        assert_eq!(ApiError::Internal("boom".into()).status(), 500);
        assert_eq!(ApiError::Unavailable.status(), 503);
    }

    #[test]
    fn internal_detail_is_never_public() {
        let err = ApiError::Internal("table dictionary-entries: ValidationException".into());
        assert_eq!(err.public_message(), "Internal error");
    }

    #[test]
    fn messages_match_the_contract() {
        assert_eq!(
            ApiError::EntryNotFound {
                suggestions: vec![]
            }
            .public_message(),
            "Entry not found"
        );
        assert_eq!(
            ApiError::UnknownDictionary("xx".into()).public_message(),
            "Unknown dictionary: xx"
        );
        assert_eq!(ApiError::NoAudio.public_message(), "No audio found");
        assert_eq!(
            ApiError::QuotaExceeded {
                retry_after_secs: 1
            }
            .public_message(),
            "Quota exceeded"
        );
    }
}
