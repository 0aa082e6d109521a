//! Word lists of a language that the index snapshot is built with beside the
//! dictionaries (docs/data-model.md, "Lexicon"): the **forms** of a language
//! (an inflected form and its lemma, from WordNet or Hunspell data), its
//! word **frequencies** (from wordfreq), its **stop words** (Snowball's
//! lists), which reverse lookup does not index, and the **pronunciations**
//! of its words that a synthesizer made (espeak-ng's IPA), which rhymes
//! compare beside the dictionaries' own. `dictadmin lexicon` stores them in
//! the entries table, compressed in chunks like a postings manifest;
//! `dictadmin index` reads them with one Query per list.

use super::codec::{compressed_chunks, inflate, put_str, put_varint, CorruptData, Reader};
use super::postings::MAX_CHUNK_BYTES;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, OnceLock};

/// What a list holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LexiconKind {
    /// Inflected form → lemma, both folded.
    Forms,
    /// Folded word → Zipf frequency × 100 (`the` in English: 773).
    Frequencies,
    /// Folded stop word → nothing (an empty string): words too common to
    /// find a definition by.
    StopWords,
    /// Folded word → its IPA, as espeak-ng speaks it (`cat` → `kˈat`).
    Pronunciations,
}

impl LexiconKind {
    pub const ALL: [LexiconKind; 4] = [
        LexiconKind::Forms,
        LexiconKind::Frequencies,
        LexiconKind::StopWords,
        LexiconKind::Pronunciations,
    ];

    pub fn name(self) -> &'static str {
        match self {
            LexiconKind::Forms => "forms",
            LexiconKind::Frequencies => "frequencies",
            LexiconKind::StopWords => "stop-words",
            LexiconKind::Pronunciations => "pronunciations",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// The listing record of one stored list: what it is and where it is from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexiconList {
    pub kind: LexiconKind,
    /// The language code, as dictionaries' `sourceLang` writes it (`en`).
    pub lang: String,
    /// Where the data comes from (package and version), shown in the docs.
    pub origin: String,
    pub licence: String,
    /// Pairs in the list.
    pub count: usize,
}

/// One pair of a list: (form, lemma) or (word, frequency as text).
pub type Pair = (String, String);

const VERSION: u8 = 1;

/// Encodes pairs into compressed chunks of at most [`MAX_CHUNK_BYTES`].
pub fn encode_chunks(pairs: &[Pair]) -> Vec<Vec<u8>> {
    compressed_chunks(pairs, MAX_CHUNK_BYTES, &|pairs: &[Pair]| {
        let mut raw = vec![VERSION];
        put_varint(&mut raw, pairs.len());
        for (a, b) in pairs {
            put_str(&mut raw, a);
            put_str(&mut raw, b);
        }
        raw
    })
}

pub fn decode_chunk(bytes: &[u8]) -> Result<Vec<Pair>, CorruptData> {
    let raw = inflate(bytes)?;
    let mut r = Reader::new(&raw);
    if r.byte()? != VERSION {
        return Err(CorruptData("lexicon chunk of another version"));
    }
    let count = r.count(2)?;
    let mut pairs = Vec::with_capacity(count);
    for _ in 0..count {
        pairs.push((r.str()?.to_string(), r.str()?.to_string()));
    }
    if !r.is_done() {
        return Err(CorruptData("trailing bytes in a lexicon chunk"));
    }
    Ok(pairs)
}

/// A Zipf frequency (log10 of occurrences per billion words) as stored:
/// hundredths, so that `7.73` is `773`.
pub fn zipf_centis(zipf: f64) -> u16 {
    (zipf * 100.0).round().clamp(0.0, f64::from(u16::MAX)) as u16
}

/// The lists an index is built with, by language, ready to look up.
#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    /// Language → its folded forms and their folded lemmas.
    pub forms: BTreeMap<String, Forms>,
    /// Language → folded word → Zipf frequency × 100.
    pub frequencies: BTreeMap<String, HashMap<String, u16>>,
    /// Language → its folded stop words.
    pub stop_words: BTreeMap<String, HashSet<String>>,
    /// Language → folded word → its IPA, made by a synthesizer.
    pub pronunciations: BTreeMap<String, WordTexts>,
}

