//! The `rhymes` section: per language, the words of each rhyme part and of
//! each rhyme part's vowels ([`crate::rhyme`]) (docs/data-model.md,
//! "Rhymes"). A word is a term, so a list in term order is a list most
//! common first. Keys are grouped into parts ([`KeyedPart`]) like the
//! definitions', so that a lookup reads its word's bucket of the
//! `pronunciations` section ([`super::pronunciations`], made here too),
//! then the parts of its rhymes. Encoder and decoder side by side.
//!
//! A word's pronunciations are its dictionaries' transcriptions (distinct,
//! at most [`MAX_DICTIONARY_PRONUNCIATIONS`]) and the one a synthesizer
//! made of it, from the lexicon ([`Lexicon::pronunciations`]), each with
//! its [`PronunciationSource`].
//!
//! Keys: [`rhyme_key`] (`p`, the language, the rhyme part) and its vowels'
//! (`n`), each listing `[varint count]` then per word `[varint term
//! gap][u8 syllables][u8 source][str pronunciation]`, terms ascending, the
//! gap of the first from 0.
//!
//! The section also holds the words by how their spelling sounds
//! ([`crate::sounds_like`], format 20): [`sounds_key`] (`s`, the language,
//! a coarse key) lists `[varint count]` then per word and fine key of that
//! coarse key `[varint term gap][str fine key]`, terms ascending (a word
//! with two fine keys of one coarse key is listed twice, the second gap
//! 0); and every coarse key once more, alone, under [`sounds_index_key`]
//! (`c`, the language, the coarse key; no value), so that the coarse keys
//! of a first sound fill few parts. A sounds-like
//! search reads the parts of those index keys that start with its first
//! sounds ([`sounds_index_prefix`]), walks them with an automaton of its
//! own keys, then reads the parts of the lists of the keys it reached.

use super::parts::{index_fits, store_keyed_by, KeyedLists, KeyedPart, PartIndex};
use super::pronunciations::{self, PronunciationSource};
use super::{PagedPart, Section};
use crate::codec::{put_str, CorruptData, Reader};
use crate::lexicon::Lexicon;
use crate::postings::Posting;
use crate::rhyme::{Pronunciation, StressRule};
use crate::sounds_like::{self, SoundKey};
use fst::automaton::{Intersection, StartsWith, Str};
use fst::Automaton;
use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use std::sync::Arc;

/// A part of about 16 KB: a lookup reads its word's part and one part per
/// rhyme of the word, most lists far smaller than a part.
/// (In the tests about a hundred bytes, so that lookups and walks cross
/// parts, while the part index of a test of 40,000 words, its keys
/// counted in the parts' sizes, still fits one item.)
const RHYME_PART_BYTES: usize = if cfg!(test) { 128 } else { 16 * 1024 };

/// The dictionaries' transcriptions kept per word: a lookup reads the
/// lists of each (and of the synthesized one).
pub const MAX_DICTIONARY_PRONUNCIATIONS: usize = 3;

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

/// The key of the words of `lang` whose spelling has the coarse sounds-like
/// key `coarse`.
pub fn sounds_key(lang: &str, coarse: &str) -> String {
    format!("s\0{lang}\0{coarse}")
}

/// The key under which the coarse sounds-like key `coarse` of `lang` is
/// listed alone, without its [`sounds_key`]'s list.
pub fn sounds_index_key(lang: &str, coarse: &str) -> String {
    format!("c\0{lang}\0{coarse}")
}

/// What the [`sounds_index_key`]s of `lang` whose coarse key starts with
/// `first` (a symbol) start with.
pub fn sounds_index_prefix(lang: &str, first: char) -> String {
    format!("c\0{lang}\0{first}")
}

