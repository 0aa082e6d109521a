//! The `core` section, decoded together with `forms` and the root of
//! `terms` ([`super::terms`], whose blocks are read as queries need them)
//! into the [`Index`] that every search, autocomplete and random request
//! reads. `core` (deflate): the dictionary and part-of-speech tables, and
//! per term its entry count and its Zipf frequency × 100 (0 when no list
//! has it). The words of each text of several languages are chained in
//! the term blocks that hold the text ([`super::later_words`]), and the
//! capitalisation of the texts that mix it is in buckets of `terms`
//! ([`super::capitals`]), read by the searches of their text. The rest of what is per
//! entry (dictionary, part of speech, audio) and so each term's language
//! (its entries' dictionaries') is in the text blocks ([`super::texts`]),
//! and the filters' bitmaps in `grams` ([`super::grams`]), each read as
//! queries need them (issue 39); so is the text of the terms and
//! headwords.
//! Encoder and decoder side by side.
//!
//! Stored by column, so that a cold instance decodes it with a few bulk
//! copies instead of a loop over every term:
//!
//! `[version][tables][terms][entries][longest term, chars]`
//! `[entry counts, varints][frequencies listed][frequencies, varints]`

use super::capitals::CapitalBucket;
use super::forms::Lemma;
use super::tables::{EntryTables, Tables};
use super::terms::{BlockBudget, Missing, TermDictionary};
use super::texts::TextBlock;
use crate::codec::{compress, inflate, put_varint, CorruptData, Reader};
use crate::postings::{put_tables, read_tables, DictionaryRef, Posting};
use roaring::RoaringBitmap;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

/// Version 2 numbers terms by commonness first and has a `forms` section;
/// version 3 gives every term its frequency; version 4 is stored by column;
/// version 5 leaves the text to the text blocks; version 6 makes a term a
/// word (a folded headword in one language) and chains the words of a text;
/// version 7 leaves the entries' dictionary, part-of-speech and audio to the
/// text blocks and gives every term its language; version 8 leaves the
/// terms' languages to the text blocks too, and keeps the capitalisation
/// of the texts that mix it only; version 9 leaves that to the buckets of
/// `terms`; version 10 leaves the chains of the texts' words to the term
/// blocks.
const CORE_VERSION: u8 = 10;

/// The `core` section of `postings` (in rank order), whose `terms` are
/// their words' folded headwords with their ordinal ranges, in the same
/// order, and `frequencies` each term's Zipf frequency × 100.
pub(super) fn encode_core(
    postings: &[Posting],
    terms: &[(&str, Range<u32>)],
    frequencies: &[u16],
    tables: &Tables<'_>,
) -> Vec<u8> {
    assert_eq!(terms.len(), frequencies.len(), "a frequency per term");
    let mut core = vec![CORE_VERSION];
    put_tables(&mut core, &tables.dictionaries, &tables.parts);
    put_varint(&mut core, terms.len());
    put_varint(&mut core, postings.len());
    let longest = terms.iter().map(|(t, _)| t.chars().count()).max();
    put_varint(&mut core, longest.unwrap_or(0));
    for (_, range) in terms {
        put_varint(&mut core, range.len());
    }
    let listed = frequencies
        .iter()
        .rposition(|&f| f > 0)
        .map_or(0, |last| last + 1);
    put_varint(&mut core, listed);
    for &frequency in &frequencies[..listed] {
        put_varint(&mut core, usize::from(frequency));
    }
    compress(&core)
}

/// The `core`, `terms` and `forms` sections, decoded: what every search,
/// autocomplete and random request reads, and only that (what an instance
/// keeps between requests is the [`crate::engine::Searcher`]'s).
pub struct Index {
    dictionaries: Vec<DictionaryRef>,
    parts: Vec<String>,
    /// The first ordinal of every term, and the number of entries last.
    term_first: Vec<u32>,
    /// The most characters of any term.
    longest_term_chars: usize,
    /// Every term's Zipf frequency × 100, up to the last listed one: terms
    /// are numbered most common first, so those after it are all 0.
    term_frequency: Vec<u16>,
    /// The term dictionary, forwards and backwards, the text blocks and
    /// the forms.
    terms: TermDictionary,
}

