//! The index snapshot: everything search, autocomplete and random need, built
//! once by `dictadmin index` from the postings manifests and held in a warm
//! instance's memory. Writer and reader live here together
//! (docs/data-model.md describes the format and its costs).
//!
//! Entries are numbered by the rank order within a tier of matches
//! (docs/api.md: commonness of the folded headword, most common first, then
//! folded length, folded headword, dictionary, id): an entry's number is its
//! *ordinal*. Equal folded headwords (*terms*) are neighbours, so a term is a
//! range of ordinals, and terms are numbered in the same order. Five
//! sections, each stored as items of at most [`MAX_PART_BYTES`]:
//!
//! - `core` (deflate): the dictionary and part-of-speech tables, every term
//!   with its entry count, and per entry its dictionary, part of speech, audio
//!   flag and original headword where it differs from the term.
//! - `terms`: an FST from term to term number (exact lookups, Levenshtein
//!   automata, autocomplete in alphabetical order).
//! - `records`: per entry its id, preview and phonetic, deflated in blocks of
//!   [`RECORD_BLOCK`] entries (only a page's blocks are ever inflated).
//! - `grams`: for every 1- to 3-character substring of a term, the bitmap of
//!   the entries whose term contains it (contains searches), behind an FST.
//! - `forms`: an FST from an inflected form to its lemmas' term numbers, each
//!   with the language whose data makes it a form (lemma matches).

use super::codec::{compress, inflate, put_id, put_str, put_varint, CorruptData, Reader};
use super::lexicon::{Commonness, Lexicon};
use super::postings::{put_tables, read_tables, DictionaryRef, Posting};
use roaring::RoaringBitmap;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::ops::Range;
use std::sync::{Arc, Mutex};

/// A stored part stays below DynamoDB's 400 KB item limit with room for keys.
pub const MAX_PART_BYTES: usize = 350_000;
/// Entries per compressed record block: small enough that a page inflates
/// little, large enough to compress previews well.
pub const RECORD_BLOCK: usize = 32;
/// Substrings up to this many characters have their own bitmap; longer
/// `contains` queries intersect their trigrams and check the candidates.
pub const GRAM_CHARS: usize = 3;
/// Version 2 numbers terms by commonness first and has a `forms` section.
const CORE_VERSION: u8 = 2;
const FLAG_AUDIO: u8 = 1;
const FLAG_OWN_WORD: u8 = 2;

/// The sections of a snapshot, in the order they are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Section {
    Core,
    Terms,
    Records,
    Grams,
    Forms,
}