/// The sounds-like keys of a term: those of each distinct spelling of its
/// entries (`côte` and `coté` are one folded term), at most
/// [`sounds_like::MAX_KEYS`] spellings.
fn sound_keys_of(entries: &[Posting], lang: &str) -> Vec<SoundKey> {
    let mut spellings: Vec<&str> = Vec::new();
    for p in entries {
        if !spellings.contains(&p.word()) && spellings.len() < sounds_like::MAX_KEYS {
            spellings.push(p.word());
        }
    }
    let mut keys: Vec<SoundKey> = Vec::new();
    for key in spellings
        .into_iter()
        .flat_map(|w| sounds_like::keys(lang, w))
    {
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys
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

/// A term's pronunciations: its dictionaries' distinct transcriptions
/// (at most [`MAX_DICTIONARY_PRONUNCIATIONS`]), then the synthesizer's,
/// each only if it has a syllable to rhyme on.
fn pronunciations_of<'a>(
    entries: &'a [Posting],
    text: &str,
    lang: &str,
    lexicon: &'a Lexicon,
) -> Vec<(PronunciationSource, &'a str)> {
    let mut pronunciations: Vec<(PronunciationSource, &str)> = Vec::new();
    let transcribed = entries.iter().filter_map(|p| p.phonetic());
    for ipa in transcribed.map(str::trim) {
        let fresh = !pronunciations.iter().any(|&(_, p)| p == ipa);
        if fresh
            && pronunciations.len() < MAX_DICTIONARY_PRONUNCIATIONS
            && keys_of(ipa, lang).is_some()
        {
            pronunciations.push((PronunciationSource::Dictionary, ipa));
        }
    }
    let synthesized = lexicon.pronunciations.get(lang).and_then(|l| l.get(text));
    if let Some(ipa) = synthesized.map(|ipa| ipa.trim()) {
        let fresh = !pronunciations.iter().any(|&(_, p)| p == ipa);
        if fresh && keys_of(ipa, lang).is_some() {
            pronunciations.push((PronunciationSource::Espeak, ipa));
        }
    }
    pronunciations
}

/// The stored items of the `pronunciations` section, from the postings in
/// rank order, their terms and the lexicon's pronunciations: made in a
/// pass of their own, before [`encode`]'s, so that the build never holds
/// the words' values and the rhyme lists together (at 5.27 M entries one
/// pass for both raised the build's peak resident from about 2.73 GiB,
/// set at `definitions`, to as much as 2.95 GiB).
pub(super) fn encode_pronunciations(
    postings: &[Posting],
    terms: &[(&str, Range<u32>)],
    lexicon: &Lexicon,
) -> Vec<Vec<u8>> {
    // Per text, its words' pronunciations, most common first (terms come
    // in rank order).
    let mut words: HashMap<&str, Vec<u8>> = HashMap::new();
    for (t, (text, range)) in terms.iter().enumerate() {
        let entries = &postings[range.start as usize..range.end as usize];
        let lang = entries[0].dictionary.source_lang.as_str();
        let pronunciations = pronunciations_of(entries, text, lang, lexicon);
        if !pronunciations.is_empty() {
            let value = words.entry(text).or_default();
            pronunciations::put_word(value, t, lang, &pronunciations);
        }
    }
    pronunciations::encode(words.into_iter().collect())
}

/// The stored items of this section, from the postings in rank order,
/// their terms and the lexicon's pronunciations.
pub(super) fn encode(
    postings: &[Posting],
    terms: &[(&str, Range<u32>)],
    lexicon: &Lexicon,
) -> Vec<Vec<u8>> {
    let mut lists = KeyedLists::default();
    let mut units: Vec<(Box<[u8]>, Vec<u8>)> = Vec::new();
    for (t, (text, range)) in terms.iter().enumerate() {
        let entries = &postings[range.start as usize..range.end as usize];
        let lang = entries[0].dictionary.source_lang.as_str();
        for key in sound_keys_of(entries, lang) {
            let bytes = lists.of(&sounds_key(lang, &key.coarse())).start(t as u32);
            put_str(bytes, key.fine());
        }
        let mut listed = BTreeSet::new();
        for (source, ipa) in pronunciations_of(entries, text, lang, lexicon) {
            let (perfect, near) = keys_of(ipa, lang).expect("kept only with keys");
            let syllables = Pronunciation::parse(ipa).map_or(0, |p| p.syllables());
            for key in [perfect, near] {
                if listed.insert(key.clone()) {
                    let bytes = lists.of(&key).start(t as u32);
                    bytes.push(syllables.min(255) as u8);
                    bytes.push(source.byte());
                    put_str(bytes, ipa);
                }
            }
        }
    }
    for (key, value) in lists.finish() {
        if let Some(coarse) = key.strip_prefix("s\0") {
            // No value: every FST output of a part of these is 0, so the
            // keys alone take its bytes.
            units.push((format!("c\0{coarse}").into_bytes().into(), Vec::new()));
        }
        units.push((key.into_boxed_bytes(), value));
    }
    units.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    // A search reads the sounds-like lists of the keys it reached, each
    // list far smaller than a part and the keys all over the section: in
    // parts of 4 KB it reads half the bytes of parts of 16 KB
    // (docs/benchmarks.md). Each part is a line of the part index, which
    // must fit its item: larger list parts where it would not.
    let part_bytes = |lists: usize| {
        move |key: &[u8]| {
            if key.first() == Some(&b's') {
                lists
            } else {
                RHYME_PART_BYTES
            }
        }
    };
    let lists = [RHYME_PART_BYTES / 4, RHYME_PART_BYTES / 2]
        .into_iter()
        .find(|&lists| index_fits(&units, part_bytes(lists)))
        .unwrap_or(RHYME_PART_BYTES);
    store_keyed_by(units, part_bytes(lists))
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
    /// Its pronunciation that gave the list's key, and where it is from.
    pub pronunciation: &'a str,
    pub source: PronunciationSource,
}

/// The list of a [`sounds_key`], as stored.
#[derive(Clone, Copy)]
pub struct SoundsList<'a>(&'a [u8]);

