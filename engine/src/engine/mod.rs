//! Search, autocomplete and random over an in-memory [`Index`], run by a
//! [`Searcher`] (the index and an instance's caches): the rules of
//! docs/api.md ("Matching and ranking", "Inflected forms") as set operations
//! on ordinals.
//!
//! A search's matches fall into tiers that never overlap: the exact term
//! (split in two: the headwords capitalised as the query was typed, then
//! the others), then literal matches (prefix, contains or a wildcard pattern, whose
//! matches are all in this tier), then the lemmas of the query as an
//! inflected form, then typo matches by edit distance, at each distance the
//! headwords within it before the lemmas of the inflected forms within it
//! (and, when those find fewer than [`EXTRA_EDIT_BELOW`] headwords, those
//! one edit further, in the same two tiers).
//! Within a tier the order is the ordinal order, so each tier is a bitmap, a
//! filter is an intersection, `total` is a sum of cardinalities and a page is
//! a run of set bits.

use crate::codec::CorruptData;
use crate::filters::Filters;
use crate::matching::{MatchRule, MatchType, EXTRA_EDIT_BELOW, EXTRA_EDIT_FROM};
use crate::snapshot::{
    first_key, placed_key, query_grams, CapitalBucket, Grams, Index, Missing, TermBlock, Texts,
    PLACED_LAST_START,
};
use crate::typo;
use roaring::RoaringBitmap;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

#[cfg(any(test, feature = "automaton-baseline"))]
mod automaton;
mod browse;
#[cfg(test)]
pub(crate) use browse::AUTOCOMPLETE_BLOCKS;
mod literal;
mod reach;
mod rhymes;
mod sounds;
#[cfg(test)]
mod tests;
mod typos;
mod words;

pub use rhymes::{RhymeHits, RhymeQuery, RhymeWord, RHYME_WORK_BUDGET};
pub use sounds::{SoundsLikeQuery, SoundsMatches, SoundsWalk, SOUNDS_LIKE_WORK_BUDGET};
pub use words::{entries_per_word, Word, WordHits, ENTRIES_PER_PAGE, ENTRIES_PER_WORD};

/// Filter bitmaps kept per instance: a handful of filter combinations make up
/// most traffic, and a bitmap is at most a few hundred KB.
const FILTER_CACHE: usize = 64;
/// Prefixes of up to this many characters keep their literal matches in the
/// instance: they are the few prefixes with the most terms.
const CACHED_PREFIX_CHARS: usize = 2;

/// FST nodes a search's typo walks may read (see [`SearchError::OverBudget`]).
pub const WORK_BUDGET: u64 = 1_000_000;

/// Distinct blocks of the term FSTs a search's walks and prefixes may
/// reach, held or not, and as many of the forms' FSTs (whose typo walks
/// reach about as many again): 16 MB of reads each on a cold instance,
/// where the broadest class measured reaches at most about 2,000 term
/// blocks (docs/benchmarks.md). Named from the root before any is read, so
/// a search over it reads none. (Counted each time a walk reaches them,
/// the extra edit's walks reach the same blocks again: up to 3,977.)
pub const MAX_TERM_BLOCKS: usize = 4_096;

/// Distinct text blocks a search may check candidates against by their
/// text (the terms that hold a `contains` query's grams, a pattern's, the
/// pieces of a prefix typo search), held or not: 16 MB of reads on a cold
/// instance and about 25 MB decoded, under a third of the default text
/// budget, so that every block a search checks is held at once when it
/// runs again. Counted from the candidates before any is read, so that a
/// cold and a warm instance answer alike. At five million entries the
/// broadest of hundreds of random `contains` and two-edit queries checked
/// about 2,040; the extra edit's pieces past it are left out
/// (docs/api.md).
pub const MAX_TEXT_BLOCKS: usize = 2_048;

