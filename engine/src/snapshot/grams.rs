//! The `grams` section: for every 1- to [`GRAM_CHARS`]-character substring
//! of a term, the bitmap of the entries whose term contains it (`contains`
//! searches, patterns, the pieces of prefix typo searches), and per first
//! and last letter the entries whose term starts and ends with them
//! ([`ends_key`]), and each 3-character gram that starts within the first
//! [`PLACED_LAST_START`] characters keyed by where it starts
//! ([`placed_key`]), and per first character the entries whose term starts
//! with it ([`first_key`]). The grams are grouped by key range into parts of about
//! [`GRAM_PART_BYTES`], each an FST over its
//! grams and their bitmaps ([`KeyedPart`]), so that a query reads only the
//! parts of its own grams. Beside them, the bitmaps of the filters
//! ([`filter_keys`]: the entries of each dictionary, language, language
//! pair and part of speech, of each language or pair with each part of
//! speech, and those with audio), read by a filtered
//! query with its grams. Encoder and decoder side by side.

use super::parts::{store_keyed, KeyedPart, PartIndex};
use super::{PagedPart, Section};
use crate::codec::{bitmap_bytes, bitmap_of, CorruptData};
use crate::filters::Filters;
use crate::pattern::{ends_key, ends_length_key};
use crate::postings::Posting;
use roaring::RoaringBitmap;
use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use std::sync::Arc;

/// Substrings up to this many characters have their own bitmap; longer
/// `contains` queries intersect their grams of this length and check the
/// candidates. Four, so that a `contains` query of up to four letters (most
/// of those typed) is one bitmap, its total exact without a term's text
/// read: with three, `ouse` was the entries holding `ous` and `use`, each
/// candidate's text block read to check it (thousands of items cold).
pub(crate) const GRAM_CHARS: usize = 4;

/// Three-character grams that start at or before this character also have
/// a bitmap per start ([`placed_key`]): a prefix typo search's piece stands
/// in the term within its edits of where it stands in the query (a few
/// characters from the start), and the terms that hold it there are a
/// few hundred where those that hold it anywhere are thousands, each
/// checked against its text. Eight covers the pieces of two edits (from
/// the third character) and the first piece of three.
pub(crate) const PLACED_LAST_START: usize = 8;

/// The key of the entries whose term has the 3-character `gram` starting
/// at character `start` (at most [`PLACED_LAST_START`]): like [`ends_key`]
/// longer than any gram and below every letter, with a prefix of its own.
pub(crate) fn placed_key(gram: &str, start: usize) -> String {
    format!("\u{1}\u{3}{gram}{start}")
}

/// The key of the entries whose term starts with `first`: what a prefix
/// search of one character reads, where the terms under it span hundreds
/// of term blocks. Like [`placed_key`], with a prefix of its own.
pub(crate) fn first_key(first: char) -> String {
    format!("\u{1}\u{4}{first}")
}

/// Each 3-character gram of `term` that starts at or before
/// [`PLACED_LAST_START`], with its start.
fn placed_grams(term: &str) -> Vec<(&str, u8)> {
    let bounds = char_bounds(term);
    bounds[..bounds.len().min(PLACED_LAST_START + 4)]
        .windows(4)
        .zip(0u8..)
        .map(|(w, start)| (&term[w[0]..w[3]], start))
        .collect()
}

/// What a part of grams aims at. A query reads the bitmaps of a few grams,
/// the common ones larger than a part alone; the grams of a part are
/// neighbours by key, not by query, so smaller parts would mostly add
/// lines to the part index.
const GRAM_PART_BYTES: usize = 64 * 1024;

/// Where each character of `term` starts, and its end.
fn char_bounds(term: &str) -> Vec<usize> {
    term.char_indices()
        .map(|(i, _)| i)
        .chain([term.len()])
        .collect()
}

