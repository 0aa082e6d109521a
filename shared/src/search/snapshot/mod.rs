//! The index snapshot: everything search, autocomplete and random need, built
//! once by `dictadmin index` from the postings manifests and held in a warm
//! instance's memory (docs/data-model.md describes the format and its costs).
//!
//! Entries are numbered by the rank order within a tier of matches
//! ([`order`]): an entry's number is its *ordinal*. Equal folded headwords
//! (*terms*) are neighbours, so a term is a range of ordinals, and terms are
//! numbered in the same order. Five sections, each stored as items of at
//! most [`MAX_PART_BYTES`], each in a module of its own with its encoder and
//! its decoder side by side:
//!
//! - `core` and `terms` ([`core`]): the tables, the terms and the fields of
//!   every entry; an FST from term to term number and one from each term
//!   spelled backwards (for typo walks anchored on the query's end).
//!   Decoded into the [`Index`].
//! - `records` ([`records`]): per entry its id, preview and phonetic, in
//!   compressed blocks.
//! - `grams` ([`grams`]): per 1- to 3-character substring, the entries whose
//!   term contains it.
//! - `forms` ([`forms`]): from an inflected form to its lemmas' terms; part
//!   of the [`Index`].
//!
//! This file says what a snapshot is made of: the sections ([`Section`]),
//! the build that writes them all ([`build`]), how a section is split into
//! stored parts ([`split_parts`]), which sections make each part a reader
//! holds ([`Assemble`]), and the [`FORMAT`] the build pointer records.

mod core;
mod forms;
mod grams;
mod order;
mod records;

pub(crate) use self::core::FstBytes;
pub use self::core::Index;
pub use forms::Lemma;
pub use grams::Grams;
pub(crate) use grams::GRAM_CHARS;
pub use order::rank_order;
pub use records::{Record, Records};

use super::codec::CorruptData;
use super::lexicon::Lexicon;
use super::postings::Posting;
use std::ops::Range;

/// The format of the snapshot this release writes and reads, recorded on
/// the build pointer. Raise it with any change to the bytes of a section or
/// to the set of sections: a release then answers 503 "rebuild the index"
/// for a build of another format instead of misreading it (docs/decisions.md).
pub const FORMAT: u32 = 2;

/// A stored part stays below DynamoDB's 400 KB item limit with room for keys.
pub(crate) const MAX_PART_BYTES: usize = 350_000;

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

impl Built {
    /// The bytes of one section.
    pub(crate) fn section(&self, section: Section) -> &[u8] {
        self.sections
            .iter()
            .find(|(s, _)| *s == section)
            .map(|(_, bytes)| bytes.as_slice())
            .expect("a build has every section")
    }

    /// Decodes a part from this build's sections as a reader would, each
    /// through its stored parts: what tests read a snapshot with.
    #[cfg(test)]
    pub(crate) fn decode<T: Assemble>(&self) -> Result<T, CorruptData> {
        T::assemble(&mut |s: Section| {
            assert!(
                T::SECTIONS.contains(&s),
                "{} is not one of its sections",
                s.name()
            );
            split_parts(self.section(s)).concat()
        })
    }
}

/// Splits a section into parts of at most [`MAX_PART_BYTES`].
pub fn split_parts(bytes: &[u8]) -> Vec<Vec<u8>> {
    if bytes.is_empty() {
        return vec![Vec::new()];
    }
    bytes.chunks(MAX_PART_BYTES).map(<[u8]>::to_vec).collect()
}

/// Builds the snapshot of `postings` (no entry twice), ranked with the
/// lexicon's frequencies, its `forms` section from the lexicon's forms.
pub fn build(postings: Vec<Posting>, lexicon: &Lexicon) -> Built {
    let postings = rank_order(postings, lexicon);
    let terms = term_ranges(&postings);
    // A match, so that a new section is a compile error until it is written.
    let sections = Section::ALL.map(|section| {
        let bytes = match section {
            Section::Core => core::encode_core(&postings, &terms),
            Section::Terms => core::encode_terms(&terms),
            Section::Records => records::encode(&postings),
            Section::Grams => grams::encode(&terms),
            Section::Forms => forms::encode(&postings, &terms, lexicon),
        };
        (section, bytes)
    });
    Built {
        sections: sections.into(),
        entries: postings.len(),
        terms: terms.len(),
    }
}

/// The terms of postings in rank order and their ordinal ranges: the
/// postings of a term are neighbours.
fn term_ranges(postings: &[Posting]) -> Vec<(&str, Range<u32>)> {
    let mut terms: Vec<(&str, Range<u32>)> = Vec::new();
    for (ordinal, p) in postings.iter().enumerate() {
        let ordinal = ordinal as u32;
        match terms.last_mut() {
            Some((term, range)) if *term == p.folded => range.end = ordinal + 1,
            _ => terms.push((&p.folded, ordinal..ordinal + 1)),
        }
    }
    terms
}

/// A part of the snapshot as a reader holds it, decoded from the sections it
/// is made of. The impls below are the one place that says which sections
/// make what: the store loads a part's [`Assemble::SECTIONS`] and hands them
/// to [`Assemble::assemble`], and so do the tests ([`Built::decode`]).
pub(crate) trait Assemble: Sized {
    /// The sections it is decoded from.
    const SECTIONS: &'static [Section];

    /// Decodes it; `take` gives the bytes of each of its sections, once.
    fn assemble(take: &mut dyn FnMut(Section) -> Vec<u8>) -> Result<Self, CorruptData>;
}

/// Every search, autocomplete and random request reads it.
impl Assemble for Index {
    const SECTIONS: &'static [Section] = &[Section::Core, Section::Terms, Section::Forms];

    fn assemble(take: &mut dyn FnMut(Section) -> Vec<u8>) -> Result<Self, CorruptData> {
        let core = take(Section::Core);
        Index::decode(&core, take(Section::Terms), take(Section::Forms))
    }
}

/// Loaded when a request shows results.
impl Assemble for Records {
    const SECTIONS: &'static [Section] = &[Section::Records];

    fn assemble(take: &mut dyn FnMut(Section) -> Vec<u8>) -> Result<Self, CorruptData> {
        Records::decode(take(Section::Records))
    }
}

/// Loaded when a request searches `contains`.
impl Assemble for Grams {
    const SECTIONS: &'static [Section] = &[Section::Grams];

    fn assemble(take: &mut dyn FnMut(Section) -> Vec<u8>) -> Result<Self, CorruptData> {
        Grams::decode(take(Section::Grams))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::postings::DictionaryRef;

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
        "terms 051e4faf868220ea730d9ea28f0c5538a4acaa6b8a356dee1cb38cfecbdf78b1",
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
