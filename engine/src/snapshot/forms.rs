//! The inflected forms of the lexicon, stored as further items of the
//! `terms` section (issue 39: read as queries need them, never whole): an
//! FST from every form to its lemmas, one from every form spelled
//! backwards (typo walks anchored on the query's end) and one from every
//! form's middle deletion ([`super::middles`]: one-edit typo searches),
//! each cut into blocks like the terms' ([`super::blocks`]), behind a
//! [`FormRoot`] that the terms root carries.
//!
//! A form's value is its lemmas themselves, each a language (whose data
//! makes the word a form of it) and a lemma's term number, packed into the
//! 64 bits ([`Layout`]): so the one block that holds a form answers for it,
//! in any of the three FSTs, with no further read. The few forms with more lemmas than
//! a value holds (two at five million terms) point into overflow items of
//! [`OVERFLOW_PAIRS`] pairs each, read when a query reaches such a form.

use super::blocks::{self, BlockRoot};
use super::middles;
use crate::codec::{put_str, put_varint, CorruptData, Reader};
use crate::lexicon::Lexicon;
use crate::postings::Posting;
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

/// Pairs (language, lemma) per overflow item: 16 KB, four read units.
pub(super) const OVERFLOW_PAIRS: usize = 2_048;

/// Bit 63 of a value: its lemmas are in the overflow items.
const OVERFLOW: u64 = 1 << 63;

/// Bits of an inline value that count its pairs (1 to 15).
const COUNT_BITS: u32 = 4;

/// A lemma of an inflected form: its term, and the language whose data
/// makes the word a form of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lemma<'a> {
    pub term: usize,
    pub lang: &'a str,
}

/// How a value packs its pairs: each is `lang << term_bits | term`, as few
/// bits as the build's term count and languages need, after the count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    term_bits: u32,
    lang_bits: u32,
}

/// The bits that hold every number below `n`.
fn bits_below(n: usize) -> u32 {
    usize::BITS - n.saturating_sub(1).leading_zeros()
}

impl Layout {
    fn new(terms: usize, langs: usize) -> Self {
        Self {
            term_bits: bits_below(terms).max(1),
            lang_bits: bits_below(langs),
        }
    }

    fn pair_bits(self) -> u32 {
        self.term_bits + self.lang_bits
    }

    /// The most pairs a value holds inline.
    fn capacity(self) -> usize {
        ((63 - COUNT_BITS) / self.pair_bits()).min((1 << COUNT_BITS) - 1) as usize
    }

    /// `pairs` packed into a value, if they fit.
    fn pack(self, pairs: &[(u32, u32)]) -> Option<u64> {
        if pairs.is_empty() || pairs.len() > self.capacity() {
            return None;
        }
        let mut value = pairs.len() as u64;
        for (i, &(lang, term)) in pairs.iter().enumerate() {
            let pair = (u64::from(lang) << self.term_bits) | u64::from(term);
            value |= pair << (COUNT_BITS + i as u32 * self.pair_bits());
        }
        Some(value)
    }

    /// The pairs of an inline value.
    fn unpack(self, value: u64) -> impl Iterator<Item = (usize, usize)> {
        let count = (value & ((1 << COUNT_BITS) - 1)) as u32;
        (0..count).map(move |i| {
            let pair = value >> (COUNT_BITS + i * self.pair_bits());
            let term = pair & ((1 << self.term_bits) - 1);
            let lang = (pair >> self.term_bits) & ((1 << self.lang_bits) - 1);
            (lang as usize, term as usize)
        })
    }
}

/// Where a form's lemmas are.
enum Value {
    Inline(u64),
    /// Pairs `first..first + count` of the overflow items.
    Overflow(Range<usize>),
}

impl Value {
    fn of(value: u64) -> Self {
        match value & OVERFLOW {
            0 => Value::Inline(value),
            _ => {
                let first = (value & 0xffff_ffff) as usize;
                let count = ((value & !OVERFLOW) >> 32) as usize;
                Value::Overflow(first..first + count)
            }
        }
    }
}

/// The forms as stored: the root (part of the terms root) and the items,
/// the forward blocks, then the backward ones, then those keyed by middle
/// deletion ([`super::middles`]), then the overflow items.
pub(super) struct EncodedForms {
    pub root: Vec<u8>,
    pub items: Vec<Vec<u8>>,
}