impl Index {
    /// Decodes the `core` section and the root item of `terms`; the term
    /// blocks it reads are kept within `budget`.
    pub fn decode(
        core: &[u8],
        terms_root: &[u8],
        budget: BlockBudget,
    ) -> Result<Self, CorruptData> {
        let raw = inflate(core)?;
        let mut r = Reader::new(&raw);
        if r.byte()? != CORE_VERSION {
            return Err(CorruptData(
                "snapshot of another version: run dictadmin index",
            ));
        }
        let (dictionaries, parts) = read_tables(&mut r)?;
        if dictionaries.len() > usize::from(u16::MAX) || parts.len() >= usize::from(u16::MAX) {
            return Err(CorruptData("too many dictionaries or parts of speech"));
        }
        let term_count = r.count(1)?;
        // Not a count of what follows (the entries' columns are in the text
        // blocks): the terms' entry counts must add up to it.
        let entries = r.varint()?;
        if entries > u32::MAX as usize {
            return Err(CorruptData("more entries than an ordinal counts"));
        }
        let longest_term_chars = r.varint()?;
        let mut term_first = Vec::with_capacity(term_count + 1);
        let mut first = 0usize;
        for _ in 0..term_count {
            term_first.push(first as u32);
            first = match r.varint()? {
                0 => return Err(CorruptData("empty term")),
                count => first
                    .checked_add(count)
                    .filter(|&f| f <= entries)
                    .ok_or(CorruptData("more entries than the core holds"))?,
            };
        }
        if first != entries {
            return Err(CorruptData("fewer entries than the core holds"));
        }
        term_first.push(first as u32);
        let listed = r.count(1)?;
        if listed > term_count {
            return Err(CorruptData("more frequencies than terms"));
        }
        let term_frequency = (0..listed)
            .map(|_| {
                u16::try_from(r.varint()?).map_err(|_| CorruptData("a term frequency out of range"))
            })
            .collect::<Result<Vec<u16>, _>>()?;
        if !r.is_done() {
            return Err(CorruptData("trailing bytes in the core section"));
        }
        let tables = EntryTables {
            dictionaries: dictionaries.len(),
            parts: parts.len(),
        };
        let terms = TermDictionary::decode(terms_root, budget, tables)?;
        if terms.len() != term_count {
            return Err(CorruptData("terms FST does not match the core"));
        }
        // Each text block's entries are its terms'.
        for (t, first) in terms.text_bounds() {
            if term_first.get(t) != Some(&first) {
                return Err(CorruptData("text blocks of other entries"));
            }
        }
        Ok(Self {
            dictionaries,
            parts,
            term_first,
            longest_term_chars,
            term_frequency,
            terms,
        })
    }

    /// Keeps at most `budget` bytes of term blocks from now on (what it
    /// held is let go).
    pub fn keep_term_blocks_within(&mut self, budget: BlockBudget) {
        self.terms.keep_within(budget);
    }

    pub fn longest_term_chars(&self) -> usize {
        self.longest_term_chars
    }

    /// The term number of a folded headword, if it is one; [`Missing`]
    /// when the instance does not hold the block that says.
    pub fn term_number(&self, term: &str) -> Result<Option<usize>, Missing> {
        Ok(self.terms.term_number(term)?.map(|t| t as usize))
    }

    /// The term numbers of folded `words` (each `None` when it is no
    /// term); [`Missing`] with the blocks of all of them not held.
    pub fn term_numbers(&self, words: &[String]) -> Result<Vec<Option<usize>>, Missing> {
        let mut missing = Missing::default();
        let numbers = words
            .iter()
            .map(|w| missing.noted(self.term_number(w)))
            .collect();
        missing.into_result().map(|()| numbers)
    }

    pub fn entries(&self) -> u32 {
        *self.term_first.last().expect("at least the end")
    }

    pub fn term_count(&self) -> usize {
        self.term_first.len() - 1
    }

