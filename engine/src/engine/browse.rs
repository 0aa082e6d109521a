//! Browsing: autocomplete and random picks, and the filter bitmaps every
//! query is narrowed by (read from `grams`).

use super::SearchError;
use super::Searcher;
use super::FILTER_CACHE;
use crate::codec::CorruptData;
use crate::filters::Filters;
use crate::snapshot::{Direction, Fst, Grams, Missing, TermBlock};
use fst::{Automaton, IntoStreamer, Streamer};
use rand::Rng;
use roaring::RoaringBitmap;
use std::sync::Arc;

/// The most term blocks under a prefix an autocomplete looks through
/// (64 blocks of 3.8 KB hold about 16,000 terms): under a filter that
/// admits few of their entries it answers with the completions found there,
/// fewer than asked or none, instead of reading on. Without the bound a
/// prefix of hundreds of blocks and a `source` of other words read 8 more
/// blocks a run until the request's runs ran out, a 503.
pub(crate) const AUTOCOMPLETE_BLOCKS: usize = 64;

/// How many missing term blocks an autocomplete names in its first run:
/// eight blocks hold about 2,000 terms, more than a page of completions
/// without a filter. Each later run names up to twice the blocks it already
/// holds, so a cold instance reads all [`AUTOCOMPLETE_BLOCKS`] in three runs
/// (8, 16, then 40) and their text blocks in a fourth.
const AUTOCOMPLETE_MISSING: usize = 8;

impl Searcher {
    /// Autocomplete: distinct headwords whose term starts with `prefix`,
    /// alphabetical by term, then by headword; at most `limit`, from the
    /// first [`AUTOCOMPLETE_BLOCKS`] term blocks under the prefix. It reads
    /// the prefix's term blocks in order until it has them, so a cold
    /// instance names the first [`AUTOCOMPLETE_MISSING`] missing ones at
    /// once, and more in each run after.
    pub fn autocomplete(
        &self,
        grams: Option<&Grams>,
        prefix: &str,
        filters: &Filters<'_>,
        limit: usize,
    ) -> Result<Vec<String>, SearchError> {
        let admitted = self.admitted(grams, filters)?;
        let mut terms: Vec<usize> = Vec::new();
        let dictionary = self.index.term_dictionary();
        let mut missing = Missing::default();
        let items =
            dictionary.items_with_prefix(Fst::Terms(Direction::Forwards), prefix.as_bytes());
        let mut held = 0;
        for item in items.into_iter().take(AUTOCOMPLETE_BLOCKS) {
            if terms.len() >= limit || missing.len() >= AUTOCOMPLETE_MISSING.max(2 * held) {
                break;
            }
            let blocks = dictionary.held(&[item], &mut missing);
            held += blocks.len();
            for block in blocks {
                self.complete_from(&block, prefix, admitted.as_deref(), limit, &mut terms);
            }
        }
        missing.into_result()?;
        // Each term gives at least one headword: `limit` terms are enough.
        terms.truncate(limit);
        let words = terms.iter().flat_map(|&t| self.index.text_terms(t));
        let texts = self.index.texts(words.collect::<Vec<_>>())?;
        let mut words: Vec<String> = Vec::new();
        for t in terms {
            let entries = self.index.text_entries(t);
            let mut here: Vec<&str> = match &admitted {
                Some(a) => (&entries & &**a).iter().map(|o| texts.word(o)).collect(),
                None => entries.iter().map(|o| texts.word(o)).collect(),
            };
            here.sort_unstable();
            here.dedup();
            words.extend(here.into_iter().map(str::to_string));
        }
        words.truncate(limit);
        Ok(words)
    }

    /// Adds the terms of `block` under `prefix` that have an admitted
    /// entry until `terms` has `limit`.
    fn complete_from(
        &self,
        block: &TermBlock,
        prefix: &str,
        admitted: Option<&RoaringBitmap>,
        limit: usize,
        terms: &mut Vec<usize>,
    ) {
        let mut stream = block
            .search(fst::automaton::Str::new(prefix).starts_with())
            .into_stream();
        while let Some((_, t)) = stream.next() {
            if terms.len() >= limit {
                break;
            }
            let t = t as usize;
            match admitted {
                Some(a) if self.index.text_entries(t).is_disjoint(a) => continue,
                _ => terms.push(t),
            }
        }
    }

    /// `count` distinct entries drawn uniformly from those that pass the
    /// filters (fewer when fewer pass).
    pub fn random(
        &self,
        grams: Option<&Grams>,
        filters: &Filters<'_>,
        count: usize,
        rng: &mut impl Rng,
    ) -> Result<Vec<u32>, CorruptData> {
        let admitted = self.admitted(grams, filters)?;
        let pool = admitted
            .as_ref()
            .map_or(u64::from(self.index.entries()), |a| a.len());
        let amount = count.min(pool as usize);
        Ok(rand::seq::index::sample(rng, pool as usize, amount)
            .into_iter()
            .filter_map(|n| match &admitted {
                Some(a) => a.select(n as u32),
                None => Some(n as u32),
            })
            .collect())
    }

    /// The entries that pass the filters, or `None` when every entry does:
    /// the intersection of their bitmaps, read from `grams`, which must
    /// hold their parts ([`crate::snapshot::filter_keys`]). Cached per
    /// combination of filters.
    pub(crate) fn admitted(
        &self,
        grams: Option<&Grams>,
        filters: &Filters<'_>,
    ) -> Result<Option<Arc<RoaringBitmap>>, CorruptData> {
        if filters.is_empty() {
            return Ok(None);
        }
        let key = format!("{filters:?}");
        if let Some(hit) = self.filter_cache.lock().expect("not poisoned").get(&key) {
            return Ok(Some(hit.clone()));
        }
        let grams = grams.ok_or(CorruptData("a filtered query without its filters' bitmaps"))?;
        let admitted = Arc::new(grams.admitted(filters)?.unwrap_or_default());
        let mut cache = self.filter_cache.lock().expect("not poisoned");
        if cache.len() >= FILTER_CACHE {
            cache.clear();
        }
        cache.insert(key, admitted.clone());
        Ok(Some(admitted))
    }
}
