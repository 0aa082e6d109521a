//! The `terms` section: the term dictionary, an FST from every term to its
//! number, one from every term spelled backwards (by character) and one
//! from every term's middle deletion ([`super::middles`]), each cut into
//! blocks ([`super::blocks`]) that an instance reads as queries need them
//! (issue 39), and the inflected forms in blocks alike ([`super::forms`]).
//! Item 0 is the root, read with the index: the term count, the three
//! [`BlockRoot`]s, the terms of each text block, the forms' [`FormRoot`]
//! and the number of capitalisation buckets, deflated. Then one item per
//! block: the forward term blocks, the backward ones, the middle
//! deletions', the text blocks ([`super::texts`]), the forward form
//! blocks, the backward ones, the middle deletions', the forms' overflow
//! items and the buckets of the capitalisation of mixed texts
//! ([`super::capitals`]). A warm instance
//! keeps the blocks it has read by recency within a byte budget
//! ([`BlockCache`]).
//!
//! Readers name the blocks a lookup or a walk can reach from the root
//! alone, take those the instance holds, and report the others as
//! [`Missing`]: the caller reads them (one batch for every block a query
//! named) and asks again.

use super::blocks::{self, BlockRoot};
use super::cache::BlockCache;
use super::capitals::{self, CapitalBucket};
use super::forms::{self, FormRoot, Lemma};
use super::later_words::{self, LaterWords};
use super::middles;
use super::tables::{EntryTables, Tables};
use super::texts::{self, TextBlock};
use crate::codec::{compress, inflate, put_varint, CorruptData, Reader};
use crate::lexicon::Lexicon;
use crate::postings::Posting;
use fst::{Automaton, Map};
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

/// The size a term block closes at: about one DynamoDB read unit (4 KB;
/// the key that closes a block and the FST's footer take it a little past,
/// about 3.96 KB on average, never past [`TERM_BLOCK_MAX_BYTES`]). A typo
/// walk reaches a block per place where it may edit a first letter,
/// whatever the block's size: blocks of 4 KB
/// read half the bytes of 16 KB ones for typo searches, and cost their warm
/// walks up to 0.2 to 0.8 ms more p50 (1.7 ms for a prefix with two edits)
/// at 1.93 million terms (docs/benchmarks.md); the root stays small
/// (front-coded, deflated).
pub const TERM_BLOCK_BYTES: usize = 3_800;

/// The most bytes of a term block: with its item's keys (about 30 bytes),
/// one DynamoDB read unit of 4 KB. One block in ten closed at
/// [`TERM_BLOCK_BYTES`] took more (its last key and the FST's footer), and
/// so two read units; such a block leaves its last keys to the next one.
pub const TERM_BLOCK_MAX_BYTES: usize = 4_036;

/// The bytes of blocks an instance keeps: of FST blocks, and of text
/// blocks (a query that checks its candidates by their text, such as
/// `contains`, holds the text blocks of all of them at once: 65 MB for
/// every text block at five million entries).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockBudget {
    pub fst: usize,
    pub text: usize,
}

impl BlockBudget {
    /// Every block read is kept (the offline benchmarks and tests).
    pub const UNBOUNDED: BlockBudget = BlockBudget {
        fst: usize::MAX,
        text: usize::MAX,
    };
}

/// A block of the term dictionary, decoded (an FST over its bytes).
pub(crate) type TermBlock = Map<Vec<u8>>;

/// Which way an FST spells its keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    Forwards,
    /// Every key spelled backwards (by character).
    Backwards,
}

/// One of the section's six FSTs: the terms' or the forms', each in a
/// direction or keyed by its middle deletion ([`super::middles`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fst {
    Terms(Direction),
    Forms(Direction),
    TermMiddles,
    FormMiddles,
}

/// Items of the `terms` section that a read needs and the instance does
/// not hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Missing(pub Vec<usize>);

