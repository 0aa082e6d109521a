//! The request pipeline every function runs: CORS preflight, method check, API
//! key, quota (before any endpoint work), one deadline for the whole request,
//! the JSON envelope, `meta.took_ms`, the RateLimit headers and one structured
//! log line per request.

use crate::app::App;
use crate::auth::{self, KeyRecord, QuotaState};
use crate::error::ApiError;
use crate::params::{decode_component, QueryParams};
use crate::quota::Period;
use crate::web::{self, StaticFile};
use futures::future::BoxFuture;
use lambda_http::http::{HeaderMap, HeaderValue, Method, StatusCode};
use lambda_http::{Body, Request, RequestExt, Response};
use serde_json::{json, Map, Value};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How an endpoint's errors are shaped: the REST envelope or GraphQL's `errors`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorStyle {
    Envelope,
    Graphql,
}

/// One endpoint of the interface: its route and how the pipeline treats it.
#[derive(Debug)]
pub struct Endpoint {
    pub name: &'static str,
    /// The path as in the interface, with `{param}` segments.
    pub path: &'static str,
    pub method: Method,
    /// What a request costs against the key's quota.
    pub cost: Cost,
    /// Whether the endpoint requires an API key (only the unknown-path fallback does not).
    pub requires_key: bool,
    pub error_style: ErrorStyle,
    /// A page served instead to a browser's `GET` (`Accept: text/html`),
    /// without a key: the GraphQL explorer.
    pub browser_page: Option<&'static StaticFile>,
    /// What the endpoint does once the pipeline has let a request through.
    pub handler: Handler,
}

/// What a request costs against the key's quota, known before any endpoint
/// work so that a refused request does none.
#[derive(Debug, Clone, Copy)]
pub enum Cost {
    /// Not counted (`me/usage`, the unknown-path fallback).
    Free,
    /// One unit.
    One,
    /// Units read off the request itself (GraphQL: one per root field).
    Computed(fn(&ApiRequest) -> u64),
}

impl Cost {
    fn units(self, request: &ApiRequest) -> u64 {
        match self {
            Self::Free => 0,
            Self::One => 1,
            Self::Computed(units) => units(request),
        }
    }
}

/// Every request is answered within this time, well inside the functions'
/// 10 s timeout: what cannot finish by then is `503` with `Retry-After`,
/// never the gateway's bare error.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(6);
/// Kept free before Lambda's own deadline, to write the answer and the log.
const LAMBDA_DEADLINE_MARGIN: Duration = Duration::from_secs(1);

/// How long a request may take: [`REQUEST_DEADLINE`], or less when Lambda's
/// deadline (milliseconds since the epoch) comes sooner. A deadline that is
/// not in the future is no deadline: 0 means unknown, and `cargo lambda
/// watch` sends its timeout (600000) rather than an instant.
pub fn request_budget(lambda_deadline_ms: u64, now: SystemTime) -> Duration {
    let now_ms = now
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    if lambda_deadline_ms <= now_ms {
        return REQUEST_DEADLINE;
    }
    Duration::from_millis(lambda_deadline_ms - now_ms)
        .saturating_sub(LAMBDA_DEADLINE_MARGIN)
        .min(REQUEST_DEADLINE)
}

/// A request as the endpoint handlers see it: decoded, authenticated.
#[derive(Debug)]
pub struct ApiRequest {
    pub path_params: Vec<(&'static str, String)>,
    pub query: QueryParams,
    pub body: Vec<u8>,
    pub headers: HeaderMap,
    pub request_id: String,
    pub key: Option<KeyRecord>,
}

impl ApiRequest {
    /// A path parameter that the route guarantees.
    pub fn path(&self, name: &str) -> &str {
        self.path_params
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_default()
    }
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
    /// A complete body with its own status (GraphQL answers).
    Raw { status: u16, body: Value },
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

    pub fn with_meta(mut self, name: &str, value: impl Into<Value>) -> Self {
        if let Self::Json { meta, .. } = &mut self {
            meta.insert(name.to_string(), value.into());
        }
        self
    }

