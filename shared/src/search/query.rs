//! Search, autocomplete and random over an in-memory [`Index`]: the rules of
//! decisions.md ("Matching and ranking") as set operations on ordinals.
//!
//! A search's matches fall into tiers that never overlap: the exact term,
//! then literal matches (prefix or contains), then typo matches by edit
//! distance. Within a tier the order is the ordinal order, so each tier is a
//! bitmap, a filter is an intersection, `total` is a sum of cardinalities and
//! a page is a run of set bits.

use super::codec::CorruptData;
use super::rank::{Filters, MatchRule, MatchType};
use super::snapshot::{Grams, Index, GRAM_CHARS};
use fst::{Automaton, IntoStreamer, Streamer};
use levenshtein_automata::{Distance, LevenshteinAutomatonBuilder};
use rand::Rng;
use roaring::RoaringBitmap;
use std::sync::{Arc, OnceLock};

/// Filter bitmaps kept per instance: a handful of filter combinations make up
/// most traffic, and a bitmap is at most a few hundred KB.
const FILTER_CACHE: usize = 64;

/// One page of matches (ordinals, in order) and the number of all matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hits {
    pub total: usize,
    pub ordinals: Vec<u32>,
}

/// Levenshtein automaton builders for 1 and 2 edits, transpositions costing
/// one (the distance of decisions.md). Building one takes milliseconds, so
/// each is built once per process.
fn automaton_builder(edits: usize) -> &'static LevenshteinAutomatonBuilder {
    static BUILDERS: OnceLock<[LevenshteinAutomatonBuilder; 2]> = OnceLock::new();
    let builders = BUILDERS.get_or_init(|| {
        [
            LevenshteinAutomatonBuilder::new(1, true),
            LevenshteinAutomatonBuilder::new(2, true),
        ]
    });
    &builders[edits.clamp(1, 2) - 1]
}

impl Index {
    /// The matches of `rule` that pass `filters`, and the page
    /// `offset..offset + limit`. A `contains` search needs `grams`.
    pub fn search(
        &self,
        grams: Option<&Grams>,
        rule: &MatchRule,
        filters: &Filters<'_>,
        offset: usize,
        limit: usize,
    ) -> Result<Hits, CorruptData> {
        let admitted = self.admitted(filters);
        let mut tiers = self.tiers(grams, rule, admitted.as_deref())?;
        if let Some(admitted) = &admitted {
            for tier in &mut tiers {
                *tier &= admitted.as_ref();
            }
        }
        let total = tiers.iter().map(|t| t.len() as usize).sum();
        let mut skip = offset;
        let mut ordinals = Vec::with_capacity(limit.min(total));
        for tier in &tiers {
            if ordinals.len() == limit {
                break;
            }
            let len = tier.len() as usize;
            if skip >= len {
                skip -= len;
                continue;
            }
            let first = tier.select(skip as u32).expect("skip is below the length");
            ordinals.extend(tier.range(first..).take(limit - ordinals.len()));
            skip = 0;
        }
        Ok(Hits { total, ordinals })
    }

    /// The tiers of a query, unfiltered (a filter may only narrow the
    /// candidates that a `contains` query has to check).
    fn tiers(
        &self,
        grams: Option<&Grams>,
        rule: &MatchRule,
        admitted: Option<&RoaringBitmap>,
    ) -> Result<Vec<RoaringBitmap>, CorruptData> {
        let exact_term = self.terms.get(&rule.query).map(|t| t as usize);
        let mut exact = RoaringBitmap::new();
        if let Some(t) = exact_term {
            exact.insert_range(self.term_entries(t));
        }
        let literal = match rule.match_type {
            MatchType::Exact => RoaringBitmap::new(),
            MatchType::Prefix => self.longer_with_prefix(&rule.query),
            MatchType::Contains => {
                let grams = grams.ok_or(CorruptData("contains search without its grams"))?;
                let mut found = self.containing(grams, &rule.query, admitted)?;
                found -= &exact;
                found
            }
        };
        let mut tiers = vec![exact, literal];
        if rule.max_edits > 0 && rule.match_type != MatchType::Contains {
            tiers.extend(self.typos(rule));
        }
        Ok(tiers)
    }