/// The most term blocks a search names before its grams are read
/// ([`Searcher::blocks_named_first`]), and as many of the forms' FSTs: a
/// few hundred KB, what a typical query reads, and a small part of what
/// [`MAX_TERM_BLOCKS`] lets one read.
pub const MAX_NAMED_FIRST: usize = 256;

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
    /// the baseline of the typo benchmark and a second reference for tests
    /// (the `automaton-baseline` feature).
    #[cfg(any(test, feature = "automaton-baseline"))]
    Automaton,
}

/// Why a search has no answer.
#[derive(Debug, PartialEq)]
pub enum SearchError {
    Corrupt(CorruptData),
    /// Its typo walks would read more than [`WORK_BUDGET`] nodes, or it
    /// would reach more than [`MAX_TERM_BLOCKS`] term blocks.
    OverBudget,
    /// It reads term blocks the instance does not hold, every one it
    /// names: read them ([`crate::snapshot::TermDictionary::keep`]) and
    /// search again.
    Missing(Missing),
}

impl From<Missing> for SearchError {
    fn from(missing: Missing) -> Self {
        SearchError::Missing(missing)
    }
}

impl From<CorruptData> for SearchError {
    fn from(e: CorruptData) -> Self {
        SearchError::Corrupt(e)
    }
}

/// The decoded [`Index`] and what an instance keeps between the searches
/// it runs over it: the filter bitmaps and the short prefixes' literal
/// matches of recent requests. Every search, autocomplete, random pick and
/// reverse lookup runs through it; what one search has spent of its budget
/// is that search's own ([`Typos`]).
pub struct Searcher {
    index: Index,
    /// Filter bitmaps of recent requests ([`Searcher::admitted`]).
    filter_cache: Mutex<HashMap<String, Arc<RoaringBitmap>>>,
    /// Literal matches of short prefixes, the largest sets
    /// (`Searcher::longer_with_prefix`).
    prefix_cache: Mutex<HashMap<String, Arc<RoaringBitmap>>>,
}

/// What tests decode a build into: a searcher over its index.
#[cfg(test)]
impl crate::snapshot::FromBuilt for Searcher {
    fn from_built(built: &crate::snapshot::Built) -> Result<Self, CorruptData> {
        Ok(Searcher::new(built.index()?))
    }
}

/// The typo walks of one search and what they have read, and the term
/// blocks its reads found missing: a search goes on without them, so that
/// it names them all at once, and its answer is discarded.
struct Typos {
    walk: TypoWalk,
    /// It names the blocks its reads reach and walks none
    /// ([`Searcher::blocks_named_first`]).
    naming: bool,
    work: u64,
    /// The term blocks (items) its reads have reached so far.
    reached: RoaringBitmap,
    /// The text blocks (items) its candidates are checked against.
    checked: RoaringBitmap,
    missing: Missing,
}

impl Typos {
    fn new(walk: TypoWalk) -> Self {
        Self {
            walk,
            naming: false,
            work: 0,
            reached: RoaringBitmap::new(),
            checked: RoaringBitmap::new(),
            missing: Missing::default(),
        }
    }

    /// The term blocks of `items` the instance holds; the others are
    /// noted as missing. Each counts as reached ([`MAX_TERM_BLOCKS`]).
    fn held(&mut self, index: &Index, items: &[usize]) -> Vec<Arc<TermBlock>> {
        self.reach(items);
        let held = index.term_dictionary().held(items, &mut self.missing);
        match self.naming {
            true => Vec::new(),
            false => held,
        }
    }

    /// Notes `items` as reached, held or not.
    fn reach(&mut self, items: &[usize]) {
        self.reached.extend(items.iter().map(|&item| item as u32));
    }

    /// What a read found, or its default when blocks were missing (noted).
    fn noted<T: Default>(&mut self, read: Result<T, Missing>) -> T {
        self.missing.noted(read)
    }