    /// Marks a response cacheable by browsers and CDNs for `seconds`.
    pub fn cacheable(mut self, seconds: u32) -> Self {
        if let Self::Json { cache_seconds, .. } = &mut self {
            *cache_seconds = Some(seconds);
        }
        self
    }
}

/// The App lives for the whole process (built once per cold start), so
/// handlers may hand it to code that needs `'static` data (GraphQL).
/// The largest request body accepted (GraphQL is the only endpoint with one).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

pub type Handler =
    for<'a> fn(&'static App, &'a ApiRequest) -> BoxFuture<'a, Result<Reply, ApiError>>;

/// Starts a function: logging, clients (once per cold start), then the Lambda
/// runtime loop serving `endpoint`.
pub async fn run(endpoint: &'static Endpoint) -> Result<(), lambda_http::Error> {
    crate::logging::init();
    // Built once per cold start and kept for the life of the process.
    let app: &'static App = Box::leak(Box::new(App::from_env().await?));
    lambda_http::run(lambda_http::service_fn(
        move |request: Request| async move {
            Ok::<_, std::convert::Infallible>(serve(app, endpoint, request).await)
        },
    ))
    .await
}

/// Serves one request. Never fails: every error becomes a response.
pub async fn serve(app: &'static App, endpoint: &Endpoint, request: Request) -> Response<Body> {
    let handler = endpoint.handler;
    let started = Instant::now();
    let context = request.lambda_context_ref();
    let request_id = context
        .map(|c| c.request_id.clone())
        .filter(|id| !id.is_empty())
        .unwrap_or_else(|| "local".to_string());
    let lambda_deadline_ms = context.map_or(0, |c| c.deadline);
    let budget = request_budget(lambda_deadline_ms, SystemTime::now());
    let method = request.method().clone();

    if method == Method::OPTIONS {
        return preflight();
    }
    if let Some(page) = endpoint.browser_page {
        let read = method == Method::GET || method == Method::HEAD;
        if read && web::wants_html(&request) && request.uri().path() == page.path {
            return web::file_response(page, method == Method::HEAD);
        }
    }

    let mut key_id = None;
    let mut quota = None;
    let work = async {
        // The path first: the unknown-path fallback answers 404 to every method.
        let path_params = match_path(endpoint.path, request.uri().path())?;
        if method != endpoint.method && !(endpoint.method == Method::GET && method == Method::HEAD)
        {
            return Err(ApiError::MethodNotAllowed {
                allow: allow_header(&endpoint.method),
            });
        }
        let (parts, body) = request.into_parts();
        // Before the key: an oversized body is refused unread and uncounted.
        if body.len() > MAX_BODY_BYTES {
            return Err(ApiError::PayloadTooLarge);
        }
        let mut api_request = ApiRequest {
            path_params,
            query: QueryParams::parse(parts.uri.query().unwrap_or_default()),
            body: body.to_vec(),
            headers: parts.headers,
            request_id: request_id.clone(),
            key: None,
        };
        if !endpoint.requires_key {
            return handler(app, &api_request).await;
        }
        let key = auth::parse_authorization(
            api_request
                .headers
                .get("authorization")
                .map(HeaderValue::as_bytes),
        )?;
        let record = app.keys.authenticate(&key).await?;
        key_id = Some(record.key_id.clone());
        api_request.key = Some(record.clone());
        let now = (app.clock)();
        let units = endpoint.cost.units(&api_request);
        if units == 0 {
            // Not counted, but still told where the key stands (read concurrently).
            let (used, reply) =
                tokio::join!(app.keys.usage(&record, now), handler(app, &api_request));
            let limit = record.limit();
            quota = Some(QuotaState {
                limit,
                remaining: limit - used?.min(limit),
                reset_secs: Period::containing(now).seconds_until_reset(now),
            });
            return reply;
        }
        // Counted first: a request the quota refuses does no endpoint work.
        match app.keys.consume(&record, now, units).await {
            Ok(state) => quota = Some(state),
            Err(err) => {
                if let ApiError::QuotaExceeded { retry_after_secs } = err {
                    quota = Some(QuotaState {
                        limit: record.limit(),
                        remaining: 0,
                        reset_secs: retry_after_secs,
                    });
                }
                return Err(err);
            }
        }
        handler(app, &api_request).await
    };
    let outcome = match tokio::time::timeout(budget, work).await {
        Ok(outcome) => outcome,
        Err(_) => {
            tracing::warn!(
                request_id,
                budget_ms = budget.as_millis() as u64,
                lambda_deadline_ms,
                "deadline passed"
            );
            Err(ApiError::Unavailable)
        }
    };

    let took_ms = started.elapsed().as_millis() as u64;
    let mut response = match outcome {
        Ok(reply) => reply_response(reply, took_ms),
        Err(err) => {
            match &err {
                ApiError::Internal(detail) => tracing::error!(request_id, detail, "internal error"),
                ApiError::Unavailable => tracing::warn!(request_id, "answered 503"),
                _ => {}
            }
            error_response(&err, endpoint.error_style)
        }
    };
    if let Some(state) = quota {
        add_rate_limit_headers(response.headers_mut(), state);
    }
    log_request(
        endpoint,
        &method,
        &request_id,
        response.status(),
        took_ms,
        key_id.as_deref(),
    );
    response
}

/// Matches a raw (still percent-encoded) path against a route template and
/// decodes each parameter once. A path that does not fit is 404.
pub fn match_path(
    template: &'static str,
    raw_path: &str,
) -> Result<Vec<(&'static str, String)>, ApiError> {
    let wanted: Vec<&'static str> = template.trim_end_matches('/').split('/').collect();
    let given: Vec<&str> = raw_path.trim_end_matches('/').split('/').collect();
    if wanted.len() != given.len() {
        return Err(ApiError::UnknownPath);
    }
    let mut params = Vec::new();
    for (pattern, segment) in wanted.into_iter().zip(given) {
        if let Some(name) = pattern.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
            if segment.len() > crate::params::MAX_PARAM_BYTES {
                return Err(ApiError::bad_request(format!("{name} is too long")));
            }
            let value = decode_component(segment, false).map_err(|_| {
                ApiError::bad_request(format!("{name} must be valid UTF-8 (percent-encoded)"))
            })?;
            params.push((name, value));
        } else if pattern != segment {
            return Err(ApiError::UnknownPath);
        }
    }
    Ok(params)
}

