//! Text blocks: the text of every term and the entries' own headwords
//! (where a dictionary writes one otherwise than its folded term: `École`
//! of `ecole`), cut by term number into blocks that are items of the
//! `terms` section after its FST blocks (issue 39). A cold instance reads
//! the blocks of the terms a query shows or checks by their text, not the
//! whole text of the index: terms are numbered most common first, so a
//! page of common words reads the first few blocks. Encoder and decoder
//! side by side.
//!
//! A block also holds what a page shows of each of its terms' entries
//! and `core` no longer does (issue 39: a cold instance read those columns
//! whole, most of the 4 MB of `core` at five million entries): its
//! dictionary, part of speech and audio flag.
//!
//! A block (deflated): `[terms][their lengths, varints][their text]`
//! `[own words][their ordinals: the first, then deltas, varints]`
//! `[their lengths, varints][their text]`
//! `[dictionary column][part-of-speech column][audio, a byte per entry]`,
//! a column as [`put_column`] writes it, one value per entry of the block's
//! terms in ordinal order.

use super::tables::{put_column, read_column, EntryTables, Tables};
use crate::codec::{compress, inflate, put_varint, CorruptData, Reader};
use crate::postings::Posting;
use std::ops::Range;

/// The bytes an entry adds to its block (its columns), counted with the
/// text when a block is cut.
const ENTRY_BYTES: usize = 3;

/// The text a block closes at: its terms' and their own headwords' bytes
/// reach it (about 3.5 KB deflated, one DynamoDB read unit, at five
/// million entries). Cut by bytes, not by terms: the most common terms
/// have the most entries, and so the most own headwords, and a page of
/// results or an autocomplete reads a few KB of text whatever its terms.
/// A query that checks terms all over the numbering by their text
/// (`contains`) reads most of the blocks, thousands at five million
/// entries, in one round trip of concurrent BatchGetItems.
pub const TEXT_BLOCK_BYTES: usize = 8_192;

/// The terms of each text block of `terms` (in term order, with their
/// ordinal ranges) and `postings` (in ordinal order), each closed when its
/// text reaches `block_bytes`.
pub(super) fn cut(
    postings: &[Posting],
    terms: &[(&str, Range<u32>)],
    block_bytes: usize,
) -> Vec<usize> {
    let mut counts = Vec::new();
    let (mut count, mut bytes) = (0, 0);
    for (term, range) in terms {
        let own = range.clone().map(|o| &postings[o as usize]);
        let own: usize = own
            .filter(|p| p.word() != p.folded())
            .map(|p| p.word().len())
            .sum();
        count += 1;
        bytes += term.len() + own + ENTRY_BYTES * range.len();
        if bytes >= block_bytes {
            counts.push(count);
            (count, bytes) = (0, 0);
        }
    }
    if count > 0 {
        counts.push(count);
    }
    counts
}

/// The text blocks of `terms` and `postings`, of `counts` terms each
/// ([`cut`]), their entries' columns indexing `tables`.
pub(super) fn encode(
    postings: &[Posting],
    terms: &[(&str, Range<u32>)],
    counts: &[usize],
    tables: &Tables<'_>,
) -> Vec<Vec<u8>> {
    let sizes = tables.sizes();
    let mut rest = terms;
    counts
        .iter()
        .map(|&n| {
            let (block, after) = rest.split_at(n);
            rest = after;
            let mut raw = Vec::new();
            put_varint(&mut raw, block.len());
            put_texts(&mut raw, block.iter().map(|(term, _)| *term));
            let entries = block[0].1.start..block[block.len() - 1].1.end;
            let own: Vec<(u32, &str)> = entries
                .map(|o| (o, &postings[o as usize]))
                .filter(|(_, p)| p.word() != p.folded())
                .map(|(o, p)| (o, p.word()))
                .collect();
            put_varint(&mut raw, own.len());
            let mut last = 0;
            for (o, _) in &own {
                put_varint(&mut raw, (o - last) as usize);
                last = *o;
            }
            put_texts(&mut raw, own.iter().map(|(_, word)| *word));
            let entries =
                &postings[block[0].1.start as usize..block[block.len() - 1].1.end as usize];
            let dictionaries = entries.iter().map(|p| tables.dictionary(p));
            put_column(&mut raw, sizes.dictionaries, dictionaries);
            put_column(
                &mut raw,
                sizes.parts + 1,
                entries.iter().map(|p| tables.part(p)),
            );
            raw.extend(entries.iter().map(|p| u8::from(p.has_audio)));
            compress(&raw)
        })
        .collect()
}

/// Texts as their lengths (varints), then their bytes.
fn put_texts<'a>(out: &mut Vec<u8>, texts: impl Iterator<Item = &'a str> + Clone) {
    for text in texts.clone() {
        put_varint(out, text.len());
    }
    for text in texts {
        out.extend_from_slice(text.as_bytes());
    }
}

