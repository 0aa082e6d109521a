//! The byte-level pieces of the stored search formats (postings manifests and
//! the index snapshot): varints, length-prefixed strings, deflate, and entry
//! ids. A reader never panics on corrupt input: every read is checked.

use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use flate2::Compression;
use roaring::RoaringBitmap;
use std::io::{Read, Write};

/// Stored data that cannot be decoded: a bug or a damaged item, never input.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("corrupt index data: {0}")]
pub struct CorruptData(pub &'static str);

/// The most one stored blob may inflate to: a bound against corrupt or
/// hostile data (the largest snapshot section of a 5-million-entry corpus is
/// well below it).
const MAX_INFLATED_BYTES: u64 = 1 << 30;

/// A roaring bitmap as every stored bitmap is kept: its portable
/// serialization (optimized first where run containers may be smaller).
pub fn bitmap_bytes(bitmap: &RoaringBitmap) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(bitmap.serialized_size());
    bitmap
        .serialize_into(&mut bytes)
        .expect("writing to a Vec cannot fail");
    bytes
}

/// The bitmap stored as `bytes` by [`bitmap_bytes`]; `what` names it when
/// they are not one.
pub fn bitmap_of(bytes: &[u8], what: &'static str) -> Result<RoaringBitmap, CorruptData> {
    RoaringBitmap::deserialize_from(bytes).map_err(|_| CorruptData(what))
}

pub fn compress(raw: &[u8]) -> Vec<u8> {
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::default());
    encoder
        .write_all(raw)
        .expect("writing to a Vec cannot fail");
    encoder.finish().expect("writing to a Vec cannot fail")
}

/// `items` compressed in chunks of at most `max_bytes` each, every chunk
/// self-contained (`encode` makes the raw bytes of a slice): a chunk over
/// the limit is split in halves until it fits, or holds one item.
pub fn compressed_chunks<T>(
    items: &[T],
    max_bytes: usize,
    encode: &impl Fn(&[T]) -> Vec<u8>,
) -> Vec<Vec<u8>> {
    let compressed = compress(&encode(items));
    if compressed.len() <= max_bytes || items.len() <= 1 {
        return vec![compressed];
    }
    let (first, second) = items.split_at(items.len() / 2);
    let mut chunks = compressed_chunks(first, max_bytes, encode);
    chunks.extend(compressed_chunks(second, max_bytes, encode));
    chunks
}

pub fn inflate(compressed: &[u8]) -> Result<Vec<u8>, CorruptData> {
    let mut raw = Vec::new();
    DeflateDecoder::new(compressed)
        .take(MAX_INFLATED_BYTES)
        .read_to_end(&mut raw)
        .map_err(|_| CorruptData("not deflate data"))?;
    Ok(raw)
}

