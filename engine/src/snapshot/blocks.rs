//! A sorted map from byte keys to numbers, stored in blocks that are read
//! as a query needs them (issue 39: the term dictionaries of a cold
//! instance). Each block is an FST of a run of keys, closed when it reaches
//! a byte budget, so that a block is one small item; a [`BlockRoot`], read
//! once per build, holds where each block starts: the first block's first
//! key, then for each next block the shortest string above the keys before
//! it and not above its own first key, front-coded (every cold instance
//! reads the root, so it is kept small). A block holds the keys from its
//! start up to the next block's, so from the root alone a reader knows the
//! one block an exact lookup reads, the run of blocks a prefix covers, and
//! the blocks in whose key range an automaton (a typo walk, a pattern) can
//! match: the others are never fetched.
//!
//! The design is Lucene's block tree and tantivy's sstable (a small index
//! over size-bounded blocks), with FSTs as the blocks so that the walks
//! that run over one FST today run over each block unchanged.
//!
//! The root also holds, per block, the writing systems of its keys' second
//! characters ([`script_class`]), a byte each (format 17): a key's range
//! says little about its second character, and a typo walk that may edit
//! a key's first character reaches a block for nearly every first
//! character, most of them of other scripts (at 2.43 million entries, 600
//! of the 700 blocks a backwards walk of a Latin query reached began with
//! kana, CJK, Arabic … characters). A block whose second characters are of
//! none of the scripts the walk needs there is left out.

use crate::codec::{put_varint, CorruptData, Reader};
use fst::{Automaton, IntoStreamer, Map, MapBuilder, Streamer};
use std::ops::Range;

/// Where every block starts, in order: no key of a block sorts before its
/// start, and every key before the start is in an earlier block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockRoot {
    first_keys: Vec<Box<[u8]>>,
    /// Per block, the [`script_class`] bits of its keys' second characters
    /// (every bit for a key that is not UTF-8).
    second_scripts: Vec<u8>,
}

/// The bit of `c`'s writing system, by Unicode block ranges: ASCII, the
/// rest of Latin, IPA/Greek/Cyrillic/Armenian, Hebrew/Arabic/Syriac/Thaana,
/// the scripts of India and South-East Asia and Georgian, Hangul jamo and
/// Latin Extended Additional and the rest up to U+2FFF, kana and CJK, and
/// everything after.
pub fn script_class(c: char) -> u8 {
    let class = match u32::from(c) {
        0..=0x7f => 0,
        0x80..=0x24f => 1,
        0x250..=0x58f => 2,
        0x590..=0x8ff => 3,
        0x900..=0x10ff => 4,
        0x1100..=0x2fff => 5,
        0x3000..=0x9fff => 6,
        _ => 7,
    };
    1 << class
}

/// The [`script_class`] bits of the second characters of `keys`.
fn second_scripts<'k>(keys: impl Iterator<Item = &'k [u8]>) -> u8 {
    let mut bits = 0;
    for key in keys {
        match std::str::from_utf8(key) {
            Ok(text) => bits |= text.chars().nth(1).map_or(0, script_class),
            Err(_) => return u8::MAX,
        }
    }
    bits
}

/// How many times its stored size a root may take decoded, once past
/// [`ROOT_DECODED_FLOOR`]: a real one takes about twice.
const MAX_ROOT_EXPANSION: usize = 16;

/// What any root may take decoded, however little it stores: the starts of
/// long keys that share most of their bytes (a dictionary of phrases that
/// begin alike) are a real root that front coding shrinks far more.
const ROOT_DECODED_FLOOR: usize = 1 << 20;

/// A map cut into blocks: the root and each block's FST bytes, in key order.
pub struct Blocked {
    pub root: BlockRoot,
    pub blocks: Vec<Vec<u8>>,
}

