//! The capitalisation of the texts that mix it: per folded text whose
//! headwords start with a capital, with a lower-case letter or with a
//! letter without case (or no letter) in more than one of these ways, the
//! way of each of its entries, in the text's entry order (its words' terms
//! in order, each term's ordinals in order: [`super::Index::text_entries`]).
//! The exact tier, one text's entries, lists those capitalised as the query
//! was typed first (`Lodz` lists the city `Łódź` before the boat `łódź`).
//!
//! Stored in buckets by a hash of the text ([`super::buckets`]), as the last
//! items of the `terms` section (format 31): a search names its query's
//! bucket with the term block of its exact lookup, so that a cold instance
//! reads a few KB with that block where it read every mixed text's
//! capitalisation with the index (275 KB of `core` at 5.27 M entries). A
//! text of one kind is left out: its order is the same whichever part of
//! the split holds it all.
//!
//! A text's value: a byte per entry, [`LOWER`], [`CAPITAL`] or
//! [`CASELESS`].

use super::buckets::{self, Bucket};
use crate::codec::CorruptData;
use crate::fold::capitalised;
use crate::postings::Posting;
use roaring::RoaringBitmap;
use std::ops::Range;

const LOWER: u8 = 0;
const CAPITAL: u8 = 1;
const CASELESS: u8 = 2;

fn kind(p: &Posting) -> u8 {
    match capitalised(p.word()) {
        Some(true) => CAPITAL,
        Some(false) => LOWER,
        None => CASELESS,
    }
}

/// The buckets of the texts of `terms` (in rank order, their ordinal
/// ranges into `postings`) that mix capitalisations; `later_words` chains
/// each text's words (term, next term), as `core` holds them.
pub(super) fn encode(
    postings: &[Posting],
    terms: &[(&str, Range<u32>)],
    later_words: &[(u32, u32)],
) -> Vec<Vec<u8>> {
    // Each term's text's first term: a later word follows its text's
    // previous term, whose first term is known by then (by term order).
    let mut first_of: Vec<u32> = (0..terms.len() as u32).collect();
    for &(t, next) in later_words {
        first_of[next as usize] = first_of[t as usize];
    }
    let mut kinds_seen = vec![0u8; terms.len()];
    for (t, (_, range)) in terms.iter().enumerate() {
        for o in range.clone() {
            kinds_seen[first_of[t] as usize] |= 1 << kind(&postings[o as usize]);
        }
    }
    // The texts' values, by first term: its words come in term order, so
    // each text's entries are appended in ordinal order.
    let mut values: Vec<Option<Vec<u8>>> = vec![None; terms.len()];
    for (t, (_, range)) in terms.iter().enumerate() {
        let first = first_of[t] as usize;
        if kinds_seen[first].count_ones() < 2 {
            continue;
        }
        let value = values[first].get_or_insert_with(Vec::new);
        value.extend(range.clone().map(|o| kind(&postings[o as usize])));
    }
    let mixed = values
        .into_iter()
        .enumerate()
        .filter_map(|(t, value)| Some((terms[t].0, value?)))
        .collect();
    buckets::encode(mixed)
}

/// One bucket of the capitalisation of mixed texts, inflated.
pub struct CapitalBucket(Bucket);

impl CapitalBucket {
    pub fn decode(bytes: &[u8]) -> Result<Self, CorruptData> {
        Bucket::decode(bytes).map(Self)
    }

    /// An empty bucket: that of a build where no text mixes them.
    pub fn empty() -> Self {
        Self(Bucket::empty())
    }

    /// Of `entries`, the entries of the folded text `text` (this must be
    /// its bucket), those to list after the others: those whose headword
    /// is not capitalised as a word typed with a capital first letter
    /// (`typed`) or without one is ([`crate::fold::capitalised_as`]). A
    /// text of one kind is not stored, and keeps its ordinal order: all of
    /// its entries are the rest of a capital query and none of a lower-case
    /// one.
    pub fn not_capitalised_as(
        &self,
        text: &str,
        entries: &RoaringBitmap,
        typed: bool,
    ) -> Result<RoaringBitmap, CorruptData> {
        let Some(kinds) = self.0.get(text)? else {
            return Ok(match typed {
                true => entries.clone(),
                false => RoaringBitmap::new(),
            });
        };
        if kinds.len() as u64 != entries.len() {
            return Err(CorruptData("a capitalisation of other entries"));
        }
        let rest = entries.iter().zip(kinds).filter(|&(_, &kind)| match typed {
            true => kind != CAPITAL,
            false => kind != LOWER,
        });
        Ok(rest.map(|(o, _)| o).collect())
    }

    /// Bytes held in memory.
    pub fn memory_bytes(&self) -> usize {
        self.0.memory_bytes()
    }
}
