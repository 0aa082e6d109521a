//! The compact form of index partitions: a list of postings (one per entry),
//! split into deflate-compressed chunks that fit a DynamoDB item. Each chunk is
//! self-contained: it carries its own tables of dictionaries and parts of speech.
//!
//! Layout of an uncompressed chunk, all strings as varint length + UTF-8:
//! `version`, dictionaries (`id`, `sourceLang`, `targetLang` or empty),
//! parts of speech, then postings: `folded`, `word` (empty when equal to
//! `folded`), dictionary index, part-of-speech index + 1 (0 for none), flags,
//! entry id (8 raw bytes when it is 16 lower-case hex digits, else a string).

use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use flate2::Compression;
use std::collections::HashMap;
use std::io::{Read, Write};

const VERSION: u8 = 1;
const FLAG_AUDIO: u8 = 1;
const FLAG_HEX_ID: u8 = 2;
/// A chunk stays below DynamoDB's 400 KB item limit with room for its keys.
pub const MAX_CHUNK_BYTES: usize = 350_000;
/// The most a chunk may inflate to: a bound against corrupt or hostile data.
const MAX_INFLATED_BYTES: u64 = 64 << 20;

/// One entry as an index partition lists it, borrowing from a decoded chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Posting<'a> {
    pub folded: &'a str,
    pub word: &'a str,
    pub dictionary: &'a DictionaryRef,
    pub part_of_speech: Option<&'a str>,
    pub has_audio: bool,
    pub id: EntryId<'a>,
}

/// What a posting needs to know about its dictionary for the filters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DictionaryRef {
    pub id: String,
    pub source_lang: String,
    pub target_lang: Option<String>,
}

/// An owned posting, as the index builder collects them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedPosting {
    pub folded: String,
    pub word: String,
    pub dictionary: DictionaryRef,
    pub part_of_speech: Option<String>,
    pub has_audio: bool,
    pub id: String,
}

impl OwnedPosting {
    /// An entry as the indexes list it.
    pub fn of_entry(entry: &crate::model::Entry) -> Self {
        Self {
            folded: crate::fold::fold(&entry.word),
            word: entry.word.clone(),
            dictionary: DictionaryRef {
                id: entry.dictionary_id.clone(),
                source_lang: entry.source_lang.clone(),
                target_lang: entry.target_lang.clone(),
            },
            part_of_speech: entry.part_of_speech.clone(),
            has_audio: entry.has_audio,
            id: entry.id.clone(),
        }
    }

    /// A decoded posting, owned.
    pub fn of_posting(posting: &Posting<'_>) -> Self {
        Self {
            folded: posting.folded.to_string(),
            word: posting.word.to_string(),
            dictionary: posting.dictionary.clone(),
            part_of_speech: posting.part_of_speech.map(str::to_string),
            has_audio: posting.has_audio,
            id: posting.id.to_text(),
        }
    }

    /// The rank order of literal matches (decisions.md): shorter first, then
    /// alphabetically by folded form, then dictionary, then id. Partitions are
    /// stored in this order.
    pub fn rank_key(&self) -> (usize, &str, &str, &str) {
        (
            self.folded.chars().count(),
            &self.folded,
            &self.dictionary.id,
            &self.id,
        )
    }
}

#[derive(Debug, thiserror::Error, PartialEq)]
#[error("corrupt index chunk: {0}")]
pub struct CorruptChunk(pub &'static str);

/// Encodes postings (already in partition order) into compressed chunks of at
/// most [`MAX_CHUNK_BYTES`].
pub fn encode_chunks(postings: &[&OwnedPosting]) -> Vec<Vec<u8>> {
    let compressed = compress(&encode_raw(postings));
    if compressed.len() <= MAX_CHUNK_BYTES || postings.len() <= 1 {
        return vec![compressed];
    }
    let (first, second) = postings.split_at(postings.len() / 2);
    let mut chunks = encode_chunks(first);
    chunks.extend(encode_chunks(second));
    chunks
}

fn encode_raw(postings: &[&OwnedPosting]) -> Vec<u8> {
    let mut dictionaries: Vec<&DictionaryRef> = Vec::new();
    let mut dictionary_index: HashMap<&DictionaryRef, usize> = HashMap::new();
    let mut parts: Vec<&str> = Vec::new();
    let mut part_index: HashMap<&str, usize> = HashMap::new();
    for p in postings {
        dictionary_index.entry(&p.dictionary).or_insert_with(|| {
            dictionaries.push(&p.dictionary);
            dictionaries.len() - 1
        });
        if let Some(pos) = p.part_of_speech.as_deref() {
            part_index.entry(pos).or_insert_with(|| {
                parts.push(pos);
                parts.len() - 1
            });
        }
    }
    let mut out = vec![VERSION];
    put_varint(&mut out, dictionaries.len());
    for d in &dictionaries {
        put_str(&mut out, &d.id);
        put_str(&mut out, &d.source_lang);
        put_str(&mut out, d.target_lang.as_deref().unwrap_or(""));
    }
    put_varint(&mut out, parts.len());
    for part in &parts {
        put_str(&mut out, part);
    }
    put_varint(&mut out, postings.len());
    for p in postings {
        put_str(&mut out, &p.folded);
        put_str(&mut out, if p.word == p.folded { "" } else { &p.word });
        put_varint(&mut out, dictionary_index[&p.dictionary]);
        put_varint(
            &mut out,
            p.part_of_speech
                .as_deref()
                .map_or(0, |pos| part_index[pos] + 1),
        );
        let hex_id = as_hex_id(&p.id);
        let flags = if p.has_audio { FLAG_AUDIO } else { 0 }
            | if hex_id.is_some() { FLAG_HEX_ID } else { 0 };
        out.push(flags);
        match hex_id {
            Some(bytes) => out.extend_from_slice(&bytes),
            None => put_str(&mut out, &p.id),
        }
    }
    out
}

fn compress(raw: &[u8]) -> Vec<u8> {
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::default());
    encoder
        .write_all(raw)
        .expect("writing to a Vec cannot fail");
    encoder.finish().expect("writing to a Vec cannot fail")
}