/// Words and a text of each, all in one buffer: a build holds the
/// pronunciations of millions of words, which a map of two strings a word
/// held in about 120 bytes a word beside their text, this in 16. A word
/// added twice keeps its first text. Looked up by a binary search over
/// the words in order, sorted at the first lookup after an addition.
#[derive(Debug, Clone, Default)]
pub struct WordTexts {
    /// Each word followed by its text.
    bytes: String,
    /// Per pair in the order added: where its word starts, and the lengths
    /// of the word and the text.
    pairs: Vec<(u32, u32, u32)>,
    /// The pairs by word, the first added of each word alone.
    by_word: OnceLock<Vec<u32>>,
}

impl WordTexts {
    /// Adds `word` with `text`, unless it has one already.
    pub fn insert(&mut self, word: &str, text: &str) {
        let at = |len: usize| u32::try_from(len).expect("a word list fits 4 GB");
        self.pairs
            .push((at(self.bytes.len()), at(word.len()), at(text.len())));
        self.bytes.push_str(word);
        self.bytes.push_str(text);
        self.by_word.take();
    }

    /// The text of `word`, the first it was added with.
    pub fn get(&self, word: &str) -> Option<&str> {
        let by_word = self.by_word.get_or_init(|| {
            // A stable sort: of a word's pairs, the first added comes first.
            let mut order: Vec<u32> = (0..self.pairs.len() as u32).collect();
            order.sort_by(|&a, &b| self.word(a).cmp(self.word(b)));
            order.dedup_by(|a, b| self.word(*a) == self.word(*b));
            order
        });
        let found = by_word.binary_search_by(|&p| self.word(p).cmp(word)).ok()?;
        let (start, word_len, text_len) = self.pairs[by_word[found] as usize];
        let start = (start + word_len) as usize;
        Some(&self.bytes[start..start + text_len as usize])
    }

    fn word(&self, pair: u32) -> &str {
        let (start, len, _) = self.pairs[pair as usize];
        &self.bytes[start as usize..(start + len) as usize]
    }
}

/// A language's (form, lemma) pairs, each once, the forms in one buffer and
/// each lemma held once: a build holds ten million pairs at five million
/// entries, which a map of a boxed form to boxed lemmas held in about 100
/// bytes a pair, this in about 20 (docs/benchmarks.md). Looked up by a
/// binary search over the pairs in order, sorted at the first lookup after
/// an addition.
#[derive(Debug, Clone, Default)]
pub struct Forms {
    /// The forms, one after another as added.
    texts: String,
    /// Per pair in the order added: where its form starts in `texts`, the
    /// form's length, and its lemma's number.
    pairs: Vec<(u32, u32, u32)>,
    /// The lemmas by number, each once (a lemma has a dozen forms).
    lemmas: Vec<Arc<str>>,
    lemma_numbers: HashMap<Arc<str>, u32>,
    /// The pairs by (form, lemma), each pair once.
    in_order: OnceLock<Vec<u32>>,
}

impl Forms {
    /// Adds `form` of `lemma`.
    pub fn insert(&mut self, form: &str, lemma: &str) {
        let number = match self.lemma_numbers.get(lemma) {
            Some(&number) => number,
            None => {
                let number = u32::try_from(self.lemmas.len()).expect("lemmas fit 32 bits");
                let lemma: Arc<str> = lemma.into();
                self.lemmas.push(lemma.clone());
                self.lemma_numbers.insert(lemma, number);
                number
            }
        };
        let at = |len: usize| u32::try_from(len).expect("a list of forms fits 4 GB");
        self.pairs
            .push((at(self.texts.len()), at(form.len()), number));
        self.texts.push_str(form);
        self.in_order.take();
    }