impl Missing {
    /// What `read` found, or `T::default()` when it missed blocks: they are
    /// noted here, so that a read goes on and names them all at once.
    pub fn noted<T: Default>(&mut self, read: Result<T, Missing>) -> T {
        read.unwrap_or_else(|missing| {
            self.0.extend(missing.0);
            T::default()
        })
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Err with every noted block, each once in item order; Ok when none
    /// was missed.
    pub fn into_result(mut self) -> Result<(), Missing> {
        if self.0.is_empty() {
            return Ok(());
        }
        self.0.sort_unstable();
        self.0.dedup();
        Err(self)
    }
}

/// The `terms` section's items: the root, the forward blocks, the
/// backward ones and the middle deletions', each with the chains of its
/// texts' words from `later_words` ([`super::later_words`]), the text
/// blocks, each closed at `text_block_bytes`, the items of the lexicon's
/// forms, then the capitalisation buckets of the texts.
pub(super) fn encode(
    postings: &[Posting],
    terms: &[(&str, Range<u32>)],
    later_words: &[(u32, u32)],
    lexicon: &Lexicon,
    block_bytes: usize,
    text_block_bytes: usize,
    tables: &Tables<'_>,
) -> Vec<Vec<u8>> {
    let block_max_bytes = block_bytes.max(TERM_BLOCK_MAX_BYTES);
    // A text that is a word of several languages is one key, whose value
    // is its first (most common) word; its block chains the others to it.
    // Cut with their chains within the block's size.
    let next_of: HashMap<u32, u32> = later_words.iter().copied().collect();
    let chained = |keys: Vec<(Vec<u8>, u64)>| {
        let chain_bytes = |first| later_words::chain_bytes(first, &next_of);
        let max_bytes = block_max_bytes - later_words::COUNT_BYTES;
        let built = blocks::build(keys, block_bytes, max_bytes, &chain_bytes);
        let items = built.blocks.into_iter();
        let items = items.map(|fst| later_words::block_item(fst, &next_of));
        (built.root, items.collect::<Vec<_>>())
    };
    let blocked = |key: &dyn Fn(&str) -> Vec<u8>| {
        let mut keys: Vec<(Vec<u8>, u64)> = terms
            .iter()
            .enumerate()
            .map(|(t, (term, _))| (key(term), t as u64))
            .collect();
        keys.sort_unstable();
        keys.dedup_by(|later, first| later.0 == first.0);
        chained(keys)
    };
    let forwards = blocked(&|term| term.as_bytes().to_vec());
    let backwards = blocked(&|term| term.chars().rev().collect::<String>().into_bytes());
    let numbered = terms.iter().zip(0..).map(|((term, _), t)| (*term, t));
    let mut middle_keys = middles::keys(numbered);
    middle_keys.dedup_by(|later, first| later.0 == first.0);
    let middles = chained(middle_keys);
    let mut root = Vec::new();
    put_varint(&mut root, terms.len());
    forwards.0.put(&mut root);
    backwards.0.put(&mut root);
    middles.0.put(&mut root);
    let text_counts = texts::cut(postings, terms, text_block_bytes);
    put_varint(&mut root, text_counts.len());
    for &count in &text_counts {
        put_varint(&mut root, count);
    }
    let mut first_term = 0;
    for &count in &text_counts {
        let block = &terms[first_term..first_term + count];
        put_varint(
            &mut root,
            (block[count - 1].1.end - block[0].1.start) as usize,
        );
        first_term += count;
    }
    let forms = forms::encode(postings, terms, lexicon, block_bytes, block_max_bytes);
    root.extend(forms.root);
    let capitals = capitals::encode(postings, terms, later_words);
    put_varint(&mut root, capitals.len());
    // A build that its readers would refuse is stopped before it is
    // written.
    TermDictionary::decode(&compress(&root), BlockBudget::UNBOUNDED, tables.sizes())
        .expect("a terms root its readers take");
    // Every cold instance reads the root: deflate halves it again.
    let mut items = vec![compress(&root)];
    items.extend(forwards.1);
    items.extend(backwards.1);
    items.extend(middles.1);
    items.extend(texts::encode(postings, terms, &text_counts, tables));
    items.extend(forms.items);
    items.extend(capitals);
    items
}

/// The term dictionary as an instance holds it: the roots, and the blocks
/// it has read.
pub struct TermDictionary {
    terms: usize,
    forwards: BlockRoot,
    backwards: BlockRoot,
    middles: BlockRoot,
    /// The first term of every text block, and the number of terms last.
    text_firsts: Vec<usize>,
    /// The first ordinal of every text block, and the number of entries
    /// last.
    text_first_ordinals: Vec<u32>,
    /// The tables the text blocks' columns index.
    tables: EntryTables,
    forms: FormRoot,
    /// Blocks of the four FSTs.
    held: BlockCache<usize, TermBlock>,
    /// The chains of the words of the texts in every term block read
    /// since the cache was last let go (not only those it holds now).
    later_words: LaterWords,
    texts: BlockCache<usize, TextBlock>,
    /// The forms' overflow items, by item.
    overflow: BlockCache<usize, Vec<u8>>,
    /// How many buckets the capitalisation of mixed texts is stored in.
    capital_buckets: usize,
    /// Those buckets, by item.
    capitals: BlockCache<usize, CapitalBucket>,
}

/// The share of the FST budget the forms' overflow items may take: a
/// query reaches one only through a form of more lemmas than its value
/// holds. The capitalisation buckets, one per query at most, take as much
/// (all 411 of them are 1.6 MB stored at 5.27 M entries).
const OVERFLOW_SHARE: usize = 8;

/// The most capitalisation buckets a root may name: about 8 KB of text
/// each, so far beyond any corpus (411 at 5.27 M entries).
const MAX_CAPITAL_BUCKETS: usize = 1 << 24;

impl TermDictionary {
    /// From the root item; blocks are kept within `budget`.
    pub(super) fn decode(
        root: &[u8],
        budget: BlockBudget,
        tables: EntryTables,
    ) -> Result<Self, CorruptData> {
        let root = inflate(root)?;
        let mut r = Reader::new(&root);
        let terms = r.varint()?;
        let forwards = BlockRoot::read(&mut r)?;
        let backwards = BlockRoot::read(&mut r)?;
        let middles = BlockRoot::read(&mut r)?;
        let text_blocks = r.count(1)?;
        let mut text_firsts = Vec::with_capacity(text_blocks + 1);
        text_firsts.push(0);
        for _ in 0..text_blocks {
            let first = match r.varint()? {
                0 => return Err(CorruptData("a text block of no term")),
                n => text_firsts[text_firsts.len() - 1] + n,
            };
            text_firsts.push(first);
        }
        let mut text_first_ordinals = Vec::with_capacity(text_blocks + 1);
        text_first_ordinals.push(0u32);
        for _ in 0..text_blocks {
            let first = match r.varint()? {
                0 => return Err(CorruptData("a text block of no entry")),
                n => u32::try_from(n)
                    .ok()
                    .and_then(|n| text_first_ordinals[text_first_ordinals.len() - 1].checked_add(n))
                    .ok_or(CorruptData("more entries than an ordinal counts"))?,
            };
            text_first_ordinals.push(first);
        }
        if terms > 0 && (forwards.is_empty() || backwards.is_empty() || middles.is_empty()) {
            return Err(CorruptData("terms without blocks"));
        }
        if text_firsts.last() != Some(&terms) {
            return Err(CorruptData("text blocks of other terms"));
        }
        let forms = FormRoot::decode(&mut r, terms)?;
        // Nothing follows them in the root: bounded, so that the item
        // numbers after them cannot overflow.
        let capital_buckets = r.varint()?;
        if capital_buckets > MAX_CAPITAL_BUCKETS {
            return Err(CorruptData(
                "more capitalisation buckets than a build makes",
            ));
        }
        if !r.is_done() {
            return Err(CorruptData("trailing bytes in the terms root"));
        }
        Ok(Self {
            terms,
            forwards,
            backwards,
            middles,
            text_firsts,
            text_first_ordinals,
            tables,
            forms,
            held: BlockCache::new(budget.fst),
            later_words: LaterWords::default(),
            texts: BlockCache::new(budget.text),
            overflow: BlockCache::new(budget.fst / OVERFLOW_SHARE),
            capital_buckets,
            capitals: BlockCache::new(budget.fst / OVERFLOW_SHARE),
        })
    }

