//! How answers are shaped: the success envelope, the failure envelope (or
//! GraphQL's error document), CORS and the RateLimit headers. Every function
//! answers through these, the API pipeline ([`crate::api::pipeline`]) and the file
//! servers ([`crate::api::web`]) alike.

use crate::access::quota::QuotaState;
use crate::error::ApiError;
use lambda_http::http::{HeaderMap, HeaderValue, StatusCode};
use lambda_http::{Body, Response};
use serde_json::{json, Map, Value};

/// How an endpoint's errors are shaped: the REST envelope or GraphQL's `errors`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorStyle {
    Envelope,
    Graphql,
}

/// What a handler answers; the pipeline adds the envelope and headers.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// `{"ok": true, "data": ..., "meta": {...extra, "took_ms"}}`
    Json {
        data: Value,
        meta: Map<String, Value>,
        cache_seconds: Option<u32>,
    },
    /// 302 to `location` (audio).
    Redirect { location: String },
    /// A complete body with its own status (GraphQL answers), and the units
    /// its request was charged for work that did not run, which the
    /// pipeline gives back to the key's quota.
    Raw {
        status: u16,
        body: Value,
        unused_units: u64,
    },
}

impl Reply {
    pub fn json(data: impl serde::Serialize) -> Self {
        let data = serde_json::to_value(data).unwrap_or(Value::Null);
        Self::Json {
            data,
            meta: Map::new(),
            cache_seconds: None,
        }
    }

    /// Units charged for work that did not run, to be given back.
    pub(crate) fn unused_units(&self) -> u64 {
        match self {
            Self::Raw { unused_units, .. } => *unused_units,
            _ => 0,
        }
    }

    /// The same answer, giving back `units` charged for work that did not run.
    pub(crate) fn giving_back(mut self, units: u64) -> Self {
        if let Self::Raw { unused_units, .. } = &mut self {
            *unused_units = units;
        }
        self
    }

    pub(crate) fn with_meta(mut self, name: &str, value: impl Into<Value>) -> Self {
        if let Self::Json { meta, .. } = &mut self {
            meta.insert(name.to_string(), value.into());
        }
        self
    }

    /// Marks a response cacheable for `seconds`: by the caller's own cache
    /// only when it answers a key ([`reply_response`]).
    pub(crate) fn cacheable(mut self, seconds: u32) -> Self {
        if let Self::Json { cache_seconds, .. } = &mut self {
            *cache_seconds = Some(seconds);
        }
        self
    }
}

const JSON_CONTENT_TYPE: &str = "application/json; charset=utf-8";
const EXPOSED_HEADERS: &str =
    "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Location";

/// What every answer starts with: its status, CORS, and `nosniff`, so that
/// no browser reads a JSON answer (which may quote the caller's input) as
/// anything but its declared type.
pub(crate) fn base_response(status: u16) -> lambda_http::http::response::Builder {
    Response::builder()
        .status(StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header("access-control-allow-origin", "*")
        .header("access-control-expose-headers", EXPOSED_HEADERS)
        .header("x-content-type-options", "nosniff")
}

fn json_body(builder: lambda_http::http::response::Builder, body: &Value) -> Response<Body> {
    builder
        .header("content-type", JSON_CONTENT_TYPE)
        .body(Body::Text(body.to_string()))
        .expect("static headers are valid")
}

/// CORS preflight: answered without a key.
pub(crate) fn preflight() -> Response<Body> {
    base_response(204)
        .header("access-control-allow-methods", "GET, POST, OPTIONS")
        .header(
            "access-control-allow-headers",
            "Authorization, Content-Type, Accept",
        )
        .header("access-control-max-age", "600")
        .body(Body::Empty)
        .expect("static headers are valid")
}

/// Who may keep a cacheable answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Audience {
    /// An answer to a keyed request: only the caller's own cache, and
    /// never for another `Authorization` (a shared cache or CDN that kept it
    /// would serve it to callers without a key, uncounted).
    Keyed,
    /// An answer that needs no key: any cache.
    Public,
}

pub(crate) fn reply_response(reply: Reply, took_ms: u64, audience: Audience) -> Response<Body> {
    match reply {
        Reply::Json {
            data,
            mut meta,
            cache_seconds,
        } => {
            meta.insert("took_ms".into(), json!(took_ms));
            let mut builder = base_response(200);
            builder = match (cache_seconds, audience) {
                (Some(seconds), Audience::Keyed) => builder
                    .header("cache-control", format!("private, max-age={seconds}"))
                    .header("vary", "Authorization"),
                (Some(seconds), Audience::Public) => {
                    builder.header("cache-control", format!("public, max-age={seconds}"))
                }
                (None, _) => builder.header("cache-control", "no-store"),
            };
            json_body(builder, &json!({"ok": true, "data": data, "meta": meta}))
        }
        Reply::Redirect { location } => match HeaderValue::from_str(&location) {
            Ok(location) => base_response(302)
                .header("location", location)
                .header("cache-control", "no-store")
                .body(Body::Empty)
                .expect("validated header"),
            Err(_) => error_response(
                &ApiError::Internal("audio URL is not a valid header".into()),
                ErrorStyle::Envelope,
            ),
        },
        Reply::Raw { status, body, .. } => json_body(
            base_response(status).header("cache-control", "no-store"),
            &body,
        ),
    }
}