    /// The pairs (form, lemma) in order, each once.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.in_order().iter().map(|&p| self.pair(p))
    }

    /// The forms in order, each once.
    pub fn forms(&self) -> impl Iterator<Item = &str> + '_ {
        let mut last = None;
        self.pairs()
            .map(|(form, _)| form)
            .filter(move |&form| last.replace(form) != Some(form))
    }

    /// The lemmas of `form`, in order (none when it is not a form).
    pub fn lemmas<'a>(&'a self, form: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        let in_order = self.in_order();
        let first = in_order.partition_point(|&p| self.pair(p).0 < form);
        in_order[first..]
            .iter()
            .map(|&p| self.pair(p))
            .take_while(move |(f, _)| *f == form)
            .map(|(_, lemma)| lemma)
    }

    /// Whether `word` is a form.
    pub fn contains(&self, word: &str) -> bool {
        self.lemmas(word).next().is_some()
    }

    /// Whether `word` is a lemma of a form added.
    pub fn has_lemma(&self, word: &str) -> bool {
        self.lemma_numbers.contains_key(word)
    }

    /// Keeps the pairs that `keep` says; gives the number let go of.
    pub fn retain(&mut self, mut keep: impl FnMut(&str, &str) -> bool) -> usize {
        let kept: Vec<u32> = self
            .in_order()
            .iter()
            .copied()
            .filter(|&p| {
                let (form, lemma) = self.pair(p);
                keep(form, lemma)
            })
            .collect();
        let dropped = self.in_order().len() - kept.len();
        self.pairs = kept.iter().map(|&p| self.pairs[p as usize]).collect();
        self.in_order = OnceLock::from((0..self.pairs.len() as u32).collect::<Vec<u32>>());
        dropped
    }

    fn in_order(&self) -> &[u32] {
        self.in_order.get_or_init(|| {
            let mut order: Vec<u32> = (0..self.pairs.len() as u32).collect();
            order.sort_unstable_by(|&a, &b| self.pair(a).cmp(&self.pair(b)));
            order.dedup_by(|a, b| self.pair(*a) == self.pair(*b));
            order
        })
    }

    fn pair(&self, pair: u32) -> (&str, &str) {
        let (start, len, lemma) = self.pairs[pair as usize];
        let form = &self.texts[start as usize..(start + len) as usize];
        (form, &self.lemmas[lemma as usize])
    }
}

/// Equal when they hold the same pairs, however added.
impl PartialEq for Forms {
    fn eq(&self, other: &Self) -> bool {
        self.pairs().eq(other.pairs())
    }
}

impl Lexicon {
    /// Adds a stored list's pairs. A frequency that does not parse is
    /// corrupt data.
    pub fn add(
        &mut self,
        kind: LexiconKind,
        lang: &str,
        pairs: Vec<Pair>,
    ) -> Result<(), CorruptData> {
        match kind {
            LexiconKind::Forms => {
                let forms = self.forms.entry(lang.to_string()).or_default();
                for (form, lemma) in pairs {
                    forms.insert(&form, &lemma);
                }
            }
            LexiconKind::Frequencies => {
                let words = self.frequencies.entry(lang.to_string()).or_default();
                for (word, centis) in pairs {
                    let centis: u16 = centis
                        .parse()
                        .map_err(|_| CorruptData("a frequency that is not a number"))?;
                    let held = words.entry(word).or_default();
                    *held = (*held).max(centis);
                }
            }
            LexiconKind::StopWords => {
                let words = self.stop_words.entry(lang.to_string()).or_default();
                words.extend(pairs.into_iter().map(|(word, _)| word));
            }
            LexiconKind::Pronunciations => {
                let words = self.pronunciations.entry(lang.to_string()).or_default();
                for (word, ipa) in pairs {
                    words.insert(&word, &ipa);
                }
            }
        }
        Ok(())
    }

    /// Whether `word` (folded) is a form or a lemma of `lang` in the lists
    /// added so far: the frequencies [`Lexicon::drop_misspelled_forms`]
    /// compares. A build that reads the frequency lists
    /// after the forms keeps only those and its terms' (the lists hold
    /// millions of words more).
    pub fn has_form_or_lemma(&self, lang: &str, word: &str) -> bool {
        self.forms
            .get(lang)
            .is_some_and(|f| f.contains(word) || f.has_lemma(word))
    }

    /// Drops the (form, lemma) pairs whose form differs only in doubled
    /// letters from the lemma or from another form of it at least ten times
    /// as common (a Zipf frequency 1.0 higher): the lookup tables keep
    /// common misspellings as forms (`acquited`, `begining`, `wass` of
    /// `be`), which would put their lemma before the word meant in the
    /// lemma tier. Variants of similar frequency stay (`travelled` and
    /// `traveled` are both forms of `travel`). Called once every list is
    /// added (the build, and the tests' oracles, read the lexicon so);
    /// gives the number of pairs dropped.
    pub fn drop_misspelled_forms(&mut self) -> usize {
        let mut dropped = 0;
        for (lang, forms) in &mut self.forms {
            let list = self.frequencies.get(lang);
            let frequency = |word: &str| list.and_then(|l| l.get(word)).copied().unwrap_or(0);
            // Each lemma's spellings: itself and its forms.
            let mut spellings: HashMap<&str, Vec<&str>> = HashMap::new();
            for (form, lemma) in forms.pairs() {
                spellings
                    .entry(lemma)
                    .or_insert_with(|| vec![lemma])
                    .push(form);
            }
            let mut misspelled: HashMap<String, Vec<String>> = HashMap::new();
            let found = forms
                .pairs()
                .filter(|(form, lemma)| {
                    let (spelling, floor) = (collapsed(form), frequency(form) + 100);
                    spellings[lemma].iter().any(|other| {
                        other != form && frequency(other) >= floor && collapsed(other) == spelling
                    })
                })
                .map(|(form, lemma)| (form.to_string(), lemma.to_string()));
            for (form, lemma) in found {
                misspelled.entry(form).or_default().push(lemma);
            }
            drop(spellings);
            if !misspelled.is_empty() {
                dropped += forms.retain(|form, lemma| {
                    misspelled
                        .get(form)
                        .is_none_or(|lemmas| !lemmas.iter().any(|l| l == lemma))
                });
            }
        }
        dropped
    }