    /// Keeps blocks within `budget` from now on.
    pub(super) fn keep_within(&mut self, budget: BlockBudget) {
        self.held = BlockCache::new(budget.fst);
        self.later_words.clear();
        self.texts = BlockCache::new(budget.text);
        self.overflow = BlockCache::new(budget.fst / OVERFLOW_SHARE);
        self.capitals = BlockCache::new(budget.fst / OVERFLOW_SHARE);
    }

    /// How many terms it has.
    pub(super) fn len(&self) -> usize {
        self.terms
    }

    /// How many items the section has: the root and every block.
    pub fn items(&self) -> usize {
        self.first_capital_item() + self.capital_buckets
    }

    fn first_text_item(&self) -> usize {
        1 + self.forwards.len() + self.backwards.len() + self.middles.len()
    }

    /// The item of the first forward form block: the blocks of the term
    /// FSTs and the text blocks are before it.
    pub(crate) fn first_form_item(&self) -> usize {
        self.first_text_item() + self.text_firsts.len() - 1
    }

    fn first_overflow_item(&self) -> usize {
        let forms = &self.forms;
        self.first_form_item() + forms.forwards.len() + forms.backwards.len() + forms.middles.len()
    }

    fn first_capital_item(&self) -> usize {
        self.first_overflow_item() + self.forms.overflow_items()
    }

