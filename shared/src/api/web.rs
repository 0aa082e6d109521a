//! What the service serves to browsers and tools without a key: the
//! playground page and its assets, the GraphQL explorer's page, the OpenAPI
//! document. Every file is compiled into its function, so a deployment serves
//! exactly the pages of its own build and no asset comes from another origin.
//!
//! These functions hold no AWS client: [`run_files`] answers from memory.

use crate::api::response::{base_response, error_response, preflight, ErrorStyle};
use crate::error::ApiError;
use lambda_http::http::Method;
use lambda_http::{Body, Request, Response};

/// A file served at a fixed path.
#[derive(Debug)]
pub struct StaticFile {
    /// The URL path, e.g. `/` or `/assets/playground.js`.
    pub path: &'static str,
    pub content_type: &'static str,
    pub body: &'static [u8],
}

/// The pages may load scripts, styles, fonts and images only from the
/// service itself (GraphiQL's stylesheet carries its fonts as `data:` URLs)
/// and talk only to it. Audio plays from the CDN (or S3's presigned URLs),
/// another origin by design. GraphiQL sets inline styles from script
/// (CodeMirror's layout), hence `'unsafe-inline'` for styles only.
pub(crate) const PAGE_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; \
     font-src 'self' data:; media-src 'self' http: https: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; \
     connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const HTML: &str = "text/html; charset=utf-8";

/// Whether a request asks for a page rather than an API answer: a browser
/// navigating sends `Accept: text/html`, API clients do not.
pub(crate) fn wants_html(request: &Request) -> bool {
    request
        .headers()
        .get_all("accept")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|media| {
            // Media types are case-insensitive (RFC 9110).
            let essence = media.split(';').next().unwrap_or_default().trim();
            essence.eq_ignore_ascii_case("text/html")
        })
}

/// Starts a function that serves `files` (and 404 or 405 in the envelope
/// for anything else).
pub async fn run_files(
    name: &'static str,
    files: &'static [StaticFile],
) -> Result<(), lambda_http::Error> {
    crate::runtime::logging::init();
    lambda_http::run(lambda_http::service_fn(
        move |request: Request| async move {
            let response = serve_files(files, &request);
            tracing::info!(
                endpoint = name,
                method = request.method().as_str(),
                status = response.status().as_u16(),
                "request"
            );
            Ok::<_, std::convert::Infallible>(response)
        },
    ))
    .await
}

/// Answers one request from `files`: GET and HEAD of a listed path give the
/// file, other methods 405, other paths 404.
pub(crate) fn serve_files(files: &[StaticFile], request: &Request) -> Response<Body> {
    let method = request.method();
    if method == Method::OPTIONS {
        return preflight();
    }
    let path = request.uri().path();
    let Some(file) = files.iter().find(|f| f.path == path) else {
        return error_response(&ApiError::UnknownPath, ErrorStyle::Envelope);
    };
    if method != Method::GET && method != Method::HEAD {
        return error_response(
            &ApiError::MethodNotAllowed {
                allow: "GET, HEAD, OPTIONS",
            },
            ErrorStyle::Envelope,
        );
    }
    content_response(file.content_type, file.body, method == Method::HEAD)
}

/// An HTML page (the GraphQL explorer) as a 200 answer, with the pages' policy.
pub(crate) fn page_response(body: &[u8], head_only: bool) -> Response<Body> {
    content_response(HTML, body, head_only)
}

/// A body of `content_type` as a 200 answer; `head_only` leaves the body out.
fn content_response(content_type: &str, body: &[u8], head_only: bool) -> Response<Body> {
    let mut builder = base_response(200)
        .header("content-type", content_type)
        // Short: a new deployment's pages are seen within minutes.
        .header("cache-control", "public, max-age=300")
        .header("content-length", body.len().to_string());
    if content_type.starts_with("text/html") {
        builder = builder
            .header("content-security-policy", PAGE_SECURITY_POLICY)
            .header("referrer-policy", "no-referrer");
    }
    let body = if head_only {
        Body::Empty
    } else {
        match std::str::from_utf8(body) {
            Ok(text) => Body::Text(text.to_owned()),
            Err(_) => Body::Binary(body.to_vec()),
        }
    };
    builder
        .body(body)
        .unwrap_or_else(|_| Response::new(Body::Empty))
}

