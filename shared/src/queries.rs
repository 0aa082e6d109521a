//! What each read asks for, typed and validated once: from a query string
//! (REST) or from GraphQL's typed arguments, by the same rules (docs/api.md,
//! "Parameters"). The service layer takes these and nothing looser.
//!
//! Each rule (a name, a default, a range) is written once, below, and both
//! sources go through it in the same order, so the first bad parameter gives
//! the same 400 message either way.

use crate::api::params::{
    out_of_range, validate_dictionary_id, validate_text, within_length, LangFilter, QueryParams,
    MAX_OFFSET, MAX_QUERY_CHARS,
};
use crate::error::ApiError;
use crate::search::rank::MatchType;

/// An integer parameter: its name, default and inclusive range.
struct Number {
    name: &'static str,
    default: u32,
    min: u32,
    max: u32,
}

impl Number {
    fn of_text(&self, q: &QueryParams) -> Result<u32, ApiError> {
        q.int_in_range(self.name, self.default, self.min, self.max)
    }

    fn of_argument(&self, value: Option<i64>) -> Result<u32, ApiError> {
        match value {
            None => Ok(self.default),
            Some(v) if (i64::from(self.min)..=i64::from(self.max)).contains(&v) => Ok(v as u32),
            Some(_) => Err(out_of_range(self.name, self.min, self.max)),
        }
    }
}

/// A `true`/`false` parameter and its default.
struct Flag {
    name: &'static str,
    default: bool,
}

impl Flag {
    fn of_text(&self, q: &QueryParams) -> Result<bool, ApiError> {
        q.boolean(self.name, self.default)
    }

    fn of_argument(&self, value: Option<bool>) -> bool {
        value.unwrap_or(self.default)
    }
}

const SEARCH_LIMIT: Number = Number {
    name: "limit",
    default: 20,
    min: 1,
    max: 100,
};
const OFFSET: Number = Number {
    name: "offset",
    default: 0,
    min: 0,
    max: MAX_OFFSET,
};
const AUTOCOMPLETE_LIMIT: Number = Number {
    name: "limit",
    default: 10,
    min: 1,
    max: 50,
};
const RANDOM_COUNT: Number = Number {
    name: "count",
    default: 1,
    min: 1,
    max: 10,
};
const HAS_AUDIO: Flag = Flag {
    name: "hasAudio",
    default: false,
};
const FUZZY: Flag = Flag {
    name: "fuzzy",
    default: true,
};
/// The longest part-of-speech filter.
const MAX_POS_CHARS: usize = 32;

/// `q`: required, trimmed, 1 to 100 characters.
fn required_text(name: &str, value: &str) -> Result<String, ApiError> {
    validate_text(name, within_length(name, value)?, MAX_QUERY_CHARS)
}

/// A word of a path (`/thesaurus/{word}`), whose length the router has
/// already checked, or GraphQL's argument of the same name.
pub fn path_word(value: &str) -> Result<String, ApiError> {
    validate_text("word", value, MAX_QUERY_CHARS)
}

fn lang(value: Option<&str>) -> Result<Option<LangFilter>, ApiError> {
    value
        .map(|v| LangFilter::parse(within_length("lang", v)?))
        .transpose()
}

fn source(value: Option<&str>) -> Result<Option<String>, ApiError> {
    value
        .map(|v| validate_dictionary_id("source", within_length("source", v)?))
        .transpose()
}

fn match_type(value: Option<&str>) -> Result<MatchType, ApiError> {
    let value = value.map(|v| within_length("matchType", v)).transpose()?;
    match value.map(str::trim) {
        None | Some("prefix") => Ok(MatchType::Prefix),
        Some("exact") => Ok(MatchType::Exact),
        Some("contains") => Ok(MatchType::Contains),
        Some(_) => Err(ApiError::bad_request(
            "matchType must be one of exact, prefix, contains",
        )),
    }
}

fn pos(value: Option<&str>) -> Result<Option<String>, ApiError> {
    value
        .map(|v| validate_text("pos", within_length("pos", v)?, MAX_POS_CHARS))
        .transpose()
}

/// A search (`GET /api/v1/api/search`, GraphQL `search` and `examples`).
#[derive(Debug, Clone, PartialEq)]
pub struct SearchQuery {
    pub q: String,
    pub lang: Option<LangFilter>,
    pub source: Option<String>,
    pub match_type: MatchType,
    pub pos: Option<String>,
    pub has_audio: bool,
    pub fuzzy: bool,
    pub limit: u32,
    pub offset: u32,
}

