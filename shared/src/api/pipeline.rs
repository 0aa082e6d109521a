//! The request pipeline every function runs: CORS preflight, method check, API
//! key, quota (before any endpoint work), one deadline for the whole request,
//! the JSON envelope, `meta.took_ms`, the RateLimit headers and one structured
//! log line per request.

use crate::access::auth::{self, KeyRecord};
use crate::access::quota::{Period, QuotaState};
use crate::api::params::{decode_component, QueryParams};
use crate::api::response::{
    add_rate_limit_headers, error_response, preflight, reply_response, Audience, ErrorStyle, Reply,
};
use crate::api::web;
use crate::error::ApiError;
use crate::runtime::app::{App, AppStart};
use futures::future::BoxFuture;
use lambda_http::http::{HeaderMap, HeaderValue, Method, StatusCode};
use lambda_http::request::RequestContext;
use lambda_http::{Body, Request, RequestExt, Response};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Where a function answers: the path as in the interface, with `{param}`
/// segments, and its method. Every route of the service is listed in
/// [`crate::api::routes::ROUTES`].
#[derive(Debug)]
pub struct Route {
    /// The function that serves it (its crate in `functions/`).
    pub name: &'static str,
    pub path: &'static str,
    pub method: Method,
    /// Whether a request needs an API key (the pages and the unknown-path
    /// fallback do not).
    pub requires_key: bool,
    /// An HTML page served instead, without a key, to a browser's `GET` of
    /// the same path (`Accept: text/html`): the GraphQL explorer.
    pub browser_page: Option<&'static [u8]>,
}

/// An API endpoint: its route and how the pipeline treats it.
#[derive(Debug)]
pub struct Endpoint {
    pub route: Route,
    /// What a request costs against the key's quota.
    pub cost: Cost,
    pub error_style: ErrorStyle,
    /// What the endpoint does once the pipeline has let a request through.
    pub handler: Handler,
    /// The clients its function builds at cold start.
    pub start: AppStart,
}

/// What a request costs against the key's quota, known before any endpoint
/// work so that a refused request does none.
#[derive(Debug, Clone, Copy)]
pub enum Cost {
    /// Not counted (`me/usage`, the unknown-path fallback).
    Free,
    /// One unit.
    One,
    /// Units read off the request itself (GraphQL: one per root field that
    /// executes; 0 for a request answered 400 unrun).
    Computed(for<'a> fn(&'a ApiRequest) -> BoxFuture<'a, u64>),
}