/// The content type of an asset, from its file name.
pub const fn content_type(name: &str) -> &'static str {
    let bytes = name.as_bytes();
    if ends_with(bytes, b".js") {
        "text/javascript; charset=utf-8"
    } else if ends_with(bytes, b".css") {
        "text/css; charset=utf-8"
    } else if ends_with(bytes, b".svg") {
        "image/svg+xml"
    } else if ends_with(bytes, b".json") {
        "application/json; charset=utf-8"
    } else if ends_with(bytes, b".html") {
        HTML
    } else {
        "text/plain; charset=utf-8"
    }
}

const fn ends_with(bytes: &[u8], suffix: &[u8]) -> bool {
    if bytes.len() < suffix.len() {
        return false;
    }
    let start = bytes.len() - suffix.len();
    let mut i = 0;
    while i < suffix.len() {
        if bytes[start + i] != suffix[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use lambda_http::http::Request as HttpRequest;

    static FILES: &[StaticFile] = &[
        StaticFile {
            path: "/",
            content_type: HTML,
            body: b"<!doctype html>",
        },
        StaticFile {
            path: "/assets/app.js",
            content_type: content_type("app.js"),
            body: b"let x = 1;",
        },
    ];

    fn request(method: &str, path: &str, accept: Option<&str>) -> Request {
        let mut builder = HttpRequest::builder().method(method).uri(path);
        if let Some(accept) = accept {
            builder = builder.header("accept", accept);
        }
        builder.body(Body::Empty).unwrap()
    }

    fn text(response: &Response<Body>) -> String {
        String::from_utf8_lossy(response.body().as_ref()).into_owned()
    }

    #[test]
    fn a_listed_file_is_served_with_its_type_and_pages_with_their_policy() {
        let page = serve_files(FILES, &request("GET", "/", None));
        assert_eq!(page.status(), 200);
        assert_eq!(page.headers()["content-type"], HTML);
        assert_eq!(
            page.headers()["content-security-policy"],
            PAGE_SECURITY_POLICY
        );
        assert_eq!(text(&page), "<!doctype html>");

        let script = serve_files(FILES, &request("GET", "/assets/app.js", None));
        assert_eq!(
            script.headers()["content-type"],
            "text/javascript; charset=utf-8"
        );
        assert_eq!(script.headers()["x-content-type-options"], "nosniff");
        assert!(script.headers().get("content-security-policy").is_none());
        assert_eq!(text(&script), "let x = 1;");
    }

    #[test]
    fn head_has_the_headers_and_no_body() {
        let head = serve_files(FILES, &request("HEAD", "/assets/app.js", None));
        assert_eq!(head.status(), 200);
        assert_eq!(head.headers()["content-length"], "10");
        assert!(head.body().is_empty());
    }

    #[test]
    fn other_paths_are_404_and_other_methods_405_in_the_envelope() {
        let missing = serve_files(FILES, &request("GET", "/assets/nope.js", None));
        assert_eq!(missing.status(), 404);
        assert!(text(&missing).contains(r#""ok":false"#));
        let post = serve_files(FILES, &request("POST", "/", None));
        assert_eq!(post.status(), 405);
        assert_eq!(post.headers()["allow"], "GET, HEAD, OPTIONS");
        assert_eq!(
            serve_files(FILES, &request("OPTIONS", "/x", None)).status(),
            204
        );
    }

    #[test]
    fn only_an_accept_naming_text_html_asks_for_a_page() {
        let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
        assert!(wants_html(&request("GET", "/", Some(browser))));
        assert!(wants_html(&request("GET", "/", Some("TEXT/HTML; q=1"))));
        assert!(!wants_html(&request("GET", "/", Some("application/json"))));
        assert!(!wants_html(&request("GET", "/", Some("*/*"))));
        assert!(!wants_html(&request("GET", "/", None)));
    }

    #[test]
    fn content_types_follow_the_file_name() {
        assert_eq!(content_type("a.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("a.svg"), "image/svg+xml");
        assert_eq!(content_type("a.json"), "application/json; charset=utf-8");
        assert_eq!(content_type("a.min.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("js"), "text/plain; charset=utf-8");
    }
}