pub fn put_varint(out: &mut Vec<u8>, mut value: usize) {
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

pub fn put_str(out: &mut Vec<u8>, text: &str) {
    put_varint(out, text.len());
    out.extend_from_slice(text.as_bytes());
}

/// Entry ids are 16 lower-case hex digits: stored as their 8 bytes, behind a
/// flag. Any other id is stored as text.
pub fn put_id(out: &mut Vec<u8>, id: &str) {
    match hex_id(id) {
        Some(bytes) => {
            out.push(1);
            out.extend_from_slice(&bytes);
        }
        None => {
            out.push(0);
            put_str(out, id);
        }
    }
}

fn hex_id(id: &str) -> Option<[u8; 8]> {
    if id.len() != 16 || !id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    let mut bytes = [0u8; 8];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&id[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(bytes)
}

pub struct Reader<'a> {
    raw: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(raw: &'a [u8]) -> Self {
        Self { raw, at: 0 }
    }

    pub fn is_done(&self) -> bool {
        self.at == self.raw.len()
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.raw.len() - self.at
    }

    pub fn byte(&mut self) -> Result<u8, CorruptData> {
        let b = *self.raw.get(self.at).ok_or(CorruptData("truncated"))?;
        self.at += 1;
        Ok(b)
    }

    pub fn varint(&mut self) -> Result<usize, CorruptData> {
        let mut value = 0usize;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            value |= usize::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(CorruptData("varint too long"))
    }

    /// A count of things still to read, each at least `min_bytes` long: a
    /// corrupt count cannot make the reader allocate more than the input.
    pub fn count(&mut self, min_bytes: usize) -> Result<usize, CorruptData> {
        let n = self.varint()?;
        if n.saturating_mul(min_bytes.max(1)) > self.raw.len() - self.at {
            return Err(CorruptData("count larger than the data"));
        }
        Ok(n)
    }

    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8], CorruptData> {
        let end = self
            .at
            .checked_add(n)
            .filter(|end| *end <= self.raw.len())
            .ok_or(CorruptData("truncated"))?;
        let slice = &self.raw[self.at..end];
        self.at = end;
        Ok(slice)
    }

    pub fn str(&mut self) -> Result<&'a str, CorruptData> {
        let n = self.varint()?;
        std::str::from_utf8(self.bytes(n)?).map_err(|_| CorruptData("invalid UTF-8"))
    }

    /// An optional string, stored empty when absent.
    pub fn opt_str(&mut self) -> Result<Option<&'a str>, CorruptData> {
        let s = self.str()?;
        Ok((!s.is_empty()).then_some(s))
    }

    /// Skips a string without checking it.
    pub fn skip_str(&mut self) -> Result<(), CorruptData> {
        let n = self.varint()?;
        self.bytes(n).map(|_| ())
    }

    pub fn id(&mut self) -> Result<String, CorruptData> {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        match self.byte()? {
            1 => Ok(self
                .bytes(8)?
                .iter()
                .flat_map(|b| [HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]])
                .map(char::from)
                .collect()),
            0 => Ok(self.str()?.to_string()),
            _ => Err(CorruptData("unknown id kind")),
        }
    }

    /// Skips an id without decoding it.
    pub fn skip_id(&mut self) -> Result<(), CorruptData> {
        match self.byte()? {
            1 => self.bytes(8).map(|_| ()),
            0 => self.skip_str(),
            _ => Err(CorruptData("unknown id kind")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn values_round_trip(n in any::<usize>(), text in "\\PC{0,20}", id in "[0-9a-f]{16}|[a-z-]{1,20}") {
            let mut out = Vec::new();
            put_varint(&mut out, n);
            put_str(&mut out, &text);
            put_id(&mut out, &id);
            let mut r = Reader::new(&out);
            prop_assert_eq!(r.varint().unwrap(), n);
            prop_assert_eq!(r.str().unwrap(), text.as_str());
            prop_assert_eq!(r.id().unwrap(), id);
            prop_assert!(r.is_done());
        }

        /// Skipping a value leaves the reader where reading it does.
        #[test]
        fn skipping_lands_where_reading_does(text in "\\PC{0,20}", id in "[0-9a-f]{16}|[a-z-]{1,20}") {
            let mut out = Vec::new();
            put_id(&mut out, &id);
            put_str(&mut out, &text);
            put_id(&mut out, "after");
            let mut r = Reader::new(&out);
            r.skip_id().unwrap();
            r.skip_str().unwrap();
            prop_assert_eq!(r.id().unwrap(), "after");
            prop_assert!(r.is_done());
        }

        #[test]
        fn reading_arbitrary_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let mut r = Reader::new(&bytes);
            let _ = (r.varint(), r.count(4), r.str(), r.id(), r.opt_str(), r.skip_id(), r.skip_str());
        }
    }

    #[test]
    fn hex_ids_take_eight_bytes() {
        let mut out = Vec::new();
        put_id(&mut out, "0123456789abcdef");
        assert_eq!(out.len(), 9);
        assert_eq!(inflate(&compress(b"abc")).unwrap(), b"abc");
        assert!(inflate(b"\xff\xff not deflate").is_err());
    }
}