/// GraphQL's arguments of a search, as typed by the schema.
#[derive(Debug, Default)]
pub struct SearchArguments {
    pub q: String,
    pub lang: Option<String>,
    pub source: Option<String>,
    pub match_type: Option<String>,
    pub pos: Option<String>,
    pub has_audio: Option<bool>,
    pub fuzzy: Option<bool>,
    pub limit: Option<i64>,
    pub offset: Option<i64>,
}

impl SearchQuery {
    pub fn from_query_string(q: &QueryParams) -> Result<Self, ApiError> {
        Ok(Self {
            q: q.query_text("q")?,
            lang: lang(q.raw("lang")?)?,
            source: source(q.raw("source")?)?,
            match_type: match_type(q.raw("matchType")?)?,
            pos: pos(q.raw("pos")?)?,
            has_audio: HAS_AUDIO.of_text(q)?,
            fuzzy: FUZZY.of_text(q)?,
            limit: SEARCH_LIMIT.of_text(q)?,
            offset: OFFSET.of_text(q)?,
        })
    }

    pub fn from_arguments(a: &SearchArguments) -> Result<Self, ApiError> {
        Ok(Self {
            q: required_text("q", &a.q)?,
            lang: lang(a.lang.as_deref())?,
            source: source(a.source.as_deref())?,
            match_type: match_type(a.match_type.as_deref())?,
            pos: pos(a.pos.as_deref())?,
            has_audio: HAS_AUDIO.of_argument(a.has_audio),
            fuzzy: FUZZY.of_argument(a.fuzzy),
            limit: SEARCH_LIMIT.of_argument(a.limit)?,
            offset: OFFSET.of_argument(a.offset)?,
        })
    }
}

/// Prefix suggestions (`GET /api/v1/api/autocomplete`, GraphQL `autocomplete`).
#[derive(Debug, Clone, PartialEq)]
pub struct AutocompleteQuery {
    pub q: String,
    pub lang: Option<LangFilter>,
    pub source: Option<String>,
    pub limit: u32,
}

/// GraphQL's arguments of `autocomplete`.
#[derive(Debug, Default)]
pub struct AutocompleteArguments {
    pub q: String,
    pub lang: Option<String>,
    pub source: Option<String>,
    pub limit: Option<i64>,
}

impl AutocompleteQuery {
    pub fn from_query_string(q: &QueryParams) -> Result<Self, ApiError> {
        Ok(Self {
            q: q.query_text("q")?,
            lang: lang(q.raw("lang")?)?,
            source: source(q.raw("source")?)?,
            limit: AUTOCOMPLETE_LIMIT.of_text(q)?,
        })
    }

    pub fn from_arguments(a: &AutocompleteArguments) -> Result<Self, ApiError> {
        Ok(Self {
            q: required_text("q", &a.q)?,
            lang: lang(a.lang.as_deref())?,
            source: source(a.source.as_deref())?,
            limit: AUTOCOMPLETE_LIMIT.of_argument(a.limit)?,
        })
    }
}

/// Random headwords (`GET /api/v1/random`, GraphQL `random`).
#[derive(Debug, Clone, PartialEq)]
pub struct RandomQuery {
    pub lang: Option<LangFilter>,
    pub source: Option<String>,
    pub has_audio: bool,
    pub count: u32,
}

/// GraphQL's arguments of `random`.
#[derive(Debug, Default)]
pub struct RandomArguments {
    pub lang: Option<String>,
    pub source: Option<String>,
    pub has_audio: Option<bool>,
    pub count: Option<i64>,
}

impl RandomQuery {
    pub fn from_query_string(q: &QueryParams) -> Result<Self, ApiError> {
        Ok(Self {
            lang: lang(q.raw("lang")?)?,
            source: source(q.raw("source")?)?,
            has_audio: HAS_AUDIO.of_text(q)?,
            count: RANDOM_COUNT.of_text(q)?,
        })
    }

    pub fn from_arguments(a: &RandomArguments) -> Result<Self, ApiError> {
        Ok(Self {
            lang: lang(a.lang.as_deref())?,
            source: source(a.source.as_deref())?,
            has_audio: HAS_AUDIO.of_argument(a.has_audio),
            count: RANDOM_COUNT.of_argument(a.count)?,
        })
    }
}