    /// Entries whose term starts with `prefix` and is longer. Terms are
    /// numbered by length, then alphabetically, so within each length those
    /// with the prefix are one run of terms, and so one run of ordinals.
    fn longer_with_prefix(&self, prefix: &str) -> RoaringBitmap {
        let mut found = RoaringBitmap::new();
        let min_chars = prefix.chars().count() + 1;
        let classes = self.length_starts.len() - 1;
        for chars in min_chars..classes {
            let (start, end) = (
                self.length_starts[chars] as usize,
                self.length_starts[chars + 1] as usize,
            );
            if start == end {
                continue;
            }
            let below = |t: usize| self.term(t) < prefix;
            let within = |t: usize| below(t) || self.term(t).starts_with(prefix);
            let lo = start + partition_point(end - start, |i| below(start + i));
            let hi = start + partition_point(end - start, |i| within(start + i));
            if lo < hi {
                found.insert_range(self.term_first[lo]..self.term_first[hi]);
            }
        }
        found
    }

    /// Entries whose term contains `needle`: its own bitmap up to three
    /// characters; longer, the entries that hold all its trigrams, checked.
    fn containing(
        &self,
        grams: &Grams,
        needle: &str,
        admitted: Option<&RoaringBitmap>,
    ) -> Result<RoaringBitmap, CorruptData> {
        let chars: Vec<(usize, char)> = needle.char_indices().collect();
        if chars.len() <= GRAM_CHARS {
            return Ok(grams.entries(needle)?.unwrap_or_default());
        }
        let mut trigrams: Vec<&str> = (0..=chars.len() - GRAM_CHARS)
            .map(|i| {
                let end = chars.get(i + GRAM_CHARS).map_or(needle.len(), |c| c.0);
                &needle[chars[i].0..end]
            })
            .collect();
        trigrams.sort_unstable();
        trigrams.dedup();
        let mut candidates: Option<RoaringBitmap> = admitted.cloned();
        let mut bitmaps = Vec::new();
        for gram in trigrams {
            match grams.entries(gram)? {
                Some(b) => bitmaps.push(b),
                None => return Ok(RoaringBitmap::new()),
            }
        }
        bitmaps.sort_by_key(RoaringBitmap::len);
        for b in bitmaps {
            candidates = Some(match candidates {
                Some(c) => c & b,
                None => b,
            });
        }
        let candidates = candidates.unwrap_or_default();
        // Candidates come in ordinal order, so terms are checked once each.
        let mut found = RoaringBitmap::new();
        let mut current: Option<(usize, bool)> = None;
        for ordinal in &candidates {
            let t = match current {
                Some((t, _)) if self.term_first[t + 1] > ordinal => t,
                _ => self.term_of(ordinal),
            };
            let matches = match current {
                Some((ct, m)) if ct == t => m,
                _ => self.term(t).contains(needle),
            };
            current = Some((t, matches));
            if matches {
                found.insert(ordinal);
            }
        }
        Ok(found)
    }

    /// Typo matches, one bitmap per edit distance from 1 up: the terms a
    /// Levenshtein automaton accepts, walked over the term FST.
    fn typos(&self, rule: &MatchRule) -> Vec<RoaringBitmap> {
        let builder = automaton_builder(rule.max_edits);
        let dfa = match rule.match_type {
            MatchType::Prefix => builder.build_prefix_dfa(&rule.query),
            _ => builder.build_dfa(&rule.query),
        };
        let mut by_distance: Vec<Vec<u32>> = vec![Vec::new(); rule.max_edits];
        let mut stream = self.terms.search_with_state(&dfa).into_stream();
        while let Some((_, t, state)) = stream.next() {
            if let Distance::Exact(d) = dfa.distance(state) {
                let d = usize::from(d);
                if (1..=rule.max_edits).contains(&d) {
                    by_distance[d - 1].push(t as u32);
                }
            }
        }
        by_distance
            .into_iter()
            .map(|mut terms| {
                terms.sort_unstable();
                let mut tier = RoaringBitmap::new();
                for t in terms {
                    tier.insert_range(self.term_entries(t as usize));
                }
                tier
            })
            .collect()
    }