impl Section {
    pub const ALL: [Section; 5] = [
        Section::Core,
        Section::Terms,
        Section::Records,
        Section::Grams,
        Section::Forms,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Section::Core => "core",
            Section::Terms => "terms",
            Section::Records => "records",
            Section::Grams => "grams",
            Section::Forms => "forms",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// A snapshot as bytes, ready to be stored.
pub struct Built {
    pub sections: Vec<(Section, Vec<u8>)>,
    pub entries: usize,
    pub terms: usize,
}

/// Splits a section into parts of at most [`MAX_PART_BYTES`].
pub fn split_parts(bytes: &[u8]) -> Vec<Vec<u8>> {
    if bytes.is_empty() {
        return vec![Vec::new()];
    }
    bytes.chunks(MAX_PART_BYTES).map(<[u8]>::to_vec).collect()
}

/// Sorts postings into the rank order within a tier: the commonness of
/// their term (most common first), then [`Posting::rank_key`] (folded
/// length, folded headword, dictionary, id).
pub fn rank_order(mut postings: Vec<Posting>, lexicon: &Lexicon) -> Vec<Posting> {
    let commonness = term_commonness(&postings, lexicon);
    postings.sort_by(|a, b| {
        commonness[&b.folded]
            .cmp(&commonness[&a.folded])
            .then_with(|| a.rank_key().cmp(&b.rank_key()))
    });
    postings
}

/// The commonness of every term: from the frequency lists of its
/// dictionaries' source languages, else how many dictionaries list it.
fn term_commonness(postings: &[Posting], lexicon: &Lexicon) -> HashMap<String, Commonness> {
    let mut seen: HashMap<&str, (BTreeSet<&str>, BTreeSet<&str>)> = HashMap::new();
    for p in postings {
        let (langs, dictionaries) = seen.entry(&p.folded).or_default();
        langs.insert(&p.dictionary.source_lang);
        dictionaries.insert(&p.dictionary.id);
    }
    seen.into_iter()
        .map(|(term, (langs, dictionaries))| {
            let commonness = lexicon.commonness(term, langs, dictionaries.len());
            (term.to_string(), commonness)
        })
        .collect()
}

/// Builds the snapshot of `postings` (no entry twice), ranked with the
/// lexicon's frequencies, its `forms` section from the lexicon's forms.
pub fn build(postings: Vec<Posting>, lexicon: &Lexicon) -> Built {
    let postings = rank_order(postings, lexicon);
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

    // Terms and their ordinal ranges.
    let mut terms: Vec<(&str, Range<u32>)> = Vec::new();
    for (ordinal, p) in postings.iter().enumerate() {
        let ordinal = ordinal as u32;
        match terms.last_mut() {
            Some((term, range)) if *term == p.folded => range.end = ordinal + 1,
            _ => terms.push((&p.folded, ordinal..ordinal + 1)),
        }
    }

    let mut core = vec![CORE_VERSION];
    let table: Vec<&DictionaryRef> = dictionaries.values().copied().collect();
    let part_table: Vec<&str> = parts.iter().copied().collect();
    put_tables(&mut core, &table, &part_table);
    put_varint(&mut core, terms.len());
    for (term, range) in &terms {
        put_str(&mut core, term);
        put_varint(&mut core, range.len());
    }
    for p in &postings {
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

    let mut by_text: Vec<(&str, u64)> = terms
        .iter()
        .enumerate()
        .map(|(t, (term, _))| (*term, t as u64))
        .collect();
    by_text.sort_unstable();
    let fst = fst::Map::from_iter(by_text)
        .expect("terms are distinct and sorted")
        .into_fst()
        .into_inner();

    Built {
        sections: vec![
            (Section::Core, compress(&core)),
            (Section::Terms, fst),
            (Section::Records, encode_records(&postings)),
            (Section::Grams, encode_grams(&terms)),
            (Section::Forms, encode_forms(&postings, &terms, lexicon)),
        ],
        entries: postings.len(),
        terms: terms.len(),
    }
}

/// `[u32 block count][u32 offset of each block, and the end][blocks]`, each
/// block the deflated ids, previews and phonetics of its entries.
fn encode_records(postings: &[Posting]) -> Vec<u8> {
    let blocks: Vec<Vec<u8>> = postings
        .chunks(RECORD_BLOCK)
        .map(|block| {
            let mut raw = Vec::new();
            for p in block {
                put_id(&mut raw, &p.id);
                put_str(&mut raw, &p.preview);
                put_str(&mut raw, p.phonetic.as_deref().unwrap_or(""));
            }
            compress(&raw)
        })
        .collect();
    let header = 4 * (blocks.len() + 2);
    let mut out = Vec::with_capacity(header + blocks.iter().map(Vec::len).sum::<usize>());
    out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    let mut at = header;
    for block in &blocks {
        out.extend_from_slice(&(at as u32).to_le_bytes());
        at += block.len();
    }
    out.extend_from_slice(&(at as u32).to_le_bytes());
    for block in blocks {
        out.extend(block);
    }
    out
}

/// Every distinct substring of 1 to [`GRAM_CHARS`] characters.
pub fn grams_of(term: &str) -> BTreeSet<&str> {
    let bounds: Vec<usize> = term
        .char_indices()
        .map(|(i, _)| i)
        .chain([term.len()])
        .collect();
    let mut grams = BTreeSet::new();
    for start in 0..bounds.len() {
        for n in 1..=GRAM_CHARS {
            if let Some(end) = bounds.get(start + n) {
                grams.insert(&term[bounds[start]..*end]);
            }
        }
    }
    grams
}

/// `[u64 FST length][FST: gram → offset << 32 | length][bitmaps]`.
fn encode_grams(terms: &[(&str, Range<u32>)]) -> Vec<u8> {
    let mut bitmaps: HashMap<&str, RoaringBitmap> = HashMap::new();
    for (term, range) in terms {
        for gram in grams_of(term) {
            bitmaps.entry(gram).or_default().insert_range(range.clone());
        }
    }
    let mut sorted: Vec<(&str, RoaringBitmap)> = bitmaps.into_iter().collect();
    sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let mut data = Vec::new();
    let mut index = fst::MapBuilder::memory();
    for (gram, mut bitmap) in sorted {
        bitmap.optimize();
        let at = data.len() as u64;
        bitmap
            .serialize_into(&mut data)
            .expect("writing to a Vec cannot fail");
        let len = data.len() as u64 - at;
        index
            .insert(gram, (at << 32) | len)
            .expect("grams are distinct and sorted");
    }
    let index = index.into_inner().expect("writing to a Vec cannot fail");
    let mut out = Vec::with_capacity(8 + index.len() + data.len());
    out.extend_from_slice(&(index.len() as u64).to_le_bytes());
    out.extend(index);
    out.extend(data);
    out
}

/// `[langs][u64 FST length][FST: form → first pair << 32 | pairs][pairs]`,
/// each pair two little-endian u32: the language (an index into `langs`)
/// and a lemma's term number. A pair is kept only when the lemma is a term
/// of a dictionary of that language and differs from the form; a form's
/// pairs are in term order (most common lemma first).
fn encode_forms(postings: &[Posting], terms: &[(&str, Range<u32>)], lexicon: &Lexicon) -> Vec<u8> {
    let term_number: HashMap<&str, u32> = terms
        .iter()
        .enumerate()
        .map(|(t, (term, _))| (*term, t as u32))
        .collect();
    let term_langs: HashSet<(&str, &str)> = postings
        .iter()
        .map(|p| (p.folded.as_str(), p.dictionary.source_lang.as_str()))
        .collect();
    let langs: Vec<&str> = lexicon.forms.keys().map(String::as_str).collect();
    let mut by_form: BTreeMap<&str, Vec<(u32, u32)>> = BTreeMap::new();
    for (l, (lang, forms)) in lexicon.forms.iter().enumerate() {
        for (form, lemmas) in forms {
            for lemma in lemmas {
                if lemma == form || !term_langs.contains(&(lemma.as_str(), lang.as_str())) {
                    continue;
                }
                if let Some(&t) = term_number.get(lemma.as_str()) {
                    by_form.entry(form).or_default().push((l as u32, t));
                }
            }
        }
    }
    let mut out = Vec::new();
    put_varint(&mut out, langs.len());
    for lang in &langs {
        put_str(&mut out, lang);
    }
    let mut index = fst::MapBuilder::memory();
    let mut pairs: Vec<u8> = Vec::new();
    for (form, mut lemmas) in by_form {
        lemmas.sort_unstable_by_key(|&(l, t)| (t, l));
        lemmas.dedup();
        let first = (pairs.len() / 8) as u64;
        for (l, t) in &lemmas {
            pairs.extend_from_slice(&l.to_le_bytes());
            pairs.extend_from_slice(&t.to_le_bytes());
        }
        index
            .insert(form, (first << 32) | lemmas.len() as u64)
            .expect("forms are distinct and sorted");
    }
    let index = index.into_inner().expect("writing to a Vec cannot fail");
    out.extend_from_slice(&(index.len() as u64).to_le_bytes());
    out.extend(index);
    out.extend(pairs);
    out
}

/// The `core` and `terms` sections, decoded: what every search, autocomplete
/// and random request reads.
pub struct Index {
    pub(super) dictionaries: Vec<DictionaryRef>,
    pub(super) parts: Vec<String>,
    /// Term `t` is `term_text[term_ends[t - 1]..term_ends[t]]`.
    term_text: Vec<u8>,
    term_ends: Vec<u32>,
    /// The first ordinal of every term, and the number of entries last.
    pub(super) term_first: Vec<u32>,
    /// The most characters of any term.
    longest_term_chars: usize,
    entry_dictionary: Vec<u16>,
    entry_part: Vec<u16>,
    pub(super) audio: RoaringBitmap,
    pub(super) by_dictionary: Vec<RoaringBitmap>,
    pub(super) by_part: Vec<RoaringBitmap>,
    own_words: RoaringBitmap,
    own_word_text: Vec<u8>,
    own_word_ends: Vec<u32>,
    pub(super) terms: fst::Map<Vec<u8>>,
    forms: Forms,
    /// Filter bitmaps of recent requests (see `query.rs`).
    pub(super) filter_cache: Mutex<HashMap<String, Arc<RoaringBitmap>>>,
    /// Literal matches of short prefixes, the largest sets (see `query.rs`).
    pub(super) prefix_cache: Mutex<HashMap<String, Arc<RoaringBitmap>>>,
}

/// The `forms` section, decoded.
struct Forms {
    langs: Vec<String>,
    index: fst::Map<Vec<u8>>,
    pairs: Vec<u8>,
    /// Per language, the entries of the dictionaries in it.
    lang_entries: Vec<RoaringBitmap>,
}

/// A lemma of an inflected form: its term, and the language whose data
/// makes the word a form of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lemma<'a> {
    pub term: usize,
    pub lang: &'a str,
}

impl Index {
    pub fn decode(core: &[u8], terms: Vec<u8>, forms: Vec<u8>) -> Result<Self, CorruptData> {
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
        }
        term_first.push(entries);

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
        let terms = fst::Map::new(terms).map_err(|_| CorruptData("terms are not an FST"))?;
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
            filter_cache: Mutex::new(HashMap::new()),
            prefix_cache: Mutex::new(HashMap::new()),
        })
    }

    /// The lemmas of an inflected (folded) form, most common first; none for
    /// a word that is no form of another.
    pub fn lemmas(&self, form: &str) -> Vec<Lemma<'_>> {
        let Some(at) = self.forms.index.get(form) else {
            return Vec::new();
        };
        let (first, count) = ((at >> 32) as usize, (at & 0xffff_ffff) as usize);
        (first..first + count)
            .map(|i| {
                let pair = &self.forms.pairs[8 * i..8 * i + 8];
                let l = u32::from_le_bytes(pair[..4].try_into().expect("4 bytes")) as usize;
                Lemma {
                    term: u32::from_le_bytes(pair[4..].try_into().expect("4 bytes")) as usize,
                    lang: &self.forms.langs[l],
                }
            })
            .collect()
    }

    /// Every inflected form the snapshot knows, alphabetically (for tools
    /// that draw forms at random, such as the latency benchmark).
    pub fn forms(&self) -> Vec<String> {
        let mut forms = Vec::with_capacity(self.forms.index.len());
        let mut stream = self.forms.index.stream();
        while let Some((form, _)) = fst::Streamer::next(&mut stream) {
            forms.push(String::from_utf8_lossy(form).into_owned());
        }
        forms
    }

    /// The entries of a lemma in the dictionaries of its language.
    pub(super) fn lemma_entries(&self, lemma: Lemma<'_>) -> RoaringBitmap {
        let mut entries = RoaringBitmap::new();
        let language = self.forms.langs.iter().position(|lang| lang == lemma.lang);
        if let Some(l) = language.filter(|_| lemma.term < self.term_count()) {
            entries.insert_range(self.term_entries(lemma.term));
            entries &= &self.forms.lang_entries[l];
        }
        entries
    }

    pub fn longest_term_chars(&self) -> usize {
        self.longest_term_chars
    }

    /// The term number of a folded headword, if it is one.
    pub fn term_number(&self, term: &str) -> Option<usize> {
        self.terms.get(term).map(|t| t as usize)
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
            + 2 * (self.entry_dictionary.len() + self.entry_part.len())
            + self.own_word_text.len()
            + 4 * self.own_word_ends.len()
            + self.terms.as_fst().as_bytes().len()
            + self.forms.memory_bytes()
            + bitmaps as usize
    }
}