    /// The text blocks of `terms` (term numbers below [`Index::term_count`]):
    /// what [`Texts`] reads their text and their entries' headwords from;
    /// [`Missing`] with the blocks not held.
    pub fn texts(&self, terms: impl IntoIterator<Item = usize>) -> Result<Texts<'_>, Missing> {
        let mut missing = Missing::default();
        let mut blocks = HashMap::new();
        for t in terms {
            let (item, _) = self.terms.text_place(t);
            if blocks.contains_key(&item) {
                continue;
            }
            if let Some(block) = self.terms.text_block(item, &mut missing) {
                blocks.insert(item, block);
            }
        }
        missing.into_result()?;
        Ok(Texts {
            index: self,
            blocks,
        })
    }

    /// The text blocks of the terms of these entries ([`Index::texts`]).
    pub fn texts_of_entries(&self, ordinals: &[u32]) -> Result<Texts<'_>, Missing> {
        self.texts(ordinals.iter().map(|&o| self.term_of(o)))
    }

    /// The text of term `t`, if its text block is held.
    pub fn term(&self, t: usize) -> Result<String, Missing> {
        Ok(self.texts([t])?.term(t).to_string())
    }

    /// The headword of an entry as its dictionary writes it, if its text
    /// block is held.
    pub fn word(&self, ordinal: u32) -> Result<String, Missing> {
        Ok(self.texts_of_entries(&[ordinal])?.word(ordinal).to_string())
    }

    /// The Zipf frequency × 100 of term `t` (its commonness, when a
    /// frequency list has it), 0 when no list of its languages has it.
    pub fn term_frequency(&self, t: usize) -> u16 {
        self.term_frequency.get(t).copied().unwrap_or(0)
    }

    /// The ordinals of term `t`.
    pub fn term_entries(&self, t: usize) -> Range<u32> {
        self.term_first[t]..self.term_first[t + 1]
    }

    /// The terms of the text whose first term is `t`, as a lookup or a
    /// walk of the term dictionary found it (the block it was found in
    /// chains them): `t`, then the same folded headword in each other
    /// language, most common first.
    pub fn text_terms(&self, t: usize) -> std::vec::IntoIter<usize> {
        self.terms.text_terms(t).into_iter()
    }

    /// The entries of the text whose first term is `t`, every language's.
    pub fn text_entries(&self, t: usize) -> RoaringBitmap {
        self.texts_entries([t])
    }

    /// The entries of the texts whose first terms are `terms`.
    pub(crate) fn texts_entries(&self, terms: impl IntoIterator<Item = usize>) -> RoaringBitmap {
        let mut entries = RoaringBitmap::new();
        for t in terms {
            for t in self.text_terms(t) {
                entries.insert_range(self.term_entries(t));
            }
        }
        entries
    }

    /// The term of an ordinal.
    pub fn term_of(&self, ordinal: u32) -> usize {
        self.term_first.partition_point(|&first| first <= ordinal) - 1
    }

    /// The capitalisation bucket of the folded text `text`, which splits
    /// its entries ([`CapitalBucket::not_capitalised_as`]); [`Missing`]
    /// names it when not held.
    pub(crate) fn capital_bucket(&self, text: &str) -> Result<Arc<CapitalBucket>, Missing> {
        self.terms.capital_bucket(text)
    }

    /// The lemmas of an inflected (folded) form, most common first; none for
    /// a word that is no form of another. [`Missing`] names the blocks it
    /// reads and the instance does not hold.
    pub fn lemmas(&self, form: &str) -> Result<Vec<Lemma<'_>>, Missing> {
        self.terms.lemmas(form)
    }

    /// The lemmas of the form whose value in either forms FST is `value`
    /// (what a typo walk over the forms reaches); none, noted in `missing`,
    /// when they are in overflow items not held.
    pub(crate) fn lemmas_of(&self, value: u64, missing: &mut Missing) -> Vec<Lemma<'_>> {
        self.terms.lemmas_of(value, missing)
    }

    /// Whether some form can be within `edits` of a query of `chars`
    /// characters.
    pub(crate) fn form_within_reach(&self, chars: usize, edits: usize) -> bool {
        self.terms.form_within_reach(chars, edits)
    }

    /// Every inflected form the snapshot knows, alphabetically (for tools
    /// that draw forms at random, such as the latency benchmark), once
    /// every forward form block is held.
    pub fn forms(&self) -> Result<Vec<String>, Missing> {
        self.terms.forms()
    }

    /// The entries of a lemma: those of its word, the lemma in the
    /// dictionaries of its language.
    pub(crate) fn lemma_entries(&self, lemma: Lemma<'_>) -> RoaringBitmap {
        let mut entries = RoaringBitmap::new();
        if lemma.term < self.term_count() {
            entries.insert_range(self.term_entries(lemma.term));
        }
        entries
    }

    /// The term dictionary, forwards and spelled backwards, in blocks.
    pub fn term_dictionary(&self) -> &TermDictionary {
        &self.terms
    }

    /// Bytes held in memory (approximate: the large arrays and bitmaps).
    pub fn memory_bytes(&self) -> usize {
        4 * self.term_first.len() + 2 * self.term_frequency.len() + self.terms.memory_bytes()
    }
}

/// The text of some terms and the headwords of their entries, from the
/// text blocks an [`Index::texts`] call found held.
pub struct Texts<'a> {
    index: &'a Index,
    blocks: HashMap<usize, Arc<TextBlock>>,
}

