//! The index snapshot: everything search, autocomplete and random need, built
//! once by `dictadmin index` from the postings manifests and held in a warm
//! instance's memory (docs/data-model.md describes the format and its costs).
//!
//! Entries are numbered by the rank order within a tier of matches
//! ([`order`]): an entry's number is its *ordinal*. Equal folded headwords
//! (*terms*) are neighbours, so a term is a range of ordinals, and terms are
//! numbered in the same order. Seven sections, each stored as items of at
//! most [`MAX_PART_BYTES`], each in a module of its own with its encoder and
//! its decoder side by side:
//!
//! - `core` ([`core`]): the tables, each term's entries and frequency,
//!   and the words of each text. Decoded into the [`Index`].
//! - `terms` ([`terms`]): an FST from term to term number and one from each
//!   term spelled backwards (for typo walks anchored on the query's end),
//!   then the text of the terms and the fields of their entries by term
//!   number ([`texts`]), the inflected forms ([`forms`]: from a form, or a
//!   form spelled backwards, to its lemmas), and the capitalisation of the
//!   texts that mix it ([`capitals`]), in blocks read as queries need them
//!   behind a root item that the [`Index`] holds.
//! - `records` ([`records`]): per entry its id, preview and phonetic, in
//!   compressed blocks, grouped into parts by ordinal.
//! - `grams` ([`grams`]): per 1- to 4-character substring, the entries whose
//!   term contains it, grouped into parts by gram.
//! - `definitions` ([`definitions`]): per word and per phrase of the
//!   definitions, the entries that say it (reverse lookup), grouped into
//!   parts by key.
//! - `rhymes` ([`rhymes`]): per language and rhyme part, the words that
//!   have it, and the sounds-like keys, grouped into parts by key.
//! - `pronunciations` ([`pronunciations`]): per text its words'
//!   pronunciations, in buckets by a hash of the text.
//!
//! This file says what a snapshot is made of: the sections ([`Section`]),
//! the build that writes them all ([`build`]), how a section is stored in
//! items: whole ([`split_parts`]) or by parts that load on demand
//! ([`parts`]), and which sections make each thing a reader holds: read
//! whole ([`Assemble`]) or a part at a time ([`PagedPart`]), read from any
//! source of stored items ([`source`]); and the [`FORMAT`] the build
//! pointer records.

pub mod blocks;
mod buckets;
pub mod cache;
mod capitals;
mod core;
mod definitions;
mod forms;
mod grams;
mod later_words;
mod middles;
mod order;
pub mod parts;
mod pronunciations;
mod records;
mod rhymes;
pub mod source;
mod tables;
mod terms;
mod texts;

pub use self::core::{Index, Texts};
pub use capitals::CapitalBucket;
pub use definitions::{DefinitionList, DefinitionPart, Definitions, Listed};
pub use forms::Lemma;
pub(crate) use grams::GRAM_CHARS;
pub use grams::{filter_keys, query_grams, GramPart, Grams};
pub(crate) use grams::{first_key, placed_key, PLACED_LAST_START};
pub(crate) use middles::{middle, prefix as middle_prefix, without_middle, words_in};
pub use order::rank_order;
pub use parts::PartIndex;
pub use pronunciations::{bucket_of, Pronounced, PronunciationSource, WordBucket};
pub use records::{Record, RecordPart, Records};
pub use rhymes::{
    keys_of as rhyme_keys_of, rhyme_key, sounds_index_key, sounds_index_prefix, sounds_key,
    RhymeKind, RhymePart, Rhymes, Rhyming, SoundsList, MAX_DICTIONARY_PRONUNCIATIONS,
};
pub use terms::{BlockBudget, Missing, TermDictionary, TERM_BLOCK_BYTES, TERM_BLOCK_MAX_BYTES};
pub(crate) use terms::{Direction, Fst, TermBlock};
pub use texts::TEXT_BLOCK_BYTES;

use super::codec::CorruptData;
use super::lexicon::Lexicon;
use super::postings::Posting;
use std::ops::Range;