/// The failure envelope (or GraphQL error document) for `err`.
pub(crate) fn error_response(err: &ApiError, style: ErrorStyle) -> Response<Body> {
    let body = match style {
        ErrorStyle::Envelope => {
            let mut body = json!({"ok": false, "error": err.public_message()});
            if let ApiError::EntryNotFound { suggestions } = err {
                body["suggestions"] = json!(suggestions);
            }
            body
        }
        ErrorStyle::Graphql => json!({
            "data": null,
            "errors": [{"message": err.public_message(), "extensions": {"code": graphql_code(err)}}],
        }),
    };
    let mut builder = base_response(err.status()).header("cache-control", "no-store");
    if let Some(seconds) = err.retry_after_secs() {
        builder = builder.header("retry-after", seconds.to_string());
    }
    if let ApiError::MethodNotAllowed { allow } = err {
        builder = builder.header("allow", *allow);
    }
    json_body(builder, &body)
}

/// `extensions.code` of decisions.md for an error raised outside GraphQL
/// execution (authentication, quota, body size).
pub(crate) fn graphql_code(err: &ApiError) -> &'static str {
    match err {
        ApiError::BadRequest(_) | ApiError::PayloadTooLarge | ApiError::MethodNotAllowed { .. } => {
            "BAD_USER_INPUT"
        }
        ApiError::MissingKey
        | ApiError::InvalidKey
        | ApiError::MalformedAuthorization
        | ApiError::KeyDisabled => "UNAUTHENTICATED",
        ApiError::EntryNotFound { .. }
        | ApiError::UnknownDictionary(_)
        | ApiError::NoAudio
        | ApiError::NoPronunciation
        | ApiError::UnknownPath => "NOT_FOUND",
        ApiError::QuotaExceeded { .. } => "QUOTA_EXCEEDED",
        ApiError::Unavailable | ApiError::IndexOfAnotherRelease => "UNAVAILABLE",
        ApiError::Internal(_) => "INTERNAL",
    }
}

pub(crate) fn add_rate_limit_headers(headers: &mut HeaderMap, state: QuotaState) {
    for (name, value) in [
        ("ratelimit-limit", state.limit),
        ("ratelimit-remaining", state.remaining),
        ("ratelimit-reset", state.reset_secs),
    ] {
        headers.insert(name, HeaderValue::from(value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body_json(response: &Response<Body>) -> Value {
        match response.body() {
            Body::Text(text) => serde_json::from_str(text).unwrap(),
            other => panic!("unexpected body {other:?}"),
        }
    }

    #[test]
    fn success_envelope_has_meta_and_took_ms() {
        let response = reply_response(
            Reply::json(vec!["a"]).with_meta("limit", 10).cacheable(300),
            7,
            Audience::Public,
        );
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-type"], JSON_CONTENT_TYPE);
        assert_eq!(response.headers()["cache-control"], "public, max-age=300");
        assert_eq!(response.headers()["access-control-allow-origin"], "*");
        assert_eq!(
            body_json(&response),
            json!({"ok": true, "data": ["a"], "meta": {"limit": 10, "took_ms": 7}})
        );
    }

    #[test]
    fn failure_envelopes_carry_status_headers_and_extras() {
        let response = error_response(
            &ApiError::QuotaExceeded {
                retry_after_secs: 42,
                remaining: 0,
            },
            ErrorStyle::Envelope,
        );
        assert_eq!(response.status(), 429);
        assert_eq!(response.headers()["retry-after"], "42");
        assert_eq!(
            body_json(&response),
            json!({"ok": false, "error": "Quota exceeded"})
        );

        let response = error_response(
            &ApiError::EntryNotFound {
                suggestions: vec!["bank".into()],
            },
            ErrorStyle::Envelope,
        );
        assert_eq!(
            body_json(&response),
            json!({"ok": false, "error": "Entry not found", "suggestions": ["bank"]})
        );

        let response = error_response(
            &ApiError::MethodNotAllowed {
                allow: "GET, HEAD, OPTIONS",
            },
            ErrorStyle::Envelope,
        );
        assert_eq!(response.headers()["allow"], "GET, HEAD, OPTIONS");
    }

    #[test]
    fn graphql_style_errors_have_codes() {
        let response = error_response(&ApiError::MissingKey, ErrorStyle::Graphql);
        assert_eq!(response.status(), 401);
        let body = body_json(&response);
        assert_eq!(body["errors"][0]["extensions"]["code"], "UNAUTHENTICATED");
        assert_eq!(body["data"], Value::Null);
    }

    #[test]
    fn internal_errors_do_not_leak() {
        let response = error_response(
            &ApiError::Internal("table keys-123 exploded".into()),
            ErrorStyle::Envelope,
        );
        assert_eq!(
            body_json(&response),
            json!({"ok": false, "error": "Internal error"})
        );
    }

    #[test]
    fn unavailable_is_its_own_graphql_code() {
        let response = error_response(&ApiError::Unavailable, ErrorStyle::Graphql);
        assert_eq!(response.status(), 503);
        assert_eq!(
            response.headers()["retry-after"],
            crate::error::UNAVAILABLE_RETRY_AFTER_SECS.to_string()
        );
        assert_eq!(
            body_json(&response)["errors"][0]["extensions"]["code"],
            "UNAVAILABLE"
        );
    }

    #[test]
    fn every_answer_says_nosniff_once() {
        let answers = [
            reply_response(Reply::json(1), 1, Audience::Keyed),
            reply_response(
                Reply::Redirect {
                    location: "https://cdn.example/a.mp3".into(),
                },
                1,
                Audience::Keyed,
            ),
            reply_response(
                Reply::Raw {
                    status: 400,
                    body: json!({}),
                    unused_units: 0,
                },
                1,
                Audience::Keyed,
            ),
            error_response(&ApiError::UnknownPath, ErrorStyle::Envelope),
            error_response(&ApiError::Unavailable, ErrorStyle::Graphql),
            preflight(),
        ];
        for response in answers {
            let values = response.headers().get_all("x-content-type-options");
            assert_eq!(
                values.iter().collect::<Vec<_>>(),
                ["nosniff"],
                "{}",
                response.status()
            );
        }
    }
}