/// Inflates a stored chunk, refusing anything larger than a chunk can be.
pub fn inflate(compressed: &[u8]) -> Result<Vec<u8>, CorruptChunk> {
    let mut raw = Vec::new();
    DeflateDecoder::new(compressed)
        .take(MAX_INFLATED_BYTES)
        .read_to_end(&mut raw)
        .map_err(|_| CorruptChunk("not deflate data"))?;
    Ok(raw)
}

/// A decoded chunk: its dictionary table and the raw bytes the postings
/// borrow from.
pub struct Chunk {
    raw: Vec<u8>,
    dictionaries: Vec<DictionaryRef>,
    parts: Vec<String>,
    postings_at: usize,
    count: usize,
}

impl Chunk {
    pub fn decode(raw: Vec<u8>) -> Result<Self, CorruptChunk> {
        let mut reader = Reader { raw: &raw, at: 0 };
        if reader.byte()? != VERSION {
            return Err(CorruptChunk("unknown version"));
        }
        let mut dictionaries = Vec::new();
        for _ in 0..reader.count()? {
            let id = reader.str()?.to_string();
            let source_lang = reader.str()?.to_string();
            let target = reader.str()?;
            dictionaries.push(DictionaryRef {
                id,
                source_lang,
                target_lang: (!target.is_empty()).then(|| target.to_string()),
            });
        }
        let mut parts = Vec::new();
        for _ in 0..reader.count()? {
            parts.push(reader.str()?.to_string());
        }
        let count = reader.count()?;
        let postings_at = reader.at;
        let chunk = Self {
            raw,
            dictionaries,
            parts,
            postings_at,
            count,
        };
        // Validate every posting once, so that iteration cannot fail later.
        let mut reader = chunk.reader();
        for _ in 0..chunk.count {
            chunk.read_posting(&mut reader)?;
        }
        Ok(chunk)
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The postings, in stored order.
    pub fn postings(&self) -> impl Iterator<Item = Posting<'_>> + '_ {
        let mut reader = self.reader();
        (0..self.count).map(move |_| {
            self.read_posting(&mut reader)
                .expect("validated when decoded")
        })
    }

    fn reader(&self) -> Reader<'_> {
        Reader {
            raw: &self.raw,
            at: self.postings_at,
        }
    }

    fn read_posting<'a>(&'a self, r: &mut Reader<'a>) -> Result<Posting<'a>, CorruptChunk> {
        let folded = r.str()?;
        let word = r.str()?;
        let dictionary = self
            .dictionaries
            .get(r.varint()?)
            .ok_or(CorruptChunk("dictionary index out of range"))?;
        let part_of_speech = match r.varint()? {
            0 => None,
            n => Some(
                self.parts
                    .get(n - 1)
                    .ok_or(CorruptChunk("part of speech out of range"))?
                    .as_str(),
            ),
        };
        let flags = r.byte()?;
        let id = if flags & FLAG_HEX_ID != 0 {
            r.hex_id()?
        } else {
            EntryId::Text(r.str()?)
        };
        Ok(Posting {
            folded,
            word: if word.is_empty() { folded } else { word },
            dictionary,
            part_of_speech,
            has_audio: flags & FLAG_AUDIO != 0,
            id,
        })
    }
}