/// The format of the snapshot this release writes and reads, recorded on
/// the build pointer. Raise it with any change to the bytes of a section or
/// to the set of sections: a release then answers 503 "rebuild the index"
/// for a build of another format instead of misreading it (docs/decisions.md).
///
/// 2: `records` and `grams` are stored by parts behind a part index.
/// 3: `terms` also holds every term spelled backwards, for typo walks
/// anchored on the query's end.
/// 4: terms folded with letters that have no decomposition (`ø`→`o`, `ł`→`l`)
/// and with the marks of kana and Brahmic scripts kept (`fold`); the entries'
/// item keys are folded too, so a store built before needs a re-import.
/// 5: `forms` also holds every form spelled backwards, for typo walks over
/// the forms anchored on the query's end.
/// 6: `core` holds every term's Zipf frequency, which search results show as
/// `frequency` (core version 3).
/// 7: the `definitions` section (reverse lookup).
/// 8: `grams` also holds, per first and last letter, the entries whose term
/// starts and ends with them (patterns such as `c*t`).
/// 9: Greek final `ς` folded to `σ` (`fold`): the terms of Greek words and
/// the entries' item keys change, so Greek dictionaries need a re-import.
/// 10: `terms` in FST blocks behind a root item, read as queries need them.
/// 11: term blocks of one read unit (3.8 KB), and the root holds where each
/// block starts, front-coded and deflated.
/// 12: `core` stored by column (core version 4), decoded without a loop
/// over every entry.
/// 13: the text of the terms and the own headwords move from `core` (core
/// version 5) to text blocks in `terms`, read as queries need them.
/// 14: the `forms` section moves into `terms` as blocks read as queries
/// need them, each form's value its lemmas.
/// 15: `terms` also keys every term and every form by its spelling with
/// the middle character deleted (one-edit typo searches).
/// 16: a term is a word, a folded headword in one language, ranked by that
/// language's frequency (core version 6 chains the words of a text; the
/// term dictionaries hold a text once, with its first word).
/// 17: a block root holds the scripts of each block's second characters
/// (typo walks that may edit a key's first character).
/// 18: the `rhymes` section (rhymes by pronunciation).
/// 19: `rhymes` also lists the words by how their spelling sounds
/// (sounds-like search).
/// 20: `rhymes` also keys every coarse sounds-like key alone, so that a
/// search walks the keys of its first sounds without reading their lists.
/// 21: each entry's dictionary, part of speech and audio flag move from
/// `core` (core version 7, which gives every term its language instead) to
/// the text blocks, and the filters' bitmaps to `grams`, each read as a
/// query needs it.
/// 22: `grams` holds substrings of up to four characters (three before), so
/// that a `contains` query of four letters is one bitmap, not candidates
/// checked by their text.
/// 23: each term's language moves from `core` to the text blocks (its
/// entries' dictionaries), and `core` keeps the capitalisation of the texts
/// that mix it only (core version 8): what every cold instance reads first
/// no longer holds a value per term or entry it can do without.
/// 24: the part index of every paged section (`records`, `grams`,
/// `definitions`, `rhymes`) is front-coded and deflated: a cold instance
/// reads each whole before any of its parts.
/// 25: `grams` also keys the entries of each first letter, last letter and
/// length (of five characters or more), so that a pattern of `?` between
/// two letters (`h???e`) reads its matches instead of checking the text of
/// every term under both letters.
/// 26: `rhymes` keys a word's pronunciations by its text and term, with its
/// language, so that a rhyme lookup reads them first, without the term
/// and text blocks of its word.
/// 27: those pronunciations move to a section of their own,
/// `pronunciations`, in buckets by a hash of the text (as many as the
/// pointer records), so that a cold rhyme lookup reads its word's bucket
/// with the index, not after the `rhymes` part index.
/// 28: `grams` also keys each 3-character gram that starts within the first
/// nine characters by its start, so that a prefix typo search's piece
/// finds the terms that hold it in place, not those that hold it anywhere
/// (each checked against its text block).
/// 29: `grams` also keys the entries of each first character, so that a
/// prefix search of one character reads one bitmap, not the hundreds of
/// term blocks under it.
/// 30: the forms' root says which forward blocks point into each overflow
/// item, so that a form of many lemmas is read with its overflow item.
/// 31: the capitalisation of the texts that mix it moves from `core` (core
/// version 9) to buckets by a hash of the text, the last items of `terms`,
/// so that a cold instance reads its query's bucket with the term block of
/// its exact lookup instead of every text's with the index.
/// 32: the chains of the words of texts of several languages move from
/// `core` (core version 10) to the term blocks that hold the texts, so
/// that a cold instance reads those its query finds with their blocks
/// instead of every one with the index.
/// 33: `grams` holds a bitmap per language (or pair) and part of speech
/// together, so that a query filtered by both reads one bitmap.
pub const FORMAT: u32 = 33;

