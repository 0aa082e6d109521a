//! The `rhymes` section: per language, the words of each rhyme part and of
//! each rhyme part's vowels ([`crate::rhyme`]), and per word its
//! pronunciations (docs/data-model.md, "Rhymes"). A word is a term, so
//! a list in term order is a list most common first. Keys are grouped into
//! parts ([`KeyedPart`]) like the definitions', so that a lookup reads the
//! part of its word, then the parts of its rhymes. Encoder and decoder side
//! by side.
//!
//! Keys: [`rhyme_key`] (`p`, the language, the rhyme part) and its vowels'
//! (`n`), each listing `[varint count]` then per word `[varint term
//! gap][u8 syllables][str pronunciation]`, terms ascending, the gap of the
//! first from 0; [`word_key`] (`w` and the term number, 4 bytes
//! big-endian), `[varint count][str pronunciation]…`: the word's
//! transcriptions as its dictionaries write them, distinct, at most
//! [`MAX_PRONUNCIATIONS`].

use super::parts::{store_keyed, KeyedPart, PartIndex};
use super::{PagedPart, Section};
use crate::codec::{put_str, put_varint, CorruptData, Reader};
use crate::postings::Posting;
use crate::rhyme::{Pronunciation, StressRule};
use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use std::sync::Arc;

/// A part of about 16 KB: a lookup reads its word's part and one part per
/// rhyme of the word, most lists far smaller than a part.
const RHYME_PART_BYTES: usize = 16 * 1024;

/// The transcriptions kept per word: a lookup reads the lists of each.
pub const MAX_PRONUNCIATIONS: usize = 4;

/// Perfect rhymes share the rhyme part; near rhymes its vowels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RhymeKind {
    Perfect,
    Near,
}

/// The key of the words of `lang` whose pronunciation has `part` as its
/// rhyme part (perfect) or as its rhyme part's vowels (near).
pub fn rhyme_key(kind: RhymeKind, lang: &str, part: &str) -> String {
    let kind = match kind {
        RhymeKind::Perfect => 'p',
        RhymeKind::Near => 'n',
    };
    format!("{kind}\0{lang}\0{part}")
}

/// The key of a term's pronunciations.
pub fn word_key(term: usize) -> Vec<u8> {
    let mut key = vec![b'w'];
    key.extend_from_slice(&(term as u32).to_be_bytes());
    key
}

/// The keys `ipa`, a pronunciation in `lang`, is listed under (perfect,
/// near), or `None` when it has no syllable.
pub fn keys_of(ipa: &str, lang: &str) -> Option<(String, String)> {
    let pronunciation = Pronunciation::parse(ipa)?;
    let rule = StressRule::of(lang);
    Some((
        rhyme_key(RhymeKind::Perfect, lang, &pronunciation.rhyme(rule)),
        rhyme_key(RhymeKind::Near, lang, &pronunciation.rhyme_vowels(rule)),
    ))
}

/// The stored items of the section, from the postings in rank order and
/// their terms.
pub(super) fn encode(postings: &[Posting], terms: &[(&str, Range<u32>)]) -> Vec<Vec<u8>> {
    let mut lists: HashMap<String, (usize, u32, Vec<u8>)> = HashMap::new();
    let mut units: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    for (t, (_, range)) in terms.iter().enumerate() {
        let entries = &postings[range.start as usize..range.end as usize];
        let lang = entries[0].dictionary.source_lang.as_str();
        let mut pronunciations: Vec<&str> = Vec::new();
        for p in entries {
            let Some(ipa) = p.phonetic.as_deref().map(str::trim) else {
                continue;
            };
            let fresh = !pronunciations.contains(&ipa);
            if fresh && pronunciations.len() < MAX_PRONUNCIATIONS && keys_of(ipa, lang).is_some() {
                pronunciations.push(ipa);
            }
        }
        if pronunciations.is_empty() {
            continue;
        }
        let mut listed = BTreeSet::new();
        for ipa in &pronunciations {
            let (perfect, near) = keys_of(ipa, lang).expect("kept only with keys");
            let syllables = Pronunciation::parse(ipa).map_or(0, |p| p.syllables());
            for key in [perfect, near] {
                if listed.insert(key.clone()) {
                    let (count, last, bytes) = lists.entry(key).or_default();
                    put_varint(bytes, t - *last as usize);
                    bytes.push(syllables.min(255) as u8);
                    put_str(bytes, ipa);
                    (*count, *last) = (*count + 1, t as u32);
                }
            }
        }
        let mut value = Vec::new();
        put_varint(&mut value, pronunciations.len());
        for ipa in pronunciations {
            put_str(&mut value, ipa);
        }
        units.push((word_key(t), value));
    }
    for (key, (count, _, bytes)) in lists {
        let mut value = Vec::with_capacity(bytes.len() + 5);
        put_varint(&mut value, count);
        value.extend(bytes);
        units.push((key.into_bytes(), value));
    }
    units.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    store_keyed(&units, RHYME_PART_BYTES)
}

