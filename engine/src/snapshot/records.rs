//! The `records` section: per entry its id, preview and phonetic, deflated
//! in blocks of [`RECORD_BLOCK`] entries, the blocks grouped into parts of
//! about [`RECORD_PART_BYTES`], so that a page of results reads only the
//! parts of its ordinals and inflates only their blocks. Encoder and
//! decoder side by side.

use super::parts::{group, PartIndex};
use super::{PagedPart, Section};
use crate::codec::{compress, inflate, put_id, put_str, CorruptData, Reader};
use crate::postings::Posting;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// Entries per compressed record block: small enough that a page inflates
/// little, large enough to compress previews well.
pub(crate) const RECORD_BLOCK: usize = 32;

/// What a part of records aims at: about ten blocks (a block is about 1.5
/// KB at millions of entries). A page whose results are spread over the
/// ordinals (typo tiers, random picks) reads a part per result: 16 KB each
/// instead of 64 (docs/benchmarks.md, "Parts sized per section"). Smaller
/// would make the part index, which a cold search reads whole, larger than
/// what a page saves.
pub(crate) const RECORD_PART_BYTES: usize = 16 * 1024;

/// The stored items: the part index (each part's key is its first ordinal,
/// big-endian so that keys sort as numbers), then the parts, each
/// `[u32 block count][u32 offset of each block, and the end][blocks]`, a
/// block the deflated ids, previews and phonetics of its entries.
pub(super) fn encode(postings: &[Posting]) -> Vec<Vec<u8>> {
    let blocks: Vec<Vec<u8>> = postings
        .chunks(RECORD_BLOCK)
        .map(|block| {
            let mut raw = Vec::new();
            for p in block {
                put_id(&mut raw, p.id());
                put_str(&mut raw, p.preview());
                put_str(&mut raw, p.phonetic().unwrap_or(""));
            }
            compress(&raw)
        })
        .collect();
    // Each part takes its blocks, which go once it is made: the section is
    // never held twice, as blocks and as parts.
    let ranges = group(blocks.iter().map(Vec::len), RECORD_PART_BYTES);
    let mut blocks = blocks.into_iter();
    let mut parts: Vec<(Vec<u8>, Vec<u8>)> = ranges
        .into_iter()
        .map(|range| {
            let first = (range.start * RECORD_BLOCK) as u32;
            let part: Vec<Vec<u8>> = blocks.by_ref().take(range.len()).collect();
            (first.to_be_bytes().to_vec(), encode_part(&part))
        })
        .collect();
    if parts.is_empty() {
        parts.push((0u32.to_be_bytes().to_vec(), encode_part(&[])));
    }
    PartIndex::store(parts)
}

fn encode_part(blocks: &[Vec<u8>]) -> Vec<u8> {
    let header = 4 * (blocks.len() + 2);
    let mut out = Vec::with_capacity(header + blocks.iter().map(Vec::len).sum::<usize>());
    out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    let mut at = header;
    for block in blocks {
        out.extend_from_slice(&(at as u32).to_le_bytes());
        at += block.len();
    }
    out.extend_from_slice(&(at as u32).to_le_bytes());
    for block in blocks {
        out.extend_from_slice(block);
    }
    out
}

/// What a search result shows of an entry beyond the [`Index`](super::Index).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub id: String,
    pub preview: String,
    pub phonetic: Option<String>,
}

/// One part of the `records` section: compressed blocks from its first
/// ordinal on, inflated a block at a time.
pub struct RecordPart {
    first: u32,
    bytes: Vec<u8>,
    blocks: usize,
}

impl PagedPart for RecordPart {
    const SECTION: Section = Section::Records;