impl<'a> SoundsList<'a> {
    /// Its words: (term, fine key), terms ascending.
    pub fn words(&self) -> Result<Vec<(usize, &'a str)>, CorruptData> {
        let mut reader = Reader::new(self.0);
        let len = reader.count(2)?;
        let mut words = Vec::with_capacity(len);
        let mut term = 0usize;
        for _ in 0..len {
            term = term
                .checked_add(reader.varint()?)
                .ok_or(CorruptData("sounds-like list term"))?;
            words.push((term, reader.str()?));
        }
        if !reader.is_done() {
            return Err(CorruptData("trailing bytes in a sounds-like list"));
        }
        Ok(words)
    }
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

    /// The parts under `prefix` (a [`sounds_index_prefix`]) in whose key
    /// range some key may be one that `automaton` accepts after the
    /// language's prefix: those a walk of it over the keys reads.
    pub fn sounds_key_parts<A: fst::Automaton>(
        index: &PartIndex,
        prefix: &str,
        automaton: A,
    ) -> Vec<usize> {
        let (_, walk) = under_first_sound(prefix, automaton);
        let parts = index.parts_with_prefix(prefix.as_bytes());
        parts.filter(|&part| index.may_match(part, &walk)).collect()
    }

    /// Calls `visit` with each coarse key under `prefix` (a
    /// [`sounds_index_prefix`]) in `parts` (its [`Rhymes::sounds_key_parts`]
    /// for `automaton`, held) that `automaton` accepts after the language's
    /// prefix, in key order.
    pub fn each_sounds_key<A: fst::Automaton + Clone, E: From<CorruptData>>(
        &self,
        parts: &[usize],
        prefix: &str,
        automaton: A,
        mut visit: impl FnMut(&str) -> Result<(), E>,
    ) -> Result<(), E> {
        let (lang_end, walk) = under_first_sound(prefix, automaton);
        for part in parts {
            let held = self
                .parts
                .get(part)
                .ok_or(CorruptData("rhymes part not loaded"))?;
            held.0.each_match(walk.clone(), |key, _| {
                let coarse = std::str::from_utf8(&key[lang_end..])
                    .map_err(|_| CorruptData("a sounds-like key is not UTF-8"))?;
                visit(coarse)
            })?;
        }
        Ok(())
    }

