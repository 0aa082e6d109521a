//! Matching and ranking of decisions.md over the postings of index partitions:
//! which postings match a query, in which order, after which filters.

use super::distance::{edit_distance, prefix_edit_distance};
use super::keys::allowed_edits;
use super::postings::{EntryId, Posting};
use crate::params::LangFilter;
use std::cmp::Ordering;
use std::collections::HashSet;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchType {
    Exact,
    Prefix,
    Contains,
}

/// A folded query and how it matches.
#[derive(Debug, Clone)]
pub struct MatchRule {
    pub query: String,
    chars: Vec<char>,
    pub match_type: MatchType,
    pub max_edits: usize,
}

impl MatchRule {
    /// `folded` must already be folded. Typo tolerance extends exact and prefix
    /// matching only, and only when `fuzzy`.
    pub fn new(folded: &str, match_type: MatchType, fuzzy: bool) -> Self {
        let chars: Vec<char> = folded.chars().collect();
        let max_edits = if fuzzy && match_type != MatchType::Contains {
            allowed_edits(chars.len())
        } else {
            0
        };
        Self {
            query: folded.to_string(),
            chars,
            match_type,
            max_edits,
        }
    }

    /// Where a headword ranks, or `None` if it does not match.
    pub fn rank(&self, folded: &str) -> Option<Rank> {
        let len = folded.chars().count();
        let literal = |tier| {
            Some(Rank {
                tier,
                distance: 0,
                len,
            })
        };
        if folded == self.query {
            return literal(Tier::Exact);
        }
        match self.match_type {
            MatchType::Contains if folded.contains(&self.query) => literal(Tier::Literal),
            MatchType::Prefix if folded.starts_with(&self.query) => literal(Tier::Literal),
            MatchType::Contains => None,
            MatchType::Exact | MatchType::Prefix => self.typo_rank(folded, len),
        }
    }

    fn typo_rank(&self, folded: &str, len: usize) -> Option<Rank> {
        let d = self.max_edits;
        if d == 0 {
            return None;
        }
        let n = self.chars.len();
        let exact = self.match_type == MatchType::Exact;
        // Cheap length bounds before the quadratic distance.
        if len + d < n || (exact && len > n + d) {
            return None;
        }
        let word: Vec<char> = folded.chars().collect();
        let distance = if exact {
            edit_distance(&self.chars, &word)
        } else {
            prefix_edit_distance(&self.chars, &word, d)
        };
        (distance <= d).then_some(Rank {
            tier: Tier::Typo,
            distance,
            len,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    Exact,
    /// Literal prefix or contains matches.
    Literal,
    Typo,
}

/// Ordered by tier, then edit distance (typos only), then headword length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rank {
    pub tier: Tier,
    pub distance: usize,
    pub len: usize,
}

/// The filters of search, autocomplete and suggestions.
#[derive(Debug, Clone, Default)]
pub struct Filters<'a> {
    pub lang: Option<&'a LangFilter>,
    pub source: Option<&'a str>,
    pub part_of_speech: Option<&'a str>,
    pub has_audio: bool,
}

impl Filters<'_> {
    pub fn admit(&self, p: &Posting<'_>) -> bool {
        self.source.is_none_or(|s| p.dictionary.id == s)
            && self.lang.is_none_or(|l| {
                l.matches(
                    &p.dictionary.source_lang,
                    p.dictionary.target_lang.as_deref(),
                )
            })
            && (!self.has_audio || p.has_audio)
            && self.part_of_speech.is_none_or(|want| {
                p.part_of_speech
                    .is_some_and(|have| have.trim().eq_ignore_ascii_case(want.trim()))
            })
    }
}

/// A matching posting and its rank.
#[derive(Debug, Clone, Copy)]
pub struct Ranked<'a> {
    pub rank: Rank,
    pub posting: Posting<'a>,
}

impl Ranked<'_> {
    /// The full order of decisions.md: rank, then alphabetically (folded), then
    /// dictionary id, then entry id. Total, so pages never repeat or skip.
    fn order(&self, other: &Self) -> Ordering {
        self.rank
            .cmp(&other.rank)
            .then_with(|| self.posting.folded.cmp(other.posting.folded))
            .then_with(|| self.posting.dictionary.id.cmp(&other.posting.dictionary.id))
            .then_with(|| self.posting.id.cmp(&other.posting.id))
    }
}