    fn decode(first_key: &[u8], bytes: Vec<u8>) -> Result<Self, CorruptData> {
        let first = <[u8; 4]>::try_from(first_key)
            .map(u32::from_be_bytes)
            .map_err(|_| CorruptData("records part key"))?;
        if !(first as usize).is_multiple_of(RECORD_BLOCK) {
            return Err(CorruptData("records part starts inside a block"));
        }
        let blocks = read_u32(&bytes, 0)? as usize;
        let header = blocks
            .checked_add(2)
            .and_then(|n| n.checked_mul(4))
            .ok_or(CorruptData("records header"))?;
        if header > bytes.len() || read_u32(&bytes, 4 * (blocks + 1))? as usize != bytes.len() {
            return Err(CorruptData("records header"));
        }
        Ok(Self {
            first,
            bytes,
            blocks,
        })
    }

    fn memory_bytes(&self) -> usize {
        self.bytes.len()
    }
}

impl RecordPart {
    /// The inflated bytes of block `block` of this part.
    fn block(&self, block: usize) -> Result<Vec<u8>, CorruptData> {
        if block >= self.blocks {
            return Err(CorruptData("ordinal beyond the records"));
        }
        let start = read_u32(&self.bytes, 4 * (block + 1))? as usize;
        let end = read_u32(&self.bytes, 4 * (block + 2))? as usize;
        let compressed = self
            .bytes
            .get(start..end)
            .ok_or(CorruptData("record block out of range"))?;
        inflate(compressed)
    }
}

/// Record `at` of an inflated block: the records before it are skipped
/// unread (a page wants one or two records of a block of
/// [`RECORD_BLOCK`], and decoding ids is most of a block's cost).
fn record_of_block(raw: &[u8], at: usize) -> Result<Record, CorruptData> {
    let mut r = Reader::new(raw);
    for _ in 0..at {
        if r.is_done() {
            return Err(CorruptData("ordinal beyond its block"));
        }
        r.skip_id()?;
        r.skip_str()?;
        r.skip_str()?;
    }
    if r.is_done() {
        return Err(CorruptData("ordinal beyond its block"));
    }
    Ok(Record {
        id: r.id()?,
        preview: r.str()?.to_string(),
        phonetic: r.opt_str()?.map(str::to_string),
    })
}

/// The parts of the `records` section that a reader holds, with the index
/// that says which part holds an ordinal.
pub struct Records {
    index: Arc<PartIndex>,
    parts: HashMap<usize, Arc<RecordPart>>,
}

impl Records {
    pub fn new(index: Arc<PartIndex>, parts: HashMap<usize, Arc<RecordPart>>) -> Self {
        Self { index, parts }
    }

    /// The parts that hold these ordinals, each once, in order.
    pub fn parts_of(index: &PartIndex, ordinals: &[u32]) -> Vec<usize> {
        let parts: BTreeSet<usize> = ordinals
            .iter()
            .map(|o| index.part_of(&o.to_be_bytes()))
            .collect();
        parts.into_iter().collect()
    }

    /// The records of these ordinals, in the same order; their parts must
    /// be held ([`Records::parts_of`]).
    pub fn get(&self, ordinals: &[u32]) -> Result<Vec<Record>, CorruptData> {
        let mut inflated: HashMap<(usize, usize), Vec<u8>> = HashMap::new();
        ordinals
            .iter()
            .map(|&ordinal| {
                let p = self.index.part_of(&ordinal.to_be_bytes());
                let part = self
                    .parts
                    .get(&p)
                    .ok_or(CorruptData("records part not loaded"))?;
                let at = ordinal
                    .checked_sub(part.first)
                    .ok_or(CorruptData("ordinal before its part"))?
                    as usize;
                let block = at / RECORD_BLOCK;
                let raw = match inflated.entry((p, block)) {
                    std::collections::hash_map::Entry::Occupied(held) => held.into_mut(),
                    std::collections::hash_map::Entry::Vacant(slot) => {
                        slot.insert(part.block(block)?)
                    }
                };
                record_of_block(raw, at % RECORD_BLOCK)
            })
            .collect()
    }

    /// Bytes of the parts held.
    pub fn memory_bytes(&self) -> usize {
        self.parts.values().map(|p| p.memory_bytes()).sum()
    }
}