/// Related words (`GET /api/v1/api/thesaurus/{word}`, GraphQL `thesaurus`).
#[derive(Debug, Clone, PartialEq)]
pub struct ThesaurusQuery {
    pub word: String,
    pub lang: Option<LangFilter>,
    pub source: Option<String>,
}

/// GraphQL's arguments of `thesaurus`.
#[derive(Debug, Default)]
pub struct ThesaurusArguments {
    pub word: String,
    pub lang: Option<String>,
    pub source: Option<String>,
}

impl ThesaurusQuery {
    /// `word` is the decoded path segment; the filters come from the query string.
    pub fn from_query_string(word: &str, q: &QueryParams) -> Result<Self, ApiError> {
        Ok(Self {
            word: path_word(word)?,
            lang: lang(q.raw("lang")?)?,
            source: source(q.raw("source")?)?,
        })
    }

    pub fn from_arguments(a: &ThesaurusArguments) -> Result<Self, ApiError> {
        Ok(Self {
            word: path_word(&a.word)?,
            lang: lang(a.lang.as_deref())?,
            source: source(a.source.as_deref())?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(err: ApiError) -> String {
        err.public_message()
    }

    /// The same values, written as a query string and as GraphQL arguments,
    /// give the same query or the same first error.
    #[test]
    fn both_sources_agree_value_for_value() {
        let cases: [(&str, SearchArguments); 6] = [
            (
                "q=bank&lang=EN-fr&source=freedict-eng-fra&matchType=exact&pos=noun&hasAudio=true&fuzzy=false&limit=7&offset=3",
                SearchArguments {
                    q: "bank".into(),
                    lang: Some("EN-fr".into()),
                    source: Some("freedict-eng-fra".into()),
                    match_type: Some("exact".into()),
                    pos: Some("noun".into()),
                    has_audio: Some(true),
                    fuzzy: Some(false),
                    limit: Some(7),
                    offset: Some(3),
                },
            ),
            ("q=+bank+", SearchArguments { q: " bank ".into(), ..Default::default() }),
            (
                "q=bank&limit=0",
                SearchArguments { q: "bank".into(), limit: Some(0), ..Default::default() },
            ),
            (
                "q=bank&offset=10001",
                SearchArguments { q: "bank".into(), offset: Some(10_001), ..Default::default() },
            ),
            (
                "q=&lang=xx-",
                SearchArguments { q: String::new(), lang: Some("xx-".into()), ..Default::default() },
            ),
            (
                "q=bank&matchType=fuzzy&limit=0",
                SearchArguments {
                    q: "bank".into(),
                    match_type: Some("fuzzy".into()),
                    limit: Some(0),
                    ..Default::default()
                },
            ),
        ];
        for (text, arguments) in cases {
            let rest = SearchQuery::from_query_string(&QueryParams::parse(text)).map_err(message);
            let graphql = SearchQuery::from_arguments(&arguments).map_err(message);
            assert_eq!(rest, graphql, "{text}");
        }
    }

    #[test]
    fn negative_and_huge_numbers_are_out_of_range_as_in_a_query_string() {
        for value in [-1, i64::MIN, i64::MAX, 101] {
            assert_eq!(
                message(SEARCH_LIMIT.of_argument(Some(value)).unwrap_err()),
                "limit must be an integer from 1 to 100"
            );
        }
        assert_eq!(RANDOM_COUNT.of_argument(None).unwrap(), 1);
        assert_eq!(AUTOCOMPLETE_LIMIT.of_argument(Some(50)).unwrap(), 50);
    }

    #[test]
    fn long_arguments_are_refused_unread_as_in_a_query_string() {
        let long = "x".repeat(3000);
        let arguments = ThesaurusArguments {
            word: "bank".into(),
            lang: Some(long.clone()),
            source: None,
        };
        let err = ThesaurusQuery::from_arguments(&arguments).unwrap_err();
        assert_eq!(message(err), "lang is too long");
        let err =
            ThesaurusQuery::from_query_string("bank", &QueryParams::parse(&format!("lang={long}")))
                .unwrap_err();
        assert_eq!(message(err), "lang is too long");
    }
}