    /// Keeps the frequencies of the words that `keep` names (a folded
    /// word and its language) and lets the others go: once the misspelled
    /// forms are dropped, a build reads only its terms' frequencies, and
    /// the lists hold millions of words more.
    pub fn keep_frequencies(&mut self, keep: impl Fn(&str, &str) -> bool) {
        for (lang, words) in &mut self.frequencies {
            words.retain(|word, _| keep(word, lang));
            words.shrink_to_fit();
        }
        self.frequencies.retain(|_, words| !words.is_empty());
    }

    /// Whether `word` (folded) is a stop word of `lang`.
    pub fn is_stop_word(&self, lang: &str, word: &str) -> bool {
        self.stop_words.get(lang).is_some_and(|w| w.contains(word))
    }

    /// How common a word is, a term in dictionaries of the source language
    /// `lang` (docs/api.md, "Matching and ranking"): its frequency in that
    /// language's list; else the number of those dictionaries that list it.
    /// Another language's list never counts: English `forte` is rare,
    /// however common Italian `forte` is.
    pub fn commonness(&self, term: &str, lang: &str, dictionaries: usize) -> Commonness {
        self.frequency(lang, term).map_or(
            Commonness::Unlisted {
                dictionaries: dictionaries.min(usize::from(u16::MAX)) as u16,
            },
            |zipf_centis| Commonness::Listed { zipf_centis },
        )
    }

    /// The Zipf frequency × 100 of a folded word in `lang`'s list.
    pub fn frequency(&self, lang: &str, word: &str) -> Option<u16> {
        self.frequencies.get(lang)?.get(word).copied()
    }
}

/// A word with every run of one letter written once (`begining` and
/// `beginning` are both `begining`).
pub fn collapsed(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut last = None;
    for c in word.chars() {
        if last != Some(c) {
            out.push(c);
        }
        last = Some(c);
    }
    out
}

/// How common a term is. Any word of a frequency list ranks above every
/// word that no list has; among those, more dictionaries rank higher.
/// Greater is more common.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Commonness {
    Unlisted { dictionaries: u16 },
    Listed { zipf_centis: u16 },
}

impl Commonness {
    /// The Zipf frequency × 100 that search results and entries show as
    /// `frequency`: a listed word's, 0 for a word no list has.
    pub fn zipf_centis(self) -> u16 {
        match self {
            Commonness::Listed { zipf_centis } => zipf_centis,
            Commonness::Unlisted { .. } => 0,
        }
    }
}

/// A Zipf frequency × 100 as the API shows it: a number with (at most) two
/// decimals, `516` → `5.16`, 0 when unknown. The division gives the double
/// nearest to the decimal, which JSON writes back as exactly that decimal.
pub fn zipf_of_centis(centis: u16) -> f64 {
    f64::from(centis) / 100.0
}

