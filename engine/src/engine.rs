//! Search, autocomplete and random over an in-memory [`Index`]: the rules of
//! docs/api.md ("Matching and ranking", "Inflected forms") as set operations
//! on ordinals.
//!
//! A search's matches fall into tiers that never overlap: the exact term
//! (split in two: the headwords capitalised as the query was typed, then
//! the others), then literal matches (prefix, contains or a wildcard pattern, whose
//! matches are all in this tier), then the lemmas of the query as an
//! inflected form, then typo matches by edit distance, of headwords and of
//! inflected forms (whose lemmas match) alike (and, when those find fewer
//! than [`EXTRA_EDIT_BELOW`] headwords, those one edit further).
//! Within a tier the order is the ordinal order, so each tier is a bitmap, a
//! filter is an intersection, `total` is a sum of cardinalities and a page is
//! a run of set bits.

use super::codec::CorruptData;
use super::filters::Filters;
use super::matching::{MatchRule, MatchType, TypoDistance, EXTRA_EDIT_BELOW, EXTRA_EDIT_FROM};
use super::pattern::{self, Nfa, Pattern, Plan};
use super::snapshot::{query_grams, Grams, Index, GRAM_CHARS};
use super::typo::{self, Anchor, Mode};
use crate::fold::capitalised_as;
use fst::{Automaton, IntoStreamer, Streamer};
use levenshtein_automata::{Distance, LevenshteinAutomatonBuilder, DFA, SINK_STATE};
use rand::Rng;
use roaring::RoaringBitmap;
use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

/// Filter bitmaps kept per instance: a handful of filter combinations make up
/// most traffic, and a bitmap is at most a few hundred KB.
const FILTER_CACHE: usize = 64;
/// Prefixes of up to this many characters keep their literal matches in the
/// instance: they are the few prefixes with the most terms.
const CACHED_PREFIX_CHARS: usize = 2;

/// FST nodes a search's typo walks may read (see [`SearchError::TooBroad`]).
pub const WORK_BUDGET: u64 = 1_000_000;

/// One page of matches (ordinals, in order), the number of all matches and
/// the FST nodes its typo walks read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hits {
    pub total: usize,
    pub ordinals: Vec<u32>,
    pub work: u64,
}

/// How the typo tiers are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypoWalk {
    /// The walk of `typo.rs`, whose cost follows the query: what search uses.
    Rows,
    /// A Levenshtein automaton over the whole term FST, as before: kept as
    /// the baseline of the typo benchmark and a second reference for tests.
    Automaton,
}

/// Levenshtein automaton builders for 1 to 3 edits (3 only as the extra
/// edit of a long query), transpositions costing one (the distance of
/// docs/api.md). Building one takes up to 25 ms (3 edits), so each is built
/// once per process, when first needed.
fn automaton_builder(edits: usize) -> &'static LevenshteinAutomatonBuilder {
    static BUILDERS: [OnceLock<LevenshteinAutomatonBuilder>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let edits = edits.clamp(1, 3);
    BUILDERS[edits - 1].get_or_init(|| LevenshteinAutomatonBuilder::new(edits as u8, true))
}

fn exact_distance(dfa: &DFA, state: u32) -> Option<u8> {
    match dfa.distance(state) {
        Distance::Exact(d) => Some(d),
        Distance::AtLeast(_) => None,
    }
}

/// A Levenshtein DFA run over terms in prefix mode: a term's distance is the
/// smallest distance between the query and any of its prefixes (docs/api.md:
/// for `prefix`, the edits apply to the prefix). The state is the DFA's and
/// the best distance of a prefix so far. (The crate's own prefix DFA
/// misses some prefixes once the query is used up: `edaeae` is 2 edits from
/// `eaae`, a prefix of `eaaec`, which it puts at 3.)
struct PrefixDistance<'a>(&'a DFA);

impl fst::Automaton for PrefixDistance<'_> {
    type State = (u32, Option<u8>);

    fn start(&self) -> Self::State {
        let state = self.0.initial_state();
        (state, exact_distance(self.0, state))
    }

    fn is_match(&self, state: &Self::State) -> bool {
        state.1.is_some()
    }

    fn can_match(&self, state: &Self::State) -> bool {
        state.1.is_some() || state.0 != SINK_STATE
    }

    fn accept(&self, state: &Self::State, byte: u8) -> Self::State {
        let next = self.0.transition(state.0, byte);
        let here = exact_distance(self.0, next);
        let best = match (state.1, here) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        (next, best)
    }
}

/// Why a search has no answer.
#[derive(Debug, PartialEq)]
pub enum SearchError {
    Corrupt(CorruptData),
    /// Its typo walks would read more than [`WORK_BUDGET`] nodes.
    OverBudget,
}

impl From<CorruptData> for SearchError {
    fn from(e: CorruptData) -> Self {
        SearchError::Corrupt(e)
    }
}

