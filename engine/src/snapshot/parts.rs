//! Sections read by parts (`records`, `grams`, `definitions`): a query needs a few of their
//! parts, never all of them, so a cold instance reads only those. Item 0 of
//! such a section is its [`PartIndex`]: per part the first key it holds and
//! its size in bytes. Each part follows in one or more items (a part larger
//! than an item, such as the bitmap of a one-letter gram, spans several), so
//! a part's items are known from the index alone.
//!
//! The index (deflated): `[parts]`, then per part `[bytes shared with the
//! previous key][rest of the key: length, bytes][part size]`, varints. A
//! cold instance reads a section's index whole before any of its parts:
//! front-coded and deflated it is less than half the bytes (at 5.27
//! million entries 122 KB for `rhymes` against 319, 161 for
//! `definitions` against 328).

use super::MAX_PART_BYTES;
use crate::codec::{compress, inflate, put_varint, CorruptData, Reader};
use std::collections::HashMap;
use std::ops::Range;

/// What a part of a paged section aims at, each section its own
/// (`RECORD_PART_BYTES`, `GRAM_PART_BYTES`, `DEFINITION_PART_BYTES`): a
/// query reads whole parts, so smaller parts read less for a page, and
/// DynamoDB bills bytes, not items; but every part is a line of the part
/// index, which a cold instance reads whole. A part holds at least one
/// unit (a block of records, one gram's bitmap) whatever its size.
#[cfg(test)]
const PAGED_PART_BYTES: usize = 64 * 1024;

/// The first key of every part of a section, in key order, and each part's
/// bytes and items. Keys compare as bytes: a part holds the keys from its
/// own first key up to the next part's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartIndex {
    keys: Vec<Vec<u8>>,
    bytes: Vec<usize>,
    /// The first item of every part, and the number of items last (item 0
    /// is this index).
    first_item: Vec<usize>,
}

impl PartIndex {
    /// The stored items of a section made of `parts` (first key, bytes),
    /// keys ascending: this index, then each part in items of at most
    /// [`MAX_PART_BYTES`].
    pub(crate) fn store(parts: Vec<(Vec<u8>, Vec<u8>)>) -> Vec<Vec<u8>> {
        let mut raw = Vec::new();
        put_varint(&mut raw, parts.len());
        let mut previous: &[u8] = &[];
        for (key, bytes) in &parts {
            let shared = shared_prefix(previous, key);
            put_varint(&mut raw, shared);
            put_varint(&mut raw, key.len() - shared);
            raw.extend_from_slice(&key[shared..]);
            put_varint(&mut raw, bytes.len());
            previous = key;
        }
        let index = compress(&raw);
        assert!(
            index.len() <= MAX_PART_BYTES,
            "a part index fits one item ({} parts)",
            parts.len()
        );
        let mut items = vec![index];
        for (_, bytes) in parts {
            if bytes.is_empty() {
                items.push(bytes);
            } else {
                items.extend(bytes.chunks(MAX_PART_BYTES).map(<[u8]>::to_vec));
            }
        }
        items
    }

