//! What each read asks for, typed and validated once (docs/api.md,
//! "Parameters"). The service layer takes these and nothing looser.
//!
//! A query reads its parameters by name through a [`ParamSource`]: a query
//! string (REST, `api/params.rs`) or a GraphQL field's arguments
//! (`api/graphql/`). Each parameter (a name, a default, a range) is written
//! once, below, and both sources go through it in the same order, so the
//! first bad parameter gives the same 400 message either way.

use crate::error::{shown, ApiError};
use crate::search::engine::SoundsLikeQuery;
use crate::search::filters::{Filters, LangFilter};
use crate::search::matching::{MatchRule, MatchType};
use crate::search::snapshot::RhymeKind;
use crate::search::InvalidParameter;

/// The longest value we look at for any parameter. Longer input is rejected
/// before any work is done on it.
pub(crate) const MAX_PARAM_BYTES: usize = 2048;
/// `q` is 1 to 100 characters after trimming.
pub(crate) const MAX_QUERY_CHARS: usize = 100;
pub(crate) const MAX_OFFSET: u32 = 10_000;

/// Where a read's parameters come from. A source gives a value only when the
/// caller gave one; the rules below decide defaults and ranges.
pub trait ParamSource {
    /// The text of `name`, if given, refused unread when longer than any
    /// value we look at ([`MAX_PARAM_BYTES`]).
    fn text(&self, name: &str) -> Result<Option<&str>, ApiError>;

    /// `name` as an integer in `min..=max`, if given; outside it, or not an
    /// integer, is [`out_of_range`].
    fn integer(&self, name: &str, min: u32, max: u32) -> Result<Option<u32>, ApiError>;

    /// `name` as `true` or `false`, if given.
    fn flag(&self, name: &str) -> Result<Option<bool>, ApiError>;

    /// A required text (`q`): trimmed, 1 to 100 characters, no control
    /// characters, and at most 100 characters once folded as well (one
    /// character can fold to 18, and a search's work grows with the folded
    /// length).
    fn required_text(&self, name: &str) -> Result<String, ApiError> {
        let value = self
            .text(name)?
            .ok_or_else(|| ApiError::bad_request(format!("{name} is required")))?;
        let value = validate_text(name, value, MAX_QUERY_CHARS)?;
        if crate::fold::fold(&value).chars().count() > MAX_QUERY_CHARS {
            return Err(ApiError::bad_request(format!(
                "{name} must be at most {MAX_QUERY_CHARS} characters once folded"
            )));
        }
        Ok(value)
    }
}

/// `value`, unless it is longer than any value we look at.
pub(crate) fn within_length<'v>(name: &str, value: &'v str) -> Result<&'v str, ApiError> {
    if value.len() > MAX_PARAM_BYTES {
        Err(ApiError::bad_request(format!("{name} is too long")))
    } else {
        Ok(value)
    }
}

/// The answer to an integer outside `min..=max`, or not an integer at all.
pub(crate) fn out_of_range(name: &str, min: u32, max: u32) -> ApiError {
    ApiError::bad_request(format!("{name} must be an integer from {min} to {max}"))
}

/// Trims `value` and checks its length in characters and that it holds no
/// control characters (which no headword contains).
pub(crate) fn validate_text(name: &str, value: &str, max_chars: usize) -> Result<String, ApiError> {
    let trimmed = value.trim();
    let chars = trimmed.chars().count();
    if chars == 0 {
        return Err(ApiError::bad_request(format!("{name} must not be empty")));
    }
    if chars > max_chars {
        return Err(ApiError::bad_request(format!(
            "{name} must be 1 to {max_chars} characters"
        )));
    }
    if trimmed.chars().any(char::is_control) {
        return Err(ApiError::bad_request(format!(
            "{name} must not contain control characters"
        )));
    }
    Ok(trimmed.to_string())
}

/// Dictionary ids are short, lower-case ASCII slugs (`freedict-eng-fra`).
/// Anything else cannot name a dictionary: 404 as for any unknown id, with the
/// echoed value [`shown`] so that hostile input is not reflected as given.
pub(crate) fn validate_dictionary_id(name: &str, value: &str) -> Result<String, ApiError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(ApiError::bad_request(format!("{name} must not be empty")));
    }
    let well_formed = value.len() <= 64
        && value
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if well_formed {
        Ok(value.to_string())
    } else {
        Err(ApiError::UnknownDictionary(shown(value, 64)))
    }
}