impl Forms {
    /// Checked whole when decoded, so that lookups never fail: every pair's
    /// language and term exist. An empty section is a snapshot without forms.
    fn decode(
        bytes: Vec<u8>,
        dictionaries: &[DictionaryRef],
        by_dictionary: &[RoaringBitmap],
        term_count: usize,
    ) -> Result<Self, CorruptData> {
        if bytes.is_empty() {
            return Ok(Self {
                langs: Vec::new(),
                index: fst::Map::default(),
                pairs: Vec::new(),
                lang_entries: Vec::new(),
            });
        }
        let mut r = Reader::new(&bytes);
        let count = r.count(1)?;
        let langs: Vec<String> = (0..count)
            .map(|_| r.str().map(str::to_string))
            .collect::<Result<_, _>>()?;
        let at = bytes.len() - r.remaining();
        let len = bytes
            .get(at..at + 8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")) as usize)
            .filter(|len| {
                len.checked_add(at + 8)
                    .is_some_and(|end| end <= bytes.len())
            })
            .ok_or(CorruptData("forms header"))?;
        let index = fst::Map::new(bytes[at + 8..at + 8 + len].to_vec())
            .map_err(|_| CorruptData("forms are not an FST"))?;
        index
            .as_fst()
            .verify()
            .map_err(|_| CorruptData("forms FST checksum"))?;
        let pairs = bytes[at + 8 + len..].to_vec();
        if !pairs.len().is_multiple_of(8) {
            return Err(CorruptData("forms pairs"));
        }
        for pair in pairs.chunks_exact(8) {
            let l = u32::from_le_bytes(pair[..4].try_into().expect("4 bytes")) as usize;
            let t = u32::from_le_bytes(pair[4..].try_into().expect("4 bytes")) as usize;
            if l >= langs.len() || t >= term_count {
                return Err(CorruptData("forms pair out of range"));
            }
        }
        let mut stream = index.stream();
        while let Some((_, at)) = fst::Streamer::next(&mut stream) {
            let (first, count) = ((at >> 32) as usize, (at & 0xffff_ffff) as usize);
            if (first + count) * 8 > pairs.len() {
                return Err(CorruptData("form beyond its pairs"));
            }
        }
        let lang_entries = langs
            .iter()
            .map(|lang| {
                dictionaries
                    .iter()
                    .zip(by_dictionary)
                    .filter(|(d, _)| d.source_lang == *lang)
                    .fold(RoaringBitmap::new(), |acc, (_, b)| acc | b)
            })
            .collect();
        Ok(Self {
            langs,
            index,
            pairs,
            lang_entries,
        })
    }

    fn memory_bytes(&self) -> usize {
        self.index.as_fst().as_bytes().len()
            + self.pairs.len()
            + self
                .lang_entries
                .iter()
                .map(RoaringBitmap::serialized_size)
                .sum::<usize>()
    }
}

/// What a search result shows of an entry beyond the [`Index`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub id: String,
    pub preview: String,
    pub phonetic: Option<String>,
}

