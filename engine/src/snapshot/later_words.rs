//! The later words of a text: a folded headword that is a word of several
//! languages is a term per language, and the term dictionaries hold the
//! text once, valued with its first (most common) term; each term whose
//! text has a later term is chained to it, (term, next term).
//!
//! Stored in the term blocks that hold the texts (format 32): each block
//! of the forward, backward and middle-deletion FSTs carries the chains of
//! the texts it values, before its FST. A walk or lookup that finds a text
//! holds the block that chains its words, so a cold instance reads no
//! chain it does not use, where it read every one with `core` (397 KB of
//! its 1 MB at 5.27 M entries). An instance keeps the chains of every
//! block it has read ([`LaterWords`]) and lets them go only with the
//! blocks' whole cache: a text found in a held block then always has its
//! chain, whatever the cache evicts meanwhile.
//!
//! A block item: `[chain count][(term delta, next − term) varints][FST]`.

use super::blocks;
use crate::codec::{put_varint, CorruptData, Reader};
use fst::{Map, Streamer};
use std::collections::HashMap;
use std::ops::Range;
use std::sync::RwLock;

/// A term and the next term of its text.
pub(super) type Link = (u32, u32);

/// For every term whose text is the text of a later term too, that next
/// term: (term, next term), by term. `terms` are in term order, their
/// texts first.
pub(super) fn of_terms(terms: &[(&str, Range<u32>)]) -> Vec<Link> {
    let mut last: HashMap<&str, u32> = HashMap::new();
    let mut next = Vec::new();
    for (t, (text, _)) in (0u32..).zip(terms) {
        if let Some(before) = last.insert(text, t) {
            next.push((before, t));
        }
    }
    next.sort_unstable();
    next
}

/// The most bytes a block item's chain count takes: a varint of fewer
/// than 2^21 links.
pub(super) const COUNT_BYTES: usize = 3;

/// At most the bytes the chain of the text whose first term is `first`
/// takes in a block item (each link's term delta at most its term), so
/// that a block is cut with its chains within its size
/// ([`super::blocks::build`]).
pub(super) fn chain_bytes(first: u64, next_of: &HashMap<u32, u32>) -> usize {
    let varint_len = |n: u32| (32 - n.leading_zeros()).div_ceil(7).max(1) as usize;
    let mut bytes = 0;
    let mut t = first as u32;
    while let Some(&next) = next_of.get(&t) {
        bytes += varint_len(t) + varint_len(next - t);
        t = next;
    }
    bytes
}

/// The item of a term block: its FST (whose values are the first terms of
/// its texts) after the chains of those texts' words, from `next_of`.
pub(super) fn block_item(fst: Vec<u8>, next_of: &HashMap<u32, u32>) -> Vec<u8> {
    let map = Map::new(fst).expect("a block the build made");
    let mut chains: Vec<Link> = Vec::new();
    let mut stream = map.stream();
    while let Some((_, first)) = stream.next() {
        let mut t = first as u32;
        while let Some(&next) = next_of.get(&t) {
            chains.push((t, next));
            t = next;
        }
    }
    chains.sort_unstable();
    let mut item = Vec::new();
    put_varint(&mut item, chains.len());
    let mut before = 0;
    for (t, next) in chains {
        put_varint(&mut item, (t - before) as usize);
        put_varint(&mut item, (next - t) as usize);
        before = t;
    }
    item.extend_from_slice(map.as_fst().as_bytes());
    item
}

/// A term block's item as read from the store.
pub(super) struct ChainedBlock {
    pub fst: Map<Vec<u8>>,
    pub chains: Vec<Link>,
}