/// The bytes of term and text blocks an instance keeps unless told
/// otherwise.
pub const DEFAULT_BLOCK_BUDGET: BlockBudget = BlockBudget {
    fst: 32 << 20,
    text: 80 << 20,
};

/// A stored part stays below DynamoDB's 400 KB item limit with room for keys.
pub const MAX_PART_BYTES: usize = 350_000;

/// The sections of a snapshot, in the order they are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Section {
    Core,
    Terms,
    Records,
    Grams,
    Definitions,
    Rhymes,
    Pronunciations,
}

impl Section {
    pub const ALL: [Section; 7] = [
        Section::Core,
        Section::Terms,
        Section::Records,
        Section::Grams,
        Section::Definitions,
        Section::Rhymes,
        Section::Pronunciations,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Section::Core => "core",
            Section::Terms => "terms",
            Section::Records => "records",
            Section::Grams => "grams",
            Section::Definitions => "definitions",
            Section::Rhymes => "rhymes",
            Section::Pronunciations => "pronunciations",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The items of the section read with the index, of the `stored`
    /// ones: every item of a section read whole, the root of `terms`, none
    /// of `pronunciations` (read by bucket).
    pub fn items_read_whole(self, stored: usize) -> Range<usize> {
        // Every section named, so that a new one is a compile error here
        // rather than read whole by default.
        match self {
            Section::Terms => 0..stored.min(1),
            Section::Pronunciations => 0..0,
            Section::Core
            | Section::Records
            | Section::Grams
            | Section::Definitions
            | Section::Rhymes => 0..stored,
        }
    }

    /// Whether the section is stored by parts behind a [`PartIndex`] (its
    /// item 0), each loaded when a query touches it, rather than read whole.
    pub fn is_paged(self) -> bool {
        match self {
            Section::Core | Section::Terms | Section::Pronunciations => false,
            Section::Records | Section::Grams | Section::Definitions | Section::Rhymes => true,
        }
    }
}

/// A snapshot as stored items, ready to be written: per section its items,
/// numbered from 0.
pub struct Built {
    pub sections: Vec<(Section, Vec<Vec<u8>>)>,
    pub entries: usize,
    pub terms: usize,
}

impl Built {
    /// The stored items of one section.
    pub fn section(&self, section: Section) -> &[Vec<u8>] {
        self.sections
            .iter()
            .find(|(s, _)| *s == section)
            .map(|(_, items)| items.as_slice())
            .expect("a build has every section")
    }

    /// The [`Index`] of this build, decoded from its stored items as the
    /// store would: what the offline benchmarks (infra/bench) search.
    /// It holds every term block, within no budget.
    pub fn index(&self) -> Result<Index, CorruptData> {
        let mut index = self.cold_index()?;
        index.keep_term_blocks_within(BlockBudget::UNBOUNDED);
        let blocks = self.section(Section::Terms).iter().cloned().enumerate();
        index.term_dictionary().keep(blocks.skip(1))?;
        Ok(index)
    }

    /// The [`Index`] as a cold instance first holds it: no term block yet
    /// (hand it those a read names with [`Built::term_blocks`]).
    pub fn cold_index(&self) -> Result<Index, CorruptData> {
        let mut sections = source::now(source::index_sections(self))?;
        Index::assemble(&mut |s: Section| {
            sections
                .remove(&s)
                .unwrap_or_else(|| panic!("{} is not one of its sections", s.name()))
        })
    }

    /// The stored term blocks a read found missing, by item number.
    pub fn term_blocks(&self, missing: &Missing) -> Vec<(usize, Vec<u8>)> {
        let items = self.section(Section::Terms);
        let stored = missing
            .0
            .iter()
            .filter_map(|&n| Some((n, items.get(n)?.clone())));
        stored.collect()
    }