impl Cost {
    async fn units(self, request: &ApiRequest) -> u64 {
        match self {
            Self::Free => 0,
            Self::One => 1,
            Self::Computed(units) => units(request).await,
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
pub(crate) fn request_budget(lambda_deadline_ms: u64, now: SystemTime) -> Duration {
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
    /// The units this request was charged (0 when not counted): GraphQL's
    /// root resolvers take them one by one.
    pub units: u64,
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

/// The largest request body accepted (GraphQL is the only endpoint with one).
pub(crate) const MAX_BODY_BYTES: usize = 64 * 1024;

/// The App lives for the whole process (built once per cold start), so
/// handlers may hand it to code that needs `'static` data (GraphQL).
pub type Handler =
    for<'a> fn(&'static App, &'a ApiRequest) -> BoxFuture<'a, Result<Reply, ApiError>>;

/// Starts a function: logging, clients (once per cold start), then the Lambda
/// runtime loop serving `endpoint`.
pub async fn run(endpoint: &'static Endpoint) -> Result<(), lambda_http::Error> {
    crate::runtime::logging::init();
    // Built once per cold start and kept for the life of the process.
    let app: &'static App = Box::leak(Box::new((endpoint.start)().await?));
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
    let route = &endpoint.route;
    if let Some(page) = route.browser_page {
        let read = method == Method::GET || method == Method::HEAD;
        if read && web::wants_html(&request) && request.uri().path() == route.path {
            return web::page_response(page, method == Method::HEAD);
        }
    }

    let mut key_id = None;
    let mut quota = None;
    let work = async {
        // The path first: the unknown-path fallback answers 404 to every method.
        let path_params = path_values(route.path, &request)?;
        if method != route.method && !(route.method == Method::GET && method == Method::HEAD) {
            return Err(ApiError::MethodNotAllowed {
                allow: allow_header(&route.method),
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
            units: 0,
        };
        if !route.requires_key {
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
        let units = endpoint.cost.units(&api_request).await;
        if units == 0 {
            // Not counted, but still told where the key stands (read concurrently).
            let (used, reply) =
                tokio::join!(app.quota.used(&record, now), handler(app, &api_request));
            let limit = record.limit();
            quota = Some(QuotaState {
                limit,
                remaining: limit - used?.min(limit),
                reset_secs: Period::containing(now).seconds_until_reset(now),
            });
            return reply;
        }
        // Counted first: a request the quota refuses does no endpoint work.
        match app.quota.consume(&record, now, units).await {
            Ok(state) => {
                quota = Some(state);
                api_request.units = units;
            }
            Err(err) => {
                if let ApiError::QuotaExceeded {
                    retry_after_secs,
                    remaining,
                } = err
                {
                    quota = Some(QuotaState {
                        limit: record.limit(),
                        remaining,
                        reset_secs: retry_after_secs,
                    });
                }
                return Err(err);
            }
        }
        let reply = handler(app, &api_request).await?;
        let unused = reply.unused_units().min(units);
        if unused > 0 {
            // A failed give-back leaves the request counted as charged.
            match app.quota.give_back(&record, now, unused).await {
                Ok(state) => quota = Some(state),
                Err(_) => tracing::warn!(request_id, unused, "charged units not given back"),
            }
        }
        Ok(reply)
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
        Ok(reply) => reply_response(reply, took_ms, audience(route)),
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

/// Who may cache a route's answers: a keyed route's only the caller's cache.
pub(crate) fn audience(route: &Route) -> Audience {
    if route.requires_key {
        Audience::Keyed
    } else {
        Audience::Public
    }
}

/// The values of a route's `{param}` segments, each percent-decoded exactly
/// once, from the event's `pathParameters`: API Gateway's HTTP API hands
/// over `rawPath` already decoded (a `%25xx` decoded again would be another
/// value, a decoded `?` or `#` cuts the path), and its path parameters
/// decoded once. `cargo lambda watch`, which invokes every route as
/// `$default`, gives them as they were in the URL: they are decoded here.
/// A request that comes from no event (built in-process) is matched on its
/// URI's path, still encoded. A route without parameters is matched on the
/// path, and a path that does not fit is 404.
pub fn path_values(
    template: &'static str,
    request: &Request,
) -> Result<Vec<(&'static str, String)>, ApiError> {
    let names: Vec<&'static str> = template
        .split('/')
        .filter_map(|p| p.strip_prefix('{').and_then(|p| p.strip_suffix('}')))
        .collect();
    let route_key = match request.request_context_ref() {
        Some(RequestContext::ApiGatewayV2(context)) => Some(context.route_key.as_deref()),
        Some(_) => Some(None),
        None => None,
    };
    let (Some(route_key), false) = (route_key, names.is_empty()) else {
        return match_path(template, request.uri().path());
    };
    let given = request.path_parameters_ref();
    let still_encoded = route_key == Some("$default");
    names
        .into_iter()
        .map(|name| {
            let value = given
                .and_then(|params| params.first(name))
                .ok_or(ApiError::UnknownPath)?;
            path_value(name, value, still_encoded).map(|value| (name, value))
        })
        .collect()
}

/// One path value: at most [`crate::queries::MAX_PARAM_BYTES`], decoded
/// once when it is still percent-encoded.
fn path_value(name: &str, value: &str, still_encoded: bool) -> Result<String, ApiError> {
    if value.len() > crate::queries::MAX_PARAM_BYTES {
        return Err(ApiError::bad_request(format!("{name} is too long")));
    }
    if !still_encoded {
        return Ok(value.to_string());
    }
    decode_component(value, false)
        .map_err(|_| ApiError::bad_request(format!("{name} must be valid UTF-8 (percent-encoded)")))
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
            params.push((name, path_value(name, segment, true)?));
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
        endpoint = endpoint.route.name,
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

    /// An API Gateway v2 event for entry by word: as API Gateway's HTTP
    /// API sends it (`rawPath` and the path parameters decoded once, the
    /// route's own `routeKey`) or as `cargo lambda watch` does (both as in
    /// the URL, `routeKey` `$default`).
    fn event(raw_path: &str, source: &str, word: &str, route_key: &str) -> Request {
        let params = serde_json::json!({"source": source, "word": word});
        event_with(raw_path, params, route_key)
    }

    fn event_with(raw_path: &str, params: serde_json::Value, route_key: &str) -> Request {
        let event = serde_json::json!({
            "version": "2.0",
            "routeKey": route_key,
            "rawPath": raw_path,
            "rawQueryString": "limit=1",
            "headers": {"host": "localhost:9000"},
            "pathParameters": params,
            "requestContext": {
                "http": {"method": "GET", "path": raw_path, "protocol": "HTTP/1.1",
                         "sourceIp": "127.0.0.1", "userAgent": "test"},
                "requestId": "r", "routeKey": route_key, "stage": "$default",
                "time": "01/Jan/2026:00:00:00 +0000", "timeEpoch": 0
            },
            "isBase64Encoded": false
        });
        lambda_http::request::from_str(&event.to_string()).expect("an API Gateway v2 event")
    }

    const ROUTE_KEY: &str = "ANY /api/v1/api/entry/{source}/word/{word}";

    fn word_of(request: &Request) -> Result<String, ApiError> {
        path_values(ENTRY_BY_WORD, request).map(|params| params[1].1.clone())
    }

    #[test]
    fn path_values_are_decoded_exactly_once_from_either_kind_of_event() {
        // (the word as typed, as it is in the URL)
        let cases = [
            ("école", "%C3%A9cole"),
            ("100%25", "100%2525"),
            ("50%", "50%25"),
            ("what?", "what%3F"),
            ("a#b", "a%23b"),
            ("a b+c", "a%20b+c"),
            ("a/b", "a%2Fb"),
        ];
        for (word, encoded) in cases {
            let prefix = "/api/v1/api/entry/freedict-fra-eng/word/";
            let aws = event(
                &format!("{prefix}{word}"),
                "freedict-fra-eng",
                word,
                ROUTE_KEY,
            );
            assert_eq!(word_of(&aws).as_deref(), Ok(word), "API Gateway: {word}");
            let local = event(
                &format!("{prefix}{encoded}"),
                "freedict-fra-eng",
                encoded,
                "$default",
            );
            assert_eq!(
                word_of(&local).as_deref(),
                Ok(word),
                "cargo lambda watch: {encoded}"
            );
        }
    }

    #[test]
    fn bad_path_values_are_400_whatever_the_event() {
        let local = event("/api/v1/api/entry/d/word/%FF", "d", "%FF", "$default");
        let err = word_of(&local).unwrap_err();
        assert_eq!(err.status(), 400);
        assert!(err.public_message().starts_with("word must be valid UTF-8"));
        // API Gateway hands over what it decoded; nothing is decoded again.
        let aws = event(
            "/api/v1/api/entry/d/word/\u{FFFD}",
            "d",
            "\u{FFFD}",
            ROUTE_KEY,
        );
        assert_eq!(word_of(&aws).as_deref(), Ok("\u{FFFD}"));
        let long = "x".repeat(crate::queries::MAX_PARAM_BYTES + 1);
        for route_key in [ROUTE_KEY, "$default"] {
            let request = event(
                &format!("/api/v1/api/entry/d/word/{long}"),
                "d",
                &long,
                route_key,
            );
            let err = word_of(&request).unwrap_err();
            assert_eq!(err.public_message(), "word is too long", "{route_key}");
        }
        // An event without the route's parameters is not this route's.
        let missing = event_with(
            "/api/v1/api/entry/d/word/x",
            serde_json::json!({"source": "d"}),
            ROUTE_KEY,
        );
        assert_eq!(word_of(&missing), Err(ApiError::UnknownPath));
    }

    #[test]
    fn a_request_from_no_event_is_matched_on_its_encoded_path() {
        let request = lambda_http::http::Request::builder()
            .uri("/api/v1/api/entry/d/word/100%2525")
            .body(Body::Empty)
            .unwrap();
        assert_eq!(word_of(&request).as_deref(), Ok("100%25"));
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
}
