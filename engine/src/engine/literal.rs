//! Literal matches: the terms under a prefix, those that contain a
//! substring, and those a wildcard pattern matches.

use super::Searcher;
use super::{holding_all, SearchError, Typos, CACHED_PREFIX_CHARS, WORK_BUDGET};
use crate::codec::CorruptData;
use crate::pattern::{self, Nfa, Pattern, Plan};
use crate::snapshot::{first_key, query_grams, Direction, Fst, Grams, GRAM_CHARS};
use fst::{Automaton, IntoStreamer, Streamer};
use roaring::RoaringBitmap;
use std::sync::Arc;

impl Searcher {
    /// Entries whose term starts with `prefix` and is longer. One
    /// character: the bitmap of the entries that start with it
    /// ([`first_key`], hundreds of term blocks at corpus scale), less its
    /// own text's; a search given no grams (tests, benchmarks) walks the
    /// blocks, and the naming of a search's first blocks names none, since
    /// the search reads the bitmap. Longer: the terms the FST lists under
    /// the prefix. Short prefixes have the most terms, so their sets are
    /// kept for the next request.
    pub(super) fn longer_with_prefix(
        &self,
        grams: Option<&Grams>,
        prefix: &str,
        typos: &mut Typos,
    ) -> Result<RoaringBitmap, SearchError> {
        let mut chars = prefix.chars();
        if let (Some(first), None) = (chars.next(), chars.next()) {
            if let Some(grams) = grams {
                typos.work += 1;
                let mut found = grams.entries(&first_key(first))?.unwrap_or_default();
                if let Some(t) = typos.noted(self.index.term_number(prefix)) {
                    found -= self.index.text_entries(t);
                }
                return Ok(found);
            }
            if typos.naming {
                return Ok(RoaringBitmap::new());
            }
        }
        Ok(self.longer_in_blocks(prefix, typos))
    }

    /// [`Searcher::longer_with_prefix`] from the term blocks under it.
    fn longer_in_blocks(&self, prefix: &str, typos: &mut Typos) -> RoaringBitmap {
        let dictionary = self.index.term_dictionary();
        let items =
            dictionary.items_with_prefix(Fst::Terms(Direction::Forwards), prefix.as_bytes());
        let cached = prefix.chars().count() <= CACHED_PREFIX_CHARS;
        if cached {
            if let Some(hit) = self.prefix_cache.lock().expect("not poisoned").get(prefix) {
                // Reached all the same, as on an instance without the set.
                typos.reach(&items);
                return hit.as_ref().clone();
            }
        }
        let blocks = typos.held(&self.index, &items);
        let complete = blocks.len() == items.len();
        let mut terms: Vec<u32> = Vec::new();
        for block in blocks {
            let starts_with = fst::automaton::Str::new(prefix).starts_with();
            let mut stream = block.search(starts_with).into_stream();
            while let Some((term, t)) = stream.next() {
                if term.len() > prefix.len() {
                    terms.push(t as u32);
                }
            }
        }
        let found = self
            .index
            .texts_entries(terms.into_iter().map(|t| t as usize));
        // Only prefixes of some term are kept, so the cache holds at most
        // every entry twice over (its 1- and 2-character prefix), whatever
        // queries arrive.
        if cached && complete && !found.is_empty() {
            self.prefix_cache
                .lock()
                .expect("not poisoned")
                .insert(prefix.to_string(), Arc::new(found.clone()));
        }
        found
    }

    /// Entries whose term contains `needle`: its own bitmap up to
    /// [`GRAM_CHARS`] characters; longer, the entries that hold all its
    /// grams, checked by their terms' text (each distinct term one unit of
    /// work, their text blocks within [`super::MAX_TEXT_BLOCKS`]).
    pub(super) fn containing(
        &self,
        grams: &Grams,
        needle: &str,
        admitted: Option<&RoaringBitmap>,
        typos: &mut Typos,
    ) -> Result<RoaringBitmap, SearchError> {
        if needle.chars().count() <= GRAM_CHARS {
            return Ok(grams.entries(needle)?.unwrap_or_default());
        }
        let candidates = holding_all(grams, &query_grams(needle), admitted)?;
        let terms = self.candidate_terms(&candidates, typos)?;
        if !typos.check_within_budget(&self.index, &terms) {
            return Err(SearchError::OverBudget);
        }
        let mut found = RoaringBitmap::new();
        let Some(texts) = typos.texts(&self.index, &terms) else {
            return Ok(found);
        };
        for t in terms
            .into_iter()
            .filter(|&t| texts.term(t).contains(needle))
        {
            found.extend(candidates.range(self.index.term_entries(t)));
        }
        Ok(found)
    }

    /// Entries whose term matches a wildcard pattern, found as its
    /// [`Plan`] says: a walk of the terms FST (or of the backwards one, with
    /// the pattern reversed) by the pattern's automaton, or the terms that
    /// hold the grams of its letters, each checked. The transitions a walk
    /// reads, or the terms checked, count against the work budget.
    pub(super) fn matching_pattern(
        &self,
        grams: Option<&Grams>,
        pattern: &Pattern,
        admitted: Option<&RoaringBitmap>,
        typos: &mut Typos,
    ) -> Result<RoaringBitmap, SearchError> {
        let (direction, nfa) = match pattern.plan() {
            Plan::Forwards => (Direction::Forwards, pattern.nfa()),
            Plan::Backwards => (Direction::Backwards, pattern.reversed().nfa()),
            Plan::Grams(list) => {
                let grams = grams.ok_or(CorruptData("pattern search without its grams"))?;
                return self.checked_pattern(grams, &list, &pattern.nfa(), admitted, typos);
            }
            Plan::Exactly(key) => {
                let grams = grams.ok_or(CorruptData("pattern search without its grams"))?;
                typos.work += 1;
                return Ok(holding_all(grams, &[&key], admitted)?);
            }
        };
        let dictionary = self.index.term_dictionary();
        let items = dictionary.items_matching(Fst::Terms(direction), &pattern::reach(&nfa));
        let mut terms = Vec::new();
        for block in typos.held(&self.index, &items) {
            let budget = WORK_BUDGET.saturating_sub(typos.work);
            let found = pattern::walk(&block, &nfa, budget);
            typos.work += found.work;
            if found.exhausted {
                return Err(SearchError::OverBudget);
            }
            terms.extend(found.terms);
        }
        Ok(self
            .index
            .texts_entries(terms.into_iter().map(|t| t as usize)))
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
        let terms = self.candidate_terms(&candidates, typos)?;
        if !typos.check_within_budget(&self.index, &terms) {
            return Err(SearchError::OverBudget);
        }
        let mut found = RoaringBitmap::new();
        let Some(texts) = typos.texts(&self.index, &terms) else {
            return Ok(found);
        };
        for t in terms.into_iter().filter(|&t| nfa.matches(texts.term(t))) {
            // Every entry of a term matches with it (the filters apply later).
            found.insert_range(self.index.term_entries(t));
        }
        Ok(found)
    }
}