    /// Every part of the `grams` section, as a warm instance that has read
    /// them all holds them: what the offline benchmarks search with.
    pub fn grams(&self) -> Result<Grams, CorruptData> {
        let (index, parts) = self.every_part()?;
        Ok(Grams::new(index, parts))
    }

    /// Decodes what a reader holds from this build's stored items, as the
    /// store would (every part of a paged section): what tests read a
    /// snapshot with.
    #[cfg(test)]
    pub(crate) fn decode<T: FromBuilt>(&self) -> Result<T, CorruptData> {
        T::from_built(self)
    }

    /// The part index of a paged section and every one of its parts (the
    /// tests, and the offline benchmarks).
    pub fn every_part<P: PagedPart>(&self) -> Result<EveryPart<P>, CorruptData> {
        let index = source::now(source::part_index(self, P::SECTION))?;
        let every = (0..index.len()).collect();
        let parts = source::now(source::parts::<P, _>(self, &index, every))?;
        let parts = parts
            .into_iter()
            .map(|(p, part)| (p, std::sync::Arc::new(part)))
            .collect();
        Ok((std::sync::Arc::new(index), parts))
    }
}

/// A paged section's part index and every one of its parts.
pub type EveryPart<P> = (
    std::sync::Arc<PartIndex>,
    std::collections::HashMap<usize, std::sync::Arc<P>>,
);

/// What tests decode from a [`Built`]: the [`Index`], or every part of a
/// paged section.
#[cfg(test)]
pub(crate) trait FromBuilt: Sized {
    fn from_built(built: &Built) -> Result<Self, CorruptData>;
}

#[cfg(test)]
impl FromBuilt for Index {
    fn from_built(built: &Built) -> Result<Self, CorruptData> {
        built.index()
    }
}

#[cfg(test)]
impl FromBuilt for Records {
    fn from_built(built: &Built) -> Result<Self, CorruptData> {
        let (index, parts) = built.every_part()?;
        Ok(Records::new(index, parts))
    }
}

#[cfg(test)]
impl FromBuilt for Grams {
    fn from_built(built: &Built) -> Result<Self, CorruptData> {
        built.grams()
    }
}

#[cfg(test)]
impl FromBuilt for Definitions {
    fn from_built(built: &Built) -> Result<Self, CorruptData> {
        let (index, parts) = built.every_part()?;
        Ok(Definitions::new(index, parts))
    }
}

#[cfg(test)]
impl FromBuilt for Rhymes {
    fn from_built(built: &Built) -> Result<Self, CorruptData> {
        let (index, parts) = built.every_part()?;
        Ok(Rhymes::new(index, parts))
    }
}

/// Splits a section read whole into items of at most [`MAX_PART_BYTES`].
pub fn split_parts(bytes: &[u8]) -> Vec<Vec<u8>> {
    if bytes.is_empty() {
        return vec![Vec::new()];
    }
    bytes.chunks(MAX_PART_BYTES).map(<[u8]>::to_vec).collect()
}

/// Builds the snapshot of `postings` (no entry twice), ranked with the
/// lexicon's frequencies, its forms from the lexicon's forms.
pub fn build(postings: Vec<Posting>, lexicon: &Lexicon) -> Built {
    build_with_blocks(postings, lexicon, TERM_BLOCK_BYTES)
}

/// [`build`] with term blocks of `term_block_bytes` (tiny ones in the tests,
/// so that every walk crosses block boundaries), and text blocks of as
/// bytes in proportion ([`TEXT_BLOCK_BYTES`] at [`TERM_BLOCK_BYTES`]): tiny
/// term blocks make text blocks of a term or two.
pub fn build_with_blocks(
    postings: Vec<Posting>,
    lexicon: &Lexicon,
    term_block_bytes: usize,
) -> Built {
    let mut sections = Vec::with_capacity(Section::ALL.len());
    let size = build_each(
        postings,
        lexicon.clone(),
        term_block_bytes,
        |section, items| sections.push((section, items)),
    );
    Built {
        sections,
        entries: size.entries,
        terms: size.terms,
    }
}

/// How many entries and terms a build numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildSize {
    pub entries: usize,
    pub terms: usize,
}

