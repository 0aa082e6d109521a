//! Values keyed by a folded text, stored in buckets by a hash of the text
//! rather than in key order behind an index: a reader who knows the text
//! knows its bucket from the bucket count alone, so a cold instance reads
//! it with whatever it reads first, not one round trip after an index.
//! What `pronunciations` ([`super::pronunciations`]) and the capitalisation
//! of mixed texts ([`super::capitals`]) are stored in.
//!
//! A bucket (deflated): `[varint count]` then per text, in text order,
//! `[str text][varint length][value]`.

use super::MAX_PART_BYTES;
use crate::codec::{compress, inflate, put_str, put_varint, CorruptData, Reader};

/// The raw bytes a bucket holds on average: about 8 KB deflate to one or
/// two read units. (In the tests a few texts, so that every test build has
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

/// One bucket, inflated.
pub struct Bucket(Vec<u8>);

impl Bucket {
    /// A stored bucket, checked whole: every text and value within it.
    pub fn decode(bytes: &[u8]) -> Result<Self, CorruptData> {
        let bucket = Self(inflate(bytes)?);
        bucket.value(None)?;
        Ok(bucket)
    }

    /// An empty bucket: that of a build with nothing to store.
    pub fn empty() -> Self {
        Self(vec![0])
    }

    /// The value of `text` (folded), if the bucket holds it. This must be
    /// the bucket of `text` ([`bucket_of`]).
    pub fn get(&self, text: &str) -> Result<Option<&[u8]>, CorruptData> {
        self.value(Some(text))
    }

    /// The value of `text`, or every value read and none found when
    /// `text` is `None`.
    fn value(&self, text: Option<&str>) -> Result<Option<&[u8]>, CorruptData> {
        let mut reader = Reader::new(&self.0);
        for _ in 0..reader.count(3)? {
            let (key, len) = (reader.str()?, reader.varint()?);
            let value = reader.bytes(len)?;
            if Some(key) == text {
                return Ok(Some(value));
            }
        }
        match reader.is_done() {
            true => Ok(None),
            false => Err(CorruptData("trailing bytes in a bucket")),
        }
    }

    /// Bytes held in memory.
    pub fn memory_bytes(&self) -> usize {
        self.0.capacity()
    }

    /// Whether it holds no text.
    #[cfg(test)]
    pub(super) fn is_empty(&self) -> bool {
        self.0 == [0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text is found in the bucket its hash names, whatever the
    /// number of buckets; a text not stored, in any bucket, has no value.
    #[test]
    fn every_text_is_in_the_bucket_of_its_hash() {
        let texts: Vec<String> = (0..500).map(|i| format!("word{i}")).collect();
        let stored: Vec<(&str, Vec<u8>)> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| (t.as_str(), i.to_string().into_bytes()))
            .collect();
        let items = encode(stored);
        assert!(items.len() > 50, "{} buckets", items.len());
        let buckets: Vec<Bucket> = items.iter().map(|b| Bucket::decode(b).unwrap()).collect();
        for (i, text) in texts.iter().enumerate() {
            let bucket = &buckets[bucket_of(text, items.len())];
            assert_eq!(bucket.get(text).unwrap(), Some(i.to_string().as_bytes()));
        }
        for bucket in &buckets {
            assert_eq!(bucket.get("absent").unwrap(), None);
        }
        let filled = buckets.iter().filter(|b| !b.is_empty()).count();
        assert!(
            filled * 10 >= buckets.len() * 9,
            "{filled} of {} buckets hold a text",
            buckets.len()
        );
    }

    #[test]
    fn nothing_to_store_is_one_empty_bucket() {
        let items = encode(Vec::new());
        assert_eq!(items.len(), 1);
        assert!(Bucket::decode(&items[0]).unwrap().is_empty());
        assert_eq!(Bucket::empty().get("cat").unwrap(), None);
    }

    /// A damaged bucket is an error when it is read, not a panic later.
    #[test]
    fn a_damaged_bucket_is_refused_when_read() {
        let items = encode(vec![("cat", vec![1, 2, 3]), ("dog", vec![4])]);
        let raw = inflate(&items[0]).unwrap();
        for end in 0..raw.len() {
            assert!(
                Bucket::decode(&compress(&raw[..end])).is_err(),
                "cut at {end}"
            );
        }
        let mut longer = raw.clone();
        longer.push(0);
        assert!(Bucket::decode(&compress(&longer)).is_err());
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
