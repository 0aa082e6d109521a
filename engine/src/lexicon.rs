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
use std::sync::Arc;

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

/// The folded lemmas of a form: one copy of each lemma, shared by its
/// forms (a build holds millions of forms, and a lemma has a dozen).
pub type Lemmas = Box<[Arc<str>]>;

/// The lists an index is built with, by language, ready to look up.
#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    /// Language → folded form → its folded lemmas.
    pub forms: BTreeMap<String, BTreeMap<Box<str>, Lemmas>>,
    /// Language → its lemmas, each once, while the lists are added (let go
    /// by [`Lexicon::drop_misspelled_forms`], which comes after them).
    lemma_copies: BTreeMap<String, HashSet<Arc<str>>>,
    /// Language → folded word → Zipf frequency × 100.
    pub frequencies: BTreeMap<String, HashMap<String, u16>>,
    /// Language → its folded stop words.
    pub stop_words: BTreeMap<String, HashSet<String>>,
    /// Language → folded word → its IPA, made by a synthesizer.
    pub pronunciations: BTreeMap<String, HashMap<String, String>>,
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
                let copies = self.lemma_copies.entry(lang.to_string()).or_default();
                for (form, lemma) in pairs {
                    let lemma = match copies.get(lemma.as_str()) {
                        Some(copy) => copy.clone(),
                        None => {
                            let copy: Arc<str> = lemma.into();
                            copies.insert(copy.clone());
                            copy
                        }
                    };
                    let lemmas = forms.entry(form.into_boxed_str()).or_default();
                    if !lemmas.contains(&lemma) {
                        let mut more = std::mem::take(lemmas).into_vec();
                        more.push(lemma);
                        *lemmas = more.into_boxed_slice();
                    }
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
                    words.entry(word).or_insert(ipa);
                }
            }
        }
        Ok(())
    }

    /// Whether `word` (folded) is a form or a lemma of `lang` in the lists
    /// added so far, until [`Lexicon::drop_misspelled_forms`]: the
    /// frequencies it compares. A build that reads the frequency lists
    /// after the forms keeps only those and its terms' (the lists hold
    /// millions of words more).
    pub fn has_form_or_lemma(&self, lang: &str, word: &str) -> bool {
        self.forms.get(lang).is_some_and(|f| f.contains_key(word))
            || self
                .lemma_copies
                .get(lang)
                .is_some_and(|l| l.contains(word))
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
        self.lemma_copies.clear();
        let mut dropped = 0;
        for (lang, forms) in &mut self.forms {
            let list = self.frequencies.get(lang);
            let frequency = |word: &str| list.and_then(|l| l.get(word)).copied().unwrap_or(0);
            // Each lemma's spellings: itself and its forms.
            let mut spellings: HashMap<&str, Vec<&str>> = HashMap::new();
            for (form, lemmas) in forms.iter() {
                for lemma in lemmas.iter().map(|l| &**l) {
                    spellings
                        .entry(lemma)
                        .or_insert_with(|| vec![lemma])
                        .push(form);
                }
            }
            let misspelled: Vec<(Box<str>, Arc<str>)> = forms
                .iter()
                .flat_map(|(form, lemmas)| lemmas.iter().map(move |lemma| (form, lemma)))
                .filter(|(form, lemma)| {
                    let (spelling, floor) = (collapsed(form), frequency(form) + 100);
                    spellings[&***lemma].iter().any(|other| {
                        *other != &***form
                            && frequency(other) >= floor
                            && collapsed(other) == spelling
                    })
                })
                .map(|(form, lemma)| (form.clone(), lemma.clone()))
                .collect();
            for (form, lemma) in misspelled {
                let lemmas = forms.get_mut(&form).expect("listed above");
                let kept: Vec<Arc<str>> = lemmas.iter().filter(|l| **l != lemma).cloned().collect();
                if kept.is_empty() {
                    forms.remove(&form);
                } else {
                    *lemmas = kept.into_boxed_slice();
                }
                dropped += 1;
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
        assert_eq!(en["cats"].len(), 2, "cat and cats, each once");
        assert!(Arc::ptr_eq(&en["cats"][0], &en["catted"][0]));
        assert_eq!(&*en["catted"][0], "cat");
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
        let kept: Vec<&str> = lexicon.forms["en"].keys().map(|k| &**k).collect();
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