/// A pair is kept only when the lemma is a term of a dictionary of that
/// language and differs from the form; a form's pairs are in term order
/// (most common lemma first). Blocks close as the terms' do.
pub(super) fn encode(
    postings: &[Posting],
    terms: &[(&str, Range<u32>)],
    lexicon: &Lexicon,
    block_bytes: usize,
    block_max_bytes: usize,
) -> EncodedForms {
    // The term of each word: a lemma is the word of its text in the
    // form's language.
    let word_number: HashMap<(&str, &str), u32> = (0u32..)
        .zip(terms)
        .map(|(t, (term, range))| {
            let lang = postings[range.start as usize]
                .dictionary
                .source_lang
                .as_str();
            ((*term, lang), t)
        })
        .collect();
    let langs: Vec<&str> = lexicon.forms.keys().map(String::as_str).collect();
    let mut by_form: BTreeMap<&str, Vec<(u32, u32)>> = BTreeMap::new();
    for (l, (lang, forms)) in lexicon.forms.iter().enumerate() {
        for (form, lemma) in forms.pairs().filter(|(form, lemma)| form != lemma) {
            if let Some(&t) = word_number.get(&(lemma, lang.as_str())) {
                by_form.entry(form).or_default().push((l as u32, t));
            }
        }
    }
    let layout = Layout::new(terms.len(), langs.len());
    let mut forwards: Vec<(Vec<u8>, u64)> = Vec::with_capacity(by_form.len());
    let mut overflow: Vec<u8> = Vec::new();
    // The forms of many lemmas, and the overflow items their pairs are in.
    let mut overflowing: Vec<(&str, Range<usize>)> = Vec::new();
    let mut longest_bytes = 0;
    for (form, mut lemmas) in by_form {
        lemmas.sort_unstable_by_key(|&(l, t)| (t, l));
        lemmas.dedup();
        let value = layout.pack(&lemmas).unwrap_or_else(|| {
            let first = (overflow.len() / 8) as u64;
            for (l, t) in &lemmas {
                overflow.extend_from_slice(&l.to_le_bytes());
                overflow.extend_from_slice(&t.to_le_bytes());
            }
            assert!(first < 1 << 32, "overflow pairs fit 32 bits");
            let last = first as usize + lemmas.len() - 1;
            overflowing.push((
                form,
                first as usize / OVERFLOW_PAIRS..last / OVERFLOW_PAIRS + 1,
            ));
            OVERFLOW | ((lemmas.len() as u64) << 32) | first
        });
        longest_bytes = longest_bytes.max(form.len());
        forwards.push((form.as_bytes().to_vec(), value));
    }
    let mut backwards: Vec<(Vec<u8>, u64)> = forwards
        .iter()
        .map(|(form, value)| {
            let form = std::str::from_utf8(form).expect("forms are text");
            (form.chars().rev().collect::<String>().into_bytes(), *value)
        })
        .collect();
    backwards.sort_unstable();
    let middle_keys = middles::keys(
        forwards
            .iter()
            .map(|(form, value)| (std::str::from_utf8(form).expect("forms are text"), *value)),
    );
    let forwards = blocks::build(forwards, block_bytes, block_max_bytes, &|_| 0);
    let backwards = blocks::build(backwards, block_bytes, block_max_bytes, &|_| 0);
    let middles = blocks::build(middle_keys, block_bytes, block_max_bytes, &|_| 0);
    // Forms are in order, so each overflow item is pointed into from a run
    // of forward blocks.
    let mut blocks_of_item: Vec<Option<(usize, usize)>> =
        vec![None; overflow.len().div_ceil(8 * OVERFLOW_PAIRS)];
    for (form, items) in overflowing {
        let block = forwards
            .root
            .block_of(form.as_bytes())
            .expect("a form's block");
        for k in items {
            let run = blocks_of_item[k].get_or_insert((block, block));
            run.1 = block;
        }
    }
    let mut root = Vec::new();
    put_varint(&mut root, langs.len());
    for lang in &langs {
        put_str(&mut root, lang);
    }
    put_varint(&mut root, longest_bytes);
    put_varint(&mut root, overflow.len() / 8);
    for run in blocks_of_item {
        let (first, last) = run.expect("every overflow item holds a form's pairs");
        put_varint(&mut root, first);
        put_varint(&mut root, last - first);
    }
    forwards.root.put(&mut root);
    backwards.root.put(&mut root);
    middles.root.put(&mut root);
    let mut items = forwards.blocks;
    items.extend(backwards.blocks);
    items.extend(middles.blocks);
    items.extend(overflow.chunks(8 * OVERFLOW_PAIRS).map(<[u8]>::to_vec));
    EncodedForms { root, items }
}