    pub fn decode(bytes: &[u8]) -> Result<Self, CorruptData> {
        let raw = inflate(bytes)?;
        let mut r = Reader::new(&raw);
        let count = r.count(3)?;
        let mut keys: Vec<Vec<u8>> = Vec::with_capacity(count);
        let mut sizes = Vec::with_capacity(count);
        let mut first_item = Vec::with_capacity(count + 1);
        let mut item = 1;
        for _ in 0..count {
            let shared = r.varint()?;
            let previous = keys.last().map_or(&[][..], Vec::as_slice);
            let Some(shared) = previous.get(..shared) else {
                return Err(CorruptData("a part key sharing more than its previous"));
            };
            let len = r.varint()?;
            let key = [shared, r.bytes(len)?].concat();
            if keys.last().is_some_and(|last: &Vec<u8>| *last >= key) {
                return Err(CorruptData("part keys out of order"));
            }
            keys.push(key);
            let size = r.varint()?;
            sizes.push(size);
            first_item.push(item);
            item += items_of(size);
        }
        first_item.push(item);
        if !r.is_done() || count == 0 {
            return Err(CorruptData("part index"));
        }
        Ok(Self {
            keys,
            bytes: sizes,
            first_item,
        })
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The items of the section: this index and every part's.
    pub fn items(&self) -> usize {
        *self.first_item.last().expect("at least the end")
    }

    /// The part that holds `key`: the last whose first key is not above it
    /// (the first part for a key below every part's).
    pub fn part_of(&self, key: &[u8]) -> usize {
        self.keys
            .partition_point(|first| first.as_slice() <= key)
            .saturating_sub(1)
    }

    /// The parts that may hold keys starting with `prefix` (a string of
    /// one part at least), in order.
    pub fn parts_with_prefix(&self, prefix: &[u8]) -> Range<usize> {
        let start = self.part_of(prefix);
        let end = self
            .keys
            .partition_point(|first| first.as_slice() < prefix || first.starts_with(prefix));
        start..end.max(start + 1)
    }

    /// Whether `automaton` can accept some key of part `part`'s range
    /// (from its first key to the next part's), from the index alone.
    pub fn may_match<A: fst::Automaton>(&self, part: usize, automaton: &A) -> bool {
        let next = self.keys.get(part + 1).map(Vec::as_slice);
        super::blocks::matches_between(automaton, &self.keys[part], next)
    }

    /// The first key of part `part`.
    pub fn first_key(&self, part: usize) -> &[u8] {
        &self.keys[part]
    }

    /// The items that hold part `part`, in order.
    pub fn part_items(&self, part: usize) -> Range<usize> {
        self.first_item[part]..self.first_item[part + 1]
    }

    /// The bytes of part `part`, for a buffer sized before it is filled.
    pub fn part_bytes(&self, part: usize) -> usize {
        self.bytes[part]
    }

    /// The bytes of every part.
    pub fn total_bytes(&self) -> usize {
        self.bytes.iter().sum()
    }
}

/// Items a part of `bytes` is stored in (an empty part is one empty item).
fn items_of(bytes: usize) -> usize {
    bytes.div_ceil(MAX_PART_BYTES).max(1)
}

/// Groups units (encoded, in key order) into parts of about `part_bytes`:
/// a part is closed before a unit that would take it over, so only a unit
/// larger than that makes a larger part, alone. Gives each part's units as
/// a range.
pub(crate) fn group(
    sizes: impl IntoIterator<Item = usize>,
    part_bytes: usize,
) -> Vec<Range<usize>> {
    let mut parts: Vec<Range<usize>> = Vec::new();
    let mut bytes = 0;
    for (i, size) in sizes.into_iter().enumerate() {
        match parts.last_mut() {
            Some(part) if bytes + size <= part_bytes => {
                part.end = i + 1;
                bytes += size;
            }
            _ => {
                parts.push(i..i + 1);
                bytes = size;
            }
        }
    }
    parts
}

/// The parts of `units` (keys sorted) of about `part_bytes(key)` bytes,
/// each run of units with the same target grouped on its own. A unit's
/// size is its key's and its value's: a section of keys with tiny values
/// (the sounds-like keys) still makes parts of about the target.
fn group_keyed<K: AsRef<[u8]>>(
    units: &[(K, Vec<u8>)],
    part_bytes: impl Fn(&[u8]) -> usize,
) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut start = 0;
    while start < units.len() {
        let target = part_bytes(units[start].0.as_ref());
        let run = units[start..]
            .iter()
            .take_while(|(k, _)| part_bytes(k.as_ref()) == target)
            .count();
        let sizes = units[start..start + run]
            .iter()
            .map(|(k, v)| k.as_ref().len() + v.len());
        ranges.extend(
            group(sizes, target)
                .into_iter()
                .map(|r| r.start + start..r.end + start),
        );
        start += run;
    }
    ranges
}

/// Whether the part index of [`store_keyed_by`] with these targets fits
/// its one item.
pub(crate) fn index_fits<K: AsRef<[u8]>>(
    units: &[(K, Vec<u8>)],
    part_bytes: impl Fn(&[u8]) -> usize,
) -> bool {
    index_bytes_at_most(units, &group_keyed(units, part_bytes)) <= MAX_PART_BYTES
}

/// The most bytes the part index of `units` grouped into `ranges` can take:
/// its front-coded keys ([`PartIndex::store`]), each part's size as three
/// bytes (enough for parts under 2 MB), and what deflate adds to bytes it
/// cannot shrink (5 bytes a stored block of at most 65,535).
fn index_bytes_at_most<K: AsRef<[u8]>>(units: &[(K, Vec<u8>)], ranges: &[Range<usize>]) -> usize {
    let mut previous: &[u8] = &[];
    let mut raw = varint_len(ranges.len());
    for r in ranges {
        let key = units[r.start].0.as_ref();
        let shared = shared_prefix(previous, key);
        raw += varint_len(shared) + varint_len(key.len() - shared) + key.len() - shared + 3;
        previous = key;
    }
    raw + 5 * (raw / 65_535 + 1) + 8
}