/// `n` texts stored by [`put_texts`]: their text and where each ends.
fn read_texts(r: &mut Reader<'_>, n: usize) -> Result<(String, Vec<u32>), CorruptData> {
    let mut ends = Vec::with_capacity(n);
    let mut total = 0usize;
    for _ in 0..n {
        total = total
            .checked_add(r.varint()?)
            .filter(|&t| t <= r.remaining() && t <= u32::MAX as usize)
            .ok_or(CorruptData("texts longer than the data"))?;
        ends.push(total as u32);
    }
    let text = std::str::from_utf8(r.bytes(total)?).map_err(|_| CorruptData("invalid UTF-8"))?;
    if !ends.iter().all(|&end| text.is_char_boundary(end as usize)) {
        return Err(CorruptData("a text ends inside a character"));
    }
    Ok((text.to_string(), ends))
}

/// Text `k` of texts stored as `text` and where each ends.
fn nth<'t>(text: &'t str, ends: &[u32], k: usize) -> &'t str {
    let start = if k == 0 { 0 } else { ends[k - 1] as usize };
    &text[start..ends[k] as usize]
}

/// A text block, decoded.
pub(crate) struct TextBlock {
    term_text: String,
    term_ends: Vec<u32>,
    /// The ordinals that have an own headword, rising.
    own: Vec<u32>,
    own_text: String,
    own_ends: Vec<u32>,
    /// The first ordinal of the block's entries.
    first: u32,
    /// Per entry, in ordinal order: its dictionary's table index, its part
    /// of speech's + 1 (0 for none), whether it has audio (1 or 0).
    dictionary: Vec<u16>,
    part: Vec<u16>,
    audio: Vec<u8>,
}

impl TextBlock {
    /// A stored block, which must hold `terms` terms and the entries
    /// `entries`, whose columns must stay within `tables`.
    pub(crate) fn decode(
        stored: &[u8],
        terms: usize,
        entries: Range<u32>,
        tables: EntryTables,
    ) -> Result<Self, CorruptData> {
        let raw = inflate(stored)?;
        let mut r = Reader::new(&raw);
        if r.count(1)? != terms {
            return Err(CorruptData("a text block of another size"));
        }
        let (term_text, term_ends) = read_texts(&mut r, terms)?;
        let own_count = r.count(1)?;
        let mut own = Vec::with_capacity(own_count);
        let mut last = 0u32;
        for k in 0..own_count {
            let delta = u32::try_from(r.varint()?).map_err(|_| CorruptData("an ordinal"))?;
            last = match (k, delta) {
                (0, _) => delta,
                (_, 0) => return Err(CorruptData("own words out of order")),
                _ => last.checked_add(delta).ok_or(CorruptData("an ordinal"))?,
            };
            if !entries.contains(&last) {
                return Err(CorruptData("an own word of another block"));
            }
            own.push(last);
        }
        let (own_text, own_ends) = read_texts(&mut r, own_count)?;
        let n = entries.len();
        let dictionary = read_column(&mut r, n, tables.dictionaries)?;
        let part = read_column(&mut r, n, tables.parts + 1)?;
        let audio = r.bytes(n)?.to_vec();
        if audio.iter().any(|&a| a > 1) {
            return Err(CorruptData("an entry's audio flag"));
        }
        if !r.is_done() {
            return Err(CorruptData("trailing bytes in a text block"));
        }
        Ok(Self {
            term_text,
            term_ends,
            own,
            own_text,
            own_ends,
            first: entries.start,
            dictionary,
            part,
            audio,
        })
    }

    /// Where entry `ordinal` (one of the block's) is in its columns.
    fn at(&self, ordinal: u32) -> usize {
        let k = ordinal.checked_sub(self.first).map(|k| k as usize);
        k.filter(|&k| k < self.audio.len())
            .expect("an entry of the block")
    }

    /// The table index of entry `ordinal`'s dictionary.
    pub(crate) fn dictionary(&self, ordinal: u32) -> usize {
        usize::from(self.dictionary[self.at(ordinal)])
    }

    /// Entry `ordinal`'s part of speech as its table index + 1, 0 for none.
    pub(crate) fn part(&self, ordinal: u32) -> usize {
        usize::from(self.part[self.at(ordinal)])
    }

    pub(crate) fn has_audio(&self, ordinal: u32) -> bool {
        self.audio[self.at(ordinal)] == 1
    }

    /// The text of the block's `k`th term.
    pub(crate) fn term(&self, k: usize) -> &str {
        nth(&self.term_text, &self.term_ends, k)
    }

    /// The headword of entry `ordinal` as its dictionary writes it, when
    /// that is not its term.
    pub(crate) fn own_word(&self, ordinal: u32) -> Option<&str> {
        let k = self.own.binary_search(&ordinal).ok()?;
        Some(nth(&self.own_text, &self.own_ends, k))
    }

