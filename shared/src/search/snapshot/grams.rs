//! The `grams` section: for every 1- to [`GRAM_CHARS`]-character substring
//! of a term, the bitmap of the entries whose term contains it (`contains`
//! searches), behind an FST. Encoder and decoder side by side.

use crate::search::codec::CorruptData;
use roaring::RoaringBitmap;
use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

/// Substrings up to this many characters have their own bitmap; longer
/// `contains` queries intersect their trigrams and check the candidates.
pub(crate) const GRAM_CHARS: usize = 3;

/// Every distinct substring of 1 to [`GRAM_CHARS`] characters.
fn grams_of(term: &str) -> BTreeSet<&str> {
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
pub(super) fn encode(terms: &[(&str, Range<u32>)]) -> Vec<u8> {
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
    use super::super::tests::posting;
    use super::super::{build, rank_order};
    use super::*;
    use crate::search::lexicon::Lexicon;

    #[test]
    fn grams_are_every_substring_of_one_to_three_characters() {
        let grams: Vec<&str> = grams_of("écol").into_iter().collect();
        assert_eq!(grams, ["c", "co", "col", "l", "o", "ol", "é", "éc", "éco"]);
        let all = rank_order(
            vec![posting("ecole", "d", "1"), posting("col", "d", "2")],
            &Lexicon::default(),
        );
        let grams: Grams = build(all, &Lexicon::default()).decode().unwrap();
        assert_eq!(grams.entries("col").unwrap().unwrap().len(), 2);
        assert_eq!(grams.entries("ec").unwrap().unwrap().len(), 1);
        assert!(grams.entries("xyz").unwrap().is_none());
    }
}