/// How many bytes `key` starts with that `previous` starts with too.
fn shared_prefix(previous: &[u8], key: &[u8]) -> usize {
    previous.iter().zip(key).take_while(|(a, b)| a == b).count()
}

/// The bytes of `n` as a varint.
fn varint_len(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()).max(1).div_ceil(7) as usize
}

/// A list being written under a key of a section of values by key
/// (`definitions`, `rhymes`): `[varint count]` then its entries, each
/// starting with the gap of its number from the last (the first from 0),
/// numbers ascending.
#[derive(Default)]
pub(crate) struct GapList {
    count: u32,
    last: u32,
    bytes: Vec<u8>,
}

impl GapList {
    /// Starts the entry of `number`, no less than the last: gives the bytes
    /// to write the rest of it to.
    pub(crate) fn start(&mut self, number: u32) -> &mut Vec<u8> {
        put_varint(&mut self.bytes, (number - self.last) as usize);
        (self.count, self.last) = (self.count + 1, number);
        &mut self.bytes
    }

    fn finish(self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.bytes.len() + 5);
        put_varint(&mut out, self.count as usize);
        out.extend(self.bytes);
        out
    }
}

/// The [`GapList`] of every key, each key numbered in a map of small
/// entries and the lists in a vector beside it: at five million entries
/// there are millions of keys (most of `definitions`' a phrase of one
/// definition), and a map that held each list in its slots, held twice
/// while it grew, was the build's peak (docs/benchmarks.md).
#[derive(Default)]
pub(crate) struct KeyedLists {
    numbers: HashMap<Box<str>, u32>,
    lists: Vec<GapList>,
}

impl KeyedLists {
    /// The list of `key`, a new one the first time.
    pub(crate) fn of(&mut self, key: &str) -> &mut GapList {
        let n = match self.numbers.get(key) {
            Some(&n) => n,
            None => {
                let n = u32::try_from(self.lists.len()).expect("keys fit 32 bits");
                self.numbers.insert(key.into(), n);
                self.lists.push(GapList::default());
                n
            }
        };
        &mut self.lists[n as usize]
    }

    /// Each key with its encoded list, in no order, each list let go of as
    /// it is encoded.
    pub(crate) fn finish(self) -> impl Iterator<Item = (Box<str>, Vec<u8>)> {
        let mut lists = self.lists;
        self.numbers
            .into_iter()
            .map(move |(key, n)| (key, std::mem::take(&mut lists[n as usize]).finish()))
    }
}

/// The stored items of a section of values by key (`grams`,
/// `definitions`): the units (a key and its encoded value, keys sorted and
/// distinct) grouped into parts of about `part_bytes`, each part a
/// [`KeyedPart`], behind the part index (each part's key is its first).
pub(crate) fn store_keyed<K: AsRef<[u8]>>(
    units: Vec<(K, Vec<u8>)>,
    part_bytes: usize,
) -> Vec<Vec<u8>> {
    store_keyed_by(units, |_| part_bytes)
}

/// [`store_keyed`] with parts of about `part_bytes(key)` bytes: each run of
/// units with the same target is grouped on its own (so that keys read
/// one at a time from all over the section fill small parts, and keys
/// read in runs large ones). Each part's units are let go once it is
/// encoded: the section is never held twice, as units and as parts
/// (hundreds of megabytes of a build's peak at millions of entries).
pub(crate) fn store_keyed_by<K: AsRef<[u8]>>(
    units: Vec<(K, Vec<u8>)>,
    part_bytes: impl Fn(&[u8]) -> usize,
) -> Vec<Vec<u8>> {
    let ranges = group_keyed(&units, part_bytes);
    let mut units = units.into_iter();
    let mut parts: Vec<(Vec<u8>, Vec<u8>)> = ranges
        .into_iter()
        .map(|range| {
            let part: Vec<(K, Vec<u8>)> = units.by_ref().take(range.len()).collect();
            (part[0].0.as_ref().to_vec(), KeyedPart::encode(&part))
        })
        .collect();
    if parts.is_empty() {
        parts.push((Vec::new(), KeyedPart::encode::<K>(&[])));
    }
    PartIndex::store(parts)
}

/// One part of a section of values by key: `[u64 FST length][FST: key →
/// offset << 32 | length][values]`, the value of a key read in place.
pub struct KeyedPart {
    index: fst::Map<Vec<u8>>,
    values: Vec<u8>,
}