/// A term block's item read from the store: its FST, checked to value
/// only terms below `terms`, and its chains.
pub(super) fn decode_block(item: &[u8], terms: usize) -> Result<ChainedBlock, CorruptData> {
    let mut r = Reader::new(item);
    let count = r.count(2)?;
    let mut chains = Vec::with_capacity(count);
    let mut before = 0usize;
    for i in 0..count {
        let t = before
            .checked_add(r.varint()?)
            .filter(|&t| i == 0 || t > before)
            .ok_or(CorruptData("later words out of order"))?;
        // A chain only rises, so that following one always ends.
        let next = t
            .checked_add(r.varint()?)
            .filter(|&next| next > t && next < terms)
            .ok_or(CorruptData("a later word out of range"))?;
        chains.push((t as u32, next as u32));
        before = t;
    }
    let fst = r.bytes(r.remaining())?.to_vec();
    let map = blocks::map_of(fst, "a terms block is not an FST")?;
    let mut stream = map.stream();
    while let Some((_, value)) = stream.next() {
        if value >= terms as u64 {
            return Err(CorruptData("a term number beyond the terms"));
        }
    }
    Ok(ChainedBlock { fst: map, chains })
}

/// The chains of the term blocks an instance has read.
#[derive(Default)]
pub(crate) struct LaterWords(RwLock<HashMap<u32, u32>>);

impl LaterWords {
    pub(super) fn add(&self, chains: &[Link]) {
        if chains.is_empty() {
            return;
        }
        let mut next_of = self.0.write().expect("not poisoned");
        next_of.extend(chains.iter().copied());
    }

    /// The terms of the text whose first term is `t`, found in a block the
    /// instance has read: `t`, then the same text in each other language,
    /// most common first.
    pub(super) fn text_terms(&self, t: usize) -> Vec<usize> {
        let next_of = self.0.read().expect("not poisoned");
        let mut terms = vec![t];
        let mut t = t as u32;
        while let Some(&next) = next_of.get(&t) {
            terms.push(next as usize);
            t = next;
        }
        terms
    }

    pub(super) fn clear(&self) {
        self.0.write().expect("not poisoned").clear();
    }

    /// Bytes held (approximate: a hash map's entry and control byte).
    pub(super) fn memory_bytes(&self) -> usize {
        9 * self.0.read().expect("not poisoned").capacity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(keys: &[(&str, u64)], next_of: &HashMap<u32, u32>) -> Vec<u8> {
        let map = Map::from_iter(keys.iter().map(|&(k, v)| (k, v))).unwrap();
        block_item(map.into_fst().into_inner(), next_of)
    }

    /// A block chains the words of the texts it values, and only those:
    /// an instance that reads it knows their later terms.
    #[test]
    fn a_block_chains_the_words_of_its_texts() {
        let next_of: HashMap<u32, u32> = [(0, 4), (4, 7), (1, 2)].into_iter().collect();
        let item = block(&[("bank", 0), ("zebra", 3)], &next_of);
        let ChainedBlock { fst, chains } = decode_block(&item, 8).unwrap();
        assert_eq!(fst.get("bank"), Some(0));
        assert_eq!(chains, vec![(0, 4), (4, 7)], "not the chain of term 1");
        let later = LaterWords::default();
        later.add(&chains);
        assert_eq!(later.text_terms(0), vec![0, 4, 7]);
        assert_eq!(later.text_terms(3), vec![3]);
        later.clear();
        assert_eq!(later.text_terms(0), vec![0]);
    }

    #[test]
    fn a_damaged_block_is_refused_not_followed() {
        let next_of: HashMap<u32, u32> = [(0, 4), (4, 7)].into_iter().collect();
        let item = block(&[("bank", 0)], &next_of);
        assert!(
            decode_block(&item, 7).is_err(),
            "a later word beyond the terms"
        );
        for cut in 0..item.len() {
            assert!(decode_block(&item[..cut], 8).is_err(), "cut at {cut}");
        }
        // (0, 4) then (4, 0): a chain that would fall back on itself.
        let mut looping = Vec::new();
        for n in [2, 0, 4, 4, 0] {
            put_varint(&mut looping, n);
        }
        looping.extend_from_slice(&item[5..]);
        assert!(decode_block(&looping, 8).is_err());
        assert!(decode_block(&block(&[("bank", 9)], &next_of), 8).is_err());
    }
}
