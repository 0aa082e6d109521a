//! Every route the service answers and what serves it: one list, which the
//! router of `cargo lambda watch` (Cargo.toml), template.yaml, `events/` and
//! docs/openapi.json are held against (tests/drift/tests/routes.rs). Each function's
//! `main.rs` names its endpoint here once.

use crate::api::pipeline::{Cost, Endpoint, Handler, Route};
use crate::api::response::ErrorStyle;
use crate::api::{graphql, rest};
use crate::error::ApiError;
use crate::runtime::app::{TABLES, TABLES_AND_AUDIO};
use lambda_http::http::Method;

/// A `GET` route behind a key.
const fn get(name: &'static str, path: &'static str) -> Route {
    Route {
        name,
        path,
        method: Method::GET,
        requires_key: true,
        browser_page: None,
    }
}

/// A keyless `GET` route: the pages, served by [`crate::api::web::run_files`],
/// and the unknown-path fallback.
const fn keyless(name: &'static str, path: &'static str) -> Route {
    Route {
        name,
        path,
        method: Method::GET,
        requires_key: false,
        browser_page: None,
    }
}

/// A REST endpoint that costs one unit of the key's quota.
const fn counted(route: Route, handler: Handler) -> Endpoint {
    Endpoint {
        route,
        cost: Cost::One,
        error_style: ErrorStyle::Envelope,
        handler,
        start: TABLES,
    }
}

/// A counted endpoint whose answers carry audio URLs, signed with S3 when no
/// CDN is configured.
const fn counted_with_audio(route: Route, handler: Handler) -> Endpoint {
    Endpoint {
        route,
        cost: Cost::One,
        error_style: ErrorStyle::Envelope,
        handler,
        start: TABLES_AND_AUDIO,
    }
}

pub static SEARCH: Endpoint = counted(get("search", "/api/v1/api/search"), |app, req| {
    Box::pin(rest::search(app, req))
});
pub static REVERSE: Endpoint = counted(get("reverse", "/api/v1/api/reverse"), |app, req| {
    Box::pin(rest::reverse(app, req))
});
pub static AUTOCOMPLETE: Endpoint = counted(
    get("autocomplete", "/api/v1/api/autocomplete"),
    |app, req| Box::pin(rest::autocomplete(app, req)),
);
pub static ENTRY: Endpoint =
    counted_with_audio(get("entry", "/api/v1/entry/{source}/{id}"), |app, req| {
        Box::pin(rest::entry(app, req))
    });
pub static ENTRY_BY_WORD: Endpoint = counted_with_audio(
    get("entry-by-word", "/api/v1/api/entry/{source}/word/{word}"),
    |app, req| Box::pin(rest::entry_by_word(app, req)),
);
pub static THESAURUS: Endpoint = counted(
    get("thesaurus", "/api/v1/api/thesaurus/{word}"),
    |app, req| Box::pin(rest::thesaurus(app, req)),
);
pub static RHYMES: Endpoint = counted(get("rhymes", "/api/v1/api/rhymes/{word}"), |app, req| {
    Box::pin(rest::rhymes(app, req))
});