/// One part of the `rhymes` section.
pub struct RhymePart(KeyedPart);

impl PagedPart for RhymePart {
    const SECTION: Section = Section::Rhymes;

    fn decode(_first_key: &[u8], bytes: Vec<u8>) -> Result<Self, CorruptData> {
        KeyedPart::decode(bytes).map(Self)
    }

    fn memory_bytes(&self) -> usize {
        self.0.memory_bytes()
    }
}

/// A word of a rhyme list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rhyming<'a> {
    pub term: usize,
    pub syllables: u8,
    /// Its transcription that gave the list's key.
    pub pronunciation: &'a str,
}

/// The parts of the `rhymes` section that a reader holds, with the index
/// that says which part holds a key.
pub struct Rhymes {
    index: Arc<PartIndex>,
    parts: HashMap<usize, Arc<RhymePart>>,
}

impl Rhymes {
    pub fn new(index: Arc<PartIndex>, parts: HashMap<usize, Arc<RhymePart>>) -> Self {
        Self { index, parts }
    }

    /// The parts that hold these keys, each once, in order.
    pub fn parts_of<K: AsRef<[u8]>>(index: &PartIndex, keys: &[K]) -> Vec<usize> {
        let parts: BTreeSet<usize> = keys.iter().map(|k| index.part_of(k.as_ref())).collect();
        parts.into_iter().collect()
    }

    /// The pronunciations of a term (none when its dictionaries give
    /// none); the part of its [`word_key`] must be held.
    pub fn pronunciations(&self, term: usize) -> Result<Vec<&str>, CorruptData> {
        let Some(bytes) = self.value(&word_key(term))? else {
            return Ok(Vec::new());
        };
        let mut reader = Reader::new(bytes);
        let found = (0..reader.count(1)?)
            .map(|_| reader.str())
            .collect::<Result<Vec<_>, _>>()?;
        if !reader.is_done() {
            return Err(CorruptData("trailing bytes in a word's pronunciations"));
        }
        Ok(found)
    }

    /// How many words are listed under a [`rhyme_key`] (its part must be
    /// held): a lookup knows its work before doing it.
    pub fn list_len(&self, key: &str) -> Result<usize, CorruptData> {
        match self.value(key.as_bytes())? {
            Some(bytes) => Reader::new(bytes).count(3),
            None => Ok(0),
        }
    }

    /// The words listed under a [`rhyme_key`], in term order (its part
    /// must be held).
    pub fn list(&self, key: &str) -> Result<Vec<Rhyming<'_>>, CorruptData> {
        let Some(bytes) = self.value(key.as_bytes())? else {
            return Ok(Vec::new());
        };
        let mut reader = Reader::new(bytes);
        let len = reader.count(3)?;
        let mut words = Vec::with_capacity(len);
        let mut term = 0usize;
        for _ in 0..len {
            term = term
                .checked_add(reader.varint()?)
                .ok_or(CorruptData("rhyme list term"))?;
            let syllables = reader.byte()?;
            let pronunciation = reader.str()?;
            words.push(Rhyming {
                term,
                syllables,
                pronunciation,
            });
        }
        if !reader.is_done() {
            return Err(CorruptData("trailing bytes in a rhyme list"));
        }
        Ok(words)
    }

    fn value(&self, key: &[u8]) -> Result<Option<&[u8]>, CorruptData> {
        let part = self.index.part_of(key);
        self.parts
            .get(&part)
            .ok_or(CorruptData("rhymes part not loaded"))?
            .0
            .get(key)
    }

    /// Bytes of the parts held.
    pub fn memory_bytes(&self) -> usize {
        self.parts.values().map(|p| p.memory_bytes()).sum()
    }
}
