//! The `definitions` section: reverse lookup's index (docs/data-model.md,
//! "Reverse lookup's index"). Per folded word of the definitions, the
//! entries whose definition says it, each with how many times and the
//! definition's length (what BM25 needs); per phrase key
//! ([`phrase_key`]), the entries one of whose phrases is exactly it. A
//! definition word is listed under itself and under its lemmas in the
//! definition's language; stop words of that language are not listed.
//! Per stop word ([`stop_word_key`]), the languages it is a stop word of:
//! a query word's lemmas in those languages are not looked up (French `a`
//! is a form of `avoir`, but as a query word it is a function word).
//! Keys are grouped into parts ([`KeyedPart`]) like the grams, so that a
//! query reads only the parts of its own keys. Encoder and decoder side by
//! side.
//!
//! Per definition language ([`definition_lang_key`]), the bitmap of the
//! entries whose definitions are in it (a lemma's list narrowed to its
//! language).
//!
//! A word's list: `[varint count]` then per entry `[varint ordinal gap][u8
//! count][u8 relative length]`; a phrase's: `[varint count][varint ordinal
//! gap]…`. Gaps from the previous ordinal (the first from 0), ascending. A
//! stop word's: `[varint count]([varint length][language])…`.

use super::parts::{store_keyed, KeyedLists, KeyedPart, PartIndex};
use super::{PagedPart, Section};
use crate::codec::{bitmap_bytes, bitmap_of, put_str, put_varint, CorruptData, Reader};
use crate::definitions::{
    definition_lang_key, is_phrase_key, phrase_key, phrases, stop_word_key, words, Bm25,
};
use crate::lexicon::Lexicon;
use crate::postings::Posting;
use roaring::RoaringBitmap;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// What a part of definitions aims at: a reverse lookup reads the part of
/// each of its words and lemmas and of its phrase, most of them lists much
/// smaller than a part, so a part of 16 KB reads a quarter of what one of
/// 64 did (docs/benchmarks.md, "Parts sized per section").
const DEFINITION_PART_BYTES: usize = 16 * 1024;

/// The stored items of the section, from the postings in ordinal order.
pub(super) fn encode(postings: &[Posting], lexicon: &Lexicon) -> Vec<Vec<u8>> {
    let (mut defined, mut all_words) = (0usize, 0usize);
    for p in postings {
        let n = words(p.definition()).len();
        defined += usize::from(n > 0);
        all_words += n;
    }
    let average = all_words as f64 / defined.max(1) as f64;
    let mut lists = KeyedLists::default();
    let mut of_lang: BTreeMap<&str, RoaringBitmap> = BTreeMap::new();
    for (ordinal, p) in postings.iter().enumerate() {
        if p.definition().is_empty() {
            continue;
        }
        let ordinal = ordinal as u32;
        let lang = p.dictionary.definition_lang();
        of_lang.entry(lang).or_default().insert(ordinal);
        let is_stop_word = |w: &str| lexicon.is_stop_word(lang, w);
        let forms = lexicon.forms.get(lang);
        let all = words(p.definition());
        let length = Bm25::relative_length(all.len(), average);
        let mut counts: BTreeMap<&str, u8> = BTreeMap::new();
        for word in all.iter().filter(|w| !is_stop_word(w)) {
            let lemmas = forms.into_iter().flat_map(|f| f.lemmas(word));
            let keys: BTreeSet<&str> = std::iter::once(word.as_str())
                .chain(lemmas.filter(|l| !is_stop_word(l)))
                .collect();
            for key in keys {
                let count = counts.entry(key).or_default();
                *count = count.saturating_add(1);
            }
        }
        for (key, count) in counts {
            lists.of(key).start(ordinal).extend([count, length]);
        }
        for phrase in phrases(p.definition(), is_stop_word) {
            lists.of(&phrase_key(&phrase)).start(ordinal);
        }
    }
    let mut sorted: Vec<(Box<[u8]>, Vec<u8>)> = lists
        .finish()
        .map(|(key, list)| (key.into_boxed_bytes(), list))
        .collect();
    let mut stop_langs: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (lang, stop_words) in &lexicon.stop_words {
        for word in stop_words {
            stop_langs.entry(word).or_default().push(lang);
        }
    }
    for (word, langs) in stop_langs {
        let mut value = Vec::new();
        put_varint(&mut value, langs.len());
        for lang in langs {
            put_str(&mut value, lang);
        }
        sorted.push((stop_word_key(word).into_bytes().into(), value));
    }
    for (lang, mut entries) in of_lang {
        entries.optimize();
        sorted.push((
            definition_lang_key(lang).into_bytes().into(),
            bitmap_bytes(&entries),
        ));
    }
    sorted.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    store_keyed(sorted, DEFINITION_PART_BYTES)
}