    /// The list of a [`sounds_key`] (its part must be held): none when no
    /// word has that key.
    pub fn sounds_list(&self, key: &str) -> Result<Option<SoundsList<'_>>, CorruptData> {
        Ok(self.value(key.as_bytes())?.map(SoundsList))
    }

    /// How many words are listed under a [`rhyme_key`] (its part must be
    /// held): a lookup knows its work before doing it.
    pub fn list_len(&self, key: &str) -> Result<usize, CorruptData> {
        match self.value(key.as_bytes())? {
            Some(bytes) => Reader::new(bytes).count(4),
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
        let len = reader.count(4)?;
        let mut words = Vec::with_capacity(len);
        let mut term = 0usize;
        for _ in 0..len {
            term = term
                .checked_add(reader.varint()?)
                .ok_or(CorruptData("rhyme list term"))?;
            let syllables = reader.byte()?;
            let source = PronunciationSource::of_byte(reader.byte()?)?;
            let pronunciation = reader.str()?;
            words.push(Rhyming {
                term,
                syllables,
                pronunciation,
                source,
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

/// A walk under `prefix` (a [`sounds_index_prefix`]): the language's
/// prefix, then the keys that start with the prefix's first sound and that
/// `automaton` accepts (it reads the first sound too, a key's own), so
/// that the keys of the other first sounds in the same parts are not
/// walked; and where the coarse key starts.
type FirstSoundWalk<'p, A> = AfterPrefix<'p, Intersection<StartsWith<Str<'p>>, A>>;

fn under_first_sound<A: fst::Automaton>(
    prefix: &str,
    automaton: A,
) -> (usize, FirstSoundWalk<'_, A>) {
    let lang_end = prefix.rfind('\0').map_or(0, |i| i + 1);
    let walk = AfterPrefix {
        prefix: &prefix.as_bytes()[..lang_end],
        inner: Str::new(&prefix[lang_end..])
            .starts_with()
            .intersection(automaton),
    };
    (lang_end, walk)
}

/// An automaton that accepts `prefix` followed by what `inner` accepts.
#[derive(Clone)]
struct AfterPrefix<'a, A> {
    prefix: &'a [u8],
    inner: A,
}

impl<A: fst::Automaton> fst::Automaton for AfterPrefix<'_, A> {
    /// Within the prefix, the bytes of it read (`None` once one differs);
    /// after it, the inner automaton's state.
    type State = Result<Option<usize>, A::State>;

    fn start(&self) -> Self::State {
        if self.prefix.is_empty() {
            Err(self.inner.start())
        } else {
            Ok(Some(0))
        }
    }

    fn is_match(&self, state: &Self::State) -> bool {
        state.as_ref().err().is_some_and(|s| self.inner.is_match(s))
    }

    fn can_match(&self, state: &Self::State) -> bool {
        match state {
            Ok(read) => read.is_some(),
            Err(s) => self.inner.can_match(s),
        }
    }

    fn accept(&self, state: &Self::State, byte: u8) -> Self::State {
        match state {
            Ok(Some(read)) if self.prefix[*read] == byte => {
                if read + 1 == self.prefix.len() {
                    Err(self.inner.start())
                } else {
                    Ok(Some(read + 1))
                }
            }
            Ok(_) => Ok(None),
            Err(s) => Err(self.inner.accept(s, byte)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sounds_like::distance;
    use fst::{IntoStreamer, Set, Streamer};
    use levenshtein_automata::LevenshteinAutomatonBuilder;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Over an FST of keys of several prefixes, the automaton accepts
        /// exactly the keys that start with its prefix and whose rest is
        /// within the inner automaton's edits of the query.
        #[test]
        fn after_prefix_accepts_the_prefix_then_the_inner_automaton(
            keys in proptest::collection::btree_set("(c|s)\\x00(en|fr)\\x00[aKST]{1,6}", 1..80),
            prefix in "(c|s)\\x00(en|fr)\\x00",
            query in "[aKST]{1,6}",
            edits in 1u8..3,
        ) {
            let set = Set::from_iter(keys.iter()).unwrap();
            let dfa = LevenshteinAutomatonBuilder::new(edits, false).build_dfa(&query);
            let automaton = AfterPrefix { prefix: prefix.as_bytes(), inner: &dfa };
            let mut found = Vec::new();
            let mut stream = set.search(automaton).into_stream();
            while let Some(key) = stream.next() {
                found.push(String::from_utf8(key.to_vec()).unwrap());
            }
            let expected: Vec<String> = keys
                .iter()
                .filter(|k| {
                    k.strip_prefix(prefix.as_str())
                        .is_some_and(|rest| distance(rest, &query) <= usize::from(edits))
                })
                .cloned()
                .collect();
            prop_assert_eq!(found, expected);
        }
    }
}