/// Entry ids are opaque, URL-safe and short (16 lower-case hex digits today;
/// the check allows for other URL-safe schemes later).
pub(crate) fn validate_entry_id(name: &str, value: &str) -> Result<String, ApiError> {
    let well_formed = !value.is_empty()
        && value.len() <= 128
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if well_formed {
        Ok(value.to_string())
    } else {
        Err(ApiError::bad_request(format!(
            "{name} must be an entry id (letters, digits, '-' or '_', at most 128)"
        )))
    }
}

/// An integer parameter: its name, default and inclusive range.
struct Number {
    name: &'static str,
    default: u32,
    min: u32,
    max: u32,
}

impl Number {
    fn read(&self, source: &impl ParamSource) -> Result<u32, ApiError> {
        Ok(source
            .integer(self.name, self.min, self.max)?
            .unwrap_or(self.default))
    }
}

/// A `true`/`false` parameter and its default.
struct Flag {
    name: &'static str,
    default: bool,
}

impl Flag {
    fn read(&self, source: &impl ParamSource) -> Result<bool, ApiError> {
        Ok(source.flag(self.name)?.unwrap_or(self.default))
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

/// A word of a path (`/thesaurus/{word}`), whose length the router has
/// already checked, or GraphQL's argument of the same name.
pub(crate) fn path_word(value: &str) -> Result<String, ApiError> {
    validate_text("word", value, MAX_QUERY_CHARS)
}

fn lang(source: &impl ParamSource) -> Result<Option<LangFilter>, ApiError> {
    Ok(source.text("lang")?.map(LangFilter::parse).transpose()?)
}

/// `source`: a dictionary id, if given (its existence is checked by storage).
fn dictionary(source: &impl ParamSource) -> Result<Option<String>, ApiError> {
    source
        .text("source")?
        .map(|v| validate_dictionary_id("source", v))
        .transpose()
}

fn match_type(source: &impl ParamSource) -> Result<MatchType, ApiError> {
    Ok(MatchType::parse(source.text("matchType")?)?)
}

fn pos(source: &impl ParamSource) -> Result<Option<String>, ApiError> {
    source
        .text("pos")?
        .map(|v| validate_text("pos", v, MAX_POS_CHARS))
        .transpose()
}

/// `group`: what a result of search and reverse lookup is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Grouping {
    /// One result per entry (`entry`, the default).
    #[default]
    Entry,
    /// One result per word, a folded headword in one language, carrying
    /// its entries (`word`).
    Word,
}

fn grouping(source: &impl ParamSource) -> Result<Grouping, ApiError> {
    match source.text("group")?.map(str::trim) {
        None | Some("entry") => Ok(Grouping::Entry),
        Some("word") => Ok(Grouping::Word),
        Some(_) => Err(ApiError::bad_request("group must be one of entry, word")),
    }
}

/// The sounds-like query of `q`, for `matchType=soundsLike` only: a 400 if
/// `q` is too long or `lang` has no rules.
fn sounds_like_query(
    q: &str,
    match_type: MatchType,
    lang: Option<&LangFilter>,
) -> Result<Option<SoundsLikeQuery>, InvalidParameter> {
    match match_type {
        MatchType::SoundsLike => SoundsLikeQuery::new(q, lang).map(Some),
        MatchType::Exact | MatchType::Prefix | MatchType::Contains | MatchType::Pattern => Ok(None),
    }
}

/// A search (`GET /api/v1/api/search`, GraphQL `search` and `examples`).
#[derive(Debug, Clone, PartialEq)]
pub struct SearchQuery {
    /// `q` as the caller wrote it.
    pub q: String,
    /// `q`, `matchType` and `fuzzy`, read once: the folded text or the
    /// parsed pattern the engine runs.
    pub rule: MatchRule,
    /// The sounds of `q` in each language looked up, for
    /// `matchType=soundsLike` only.
    pub sounds_like: Option<SoundsLikeQuery>,
    pub lang: Option<LangFilter>,
    pub source: Option<String>,
    pub pos: Option<String>,
    pub has_audio: bool,
    pub group: Grouping,
    pub limit: u32,
    pub offset: u32,
}

impl SearchQuery {
    /// Its filters, as the engine takes them.
    pub fn filters(&self) -> Filters<'_> {
        Filters {
            lang: self.lang.as_ref(),
            source: self.source.as_deref(),
            part_of_speech: self.pos.as_deref(),
            has_audio: self.has_audio,
        }
    }

