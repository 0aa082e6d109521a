//! The query side of decisions.md ("Matching and ranking"): how a folded query
//! matches (exact, prefix or contains, with how many typos) and which filters
//! a request sets. `query.rs` applies them to the index snapshot.

use super::postings::DictionaryRef;
use crate::api::params::LangFilter;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchType {
    Exact,
    Prefix,
    Contains,
}

/// Typo tolerance of decisions.md: 1 edit from 4 characters, 2 from 8.
pub fn allowed_edits(query_chars: usize) -> usize {
    match query_chars {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// A folded query and how it matches.
#[derive(Debug, Clone)]
pub struct MatchRule {
    pub query: String,
    pub match_type: MatchType,
    pub max_edits: usize,
}

impl MatchRule {
    /// `folded` must already be folded. Typo tolerance extends exact and prefix
    /// matching only, and only when `fuzzy`.
    pub fn new(folded: &str, match_type: MatchType, fuzzy: bool) -> Self {
        let max_edits = if fuzzy && match_type != MatchType::Contains {
            allowed_edits(folded.chars().count())
        } else {
            0
        };
        Self {
            query: folded.to_string(),
            match_type,
            max_edits,
        }
    }
}

/// The filters of search, autocomplete, random and suggestions.
#[derive(Debug, Clone, Default)]
pub struct Filters<'a> {
    pub lang: Option<&'a LangFilter>,
    pub source: Option<&'a str>,
    pub part_of_speech: Option<&'a str>,
    pub has_audio: bool,
}

impl Filters<'_> {
    pub fn is_empty(&self) -> bool {
        self.lang.is_none()
            && self.source.is_none()
            && self.part_of_speech.is_none()
            && !self.has_audio
    }

    /// Whether entries of this dictionary pass `lang` and `source`.
    pub fn admit_dictionary(&self, d: &DictionaryRef) -> bool {
        self.source.is_none_or(|s| d.id == s)
            && self
                .lang
                .is_none_or(|l| l.matches(&d.source_lang, d.target_lang.as_deref()))
    }
}