/// One page of matches and the exact number of all matches.
#[derive(Debug)]
pub struct Page<'a> {
    pub total: usize,
    pub items: Vec<Ranked<'a>>,
}

/// Matches, filters and orders `postings`, and cuts the page
/// `offset..offset + limit`. The same entry may come from several partitions;
/// it is counted once.
pub fn rank_page<'a>(
    postings: impl Iterator<Item = Posting<'a>>,
    rule: &MatchRule,
    filters: &Filters<'_>,
    offset: usize,
    limit: usize,
) -> Page<'a> {
    let mut seen: HashSet<(&'a str, EntryId<'a>)> = HashSet::new();
    let mut matches: Vec<Ranked<'a>> = postings
        .filter(|p| filters.admit(p))
        .filter_map(|posting| {
            rule.rank(posting.folded)
                .map(|rank| Ranked { rank, posting })
        })
        .filter(|r| seen.insert((r.posting.dictionary.id.as_str(), r.posting.id)))
        .collect();
    let total = matches.len();
    let end = (offset + limit).min(total);
    if offset >= total {
        return Page {
            total,
            items: Vec::new(),
        };
    }
    // Only the first `end` need sorting: select them, then sort that head.
    if end < total {
        matches.select_nth_unstable_by(end, Ranked::order);
        matches.truncate(end);
    }
    matches.sort_unstable_by(Ranked::order);
    Page {
        total,
        items: matches.split_off(offset),
    }
}

/// Autocomplete: distinct headwords starting literally with `prefix` (folded),
/// alphabetical by folded form (then by the headword itself), at most `limit`.
pub fn autocomplete<'a>(
    postings: impl Iterator<Item = Posting<'a>>,
    prefix: &str,
    filters: &Filters<'_>,
    limit: usize,
) -> Vec<String> {
    let mut words: Vec<(&'a str, &'a str)> = postings
        .filter(|p| p.folded.starts_with(prefix) && filters.admit(p))
        .map(|p| (p.folded, p.word))
        .collect();
    words.sort_unstable();
    words.dedup_by(|a, b| a.1 == b.1);
    // Equal words always fold equally, so after sorting by (folded, word)
    // duplicates are neighbours.
    words
        .into_iter()
        .take(limit)
        .map(|(_, word)| word.to_string())
        .collect()
}