    /// The first term and the first ordinal of each text block, and the
    /// terms and entries last: a core's terms must start its blocks at
    /// those ordinals.
    pub(super) fn text_bounds(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.text_firsts
            .iter()
            .copied()
            .zip(self.text_first_ordinals.iter().copied())
    }

    /// The item of the text block that holds term `t`, and where `t` is
    /// in it.
    pub(crate) fn text_place(&self, t: usize) -> (usize, usize) {
        let b = self.text_firsts.partition_point(|&first| first <= t) - 1;
        (self.first_text_item() + b, t - self.text_firsts[b])
    }

    /// The text block `item` if held; it is added to `missing` if not.
    pub(crate) fn text_block(&self, item: usize, missing: &mut Missing) -> Option<Arc<TextBlock>> {
        let block = self.texts.get(&item);
        if block.is_none() {
            missing.0.push(item);
        }
        block
    }

    pub(crate) fn root(&self, fst: Fst) -> &BlockRoot {
        match fst {
            Fst::Terms(Direction::Forwards) => &self.forwards,
            Fst::Terms(Direction::Backwards) => &self.backwards,
            Fst::Forms(Direction::Forwards) => &self.forms.forwards,
            Fst::Forms(Direction::Backwards) => &self.forms.backwards,
            Fst::TermMiddles => &self.middles,
            Fst::FormMiddles => &self.forms.middles,
        }
    }

    /// The item of an FST's block `b`.
    fn item(&self, fst: Fst, b: usize) -> usize {
        let forms = &self.forms;
        let first = match fst {
            Fst::Terms(Direction::Forwards) => 1,
            Fst::Terms(Direction::Backwards) => 1 + self.forwards.len(),
            Fst::TermMiddles => 1 + self.forwards.len() + self.backwards.len(),
            Fst::Forms(Direction::Forwards) => self.first_form_item(),
            Fst::Forms(Direction::Backwards) => self.first_form_item() + forms.forwards.len(),
            Fst::FormMiddles => {
                self.first_form_item() + forms.forwards.len() + forms.backwards.len()
            }
        };
        first + b
    }

    /// The item that holds `key` if any does.
    pub(crate) fn item_of(&self, fst: Fst, key: &[u8]) -> Option<usize> {
        let b = self.root(fst).block_of(key)?;
        Some(self.item(fst, b))
    }

    /// The items that may hold a key starting with `prefix`, in key order.
    pub(crate) fn items_with_prefix(&self, fst: Fst, prefix: &[u8]) -> Vec<usize> {
        let blocks = self.root(fst).blocks_with_prefix(prefix);
        blocks.map(|b| self.item(fst, b)).collect()
    }