fn allow_header(method: &Method) -> &'static str {
    if method == Method::POST {
        "POST, OPTIONS"
    } else {
        "GET, HEAD, OPTIONS"
    }
}

const JSON_CONTENT_TYPE: &str = "application/json; charset=utf-8";
const EXPOSED_HEADERS: &str =
    "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Location";

pub(crate) fn base_response(status: u16) -> lambda_http::http::response::Builder {
    Response::builder()
        .status(StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header("access-control-allow-origin", "*")
        .header("access-control-expose-headers", EXPOSED_HEADERS)
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

fn reply_response(reply: Reply, took_ms: u64) -> Response<Body> {
    match reply {
        Reply::Json {
            data,
            mut meta,
            cache_seconds,
        } => {
            meta.insert("took_ms".into(), json!(took_ms));
            let cache = match cache_seconds {
                Some(seconds) => format!("public, max-age={seconds}"),
                None => "no-store".to_string(),
            };
            json_body(
                base_response(200).header("cache-control", cache),
                &json!({"ok": true, "data": data, "meta": meta}),
            )
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
        Reply::Raw { status, body } => json_body(
            base_response(status).header("cache-control", "no-store"),
            &body,
        ),
    }
}

/// The failure envelope (or GraphQL error document) for `err`.
pub fn error_response(err: &ApiError, style: ErrorStyle) -> Response<Body> {
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
pub fn graphql_code(err: &ApiError) -> &'static str {
    match err {
        ApiError::BadRequest(_) | ApiError::PayloadTooLarge | ApiError::MethodNotAllowed { .. } => {
            "BAD_USER_INPUT"
        }
        ApiError::MissingKey | ApiError::InvalidKey | ApiError::KeyDisabled => "UNAUTHENTICATED",
        ApiError::EntryNotFound { .. }
        | ApiError::UnknownDictionary(_)
        | ApiError::NoAudio
        | ApiError::UnknownPath => "NOT_FOUND",
        ApiError::QuotaExceeded { .. } => "QUOTA_EXCEEDED",
        ApiError::Unavailable => "UNAVAILABLE",
        ApiError::Internal(_) => "INTERNAL",
    }
}

fn add_rate_limit_headers(headers: &mut HeaderMap, state: QuotaState) {
    for (name, value) in [
        ("ratelimit-limit", state.limit),
        ("ratelimit-remaining", state.remaining),
        ("ratelimit-reset", state.reset_secs),
    ] {
        headers.insert(name, HeaderValue::from(value));
    }
}

fn log_request(
    endpoint: &Endpoint,
    method: &Method,
    request_id: &str,
    status: StatusCode,
    took_ms: u64,
    key_id: Option<&str>,
) {
    tracing::info!(
        request_id,
        endpoint = endpoint.name,
        method = method.as_str(),
        status = status.as_u16(),
        took_ms,
        key_id = key_id.unwrap_or("-"),
        "request"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENTRY_BY_WORD: &str = "/api/v1/api/entry/{source}/word/{word}";

    #[test]
    fn path_parameters_are_decoded_once() {
        let params = match_path(
            ENTRY_BY_WORD,
            "/api/v1/api/entry/freedict-fra-eng/word/%C3%A9cole",
        )
        .unwrap();
        assert_eq!(
            params,
            vec![
                ("source", "freedict-fra-eng".to_string()),
                ("word", "école".to_string())
            ]
        );
        let params = match_path(ENTRY_BY_WORD, "/api/v1/api/entry/d/word/100%2525").unwrap();
        assert_eq!(params[1].1, "100%25");
        let params = match_path(ENTRY_BY_WORD, "/api/v1/api/entry/d/word/a+b/").unwrap();
        assert_eq!(
            params[1].1, "a+b",
            "plus is literal in paths; trailing slash tolerated"
        );
    }

    #[test]
    fn paths_that_do_not_fit_are_unknown() {
        assert_eq!(
            match_path(ENTRY_BY_WORD, "/api/v1/api/entry/d/words/x"),
            Err(ApiError::UnknownPath)
        );
        assert_eq!(
            match_path(ENTRY_BY_WORD, "/api/v1/api/entry/d/word"),
            Err(ApiError::UnknownPath)
        );
        assert_eq!(
            match_path(ENTRY_BY_WORD, "/api/v1/api/entry/d/word/x/y"),
            Err(ApiError::UnknownPath)
        );
    }

    #[test]
    fn invalid_utf8_in_a_path_names_the_parameter() {
        let err = match_path(ENTRY_BY_WORD, "/api/v1/api/entry/d/word/%FF").unwrap_err();
        assert_eq!(err.status(), 400);
        assert!(err.public_message().starts_with("word must be valid UTF-8"));
    }

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
    fn the_budget_ends_before_lambdas_deadline() {
        let now = UNIX_EPOCH + Duration::from_secs(1_000_000);
        let now_ms = 1_000_000_000;
        assert_eq!(
            request_budget(0, now),
            REQUEST_DEADLINE,
            "no deadline known"
        );
        assert_eq!(
            request_budget(now_ms + 10_000, now),
            REQUEST_DEADLINE,
            "a 10 s function keeps the full budget"
        );
        assert_eq!(
            request_budget(now_ms + 3_000, now),
            Duration::from_secs(2),
            "one second is kept for the answer"
        );
        assert_eq!(request_budget(now_ms + 500, now), Duration::ZERO);
        assert_eq!(
            request_budget(600_000, now),
            REQUEST_DEADLINE,
            "a deadline in the past is an emulator's, not Lambda's"
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
}