/// What an instance holds of the forms from the root: the languages, where
/// each block of the three FSTs starts, and how values pack lemmas.
pub(crate) struct FormRoot {
    langs: Vec<String>,
    pub(super) forwards: BlockRoot,
    pub(super) backwards: BlockRoot,
    pub(super) middles: BlockRoot,
    /// The most bytes of any form (so at least its characters).
    longest_bytes: usize,
    overflow_pairs: usize,
    /// The forward blocks whose forms point into each overflow item, a run
    /// (first and last) per item.
    overflow_blocks: Vec<(usize, usize)>,
    terms: usize,
    layout: Layout,
}

impl FormRoot {
    /// From the bytes `encode` wrote into the terms root, for a build of
    /// `terms` terms.
    pub(super) fn decode(r: &mut Reader<'_>, terms: usize) -> Result<Self, CorruptData> {
        let count = r.count(1)?;
        let langs: Vec<String> = (0..count)
            .map(|_| r.str().map(str::to_string))
            .collect::<Result<_, _>>()?;
        let longest_bytes = r.varint()?;
        let overflow_pairs = r.varint()?;
        let items = overflow_pairs.div_ceil(OVERFLOW_PAIRS);
        let mut overflow_blocks = Vec::with_capacity(items.min(r.remaining()));
        for _ in 0..items {
            let first = r.varint()?;
            let last = first
                .checked_add(r.varint()?)
                .ok_or(CorruptData("forms root"))?;
            overflow_blocks.push((first, last));
        }
        let forwards = BlockRoot::read(r)?;
        let backwards = BlockRoot::read(r)?;
        let middles = BlockRoot::read(r)?;
        let empty = forwards.is_empty();
        if backwards.is_empty() != empty
            || middles.is_empty() != empty
            || (langs.is_empty() && !empty)
            || overflow_blocks
                .iter()
                .any(|&(_, last)| last >= forwards.len())
        {
            return Err(CorruptData("forms root"));
        }
        Ok(Self {
            layout: Layout::new(terms, langs.len()),
            langs,
            forwards,
            backwards,
            middles,
            longest_bytes,
            overflow_pairs,
            overflow_blocks,
            terms,
        })
    }