/// Cuts sorted, distinct `pairs` into blocks: a block closes at the first
/// key that takes it to `close_at` bytes, and takes at most `at_most`
/// (that key and those before it go to the next block while it would take
/// more), unless one key alone does: then it is a block of its own. A
/// block's bytes are its FST's and, per key, the `beside` bytes its item
/// stores beside the FST for the key's value (the term blocks' chains,
/// [`super::later_words`]).
pub fn build(
    pairs: impl IntoIterator<Item = (Vec<u8>, u64)>,
    close_at: usize,
    at_most: usize,
    beside: &dyn Fn(u64) -> usize,
) -> Blocked {
    let mut built = Blocked {
        root: BlockRoot {
            first_keys: Vec::new(),
            second_scripts: Vec::new(),
        },
        blocks: Vec::new(),
    };
    let mut last_key: Option<Vec<u8>> = None;
    // The keys of the open block, and a builder of them to measure it by.
    let mut open: Vec<(Vec<u8>, u64)> = Vec::new();
    let mut measure = MapBuilder::memory();
    let mut open_beside = 0;
    for (key, value) in pairs {
        measure
            .insert(&key, value)
            .expect("keys are sorted and distinct");
        open_beside += beside(value);
        open.push((key, value));
        if measure.bytes_written() as usize + open_beside >= close_at {
            let rest = seal(&mut built, &mut last_key, &mut open, at_most, beside);
            measure = MapBuilder::memory();
            open_beside = 0;
            for (key, value) in &rest {
                measure.insert(key, *value).expect("still sorted");
                open_beside += beside(*value);
            }
            open = rest;
        }
    }
    while !open.is_empty() {
        open = seal(&mut built, &mut last_key, &mut open, at_most, beside);
    }
    built
}

/// Closes a block of the longest run of `open`'s keys from its first whose
/// FST takes at most `at_most` bytes (one key at least), and gives back the
/// keys left for the next block.
fn seal(
    built: &mut Blocked,
    last_key: &mut Option<Vec<u8>>,
    open: &mut Vec<(Vec<u8>, u64)>,
    at_most: usize,
    beside: &dyn Fn(u64) -> usize,
) -> Vec<(Vec<u8>, u64)> {
    let fst_of = |keys: &[(Vec<u8>, u64)]| {
        let pairs = keys.iter().map(|(k, v)| (k, *v));
        Map::from_iter(pairs)
            .expect("keys are sorted and distinct")
            .into_fst()
            .into_inner()
    };
    let mut taken = open.len();
    let mut block = fst_of(open);
    let mut block_beside: usize = open.iter().map(|&(_, value)| beside(value)).sum();
    while block.len() + block_beside > at_most && taken > 1 {
        taken -= 1;
        block_beside -= beside(open[taken].1);
        block = fst_of(&open[..taken]);
    }
    let rest = open.split_off(taken);
    let keys = open.iter().map(|(key, _)| key.as_slice());
    built.root.second_scripts.push(second_scripts(keys));
    let first = &open[0].0;
    built
        .root
        .first_keys
        .push(start_after(last_key.as_deref(), first).into());
    built.blocks.push(block);
    *last_key = open.pop().map(|(key, _)| key);
    rest
}

/// Where a block whose first key is `first` starts, after a block whose
/// last key is `last`: the shortest prefix of `first` above `last` (the
/// first block starts at its first key).
fn start_after<'k>(last: Option<&[u8]>, first: &'k [u8]) -> &'k [u8] {
    let Some(last) = last else {
        return first;
    };
    &first[..(shared_len(last, first) + 1).min(first.len())]
}