fn read_u32(bytes: &[u8], at: usize) -> Result<u32, CorruptData> {
    let b = bytes
        .get(at..at + 4)
        .ok_or(CorruptData("truncated header"))?;
    Ok(u32::from_le_bytes(b.try_into().expect("4 bytes")))
}

#[cfg(test)]
mod tests {
    use super::super::tests::posting;
    use super::super::{build, rank_order};
    use super::*;
    use crate::lexicon::Lexicon;
    use proptest::prelude::*;

    /// Postings whose previews barely compress, so that a few thousand
    /// entries make many parts; ids of both kinds (hex and text), some
    /// with a phonetic.
    fn postings(n: usize, seed: u64) -> Vec<Posting> {
        let mut state = seed | 1;
        let all = (0..n)
            .map(|i| {
                let id = match i % 3 {
                    0 => format!("{:016x}", (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)),
                    _ => format!("id-{i}"),
                };
                let mut p = posting(&format!("w{i}"), "d", &id).fields();
                p.phonetic = (i % 2 == 0).then(|| format!("/w{i}/"));
                p.preview = (0..120)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        char::from(b'a' + (state % 26) as u8)
                    })
                    .collect();
                p.into()
            })
            .collect();
        rank_order(all, &Lexicon::default())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]

        /// The part of an ordinal, against a walk over every part's range;
        /// a page read with only its parts held gives the same records as
        /// the postings.
        #[test]
        fn a_page_reads_the_parts_of_its_ordinals(
            n in 1usize..6000,
            seed in any::<u64>(),
            picks in proptest::collection::vec(any::<prop::sample::Index>(), 1..40),
        ) {
            let all = postings(n, seed);
            let built = build(all.clone(), &Lexicon::default());
            let items = built.section(Section::Records);
            let index = Arc::new(PartIndex::decode(&items[0]).unwrap());
            let mut ranges = Vec::new();
            for p in 0..index.len() {
                let first = u32::from_be_bytes(index.first_key(p).try_into().unwrap());
                let part = RecordPart::decode(index.first_key(p), items[index.part_items(p)].concat()).unwrap();
                ranges.push(first..first + (part.blocks * RECORD_BLOCK) as u32);
            }
            prop_assert_eq!(ranges.last().unwrap().end as usize, n.div_ceil(RECORD_BLOCK) * RECORD_BLOCK);
            let ordinals: Vec<u32> = picks.iter().map(|i| i.index(n) as u32).collect();
            let expected: std::collections::BTreeSet<usize> = ordinals
                .iter()
                .map(|o| ranges.iter().position(|r| r.contains(o)).unwrap())
                .collect();
            let parts = Records::parts_of(&index, &ordinals);
            prop_assert_eq!(&parts, &expected.into_iter().collect::<Vec<_>>());
            let held = parts
                .iter()
                .map(|&p| {
                    let bytes = items[index.part_items(p)].concat();
                    (p, Arc::new(RecordPart::decode(index.first_key(p), bytes).unwrap()))
                })
                .collect();
            let records = Records::new(index.clone(), held);
            let got = records.get(&ordinals).unwrap();
            for (o, record) in ordinals.iter().zip(got) {
                prop_assert_eq!(&record.id, &all[*o as usize].id());
                prop_assert_eq!(&record.preview, &all[*o as usize].preview());
                prop_assert_eq!(record.phonetic.as_deref(), all[*o as usize].phonetic());
            }
        }
    }

    #[test]
    fn records_are_grouped_into_parts_of_about_the_target() {
        let built = build(postings(8000, 7), &Lexicon::default());
        let items = built.section(Section::Records);
        let index = PartIndex::decode(&items[0]).unwrap();
        assert!(index.len() > 5, "{} parts", index.len());
        for p in 0..index.len() {
            assert!(index.part_bytes(p) <= RECORD_PART_BYTES);
        }
        let records: Records = built.decode().unwrap();
        let missing = Records::new(Arc::new(index), HashMap::new());
        assert!(missing.get(&[0]).is_err(), "a part not held is an error");
        assert_eq!(records.get(&[7999]).unwrap().len(), 1);
    }
}