    /// A search of `q` with every other parameter at its default, as a
    /// request that gives only `q` would have it (no filter, the default
    /// page), `match_type` and `fuzzy` as given: for the benchmarks and
    /// tests that search in-process. A `pattern` search must be a valid
    /// pattern, a `soundsLike` one a word short enough: it panics
    /// otherwise.
    pub fn new(q: &str, match_type: MatchType, fuzzy: bool) -> Self {
        Self {
            q: q.to_string(),
            rule: MatchRule::of_query(q, match_type, fuzzy)
                .unwrap_or_else(|e| panic!("{q:?} as a pattern: {}", e.message())),
            sounds_like: sounds_like_query(q, match_type, None)
                .unwrap_or_else(|e| panic!("{q:?} as a sounds-like query: {e}")),
            lang: None,
            source: None,
            pos: None,
            has_audio: HAS_AUDIO.default,
            group: Grouping::Entry,
            limit: SEARCH_LIMIT.default,
            offset: OFFSET.default,
        }
    }

    pub fn read(source: &impl ParamSource) -> Result<Self, ApiError> {
        let q = source.required_text("q")?;
        let lang = lang(source)?;
        let dictionary = dictionary(source)?;
        let match_type = match_type(source)?;
        let pos = pos(source)?;
        let has_audio = HAS_AUDIO.read(source)?;
        let fuzzy = FUZZY.read(source)?;
        let group = grouping(source)?;
        let limit = SEARCH_LIMIT.read(source)?;
        let offset = OFFSET.read(source)?;
        // `q` and `matchType` together: a pattern needs its letters.
        let rule = MatchRule::of_query(&q, match_type, fuzzy)
            .map_err(|e| ApiError::bad_request(e.message()))?;
        let sounds_like = sounds_like_query(&q, match_type, lang.as_ref())?;
        Ok(Self {
            q,
            rule,
            sounds_like,
            lang,
            source: dictionary,
            pos,
            has_audio,
            group,
            limit,
            offset,
        })
    }
}

/// A reverse lookup (`GET /api/v1/api/reverse`, GraphQL `reverse`): the
/// entries whose definition or translation says the words of `q`. Search's
/// parameters but `matchType` and `fuzzy`, read by the same rules.
#[derive(Debug, Clone, PartialEq)]
pub struct ReverseQuery {
    pub q: String,
    pub lang: Option<LangFilter>,
    pub source: Option<String>,
    pub pos: Option<String>,
    pub has_audio: bool,
    pub group: Grouping,
    pub limit: u32,
    pub offset: u32,
}