impl KeyedPart {
    fn encode<K: AsRef<[u8]>>(units: &[(K, Vec<u8>)]) -> Vec<u8> {
        let mut index = fst::MapBuilder::memory();
        let mut at = 0u64;
        for (key, value) in units {
            let len = value.len() as u64;
            index
                .insert(key, (at << 32) | len)
                .expect("keys are distinct and sorted");
            at += len;
        }
        let index = index.into_inner().expect("writing to a Vec cannot fail");
        let mut out = Vec::with_capacity(8 + index.len() + at as usize);
        out.extend_from_slice(&(index.len() as u64).to_le_bytes());
        out.extend(index);
        for (_, value) in units {
            out.extend_from_slice(value);
        }
        out
    }

    pub(crate) fn decode(mut bytes: Vec<u8>) -> Result<Self, CorruptData> {
        let len = bytes
            .get(..8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")) as usize)
            .filter(|len| len.checked_add(8).is_some_and(|end| end <= bytes.len()))
            .ok_or(CorruptData("keyed part header"))?;
        let values = bytes.split_off(8 + len);
        bytes.drain(..8);
        let index = fst::Map::new(bytes).map_err(|_| CorruptData("keys are not an FST"))?;
        Ok(Self { index, values })
    }

    /// The value of `key`, if the part has it.
    pub(crate) fn get(&self, key: &[u8]) -> Result<Option<&[u8]>, CorruptData> {
        let Some(at) = self.index.get(key) else {
            return Ok(None);
        };
        let (start, len) = ((at >> 32) as usize, (at & 0xffff_ffff) as usize);
        self.values
            .get(start..start + len)
            .map(Some)
            .ok_or(CorruptData("a value out of its part"))
    }

    /// Calls `visit` with each key of the part that `automaton` accepts and
    /// its value, in key order: the walk of the FST follows only the paths
    /// on which the automaton can still accept, so its cost is that of the
    /// keys near a match, not of the part.
    pub(crate) fn each_match<'s, A: fst::Automaton, E: From<CorruptData>>(
        &'s self,
        automaton: A,
        mut visit: impl FnMut(&[u8], &'s [u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        use fst::{IntoStreamer, Streamer};
        let mut stream = self.index.search(automaton).into_stream();
        while let Some((key, at)) = stream.next() {
            visit(key, self.value_at(at)?)?;
        }
        Ok(())
    }

    /// The value an FST output points at.
    fn value_at(&self, at: u64) -> Result<&[u8], CorruptData> {
        let (start, len) = ((at >> 32) as usize, (at & 0xffff_ffff) as usize);
        self.values
            .get(start..start + len)
            .ok_or(CorruptData("a value out of its part"))
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        self.index.as_fst().as_bytes().len() + self.values.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn index_of(parts: &[(Vec<u8>, usize)]) -> (PartIndex, Vec<Vec<u8>>) {
        let stored = PartIndex::store(
            parts
                .iter()
                .map(|(k, n)| (k.clone(), vec![7u8; *n]))
                .collect(),
        );
        (PartIndex::decode(&stored[0]).unwrap(), stored)
    }

    proptest! {
        /// `part_of` against the definition: the last part whose first key
        /// is at most the key, read by walking every part.
        #[test]
        fn part_of_is_the_last_part_starting_at_or_before_the_key(
            keys in proptest::collection::btree_set(proptest::collection::vec(0u8..4, 0..4), 1..20),
            probes in proptest::collection::vec(proptest::collection::vec(0u8..5, 0..5), 1..30),
        ) {
            let parts: Vec<(Vec<u8>, usize)> = keys.into_iter().map(|k| (k, 3)).collect();
            let (index, _) = index_of(&parts);
            for probe in probes {
                let mut expected = 0;
                for (p, (first, _)) in parts.iter().enumerate() {
                    if first.as_slice() <= probe.as_slice() {
                        expected = p;
                    }
                }
                prop_assert_eq!(index.part_of(&probe), expected, "{:?}", probe);
            }
        }

        /// Every part's items, read back in order and joined, are its bytes;
        /// together they are every item after the index, none twice.
        #[test]
        fn a_parts_items_hold_exactly_its_bytes(
            sizes in proptest::collection::vec(prop_oneof![0usize..10, Just(MAX_PART_BYTES), MAX_PART_BYTES - 1..MAX_PART_BYTES + 2], 1..6),
        ) {
            let parts: Vec<(Vec<u8>, Vec<u8>)> = sizes
                .iter()
                .enumerate()
                .map(|(p, n)| (vec![p as u8], (0..*n).map(|i| (i % 251) as u8 ^ p as u8).collect()))
                .collect();
            let stored = PartIndex::store(parts.clone());
            let index = PartIndex::decode(&stored[0]).unwrap();
            prop_assert_eq!(index.items(), stored.len());
            let mut next = 1;
            for (p, (_, bytes)) in parts.iter().enumerate() {
                let items = index.part_items(p);
                prop_assert_eq!(items.start, next);
                next = items.end;
                prop_assert!(stored[items.clone()].iter().all(|i| i.len() <= MAX_PART_BYTES));
                prop_assert_eq!(&stored[items].concat(), bytes);
                prop_assert_eq!(index.part_bytes(p), bytes.len());
            }
            prop_assert_eq!(next, stored.len());
        }

        /// Keyed grouping never puts two targets in one part, keeps each
        /// part within its target unless it is one unit, and says whether
        /// the index fits from an estimate never below the index stored.
        #[test]
        fn keyed_parts_keep_to_their_keys_target(
            keys in proptest::collection::btree_set("[a-c][a-z]{0,6}", 1..200),
            value_len in 0usize..40,
            small in 1usize..64,
        ) {
            let units: Vec<(Vec<u8>, Vec<u8>)> = keys
                .iter()
                .map(|k| (k.as_bytes().to_vec(), vec![7; value_len]))
                .collect();
            let target = |key: &[u8]| if key[0] == b'b' { small } else { 256 };
            let ranges = group_keyed(&units, target);
            let flat: Vec<usize> = ranges.iter().flat_map(Clone::clone).collect();
            prop_assert_eq!(flat, (0..units.len()).collect::<Vec<_>>());
            for r in &ranges {
                let part = &units[r.clone()];
                let wanted = target(&part[0].0);
                prop_assert!(part.iter().all(|(k, _)| target(k) == wanted));
                let bytes: usize = part.iter().map(|(k, v)| k.len() + v.len()).sum();
                prop_assert!(bytes <= wanted || part.len() == 1);
            }
            prop_assert!(index_fits(&units, target));
            let stored = store_keyed_by(units.clone(), target);
            let index = PartIndex::decode(&stored[0]).unwrap();
            prop_assert_eq!(index.len(), ranges.len());
            prop_assert!(stored[0].len() <= index_bytes_at_most(&units, &ranges));
        }

        /// Grouping keeps units in order, each once, and a part over the
        /// target only when it is one unit.
        #[test]
        fn grouping_keeps_parts_near_the_target(
            sizes in proptest::collection::vec(prop_oneof![0usize..20_000, Just(PAGED_PART_BYTES), PAGED_PART_BYTES..3 * PAGED_PART_BYTES], 0..60),
        ) {
            let parts = group(sizes.iter().copied(), PAGED_PART_BYTES);
            let flat: Vec<usize> = parts.iter().flat_map(Clone::clone).collect();
            prop_assert_eq!(flat, (0..sizes.len()).collect::<Vec<_>>());
            for (p, part) in parts.iter().enumerate() {
                let bytes: usize = sizes[part.clone()].iter().sum();
                prop_assert!(bytes <= PAGED_PART_BYTES || part.len() == 1);
                // It was closed only because the next unit would not fit.
                if let Some(next) = parts.get(p + 1) {
                    prop_assert!(bytes + sizes[next.start] > PAGED_PART_BYTES);
                }
            }
        }
    }

    #[test]
    fn an_index_of_too_many_parts_does_not_fit() {
        // Keys that share little with the one before: front coding saves
        // a byte or two of each.
        let mut units: Vec<(String, Vec<u8>)> = (0u64..40_000)
            .map(|i| {
                (
                    format!("{:016x}", i.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
                    vec![0; 10],
                )
            })
            .collect();
        units.sort();
        assert!(index_fits(&units, |_| 1024));
        // One part a unit: 40,000 lines of about 20 bytes.
        assert!(!index_fits(&units, |_| 1));
    }

    #[test]
    fn a_corrupt_index_is_an_error() {
        assert!(PartIndex::decode(&[]).is_err());
        assert!(PartIndex::decode(&[0]).is_err(), "no part at all");
        let stored = PartIndex::store(vec![(b"b".to_vec(), vec![1]), (b"c".to_vec(), vec![2])]);
        assert!(PartIndex::decode(&stored[0][..stored[0].len() - 1]).is_err());
        let unordered = PartIndex::store(vec![(b"c".to_vec(), vec![1]), (b"b".to_vec(), vec![2])]);
        assert!(PartIndex::decode(&unordered[0]).is_err());
    }
}