/// The `records` section: compressed blocks, inflated a page at a time.
pub struct Records {
    bytes: Vec<u8>,
    blocks: usize,
}

impl Records {
    pub fn decode(bytes: Vec<u8>) -> Result<Self, CorruptData> {
        let blocks = read_u32(&bytes, 0)? as usize;
        let header = blocks
            .checked_add(2)
            .and_then(|n| n.checked_mul(4))
            .ok_or(CorruptData("records header"))?;
        if header > bytes.len() || read_u32(&bytes, 4 * (blocks + 1))? as usize != bytes.len() {
            return Err(CorruptData("records header"));
        }
        Ok(Self { bytes, blocks })
    }

    /// The records of these ordinals, in the same order.
    pub fn get(&self, ordinals: &[u32]) -> Result<Vec<Record>, CorruptData> {
        let mut inflated: HashMap<usize, Vec<Record>> = HashMap::new();
        ordinals
            .iter()
            .map(|&ordinal| {
                let block = ordinal as usize / RECORD_BLOCK;
                let records = match inflated.entry(block) {
                    std::collections::hash_map::Entry::Occupied(held) => held.into_mut(),
                    std::collections::hash_map::Entry::Vacant(slot) => {
                        slot.insert(self.block(block)?)
                    }
                };
                records
                    .get(ordinal as usize % RECORD_BLOCK)
                    .cloned()
                    .ok_or(CorruptData("ordinal beyond its block"))
            })
            .collect()
    }