/// The inverse of [`zipf_of_centis`], for a value read back from storage.
pub fn centis_of_zipf(zipf: f64) -> u16 {
    zipf_centis(zipf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn pairs_round_trip_through_chunks() {
        let pairs: Vec<Pair> = (0..50_000)
            .map(|i| (format!("form{i}é"), format!("lemma{}", i * 7919 % 1000)))
            .collect();
        let chunks = encode_chunks(&pairs);
        assert!(chunks.iter().all(|c| c.len() <= MAX_CHUNK_BYTES));
        let back: Vec<Pair> = chunks
            .iter()
            .flat_map(|c| decode_chunk(c).unwrap())
            .collect();
        assert_eq!(back, pairs);
        assert!(decode_chunk(b"junk").is_err());
    }

    #[test]
    fn kinds_have_stable_names() {
        for kind in LexiconKind::ALL {
            assert_eq!(LexiconKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(zipf_centis(7.734), 773);
        assert_eq!(zipf_centis(-1.0), 0);
    }

    /// What the API shows is the stored hundredths as a decimal number,
    /// written by JSON as exactly that decimal, and reads back the same.
    #[test]
    fn frequencies_show_as_two_decimal_numbers() {
        for centis in [0u16, 1, 99, 100, 120, 516, 601, 773, 999, 1234] {
            let zipf = zipf_of_centis(centis);
            let json = serde_json::to_string(&zipf).unwrap();
            let expected = format!("{}.{:02}", centis / 100, centis % 100);
            let back: f64 = expected.parse().unwrap();
            assert_eq!(zipf, back, "{json} is {expected}");
            assert_eq!(centis_of_zipf(zipf), centis);
        }
        assert_eq!(serde_json::to_string(&zipf_of_centis(516)).unwrap(), "5.16");
    }

    /// The forms of a lemma hold one copy of it, across the lists' chunks;
    /// a form listed twice for a lemma holds it once.
    #[test]
    fn a_lemma_is_held_once_for_all_its_forms() {
        let mut lexicon = Lexicon::default();
        // One chunk a pair, as a list of many chunks adds them.
        for (form, lemma) in [
            ("cats", "cat"),
            ("cats", "cat"),
            ("catted", "cat"),
            ("cats", "cats"),
        ] {
            let pair = vec![(form.to_string(), lemma.to_string())];
            lexicon.add(LexiconKind::Forms, "en", pair).unwrap();
        }
        let en = &lexicon.forms["en"];
        assert_eq!(en.lemmas("cats").collect::<Vec<_>>(), ["cat", "cats"]);
        assert_eq!(en.lemmas("catted").collect::<Vec<_>>(), ["cat"]);
        assert_eq!(en.lemmas("cat").count(), 0);
        assert_eq!(en.lemmas.len(), 2, "cat and cats, each once");
        assert_eq!(en.forms().collect::<Vec<_>>(), ["cats", "catted"]);
        assert!(en.has_lemma("cats") && !en.contains("cat"));
    }

    proptest::proptest! {
        /// Against a map that keeps each word's first text.
        #[test]
        fn word_texts_keep_each_words_first_text(
            batches in proptest::collection::vec(
                proptest::collection::vec(("[a-cé]{0,3}", "[x-zə]{0,3}"), 0..20),
                0..4,
            ),
            probes in proptest::collection::vec("[a-cé]{0,3}", 0..10),
        ) {
            let (mut texts, mut reference) = (WordTexts::default(), HashMap::new());
            for batch in batches {
                for (word, text) in batch {
                    texts.insert(&word, &text);
                    reference.entry(word).or_insert(text);
                }
                // Looked up between additions too, as a sorted order must
                // follow what is added after it.
                for word in reference.keys().chain(&probes) {
                    proptest::prop_assert_eq!(
                        texts.get(word),
                        reference.get(word).map(String::as_str)
                    );
                }
            }
        }

        /// Against a map of each form to its set of lemmas, with lookups
        /// between additions and pairs let go of.
        #[test]
        fn forms_are_a_map_of_each_form_to_its_lemmas(
            batches in proptest::collection::vec(
                proptest::collection::vec(("[a-cé]{0,3}", "[a-c]{1,2}"), 0..20),
                0..4,
            ),
            dropped in "[a-c]{1,2}",
        ) {
            let mut forms = Forms::default();
            let mut reference: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            for batch in batches {
                for (form, lemma) in batch {
                    forms.insert(&form, &lemma);
                    reference.entry(form).or_default().insert(lemma);
                }
                let pairs: Vec<(&str, &str)> = reference
                    .iter()
                    .flat_map(|(f, ls)| ls.iter().map(move |l| (f.as_str(), l.as_str())))
                    .collect();
                proptest::prop_assert_eq!(forms.pairs().collect::<Vec<_>>(), pairs);
                for (form, lemmas) in &reference {
                    let found: Vec<&str> = forms.lemmas(form).collect();
                    let expected: Vec<&str> = lemmas.iter().map(String::as_str).collect();
                    proptest::prop_assert_eq!(found, expected);
                }
                proptest::prop_assert!(!forms.contains("zz"));
            }
            let before = forms.pairs().count();
            let let_go = forms.retain(|_, lemma| lemma != dropped);
            let after: Vec<(String, String)> = forms
                .pairs()
                .map(|(f, l)| (f.to_string(), l.to_string()))
                .collect();
            proptest::prop_assert_eq!(before - let_go, after.len());
            proptest::prop_assert!(after.iter().all(|(_, l)| *l != dropped));
            forms.insert("zz", "a");
            proptest::prop_assert_eq!(forms.lemmas("zz").collect::<Vec<_>>(), ["a"]);
        }
    }

    /// A form that only doubles or undoubles letters of a much more common
    /// spelling of its lemma is a misspelling the table kept; one of about
    /// the same frequency is a variant and stays.
    #[test]
    fn misspelled_forms_are_dropped_and_variants_kept() {
        let mut lexicon = Lexicon::default();
        let pairs = |list: &[(&str, &str)]| -> Vec<Pair> {
            list.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        let forms = [
            ("begining", "begin"),
            ("beginning", "begin"),
            ("wass", "be"),
            ("was", "be"),
            ("travelled", "travel"),
            ("traveled", "travel"),
            ("acquited", "acquit"),
            ("acquitted", "acquit"),
            ("runing", "run"),
        ];
        lexicon
            .add(LexiconKind::Forms, "en", pairs(&forms))
            .unwrap();
        let frequencies = [
            ("begining", "258"),
            ("beginning", "500"),
            ("wass", "251"),
            ("was", "682"),
            ("travelled", "398"),
            ("traveled", "406"),
            ("acquitted", "344"),
            ("runing", "150"),
            ("run", "540"),
        ];
        // Read after the forms, a list need not hold more than their words
        // (`zebra` is neither a form nor a lemma): the same pairs go.
        let mut kept_to_forms = lexicon.clone();
        let mut listed = pairs(&frequencies);
        listed.push(("zebra".to_string(), "420".to_string()));
        listed.retain(|(word, _)| kept_to_forms.has_form_or_lemma("en", word));
        assert_eq!(listed.len(), frequencies.len(), "run is a lemma");
        kept_to_forms
            .add(LexiconKind::Frequencies, "en", listed)
            .unwrap();
        lexicon
            .add(LexiconKind::Frequencies, "en", pairs(&frequencies))
            .unwrap();
        assert_eq!(kept_to_forms.drop_misspelled_forms(), 3);
        assert_eq!(kept_to_forms.forms, {
            let mut all = lexicon.clone();
            all.drop_misspelled_forms();
            all.forms
        });
        assert_eq!(lexicon.drop_misspelled_forms(), 3);
        let kept: Vec<&str> = lexicon.forms["en"].forms().collect();
        assert_eq!(
            kept,
            [
                "acquitted",
                "beginning",
                "runing",
                "traveled",
                "travelled",
                "was"
            ],
            "runing stays: no spelling of run that it only doubles"
        );
        assert_eq!(collapsed("beginning"), "begining");
        assert_eq!(collapsed("ocassion"), collapsed("occasion"));
    }

    #[test]
    fn listed_words_are_more_common_than_any_unlisted_word() {
        let mut lexicon = Lexicon::default();
        let pairs = vec![("the".into(), "773".into()), ("ox".into(), "350".into())];
        lexicon.add(LexiconKind::Frequencies, "en", pairs).unwrap();
        lexicon
            .add(
                LexiconKind::Frequencies,
                "fr",
                vec![("ox".into(), "120".into())],
            )
            .unwrap();
        let ox = lexicon.commonness("ox", "en", 1);
        assert_eq!(ox, Commonness::Listed { zipf_centis: 350 });
        assert_eq!(
            lexicon.commonness("ox", "fr", 1),
            Commonness::Listed { zipf_centis: 120 },
            "each language's own list"
        );
        assert!(lexicon.commonness("the", "en", 1) > ox);
        let rare = lexicon.commonness("zyzzyva", "en", 40);
        assert_eq!(rare, Commonness::Unlisted { dictionaries: 40 });
        assert!(rare < lexicon.commonness("ox", "fr", 1));
        assert!(rare > lexicon.commonness("zyzzyva", "en", 2));
        assert_eq!(
            lexicon.commonness("the", "fr", 3),
            Commonness::Unlisted { dictionaries: 3 },
            "English's list says nothing of French `the`"
        );
        assert_eq!(ox.zipf_centis(), 350);
        assert_eq!(rare.zipf_centis(), 0, "unlisted words have frequency 0");
        assert!(lexicon
            .add(
                LexiconKind::Frequencies,
                "en",
                vec![("x".into(), "high".into())]
            )
            .is_err());
    }
}
