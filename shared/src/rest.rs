//! The REST endpoints: each parses and validates its parameters, calls the
//! service layer and shapes the reply. The function crates only pick one.

use crate::app::App;
use crate::error::ApiError;
use crate::http::{ApiRequest, Cost, Endpoint, ErrorStyle, Handler, Reply};
use crate::params::{
    validate_dictionary_id, validate_entry_id, validate_text, LangFilter, QueryParams, MAX_OFFSET,
    MAX_QUERY_CHARS,
};
use crate::search::rank::MatchType;
use crate::service::{self, SearchParams};
use futures::future::BoxFuture;
use lambda_http::http::Method;

const fn get(name: &'static str, path: &'static str, handler: Handler) -> Endpoint {
    Endpoint {
        name,
        path,
        method: Method::GET,
        cost: Cost::One,
        requires_key: true,
        error_style: ErrorStyle::Envelope,
        browser_page: None,
        handler,
    }
}

pub static SEARCH: Endpoint = get("search", "/api/v1/api/search", |app, req| {
    Box::pin(search(app, req))
});
pub static AUTOCOMPLETE: Endpoint = get("autocomplete", "/api/v1/api/autocomplete", |app, req| {
    Box::pin(autocomplete(app, req))
});
pub static ENTRY: Endpoint = get("entry", "/api/v1/entry/{source}/{id}", |app, req| {
    Box::pin(entry(app, req))
});
pub static ENTRY_BY_WORD: Endpoint = get(
    "entry-by-word",
    "/api/v1/api/entry/{source}/word/{word}",
    |app, req| Box::pin(entry_by_word(app, req)),
);
pub static THESAURUS: Endpoint = get("thesaurus", "/api/v1/api/thesaurus/{word}", |app, req| {
    Box::pin(thesaurus(app, req))
});
pub static RANDOM: Endpoint = get("random", "/api/v1/random", |app, req| {
    Box::pin(random(app, req))
});
pub static AUDIO: Endpoint = get("audio", "/api/v1/api/audio/{source}/{lexid}", |app, req| {
    Box::pin(audio(app, req))
});
pub static DICTIONARIES: Endpoint = get("dictionaries", "/api/v1/api/dictionaries", |app, req| {
    Box::pin(dictionaries(app, req))
});
pub static USAGE: Endpoint = Endpoint {
    name: "usage",
    path: "/api/v1/api/me/usage",
    method: Method::GET,
    cost: Cost::Free,
    requires_key: true,
    error_style: ErrorStyle::Envelope,
    browser_page: None,
    handler: |app, req| Box::pin(usage(app, req)),
};
pub static GRAPHQL: Endpoint = Endpoint {
    name: "graphql",
    path: "/api/v1/api/graphql",
    method: Method::POST,
    cost: Cost::Computed(crate::graphql::units),
    requires_key: true,
    error_style: ErrorStyle::Graphql,
    browser_page: Some(&crate::web::GRAPHQL_EXPLORER),
    handler: |app, req| Box::pin(crate::graphql::handle(app, req)),
};
/// Any other path: 404 in the envelope, whatever the method, without a key and
/// without counting. Its empty route matches no path.
pub static NOT_FOUND: Endpoint = Endpoint {
    name: "not-found",
    path: "",
    method: Method::GET,
    cost: Cost::Free,
    requires_key: false,
    error_style: ErrorStyle::Envelope,
    browser_page: None,
    handler: unknown_path,
};

/// Every route the service answers, by the function (`name`) that serves
/// it, but the unknown-path fallback. The router of `cargo lambda watch`
/// (Cargo.toml), template.yaml and docs/openapi.json are held against this
/// list (tests/tests/routes.rs).
pub static ROUTES: [&Endpoint; 13] = [
    &SEARCH,
    &AUTOCOMPLETE,
    &ENTRY,
    &ENTRY_BY_WORD,
    &THESAURUS,
    &RANDOM,
    &AUDIO,
    &DICTIONARIES,
    &USAGE,
    &GRAPHQL,
    &crate::web::PLAYGROUND,
    &crate::web::ASSETS,
    &crate::web::OPENAPI,
];

/// The answer for a path no endpoint serves.
pub fn unknown_path<'a>(
    _: &'static App,
    _: &'a ApiRequest,
) -> BoxFuture<'a, Result<Reply, ApiError>> {
    Box::pin(async { Err(ApiError::UnknownPath) })
}