    /// Counts the text blocks of `terms`, candidates to be checked by
    /// their text, held or not: false, and none counted, when the search
    /// would then check more than [`MAX_TEXT_BLOCKS`].
    fn check_within_budget(&mut self, index: &Index, terms: &[usize]) -> bool {
        let dictionary = index.term_dictionary();
        let blocks: RoaringBitmap = terms
            .iter()
            .map(|&t| dictionary.text_place(t).0 as u32)
            .collect();
        if self.checked.union_len(&blocks) > MAX_TEXT_BLOCKS as u64 {
            return false;
        }
        self.checked |= blocks;
        true
    }

    /// The text of `terms` if the instance holds all their text blocks;
    /// the others are noted as missing.
    fn texts<'i>(&mut self, index: &'i Index, terms: &[usize]) -> Option<Texts<'i>> {
        let texts = index.texts(terms.iter().copied());
        texts
            .map_err(|missing| self.missing.0.extend(missing.0))
            .ok()
    }

    /// The blocks it reached of the term FSTs, or of the forms' if more.
    fn most_reached(&self, index: &Index) -> u64 {
        let first_form = index.term_dictionary().first_form_item() as u32;
        let terms = self.reached.rank(first_form.saturating_sub(1));
        let forms = self.reached.len() - terms;
        terms.max(forms)
    }

    /// Over budget if it reached more than [`MAX_TERM_BLOCKS`] of the term
    /// FSTs or of the forms' (whether or not the instance held them, so
    /// that a cold and a warm instance answer alike), else an error naming
    /// every missing block, if the search found some.
    fn complete(&mut self, index: &Index) -> Result<(), SearchError> {
        if self.most_reached(index) > MAX_TERM_BLOCKS as u64 {
            return Err(SearchError::OverBudget);
        }
        std::mem::take(&mut self.missing)
            .into_result()
            .map_err(SearchError::Missing)
    }
}

impl Searcher {
    /// A searcher over `index`, its caches empty.
    pub fn new(index: Index) -> Self {
        Self {
            index,
            filter_cache: Mutex::default(),
            prefix_cache: Mutex::default(),
        }
    }

    /// The decoded sections it searches.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// Lets go of what it keeps between searches (term blocks, filter and
    /// prefix bitmaps), as a cold instance starts: what the benchmarks of
    /// a cold query's reads measure from.
    pub fn forget(&self) {
        self.index.term_dictionary().forget();
        self.filter_cache.lock().expect("not poisoned").clear();
        self.prefix_cache.lock().expect("not poisoned").clear();
    }

    /// Bytes held in memory: the index and the cached bitmaps.
    pub fn memory_bytes(&self) -> usize {
        let cached = |cache: &Mutex<HashMap<String, Arc<RoaringBitmap>>>| -> usize {
            let cache = cache.lock().expect("not poisoned");
            cache.values().map(|b| b.serialized_size()).sum()
        };
        self.index.memory_bytes() + cached(&self.filter_cache) + cached(&self.prefix_cache)
    }

    /// The term blocks a first run of `rule` names from the root alone,
    /// before its grams and its filters' bitmaps are read: those of its
    /// exact, literal and lemma tiers and of its first typo walks, none
    /// walked (so it costs no walk on a warm instance). A request reads
    /// them while its grams load, so that its first run finds them held
    /// instead of naming them after the grams (a round trip). A tier that
    /// needs the grams stops the naming there; a prefix typo search's
    /// pieces need them, and the walks of its forms after them are named
    /// all the same, so that the forms' overflow items are named by the
    /// first run. A query that reaches more than [`MAX_NAMED_FIRST`]
    /// blocks of the term FSTs, or of the forms', names none: its first run, which
    /// may still refuse it over the budget once its grams are read, names
    /// them itself, so that a refused query has read none.
    pub fn blocks_named_first(&self, rule: &MatchRule) -> Missing {
        let mut naming = Typos::new(TypoWalk::Rows);
        naming.naming = true;
        let _needs_grams = self.tiers(None, rule, None, &mut naming);
        if naming.most_reached(&self.index) > MAX_NAMED_FIRST as u64 {
            return Missing::default();
        }
        match naming.complete(&self.index) {
            Err(SearchError::Missing(missing)) => missing,
            _ => Missing::default(),
        }
    }

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