/// The number of leading bytes `a` and `b` share.
fn shared_len(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

impl BlockRoot {
    /// The number of blocks.
    pub fn len(&self) -> usize {
        self.first_keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.first_keys.is_empty()
    }

    /// The block that holds `key` if any block does: the last one whose
    /// first key is not after it.
    pub fn block_of(&self, key: &[u8]) -> Option<usize> {
        self.first_keys
            .partition_point(|first| first.as_ref() <= key)
            .checked_sub(1)
    }

    /// The blocks that may hold a key starting with `prefix`, in order.
    pub fn blocks_with_prefix(&self, prefix: &[u8]) -> Range<usize> {
        let start = self.block_of(prefix).unwrap_or(0);
        // Past the last block whose first key starts with the prefix or
        // sorts before it.
        let end = self
            .first_keys
            .partition_point(|first| first.as_ref() < prefix || first.starts_with(prefix));
        start..end.max(start)
    }

    /// The blocks in whose key range `automaton` can match some string:
    /// a block left out holds no match. Where the automaton dies on a
    /// prefix of a block's start, the blocks that start and end within
    /// that prefix are skipped in one binary search: a typo walk's
    /// automaton dies after a letter or two almost everywhere, and testing
    /// each of 7,000 blocks of a direction took 5 to 9% of a warm typo
    /// search at 5 million entries.
    pub fn blocks_matching<A: Automaton>(&self, automaton: &A) -> Vec<usize> {
        let mut found = Vec::new();
        let mut b = 0;
        while b < self.len() {
            if let Some(dead) = dead_prefix(automaton, &self.first_keys[b]) {
                // The starts from `b` on that begin with `dead` are a run;
                // each block but the run's last ends within it too.
                let run = self.first_keys[b..].partition_point(|first| first.starts_with(dead));
                b += run - 1;
            }
            if self.block_matches(automaton, b) {
                found.push(b);
            }
            b += 1;
        }
        found
    }

    /// Whether some key of block `b` may have a second character of one of
    /// the [`script_class`] bits `scripts`.
    pub fn may_have_second_char_in(&self, b: usize, scripts: u8) -> bool {
        self.second_scripts[b] & scripts != 0
    }

    /// Whether `automaton` can match some string in block `b`'s key range.
    fn block_matches<A: Automaton>(&self, automaton: &A, b: usize) -> bool {
        let next = self.first_keys.get(b + 1).map(AsRef::as_ref);
        matches_between(automaton, &self.first_keys[b], next)
    }

    /// The root as stored: per block its start, as the bytes it shares
    /// with the previous block's start and the rest; then per block the
    /// scripts of its second characters, a byte each.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        put_varint(&mut out, self.len());
        let mut previous: &[u8] = &[];
        for first in &self.first_keys {
            let shared = shared_len(previous, first);
            put_varint(&mut out, shared);
            put_varint(&mut out, first.len() - shared);
            out.extend_from_slice(&first[shared..]);
            previous = first;
        }
        out.extend_from_slice(&self.second_scripts);
        out
    }

    /// Writes the root after its length, as a larger root (the terms')
    /// holds each of its block roots.
    pub fn put(&self, out: &mut Vec<u8>) {
        let encoded = self.encode();
        put_varint(out, encoded.len());
        out.extend(encoded);
    }

    /// Reads a root written by [`BlockRoot::put`].
    pub fn read(r: &mut Reader<'_>) -> Result<Self, CorruptData> {
        let len = r.varint()?;
        Self::decode(r.bytes(len)?)
    }

    pub fn decode(bytes: &[u8]) -> Result<Self, CorruptData> {
        let mut r = Reader::new(bytes);
        // Per block at least its two varints and its scripts' byte.
        let count = r.count(3)?;
        let mut root = BlockRoot {
            first_keys: Vec::with_capacity(count),
            second_scripts: Vec::new(),
        };
        // Front coding lets a few bytes stand for long keys: a root that
        // decodes to far more than it stores is not one this build wrote.
        let mut decoded = 0usize;
        for _ in 0..count {
            let previous: &[u8] = root.first_keys.last().map_or(&[], |p| p);
            let shared = r.varint()?;
            let rest = r.varint()?;
            let shared = previous
                .get(..shared)
                .ok_or(CorruptData("a block start shares more than there is"))?;
            decoded += shared.len() + rest;
            if decoded > (MAX_ROOT_EXPANSION * bytes.len()).max(ROOT_DECODED_FLOOR) {
                return Err(CorruptData("a block root decodes to too many bytes"));
            }
            let first: Box<[u8]> = [shared, r.bytes(rest)?].concat().into();
            if root.first_keys.last().is_some_and(|last| *last >= first) {
                return Err(CorruptData("block keys out of order"));
            }
            root.first_keys.push(first);
        }
        root.second_scripts = r.bytes(count)?.to_vec();
        if !r.is_done() {
            return Err(CorruptData("trailing bytes in a block root"));
        }
        Ok(root)
    }
}