fn parse_match_type(raw: Option<&str>) -> Result<MatchType, ApiError> {
    match raw.map(str::trim) {
        None | Some("prefix") => Ok(MatchType::Prefix),
        Some("exact") => Ok(MatchType::Exact),
        Some("contains") => Ok(MatchType::Contains),
        Some(_) => Err(ApiError::bad_request(
            "matchType must be one of exact, prefix, contains",
        )),
    }
}

/// Search parameters from a query string (REST) or from GraphQL arguments.
pub fn search_params(q: &QueryParams) -> Result<SearchParams, ApiError> {
    Ok(SearchParams {
        q: q.query_text("q")?,
        lang: q.lang()?,
        source: q.source()?,
        match_type: parse_match_type(q.raw("matchType")?)?,
        pos: q
            .raw("pos")?
            .map(|p| validate_text("pos", p, 32))
            .transpose()?,
        has_audio: q.boolean("hasAudio", false)?,
        fuzzy: q.boolean("fuzzy", true)?,
        limit: q.int_in_range("limit", 20, 1, 100)?,
        offset: q.int_in_range("offset", 0, 0, MAX_OFFSET)?,
    })
}

async fn search(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let params = search_params(&req.query)?;
    let page = service::search(app, &params).await?;
    Ok(Reply::json(&page.results)
        .with_meta("total", page.total)
        .with_meta("limit", params.limit)
        .with_meta("offset", params.offset))
}

pub struct AutocompleteParams {
    pub q: String,
    pub lang: Option<LangFilter>,
    pub source: Option<String>,
    pub limit: u32,
}

pub fn autocomplete_params(q: &QueryParams) -> Result<AutocompleteParams, ApiError> {
    Ok(AutocompleteParams {
        q: q.query_text("q")?,
        lang: q.lang()?,
        source: q.source()?,
        limit: q.int_in_range("limit", 10, 1, 50)?,
    })
}

async fn autocomplete(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let p = autocomplete_params(&req.query)?;
    let words = service::autocomplete(
        app,
        &p.q,
        p.lang.as_ref(),
        p.source.as_deref(),
        p.limit as usize,
    )
    .await?;
    Ok(Reply::json(&words)
        .with_meta("limit", p.limit)
        .cacheable(300))
}

async fn entry(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let source = validate_dictionary_id("source", req.path("source"))?;
    let id = validate_entry_id("id", req.path("id"))?;
    Ok(Reply::json(service::entry_by_id(app, &source, &id).await?))
}

async fn entry_by_word(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let source = validate_dictionary_id("source", req.path("source"))?;
    let word = validate_text("word", req.path("word"), MAX_QUERY_CHARS)?;
    let entry = service::entry_by_word(app, &source, &word).await?;
    let (lemma, inflection) = (entry.lemma.clone(), entry.inflection.clone());
    let mut reply = Reply::json(entry);
    if let (Some(lemma), Some(inflection)) = (lemma, inflection) {
        reply = reply
            .with_meta("lemma", lemma)
            .with_meta("inflection", inflection);
    }
    Ok(reply)
}

async fn thesaurus(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let word = validate_text("word", req.path("word"), MAX_QUERY_CHARS)?;
    let lang = req.query.lang()?;
    let source = req.query.source()?;
    let links = service::thesaurus(app, &word, lang.as_ref(), source.as_deref()).await?;
    Ok(Reply::json(links))
}

pub struct RandomParams {
    pub lang: Option<LangFilter>,
    pub source: Option<String>,
    pub has_audio: bool,
    pub count: u32,
}

pub fn random_params(q: &QueryParams) -> Result<RandomParams, ApiError> {
    Ok(RandomParams {
        lang: q.lang()?,
        source: q.source()?,
        has_audio: q.boolean("hasAudio", false)?,
        count: q.int_in_range("count", 1, 1, 10)?,
    })
}

async fn random(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let p = random_params(&req.query)?;
    let picks = service::random(
        app,
        p.lang.as_ref(),
        p.source.as_deref(),
        p.has_audio,
        p.count as usize,
    )
    .await?;
    Ok(Reply::json(&picks))
}

async fn audio(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let source = validate_dictionary_id("source", req.path("source"))?;
    let id = validate_entry_id("lexid", req.path("lexid"))?;
    let format = req.query.audio_format()?;
    Ok(Reply::Redirect {
        location: service::audio_url(app, &source, &id, format).await?,
    })
}

async fn dictionaries(app: &App, _req: &ApiRequest) -> Result<Reply, ApiError> {
    let list = service::dictionaries(app).await?;
    Ok(Reply::json(&list)
        .with_meta("total", list.len())
        .cacheable(300))
}

async fn usage(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let key = req.key.as_ref().ok_or(ApiError::MissingKey)?;
    Ok(Reply::json(service::usage(app, key).await?))
}