    /// The overflow items that forms of forward block `b` (counted from
    /// the first forward block) point into.
    pub(super) fn overflow_items_of_block(&self, b: usize) -> impl Iterator<Item = usize> + '_ {
        let of_block =
            move |&(_, &(first, last)): &(usize, &(usize, usize))| (first..=last).contains(&b);
        self.overflow_blocks
            .iter()
            .enumerate()
            .filter(of_block)
            .map(|(k, _)| k)
    }

    /// The number of overflow items.
    pub(super) fn overflow_items(&self) -> usize {
        self.overflow_pairs.div_ceil(OVERFLOW_PAIRS)
    }

    /// The pairs overflow item `k` holds.
    pub(super) fn overflow_item_pairs(&self, k: usize) -> usize {
        OVERFLOW_PAIRS.min(self.overflow_pairs - k * OVERFLOW_PAIRS)
    }

    /// Whether some form can be within `edits` of a query of `chars`
    /// characters.
    pub(super) fn within_reach(&self, chars: usize, edits: usize) -> bool {
        !self.forwards.is_empty() && chars <= self.longest_bytes + edits
    }

    /// Checks every value of a forms block read from the store, so that
    /// lookups in it never fail: every lemma's language and term exist.
    pub(super) fn check_block(&self, block: &fst::Map<Vec<u8>>) -> Result<(), CorruptData> {
        let mut stream = block.stream();
        while let Some((_, value)) = fst::Streamer::next(&mut stream) {
            match Value::of(value) {
                Value::Inline(value) => {
                    if self.layout.unpack(value).next().is_none() {
                        return Err(CorruptData("a form of no lemma"));
                    }
                    for (lang, term) in self.layout.unpack(value) {
                        self.check_pair(lang, term)?;
                    }
                }
                Value::Overflow(pairs) => {
                    if pairs.is_empty() || pairs.end > self.overflow_pairs {
                        return Err(CorruptData("a form beyond the overflow pairs"));
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks overflow item `k` read from the store.
    pub(super) fn check_overflow(&self, k: usize, bytes: &[u8]) -> Result<(), CorruptData> {
        if bytes.len() != 8 * self.overflow_item_pairs(k) {
            return Err(CorruptData("an overflow item of another size"));
        }
        for (lang, term) in pairs(bytes) {
            self.check_pair(lang, term)?;
        }
        Ok(())
    }

    fn check_pair(&self, lang: usize, term: usize) -> Result<(), CorruptData> {
        if lang >= self.langs.len() || term >= self.terms {
            return Err(CorruptData("a form's lemma out of range"));
        }
        Ok(())
    }

    /// The lemmas of a value, its overflow pairs read from `overflow`
    /// (by overflow item, checked when kept): `Err` with the overflow items
    /// it needs and `overflow` does not give.
    pub(super) fn lemmas<'r>(
        &'r self,
        value: u64,
        overflow: impl Fn(usize) -> Option<std::sync::Arc<Vec<u8>>>,
    ) -> Result<Vec<Lemma<'r>>, Vec<usize>> {
        let lemma = |(lang, term): (usize, usize)| Lemma {
            term,
            lang: &self.langs[lang],
        };
        match Value::of(value) {
            Value::Inline(value) => Ok(self.layout.unpack(value).map(lemma).collect()),
            Value::Overflow(wanted) => {
                let items = wanted.start / OVERFLOW_PAIRS..wanted.end.div_ceil(OVERFLOW_PAIRS);
                let mut held = Vec::new();
                let mut missing = Vec::new();
                for k in items {
                    match overflow(k) {
                        Some(item) => held.push((k, item)),
                        None => missing.push(k),
                    }
                }
                if !missing.is_empty() {
                    return Err(missing);
                }
                let mut lemmas = Vec::with_capacity(wanted.len());
                for (k, item) in held {
                    let first = k * OVERFLOW_PAIRS;
                    let from = wanted.start.max(first) - first;
                    let to = wanted.end.min(first + OVERFLOW_PAIRS) - first;
                    lemmas.extend(pairs(&item[8 * from..8 * to]).map(lemma));
                }
                Ok(lemmas)
            }
        }
    }
}

/// The (language, term) pairs of overflow bytes, two little-endian u32
/// each.
fn pairs(bytes: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    bytes.chunks_exact(8).map(|pair| {
        let half = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize;
        (half(&pair[..4]), half(&pair[4..]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A value holds what it was packed with, in order, for any build
        /// size: the layout round-trips.
        #[test]
        fn a_packed_value_unpacks_to_its_pairs(
            terms in 1usize..(1 << 26),
            langs in 1usize..64,
            raw in proptest::collection::vec((any::<u32>(), any::<u32>()), 1..8),
        ) {
            let layout = Layout::new(terms, langs);
            let pairs: Vec<(u32, u32)> = raw
                .iter()
                .map(|&(l, t)| (l % langs as u32, t % terms as u32))
                .collect();
            match layout.pack(&pairs) {
                Some(value) => {
                    prop_assert_eq!(value & OVERFLOW, 0);
                    let back: Vec<(usize, usize)> = layout.unpack(value).collect();
                    let wanted: Vec<(usize, usize)> =
                        pairs.iter().map(|&(l, t)| (l as usize, t as usize)).collect();
                    prop_assert_eq!(back, wanted);
                }
                None => prop_assert!(pairs.len() > layout.capacity()),
            }
        }
    }

    #[test]
    fn five_million_terms_hold_two_lemmas_inline() {
        assert_eq!(Layout::new(5_270_000, 17).capacity(), 2);
        assert_eq!(Layout::new(1_000, 1).capacity(), 5);
    }
}