    /// [`Searcher::search`] with the typo tiers found by `walk`.
    pub fn search_with(
        &self,
        walk: TypoWalk,
        grams: Option<&Grams>,
        rule: &MatchRule,
        filters: &Filters<'_>,
        offset: usize,
        limit: usize,
    ) -> Result<Hits, SearchError> {
        let (tiers, work) = self.ranked_tiers(walk, grams, rule, filters)?;
        Ok(page_of_tiers(&tiers, offset, limit, work))
    }

    /// The matches of `rule` that pass `filters`, one result per word
    /// (folded headword and language: [`WordHits`]), and the words
    /// `offset..offset + limit`.
    pub fn search_words(
        &self,
        grams: Option<&Grams>,
        rule: &MatchRule,
        filters: &Filters<'_>,
        offset: usize,
        limit: usize,
    ) -> Result<WordHits, SearchError> {
        let (tiers, work) = self.ranked_tiers(TypoWalk::Rows, grams, rule, filters)?;
        let ordered = tiers.iter().flat_map(|tier| tier.iter());
        self.words_of(ordered, (work, WORK_BUDGET), offset, limit)
    }

    /// The matches of `rule` that pass `filters`, tier by tier in rank
    /// order (each tier in ordinal order), and the work their walks did.
    fn ranked_tiers(
        &self,
        walk: TypoWalk,
        grams: Option<&Grams>,
        rule: &MatchRule,
        filters: &Filters<'_>,
    ) -> Result<(Vec<RoaringBitmap>, u64), SearchError> {
        let mut typos = Typos::new(walk);
        let admitted = self.admitted(grams, filters)?;
        let mut tiers = self.tiers(grams, rule, admitted.as_deref(), &mut typos)?;
        if let Some(admitted) = &admitted {
            for tier in &mut tiers {
                *tier &= admitted.as_ref();
            }
        }
        // The extra edit is decided on complete tiers: a run that misses
        // term blocks names those first, and the extra edit's blocks (a
        // wider walk, most of the dictionary's for a short query) only when
        // the next run finds too few terms.
        typos.complete(&self.index)?;
        if rule.max_edits > 0
            && rule.query().chars().count() >= EXTRA_EDIT_FROM
            && self.has_fewer_terms(&tiers, EXTRA_EDIT_BELOW)
        {
            let mut further = self.typos(grams, rule, rule.max_edits + 1, &mut typos)?;
            // The last distance's tiers: its headwords by kind, then its
            // forms' lemmas.
            for mut found in further.split_off(further.len() - crate::matching::TYPO_KINDS) {
                for tier in &tiers {
                    found -= tier;
                }
                if let Some(admitted) = &admitted {
                    found &= admitted.as_ref();
                }
                tiers.push(found);
            }
        }
        typos.complete(&self.index)?;
        Ok((tiers, typos.work))
    }