impl ReverseQuery {
    /// Its filters, as the engine takes them.
    pub fn filters(&self) -> Filters<'_> {
        Filters {
            lang: self.lang.as_ref(),
            source: self.source.as_deref(),
            part_of_speech: self.pos.as_deref(),
            has_audio: self.has_audio,
        }
    }

    /// A reverse lookup of `q` with every other parameter at its default,
    /// search's.
    pub fn new(q: &str) -> Self {
        let search = SearchQuery::new(q, MatchType::Exact, false);
        Self {
            q: search.q,
            lang: search.lang,
            source: search.source,
            pos: search.pos,
            has_audio: search.has_audio,
            group: search.group,
            limit: search.limit,
            offset: search.offset,
        }
    }

    pub fn read(source: &impl ParamSource) -> Result<Self, ApiError> {
        Ok(Self {
            q: source.required_text("q")?,
            lang: lang(source)?,
            source: dictionary(source)?,
            pos: pos(source)?,
            has_audio: HAS_AUDIO.read(source)?,
            group: grouping(source)?,
            limit: SEARCH_LIMIT.read(source)?,
            offset: OFFSET.read(source)?,
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

impl AutocompleteQuery {
    pub fn read(source: &impl ParamSource) -> Result<Self, ApiError> {
        Ok(Self {
            q: source.required_text("q")?,
            lang: lang(source)?,
            source: dictionary(source)?,
            limit: AUTOCOMPLETE_LIMIT.read(source)?,
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

impl RandomQuery {
    pub fn read(source: &impl ParamSource) -> Result<Self, ApiError> {
        Ok(Self {
            lang: lang(source)?,
            source: dictionary(source)?,
            has_audio: HAS_AUDIO.read(source)?,
            count: RANDOM_COUNT.read(source)?,
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

impl ThesaurusQuery {
    /// `word` is the decoded path segment of REST, or GraphQL's argument of
    /// the same name; the filters come from `source`.
    pub fn read(word: &str, source: &impl ParamSource) -> Result<Self, ApiError> {
        Ok(Self {
            word: path_word(word)?,
            lang: lang(source)?,
            source: dictionary(source)?,
        })
    }
}

/// A rhyme lookup (`GET /api/v1/api/rhymes/{word}`): the words of the
/// word's language that rhyme with it (docs/api.md, "Rhymes").
#[derive(Debug, Clone, PartialEq)]
pub struct RhymesQuery {
    pub word: String,
    /// The language of the word and its rhymes; without it, the language
    /// of the word's most common entry with a pronunciation.
    pub lang: Option<String>,
    pub source: Option<String>,
    pub pos: Option<String>,
    pub kind: RhymeKind,
    pub limit: u32,
    pub offset: u32,
}

impl RhymesQuery {
    /// `word` is the decoded path segment of REST, or GraphQL's argument of
    /// the same name.
    pub fn read(word: &str, source: &impl ParamSource) -> Result<Self, ApiError> {
        let word = path_word(word)?;
        let lang = match lang(source)? {
            Some(LangFilter {
                source: lang,
                target: None,
            }) => Some(lang),
            Some(_) => {
                return Err(ApiError::bad_request(
                    "lang must be one language code like en: rhymes are within a language",
                ))
            }
            None => None,
        };
        let dictionary = dictionary(source)?;
        let pos = pos(source)?;
        let kind = match source.text("kind")?.map(str::trim) {
            None | Some("perfect") => RhymeKind::Perfect,
            Some("near") => RhymeKind::Near,
            Some(_) => return Err(ApiError::bad_request("kind must be one of perfect, near")),
        };
        Ok(Self {
            word,
            lang,
            source: dictionary,
            pos,
            kind,
            limit: SEARCH_LIMIT.read(source)?,
            offset: OFFSET.read(source)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(err: ApiError) -> String {
        assert_eq!(err.status(), 400, "{err:?}");
        err.public_message()
    }

    #[test]
    fn a_new_search_has_the_defaults_of_a_request_of_q_alone() {
        let read = SearchQuery::read(&Values(vec![("q", "bank")])).unwrap();
        assert_eq!(SearchQuery::new("bank", MatchType::Prefix, true), read);
        let read = SearchQuery::read(&Values(vec![("q", "bank"), ("matchType", "exact")])).unwrap();
        assert_eq!(SearchQuery::new("bank", MatchType::Exact, true), read);
    }

    #[test]
    fn dictionary_ids() {
        assert_eq!(
            validate_dictionary_id("source", "freedict-eng-fra").unwrap(),
            "freedict-eng-fra"
        );
        let err = validate_dictionary_id("source", "<script>").unwrap_err();
        assert_eq!(err.status(), 404);
        assert_eq!(
            err.public_message(),
            "Unknown dictionary: \u{FFFD}script\u{FFFD}"
        );
        let err = validate_dictionary_id("source", "a\"b`c&d\u{1b}[31m").unwrap_err();
        assert_eq!(
            err.public_message(),
            "Unknown dictionary: a\"b\u{FFFD}c\u{FFFD}d\u{FFFD}[31m"
        );
        let long = validate_dictionary_id("source", &"x".repeat(500))
            .unwrap_err()
            .public_message();
        assert!(long.chars().count() < 100);
    }

    /// A source of the given values only.
    struct Values(Vec<(&'static str, &'static str)>);

    impl ParamSource for Values {
        fn text(&self, name: &str) -> Result<Option<&str>, ApiError> {
            Ok(self.0.iter().find(|(n, _)| *n == name).map(|(_, v)| *v))
        }
        fn integer(&self, _: &str, _: u32, _: u32) -> Result<Option<u32>, ApiError> {
            Ok(None)
        }
        fn flag(&self, _: &str) -> Result<Option<bool>, ApiError> {
            Ok(None)
        }
    }

    /// A pattern needs 2 letters; other match types take `?` and `*` as
    /// they are.
    #[test]
    fn a_pattern_needs_its_letters() {
        let read = |q, m| SearchQuery::read(&Values(vec![("q", q), ("matchType", m)]));
        for bad in ["??", "*a", "?a*", "* *"] {
            assert_eq!(
                message(read(bad, "pattern").unwrap_err()),
                "q must have at least 2 characters other than ? and * for matchType=pattern",
                "{bad}"
            );
            assert!(read(bad, "contains").is_ok(), "{bad}");
        }
        let ok = read(" h?use ", "pattern").unwrap();
        assert_eq!(
            (ok.q.as_str(), ok.rule.match_type),
            ("h?use", MatchType::Pattern)
        );
        assert!(ok.rule.pattern().is_some(), "parsed once, when read");
    }

    #[test]
    fn entry_ids() {
        assert!(validate_entry_id("id", "0f3a9c1d2b4e5f60").is_ok());
        for bad in ["", "a b", "a/b", "é", &"a".repeat(129)] {
            assert!(message(validate_entry_id("id", bad).unwrap_err()).starts_with("id must be"));
        }
    }
}
