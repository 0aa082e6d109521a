//! How a folded query matches a headword (docs/api.md, "Matching and
//! ranking"): the match types, the typo tolerance and the rule a query runs
//! with. The `engine` module applies them to the index snapshot.
//!
//! Everything a match type decides is a method of [`MatchType`] with an
//! exhaustive `match`, so a new value does not compile until each place has
//! decided what it means for it.

use super::pattern::{Pattern, PatternError};
use crate::fold::{capitalised, fold};
use crate::InvalidParameter;

/// `matchType`: how the query's text must stand in a headword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchType {
    Exact,
    Prefix,
    Contains,
    /// `q` is a wildcard pattern over the whole headword ([`Pattern`]).
    Pattern,
    /// Headwords whose spelling sounds like `q`'s in their language
    /// ([`crate::sounds_like`]), found by `Searcher::sounds_like` from the
    /// `rhymes` section, not by the tiers of a search.
    SoundsLike,
}

/// How a typo is measured for a match type that tolerates typos.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TypoDistance {
    /// Edits between the query and the whole headword.
    Whole,
    /// Edits between the query and the closest start of the headword.
    Prefix,
}

impl MatchType {
    /// Every value, in the order error messages and documents list them.
    pub const ALL: [MatchType; 5] = [
        MatchType::Exact,
        MatchType::Prefix,
        MatchType::Contains,
        MatchType::Pattern,
        MatchType::SoundsLike,
    ];

    /// When `matchType` is not given.
    pub(crate) const DEFAULT: MatchType = MatchType::Prefix;

    /// The value's name in a query string, GraphQL and the documents.
    pub fn name(self) -> &'static str {
        match self {
            MatchType::Exact => "exact",
            MatchType::Prefix => "prefix",
            MatchType::Contains => "contains",
            MatchType::Pattern => "pattern",
            MatchType::SoundsLike => "soundsLike",
        }
    }

    /// The value named `name` exactly, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    /// `matchType`'s value, or the default when absent (trimmed, as every
    /// value); anything else is a 400 listing the values.
    pub fn parse(value: Option<&str>) -> Result<Self, InvalidParameter> {
        match value.map(str::trim) {
            None => Ok(Self::DEFAULT),
            Some(name) => Self::from_name(name).ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|m| m.name()).collect();
                InvalidParameter(format!("matchType must be one of {}", names.join(", ")))
            }),
        }
    }

    /// How typos are measured, or `None` when this match type has no typo
    /// tier (a typo inside a substring would match almost anything).
    pub(crate) fn typo_distance(self) -> Option<TypoDistance> {
        match self {
            MatchType::Exact => Some(TypoDistance::Whole),
            MatchType::Prefix => Some(TypoDistance::Prefix),
            MatchType::Contains | MatchType::Pattern | MatchType::SoundsLike => None,
        }
    }

    /// Whether an inflected form also finds its lemmas (the lemma tier).
    pub(crate) fn has_lemma_tier(self) -> bool {
        match self {
            MatchType::Exact | MatchType::Prefix => true,
            MatchType::Contains | MatchType::Pattern | MatchType::SoundsLike => false,
        }
    }

    /// Whether the query's own term is a tier of its own, ahead of the rest
    /// (a pattern's matches are all one tier, in the literal order).
    pub(crate) fn has_exact_tier(self) -> bool {
        match self {
            MatchType::Exact | MatchType::Prefix | MatchType::Contains => true,
            MatchType::Pattern | MatchType::SoundsLike => false,
        }
    }
}

/// A typo-tolerant search of at least [`EXTRA_EDIT_FROM`] characters that
/// finds fewer distinct headwords than this allows one edit more.
pub const EXTRA_EDIT_BELOW: usize = 5;
pub const EXTRA_EDIT_FROM: usize = 5;

/// The queries whose third edit (a prefix search's extra edit, from 8
/// characters) keeps the query's first [`ANCHORED_HEAD_CHARS`] characters
/// within one edit of the headword's start (docs/api.md): they have no two
/// pieces after the head long enough to look up, so only a walk anchored
/// on the head finds their third edit without reading most of the term
/// dictionary. (In characters; from 10, the pieces find the rest.)
pub const PREFIX_THIRD_EDIT_ANCHORED: std::ops::Range<usize> = 8..10;
/// The head an anchored prefix search with three edits walks on
/// (`typo::prefix_split`): short, so that the two pieces after it are long
/// and held by few terms; two characters at least, so that the anchored
/// walk reads the root's letters once and then follows the query.
pub const ANCHORED_HEAD_CHARS: usize = 2;