/// [`build_with_blocks`], handing each section's items to `each` as soon
/// as it is encoded: a writer that stores them and lets them go holds one
/// section at a time, not the whole build (a gigabyte at five million
/// entries). `records` and `definitions` come first, each followed by the
/// postings letting go of the texts only it reads
/// ([`Posting::drop_record_texts`], [`Posting::drop_definition`]): the
/// other sections are built beside postings of a third of the bytes.
/// Each list of the lexicon goes once the last section that reads it is
/// made: the frequencies after ranking, the forms after `terms`, so that
/// `rhymes` is built beside the pronunciations alone.
pub fn build_each(
    postings: Vec<Posting>,
    mut lexicon: Lexicon,
    term_block_bytes: usize,
    mut each: impl FnMut(Section, Vec<Vec<u8>>),
) -> BuildSize {
    let (mut postings, commonness) = order::rank_order_with_commonness(postings, &lexicon);
    lexicon.frequencies = Default::default();
    // Each term's frequency now, so that the postings' commonness goes
    // before `records` and `definitions`, where the build peaks.
    let frequencies: Vec<u16> = term_ranges(&postings)
        .iter()
        .map(|(_, range)| commonness[range.start as usize].zipf_centis())
        .collect();
    drop(commonness);
    each(Section::Records, records::encode(&postings));
    // Once all of a section's blocks are made, not as each is: letting go
    // of a posting's texts between blocks put its smaller buffers in the
    // holes each block's compressor left, and every block's compressor
    // then took fresh memory (16 GiB at 2.43 M entries).
    for p in &mut postings {
        p.drop_record_texts();
    }
    each(
        Section::Definitions,
        definitions::encode(&postings, &lexicon),
    );
    for p in &mut postings {
        p.drop_definition();
    }
    let terms = term_ranges(&postings);
    let later_words = later_words::of_terms(&terms);
    let tables = tables::Tables::of(&postings);
    each(
        Section::Core,
        split_parts(&core::encode_core(&postings, &terms, &frequencies, &tables)),
    );
    let text_block_bytes = term_block_bytes * TEXT_BLOCK_BYTES / TERM_BLOCK_BYTES;
    each(
        Section::Terms,
        terms::encode(
            &postings,
            &terms,
            &later_words,
            &lexicon,
            term_block_bytes,
            text_block_bytes,
            &tables,
        ),
    );
    lexicon.forms = Default::default();
    lexicon.stop_words = Default::default();
    each(Section::Grams, grams::encode(&postings, &terms));
    each(
        Section::Pronunciations,
        rhymes::encode_pronunciations(&postings, &terms, &lexicon),
    );
    each(Section::Rhymes, rhymes::encode(&postings, &terms, &lexicon));
    BuildSize {
        entries: postings.len(),
        terms: terms.len(),
    }
}

/// The terms of postings in rank order and their ordinal ranges: a term
/// is a word ([`order::word_of`], a folded headword in one language), whose
/// postings are neighbours; a folded headword of several languages is a
/// term per language.
fn term_ranges(postings: &[Posting]) -> Vec<(&str, Range<u32>)> {
    let mut terms: Vec<(&str, Range<u32>)> = Vec::new();
    for (ordinal, p) in postings.iter().enumerate() {
        let ordinal = ordinal as u32;
        match terms.last_mut() {
            Some((_, range))
                if order::word_of(&postings[range.start as usize]) == order::word_of(p) =>
            {
                range.end = ordinal + 1
            }
            _ => terms.push((p.folded(), ordinal..ordinal + 1)),
        }
    }
    terms
}

/// What a reader holds of sections read whole, decoded from them. The impl
/// below is the one place that says which sections make it: the store loads
/// its [`Assemble::SECTIONS`] and hands them to [`Assemble::assemble`], and
/// so do the tests ([`Built::decode`]).
pub trait Assemble: Sized {
    /// The sections it is decoded from.
    const SECTIONS: &'static [Section];

    /// Decodes it; `take` gives the bytes of each of its sections, once.
    fn assemble(take: &mut dyn FnMut(Section) -> Vec<u8>) -> Result<Self, CorruptData>;
}

/// Every search, autocomplete and random request reads it.
impl Assemble for Index {
    const SECTIONS: &'static [Section] = &[Section::Core, Section::Terms];