    /// The tiers of a query, unfiltered (a filter may only narrow the
    /// candidates that a `contains` query has to check): exact (as typed,
    /// then the rest: [`Searcher::by_capitalisation`]), literal, lemma, then
    /// two per edit distance (headwords, then lemmas through forms).
    fn tiers(
        &self,
        grams: Option<&Grams>,
        rule: &MatchRule,
        admitted: Option<&RoaringBitmap>,
        typos: &mut Typos,
    ) -> Result<Vec<RoaringBitmap>, SearchError> {
        let mut exact = RoaringBitmap::new();
        // The capitalisation bucket of the query's text splits its exact
        // tier. It is named with the term block of the exact lookup, so
        // that a cold instance reads both at once; a text that is no term
        // needs none.
        let mut capitals = None;
        if rule.match_type.has_exact_tier() {
            let bucket = |typos: &mut Typos| match rule.capitalised {
                Some(_) => typos.noted(self.index.capital_bucket(rule.query()).map(Some)),
                None => None,
            };
            match self.index.term_number(rule.query()) {
                Ok(Some(t)) => {
                    exact = self.index.text_entries(t);
                    capitals = bucket(typos);
                }
                Ok(None) => {}
                // Named, not used: this run's tiers are not.
                Err(missing) => {
                    typos.missing.0.extend(missing.0);
                    bucket(typos);
                }
            }
        }
        let literal = match rule.match_type {
            MatchType::Exact => RoaringBitmap::new(),
            MatchType::Prefix => self.longer_with_prefix(grams, rule.query(), typos)?,
            MatchType::Contains => {
                let grams = grams.ok_or(CorruptData("contains search without its grams"))?;
                let mut found = self.containing(grams, rule.query(), admitted, typos)?;
                found -= &exact;
                found
            }
            MatchType::Pattern => {
                let pattern = rule.pattern().expect("a pattern rule holds its pattern");
                self.matching_pattern(grams, pattern, admitted, typos)?
            }
            // Found from the `rhymes` section by `Searcher::sounds_like`,
            // which the service calls instead.
            MatchType::SoundsLike => RoaringBitmap::new(),
        };
        let mut lemma = RoaringBitmap::new();
        if rule.match_type.has_lemma_tier() {
            for l in typos.noted(self.index.lemmas(rule.query())) {
                lemma |= self.index.lemma_entries(l);
            }
            // A lemma may itself start with the query (`a` is a form of
            // French `avoir`): it stays a literal match.
            lemma -= &exact;
            lemma -= &literal;
        }
        let [typed, rest] = by_capitalisation(exact, rule, capitals.as_deref())?;
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

    /// Whether some term can be within `edits` of the query: a query longer
    /// than the longest term by more than that is not (a long string of
    /// garbage builds no automaton and walks nothing).
    fn within_reach(&self, rule: &MatchRule, edits: usize) -> bool {
        rule.query().chars().count() <= self.index.longest_term_chars() + edits
    }

    /// Whether the tiers hold fewer than `n` distinct terms (words: a
    /// headword in a language).
    fn has_fewer_terms(&self, tiers: &[RoaringBitmap], n: usize) -> bool {
        let mut seen = HashSet::new();
        for tier in tiers {
            let mut next = tier.min();
            while let Some(ordinal) = next {
                let t = self.index.term_of(ordinal);
                seen.insert(t);
                if seen.len() >= n {
                    return false;
                }
                next = tier.range(self.index.term_entries(t).end..).next();
            }
        }
        true
    }

    /// The distinct terms of the candidate entries, in order, each
    /// counting one unit of work against the budget.
    fn candidate_terms(
        &self,
        candidates: &RoaringBitmap,
        typos: &mut Typos,
    ) -> Result<Vec<usize>, SearchError> {
        let mut terms = Vec::new();
        for t in self.distinct_terms(candidates) {
            typos.work += 1;
            if typos.work > WORK_BUDGET {
                return Err(SearchError::OverBudget);
            }
            terms.push(t);
        }
        Ok(terms)
    }

    /// The distinct terms of `entries`, in order.
    fn distinct_terms<'s>(
        &'s self,
        entries: &'s RoaringBitmap,
    ) -> impl Iterator<Item = usize> + 's {
        let mut ordinal = entries.min();
        std::iter::from_fn(move || {
            let t = self.index.term_of(ordinal?);
            ordinal = entries.range(self.index.term_entries(t).end..).next();
            Some(t)
        })
    }
}