/// One part of the `definitions` section: the lists of its keys, read in
/// place when a query asks for one.
pub struct DefinitionPart(KeyedPart);

impl PagedPart for DefinitionPart {
    const SECTION: Section = Section::Definitions;

    fn decode(_first_key: &[u8], bytes: Vec<u8>) -> Result<Self, CorruptData> {
        KeyedPart::decode(bytes).map(Self)
    }

    fn memory_bytes(&self) -> usize {
        self.0.memory_bytes()
    }
}

/// One entry of a word's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listed {
    pub ordinal: u32,
    /// How many times its definition says the word (or a form of it).
    pub count: u8,
    /// Its definition's length, in sixteenths of the average.
    pub relative_length: u8,
}

/// The list of one key, read when walked: its length is known first, so
/// that a query knows its work before doing it.
pub struct DefinitionList<'a> {
    len: usize,
    reader: Reader<'a>,
    weighted: bool,
}

impl DefinitionList<'_> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every entry, in ordinal order (a phrase's with count and length 0);
    /// stops at the first error, of the list or of `each`.
    pub fn for_each(
        mut self,
        mut each: impl FnMut(Listed) -> Result<(), CorruptData>,
    ) -> Result<(), CorruptData> {
        let mut ordinal = 0u32;
        for _ in 0..self.len {
            let gap = u32::try_from(self.reader.varint()?)
                .map_err(|_| CorruptData("definition list gap"))?;
            ordinal = ordinal
                .checked_add(gap)
                .ok_or(CorruptData("definition list ordinal"))?;
            let (count, relative_length) = if self.weighted {
                (self.reader.byte()?, self.reader.byte()?)
            } else {
                (0, 0)
            };
            each(Listed {
                ordinal,
                count,
                relative_length,
            })?;
        }
        if !self.reader.is_done() {
            return Err(CorruptData("trailing bytes in a definition list"));
        }
        Ok(())
    }
}

/// The parts of the `definitions` section that a reader holds, with the
/// index that says which part holds a key.
pub struct Definitions {
    index: Arc<PartIndex>,
    parts: HashMap<usize, Arc<DefinitionPart>>,
}

impl Definitions {
    pub fn new(index: Arc<PartIndex>, parts: HashMap<usize, Arc<DefinitionPart>>) -> Self {
        Self { index, parts }
    }

    /// The parts that hold these keys, each once, in order.
    pub fn parts_of(index: &PartIndex, keys: &[String]) -> Vec<usize> {
        let parts: BTreeSet<usize> = keys.iter().map(|k| index.part_of(k.as_bytes())).collect();
        parts.into_iter().collect()
    }

    /// The list of `key` (a word, or a [`phrase_key`]); `None` when no
    /// definition has it. Its part must be held ([`Definitions::parts_of`]).
    pub fn list(&self, key: &str) -> Result<Option<DefinitionList<'_>>, CorruptData> {
        let Some(bytes) = self.value(key)? else {
            return Ok(None);
        };
        let weighted = !is_phrase_key(key);
        let mut reader = Reader::new(bytes);
        let len = reader.count(if weighted { 3 } else { 1 })?;
        Ok(Some(DefinitionList {
            len,
            reader,
            weighted,
        }))
    }

    /// The stored value of `key`, from the part that holds it.
    fn value(&self, key: &str) -> Result<Option<&[u8]>, CorruptData> {
        let part = self.index.part_of(key.as_bytes());
        self.parts
            .get(&part)
            .ok_or(CorruptData("definitions part not loaded"))?
            .0
            .get(key.as_bytes())
    }

    /// The languages `word` is a stop word of (its [`stop_word_key`]'s
    /// part must be held).
    pub fn stop_word_langs(&self, word: &str) -> Result<Vec<String>, CorruptData> {
        let Some(bytes) = self.value(&stop_word_key(word))? else {
            return Ok(Vec::new());
        };
        let mut reader = Reader::new(bytes);
        let langs = (0..reader.count(1)?)
            .map(|_| reader.str().map(str::to_string))
            .collect::<Result<Vec<_>, _>>()?;
        if !reader.is_done() {
            return Err(CorruptData("trailing bytes in a stop word's languages"));
        }
        Ok(langs)
    }

    /// The entries whose definitions are in `lang` (its
    /// [`definition_lang_key`]'s part must be held).
    pub fn defined_in(&self, lang: &str) -> Result<RoaringBitmap, CorruptData> {
        match self.value(&definition_lang_key(lang))? {
            None => Ok(RoaringBitmap::new()),
            Some(bytes) => bitmap_of(bytes, "a definition language's bitmap"),
        }
    }

    /// Bytes of the parts held.
    pub fn memory_bytes(&self) -> usize {
        self.parts.values().map(|p| p.memory_bytes()).sum()
    }
}
