//! The `core` section, decoded together with `forms` and the root of
//! `terms` ([`super::terms`], whose blocks are read as queries need them)
//! into the [`Index`] that every search, autocomplete and random request
//! reads. `core` (deflate): the dictionary and part-of-speech tables, every
//! term with its entry count and its Zipf frequency × 100 (0 when no list
//! has it), and per entry its dictionary, part of speech, audio flag and
//! original headword where it differs from the term. Encoder and decoder
//! side by side.

use super::forms::{FormFst, Forms, Lemma};
use super::terms::{Missing, TermDictionary};
use crate::codec::{compress, inflate, put_str, put_varint, CorruptData, Reader};
use crate::postings::{put_tables, read_tables, DictionaryRef, Posting};
use roaring::RoaringBitmap;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;

/// Version 2 numbers terms by commonness first and has a `forms` section;
/// version 3 gives every term its frequency.
const CORE_VERSION: u8 = 3;
const FLAG_AUDIO: u8 = 1;
const FLAG_OWN_WORD: u8 = 2;

/// The `core` section of `postings` (in rank order), whose `terms` are
/// their folded headwords with their ordinal ranges, in the same order, and
/// `frequencies` each term's Zipf frequency × 100.
pub(super) fn encode_core(
    postings: &[Posting],
    terms: &[(&str, Range<u32>)],
    frequencies: &[u16],
) -> Vec<u8> {
    assert_eq!(terms.len(), frequencies.len(), "a frequency per term");
    let dictionaries: BTreeMap<&str, &DictionaryRef> = postings
        .iter()
        .map(|p| (p.dictionary.id.as_str(), &p.dictionary))
        .collect();
    let dictionary_index: HashMap<&str, usize> = dictionaries
        .keys()
        .enumerate()
        .map(|(i, id)| (*id, i))
        .collect();
    let parts: BTreeSet<&str> = postings
        .iter()
        .filter_map(|p| p.part_of_speech.as_deref())
        .collect();
    let part_index: HashMap<&str, usize> = parts.iter().enumerate().map(|(i, p)| (*p, i)).collect();

    let mut core = vec![CORE_VERSION];
    let table: Vec<&DictionaryRef> = dictionaries.values().copied().collect();
    let part_table: Vec<&str> = parts.iter().copied().collect();
    put_tables(&mut core, &table, &part_table);
    put_varint(&mut core, terms.len());
    for ((term, range), &frequency) in terms.iter().zip(frequencies) {
        put_str(&mut core, term);
        put_varint(&mut core, range.len());
        put_varint(&mut core, usize::from(frequency));
    }
    for p in postings {
        put_varint(&mut core, dictionary_index[p.dictionary.id.as_str()]);
        put_varint(
            &mut core,
            p.part_of_speech
                .as_deref()
                .map_or(0, |pos| part_index[pos] + 1),
        );
        let own_word = p.word != p.folded;
        core.push(
            if p.has_audio { FLAG_AUDIO } else { 0 } | if own_word { FLAG_OWN_WORD } else { 0 },
        );
        if own_word {
            put_str(&mut core, &p.word);
        }
    }
    compress(&core)
}

/// The `core`, `terms` and `forms` sections, decoded: what every search,
/// autocomplete and random request reads, and only that (what an instance
/// keeps between requests is the [`crate::engine::Searcher`]'s).
pub struct Index {
    dictionaries: Vec<DictionaryRef>,
    parts: Vec<String>,
    /// Term `t` is `term_text[term_ends[t - 1]..term_ends[t]]`.
    term_text: Vec<u8>,
    term_ends: Vec<u32>,
    /// The first ordinal of every term, and the number of entries last.
    term_first: Vec<u32>,
    /// The most characters of any term.
    longest_term_chars: usize,
    /// Every term's Zipf frequency × 100, up to the last listed one: terms
    /// are numbered most common first, so those after it are all 0.
    term_frequency: Vec<u16>,
    entry_dictionary: Vec<u16>,
    entry_part: Vec<u16>,
    audio: RoaringBitmap,
    by_dictionary: Vec<RoaringBitmap>,
    by_part: Vec<RoaringBitmap>,
    own_words: RoaringBitmap,
    own_word_text: Vec<u8>,
    own_word_ends: Vec<u32>,
    /// The term dictionary, forwards and backwards, in blocks.
    terms: TermDictionary,
    forms: Forms,
}