/// The exact tier of `rule` in two: the entries whose headword is
/// capitalised as the query was typed, then the others (`Lodz` lists the
/// city `Łódź` before the boat `łódź`, `lodz` the boat first), each part
/// in ordinal order; all in the first when the query's first letter has no
/// case, or while the query's capitalisation bucket is not held (the run
/// then names it, and its tiers are not used).
fn by_capitalisation(
    mut exact: RoaringBitmap,
    rule: &MatchRule,
    capitals: Option<&CapitalBucket>,
) -> Result<[RoaringBitmap; 2], CorruptData> {
    let (Some(typed), Some(capitals)) = (rule.capitalised, capitals) else {
        return Ok([exact, RoaringBitmap::new()]);
    };
    let rest = capitals.not_capitalised_as(rule.query(), &exact, typed)?;
    exact -= &rest;
    Ok([exact, rest])
}

/// The page `offset..offset + limit` of the entries of `tiers`, tier by
/// tier, and how many they hold.
fn page_of_tiers(tiers: &[RoaringBitmap], offset: usize, limit: usize, work: u64) -> Hits {
    let total = tiers.iter().map(|t| t.len() as usize).sum();
    let mut skip = offset;
    let mut ordinals = Vec::with_capacity(limit.min(total));
    for tier in tiers {
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
    Hits {
        total,
        ordinals,
        work,
    }
}

/// The grams of the snapshot (substring bitmaps) a search with `rule`
/// reads: a `contains` query's, a pattern's ([`crate::pattern::Pattern::needed_grams`]),
/// and those of the pieces a prefix search with two or three edits looks
/// up (its own edits or the extra edit's, [`typo::prefix_split`]).
pub fn needed_grams(rule: &MatchRule) -> Vec<String> {
    let owned = |grams: Vec<&str>| grams.into_iter().map(str::to_string).collect();
    match rule.match_type {
        MatchType::Exact | MatchType::SoundsLike => Vec::new(),
        MatchType::Contains => owned(query_grams(rule.query())),
        MatchType::Pattern => rule
            .pattern()
            .expect("a pattern rule holds its pattern")
            .needed_grams(),
        MatchType::Prefix => {
            let chars: Vec<char> = rule.query().chars().collect();
            if let [first] = chars[..] {
                return vec![first_key(first)];
            }
            let mut edits = vec![rule.max_edits];
            if rule.max_edits > 0 && chars.len() >= EXTRA_EDIT_FROM {
                edits.push(rule.max_edits + 1);
            }
            let mut grams: Vec<String> = edits
                .into_iter()
                .filter_map(|k| typo::prefix_split(&chars, k).map(|split| (split, k)))
                .flat_map(|(split, max_edits)| {
                    let pieces = split.pieces.into_iter();
                    pieces.flat_map(move |piece| piece_lookups(&piece, max_edits))
                })
                .flatten()
                .collect();
            grams.sort_unstable();
            grams.dedup();
            grams
        }
    }
}

/// The lookups that find the entries whose term holds `piece` where it
/// can stand with `max_edits` edits ([`typo::Piece::starts`]), each
/// candidate checked after ([`typo::Piece::held_by`]): the union of lists
/// of grams to intersect. When every start it can have is early enough,
/// one list per start, of its first three-character grams keyed by where
/// they start ([`placed_key`]): five characters in place, which few terms
/// hold. Else one list, of its grams anywhere in the term.
fn piece_lookups(piece: &typo::Piece, max_edits: usize) -> Vec<Vec<String>> {
    let chars = &piece.chars;
    let placed = chars.len().saturating_sub(2).min(3);
    let starts = piece.starts(max_edits);
    if placed > 0 && starts.end() + placed - 1 <= PLACED_LAST_START {
        let gram = |i: usize| -> String { chars[i..i + 3].iter().collect() };
        starts
            .map(|s| (0..placed).map(|i| placed_key(&gram(i), s + i)).collect())
            .collect()
    } else {
        let text: String = chars.iter().collect();
        let grams = query_grams(&text).into_iter().map(str::to_string);
        vec![grams.collect()]
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