    /// Bytes held in memory.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.term_text.len()
            + self.own_text.len()
            + 4 * (self.term_ends.len() + self.own.len() + self.own_ends.len())
            + 5 * self.audio.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::tests::posting;

    /// Every term is in one block, in order; a block closes as soon as its
    /// text (terms and own headwords) reaches the size, and only then.
    #[test]
    fn blocks_close_when_their_text_reaches_the_size() {
        let words = [
            "Été", "ete", "chat", "Chat", "maison", "a", "Æble", "bb", "c",
        ];
        let postings: Vec<Posting> = words.iter().map(|w| posting(w, "a", w)).collect();
        let terms = crate::snapshot::term_ranges(&postings);
        let text = |(term, range): &(&str, Range<u32>)| -> usize {
            let own = range.clone().map(|o| &postings[o as usize]);
            term.len()
                + ENTRY_BYTES * range.len()
                + own
                    .filter(|p| p.word() != p.folded())
                    .map(|p| p.word().len())
                    .sum::<usize>()
        };
        for size in 1..40 {
            let counts = cut(&postings, &terms, size);
            assert_eq!(counts.iter().sum::<usize>(), terms.len(), "{size}");
            let mut rest = &terms[..];
            for (k, &n) in counts.iter().enumerate() {
                let (block, after) = rest.split_at(n);
                let bytes: Vec<usize> = block.iter().map(text).collect();
                let last = k == counts.len() - 1;
                assert!(
                    last || bytes.iter().sum::<usize>() >= size,
                    "{size}: reaches"
                );
                assert!(
                    bytes[..n - 1].iter().sum::<usize>() < size,
                    "{size}: not before"
                );
                rest = after;
            }
            let tables = Tables::of(&postings);
            let stored = encode(&postings, &terms, &counts, &tables);
            let mut first = 0;
            for (block, &n) in stored.iter().zip(&counts) {
                let entries = terms[first].1.start..terms[first + n - 1].1.end;
                assert!(TextBlock::decode(block, n, entries, tables.sizes()).is_ok());
                first += n;
            }
        }
    }

    /// Every truncation of a block, and every byte of it changed, decodes
    /// to an error or to a block, never a panic.
    #[test]
    fn a_damaged_text_block_is_an_error_not_a_panic() {
        let mut postings: Vec<Posting> = ["École", "ecole", "Été", "日本"]
            .iter()
            .enumerate()
            .map(|(i, w)| posting(w, ["a", "b"][i % 2], w))
            .collect();
        for (p, audio) in postings.iter_mut().zip([false, true, false, false]) {
            p.has_audio = audio;
            p.part_of_speech = None;
        }
        postings[2].part_of_speech = Some("n".into());
        let terms = [("ecole", 0..2), ("ete", 2..3), ("日本", 3..4)];
        let tables = Tables::of(&postings);
        let sizes = tables.sizes();
        let stored = encode(&postings, &terms, &cut(&postings, &terms, 1_000), &tables);
        let raw = inflate(&stored[0]).unwrap();
        let block = TextBlock::decode(&stored[0], 3, 0..4, sizes).unwrap();
        assert_eq!(
            [block.term(0), block.term(1), block.term(2)],
            ["ecole", "ete", "日本"]
        );
        assert_eq!(block.own_word(0), Some("École"));
        assert_eq!(block.own_word(1), None);
        assert_eq!(block.own_word(2), Some("Été"));
        // The entries' columns, in ordinal order.
        let dictionaries: Vec<usize> = (0..4).map(|o| block.dictionary(o)).collect();
        assert_eq!(dictionaries, [0, 1, 0, 1]);
        let parts: Vec<usize> = (0..4).map(|o| block.part(o)).collect();
        assert_eq!(parts, [0, 0, 1, 0]);
        let audio: Vec<bool> = (0..4).map(|o| block.has_audio(o)).collect();
        assert_eq!(audio, [false, true, false, false]);
        assert!(
            TextBlock::decode(&stored[0], 2, 0..4, sizes).is_err(),
            "another size"
        );
        assert!(
            TextBlock::decode(&stored[0], 3, 0..3, sizes).is_err(),
            "fewer entries"
        );
        let one_dictionary = EntryTables {
            dictionaries: 1,
            ..sizes
        };
        assert!(TextBlock::decode(&stored[0], 3, 0..4, one_dictionary).is_err());
        for end in 0..raw.len() {
            assert!(TextBlock::decode(&compress(&raw[..end]), 3, 0..4, sizes).is_err());
        }
        for at in 0..raw.len() {
            for value in [0, 1, 0x7f, 0x80, 0xff] {
                let mut changed = raw.clone();
                changed[at] = value;
                let _ = TextBlock::decode(&compress(&changed), 3, 0..4, sizes);
            }
        }
    }
}