    /// Of `terms`, its root item only ([`Section::items_read_whole`]).
    fn assemble(take: &mut dyn FnMut(Section) -> Vec<u8>) -> Result<Self, CorruptData> {
        let core = take(Section::Core);
        let terms = take(Section::Terms);
        Index::decode(&core, &terms, DEFAULT_BLOCK_BUDGET)
    }
}

/// One part of a paged section ([`Section::is_paged`]), decoded from its
/// bytes alone: the store loads the parts a query needs, each once
/// ([`RecordPart`]: the ordinals of a page; [`GramPart`]: the grams of a
/// `contains` query).
pub trait PagedPart: Sized + Send + Sync + 'static {
    /// The section it is a part of.
    const SECTION: Section;

    /// Decodes the part whose first key is `first_key`.
    fn decode(first_key: &[u8], bytes: Vec<u8>) -> Result<Self, CorruptData>;

    /// Bytes held in memory.
    fn memory_bytes(&self) -> usize;
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::postings::{DictionaryRef, PostingFields};
    use std::collections::HashSet;
    use std::sync::Arc;

    pub(crate) fn posting(word: &str, dict: &str, id: &str) -> Posting {
        PostingFields {
            folded: crate::fold::fold(word),
            word: word.into(),
            dictionary: DictionaryRef {
                id: dict.into(),
                source_lang: "fr".into(),
                target_lang: Some("en".into()),
            }
            .into(),
            part_of_speech: word.contains('a').then(|| "noun".into()),
            has_audio: word.contains('e'),
            id: id.into(),
            preview: format!("preview of {word}"),
            phonetic: word.contains('o').then(|| format!("/{word}/")),
            definition: format!("the {word}; a (big) {word}s, {dict}"),
        }
        .into()
    }

    fn sorted(all: Vec<Posting>) -> Vec<Posting> {
        rank_order(all, &Lexicon::default())
    }

    fn decode(built: &Built) -> (Index, Records, Grams) {
        (
            built.decode().unwrap(),
            built.decode().unwrap(),
            built.decode().unwrap(),
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
        let texts = index.texts_of_entries(&ordinals).unwrap();
        for (ordinal, p) in all.iter().enumerate() {
            let o = ordinal as u32;
            assert_eq!(index.word(o).unwrap(), p.word());
            assert_eq!(index.term(index.term_of(o)).unwrap(), p.folded());
            assert_eq!(texts.dictionary(o), &*p.dictionary);
            assert_eq!(texts.part_of_speech(o), p.part_of_speech.as_deref());
            assert_eq!(texts.has_audio(o), p.has_audio);
            assert_eq!(texts.term_lang(index.term_of(o)), p.dictionary.source_lang);
            assert_eq!(got[ordinal].id, p.id());
            assert_eq!(got[ordinal].preview, p.preview());
            assert_eq!(got[ordinal].phonetic.as_deref(), p.phonetic());
        }
    }

    /// Every term keeps the Zipf frequency it was ranked by: a term is a
    /// word, a folded headword in one language, and takes that language's
    /// frequency (0 when its list lacks it); terms are numbered most common
    /// first, so frequencies never increase, and a text's first term is its
    /// most common word.
    #[test]
    fn every_term_keeps_its_frequency() {
        use super::super::lexicon::LexiconKind;
        let mut lexicon = Lexicon::default();
        let pairs = |list: &[(&str, &str)]| {
            list.iter()
                .map(|(w, f)| (w.to_string(), f.to_string()))
                .collect()
        };
        lexicon
            .add(
                LexiconKind::Frequencies,
                "fr",
                pairs(&[("chat", "441"), ("bank", "120")]),
            )
            .unwrap();
        lexicon
            .add(
                LexiconKind::Frequencies,
                "de",
                pairs(&[("bank", "491"), ("haus", "541")]),
            )
            .unwrap();
        let mut all = vec![
            posting("chat", "a", "1"),
            posting("Bank", "a", "2"),
            posting("maison", "a", "3"),
            posting("Haus", "a", "4"),
        ];
        let mut german = posting("Bank", "g", "5");
        Arc::make_mut(&mut german.dictionary).source_lang = "de".into();
        all.push(german);
        let built = build(all.clone(), &lexicon);
        // Kept to the build's own words, as `dictadmin index` keeps it, the
        // lexicon builds the same bytes.
        let mut kept = lexicon.clone();
        let words: HashSet<(&str, &str)> = all
            .iter()
            .map(|p| (p.folded(), p.dictionary.source_lang.as_str()))
            .collect();
        kept.keep_frequencies(|word, lang| words.contains(&(word, lang)));
        assert_eq!(kept.frequency("de", "bank"), Some(491));
        assert_eq!(
            kept.frequency("de", "haus"),
            None,
            "no German dictionary has it"
        );
        assert_eq!(build(all, &kept).sections, built.sections);
        let index: Index = built.decode().unwrap();
        let frequency = |word: &str, lang: &str| {
            let first = index.term_number(word).unwrap().unwrap();
            let words: Vec<usize> = index.text_terms(first).collect();
            let texts = index.texts(words.iter().copied()).unwrap();
            let t = words
                .iter()
                .find(|&&t| texts.term_lang(t) == lang)
                .unwrap_or_else(|| panic!("{word} is a word of {lang}"));
            index.term_frequency(*t)
        };
        assert_eq!(frequency("chat", "fr"), 441);
        assert_eq!(frequency("bank", "de"), 491, "German's list");
        assert_eq!(
            frequency("bank", "fr"),
            120,
            "French's list, not the higher"
        );
        let bank = index.term_number("bank").unwrap().unwrap();
        assert_eq!(index.text_terms(bank).count(), 2, "a word of each language");
        assert_eq!(index.term_frequency(bank), 491, "the German word first");
        assert_eq!(frequency("haus", "fr"), 0, "no dictionary of German has it");
        assert_eq!(frequency("maison", "fr"), 0, "unlisted");
        let by_number: Vec<u16> = (0..index.term_count())
            .map(|t| index.term_frequency(t))
            .collect();
        assert!(by_number.windows(2).all(|w| w[0] >= w[1]), "{by_number:?}");
    }

    /// A text of several languages is found in each FST's block, and that
    /// block alone tells a cold instance its other words: no other item,
    /// and none read with the index, chains them.
    #[test]
    fn each_term_block_chains_the_words_of_its_texts() {
        let mut all = vec![
            posting("Bank", "a", "1"),
            posting("chat", "a", "2"),
            posting("maison", "a", "3"),
        ];
        for (lang, id) in [("de", "4"), ("nl", "5")] {
            let mut other = posting("bank", "g", id);
            Arc::make_mut(&mut other.dictionary).source_lang = lang.into();
            all.push(other);
        }
        let built = build_with_blocks(all, &Lexicon::default(), 1);
        let bank = built.index().unwrap().term_number("bank").unwrap().unwrap();
        let items = built.section(Section::Terms);
        for fst in [
            Fst::Terms(Direction::Forwards),
            Fst::Terms(Direction::Backwards),
            Fst::TermMiddles,
        ] {
            let index = built.cold_index().unwrap();
            assert_eq!(index.text_terms(bank).count(), 1, "{fst:?}: cold");
            let dictionary = index.term_dictionary();
            let every = dictionary.every_item(fst);
            assert!(every.len() > 1, "{fst:?}: tiny blocks");
            dictionary
                .keep(every.into_iter().map(|item| (item, items[item].clone())))
                .unwrap();
            let words: Vec<usize> = index.text_terms(bank).collect();
            assert_eq!(words.len(), 3, "{fst:?}: a word per language");
            dictionary.forget();
            assert_eq!(index.text_terms(bank).count(), 1, "{fst:?}: let go");
        }
    }

    /// A term block's item, its chains with its FST, stays within one
    /// DynamoDB read unit ([`TERM_BLOCK_MAX_BYTES`]) however many of its
    /// texts are words of several languages.
    #[test]
    fn a_term_block_with_its_chains_stays_within_a_read_unit() {
        let mut all = Vec::new();
        for n in 0..3_000u32 {
            let word = format!("w{:05}", n.wrapping_mul(7_919) % 100_000);
            for (lang, id) in [("fr", "a"), ("de", "g"), ("nl", "n")] {
                let mut p = posting(&word, id, &n.to_string());
                Arc::make_mut(&mut p.dictionary).source_lang = lang.into();
                all.push(p);
            }
        }
        let built = build(all, &Lexicon::default());
        let index = built.cold_index().unwrap();
        let dictionary = index.term_dictionary();
        let items = built.section(Section::Terms);
        for fst in [
            Fst::Terms(Direction::Forwards),
            Fst::Terms(Direction::Backwards),
            Fst::TermMiddles,
        ] {
            let every = dictionary.every_item(fst);
            assert!(every.len() > 3, "{fst:?}: {} blocks", every.len());
            for item in every {
                let bytes = items[item].len();
                assert!(bytes <= TERM_BLOCK_MAX_BYTES, "{fst:?}: {bytes} bytes");
            }
        }
    }

    /// The bytes `dictadmin index` writes are a stored format: a change to
    /// them must be deliberate, never a side effect of moving code, and
    /// comes with a new format version unless a reader of the version
    /// reads both alike (how keys are grouped into parts, which the part
    /// index says). This pins every section of a small build that
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
        let stop_words = vec![("the".into(), String::new()), ("a".into(), String::new())];
        lexicon
            .add(LexiconKind::StopWords, "en", stop_words)
            .unwrap();
        let spoken = vec![
            ("chat".into(), "ʃˈa".into()),
            ("maison".into(), "mɛzˈɔ̃".into()),
        ];
        lexicon
            .add(LexiconKind::Pronunciations, "fr", spoken)
            .unwrap();
        let all: Vec<Posting> = (0..150)
            .map(|i| {
                let word = ["École", "ecole", "maison", "Haus", "ß", "chat", "chats"][i % 7];
                let id = if i % 5 == 0 {
                    format!("text-id-{i}")
                } else {
                    format!("{:016x}", i * 7919)
                };
                let mut p = posting(word, ["b", "a", "c"][i % 3], &id);
                // A text of two languages: two words, chained in `core`.
                if word == "Haus" && i % 3 == 2 {
                    Arc::make_mut(&mut p.dictionary).source_lang = "de".into();
                }
                p
            })
            .collect();
        let built = build(all, &lexicon);
        assert_eq!(
            built.sections.len(),
            Section::ALL.len(),
            "each section once"
        );
        let digests: Vec<String> = Section::ALL
            .iter()
            .map(|&section| {
                let items = built.section(section);
                // The items joined: a paged section's part index says where
                // each part and each item begins.
                let mut digest = Sha256::new();
                for item in items {
                    digest.update(item);
                }
                let digest = digest.finalize();
                let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
                format!("{} {hex}", section.name())
            })
            .collect();
        assert_eq!((built.entries, built.terms), (150, 7));
        assert_eq!(digests, PINNED_DIGESTS);
    }

    const PINNED_DIGESTS: [&str; 7] = [
        "core 57aa654309019734f13d7400dc44a4efcad6129b909386bc680d70d5f8f1fcdf",
        "terms d144e842533a5839c8028ff98dafd178287a0045f652ba0d3f29f095eebb2b6e",
        "records 8751ca533891b0b651a647731632e2aae3601fb63a98fd06730d6af55c72df0a",
        "grams 133058ba0fe856fa8b45b857f7b66d5185065ed233597e6057b1760241ed1986",
        "definitions 47741f21e2a5d37337a502a53332671c034b55c4976edf56b83f61912b097531",
        "rhymes f9f0ca729333d90ad60bf4e424034cf7951864e50364fec37f1137f2af3b117f",
        "pronunciations e9c70d0a11125ce0d1d5b52cddb66862d9f9f4d2ebf32ecd2ab7aab31ad650c5",
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
    fn corrupt_sections_are_errors_not_panics() {
        let all = sorted(vec![posting("ecole", "d", "1")]);
        let built = build(all.clone(), &Lexicon::default());
        let core = &built.section(Section::Core).concat();
        assert!(Index::decode(&core[..core.len() / 2], &[], BlockBudget::UNBOUNDED).is_err());
        assert!(Index::decode(b"junk", &[], BlockBudget::UNBOUNDED).is_err());
        let first = 0u32.to_be_bytes();
        assert!(RecordPart::decode(&first, vec![1, 0, 0]).is_err());
        assert!(RecordPart::decode(&first, vec![9, 0, 0, 0, 0, 0, 0, 0]).is_err());
        assert!(RecordPart::decode(&[1], vec![0, 0, 0, 0, 8, 0, 0, 0]).is_err());
        assert!(GramPart::decode(b"", vec![255; 9]).is_err());
    }
}