/// Whether `automaton` accepts some string `s` with `low <= s < high` (no
/// upper bound without `high`). It follows the two bounds byte by byte:
/// where a string leaves both, any continuation is possible and the
/// automaton's `can_match` answers; so it takes a few steps per byte of the
/// bounds, not a walk of the keys between them.
pub(crate) fn matches_between<A: Automaton>(
    automaton: &A,
    low: &[u8],
    high: Option<&[u8]>,
) -> bool {
    // Along the prefix both bounds share, every string of the range goes.
    let shared = high.map_or(0, |high| shared_len(low, high));
    let mut state = automaton.start();
    for &byte in &low[..shared] {
        if !automaton.can_match(&state) {
            return false;
        }
        state = automaton.accept(&state, byte);
    }
    if !automaton.can_match(&state) {
        return false;
    }
    let (low, high) = (&low[shared..], high.map(|h| &h[shared..]));
    let Some(high) = high else {
        return at_least(automaton, state, low);
    };
    // Here `high` is longer than the shared prefix (the bounds differ and
    // low < high), so it has a first byte; `low` may have ended.
    let (&first_high, high_rest) = high.split_first().expect("low < high");
    let strictly_after = match low.split_first() {
        // The shared prefix itself is in the range.
        None => automaton.is_match(&state) || below(automaton, &state, 0, first_high),
        Some((&first_low, low_rest)) => {
            at_least(automaton, automaton.accept(&state, first_low), low_rest)
                || between_bytes(automaton, &state, first_low, first_high)
        }
    };
    strictly_after || {
        let next = automaton.accept(&state, first_high);
        below_key(automaton, next, high_rest)
    }
}

/// The shortest prefix of `key` after which `automaton` can match nothing.
fn dead_prefix<'k, A: Automaton>(automaton: &A, key: &'k [u8]) -> Option<&'k [u8]> {
    let mut state = automaton.start();
    for (i, &byte) in key.iter().enumerate() {
        if !automaton.can_match(&state) {
            return Some(&key[..i]);
        }
        state = automaton.accept(&state, byte);
    }
    (!automaton.can_match(&state)).then_some(key)
}

/// Whether a string `>= low` (from `state`) can match.
fn at_least<A: Automaton>(automaton: &A, mut state: A::State, low: &[u8]) -> bool {
    for &byte in low {
        if !automaton.can_match(&state) {
            return false;
        }
        // A larger byte here frees the rest.
        if above(automaton, &state, byte) {
            return true;
        }
        state = automaton.accept(&state, byte);
    }
    // `low` itself, or anything longer.
    automaton.can_match(&state)
}

/// Whether a string `< high` (from `state`) can match.
fn below_key<A: Automaton>(automaton: &A, mut state: A::State, high: &[u8]) -> bool {
    for &byte in high {
        if !automaton.can_match(&state) {
            return false;
        }
        // The string ends here (shorter, so smaller), or takes a smaller byte.
        if automaton.is_match(&state) || below(automaton, &state, 0, byte) {
            return true;
        }
        state = automaton.accept(&state, byte);
    }
    false
}

/// Whether a byte in `from..to` (from `state`) leaves the automaton alive.
fn below<A: Automaton>(automaton: &A, state: &A::State, from: u8, to: u8) -> bool {
    (from..to).any(|b| automaton.can_match(&automaton.accept(state, b)))
}

/// Whether a byte strictly between `low` and `high` leaves it alive.
fn between_bytes<A: Automaton>(automaton: &A, state: &A::State, low: u8, high: u8) -> bool {
    low < u8::MAX && below(automaton, state, low + 1, high)
}

/// Whether a byte above `low` leaves it alive.
fn above<A: Automaton>(automaton: &A, state: &A::State, low: u8) -> bool {
    (low..=u8::MAX)
        .skip(1)
        .any(|b| automaton.can_match(&automaton.accept(state, b)))
}

/// A block read from the store, as an FST: refused unless its checksum
/// holds, since walking a damaged FST can panic where it should fail.
pub(crate) fn map_of(bytes: Vec<u8>, what: &'static str) -> Result<Map<Vec<u8>>, CorruptData> {
    let map = Map::new(bytes).map_err(|_| CorruptData(what))?;
    map.as_fst().verify().map_err(|_| CorruptData(what))?;
    Ok(map)
}

/// The value of `key` in `block`, the FST bytes of the block
/// [`BlockRoot::block_of`] names.
pub fn get(block: &[u8], key: &[u8]) -> Result<Option<u64>, CorruptData> {
    let map = Map::new(block).map_err(|_| CorruptData("a block is not an FST"))?;
    Ok(map.get(key))
}