/// Distinct headwords of the best matches, for "did you mean" suggestions.
pub fn distinct_words(page: &Page<'_>, limit: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in &page.items {
        if out.len() == limit {
            break;
        }
        if !out.iter().any(|w| w == r.posting.word) {
            out.push(r.posting.word.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::postings::DictionaryRef;

    fn dict(id: &str, source: &str, target: Option<&str>) -> DictionaryRef {
        DictionaryRef {
            id: id.into(),
            source_lang: source.into(),
            target_lang: target.map(Into::into),
        }
    }

    fn posting<'a>(folded: &'a str, d: &'a DictionaryRef, id: &'a str) -> Posting<'a> {
        Posting {
            folded,
            word: folded,
            dictionary: d,
            part_of_speech: None,
            has_audio: false,
            id: EntryId::Text(id),
        }
    }

    fn words(page: &Page<'_>) -> Vec<String> {
        page.items
            .iter()
            .map(|r| r.posting.folded.to_string())
            .collect()
    }

    #[test]
    fn exact_then_literal_by_length_then_typos_by_distance() {
        let d = dict("d", "en", None);
        let list = [
            "houses",
            "house",
            "household",
            "hose",
            "mouse",
            "housing",
            "houser",
            "hous",
            "horse",
        ];
        let postings: Vec<Posting> = list.iter().map(|w| posting(w, &d, w)).collect();
        let rule = MatchRule::new("house", MatchType::Prefix, true);
        let page = rank_page(postings.iter().copied(), &rule, &Filters::default(), 0, 20);
        assert_eq!(
            words(&page),
            [
                "house",
                "houser",
                "houses",
                "household",
                "hose",
                "hous",
                "horse",
                "mouse",
                "housing"
            ]
        );
        assert_eq!(
            page.total, 9,
            "housing: its prefix housi is 1 edit from house"
        );
    }

    #[test]
    fn exact_mode_keeps_only_equal_and_typo_headwords() {
        let d = dict("d", "en", None);
        let list = ["house", "houses", "household", "hose"];
        let postings: Vec<Posting> = list.iter().map(|w| posting(w, &d, w)).collect();
        let rule = MatchRule::new("house", MatchType::Exact, true);
        let page = rank_page(postings.iter().copied(), &rule, &Filters::default(), 0, 20);
        assert_eq!(words(&page), ["house", "hose", "houses"]);
        let literal = MatchRule::new("house", MatchType::Exact, false);
        let page = rank_page(
            postings.iter().copied(),
            &literal,
            &Filters::default(),
            0,
            20,
        );
        assert_eq!(words(&page), ["house"]);
    }

    #[test]
    fn pages_are_cut_after_ordering_and_duplicates_count_once() {
        let d1 = dict("a", "en", Some("fr"));
        let d2 = dict("b", "en", None);
        let mut postings = Vec::new();
        for (i, w) in ["cab", "ca", "cat", "car"].iter().enumerate() {
            postings.push(posting(w, &d2, ["1", "2", "3", "4"][i]));
            postings.push(posting(w, &d1, ["5", "6", "7", "8"][i]));
        }
        postings.push(posting("ca", &d1, "6"));
        let rule = MatchRule::new("ca", MatchType::Prefix, true);
        let all = rank_page(postings.iter().copied(), &rule, &Filters::default(), 0, 100);
        assert_eq!(all.total, 8);
        let order: Vec<String> = all
            .items
            .iter()
            .map(|r| format!("{}:{}", r.posting.folded, r.posting.dictionary.id))
            .collect();
        assert_eq!(
            order,
            ["ca:a", "ca:b", "cab:a", "cab:b", "car:a", "car:b", "cat:a", "cat:b"]
        );
        let page = rank_page(postings.iter().copied(), &rule, &Filters::default(), 3, 2);
        assert_eq!(page.total, 8);
        let cut: Vec<String> = page
            .items
            .iter()
            .map(|r| format!("{}:{}", r.posting.folded, r.posting.dictionary.id))
            .collect();
        assert_eq!(cut, order[3..5]);
    }

    #[test]
    fn filters_by_language_source_pos_and_audio() {
        let fr_en = dict("fr-en", "fr", Some("en"));
        let en = dict("en", "en", None);
        let mut with_audio = posting("chat", &fr_en, "1");
        with_audio.has_audio = true;
        with_audio.part_of_speech = Some("Noun");
        let postings = [with_audio, posting("chat", &en, "2")];
        let rule = MatchRule::new("chat", MatchType::Exact, false);
        let count = |f: Filters| rank_page(postings.iter().copied(), &rule, &f, 0, 10).total;
        let fr = LangFilter::parse("fr").unwrap();
        let fr_de = LangFilter::parse("fr-de").unwrap();
        assert_eq!(count(Filters::default()), 2);
        assert_eq!(
            count(Filters {
                lang: Some(&fr),
                ..Default::default()
            }),
            1
        );
        assert_eq!(
            count(Filters {
                lang: Some(&fr_de),
                ..Default::default()
            }),
            0
        );
        assert_eq!(
            count(Filters {
                source: Some("en"),
                ..Default::default()
            }),
            1
        );
        assert_eq!(
            count(Filters {
                has_audio: true,
                ..Default::default()
            }),
            1
        );
        assert_eq!(
            count(Filters {
                part_of_speech: Some("noun"),
                ..Default::default()
            }),
            1
        );
        assert_eq!(
            count(Filters {
                part_of_speech: Some("verb"),
                ..Default::default()
            }),
            0
        );
    }

    #[test]
    fn autocomplete_is_distinct_and_alphabetical_by_folded_form() {
        let d1 = dict("a", "fr", Some("en"));
        let d2 = dict("b", "fr", None);
        let mut ecole = posting("ecole", &d1, "1");
        ecole.word = "école";
        let mut ecole2 = ecole;
        ecole2.dictionary = &d2;
        let postings = [
            posting("ecrire", &d1, "2"),
            ecole,
            ecole2,
            posting("ecart", &d2, "3"),
        ];
        let got = autocomplete(postings.iter().copied(), "ec", &Filters::default(), 10);
        assert_eq!(got, ["ecart", "école", "ecrire"]);
        assert_eq!(
            autocomplete(postings.iter().copied(), "ec", &Filters::default(), 1),
            ["ecart"]
        );
    }
}