impl Index {
    /// Decodes the `core` and `forms` sections and the root item of
    /// `terms`; the term blocks it reads are kept within `term_budget` bytes.
    pub fn decode(
        core: &[u8],
        terms_root: &[u8],
        forms: Vec<u8>,
        term_budget: usize,
    ) -> Result<Self, CorruptData> {
        let raw = inflate(core)?;
        let mut r = Reader::new(&raw);
        if r.byte()? != CORE_VERSION {
            return Err(CorruptData(
                "snapshot of another version: run dictadmin index",
            ));
        }
        let (dictionaries, parts) = read_tables(&mut r)?;
        if dictionaries.len() > usize::from(u16::MAX) || parts.len() >= usize::from(u16::MAX) {
            return Err(CorruptData("too many dictionaries or parts of speech"));
        }
        let term_count = r.count(2)?;
        let mut term_text = Vec::new();
        let mut term_ends = Vec::with_capacity(term_count);
        let mut term_first = Vec::with_capacity(term_count + 1);
        let mut entries = 0u32;
        let mut longest_term_chars = 0;
        let mut term_frequency = Vec::with_capacity(term_count);
        for _ in 0..term_count {
            let term = r.str()?;
            longest_term_chars = longest_term_chars.max(term.chars().count());
            term_text.extend_from_slice(term.as_bytes());
            term_ends.push(u32::try_from(term_text.len()).map_err(|_| CorruptData("too large"))?);
            term_first.push(entries);
            let count = r.varint()?;
            if count == 0 {
                return Err(CorruptData("empty term"));
            }
            entries = u32::try_from(count)
                .ok()
                .and_then(|c| entries.checked_add(c))
                .ok_or(CorruptData("too many entries"))?;
            let frequency = u16::try_from(r.varint()?)
                .map_err(|_| CorruptData("a term frequency out of range"))?;
            term_frequency.push(frequency);
        }
        term_first.push(entries);
        let listed = term_frequency
            .iter()
            .rposition(|&f| f > 0)
            .map_or(0, |last| last + 1);
        term_frequency.truncate(listed);
        term_frequency.shrink_to_fit();

        let n = entries as usize;
        if n > raw.len() {
            return Err(CorruptData("more entries than data"));
        }
        let mut entry_dictionary = Vec::with_capacity(n);
        let mut entry_part = Vec::with_capacity(n);
        let mut audio = RoaringBitmap::new();
        let mut by_dictionary = vec![RoaringBitmap::new(); dictionaries.len()];
        let mut by_part = vec![RoaringBitmap::new(); parts.len()];
        let mut own_words = RoaringBitmap::new();
        let mut own_word_text = Vec::new();
        let mut own_word_ends = Vec::new();
        for ordinal in 0..entries {
            let d = r.varint()?;
            let part = r.varint()?;
            let flags = r.byte()?;
            by_dictionary
                .get_mut(d)
                .ok_or(CorruptData("dictionary index out of range"))?
                .insert(ordinal);
            entry_dictionary.push(d as u16);
            if part > 0 {
                by_part
                    .get_mut(part - 1)
                    .ok_or(CorruptData("part of speech out of range"))?
                    .insert(ordinal);
            }
            entry_part.push(part as u16);
            if flags & FLAG_AUDIO != 0 {
                audio.insert(ordinal);
            }
            if flags & FLAG_OWN_WORD != 0 {
                own_words.insert(ordinal);
                own_word_text.extend_from_slice(r.str()?.as_bytes());
                own_word_ends.push(own_word_text.len() as u32);
            }
        }
        if !r.is_done() {
            return Err(CorruptData("trailing bytes in the core section"));
        }
        let terms = TermDictionary::decode(terms_root, term_budget)?;
        if terms.len() != term_count {
            return Err(CorruptData("terms FST does not match the core"));
        }
        let forms = Forms::decode(forms, &dictionaries, &by_dictionary, term_count)?;
        Ok(Self {
            dictionaries,
            parts,
            term_text,
            term_ends,
            term_first,
            longest_term_chars,
            term_frequency,
            entry_dictionary,
            entry_part,
            audio,
            by_dictionary,
            by_part,
            own_words,
            own_word_text,
            own_word_ends,
            terms,
            forms,
        })
    }

    /// Keeps at most `budget` bytes of term blocks from now on (what it
    /// held is let go).
    pub fn keep_term_blocks_within(&mut self, budget: usize) {
        self.terms.keep_within(budget);
    }

    pub fn longest_term_chars(&self) -> usize {
        self.longest_term_chars
    }

    /// The term number of a folded headword, if it is one; [`Missing`]
    /// when the instance does not hold the block that says.
    pub fn term_number(&self, term: &str) -> Result<Option<usize>, Missing> {
        Ok(self.terms.get(term)?.map(|t| t as usize))
    }

    /// The term numbers of folded `words` (each `None` when it is no
    /// term); [`Missing`] with the blocks of all of them not held.
    pub fn term_numbers(&self, words: &[String]) -> Result<Vec<Option<usize>>, Missing> {
        let mut missing = Missing::default();
        let numbers = words
            .iter()
            .map(|w| missing.noted(self.term_number(w)))
            .collect();
        missing.into_result().map(|()| numbers)
    }

    /// Whether the dictionary (by id) has an entry of term `t`.
    pub fn dictionary_has_term(&self, dictionary_id: &str, t: usize) -> bool {
        self.dictionaries
            .iter()
            .position(|d| d.id == dictionary_id)
            .is_some_and(|d| self.by_dictionary[d].range_cardinality(self.term_entries(t)) > 0)
    }

    pub fn entries(&self) -> u32 {
        *self.term_first.last().expect("at least the end")
    }

    pub fn term_count(&self) -> usize {
        self.term_ends.len()
    }

