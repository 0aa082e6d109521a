//! The dictionary and part-of-speech tables of a build, which `core`
//! stores, and the columns that index them per term or per entry (`core`'s
//! language column, the text blocks' entry columns,
//! [`super::texts`]).

use crate::codec::{CorruptData, Reader};
use crate::postings::{DictionaryRef, Posting};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The dictionary and part-of-speech tables of a build, which `core`
/// stores and the text blocks' columns index.
pub(super) struct Tables<'a> {
    pub(super) dictionaries: Vec<&'a DictionaryRef>,
    pub(super) parts: Vec<&'a str>,
    dictionary_index: HashMap<&'a str, usize>,
    part_index: HashMap<&'a str, usize>,
}

/// How many dictionaries and parts of speech the tables hold: what a
/// column that indexes them is checked against.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EntryTables {
    pub dictionaries: usize,
    pub parts: usize,
}

impl<'a> Tables<'a> {
    pub(super) fn of(postings: &'a [Posting]) -> Self {
        let dictionaries: BTreeMap<&str, &DictionaryRef> = postings
            .iter()
            .map(|p| (p.dictionary.id.as_str(), &*p.dictionary))
            .collect();
        let parts: BTreeSet<&str> = postings
            .iter()
            .filter_map(|p| p.part_of_speech.as_deref())
            .collect();
        Tables {
            dictionary_index: dictionaries
                .keys()
                .enumerate()
                .map(|(i, id)| (*id, i))
                .collect(),
            part_index: parts.iter().enumerate().map(|(i, p)| (*p, i)).collect(),
            dictionaries: dictionaries.into_values().collect(),
            parts: parts.into_iter().collect(),
        }
    }

    pub(super) fn sizes(&self) -> EntryTables {
        EntryTables {
            dictionaries: self.dictionaries.len(),
            parts: self.parts.len(),
        }
    }

    /// The table index of a posting's dictionary.
    pub(super) fn dictionary(&self, p: &Posting) -> usize {
        self.dictionary_index[p.dictionary.id.as_str()]
    }

    /// A posting's part of speech as its table index + 1, 0 for none.
    pub(super) fn part(&self, p: &Posting) -> usize {
        p.part_of_speech
            .as_deref()
            .map_or(0, |pos| self.part_index[pos] + 1)
    }
}

/// `values` (each below `bound`) as a column of 1 or 2 bytes per value.
pub(super) fn put_column(out: &mut Vec<u8>, bound: usize, values: impl Iterator<Item = usize>) {
    let width = if bound <= 1 << 8 { 1 } else { 2 };
    assert!(bound <= 1 << 16, "at most 65,536 dictionaries or parts");
    out.push(width as u8);
    for value in values {
        out.extend_from_slice(&value.to_le_bytes()[..width]);
    }
}

/// A column stored by [`put_column`] of `n` values, each below `bound`.
pub(super) fn read_column(
    r: &mut Reader<'_>,
    n: usize,
    bound: usize,
) -> Result<Vec<u16>, CorruptData> {
    let width = usize::from(r.byte()?);
    let bytes = r.bytes(n.checked_mul(width).ok_or(CorruptData("too large"))?)?;
    let values: Vec<u16> = match width {
        1 => bytes.iter().map(|&b| u16::from(b)).collect(),
        2 => bytes
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect(),
        _ => return Err(CorruptData("a column of another width")),
    };
    match values.iter().max() {
        Some(&max) if usize::from(max) >= bound => Err(CorruptData("a column value out of range")),
        _ => Ok(values),
    }
}