/// The typo walks of one search and what they have read.
struct Typos {
    walk: TypoWalk,
    work: u64,
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
    ) -> Result<Hits, SearchError> {
        self.search_with(TypoWalk::Rows, grams, rule, filters, offset, limit)
    }

    /// [`Index::search`] with the typo tiers found by `walk`.
    pub fn search_with(
        &self,
        walk: TypoWalk,
        grams: Option<&Grams>,
        rule: &MatchRule,
        filters: &Filters<'_>,
        offset: usize,
        limit: usize,
    ) -> Result<Hits, SearchError> {
        let mut typos = Typos { walk, work: 0 };
        let admitted = self.admitted(filters);
        let mut tiers = self.tiers(grams, rule, admitted.as_deref(), &mut typos)?;
        if let Some(admitted) = &admitted {
            for tier in &mut tiers {
                *tier &= admitted.as_ref();
            }
        }
        if rule.max_edits > 0
            && rule.query.chars().count() >= EXTRA_EDIT_FROM
            && self.has_fewer_terms(&tiers, EXTRA_EDIT_BELOW)
        {
            let mut further = self
                .typos(grams, rule, rule.max_edits + 1, &mut typos)?
                .pop()
                .expect("one bitmap per distance");
            for tier in &tiers {
                further -= tier;
            }
            if let Some(admitted) = &admitted {
                further &= admitted.as_ref();
            }
            tiers.push(further);
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
        Ok(Hits {
            total,
            ordinals,
            work: typos.work,
        })
    }

    /// The tiers of a query, unfiltered (a filter may only narrow the
    /// candidates that a `contains` query has to check): exact (as typed,
    /// then the rest: [`Index::by_capitalisation`]), literal, lemma, then
    /// one per edit distance.
    fn tiers(
        &self,
        grams: Option<&Grams>,
        rule: &MatchRule,
        admitted: Option<&RoaringBitmap>,
        typos: &mut Typos,
    ) -> Result<Vec<RoaringBitmap>, SearchError> {
        let mut exact = RoaringBitmap::new();
        if let Some(t) = self
            .term_number(&rule.query)
            .filter(|_| rule.match_type.has_exact_tier())
        {
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
            MatchType::Pattern => {
                let pattern = Pattern::from_query(&rule.query);
                self.matching_pattern(grams, &pattern, admitted, typos)?
            }
        };
        let mut lemma = RoaringBitmap::new();
        if rule.match_type.has_lemma_tier() {
            for l in self.lemmas(&rule.query) {
                lemma |= self.lemma_entries(l);
            }
            // A lemma may itself start with the query (`a` is a form of
            // French `avoir`): it stays a literal match.
            lemma -= &exact;
            lemma -= &literal;
        }
        let [typed, rest] = self.by_capitalisation(exact, rule.capitalised);
        let mut tiers = vec![typed, rest, literal, lemma];
        if rule.max_edits > 0 && rule.match_type.typo_distance().is_some() {
            for mut found in self.typos(grams, rule, rule.max_edits, typos)? {
                // An entry appears once, in its best tier: a headword's own
                // distance is never 0 here, but a lemma reached through a
                // form may be an exact, literal or lemma match, or a closer
                // typo.
                for tier in &tiers {
                    found -= tier;
                }
                tiers.push(found);
            }
        }
        Ok(tiers)
    }

    /// The exact tier in two: the entries whose headword is capitalised as
    /// the query was typed, then the others (`Lodz` lists the city `Łódź`
    /// before the boat `łódź`, `lodz` the boat first), each part in ordinal
    /// order; all in the first when the query's first letter has no case.
    fn by_capitalisation(
        &self,
        mut exact: RoaringBitmap,
        typed: Option<bool>,
    ) -> [RoaringBitmap; 2] {
        if typed.is_none() {
            return [exact, RoaringBitmap::new()];
        }
        let rest: RoaringBitmap = exact
            .iter()
            .filter(|&o| !capitalised_as(self.word(o), typed))
            .collect();
        exact -= &rest;
        [exact, rest]
    }

    /// Whether some term can be within `edits` of the query: a query longer
    /// than the longest term by more than that is not (a long string of
    /// garbage builds no automaton and walks nothing).
    fn within_reach(&self, rule: &MatchRule, edits: usize) -> bool {
        rule.query.chars().count() <= self.longest_term_chars() + edits
    }

    /// Whether the tiers hold fewer than `n` distinct terms.
    fn has_fewer_terms(&self, tiers: &[RoaringBitmap], n: usize) -> bool {
        let mut seen = HashSet::new();
        for tier in tiers {
            let mut next = tier.min();
            while let Some(ordinal) = next {
                let t = self.term_of(ordinal);
                seen.insert(t);
                if seen.len() >= n {
                    return false;
                }
                next = tier.range(self.term_first[t + 1]..).next();
            }
        }
        true
    }

    /// Entries whose term starts with `prefix` and is longer: the terms the
    /// FST lists under the prefix. Short prefixes have the most terms, so
    /// their sets are kept for the next request.
    fn longer_with_prefix(&self, prefix: &str) -> RoaringBitmap {
        let cached = prefix.chars().count() <= CACHED_PREFIX_CHARS;
        if cached {
            if let Some(hit) = self.prefix_cache.lock().expect("not poisoned").get(prefix) {
                return hit.as_ref().clone();
            }
        }
        let mut terms: Vec<u32> = Vec::new();
        let mut stream = self
            .terms
            .search(fst::automaton::Str::new(prefix).starts_with())
            .into_stream();
        while let Some((term, t)) = stream.next() {
            if term.len() > prefix.len() {
                terms.push(t as u32);
            }
        }
        terms.sort_unstable();
        let found = RoaringBitmap::from_sorted_iter(
            terms
                .into_iter()
                .flat_map(|t| self.term_entries(t as usize)),
        )
        .expect("terms are distinct ranges in order");
        // Only prefixes of some term are kept, so the cache holds at most
        // every entry twice over (its 1- and 2-character prefix), whatever
        // queries arrive.
        if cached && !found.is_empty() {
            self.prefix_cache
                .lock()
                .expect("not poisoned")
                .insert(prefix.to_string(), Arc::new(found.clone()));
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
        if needle.chars().count() <= GRAM_CHARS {
            return Ok(grams.entries(needle)?.unwrap_or_default());
        }
        let candidates = holding_all(grams, &query_grams(needle), admitted)?;
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

    /// Entries whose term matches a wildcard pattern, found as its
    /// [`Plan`] says: a walk of the terms FST (or of the backwards one, with
    /// the pattern reversed) by the pattern's automaton, or the terms that
    /// hold the grams of its letters, each checked. The transitions a walk
    /// reads, or the terms checked, count against the work budget.
    fn matching_pattern(
        &self,
        grams: Option<&Grams>,
        pattern: &Pattern,
        admitted: Option<&RoaringBitmap>,
        typos: &mut Typos,
    ) -> Result<RoaringBitmap, SearchError> {
        let budget = WORK_BUDGET.saturating_sub(typos.work);
        let (fst, nfa) = match pattern.plan() {
            Plan::Forwards => (&self.terms, pattern.nfa()),
            Plan::Backwards => (&self.reversed, pattern.reversed().nfa()),
            Plan::Grams(list) => {
                let grams = grams.ok_or(CorruptData("pattern search without its grams"))?;
                return self.checked_pattern(grams, &list, &pattern.nfa(), admitted, typos);
            }
        };
        let mut found = pattern::walk(fst, &nfa, budget);
        typos.work += found.work;
        if found.exhausted {
            return Err(SearchError::OverBudget);
        }
        found.terms.sort_unstable();
        Ok(RoaringBitmap::from_sorted_iter(
            found
                .terms
                .into_iter()
                .flat_map(|t| self.term_entries(t as usize)),
        )
        .expect("terms are distinct ranges in order"))
    }

    /// The entries that hold every gram of `list` (and pass `admitted`)
    /// whose term `nfa` matches; each distinct term checked counts one
    /// against the budget.
    fn checked_pattern(
        &self,
        grams: &Grams,
        list: &[String],
        nfa: &Nfa,
        admitted: Option<&RoaringBitmap>,
        typos: &mut Typos,
    ) -> Result<RoaringBitmap, SearchError> {
        let list: Vec<&str> = list.iter().map(String::as_str).collect();
        let candidates = holding_all(grams, &list, admitted)?;
        let mut found = RoaringBitmap::new();
        self.each_candidate_term(&candidates, typos, |t| {
            // Every entry of a term matches with it (the filters apply later).
            if nfa.matches(self.term(t)) {
                found.insert_range(self.term_entries(t));
            }
        })?;
        Ok(found)
    }

    /// Typo matches within `max_edits`, one bitmap per edit distance from 1
    /// up: the entries of the terms at that distance (by the match type's
    /// measure), and the lemmas of the inflected forms whose whole word is
    /// at that distance, in the dictionaries of the form's language
    /// (`attched` → `attached` → `attach`). A lemma reached through a form
    /// may match in an earlier tier as well: the caller keeps it there.
    fn typos(
        &self,
        grams: Option<&Grams>,
        rule: &MatchRule,
        max_edits: usize,
        typos: &mut Typos,
    ) -> Result<Vec<RoaringBitmap>, SearchError> {
        let mut tiers = vec![RoaringBitmap::new(); max_edits];
        let Some(measure) = rule.match_type.typo_distance() else {
            return Ok(tiers);
        };
        let query: Vec<char> = rule.query.chars().collect();
        if self.within_reach(rule, max_edits) {
            let found = match typos.walk {
                TypoWalk::Rows => match measure {
                    TypoDistance::Prefix => self.prefix_typos(grams, &query, max_edits, typos)?,
                    TypoDistance::Whole => {
                        whole_word_typos(&self.terms, &self.reversed, &query, max_edits, typos)?
                    }
                },
                TypoWalk::Automaton => {
                    automaton_typos(&self.terms, &rule.query, max_edits, measure)
                }
            };
            let mut by_distance: Vec<Vec<u32>> = vec![Vec::new(); max_edits];
            for (t, d) in found {
                by_distance[usize::from(d) - 1].push(t as u32);
            }
            for (tier, mut terms) in tiers.iter_mut().zip(by_distance) {
                terms.sort_unstable();
                *tier = RoaringBitmap::from_sorted_iter(
                    terms
                        .into_iter()
                        .flat_map(|t| self.term_entries(t as usize)),
                )
                .expect("terms are distinct ranges in order");
            }
        }
        // A form is a whole word: its distance is the whole word's, whatever
        // the match type (`runnin` is a prefix of no form's lemma, but one
        // edit from `running`).
        if rule.match_type.has_lemma_tier() && self.form_within_reach(query.len(), max_edits) {
            let (forwards, backwards) = self.form_fsts();
            let whole = TypoDistance::Whole;
            let found = match typos.walk {
                TypoWalk::Rows => whole_word_typos(forwards, backwards, &query, max_edits, typos)?,
                TypoWalk::Automaton => automaton_typos(forwards, &rule.query, max_edits, whole),
            };
            for (at, d) in found {
                for lemma in self.lemmas_at(at)? {
                    tiers[usize::from(d) - 1] |= self.lemma_entries(lemma);
                }
            }
        }
        Ok(tiers)
    }
    /// The terms whose start is within `max_edits` of the query, with their
    /// distance. With two or three edits and a long enough query, anchored
    /// ([`typo::prefix_split`]): a walk that follows only the terms whose
    /// start is within one edit of the query's head, and the terms that
    /// hold one of the pieces after it unchanged where it can stand, each
    /// measured (one unit of work each); else one walk.
    fn prefix_typos(
        &self,
        grams: Option<&Grams>,
        query: &[char],
        max_edits: usize,
        typos: &mut Typos,
    ) -> Result<Vec<(u64, u8)>, SearchError> {
        let Some(split) = typo::prefix_split(query.len(), max_edits) else {
            return budgeted_walk(&self.terms, query, max_edits, Mode::Prefix, None, typos);
        };
        let grams = grams.ok_or(CorruptData("prefix typo search without its grams"))?;
        let anchor = Anchor {
            chars: split.head,
            edits: 1,
        };
        let mut found = budgeted_walk(
            &self.terms,
            query,
            max_edits,
            Mode::Prefix,
            Some(anchor),
            typos,
        )?;
        let mut candidates = RoaringBitmap::new();
        for piece in &split.pieces {
            let text: String = query[piece.clone()].iter().collect();
            candidates |= holding_all(grams, &query_grams(&text), None)?;
        }
        let max = max_edits as u8;
        let mut chars = Vec::new();
        self.each_candidate_term(&candidates, typos, |t| {
            chars.clear();
            chars.extend(self.term(t).chars());
            // A piece starts where it starts in the query, moved by at most
            // one character per edit.
            let holds = |piece: &std::ops::Range<usize>| {
                let wanted = &query[piece.clone()];
                (piece.start.saturating_sub(max_edits)..=piece.start + max_edits)
                    .any(|s| chars.get(s..s + wanted.len()) == Some(wanted))
            };
            if split.pieces.iter().any(holds) {
                if let Some(d) = typo::prefix_distance(query, &chars, max).filter(|&d| d > 0) {
                    found.push((t as u64, d));
                }
            }
        })?;
        found.sort_unstable();
        found.dedup();
        Ok(found)
    }

    /// Calls `visit` with each distinct term of the candidate entries, in
    /// order, counting one unit of work each against the budget.
    fn each_candidate_term(
        &self,
        candidates: &RoaringBitmap,
        typos: &mut Typos,
        mut visit: impl FnMut(usize),
    ) -> Result<(), SearchError> {
        let mut ordinal = candidates.min();
        while let Some(o) = ordinal {
            let t = self.term_of(o);
            typos.work += 1;
            if typos.work > WORK_BUDGET {
                return Err(SearchError::OverBudget);
            }
            visit(t);
            ordinal = candidates.range(self.term_entries(t).end..).next();
        }
        Ok(())
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

/// The grams of the snapshot (substring bitmaps) a search with `rule`
/// reads: a `contains` query's, a pattern's ([`Pattern::needed_grams`]),
/// and those of the pieces a prefix search with two or three edits looks
/// up (its own edits or the extra edit's, [`typo::prefix_split`]).
pub fn needed_grams(rule: &MatchRule) -> Vec<String> {
    let owned = |grams: Vec<&str>| grams.into_iter().map(str::to_string).collect();
    match rule.match_type {
        MatchType::Exact => Vec::new(),
        MatchType::Contains => owned(query_grams(&rule.query)),
        MatchType::Pattern => Pattern::from_query(&rule.query).needed_grams(),
        MatchType::Prefix => {
            let chars: Vec<char> = rule.query.chars().collect();
            let mut edits = vec![rule.max_edits];
            if rule.max_edits > 0 && chars.len() >= EXTRA_EDIT_FROM {
                edits.push(rule.max_edits + 1);
            }
            let mut grams: Vec<String> = edits
                .into_iter()
                .filter_map(|k| typo::prefix_split(chars.len(), k))
                .flat_map(|split| split.pieces)
                .flat_map(|piece| {
                    let text: String = chars[piece].iter().collect();
                    owned(query_grams(&text))
                })
                .collect();
            grams.sort_unstable();
            grams.dedup();
            grams
        }
    }
}

/// The keys of an FST and its backwards twin within `max_edits` of the
/// whole query by the row walk (`typo.rs`), with their values. The query
/// splits around a middle character into a head and a tail: an edit
/// changes at most one of them (a transposition with the middle character
/// only the one it reaches), so one of them holds at most half the edits.
/// One walk over the keys follows only those whose start is within that
/// many edits of the head, another over the keys spelled backwards those
/// whose end is within it of the tail; neither has to try every key's first
/// letters with every edit still to spend.
fn whole_word_typos<D: AsRef<[u8]>>(
    forwards: &fst::Map<D>,
    backwards: &fst::Map<D>,
    query: &[char],
    max_edits: usize,
    typos: &mut Typos,
) -> Result<Vec<(u64, u8)>, SearchError> {
    let head = query.len().saturating_sub(1) / 2;
    let tail = query.len().saturating_sub(1 + head);
    let edits = (max_edits / 2) as u8;
    let anchor = |chars| Some(Anchor { chars, edits });
    let reversed: Vec<char> = query.iter().rev().copied().collect();
    let mut found = budgeted_walk(forwards, query, max_edits, Mode::Whole, anchor(head), typos)?;
    found.extend(budgeted_walk(
        backwards,
        &reversed,
        max_edits,
        Mode::Whole,
        anchor(tail),
        typos,
    )?);
    found.sort_unstable();
    found.dedup();
    Ok(found)
}

/// One row walk within what is left of the search's work budget, counted
/// against it.
fn budgeted_walk<D: AsRef<[u8]>>(
    fst: &fst::Map<D>,
    query: &[char],
    max_edits: usize,
    mode: Mode,
    anchor: Option<Anchor>,
    typos: &mut Typos,
) -> Result<Vec<(u64, u8)>, SearchError> {
    let budget = WORK_BUDGET.saturating_sub(typos.work);
    let found = typo::walk(fst.as_fst(), query, max_edits, mode, anchor, budget);
    typos.work += found.work;
    match found.exhausted {
        true => Err(SearchError::OverBudget),
        false => Ok(found.terms),
    }
}

/// The entries (among `admitted`, when given) whose term holds every gram
/// of `list`: none when one of them is in no term.
fn holding_all(
    grams: &Grams,
    list: &[&str],
    admitted: Option<&RoaringBitmap>,
) -> Result<RoaringBitmap, CorruptData> {
    let mut bitmaps = Vec::with_capacity(list.len());
    for gram in list {
        match grams.entries(gram)? {
            Some(b) => bitmaps.push(b),
            None => return Ok(RoaringBitmap::new()),
        }
    }
    // Smallest first, so that each intersection is as cheap as it can be.
    bitmaps.sort_by_key(RoaringBitmap::len);
    let mut candidates = admitted.cloned();
    for b in bitmaps {
        candidates = Some(match candidates {
            Some(c) => c & b,
            None => b,
        });
    }
    Ok(candidates.unwrap_or_default())
}

/// The keys a Levenshtein automaton accepts, walked over a whole FST, with
/// their values and distances (1 to `max_edits`).
fn automaton_typos<D: AsRef<[u8]>>(
    fst: &fst::Map<D>,
    query: &str,
    max_edits: usize,
    measure: TypoDistance,
) -> Vec<(u64, u8)> {
    let dfa = automaton_builder(max_edits).build_dfa(query);
    let mut found = Vec::new();
    let mut add = |value: u64, distance: Option<u8>| {
        if let Some(d) = distance.filter(|d| (1..=max_edits).contains(&usize::from(*d))) {
            found.push((value, d));
        }
    };
    match measure {
        TypoDistance::Prefix => {
            let mut stream = fst.search_with_state(PrefixDistance(&dfa)).into_stream();
            while let Some((_, value, (_, best))) = stream.next() {
                add(value, best);
            }
        }
        TypoDistance::Whole => {
            let mut stream = fst.search_with_state(&dfa).into_stream();
            while let Some((_, value, state)) = stream.next() {
                add(value, exact_distance(&dfa, state));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::{Lexicon, LexiconKind};
    use crate::matching::MatchType;
    use crate::postings::{DictionaryRef, Posting};
    use crate::snapshot::{build, Grams};

    fn index_of(words: &[String]) -> Index {
        searchable(words, &[]).0
    }

    /// An English index of `words` whose lexicon has `forms` (form, lemma),
    /// and every part of its grams, as a warm instance holds them.
    fn searchable(words: &[String], forms: &[(String, String)]) -> (Index, Grams) {
        let mut lexicon = Lexicon::default();
        lexicon
            .add(LexiconKind::Forms, "en", forms.to_vec())
            .expect("forms");
        let built = build(english_postings(words), &lexicon);
        (built.decode().unwrap(), built.grams().unwrap())
    }

    /// One entry of dictionary `d` (English) per word, folded as given.
    fn english_postings(words: &[String]) -> Vec<Posting> {
        words
            .iter()
            .enumerate()
            .map(|(i, w)| Posting {
                definition: String::new(),
                folded: w.clone(),
                word: w.clone(),
                dictionary: DictionaryRef {
                    id: "d".into(),
                    source_lang: "en".into(),
                    target_lang: None,
                },
                part_of_speech: None,
                has_audio: false,
                id: format!("{i}"),
                preview: String::new(),
                phonetic: None,
            })
            .collect()
    }

    /// Among the exact matches, the headwords capitalised as the query was
    /// typed come first; the other tiers keep their order, and paging and
    /// `total` span both parts. The boat sorts before the city by id (as in
    /// FreeDict's Polish–English), so only the capital of `Lodz` moves it.
    #[test]
    fn the_exact_matches_capitalised_as_the_query_come_first() {
        let postings = [
            ("łódź", "4eb735181a5b175f"),
            ("Łódź", "cde954d980c405c5"),
            ("łodzie", "1"),
            ("Łodzianin", "2"),
        ]
        .map(|(word, id)| Posting {
            definition: String::new(),
            folded: crate::fold::fold(word),
            word: word.into(),
            dictionary: DictionaryRef {
                id: "freedict-pol-eng".into(),
                source_lang: "pl".into(),
                target_lang: Some("en".into()),
            },
            part_of_speech: None,
            has_audio: false,
            id: id.into(),
            preview: String::new(),
            phonetic: None,
        });
        let index: Index = build(postings.to_vec(), &Lexicon::default())
            .decode()
            .unwrap();
        let words = |rule: &MatchRule, offset, limit| {
            let hits = index
                .search(None, rule, &Filters::default(), offset, limit)
                .unwrap();
            let words: Vec<&str> = hits.ordinals.iter().map(|&o| index.word(o)).collect();
            (hits.total, words.join(" "))
        };
        for (q, first) in [
            ("Lodz", "Łódź łódź"),
            ("lodz", "łódź Łódź"),
            ("LODZ", "Łódź łódź"),
            ("Łódź", "Łódź łódź"),
            ("łódź", "łódź Łódź"),
        ] {
            for fuzzy in [false, true] {
                let rule = MatchRule::of_query(q, MatchType::Prefix, fuzzy).unwrap();
                let all = format!("{first} łodzie Łodzianin");
                assert_eq!(words(&rule, 0, 10), (4, all), "{q}");
                let rule = MatchRule::of_query(q, MatchType::Exact, fuzzy).unwrap();
                assert_eq!(words(&rule, 0, 10), (2, first.to_string()), "{q}");
            }
        }
        // Pages cut across the two parts and the next tier.
        let rule = MatchRule::of_query("Lodz", MatchType::Prefix, true).unwrap();
        assert_eq!(words(&rule, 1, 1), (4, "łódź".into()));
        assert_eq!(words(&rule, 1, 2), (4, "łódź łodzie".into()));
        // A query whose case is unknown (folded) or that has none keeps the
        // ordinal order: the boat, by its id.
        let rule = MatchRule::new("lodz", MatchType::Prefix, true);
        assert_eq!(
            words(&rule, 0, 10),
            (4, "łódź Łódź łodzie Łodzianin".into())
        );
        let rule = MatchRule::of_query("  42", MatchType::Exact, true).unwrap();
        assert_eq!(rule.capitalised, None);
    }

    /// Deterministic letters, so that the corpus is the same on every run.
    struct Letters(u64);

    impl Letters {
        fn word(&mut self, len: usize) -> String {
            (0..len)
                .map(|_| {
                    self.0 = self
                        .0
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    char::from(b'a' + (self.0 >> 59) as u8 % 26)
                })
                .collect()
        }
    }

    /// 20,000 random words, two prefixes that head 4,096 terms each, and
    /// two words of 100 letters, so that no query is out of reach.
    fn hostile_corpus() -> Vec<String> {
        let mut letters = Letters(26);
        let mut words: Vec<String> = (0..20_000).map(|i| letters.word(4 + i % 9)).collect();
        for head in ["con", "pro"] {
            for i in 0..4096u32 {
                let tail: String = (0..3)
                    .map(|k| char::from(b'a' + (i >> (4 * k) & 15) as u8))
                    .collect();
                words.push(format!("{head}{tail}"));
            }
        }
        words.push(format!("{}ba", "ab".repeat(49)));
        words.push(format!("{}b", "a".repeat(99)));
        words.sort_unstable();
        words.dedup();
        words
    }

    fn work((index, grams): &(Index, Grams), q: &str, match_type: MatchType) -> (u64, usize) {
        let rule = MatchRule::new(q, match_type, true);
        let hits = index
            .search(Some(grams), &rule, &Filters::default(), 0, 20)
            .expect("within the budget");
        assert!(hits.work <= WORK_BUDGET);
        (hits.work, hits.total)
    }

    /// Queries built to cost the most stay within a small, counted amount of
    /// work: each reads a few thousand FST nodes of a corpus of 28,000
    /// terms, except where the answer itself is that large.
    #[test]
    fn hostile_queries_stay_within_the_work_budget() {
        let index = searchable(&hostile_corpus(), &[]);
        let longest = index.0.longest_term_chars();
        assert_eq!(longest, 100);
        // 100 characters, 2 edits (3 as the extra edit), whole word.
        let (w, _) = work(&index, &"ab".repeat(50), MatchType::Exact);
        assert!(w < 3_000, "ab×50 exact read {w} nodes");
        // A prefix search with 2 edits (3 as the extra edit) is anchored on
        // its head and on the pieces after it: unanchored, it read most of
        // the 17,576 three-letter prefixes (over 15,000 nodes here).
        let (w, _) = work(&index, &"a".repeat(100), MatchType::Prefix);
        assert!(w < 8_000, "a×100 prefix read {w} nodes");
        // `xcon` is one edit from `con`, whose subtree of 4,096 terms is
        // the answer: listing it is the work, a few nodes a term.
        let (w, total) = work(&index, "xcon", MatchType::Prefix);
        assert!(total >= 4_096, "{total}");
        assert!(w < 4 * total as u64 + 3_000, "xcon prefix read {w} nodes");
        // Random 14-letter strings: 2 edits, and 3 as the extra edit.
        let mut letters = Letters(14);
        let mut most = (0, 0);
        for _ in 0..50 {
            let q = letters.word(14);
            most.0 = most.0.max(work(&index, &q, MatchType::Exact).0);
            most.1 = most.1.max(work(&index, &q, MatchType::Prefix).0);
        }
        assert!(most.0 < 5_000, "14 letters, exact: {} nodes", most.0);
        assert!(most.1 < 12_000, "14 letters, prefix: {} nodes", most.1);
    }

    /// A whole-word typo search reads about as many nodes whatever the size
    /// of the corpus: four times the terms, not four times the work.
    #[test]
    fn whole_word_typos_cost_what_the_query_needs() {
        let mut letters = Letters(7);
        let words: Vec<String> = (0..40_000).map(|i| letters.word(5 + i % 8)).collect();
        let small = searchable(&words[..10_000], &[]);
        let large = searchable(&words, &[]);
        let (mut on_small, mut on_large) = (0, 0);
        for w in words.iter().step_by(997).take(40) {
            let q: String = w.chars().rev().collect();
            on_small += work(&small, &q, MatchType::Exact).0;
            on_large += work(&large, &q, MatchType::Exact).0;
        }
        assert!(on_large < 2 * on_small, "{on_small} → {on_large}");
    }

    /// Patterns built to cost the most: each reads what its answer needs or
    /// is refused over the budget, never reads past it, and never panics.
    #[test]
    fn hostile_patterns_stay_within_the_work_budget() {
        let words = hostile_corpus();
        let built = build(english_postings(&words), &Lexicon::default());
        let index: Index = built.decode().unwrap();
        let grams: Grams = built.decode().unwrap();
        let run = |raw: &str| {
            let rule = MatchRule::of_query(raw, MatchType::Pattern, true).unwrap();
            let hits = index.search(Some(&grams), &rule, &Filters::default(), 0, 20);
            let glob = crate::pattern::Pattern::from_query(&rule.query).nfa();
            if let Ok(hits) = &hits {
                assert!(hits.work <= WORK_BUDGET, "{raw}");
                let matching = words.iter().filter(|w| glob.matches(w)).count();
                assert_eq!(hits.total, matching, "{raw}");
            }
            hits.map(|h| (h.work, h.total))
        };
        // The answer is the work: 4,096 terms under `con`.
        let (w, total) = run("con*").unwrap();
        assert_eq!(total, 4_096);
        assert!(w < 4 * total as u64 + 3_000, "con* read {w}");
        // Leading `?`s walk from the end; trailing ones from the start.
        let (w, _) = run(&format!("{}ab", "?".repeat(98))).unwrap();
        assert!(w < 2_000, "?×98 ab read {w}");
        let (w, _) = run(&format!("ab{}", "?".repeat(98))).unwrap();
        assert!(w < 2_000, "ab ?×98 read {w}");
        let (w, total) = run(&format!("a{}b", "?".repeat(98))).unwrap();
        assert_eq!(total, 1);
        assert!(w < 20_000, "a ?×98 b read {w}");
        // Both ends wildcards: the terms that hold the grams, checked once.
        let (w, _) = run("*a*b*a*b*").unwrap();
        assert!(w <= index.term_count() as u64, "*a*b*a*b* checked {w}");
        let (w, _) = run(&"*ab".repeat(30)).unwrap();
        assert!(w <= index.term_count() as u64, "*ab×30 checked {w}");
        // `?` before and after the only letters: every term of the length.
        let (w, _) = run("??????ab??????").unwrap();
        assert!(w < 200_000, "?×6 ab ?×6 read {w}");
        let (w, _) = run("?*?a?b?*?").unwrap();
        assert!(w <= index.term_count() as u64, "?*?a?b?*? checked {w}");
    }

    /// A pattern that would read more than the budget is refused, not cut.
    #[test]
    fn a_pattern_over_budget_is_an_error_not_a_partial_answer() {
        let index = index_of(&hostile_corpus());
        let rule = MatchRule::of_query("co*n", MatchType::Pattern, true).unwrap();
        let pattern = crate::pattern::Pattern::from_query(&rule.query);
        let mut typos = Typos {
            walk: TypoWalk::Rows,
            work: WORK_BUDGET - 100,
        };
        assert_eq!(
            index
                .matching_pattern(None, &pattern, None, &mut typos)
                .unwrap_err(),
            SearchError::OverBudget
        );
        let mut typos = Typos {
            walk: TypoWalk::Rows,
            work: 0,
        };
        assert!(index
            .matching_pattern(None, &pattern, None, &mut typos)
            .is_ok());
    }

    #[test]
    fn a_walk_over_budget_is_an_error_not_a_partial_answer() {
        let index = index_of(&hostile_corpus());
        let rule = MatchRule::new("xcon", MatchType::Prefix, true);
        let mut typos = Typos {
            walk: TypoWalk::Rows,
            work: WORK_BUDGET - 100,
        };
        assert_eq!(
            index.typos(None, &rule, 1, &mut typos).unwrap_err(),
            SearchError::OverBudget
        );
    }

    /// The hostile corpus with three forms of every word (`-s`, `-ed`,
    /// `-ing`): 80,000 forms beside its 28,000 terms.
    fn hostile_with_forms() -> (Vec<String>, Vec<(String, String)>) {
        let words = hostile_corpus();
        let forms = words
            .iter()
            .flat_map(|w| ["s", "ed", "ing"].map(|end| (format!("{w}{end}"), w.clone())))
            .collect();
        (words, forms)
    }

    /// Typos of forms are walked like typos of terms, anchored on both ends:
    /// the hostile queries stay within the bounds they have without forms
    /// (random 14-letter strings read under 800 nodes more, never the forms'
    /// first letters with every edit to spend), and `work` counts them.
    #[test]
    fn typos_of_forms_stay_within_the_work_budget() {
        let (words, forms) = hostile_with_forms();
        let plain = searchable(&words, &[]);
        let index = searchable(&words, &forms);
        let (w, _) = work(&index, &"ab".repeat(50), MatchType::Exact);
        assert!(w < 3_000, "ab×50 exact read {w} nodes");
        let (w, _) = work(&index, &"a".repeat(100), MatchType::Prefix);
        assert!(w < 25_000, "a×100 prefix read {w} nodes");
        let mut letters = Letters(14);
        let (mut most, mut more) = (0, 0);
        for _ in 0..50 {
            let q = letters.word(14);
            for match_type in [MatchType::Exact, MatchType::Prefix] {
                let with = work(&index, &q, match_type).0;
                let without = work(&plain, &q, match_type).0;
                assert!(with > without, "{q} {match_type:?}: {with} ≤ {without}");
                most = most.max(with);
                more = more.max(with - without);
            }
        }
        assert!(most < 60_000, "14 letters: {most} nodes");
        assert!(more < 3_000, "14 letters: {more} nodes more for the forms");
        // A typo of a form of a hostile word: its lemma, at distance 1.
        let word = &words[1000];
        let typo = format!("{word}ign");
        let rule = MatchRule::new(&typo, MatchType::Exact, true);
        let (index, grams) = index;
        let hits = index
            .search(Some(&grams), &rule, &Filters::default(), 0, 20)
            .unwrap();
        let lemma = index.term_number(word).unwrap() as u32;
        assert!(hits
            .ordinals
            .contains(&index.term_entries(lemma as usize).start));
    }

    /// The forms' walks spend the same budget as the terms': a search whose
    /// terms walk fits but whose forms walk does not is over the budget.
    #[test]
    fn the_work_budget_covers_the_walk_over_the_forms() {
        let (words, forms) = hostile_with_forms();
        let plain = index_of(&words);
        let index = searchable(&words, &forms).0;
        let rule = MatchRule::new("conabcing", MatchType::Exact, true);
        let spent = |index: &Index, work| {
            let mut typos = Typos {
                walk: TypoWalk::Rows,
                work,
            };
            index.typos(None, &rule, 2, &mut typos).map(|_| typos.work)
        };
        let terms = spent(&plain, 0).unwrap();
        let all = spent(&index, 0).unwrap();
        assert!(all > terms, "{all} ≤ {terms}");
        assert!(spent(&index, WORK_BUDGET - all).is_ok());
        assert_eq!(
            spent(&index, WORK_BUDGET - terms - 1).unwrap_err(),
            SearchError::OverBudget
        );
    }

    /// A forms section written by hand (the layout of `snapshot/forms.rs`):
    /// one form of the term 0, whose backwards key may point elsewhere than
    /// its forwards one.
    fn forms_section(forwards: (&str, u64), backwards: (&str, u64), lemma: u32) -> Vec<u8> {
        use crate::codec::{put_str, put_varint};
        let mut out = Vec::new();
        put_varint(&mut out, 1);
        put_str(&mut out, "en");
        for (key, value) in [forwards, backwards] {
            let fst = fst::Map::from_iter([(key, value)]).unwrap().into_fst();
            let bytes = fst.into_inner();
            out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            out.extend(bytes);
        }
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&lemma.to_le_bytes());
        out
    }

    #[test]
    fn a_typo_walk_over_corrupt_backwards_forms_is_an_error_not_a_panic() {
        use crate::snapshot::Section;
        let built = {
            let postings = vec![Posting {
                definition: String::new(),
                folded: "run".into(),
                word: "run".into(),
                dictionary: DictionaryRef {
                    id: "d".into(),
                    source_lang: "en".into(),
                    target_lang: None,
                },
                part_of_speech: None,
                has_audio: false,
                id: "1".into(),
                preview: String::new(),
                phonetic: None,
            }];
            build(postings, &Lexicon::default())
        };
        let core = built.section(Section::Core).concat();
        let terms = || built.section(Section::Terms).concat();
        // One edit in the head: only the backwards walk (on the tail `ns`)
        // reaches `runs`.
        let rule = MatchRule::new("xuns", MatchType::Exact, true);
        let search = |forms| {
            let index = Index::decode(&core, terms(), forms).unwrap();
            index.search(None, &rule, &Filters::default(), 0, 10)
        };
        let sound = search(forms_section(("runs", 1), ("snur", 1), 0)).unwrap();
        assert_eq!(
            sound.total, 1,
            "`xuns` is one edit from `runs`, a form of `run`"
        );
        for beyond in [(1 << 32) | 1, 2, u64::MAX] {
            assert!(matches!(
                search(forms_section(("runs", 1), ("snur", beyond), 0)),
                Err(SearchError::Corrupt(_))
            ));
        }
        // The forwards FST is checked whole when decoded.
        for forms in [
            forms_section(("runs", 2), ("snur", 1), 0),
            forms_section(("runs", 1), ("snur", 1), 7),
        ] {
            assert!(Index::decode(&core, terms(), forms).is_err());
        }
    }
}