/// The keys and values of `blocks` (FST bytes, in block order) that
/// `automaton` matches, in key order.
pub fn search<A: Automaton>(
    blocks: &[&[u8]],
    automaton: &A,
) -> Result<Vec<(Vec<u8>, u64)>, CorruptData> {
    let mut found = Vec::new();
    for block in blocks {
        let map = Map::new(*block).map_err(|_| CorruptData("a block is not an FST"))?;
        let mut stream = map.search(automaton).into_stream();
        while let Some((key, value)) = stream.next() {
            found.push((key.to_vec(), value));
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fst::automaton::Str;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn blocked(keys: &BTreeMap<Vec<u8>, u64>, block_bytes: usize) -> Blocked {
        build(
            keys.iter().map(|(k, v)| (k.clone(), *v)),
            block_bytes,
            block_bytes + 16,
            &|_| 0,
        )
    }

    /// Every block that `blocks` names, as the slices `search` takes.
    fn read(built: &Blocked, blocks: impl IntoIterator<Item = usize>) -> Vec<&[u8]> {
        blocks
            .into_iter()
            .map(|b| built.blocks[b].as_slice())
            .collect()
    }

    /// The blocks an automaton can match, each block tested: what
    /// [`BlockRoot::blocks_matching`] skips through.
    fn one_by_one<A: Automaton>(root: &BlockRoot, automaton: &A) -> Vec<usize> {
        (0..root.len())
            .filter(|&b| root.block_matches(automaton, b))
            .collect()
    }

    /// Keys of a small alphabet, so that prefixes repeat and blocks split
    /// runs of them.
    fn keys() -> impl Strategy<Value = BTreeMap<Vec<u8>, u64>> {
        proptest::collection::btree_map(
            proptest::collection::vec(
                prop_oneof![Just(b'a'), Just(b'b'), Just(b'c'), Just(0xc3)],
                0..7,
            ),
            any::<u64>(),
            0..400,
        )
    }

    fn query() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            prop_oneof![Just(b'a'), Just(b'b'), Just(b'c'), Just(b'd')],
            0..5,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The root and its blocks answer what one FST of every key
        /// answers: each key's value from the one block the root names,
        /// a prefix's keys from the blocks the root gives it, an
        /// automaton's matches from the blocks it can match; with blocks
        /// so small that every boundary is crossed.
        #[test]
        fn blocks_answer_as_one_fst_does(
            keys in keys(),
            queries in proptest::collection::vec(query(), 1..20),
            block_bytes in prop_oneof![Just(1usize), 8..64usize, Just(4096)],
        ) {
            let built = blocked(&keys, block_bytes);
            let root = BlockRoot::decode(&built.root.encode()).unwrap();
            prop_assert_eq!(&root, &built.root);
            prop_assert_eq!(root.len(), built.blocks.len());
            for block in &built.blocks {
                let keys = Map::new(block.as_slice()).unwrap().len();
                prop_assert!(block.len() <= block_bytes + 16 || keys == 1, "{} bytes", block.len());
            }
            let whole = Map::from_iter(keys.iter().map(|(k, v)| (k.clone(), *v))).unwrap();
            for (key, value) in &keys {
                let block = root.block_of(key).expect("a block holds every key");
                prop_assert_eq!(get(&built.blocks[block], key).unwrap(), Some(*value));
            }
            for q in &queries {
                let held = root.block_of(q).map(|b| get(&built.blocks[b], q).unwrap());
                prop_assert_eq!(held.flatten(), whole.get(q), "get {:?}", q);
                let prefix = Str::new(std::str::from_utf8(q).unwrap()).starts_with();
                let expected = whole.search(&prefix).into_stream().into_byte_vec();
                let by_range = search(&read(&built, root.blocks_with_prefix(q)), &prefix).unwrap();
                prop_assert_eq!(&by_range, &expected, "prefix {:?}", q);
                let by_automaton = search(&read(&built, root.blocks_matching(&prefix)), &prefix).unwrap();
                prop_assert_eq!(root.blocks_matching(&prefix), one_by_one(&root, &prefix));
                prop_assert_eq!(&by_automaton, &expected, "prefix automaton {:?}", q);
                let text = std::str::from_utf8(q).unwrap();
                for distance in 1..=2u8 {
                    let dfa = levenshtein_automata::LevenshteinAutomatonBuilder::new(distance, true)
                        .build_dfa(text);
                    let expected = whole.search(&dfa).into_stream().into_byte_vec();
                    let found = search(&read(&built, root.blocks_matching(&dfa)), &dfa).unwrap();
                    prop_assert_eq!(root.blocks_matching(&dfa), one_by_one(&root, &dfa));
                    prop_assert_eq!(&found, &expected, "{} edits of {:?}", distance, q);
                }
            }
        }
    }

    /// A typo walk reads few blocks: those whose key range holds a string
    /// within its edits. That is more than those that hold a matching key
    /// (`ahmmx` is one edit from `hmmx` and sorts among keys that are
    /// not), but a bounded share of them, and a fraction of all blocks.
    #[test]
    fn a_typo_reaches_the_blocks_of_its_matches_and_few_others() {
        let mut keys = BTreeMap::new();
        for a in b'a'..=b'z' {
            for b in b'a'..=b'z' {
                for c in b'a'..=b'z' {
                    // Scattered values, so that the FST cannot share
                    // the nodes of repeated suffixes.
                    let value = (keys.len() as u64).wrapping_mul(2_654_435_761) % 1_000_003;
                    keys.insert(vec![a, b, c, b'x'], value);
                }
            }
        }
        let built = blocked(&keys, 256);
        let dfa = levenshtein_automata::LevenshteinAutomatonBuilder::new(1, true).build_dfa("hmmx");
        let holding: Vec<usize> = (0..built.blocks.len())
            .filter(|&b| !search(&[&built.blocks[b]], &dfa).unwrap().is_empty())
            .collect();
        let reached = built.root.blocks_matching(&dfa);
        assert!(built.blocks.len() > 300, "{} blocks", built.blocks.len());
        assert!(holding.iter().all(|b| reached.contains(b)));
        assert!(
            reached.len() <= 3 * holding.len() && reached.len() * 3 < built.blocks.len(),
            "{} reached, {} hold a match, of {} blocks",
            reached.len(),
            holding.len(),
            built.blocks.len()
        );
    }

    #[test]
    fn a_corrupt_root_is_an_error_not_a_panic() {
        let built = blocked(
            &[(b"a".to_vec(), 1), (b"b".to_vec(), 2)]
                .into_iter()
                .collect(),
            1,
        );
        let bytes = built.root.encode();
        for cut in 0..bytes.len() {
            assert!(BlockRoot::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut swapped = BlockRoot::decode(&bytes).unwrap();
        swapped.first_keys.reverse();
        assert!(BlockRoot::decode(&swapped.encode()).is_err());
        assert!(get(b"not an fst", b"a").is_err());
    }

    /// Each start sharing all of the one before and adding a byte: few
    /// stored bytes for a quadratic number decoded.
    #[test]
    fn a_root_that_would_decode_to_far_more_than_it_stores_is_refused() {
        let count = 4_000;
        let mut bytes = Vec::new();
        put_varint(&mut bytes, count);
        for k in 0..count {
            put_varint(&mut bytes, k);
            put_varint(&mut bytes, 1);
            bytes.push(b'a');
        }
        assert!(BlockRoot::decode(&bytes).is_err());
    }

    /// Keys that share long heads make a root that front coding shrinks
    /// fifty times: it decodes all the same.
    #[test]
    fn a_root_of_long_keys_that_begin_alike_decodes() {
        let head = "x".repeat(300);
        let keys: BTreeMap<Vec<u8>, u64> = (0..1_000u64)
            .map(|n| (format!("{head}{n:04}").into_bytes(), n))
            .collect();
        let built = blocked(&keys, 1);
        let encoded = built.root.encode();
        assert_eq!(built.root.len(), 1_000);
        assert!(encoded.len() * MAX_ROOT_EXPANSION < 300 * 1_000);
        assert_eq!(BlockRoot::decode(&encoded).unwrap(), built.root);
    }

    /// The root holds for each block only the bytes that tell it from the
    /// block before, front-coded: far fewer than the blocks' first keys.
    #[test]
    fn the_root_stores_the_shortest_starts_front_coded() {
        // Scattered, so that the blocks' FSTs cannot share much.
        let keys: BTreeMap<Vec<u8>, u64> = (0..20_000u64)
            .map(|k| {
                let scattered = k.wrapping_mul(2_654_435_761) % 4_294_967_291;
                (format!("interoperability{scattered:010}").into_bytes(), k)
            })
            .collect();
        let built = blocked(&keys, 512);
        let first_keys: usize = built.blocks.len() * "interoperability0000000000".len();
        let stored = built.root.encode().len();
        assert!(built.blocks.len() > 50, "{} blocks", built.blocks.len());
        assert!(
            stored * 4 < first_keys,
            "{stored} bytes stored for {first_keys}"
        );
    }
}