pub static RANDOM: Endpoint = counted(get("random", "/api/v1/random"), |app, req| {
    Box::pin(rest::random(app, req))
});
pub static AUDIO: Endpoint = counted_with_audio(
    get("audio", "/api/v1/api/audio/{source}/{lexid}"),
    |app, req| Box::pin(rest::audio(app, req)),
);
pub static DICTIONARIES: Endpoint = counted(
    get("dictionaries", "/api/v1/api/dictionaries"),
    |app, req| Box::pin(rest::dictionaries(app, req)),
);
/// Not counted: reading your usage costs nothing.
pub static USAGE: Endpoint = Endpoint {
    route: get("usage", "/api/v1/api/me/usage"),
    cost: Cost::Free,
    error_style: ErrorStyle::Envelope,
    handler: |app, req| Box::pin(rest::usage(app, req)),
    start: TABLES,
};
pub static GRAPHQL: Endpoint = Endpoint {
    route: Route {
        name: "graphql",
        path: "/api/v1/api/graphql",
        method: Method::POST,
        requires_key: true,
        browser_page: Some(graphql::EXPLORER_PAGE),
    },
    cost: Cost::Computed(graphql::units),
    error_style: ErrorStyle::Graphql,
    handler: |app, req| Box::pin(graphql::handle(app, req)),
    start: TABLES_AND_AUDIO,
};
/// Any other path: 404 in the envelope, whatever the method, without a key and
/// without counting. Its empty path matches no request, so the pipeline
/// answers 404 before the handler.
pub static NOT_FOUND: Endpoint = Endpoint {
    route: keyless("not-found", ""),
    cost: Cost::Free,
    error_style: ErrorStyle::Envelope,
    handler: |_, _| Box::pin(async { Err(ApiError::UnknownPath) }),
    start: TABLES,
};

/// The playground page.
pub static PLAYGROUND: Route = keyless("playground", "/");
/// The playground's assets and the GraphQL explorer's, served by the same function.
pub static ASSETS: Route = keyless("playground", "/assets/{file}");
/// The OpenAPI document of the REST surface.
pub static OPENAPI: Route = keyless("openapi", "/api/v1/openapi.json");

/// Every endpoint behind a key: the API. Its routes are the keyed routes of
/// [`ROUTES`] (a test below holds the two lists together).
pub static ENDPOINTS: [&Endpoint; 12] = [
    &SEARCH,
    &REVERSE,
    &AUTOCOMPLETE,
    &ENTRY,
    &ENTRY_BY_WORD,
    &THESAURUS,
    &RHYMES,
    &RANDOM,
    &AUDIO,
    &DICTIONARIES,
    &USAGE,
    &GRAPHQL,
];

/// Every route the service answers, by the function (`name`) that serves
/// it, but the unknown-path fallback.
pub static ROUTES: [&Route; 15] = [
    &SEARCH.route,
    &REVERSE.route,
    &AUTOCOMPLETE.route,
    &ENTRY.route,
    &ENTRY_BY_WORD.route,
    &THESAURUS.route,
    &RHYMES.route,
    &RANDOM.route,
    &AUDIO.route,
    &DICTIONARIES.route,
    &USAGE.route,
    &GRAPHQL.route,
    &PLAYGROUND,
    &ASSETS,
    &OPENAPI,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::pipeline::audience;
    use crate::api::response::{reply_response, Reply};

    /// A cacheable answer of every keyed route is for the caller's cache
    /// only, and never for another key; the keyless pages stay public.
    #[test]
    fn keyed_answers_are_never_publicly_cacheable() {
        for route in ROUTES {
            let response = reply_response(Reply::json(1).cacheable(300), 0, audience(route));
            let headers = response.headers();
            if route.requires_key {
                assert_eq!(
                    headers["cache-control"], "private, max-age=300",
                    "{}",
                    route.name
                );
                assert_eq!(headers["vary"], "Authorization", "{}", route.name);
            } else {
                assert_eq!(
                    headers["cache-control"], "public, max-age=300",
                    "{}",
                    route.name
                );
            }
            let uncached = reply_response(Reply::json(1), 0, audience(route));
            assert_eq!(uncached.headers()["cache-control"], "no-store");
        }
    }

    #[test]
    fn the_endpoints_are_exactly_the_keyed_routes() {
        let keyed: Vec<&Route> = ROUTES.into_iter().filter(|r| r.requires_key).collect();
        assert_eq!(keyed.len(), ENDPOINTS.len());
        for endpoint in ENDPOINTS {
            assert!(
                keyed.iter().any(|r| std::ptr::eq(*r, &endpoint.route)),
                "{} is in ROUTES",
                endpoint.route.name
            );
        }
    }
}