impl Texts<'_> {
    fn block_of(&self, t: usize) -> (&TextBlock, usize) {
        let (item, k) = self.index.terms.text_place(t);
        let block = self.blocks.get(&item);
        (block.expect("texts asked for with their terms"), k)
    }

    /// The text of term `t`, one of the terms the texts were asked for.
    pub fn term(&self, t: usize) -> &str {
        let (block, k) = self.block_of(t);
        block.term(k)
    }

    /// The headword of an entry of those terms, as its dictionary writes it.
    pub fn word(&self, ordinal: u32) -> &str {
        let t = self.index.term_of(ordinal);
        let (block, k) = self.block_of(t);
        block.own_word(ordinal).unwrap_or_else(|| block.term(k))
    }

    /// The block of an entry of those terms.
    fn block_of_entry(&self, ordinal: u32) -> &TextBlock {
        self.block_of(self.index.term_of(ordinal)).0
    }

    /// The language of one of those terms (a word of one language): its
    /// entries' dictionaries' source language.
    pub fn term_lang(&self, t: usize) -> &str {
        let first = self.index.term_entries(t).start;
        &self.dictionary(first).source_lang
    }

    /// The dictionary of an entry of those terms.
    pub fn dictionary(&self, ordinal: u32) -> &DictionaryRef {
        &self.index.dictionaries[self.block_of_entry(ordinal).dictionary(ordinal)]
    }

    /// The part of speech of an entry of those terms.
    pub fn part_of_speech(&self, ordinal: u32) -> Option<&str> {
        match self.block_of_entry(ordinal).part(ordinal) {
            0 => None,
            n => Some(&self.index.parts[n - 1]),
        }
    }

    /// Whether an entry of those terms has audio.
    pub fn has_audio(&self, ordinal: u32) -> bool {
        self.block_of_entry(ordinal).has_audio(ordinal)
    }

    /// Whether the dictionary (by id) has an entry of term `t` (one of
    /// those terms): a word of one language, as a lemma is.
    pub fn dictionary_has_term(&self, dictionary_id: &str, t: usize) -> bool {
        self.index
            .term_entries(t)
            .any(|o| self.dictionary(o).id == dictionary_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::Lexicon;
    use crate::snapshot::tests::posting;
    use crate::snapshot::{build, Section};

    /// The capitalisation split of every text's entries puts those
    /// capitalised as the query was typed first, each part in ordinal order,
    /// as [`capitalised_as`](crate::fold::capitalised_as) on every headword
    /// would: capitals, lower case and first letters without case, in
    /// texts that mix them and in texts of one kind (which the buckets
    /// leave out).
    #[test]
    fn the_capitalisation_split_agrees_with_the_headwords() {
        let words = [
            "Été",
            "été",
            "日本",
            "1st",
            "ß",
            "'Tis",
            "-",
            "ΣΟΦΙΑ",
            "école",
            "Gift",
            "gift",
            "Haus",
        ];
        let german = DictionaryRef::new("freedict-deu-eng", "de", Some("en"));
        let all = words
            .iter()
            .enumerate()
            .map(|(i, w)| match w.starts_with(char::is_uppercase) && i >= 9 {
                // `Gift` and `Haus`: words of another language.
                true => Posting::headword(w, german.clone(), i.to_string()),
                false => posting(w, ["a", "b"][i % 2], &i.to_string()),
            })
            .collect();
        let built = build(
            crate::snapshot::rank_order(all, &Lexicon::default()),
            &Lexicon::default(),
        );
        let index = built.index().unwrap();
        let firsts: std::collections::BTreeSet<usize> = words
            .iter()
            .map(|w| index.term_number(&crate::fold::fold(w)).unwrap().unwrap())
            .collect();
        assert_eq!(firsts.len(), 10, "texts of one and of two headwords");
        for t in firsts {
            let entries = index.text_entries(t);
            let text = index.term(t).unwrap();
            let bucket = index.capital_bucket(&text).unwrap();
            for typed in [true, false] {
                let rest = bucket.not_capitalised_as(&text, &entries, typed).unwrap();
                let split: Vec<u32> = (&entries - &rest).iter().chain(&rest).collect();
                let mut expected: Vec<u32> = entries.iter().collect();
                expected.sort_by_key(|&o| {
                    !crate::fold::capitalised_as(&index.word(o).unwrap(), Some(typed))
                });
                assert_eq!(split, expected, "{text} {typed}");
            }
        }
    }

    /// Every truncation of a core section, and every byte of it changed,
    /// decodes to an error or to an index, never a panic: each column is
    /// checked against the tables and the entry count when it is read.
    #[test]
    fn a_damaged_core_is_an_error_not_a_panic() {
        let all = ["École", "ecole", "Maison", "chat", "Été"]
            .iter()
            .enumerate()
            .map(|(i, w)| posting(w, ["a", "b"][i % 2], &i.to_string()))
            .collect();
        let built = build(
            crate::snapshot::rank_order(all, &Lexicon::default()),
            &Lexicon::default(),
        );
        let raw = inflate(&built.section(Section::Core).concat()).unwrap();
        let root = &built.section(Section::Terms)[0];
        let decode = |raw: &[u8]| Index::decode(&compress(raw), root, BlockBudget::UNBOUNDED);
        assert!(decode(&raw).is_ok());
        for end in 0..raw.len() {
            assert!(decode(&raw[..end]).is_err(), "cut at {end}");
        }
        for at in 0..raw.len() {
            for value in [0, 1, 0x7f, 0x80, 0xff] {
                let mut changed = raw.clone();
                changed[at] = value;
                let _ = decode(&changed);
            }
        }
    }
}