    fn block(&self, block: usize) -> Result<Vec<Record>, CorruptData> {
        if block >= self.blocks {
            return Err(CorruptData("ordinal beyond the records"));
        }
        let start = read_u32(&self.bytes, 4 * (block + 1))? as usize;
        let end = read_u32(&self.bytes, 4 * (block + 2))? as usize;
        let compressed = self
            .bytes
            .get(start..end)
            .ok_or(CorruptData("record block out of range"))?;
        let raw = inflate(compressed)?;
        let mut r = Reader::new(&raw);
        let mut records = Vec::with_capacity(RECORD_BLOCK);
        while !r.is_done() {
            records.push(Record {
                id: r.id()?,
                preview: r.str()?.to_string(),
                phonetic: r.opt_str()?.map(str::to_string),
            });
        }
        Ok(records)
    }

    pub fn memory_bytes(&self) -> usize {
        self.bytes.len()
    }
}

fn read_u32(bytes: &[u8], at: usize) -> Result<u32, CorruptData> {
    let b = bytes
        .get(at..at + 4)
        .ok_or(CorruptData("truncated header"))?;
    Ok(u32::from_le_bytes(b.try_into().expect("4 bytes")))
}

/// The `grams` section: a bitmap per substring, deserialized when a query
/// asks for it.
pub struct Grams {
    index: fst::Map<Vec<u8>>,
    bitmaps: Vec<u8>,
}