/// Ids are 16 lower-case hex digits; stored as their 8 bytes.
fn as_hex_id(id: &str) -> Option<[u8; 8]> {
    if id.len() != 16 || !id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    let mut bytes = [0u8; 8];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&id[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(bytes)
}

fn put_varint(out: &mut Vec<u8>, mut value: usize) {
    loop {
        let low = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

fn put_str(out: &mut Vec<u8>, text: &str) {
    put_varint(out, text.len());
    out.extend_from_slice(text.as_bytes());
}

struct Reader<'a> {
    raw: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Result<u8, CorruptChunk> {
        let b = *self.raw.get(self.at).ok_or(CorruptChunk("truncated"))?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<usize, CorruptChunk> {
        let mut value = 0usize;
        for shift in (0..35).step_by(7) {
            let b = self.byte()?;
            value |= usize::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(CorruptChunk("varint too long"))
    }

    /// A count of things still to read; each takes at least one byte.
    fn count(&mut self) -> Result<usize, CorruptChunk> {
        let n = self.varint()?;
        if n > self.raw.len() - self.at {
            return Err(CorruptChunk("count larger than the chunk"));
        }
        Ok(n)
    }

    fn bytes(&mut self, n: usize) -> Result<&'a [u8], CorruptChunk> {
        let end = self
            .at
            .checked_add(n)
            .filter(|end| *end <= self.raw.len())
            .ok_or(CorruptChunk("truncated"))?;
        let slice = &self.raw[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn str(&mut self) -> Result<&'a str, CorruptChunk> {
        let n = self.varint()?;
        std::str::from_utf8(self.bytes(n)?).map_err(|_| CorruptChunk("invalid UTF-8"))
    }

    fn hex_id(&mut self) -> Result<EntryId<'a>, CorruptChunk> {
        let bytes: [u8; 8] = self.bytes(8)?.try_into().expect("8 bytes");
        Ok(EntryId::Hex(bytes))
    }
}

/// An entry id as a chunk stores it: the 8 bytes of a hex id, or its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryId<'a> {
    Hex([u8; 8]),
    Text(&'a str),
}

impl EntryId<'_> {
    pub fn to_text(&self) -> String {
        match self {
            Self::Hex(bytes) => bytes.iter().map(|b| format!("{b:02x}")).collect(),
            Self::Text(text) => (*text).to_string(),
        }
    }
}

impl Ord for EntryId<'_> {
    /// The order of the ids' text (lower-case hex sorts like its bytes).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (self, other) {
            (Self::Hex(a), Self::Hex(b)) => a.cmp(b),
            (Self::Text(a), Self::Text(b)) => a.cmp(b),
            _ => self.to_text().cmp(&other.to_text()),
        }
    }
}

impl PartialOrd for EntryId<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn posting(
        folded: &str,
        word: &str,
        dict: &str,
        pos: Option<&str>,
        audio: bool,
        id: &str,
    ) -> OwnedPosting {
        OwnedPosting {
            folded: folded.into(),
            word: word.into(),
            dictionary: DictionaryRef {
                id: dict.into(),
                source_lang: "fr".into(),
                target_lang: (dict != "mono").then(|| "en".into()),
            },
            part_of_speech: pos.map(Into::into),
            has_audio: audio,
            id: id.into(),
        }
    }

    fn decode_all(chunks: &[Vec<u8>]) -> Vec<OwnedPosting> {
        let mut out = Vec::new();
        for c in chunks {
            let chunk = Chunk::decode(inflate(c).unwrap()).unwrap();
            out.extend(chunk.postings().map(|p| OwnedPosting {
                folded: p.folded.into(),
                word: p.word.into(),
                dictionary: p.dictionary.clone(),
                part_of_speech: p.part_of_speech.map(Into::into),
                has_audio: p.has_audio,
                id: p.id.to_text(),
            }));
        }
        out
    }

    #[test]
    fn round_trips_every_field() {
        let all = vec![
            posting(
                "ecole",
                "École",
                "freedict-fra-eng",
                Some("noun"),
                true,
                "0123456789abcdef",
            ),
            posting("ecole", "ecole", "mono", None, false, "not-hex-id"),
        ];
        let refs: Vec<&OwnedPosting> = all.iter().collect();
        assert_eq!(decode_all(&encode_chunks(&refs)), all);
    }

    #[test]
    fn large_partitions_split_into_item_sized_chunks() {
        let all: Vec<OwnedPosting> = (0..60_000u64)
            .map(|i| {
                let id = format!("{:016x}", i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                posting(
                    &format!("w{i}"),
                    &format!("W{i}"),
                    "d",
                    Some("noun"),
                    false,
                    &id,
                )
            })
            .collect();
        let refs: Vec<&OwnedPosting> = all.iter().collect();
        let chunks = encode_chunks(&refs);
        assert!(chunks.len() > 1);
        assert!(chunks.iter().all(|c| c.len() <= MAX_CHUNK_BYTES));
        assert_eq!(decode_all(&chunks), all);
    }

    #[test]
    fn corrupt_chunks_are_errors_not_panics() {
        assert!(
            inflate(b"not deflate at all").is_err()
                || Chunk::decode(inflate(b"x").unwrap_or_default()).is_err()
        );
        let all = [posting("a", "a", "d", None, false, "0000000000000001")];
        let mut raw = encode_raw(&all.iter().collect::<Vec<_>>());
        raw.truncate(raw.len() - 3);
        assert!(Chunk::decode(raw).is_err());
    }

    proptest! {
        #[test]
        fn decoding_arbitrary_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = Chunk::decode(bytes);
        }

        #[test]
        fn hex_ids_sort_like_their_text(a in "[0-9a-f]{16}", b in "[0-9a-f]{16}") {
            let (ha, hb) = (EntryId::Hex(as_hex_id(&a).unwrap()), EntryId::Hex(as_hex_id(&b).unwrap()));
            prop_assert_eq!(ha.cmp(&hb), a.cmp(&b));
            prop_assert_eq!(ha.to_text(), a);
        }
    }
}