/// Typo tolerance: 1 edit from 4 characters, 2 from 8.
pub(crate) fn allowed_edits(query_chars: usize) -> usize {
    match query_chars {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// A folded query and how it matches, read once: a `pattern` rule holds
/// its parsed [`Pattern`] beside its folded text, so that nothing that runs
/// it parses or folds the query again.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchRule {
    /// The folded query; a pattern's folded text ([`Pattern::to_query`]).
    query: String,
    /// The parsed pattern of a rule of [`MatchType::Pattern`], none of any
    /// other.
    pattern: Option<Pattern>,
    pub match_type: MatchType,
    pub max_edits: usize,
    /// Whether the query's first letter was typed a capital
    /// ([`capitalised`]), which folding forgets: the exact matches
    /// capitalised as the query ([`crate::fold::capitalised_as`]) come
    /// first in their tier (`Lodz` lists the city `Łódź` before the boat
    /// `łódź`). `None` when its first letter has no case, or the query
    /// comes folded.
    pub capitalised: Option<bool>,
}

impl MatchRule {
    /// The rule of `q` as the caller wrote it: folded, or for a pattern
    /// parsed and folded run by run ([`Pattern::parse`]).
    pub fn of_query(q: &str, match_type: MatchType, fuzzy: bool) -> Result<Self, PatternError> {
        let (query, pattern) = match match_type {
            MatchType::Exact | MatchType::Prefix | MatchType::Contains | MatchType::SoundsLike => {
                (fold(q), None)
            }
            MatchType::Pattern => {
                let pattern = Pattern::parse(q)?;
                (pattern.to_query(), Some(pattern))
            }
        };
        Ok(Self {
            capitalised: capitalised(q),
            ..Self::with(query, pattern, match_type, fuzzy)
        })
    }

    /// `folded` must already be folded (for a pattern, [`Pattern::to_query`]). Typo tolerance extends only the match
    /// types that have a typo tier, and only when `fuzzy`. The case it was
    /// typed in is unknown: no capitalisation orders the exact matches.
    pub fn new(folded: &str, match_type: MatchType, fuzzy: bool) -> Self {
        let pattern = (match_type == MatchType::Pattern).then(|| Pattern::from_query(folded));
        Self::with(folded.to_string(), pattern, match_type, fuzzy)
    }

    fn with(query: String, pattern: Option<Pattern>, match_type: MatchType, fuzzy: bool) -> Self {
        let max_edits = if fuzzy && match_type.typo_distance().is_some() {
            allowed_edits(query.chars().count())
        } else {
            0
        };
        Self {
            query,
            pattern,
            match_type,
            max_edits,
            capitalised: None,
        }
    }

    /// The folded query (a pattern's folded text).
    pub fn query(&self) -> &str {
        &self.query
    }

    /// The parsed pattern of a `pattern` rule.
    pub fn pattern(&self) -> Option<&Pattern> {
        self.pattern.as_ref()
    }

    /// Whether the query folds to nothing (only combining marks): it
    /// matches nothing. A pattern always has letters.
    pub fn is_empty(&self) -> bool {
        self.query.is_empty()
    }
}

/// How a typo match was reached, the order of the tiers at one distance:
/// a headword that is the query with letters doubled or undoubled, a lemma
/// whose inflected form is, any other headword, a headword only reached by
/// an unlikely edit (by the match type's measure), a headword that the
/// query only adds letters to the end of, then a lemma reached through any
/// other inflected form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TypoKind {
    /// `finaly` → `finally`, `ocassion` → `occasion`: at most
    /// [`DOUBLING_CHANGES`] letters doubled or undoubled, the commonest
    /// misspelling there is, into a word its language's frequency list has
    /// (an unlisted `houss` is no likelier meant by `hous` than `house`).
    Doubling,
    /// `agreing` → `agreeing` → `agree`: the same, through a form.
    DoublingThroughForm,
    /// Any other headword at the distance, and at one edit a listed word
    /// that is the query with a letter moved 2 to [`MOVE_REACH`] places
    /// (`jstu` → `just`), whatever its distance.
    Other,
    /// `absail` → `assail` (`abseil` is `Other`), `movment` → `moment`
    /// (`movement` is `Other`): every alignment at the distance (with the
    /// whole word, or for a prefix search with a start of it) writes one
    /// Latin letter for another that is neither a vowel for a vowel nor of
    /// its sound group, or leaves out a consonant the query has
    /// (`oracle::needs_unlikely_edit`, `oracle::prefix_alignment`).
    /// Misspellings seldom do either: of the words an English search put
    /// first instead of the intended one at its distance, most did.
    UnlikelyEdit,
    /// `finaly` → `final`: a proper prefix of the query. Whoever typed
    /// letters past a word's end meant a longer one.
    PrefixOfQuery,
    ThroughForm,
}

/// The typo tiers of one distance, one per [`TypoKind`].
pub const TYPO_KINDS: usize = 6;

/// The most letters doubled or undoubled that make a [`TypoKind::Doubling`].
pub const DOUBLING_CHANGES: usize = 2;

/// The farthest a letter typed out of place is moved back to make a
/// [`TypoKind::Other`] match of one edit (`jstu` → `just`, `yatch` → `yacht`):
/// a move of one is a transposition, already one edit.
pub const MOVE_REACH: usize = 3;

/// The longest query (in characters) whose doublings are looked for: the
/// engine looks each spelling up, about n² of them.
pub const DOUBLING_QUERY_CHARS: usize = 24;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_the_error_lists_every_value() {
        for m in MatchType::ALL {
            assert_eq!(MatchType::from_name(m.name()), Some(m));
            assert_eq!(
                MatchType::parse(Some(&format!(" {} ", m.name()))).unwrap(),
                m
            );
        }
        assert_eq!(MatchType::parse(None).unwrap(), MatchType::Prefix);
        let err = MatchType::parse(Some("fuzzy")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "matchType must be one of exact, prefix, contains, pattern, soundsLike"
        );
        assert!(MatchType::parse(Some("")).is_err());
        assert!(MatchType::parse(Some("EXACT")).is_err());
    }
}