    pub fn term(&self, t: usize) -> &str {
        let start = if t == 0 {
            0
        } else {
            self.term_ends[t - 1] as usize
        };
        let bytes = &self.term_text[start..self.term_ends[t] as usize];
        std::str::from_utf8(bytes).expect("checked when decoded")
    }

    /// The Zipf frequency × 100 of term `t` (its commonness, when a
    /// frequency list has it), 0 when no list of its languages has it.
    pub fn term_frequency(&self, t: usize) -> u16 {
        self.term_frequency.get(t).copied().unwrap_or(0)
    }

    /// The ordinals of term `t`.
    pub fn term_entries(&self, t: usize) -> Range<u32> {
        self.term_first[t]..self.term_first[t + 1]
    }

    /// The term of an ordinal.
    pub fn term_of(&self, ordinal: u32) -> usize {
        self.term_first.partition_point(|&first| first <= ordinal) - 1
    }

    /// The headword of an entry as its dictionary writes it.
    pub fn word(&self, ordinal: u32) -> &str {
        if self.own_words.contains(ordinal) {
            let k = self.own_words.rank(ordinal) as usize - 1;
            let start = if k == 0 {
                0
            } else {
                self.own_word_ends[k - 1] as usize
            };
            let bytes = &self.own_word_text[start..self.own_word_ends[k] as usize];
            return std::str::from_utf8(bytes).expect("checked when decoded");
        }
        self.term(self.term_of(ordinal))
    }

    pub fn dictionary(&self, ordinal: u32) -> &DictionaryRef {
        &self.dictionaries[usize::from(self.entry_dictionary[ordinal as usize])]
    }

    pub fn part_of_speech(&self, ordinal: u32) -> Option<&str> {
        match self.entry_part[ordinal as usize] {
            0 => None,
            n => Some(&self.parts[usize::from(n) - 1]),
        }
    }

    pub fn has_audio(&self, ordinal: u32) -> bool {
        self.audio.contains(ordinal)
    }

    /// The lemmas of an inflected (folded) form, most common first; none for
    /// a word that is no form of another.
    pub fn lemmas(&self, form: &str) -> Vec<Lemma<'_>> {
        self.forms.lemmas(form)
    }

    /// The lemmas of the form whose value in either forms FST is `at`
    /// (what a typo walk over the forms reaches).
    pub(crate) fn lemmas_at(&self, at: u64) -> Result<Vec<Lemma<'_>>, CorruptData> {
        self.forms.lemmas_at(at)
    }

    /// The forms FST, forwards and spelled backwards (typo walks).
    pub(crate) fn form_fsts(&self) -> (&FormFst, &FormFst) {
        self.forms.fsts()
    }

    /// Whether some form can be within `edits` of a query of `chars`
    /// characters.
    pub(crate) fn form_within_reach(&self, chars: usize, edits: usize) -> bool {
        self.forms.within_reach(chars, edits)
    }

    /// Every inflected form the snapshot knows, alphabetically (for tools
    /// that draw forms at random, such as the latency benchmark).
    pub fn forms(&self) -> Vec<String> {
        self.forms.all()
    }

    /// The entries of a lemma in the dictionaries of its language.
    pub(crate) fn lemma_entries(&self, lemma: Lemma<'_>) -> RoaringBitmap {
        let mut entries = RoaringBitmap::new();
        if lemma.term < self.term_count() {
            if let Some(language) = self.forms.language_entries(lemma) {
                entries.insert_range(self.term_entries(lemma.term));
                entries &= language;
            }
        }
        entries
    }

    /// The term dictionary, forwards and spelled backwards, in blocks.
    pub fn term_dictionary(&self) -> &TermDictionary {
        &self.terms
    }

    /// Every dictionary with its entries.
    pub(crate) fn dictionary_entries(
        &self,
    ) -> impl Iterator<Item = (&DictionaryRef, &RoaringBitmap)> {
        self.dictionaries.iter().zip(&self.by_dictionary)
    }

    /// Every part of speech with its entries.
    pub(crate) fn part_of_speech_entries(&self) -> impl Iterator<Item = (&str, &RoaringBitmap)> {
        self.parts.iter().map(String::as_str).zip(&self.by_part)
    }

    /// The entries that have audio.
    pub(crate) fn audio_entries(&self) -> &RoaringBitmap {
        &self.audio
    }

    /// Bytes held in memory (approximate: the large arrays and bitmaps).
    pub fn memory_bytes(&self) -> usize {
        let bitmaps: u64 = self
            .by_dictionary
            .iter()
            .chain(&self.by_part)
            .chain([&self.audio, &self.own_words])
            .map(|b| b.serialized_size() as u64)
            .sum();
        self.term_text.len()
            + 4 * (self.term_ends.len() + self.term_first.len())
            + 2 * self.term_frequency.len()
            + 2 * (self.entry_dictionary.len() + self.entry_part.len())
            + self.own_word_text.len()
            + 4 * self.own_word_ends.len()
            + self.terms.memory_bytes()
            + self.forms.memory_bytes()
            + bitmaps as usize
    }
}
