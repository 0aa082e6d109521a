//! The `records` section: per entry its id, preview and phonetic, deflated
//! in blocks of [`RECORD_BLOCK`] entries, so that a page of results inflates
//! only its own blocks. Encoder and decoder side by side.

use crate::search::codec::{compress, inflate, put_id, put_str, CorruptData, Reader};
use crate::search::postings::Posting;
use std::collections::HashMap;

/// Entries per compressed record block: small enough that a page inflates
/// little, large enough to compress previews well.
pub(crate) const RECORD_BLOCK: usize = 32;

/// `[u32 block count][u32 offset of each block, and the end][blocks]`, each
/// block the deflated ids, previews and phonetics of its entries.
pub(super) fn encode(postings: &[Posting]) -> Vec<u8> {
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
