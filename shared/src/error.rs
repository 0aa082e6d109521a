//! The one error type every endpoint returns, mapped to the status codes and
//! messages of decisions.md. Messages are for the caller; internal detail goes to
//! the log only.

use aws_sdk_dynamodb::error::{DisplayErrorContext, ProvideErrorMetadata, SdkError};

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
    /// 401: a header meant to carry a key that is not `Bearer <key>` (a tab
    /// for the space, no space, a bare key).
    #[error("Malformed Authorization header: send \"Bearer <key>\"")]
    MalformedAuthorization,
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
    /// 404: a rhyme lookup of a word that no dictionary (of the language
    /// asked for) has with a pronunciation.
    #[error("No pronunciation found for this word")]
    NoPronunciation,
    /// 404: no endpoint at this path.
    #[error("Not found")]
    UnknownPath,
    /// 405: a known path with the wrong method.
    #[error("Method not allowed")]
    MethodNotAllowed { allow: &'static str },
    /// 413: a request body over the limit.
    #[error("Request body too large")]
    PayloadTooLarge,
    /// 429: fewer units remain in the key's quota for the period than the
    /// request costs (`remaining`, for the RateLimit headers).
    #[error("Quota exceeded")]
    QuotaExceeded {
        retry_after_secs: u64,
        remaining: u64,
    },
    /// 503: storage throttled, unreachable or failing after the SDK's
    /// retries, or the request's deadline passed.
    #[error("Service temporarily unavailable")]
    Unavailable,
    /// 503: the index snapshot was built by another release (another format
    /// or other sections); it is unusable until `dictadmin index` runs.
    #[error(
        "The search index was built by another release: rebuild the index with `dictadmin index`"
    )]
    IndexOfAnotherRelease,
    /// 500: a bug. The detail is logged with the request id, never returned.
    #[error("Internal error")]
    Internal(String),
}

/// Caller input as an error message may quote it: at most `max_chars`
/// characters (then `…`), with the characters that act in HTML or on a
/// terminal (`<`, `>`, `&`, backquotes, control characters but the line
/// break) shown as U+FFFD, so that a message pasted into a page or printed
/// in a log cannot act.
pub(crate) fn shown(value: &str, max_chars: usize) -> String {
    let mut shown: String = value
        .chars()
        .take(max_chars)
        .map(|c| {
            let acts = (c.is_control() && c != '\n') || matches!(c, '<' | '>' | '&' | '`');
            if acts {
                char::REPLACEMENT_CHARACTER
            } else {
                c
            }
        })
        .collect();
    if value.chars().nth(max_chars).is_some() {
        shown.push('…');
    }
    shown
}

/// Seconds a client should wait after a 503.
pub(crate) const UNAVAILABLE_RETRY_AFTER_SECS: u64 = 5;

impl ApiError {
    pub(crate) fn bad_request(message: impl Into<String>) -> Self {
        Self::BadRequest(message.into())
    }

    pub fn status(&self) -> u16 {
        match self {
            Self::BadRequest(_) => 400,
            Self::MissingKey | Self::InvalidKey | Self::MalformedAuthorization => 401,
            Self::KeyDisabled => 403,
            Self::EntryNotFound { .. }
            | Self::UnknownDictionary(_)
            | Self::NoAudio
            | Self::NoPronunciation
            | Self::UnknownPath => 404,
            Self::MethodNotAllowed { .. } => 405,
            Self::PayloadTooLarge => 413,
            Self::QuotaExceeded { .. } => 429,
            Self::Internal(_) => 500,
            Self::Unavailable | Self::IndexOfAnotherRelease => 503,
        }
    }

    /// The `Retry-After` value in seconds, for the statuses that carry one.
    pub fn retry_after_secs(&self) -> Option<u64> {
        match self {
            Self::QuotaExceeded {
                retry_after_secs, ..
            } => Some(*retry_after_secs),
            Self::Unavailable | Self::IndexOfAnotherRelease => Some(UNAVAILABLE_RETRY_AFTER_SECS),
            _ => None,
        }
    }

    /// The message shown to the caller. `Display` gives the same text; this name
    /// makes call sites say what they mean.
    pub(crate) fn public_message(&self) -> String {
        self.to_string()
    }
}

/// A parameter the search engine could not read is the caller's to fix.
impl From<crate::search::InvalidParameter> for ApiError {
    fn from(err: crate::search::InvalidParameter) -> Self {
        Self::BadRequest(err.0)
    }
}

/// A stored snapshot item that does not decode is ours to fix: 500, its
/// message for the log.
impl From<crate::search::codec::CorruptData> for ApiError {
    fn from(err: crate::search::codec::CorruptData) -> Self {
        Self::Internal(err.to_string())
    }
}