/// Every distinct substring of 1 to [`GRAM_CHARS`] characters.
fn grams_of(term: &str) -> BTreeSet<&str> {
    let bounds = char_bounds(term);
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

/// The grams a `contains` search of `needle` (folded) reads: the needle
/// itself up to [`GRAM_CHARS`] characters, else its distinct grams of that
/// length,
/// as the engine looks them up.
pub fn query_grams(needle: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = needle.char_indices().collect();
    if chars.len() <= GRAM_CHARS {
        return vec![needle];
    }
    let mut grams: Vec<&str> = (0..=chars.len() - GRAM_CHARS)
        .map(|i| {
            let end = chars.get(i + GRAM_CHARS).map_or(needle.len(), |c| c.0);
            &needle[chars[i].0..end]
        })
        .collect();
    grams.sort_unstable();
    grams.dedup();
    grams
}

/// The key of a filter's bitmap: like [`ends_key`] longer than any gram
/// and below every letter, and unlike it ended by a NUL, so that no value
/// is the start of another's key.
fn filter_key(kind: char, value: &str) -> String {
    format!("\u{1}\u{2}\u{2}{kind}{value}\u{0}")
}

fn source_key(dictionary_id: &str) -> String {
    filter_key('d', dictionary_id)
}

fn lang_key(source: &str, target: Option<&str>) -> String {
    match target {
        None => filter_key('l', source),
        Some(target) => filter_key('L', &format!("{source}\u{0}{target}")),
    }
}

/// Parts of speech compare trimmed and without ASCII case.
fn part_key(part_of_speech: &str) -> String {
    filter_key('p', &folded_part(part_of_speech))
}

fn folded_part(part_of_speech: &str) -> String {
    part_of_speech.trim().to_ascii_lowercase()
}

/// A language (or pair) and a part of speech together: their intersection
/// stored as one bitmap, so that a query with both reads one bitmap of
/// about the size of either, not both (the `lang=en` and `pos=noun`
/// bitmaps are 0.6 MB each at 5.27 M entries).
fn lang_part_key(source: &str, target: Option<&str>, part_of_speech: &str) -> String {
    let part = folded_part(part_of_speech);
    match target {
        None => filter_key('m', &format!("{source}\u{0}{part}")),
        Some(target) => filter_key('M', &format!("{source}\u{0}{target}\u{0}{part}")),
    }
}

fn audio_key() -> String {
    filter_key('a', "")
}

/// The keys of the bitmaps whose intersection is the entries that pass
/// `filters` (none for no filter): what a filtered query reads with its
/// grams.
pub fn filter_keys(filters: &Filters<'_>) -> Vec<String> {
    let mut keys = Vec::new();
    keys.extend(filters.source.map(source_key));
    match (filters.lang, filters.part_of_speech) {
        (Some(l), Some(part)) => keys.push(lang_part_key(&l.source, l.target.as_deref(), part)),
        (lang, part) => {
            keys.extend(lang.map(|l| lang_key(&l.source, l.target.as_deref())));
            keys.extend(part.map(part_key));
        }
    }
    if filters.has_audio {
        keys.push(audio_key());
    }
    keys
}

/// The keys of the filters an entry passes ([`filter_keys`]).
fn filter_keys_of(p: &Posting) -> Vec<String> {
    let d = &p.dictionary;
    let mut keys = vec![source_key(&d.id), lang_key(&d.source_lang, None)];
    let target = d.target_lang.as_deref();
    if target.is_some() {
        keys.push(lang_key(&d.source_lang, target));
    }
    if let Some(part) = p.part_of_speech.as_deref() {
        keys.push(part_key(part));
        keys.push(lang_part_key(&d.source_lang, None, part));
        if target.is_some() {
            keys.push(lang_part_key(&d.source_lang, target, part));
        }
    }
    if p.has_audio {
        keys.push(audio_key());
    }
    keys
}

/// The stored items: the part index (each part's key is its first gram),
/// then the parts ([`KeyedPart`]s), each gram's or filter's value its
/// bitmap.
pub(super) fn encode(postings: &[Posting], terms: &[(&str, Range<u32>)]) -> Vec<Vec<u8>> {
    let mut bitmaps: HashMap<&str, RoaringBitmap> = HashMap::new();
    let mut ends: HashMap<String, RoaringBitmap> = HashMap::new();
    let mut placed: HashMap<(&str, u8), RoaringBitmap> = HashMap::new();
    for (term, range) in terms {
        for gram in grams_of(term) {
            bitmaps.entry(gram).or_default().insert_range(range.clone());
        }
        for gram in placed_grams(term) {
            placed.entry(gram).or_default().insert_range(range.clone());
        }
        let mut chars = term.chars();
        let first = chars.next();
        if let Some(first) = first {
            ends.entry(first_key(first))
                .or_default()
                .insert_range(range.clone());
        }
        if let (Some(first), Some(last)) = (first, chars.next_back()) {
            ends.entry(ends_key(first, last))
                .or_default()
                .insert_range(range.clone());
            // Only a pattern of three `?` or more between the ends reads
            // these (shorter ones walk their few nodes).
            let length = chars.count() + 2;
            if length >= 5 {
                ends.entry(ends_length_key(first, last, length))
                    .or_default()
                    .insert_range(range.clone());
            }
        }
    }
    let mut filters: HashMap<String, RoaringBitmap> = HashMap::new();
    for (o, p) in (0u32..).zip(postings) {
        for key in filter_keys_of(p) {
            filters.entry(key).or_default().insert(o);
        }
    }
    let bitmaps = bitmaps
        .into_iter()
        .map(|(gram, bitmap)| (gram.to_string(), bitmap))
        .chain(ends)
        .chain(
            placed
                .into_iter()
                .map(|((gram, start), bitmap)| (placed_key(gram, start.into()), bitmap)),
        )
        .chain(filters);
    let mut sorted: Vec<(String, Vec<u8>)> = bitmaps
        .map(|(gram, mut bitmap)| {
            bitmap.optimize();
            (gram, bitmap_bytes(&bitmap))
        })
        .collect();
    sorted.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    store_keyed(sorted, GRAM_PART_BYTES)
}

/// One part of the `grams` section: the bitmaps of its grams,
/// deserialized when a query asks for one.
pub struct GramPart(KeyedPart);

impl PagedPart for GramPart {
    const SECTION: Section = Section::Grams;

    fn decode(_first_key: &[u8], bytes: Vec<u8>) -> Result<Self, CorruptData> {
        KeyedPart::decode(bytes).map(Self)
    }

    fn memory_bytes(&self) -> usize {
        self.0.memory_bytes()
    }
}

impl GramPart {
    fn entries(&self, gram: &str) -> Result<Option<RoaringBitmap>, CorruptData> {
        let Some(bytes) = self.0.get(gram.as_bytes())? else {
            return Ok(None);
        };
        bitmap_of(bytes, "gram bitmap").map(Some)
    }
}

/// The parts of the `grams` section that a reader holds, with the index
/// that says which part holds a gram.
pub struct Grams {
    index: Arc<PartIndex>,
    parts: HashMap<usize, Arc<GramPart>>,
}

impl Grams {
    pub fn new(index: Arc<PartIndex>, parts: HashMap<usize, Arc<GramPart>>) -> Self {
        Self { index, parts }
    }

    /// The parts that hold these grams, each once, in order.
    pub fn parts_of(index: &PartIndex, grams: &[&str]) -> Vec<usize> {
        let parts: BTreeSet<usize> = grams.iter().map(|g| index.part_of(g.as_bytes())).collect();
        parts.into_iter().collect()
    }

    /// The entries whose term contains `gram` (at most [`GRAM_CHARS`]
    /// characters); `None` when there are none. Its part must be held
    /// ([`Grams::parts_of`]).
    pub fn entries(&self, gram: &str) -> Result<Option<RoaringBitmap>, CorruptData> {
        let part = self.index.part_of(gram.as_bytes());
        self.parts
            .get(&part)
            .ok_or(CorruptData("grams part not loaded"))?
            .entries(gram)
    }

    /// The entries that pass `filters`, whose [`filter_keys`] must be
    /// held; `None` for no filter.
    pub fn admitted(&self, filters: &Filters<'_>) -> Result<Option<RoaringBitmap>, CorruptData> {
        let mut admitted: Option<RoaringBitmap> = None;
        for key in filter_keys(filters) {
            let entries = self.entries(&key)?.unwrap_or_default();
            admitted = Some(match admitted {
                None => entries,
                Some(before) => before & entries,
            });
        }
        Ok(admitted)
    }

    /// Bytes of the parts held.
    pub fn memory_bytes(&self) -> usize {
        self.parts.values().map(|p| p.memory_bytes()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::posting;
    use super::super::{build, rank_order};
    use super::*;
    use crate::filters::LangFilter;
    use crate::lexicon::Lexicon;
    use crate::pattern::Pattern;

    #[test]
    fn grams_are_every_substring_of_one_to_four_characters() {
        let grams: Vec<&str> = grams_of("écol").into_iter().collect();
        assert_eq!(
            grams,
            ["c", "co", "col", "l", "o", "ol", "é", "éc", "éco", "écol"]
        );
        let all = rank_order(
            vec![posting("ecole", "d", "1"), posting("col", "d", "2")],
            &Lexicon::default(),
        );
        let grams: Grams = build(all, &Lexicon::default()).decode().unwrap();
        assert_eq!(grams.entries("col").unwrap().unwrap().len(), 2);
        assert_eq!(grams.entries("ec").unwrap().unwrap().len(), 1);
        assert_eq!(grams.entries("cole").unwrap().unwrap().len(), 1);
        assert!(grams.entries("xyz").unwrap().is_none());
        // Per first and last letter: `ecole` and `col` end alike but start
        // apart; the key is longer than any gram, so it names no substring.
        assert_eq!(
            grams.entries(&ends_key('e', 'e')).unwrap().unwrap().len(),
            1
        );
        assert_eq!(
            grams.entries(&ends_key('c', 'l')).unwrap().unwrap().len(),
            1
        );
        assert!(grams.entries(&ends_key('c', 'e')).unwrap().is_none());
        // Per 3-character gram and start, up to `PLACED_LAST_START`.
        let placed = |gram: &str, start| grams.entries(&placed_key(gram, start)).unwrap();
        assert_eq!(placed("eco", 0).unwrap().len(), 1);
        assert_eq!(placed("col", 0).unwrap().len(), 1, "`col` itself");
        assert_eq!(placed("col", 1).unwrap().len(), 1, "`ecole`");
        assert_eq!(placed("ole", 2).unwrap().len(), 1);
        assert!(placed("col", 2).is_none());
        assert!(placed("cole", 1).is_none(), "three characters only");
        assert!(placed_key("abc", PLACED_LAST_START).chars().count() > GRAM_CHARS);
        let long = "abcdefghijklmnop";
        let starts: Vec<(&str, u8)> = placed_grams(long);
        assert_eq!(starts.len(), PLACED_LAST_START + 1);
        assert_eq!(starts[PLACED_LAST_START], ("ijk", PLACED_LAST_START as u8));
        assert_eq!(placed_grams("ab"), []);
        // Per first character.
        let first = |c| grams.entries(&first_key(c)).unwrap();
        assert_eq!(first('e').unwrap().len(), 1);
        assert_eq!(first('c').unwrap().len(), 1);
        assert!(first('o').is_none());
        assert!(first_key('a').chars().count() > 2);
        assert!(ends_key('a', 'b').chars().count() > GRAM_CHARS);
        assert!(audio_key().chars().count() > GRAM_CHARS);
        assert_eq!(query_grams("ec"), ["ec"]);
        assert_eq!(query_grams("écol"), ["écol"]);
        assert_eq!(query_grams("écolé"), ["colé", "écol"]);
        // A pattern's grams are those a `contains` search of each run reads.
        assert_eq!(crate::pattern::GRAM_CHARS, GRAM_CHARS);
        let pattern = Pattern::parse("*écolé?ab*").unwrap();
        assert_eq!(pattern.needed_grams(), ["ab", "cole", "ecol"]);
        let mut wanted: Vec<&str> = query_grams("ecole");
        wanted.extend(query_grams("ab"));
        wanted.sort_unstable();
        assert_eq!(pattern.needed_grams(), wanted);
    }

    #[test]
    fn a_language_with_a_part_of_speech_is_one_bitmap_of_their_intersection() {
        let mut all = vec![
            posting("maison", "fra-eng", "1"),
            posting("salle", "fra-eng", "2"),
            posting("mot", "fra-eng", "3"),
            posting("casa", "spa-eng", "4"),
        ];
        all[3].dictionary = Arc::new(crate::postings::DictionaryRef {
            id: "spa-eng".into(),
            source_lang: "es".into(),
            target_lang: Some("en".into()),
        });
        let all = rank_order(all, &Lexicon::default());
        let grams: Grams = build(all, &Lexicon::default()).decode().unwrap();
        let fr = LangFilter::parse("fr").unwrap();
        let fr_en = LangFilter::parse("FR-en").unwrap();
        let filters = |lang, part| Filters {
            lang,
            part_of_speech: part,
            ..Filters::default()
        };
        for lang in [&fr, &fr_en] {
            let both = filters(Some(lang), Some(" Noun"));
            assert_eq!(filter_keys(&both).len(), 1, "{lang:?}");
            let alone = grams.admitted(&filters(Some(lang), None)).unwrap().unwrap();
            let part = grams
                .admitted(&filters(None, Some("noun")))
                .unwrap()
                .unwrap();
            let together = grams.admitted(&both).unwrap().unwrap();
            assert_eq!(together, alone & part, "{lang:?}");
            assert_eq!(together.len(), 2, "maison and salle, not mot or casa");
        }
        let none = grams.admitted(&filters(Some(&fr), Some("verb"))).unwrap();
        assert_eq!(none.map(|b| b.len()), Some(0));
    }
}