    /// The items in whose key range `automaton` can match, in key order.
    pub(crate) fn items_matching<A: Automaton>(&self, fst: Fst, automaton: &A) -> Vec<usize> {
        self.items_matching_where(fst, automaton, |_| true)
    }

    /// The items in whose key range `automaton` can match, of the blocks
    /// that `keep` admits, in key order.
    pub(crate) fn items_matching_where<A: Automaton>(
        &self,
        fst: Fst,
        automaton: &A,
        keep: impl Fn(usize) -> bool,
    ) -> Vec<usize> {
        let blocks = self.root(fst).blocks_matching(automaton).into_iter();
        blocks
            .filter(|&b| keep(b))
            .map(|b| self.item(fst, b))
            .collect()
    }

    /// Every item of an FST, in key order.
    pub(crate) fn every_item(&self, fst: Fst) -> Vec<usize> {
        (0..self.root(fst).len())
            .map(|b| self.item(fst, b))
            .collect()
    }

    /// The blocks of `items` the instance holds, in their order; the others
    /// are added to `missing`.
    pub(crate) fn held(&self, items: &[usize], missing: &mut Missing) -> Vec<Arc<TermBlock>> {
        let mut found = Vec::with_capacity(items.len());
        for &item in items {
            match self.held.get(&item) {
                Some(block) => found.push(block),
                None => missing.0.push(item),
            }
        }
        found
    }

    /// The value of `key` in an FST, reading its one block; `None` when it
    /// is no key, [`Missing`] when its block is not held.
    fn get(&self, fst: Fst, key: &str) -> Result<Option<u64>, Missing> {
        let Some(item) = self.item_of(fst, key.as_bytes()) else {
            return Ok(None);
        };
        let mut missing = Missing::default();
        let block = self.held(&[item], &mut missing);
        match block.first() {
            Some(block) => Ok(block.get(key)),
            None => Err(missing),
        }
    }

    /// The number of `term`; `None` when it is no term.
    pub(crate) fn term_number(&self, term: &str) -> Result<Option<u64>, Missing> {
        self.get(Fst::Terms(Direction::Forwards), term)
    }

    /// The lemmas of an inflected (folded) form, most common first; none
    /// for a word that is no form of another. [`Missing`] names its block
    /// and the overflow items that the block's forms of many lemmas point
    /// into (from the root: a few at most, so that such a form is answered
    /// with its block, not one round trip after it), or the overflow items
    /// of the form.
    pub(crate) fn lemmas(&self, form: &str) -> Result<Vec<Lemma<'_>>, Missing> {
        let Some(item) = self.item_of(Fst::Forms(Direction::Forwards), form.as_bytes()) else {
            return Ok(Vec::new());
        };
        let Some(block) = self.held.get(&item) else {
            let first = self.first_overflow_item();
            let b = item - self.first_form_item();
            let items = self.forms.overflow_items_of_block(b).map(|k| first + k);
            let mut missing = Missing(vec![item]);
            missing
                .0
                .extend(items.filter(|item| self.overflow.get(item).is_none()));
            return Err(missing);
        };
        let Some(value) = block.get(form) else {
            return Ok(Vec::new());
        };
        let mut missing = Missing::default();
        let lemmas = self.lemmas_of(value, &mut missing);
        missing.into_result().map(|()| lemmas)
    }

