//! The REST handlers: each reads its parameters, calls the service layer and
//! shapes the reply. [`crate::api::routes`] gives each its route.

use crate::api::pipeline::ApiRequest;
use crate::api::response::Reply;
use crate::error::ApiError;
use crate::model::SearchPage;
use crate::queries::{
    path_word, validate_dictionary_id, validate_entry_id, AutocompleteQuery, Grouping, RandomQuery,
    ReverseQuery, RhymesQuery, SearchQuery, ThesaurusQuery,
};
use crate::runtime::app::App;
use crate::service;

pub(crate) async fn search(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let query = SearchQuery::read(&req.query)?;
    Ok(page_reply(service::search(app, &query).await?, query.group))
}

/// Reverse lookup: a page of search results, with search's `meta`.
pub(crate) async fn reverse(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let query = ReverseQuery::read(&req.query)?;
    Ok(page_reply(
        service::reverse(app, &query).await?,
        query.group,
    ))
}

/// A page of search results, or of words with `group=word` (whose `meta`
/// also counts their entries).
fn page_reply(page: SearchPage, group: Grouping) -> Reply {
    let reply = match group {
        Grouping::Entry => Reply::json(&page.results),
        Grouping::Word => Reply::json(&page.words).with_meta("totalEntries", page.total_entries),
    };
    reply
        .with_meta("total", page.total)
        .with_meta("limit", page.limit)
        .with_meta("offset", page.offset)
}

pub(crate) async fn autocomplete(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let query = AutocompleteQuery::read(&req.query)?;
    let words = service::autocomplete(app, &query).await?;
    Ok(Reply::json(&words)
        .with_meta("limit", query.limit)
        .cacheable(300))
}

pub(crate) async fn entry(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let source = validate_dictionary_id("source", req.path("source"))?;
    let id = validate_entry_id("id", req.path("id"))?;
    Ok(Reply::json(service::entry_by_id(app, &source, &id).await?))
}

pub(crate) async fn entry_by_word(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let source = validate_dictionary_id("source", req.path("source"))?;
    let word = path_word(req.path("word"))?;
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

pub(crate) async fn thesaurus(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let query = ThesaurusQuery::read(req.path("word"), &req.query)?;
    let links = service::thesaurus(app, &query).await?;
    Ok(Reply::json(links))
}

/// Rhymes: the words as `data`; the word looked up, its pronunciations and
/// the page in `meta`.
pub(crate) async fn rhymes(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let query = RhymesQuery::read(req.path("word"), &req.query)?;
    let page = service::rhymes(app, &query).await?;
    Ok(Reply::json(&page.rhymes)
        .with_meta("word", page.word)
        .with_meta("lang", page.lang)
        .with_meta(
            "pronunciations",
            serde_json::to_value(&page.pronunciations).expect("plain fields"),
        )
        .with_meta("kind", page.kind)
        .with_meta("total", page.total)
        .with_meta("limit", page.limit)
        .with_meta("offset", page.offset))
}

pub(crate) async fn random(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let query = RandomQuery::read(&req.query)?;
    let picks = service::random(app, &query).await?;
    Ok(Reply::json(&picks))
}

pub(crate) async fn audio(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let source = validate_dictionary_id("source", req.path("source"))?;
    let id = validate_entry_id("lexid", req.path("lexid"))?;
    let format = req.query.audio_format()?;
    Ok(Reply::Redirect {
        location: service::audio_url(app, &source, &id, format).await?,
    })
}

pub(crate) async fn dictionaries(app: &App, _req: &ApiRequest) -> Result<Reply, ApiError> {
    let list = service::dictionaries(app).await?;
    Ok(Reply::json(&list)
        .with_meta("total", list.len())
        .cacheable(300))
}

pub(crate) async fn usage(app: &App, req: &ApiRequest) -> Result<Reply, ApiError> {
    let key = req.key.as_ref().ok_or(ApiError::MissingKey)?;
    Ok(Reply::json(service::usage(app, key).await?))
}