/// Storage errors. Whatever went wrong on the way to DynamoDB or S3, or
/// inside them (throttling, timeouts, unreachable endpoints, a response cut
/// off mid-read, a service error we do not know), is a fault that may pass:
/// 503 with `Retry-After`, after the SDK's own retries. Only a request we
/// built wrongly (it could not be constructed, or the service rejected its
/// shape) is a bug on our side: 500. The SDK's text goes to the log only.
impl<E, R> From<SdkError<E, R>> for ApiError
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
    R: std::fmt::Debug,
{
    fn from(err: SdkError<E, R>) -> Self {
        let detail = DisplayErrorContext(&err).to_string();
        let is_bug = match &err {
            SdkError::ConstructionFailure(_) => true,
            SdkError::ServiceError(service) => {
                is_request_shape_code(service.err().code().unwrap_or_default())
            }
            _ => false,
        };
        if is_bug {
            Self::Internal(format!("storage request rejected: {detail}"))
        } else {
            tracing::warn!(detail, "storage fault");
            Self::Unavailable
        }
    }
}

/// Service error codes that say our request itself was wrong: retrying the
/// same request cannot help.
fn is_request_shape_code(code: &str) -> bool {
    matches!(
        code,
        "ValidationException" | "SerializationException" | "InvalidArgument" | "InvalidRequest"
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
                retry_after_secs: 9,
                remaining: 0,
            }
            .status(),
            429
        );
        assert_eq!(ApiError::Internal("boom".into()).status(), 500);
        assert_eq!(ApiError::Unavailable.status(), 503);
        assert_eq!(ApiError::IndexOfAnotherRelease.status(), 503);
    }

    #[test]
    fn an_index_of_another_release_says_to_rebuild_it() {
        let err = ApiError::IndexOfAnotherRelease;
        assert!(err.public_message().contains("rebuild the index"));
        assert_eq!(err.retry_after_secs(), Some(UNAVAILABLE_RETRY_AFTER_SECS));
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
                retry_after_secs: 1,
                remaining: 0,
            }
            .public_message(),
            "Quota exceeded"
        );
    }

    mod storage_faults {
        use super::super::*;
        use aws_sdk_dynamodb::error::ErrorMetadata;
        use aws_sdk_dynamodb::operation::get_item::GetItemError;
        use aws_sdk_dynamodb::types::error::{
            InternalServerError, ProvisionedThroughputExceededException, RequestLimitExceeded,
            ResourceNotFoundException,
        };
        use aws_smithy_runtime_api::client::result::ConnectorError;
        use aws_smithy_runtime_api::http::{Response, StatusCode};
        use aws_smithy_types::body::SdkBody;

        type GetItemFailure = SdkError<GetItemError, Response>;

        fn raw(status: u16) -> Response {
            Response::new(StatusCode::try_from(status).unwrap(), SdkBody::empty())
        }

        fn service(err: GetItemError) -> ApiError {
            GetItemFailure::service_error(err, raw(400)).into()
        }

        fn coded(code: &str) -> ApiError {
            service(GetItemError::generic(
                ErrorMetadata::builder().code(code).message("m").build(),
            ))
        }

        #[test]
        fn transport_failures_are_unavailable() {
            let io = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
            let cases: Vec<(&str, GetItemFailure)> = vec![
                ("timeout", SdkError::timeout_error("attempt timed out")),
                (
                    "connection refused",
                    SdkError::dispatch_failure(ConnectorError::io(io.into())),
                ),
                (
                    "connect timeout",
                    SdkError::dispatch_failure(ConnectorError::timeout("slow".into())),
                ),
                (
                    "response cut off mid-read",
                    SdkError::response_error("unexpected end of body", raw(200)),
                ),
            ];
            for (what, err) in cases {
                assert_eq!(ApiError::from(err), ApiError::Unavailable, "{what}");
            }
        }

        #[test]
        fn service_faults_are_unavailable() {
            let typed = [
                service(GetItemError::ProvisionedThroughputExceededException(
                    ProvisionedThroughputExceededException::builder()
                        .message("slow down")
                        .build(),
                )),
                service(GetItemError::RequestLimitExceeded(
                    RequestLimitExceeded::builder().build(),
                )),
                service(GetItemError::InternalServerError(
                    InternalServerError::builder().build(),
                )),
                service(GetItemError::ResourceNotFoundException(
                    ResourceNotFoundException::builder().build(),
                )),
            ];
            for err in typed {
                assert_eq!(err, ApiError::Unavailable);
            }
            for code in [
                "ThrottlingException",
                "ServiceUnavailable",
                "SlowDown",
                "AccessDeniedException",
                "SomethingAddedNextYear",
                "",
            ] {
                assert_eq!(coded(code), ApiError::Unavailable, "{code:?}");
            }
        }

        #[test]
        fn requests_we_built_wrongly_are_bugs() {
            for code in ["ValidationException", "SerializationException"] {
                assert!(matches!(coded(code), ApiError::Internal(_)), "{code}");
            }
            let err: ApiError = GetItemFailure::construction_failure("missing table name").into();
            match err {
                ApiError::Internal(detail) => assert!(detail.contains("missing table name")),
                other => panic!("{other:?}"),
            }
        }

        #[test]
        fn unavailable_tells_when_to_retry() {
            assert_eq!(ApiError::Unavailable.status(), 503);
            assert_eq!(
                ApiError::Unavailable.retry_after_secs(),
                Some(UNAVAILABLE_RETRY_AFTER_SECS)
            );
            assert_eq!(
                ApiError::Unavailable.public_message(),
                "Service temporarily unavailable"
            );
        }
    }
}