impl Grams {
    pub fn decode(mut bytes: Vec<u8>) -> Result<Self, CorruptData> {
        let len = bytes
            .get(..8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")) as usize)
            .filter(|len| len.checked_add(8).is_some_and(|end| end <= bytes.len()))
            .ok_or(CorruptData("grams header"))?;
        let bitmaps = bytes.split_off(8 + len);
        bytes.drain(..8);
        let index = fst::Map::new(bytes).map_err(|_| CorruptData("grams are not an FST"))?;
        Ok(Self { index, bitmaps })
    }

    /// The entries whose term contains `gram` (at most [`GRAM_CHARS`]
    /// characters); `None` when there are none.
    pub fn entries(&self, gram: &str) -> Result<Option<RoaringBitmap>, CorruptData> {
        let Some(at) = self.index.get(gram) else {
            return Ok(None);
        };
        let (start, len) = ((at >> 32) as usize, (at & 0xffff_ffff) as usize);
        let bytes = self
            .bitmaps
            .get(start..start + len)
            .ok_or(CorruptData("gram bitmap out of range"))?;
        RoaringBitmap::deserialize_from(bytes)
            .map(Some)
            .map_err(|_| CorruptData("gram bitmap"))
    }

    pub fn memory_bytes(&self) -> usize {
        self.index.as_fst().as_bytes().len() + self.bitmaps.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn posting(word: &str, dict: &str, id: &str) -> Posting {
        Posting {
            folded: crate::fold::fold(word),
            word: word.into(),
            dictionary: DictionaryRef {
                id: dict.into(),
                source_lang: "fr".into(),
                target_lang: Some("en".into()),
            },
            part_of_speech: word.contains('a').then(|| "noun".into()),
            has_audio: word.contains('e'),
            id: id.into(),
            preview: format!("preview of {word}"),
            phonetic: word.contains('o').then(|| format!("/{word}/")),
        }
    }

    fn sorted(all: Vec<Posting>) -> Vec<Posting> {
        rank_order(all, &Lexicon::default())
    }

    fn decode(built: &Built) -> (Index, Records, Grams) {
        let section = |s: Section| {
            let bytes = &built.sections.iter().find(|(n, _)| *n == s).unwrap().1;
            // Through parts, as the store reads them.
            split_parts(bytes).concat()
        };
        (
            Index::decode(
                &section(Section::Core),
                section(Section::Terms),
                section(Section::Forms),
            )
            .unwrap(),
            Records::decode(section(Section::Records)).unwrap(),
            Grams::decode(section(Section::Grams)).unwrap(),
        )
    }

    #[test]
    fn every_field_of_every_entry_round_trips() {
        let all = sorted(
            (0..200)
                .map(|i| {
                    let word = ["École", "ecole", "maison", "Haus", "ß", "chat"][i % 6];
                    let id = if i % 5 == 0 {
                        format!("text-id-{i}")
                    } else {
                        format!("{:016x}", i * 7919)
                    };
                    posting(word, ["b", "a"][i % 2], &id)
                })
                .collect(),
        );
        let built = build(all.clone(), &Lexicon::default());
        let (index, records, _) = decode(&built);
        assert_eq!(index.entries() as usize, all.len());
        assert_eq!(index.term_count(), 5, "École and ecole share a term");
        let ordinals: Vec<u32> = (0..all.len() as u32).collect();
        let got = records.get(&ordinals).unwrap();
        for (ordinal, p) in all.iter().enumerate() {
            let o = ordinal as u32;
            assert_eq!(index.word(o), p.word);
            assert_eq!(index.term(index.term_of(o)), p.folded);
            assert_eq!(index.dictionary(o), &p.dictionary);
            assert_eq!(index.part_of_speech(o), p.part_of_speech.as_deref());
            assert_eq!(index.has_audio(o), p.has_audio);
            assert_eq!(got[ordinal].id, p.id);
            assert_eq!(got[ordinal].preview, p.preview);
            assert_eq!(got[ordinal].phonetic, p.phonetic);
        }
    }

    /// The bytes `dictadmin index` writes are a stored format: a change to
    /// them must be deliberate (with a new format version), never a side
    /// effect of moving code. This pins every section of a small build that
    /// exercises each field, the forms and the frequency order.
    #[test]
    fn the_encoding_of_every_section_is_pinned() {
        use super::super::lexicon::LexiconKind;
        use sha2::{Digest, Sha256};
        let mut lexicon = Lexicon::default();
        let forms = [
            ("chats", "chat"),
            ("maisons", "maison"),
            ("ecoles", "ecole"),
        ];
        let pairs = forms.map(|(f, l)| (f.to_string(), l.to_string())).to_vec();
        lexicon.add(LexiconKind::Forms, "fr", pairs).unwrap();
        let frequencies = vec![("chat".into(), "450".into()), ("haus".into(), "300".into())];
        lexicon
            .add(LexiconKind::Frequencies, "fr", frequencies)
            .unwrap();
        let all: Vec<Posting> = (0..150)
            .map(|i| {
                let word = ["École", "ecole", "maison", "Haus", "ß", "chat", "chats"][i % 7];
                let id = if i % 5 == 0 {
                    format!("text-id-{i}")
                } else {
                    format!("{:016x}", i * 7919)
                };
                posting(word, ["b", "a", "c"][i % 3], &id)
            })
            .collect();
        let built = build(all, &lexicon);
        let digests: Vec<String> = built
            .sections
            .iter()
            .map(|(section, bytes)| {
                let digest = Sha256::digest(bytes);
                let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
                format!("{} {hex}", section.name())
            })
            .collect();
        assert_eq!((built.entries, built.terms), (150, 6));
        assert_eq!(digests, PINNED_DIGESTS);
    }

    const PINNED_DIGESTS: [&str; 5] = [
        "core 1f64d4d7f15453ad09a75c86d148d4b35889f5e185b2766f527cc3a0d6e83d0a",
        "terms a0d31487efed78ecd2804787d2856943e9c0c0a5f4b28fa7b4108b9ac4115b9c",
        "records 95bd0e620cbe4159f9c20c70f1b5677e5c9b805b5974d709442ce32cc43b5746",
        "grams f997d99b1ddb2638dfade5af88f69d29224d8a7a342e4eb37fa04cc94c3472b0",
        "forms 7571c9db42cd5539096925329314509fcfaee898f1ca5590444a37aa4f29d1cd",
    ];

    #[test]
    fn large_sections_split_into_item_sized_parts() {
        let bytes = vec![7u8; 2 * MAX_PART_BYTES + 1];
        let parts = split_parts(&bytes);
        assert_eq!(parts.len(), 3);
        assert!(parts.iter().all(|p| p.len() <= MAX_PART_BYTES));
        assert_eq!(parts.concat(), bytes);
        assert_eq!(split_parts(&[]), vec![Vec::<u8>::new()]);
    }

    #[test]
    fn grams_are_every_substring_of_one_to_three_characters() {
        let grams: Vec<&str> = grams_of("écol").into_iter().collect();
        assert_eq!(grams, ["c", "co", "col", "l", "o", "ol", "é", "éc", "éco"]);
        let all = sorted(vec![posting("ecole", "d", "1"), posting("col", "d", "2")]);
        let (_, _, grams) = decode(&build(all, &Lexicon::default()));
        assert_eq!(grams.entries("col").unwrap().unwrap().len(), 2);
        assert_eq!(grams.entries("ec").unwrap().unwrap().len(), 1);
        assert!(grams.entries("xyz").unwrap().is_none());
    }

    #[test]
    fn corrupt_sections_are_errors_not_panics() {
        let all = sorted(vec![posting("ecole", "d", "1")]);
        let built = build(all.clone(), &Lexicon::default());
        let core = &built.sections[0].1;
        assert!(Index::decode(&core[..core.len() / 2], Vec::new(), Vec::new()).is_err());
        assert!(Index::decode(b"junk", Vec::new(), Vec::new()).is_err());
        assert!(Records::decode(vec![1, 0, 0]).is_err());
        assert!(Records::decode(vec![9, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(Grams::decode(vec![255; 9]).is_err());
    }
}
