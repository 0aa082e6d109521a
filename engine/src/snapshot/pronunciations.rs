//! The `pronunciations` section (format 27): per folded text, the words of
//! that text (a term per language) that have pronunciations, most common
//! first, each with its term number, language and transcriptions
//! ([`Pronounced`]). A rhyme lookup starts here.
//!
//! Stored in buckets by a hash of the text, not in key order behind a part
//! index: the bucket of a word is its hash modulo the section's item count,
//! which the build pointer records, so a cold instance reads a word's
//! bucket with the index instead of after it (one round trip fewer). A
//! bucket is a few KB, one or two DynamoDB read units. Encoder and decoder
//! side by side.
//!
//! A bucket (deflated): `[varint count]` then per text, in text order,
//! `[str text][varint length][value]`, a value being per word `[varint
//! term][str language][varint count]([u8 source][str pronunciation])…`.

use super::MAX_PART_BYTES;
use crate::codec::{compress, inflate, put_str, put_varint, CorruptData, Reader};
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

/// The raw bytes a bucket holds on average: about 8 KB deflate to one or
/// two read units. (In the tests a few words, so that every test build has
/// several buckets.)
const BUCKET_BYTES: usize = if cfg!(test) { 64 } else { 8 * 1024 };

/// The bucket of `text` (folded) among `buckets`: FNV-1a of its bytes, a
/// hash that is the same in every release and on every machine (the build
/// and the reader must agree on it).
pub fn bucket_of(text: &str, buckets: usize) -> usize {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    (hash % buckets.max(1) as u64) as usize
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

/// The stored items: `texts` (each text once, with its value) in buckets,
/// as many as their bytes need, at least one.
pub(super) fn encode(mut texts: Vec<(&str, Vec<u8>)>) -> Vec<Vec<u8>> {
    let bytes: usize = texts.iter().map(|(t, v)| t.len() + v.len() + 2).sum();
    let buckets = bytes.div_ceil(BUCKET_BYTES).max(1);
    texts.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let mut raw: Vec<(usize, Vec<u8>)> = vec![(0, Vec::new()); buckets];
    for (text, value) in texts {
        let (count, bucket) = &mut raw[bucket_of(text, buckets)];
        *count += 1;
        put_str(bucket, text);
        put_varint(bucket, value.len());
        bucket.extend_from_slice(&value);
    }
    raw.into_iter()
        .map(|(count, texts)| {
            let mut bucket = Vec::with_capacity(texts.len() + 4);
            put_varint(&mut bucket, count);
            bucket.extend_from_slice(&texts);
            let bucket = compress(&bucket);
            assert!(
                bucket.len() <= MAX_PART_BYTES,
                "a bucket of {} bytes",
                bucket.len()
            );
            bucket
        })
        .collect()
}

/// One bucket of the section, inflated.
pub struct WordBucket(Vec<u8>);

impl WordBucket {
    pub fn decode(bytes: &[u8]) -> Result<Self, CorruptData> {
        inflate(bytes).map(Self)
    }

    /// An empty bucket: that of a build without pronunciations.
    pub fn empty() -> Self {
        Self(vec![0])
    }

    /// The words of `word` (as typed: folded here) that have
    /// pronunciations, in every language, most common first (none when no
    /// dictionary and no synthesizer gives one). This must be the bucket of
    /// its folded text ([`bucket_of`]).
    pub fn pronounced(&self, word: &str) -> Result<Vec<Pronounced<'_>>, CorruptData> {
        let text = fold(word);
        let mut reader = Reader::new(&self.0);
        for _ in 0..reader.count(3)? {
            let (key, len) = (reader.str()?, reader.varint()?);
            let value = reader.bytes(len)?;
            if key == text {
                return words(value);
            }
        }
        Ok(Vec::new())
    }

    /// Bytes held in memory.
    pub fn memory_bytes(&self) -> usize {
        self.0.capacity()
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

    /// Every text is found in the bucket its hash names, whatever the
    /// number of buckets; a text not stored, in any bucket, has no words.
    #[test]
    fn every_text_is_in_the_bucket_of_its_hash() {
        let texts: Vec<String> = (0..500).map(|i| format!("word{i}")).collect();
        let stored: Vec<(&str, Vec<u8>)> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| (t.as_str(), value(i, "en", "wɜːd")))
            .collect();
        let items = encode(stored);
        assert!(items.len() > 100, "{} buckets", items.len());
        let buckets: Vec<WordBucket> = items
            .iter()
            .map(|b| WordBucket::decode(b).unwrap())
            .collect();
        for (i, text) in texts.iter().enumerate() {
            let bucket = &buckets[bucket_of(text, items.len())];
            let words = bucket.pronounced(&text.to_uppercase()).unwrap();
            assert_eq!(words.len(), 1, "{text}");
            assert_eq!(words[0].term, i);
            assert_eq!(words[0].lang, "en");
            assert_eq!(
                words[0].pronunciations,
                [(PronunciationSource::Espeak, "wɜːd")]
            );
        }
        for bucket in &buckets {
            assert!(bucket.pronounced("absent").unwrap().is_empty());
        }
        let filled = buckets.iter().filter(|b| b.0.len() > 1).count();
        assert!(
            filled * 10 >= buckets.len() * 9,
            "{filled} of {} buckets hold a text",
            buckets.len()
        );
    }

    #[test]
    fn a_build_without_pronunciations_has_one_empty_bucket() {
        let items = encode(Vec::new());
        assert_eq!(items.len(), 1);
        let bucket = WordBucket::decode(&items[0]).unwrap();
        assert!(bucket.pronounced("cat").unwrap().is_empty());
        assert!(WordBucket::empty().pronounced("cat").unwrap().is_empty());
    }

    /// The hash is pinned: a build and a reader of another release or
    /// machine must agree on it.
    #[test]
    fn the_bucket_hash_is_fnv_1a() {
        assert_eq!(
            bucket_of("", usize::MAX),
            0xcbf2_9ce4_8422_2325 % usize::MAX
        );
        assert_eq!(bucket_of("a", 1 << 32), 0xaf63_dc4c_8601_ec8c % (1 << 32));
        assert_eq!(bucket_of("cat", 1), 0);
    }
}
