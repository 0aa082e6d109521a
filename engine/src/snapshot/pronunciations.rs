//! The `pronunciations` section (format 27): per folded text, the words of
//! that text (a term per language) that have pronunciations, most common
//! first, each with its term number, language and transcriptions
//! ([`Pronounced`]). A rhyme lookup starts here.
//!
//! Stored in buckets by a hash of the text ([`super::buckets`]): the
//! bucket of a word is its hash modulo the section's item count, which the
//! build pointer records, so a cold instance reads a word's bucket with
//! the index instead of after it (one round trip fewer). A bucket is a few
//! KB, one or two DynamoDB read units. Encoder and decoder side by side.
//!
//! A text's value is per word `[varint term][str language][varint
//! count]([u8 source][str pronunciation])…`.

pub use super::buckets::bucket_of;
pub(super) use super::buckets::encode;
use super::buckets::Bucket;
use crate::codec::{put_str, put_varint, CorruptData, Reader};
use crate::fold::fold;

/// Where a pronunciation comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PronunciationSource {
    /// The transcription of one of the word's entries.
    Dictionary,
    /// espeak-ng's IPA of the word, from the lexicon.
    Espeak,
}

impl PronunciationSource {
    pub fn name(self) -> &'static str {
        match self {
            Self::Dictionary => "dictionary",
            Self::Espeak => "espeak-ng",
        }
    }

    pub(super) fn byte(self) -> u8 {
        match self {
            Self::Dictionary => 0,
            Self::Espeak => 1,
        }
    }

    pub(super) fn of_byte(byte: u8) -> Result<Self, CorruptData> {
        match byte {
            0 => Ok(Self::Dictionary),
            1 => Ok(Self::Espeak),
            _ => Err(CorruptData("a pronunciation of an unknown source")),
        }
    }
}

/// A word with pronunciations: its term, its language and them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pronounced<'a> {
    pub term: usize,
    pub lang: &'a str,
    pub pronunciations: Vec<(PronunciationSource, &'a str)>,
}

/// The word values of one text as the build makes them: its words'
/// values appended, most common first.
pub(super) fn put_word(
    value: &mut Vec<u8>,
    term: usize,
    lang: &str,
    pronunciations: &[(PronunciationSource, &str)],
) {
    put_varint(value, term);
    put_str(value, lang);
    put_varint(value, pronunciations.len());
    for &(source, ipa) in pronunciations {
        value.push(source.byte());
        put_str(value, ipa);
    }
}

/// One bucket of the section, inflated.
pub struct WordBucket(Bucket);

impl WordBucket {
    pub fn decode(bytes: &[u8]) -> Result<Self, CorruptData> {
        Bucket::decode(bytes).map(Self)
    }

    /// An empty bucket: that of a build without pronunciations.
    pub fn empty() -> Self {
        Self(Bucket::empty())
    }

    /// The words of `word` (as typed: folded here) that have
    /// pronunciations, in every language, most common first (none when no
    /// dictionary and no synthesizer gives one). This must be the bucket of
    /// its folded text ([`bucket_of`]).
    pub fn pronounced(&self, word: &str) -> Result<Vec<Pronounced<'_>>, CorruptData> {
        match self.0.get(&fold(word))? {
            Some(value) => words(value),
            None => Ok(Vec::new()),
        }
    }

    /// Bytes held in memory.
    pub fn memory_bytes(&self) -> usize {
        self.0.memory_bytes()
    }
}

impl super::Built {
    /// The bucket of `word` (as typed) in this build (the tests and the
    /// offline benchmarks).
    pub fn word_bucket(&self, word: &str) -> Result<WordBucket, CorruptData> {
        let buckets = self.section(super::Section::Pronunciations);
        WordBucket::decode(&buckets[bucket_of(&fold(word), buckets.len())])
    }
}

/// The words of a text's value.
fn words(value: &[u8]) -> Result<Vec<Pronounced<'_>>, CorruptData> {
    let mut reader = Reader::new(value);
    let mut words = Vec::new();
    while !reader.is_done() {
        let term = reader.varint()?;
        let lang = reader.str()?;
        let pronunciations = (0..reader.count(2)?)
            .map(|_| Ok((PronunciationSource::of_byte(reader.byte()?)?, reader.str()?)))
            .collect::<Result<Vec<_>, CorruptData>>()?;
        words.push(Pronounced {
            term,
            lang,
            pronunciations,
        });
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(term: usize, lang: &str, ipa: &str) -> Vec<u8> {
        let mut value = Vec::new();
        put_word(
            &mut value,
            term,
            lang,
            &[(PronunciationSource::Espeak, ipa)],
        );
        value
    }

    /// A word's pronunciations come back from the bucket of its folded
    /// text, whatever its case as typed.
    #[test]
    fn a_words_pronunciations_are_found_by_its_folded_text() {
        let texts: Vec<String> = (0..50).map(|i| format!("word{i}")).collect();
        let stored = texts
            .iter()
            .enumerate()
            .map(|(i, t)| (t.as_str(), value(i, "en", "wɜːd")))
            .collect();
        let items = encode(stored);
        assert!(items.len() > 5, "{} buckets", items.len());
        for (i, text) in texts.iter().enumerate() {
            let bucket = WordBucket::decode(&items[bucket_of(text, items.len())]).unwrap();
            let words = bucket.pronounced(&text.to_uppercase()).unwrap();
            assert_eq!(words.len(), 1, "{text}");
            assert_eq!(words[0].term, i);
            assert_eq!(words[0].lang, "en");
            assert_eq!(
                words[0].pronunciations,
                [(PronunciationSource::Espeak, "wɜːd")]
            );
            assert!(bucket.pronounced("absent").unwrap().is_empty());
        }
    }

    #[test]
    fn a_build_without_pronunciations_has_one_empty_bucket() {
        let items = encode(Vec::new());
        assert_eq!(items.len(), 1);
        let bucket = WordBucket::decode(&items[0]).unwrap();
        assert!(bucket.pronounced("cat").unwrap().is_empty());
        assert!(WordBucket::empty().pronounced("cat").unwrap().is_empty());
    }
}