    /// The lemmas of the form whose value in either forms FST is `value`
    /// (what a typo walk over the forms finds); none, with the overflow
    /// items they are in added to `missing`, when those are not held.
    pub(crate) fn lemmas_of(&self, value: u64, missing: &mut Missing) -> Vec<Lemma<'_>> {
        let first = self.first_overflow_item();
        let lemmas = self
            .forms
            .lemmas(value, |k| self.overflow.get(&(first + k)));
        lemmas.unwrap_or_else(|items| {
            missing.0.extend(items.into_iter().map(|k| first + k));
            Vec::new()
        })
    }

    /// The capitalisation bucket of the folded text `text`
    /// ([`super::capitals`]); [`Missing`] names it when not held.
    pub(crate) fn capital_bucket(&self, text: &str) -> Result<Arc<CapitalBucket>, Missing> {
        if self.capital_buckets == 0 {
            return Ok(Arc::new(CapitalBucket::empty()));
        }
        let item =
            self.first_capital_item() + super::buckets::bucket_of(text, self.capital_buckets);
        self.capitals.get(&item).ok_or(Missing(vec![item]))
    }

    /// Whether some form can be within `edits` of a query of `chars`
    /// characters.
    pub(crate) fn form_within_reach(&self, chars: usize, edits: usize) -> bool {
        self.forms.within_reach(chars, edits)
    }

    /// Every inflected form, alphabetically; [`Missing`] with the forward
    /// form blocks not held.
    pub(crate) fn forms(&self) -> Result<Vec<String>, Missing> {
        let mut missing = Missing::default();
        let items = self.every_item(Fst::Forms(Direction::Forwards));
        let blocks = self.held(&items, &mut missing);
        missing.into_result()?;
        let mut forms = Vec::new();
        for block in blocks {
            let mut stream = block.stream();
            while let Some((form, _)) = fst::Streamer::next(&mut stream) {
                forms.push(String::from_utf8_lossy(form).into_owned());
            }
        }
        Ok(forms)
    }

    /// Keeps blocks read from the store, by item number.
    pub fn keep(
        &self,
        items: impl IntoIterator<Item = (usize, Vec<u8>)>,
    ) -> Result<(), CorruptData> {
        for (item, bytes) in items {
            if item == 0 || item >= self.items() {
                return Err(CorruptData("a terms block out of range"));
            }
            if item >= self.first_capital_item() {
                let bucket = CapitalBucket::decode(&bytes)?;
                let held = bucket.memory_bytes();
                self.capitals.insert(item, Arc::new(bucket), held);
                continue;
            }
            if item >= self.first_overflow_item() {
                let k = item - self.first_overflow_item();
                self.forms.check_overflow(k, &bytes)?;
                let held = bytes.len();
                self.overflow.insert(item, Arc::new(bytes), held);
                continue;
            }
            let is_text = (self.first_text_item()..self.first_form_item()).contains(&item);
            if is_text {
                let b = item - self.first_text_item();
                let terms = self.text_firsts[b + 1] - self.text_firsts[b];
                let entries = self.text_first_ordinals[b]..self.text_first_ordinals[b + 1];
                let block = TextBlock::decode(&bytes, terms, entries, self.tables)?;
                let held = block.memory_bytes();
                self.texts.insert(item, Arc::new(block), held);
                continue;
            }
            let bytes_len = bytes.len();
            let block = if item >= self.first_form_item() {
                let block = blocks::map_of(bytes, "a forms block is not an FST")?;
                self.forms.check_block(&block)?;
                block
            } else {
                // What a lookup in it gives is a term, with its text's
                // chain known before any search can find the text.
                let block = later_words::decode_block(&bytes, self.terms)?;
                self.later_words.add(&block.chains);
                block.fst
            };
            self.held.insert(item, Arc::new(block), bytes_len);
        }
        Ok(())
    }

    /// The terms of the text whose first term is `t`, which a lookup or a
    /// walk found in a term block: `t`, then the same text in each other
    /// language, most common first.
    pub(crate) fn text_terms(&self, t: usize) -> Vec<usize> {
        self.later_words.text_terms(t)
    }

    /// Lets every block go, as a cold instance holds none.
    pub fn forget(&self) {
        self.held.clear();
        self.later_words.clear();
        self.texts.clear();
        self.overflow.clear();
        self.capitals.clear();
    }

    /// Bytes of the blocks held and of the roots.
    pub(super) fn memory_bytes(&self) -> usize {
        let blocks = self.forwards.len()
            + self.backwards.len()
            + self.middles.len()
            + self.forms.forwards.len()
            + self.forms.backwards.len()
            + self.forms.middles.len();
        self.held.bytes()
            + self.later_words.memory_bytes()
            + self.texts.bytes()
            + self.overflow.bytes()
            + self.capitals.bytes()
            + 16 * blocks
    }
}