    /// Autocomplete: distinct headwords whose term starts with `prefix`,
    /// alphabetical by term, then by headword; at most `limit`.
    pub fn autocomplete(&self, prefix: &str, filters: &Filters<'_>, limit: usize) -> Vec<String> {
        let admitted = self.admitted(filters);
        let mut words: Vec<String> = Vec::new();
        let mut stream = self
            .terms
            .search(fst::automaton::Str::new(prefix).starts_with())
            .into_stream();
        while let Some((_, t)) = stream.next() {
            if words.len() >= limit {
                break;
            }
            let range = self.term_entries(t as usize);
            let mut here: Vec<&str> = match &admitted {
                Some(a) if a.range_cardinality(range.clone()) == 0 => continue,
                Some(a) => a.range(range).map(|o| self.word(o)).collect(),
                None => range.map(|o| self.word(o)).collect(),
            };
            here.sort_unstable();
            here.dedup();
            words.extend(here.into_iter().map(str::to_string));
        }
        words.truncate(limit);
        words
    }

    /// `count` distinct entries drawn uniformly from those that pass the
    /// filters (fewer when fewer pass).
    pub fn random(&self, filters: &Filters<'_>, count: usize, rng: &mut impl Rng) -> Vec<u32> {
        let admitted = self.admitted(filters);
        let pool = admitted
            .as_ref()
            .map_or(u64::from(self.entries()), |a| a.len());
        let amount = count.min(pool as usize);
        rand::seq::index::sample(rng, pool as usize, amount)
            .into_iter()
            .filter_map(|n| match &admitted {
                Some(a) => a.select(n as u32),
                None => Some(n as u32),
            })
            .collect()
    }

    /// The entries that pass the filters, or `None` when every entry does.
    /// Cached per combination of filters.
    pub(super) fn admitted(&self, filters: &Filters<'_>) -> Option<Arc<RoaringBitmap>> {
        if filters.is_empty() {
            return None;
        }
        let key = format!("{filters:?}");
        if let Some(hit) = self.filter_cache.lock().expect("not poisoned").get(&key) {
            return Some(hit.clone());
        }
        let mut sets: Vec<RoaringBitmap> = Vec::new();
        if filters.lang.is_some() || filters.source.is_some() {
            sets.push(
                self.dictionaries
                    .iter()
                    .zip(&self.by_dictionary)
                    .filter(|(d, _)| filters.admit_dictionary(d))
                    .map(|(_, b)| b)
                    .fold(RoaringBitmap::new(), |acc, b| acc | b),
            );
        }
        if let Some(want) = filters.part_of_speech {
            sets.push(
                self.parts
                    .iter()
                    .zip(&self.by_part)
                    .filter(|(have, _)| have.trim().eq_ignore_ascii_case(want.trim()))
                    .map(|(_, b)| b)
                    .fold(RoaringBitmap::new(), |acc, b| acc | b),
            );
        }
        if filters.has_audio {
            sets.push(self.audio.clone());
        }
        sets.sort_by_key(RoaringBitmap::len);
        let mut sets = sets.into_iter();
        let first = sets.next().unwrap_or_default();
        let admitted = Arc::new(sets.fold(first, |acc, b| acc & b));
        let mut cache = self.filter_cache.lock().expect("not poisoned");
        if cache.len() >= FILTER_CACHE {
            cache.clear();
        }
        cache.insert(key, admitted.clone());
        Some(admitted)
    }
}

/// The first `i` in `0..n` for which `pred` is false (`pred` must be true
/// for a prefix of `0..n` and false after it).
fn partition_point(n: usize, pred: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}
