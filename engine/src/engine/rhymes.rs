//! Rhymes of a word (docs/api.md, "Rhymes"): the words of its language
//! whose pronunciation shares the rhyme part of one of its own (perfect
//! rhymes), or only that part's vowels (near rhymes, perfect ones left
//! out), most common first, one result per word.
//!
//! A lookup runs in two reads: the bucket of `pronunciations` that holds
//! the pronunciations of the query word's words, named by a hash of its
//! text ([`crate::snapshot::WordBucket`]), then the parts of `rhymes` that
//! hold their rhyme lists ([`RhymeQuery::keys`]).

use super::words::{entries_per_word, Word};
use super::{SearchError, Searcher};
use crate::filters::Filters;
use crate::snapshot::{rhyme_keys_of, Grams, PronunciationSource, RhymeKind, Rhymes, Rhyming};

/// The list items a lookup may visit: the longest lists (a common vowel
/// of a language) stay well within it, and no request's work is unbounded.
pub const RHYME_WORK_BUDGET: u64 = 1_000_000;

/// A word whose rhymes are looked up: its term, language and
/// pronunciations, and the rhyme lists they name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RhymeQuery {
    pub term: usize,
    pub lang: String,
    pub kind: RhymeKind,
    /// Its pronunciations, each with where it comes from.
    pub pronunciations: Vec<(PronunciationSource, String)>,
    perfect: Vec<String>,
    near: Vec<String>,
}

impl RhymeQuery {
    /// The query of `term` (a word of `lang`) with these pronunciations.
    pub fn new(
        term: usize,
        lang: &str,
        kind: RhymeKind,
        pronunciations: Vec<(PronunciationSource, String)>,
    ) -> Self {
        let mut perfect = Vec::new();
        let mut near = Vec::new();
        let keys = pronunciations
            .iter()
            .filter_map(|(_, ipa)| rhyme_keys_of(ipa, lang));
        for (p, n) in keys {
            if !perfect.contains(&p) {
                perfect.push(p);
            }
            if !near.contains(&n) {
                near.push(n);
            }
        }
        Self {
            term,
            lang: lang.to_string(),
            kind,
            pronunciations,
            perfect,
            near,
        }
    }

    /// The rhyme lists it reads: the perfect rhymes', and for near rhymes
    /// the vowels' too (to leave the perfect ones out).
    pub fn keys(&self) -> Vec<String> {
        match self.kind {
            RhymeKind::Perfect => self.perfect.clone(),
            RhymeKind::Near => [self.perfect.clone(), self.near.clone()].concat(),
        }
    }
}

/// A word that rhymes: its entries as a [`Word`] of a search, and the
/// pronunciation that rhymes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RhymeWord {
    pub word: Word,
    pub pronunciation: String,
    pub source: PronunciationSource,
    pub syllables: u8,
}

/// A page of rhymes and how many words rhyme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RhymeHits {
    pub total: usize,
    pub words: Vec<RhymeWord>,
}

/// The words of several rhyme lists (each in term order), in term order,
/// each once with the pronunciation of the first list that has it.
fn union(mut lists: Vec<Vec<Rhyming<'_>>>) -> Vec<Rhyming<'_>> {
    if lists.len() <= 1 {
        return lists.pop().unwrap_or_default();
    }
    let mut all: Vec<(usize, Rhyming<'_>)> = lists
        .into_iter()
        .enumerate()
        .flat_map(|(n, list)| list.into_iter().map(move |w| (n, w)))
        .collect();
    all.sort_unstable_by_key(|(n, w)| (w.term, *n));
    all.dedup_by_key(|(_, w)| w.term);
    all.into_iter().map(|(_, w)| w).collect()
}

impl Searcher {
    /// The page `offset..offset + limit` of the words that rhyme with the
    /// query's, in term order (most common first), and how many do; the
    /// parts of its [`RhymeQuery::keys`] must be held.
    pub fn rhymes(
        &self,
        grams: Option<&Grams>,
        rhymes: &Rhymes,
        query: &RhymeQuery,
        filters: &Filters<'_>,
        offset: usize,
        limit: usize,
    ) -> Result<RhymeHits, SearchError> {
        let mut work = 0u64;
        for key in query.keys() {
            work += rhymes.list_len(&key)? as u64;
        }
        if work > RHYME_WORK_BUDGET {
            return Err(SearchError::OverBudget);
        }
        let lists = |keys: &[String]| -> Result<Vec<Vec<Rhyming<'_>>>, SearchError> {
            Ok(keys
                .iter()
                .map(|key| rhymes.list(key))
                .collect::<Result<_, _>>()?)
        };
        let perfect = union(lists(&query.perfect)?);
        let rhyming = match query.kind {
            RhymeKind::Perfect => perfect,
            RhymeKind::Near => {
                let mut near = union(lists(&query.near)?);
                near.retain(|w| perfect.binary_search_by_key(&w.term, |p| p.term).is_err());
                near
            }
        };
        let admitted = self.admitted(grams, filters)?;
        let listed = entries_per_word(limit);
        let end = offset.saturating_add(limit);
        let mut total = 0;
        let mut words = Vec::new();
        for rhyming in rhyming.iter().filter(|w| w.term != query.term) {
            let range = self.index.term_entries(rhyming.term);
            // Without a filter a word counts its entries unread; with one,
            // each entry checked is a unit of work.
            let passes = |o: &u32| admitted.as_ref().is_none_or(|a| a.contains(*o));
            let entry_count = match &admitted {
                None => range.len(),
                Some(_) => {
                    work += range.len() as u64;
                    range.clone().filter(passes).count()
                }
            };
            if work > RHYME_WORK_BUDGET {
                return Err(SearchError::OverBudget);
            }
            if entry_count == 0 {
                continue;
            }
            if (offset..end).contains(&total) {
                words.push(RhymeWord {
                    word: Word {
                        term: rhyming.term,
                        entry_count,
                        entries: range.filter(passes).take(listed).collect(),
                    },
                    pronunciation: rhyming.pronunciation.to_string(),
                    source: rhyming.source,
                    syllables: rhyming.syllables,
                });
            }
            total += 1;
        }
        Ok(RhymeHits { total, words })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::{Lexicon, LexiconKind};
    use crate::postings::{DictionaryRef, Posting, PostingFields};
    use crate::rhyme::{Pronunciation, StressRule};
    use crate::snapshot::{build, build_with_blocks, Built};
    use proptest::prelude::*;
    use std::collections::{BTreeMap, HashSet};

    /// A word, its dictionary's source language and its transcription.
    fn posting(word: &str, dictionary: &str, lang: &str, ipa: Option<&str>) -> Posting {
        let mut p = PostingFields::headword(word, DictionaryRef::new(dictionary, lang, None), word);
        p.phonetic = ipa.map(str::to_string);
        p.into()
    }

    /// What a reader holds of `built`: the searcher and every part of
    /// `rhymes` (and the build, whose buckets of `pronunciations` a lookup
    /// reads).
    fn read(built: Built) -> (Searcher, Rhymes, Built) {
        (built.decode().unwrap(), built.decode().unwrap(), built)
    }

    /// A word's term, language and pronunciations.
    type Spoken = (usize, String, Vec<(PronunciationSource, String)>);

    /// The words of `word` that have pronunciations, as a lookup reads
    /// them (from its bucket).
    fn words_of(built: &Built, word: &str) -> Vec<Spoken> {
        let bucket = built.word_bucket(word).unwrap();
        let words = bucket.pronounced(word).unwrap();
        words
            .into_iter()
            .map(|w| {
                let own = w
                    .pronunciations
                    .into_iter()
                    .map(|(s, p)| (s, p.to_string()));
                (w.term, w.lang.to_string(), own.collect())
            })
            .collect()
    }

    /// The term of `word` in `lang` and its pronunciations, as a lookup
    /// reads them.
    fn pronounced(
        built: &Built,
        word: &str,
        lang: &str,
    ) -> (usize, Vec<(PronunciationSource, String)>) {
        let found = words_of(built, word)
            .into_iter()
            .find(|w| w.1 == lang)
            .unwrap();
        (found.0, found.2)
    }

    /// The rhymes of `word` in `lang`, as words.
    fn rhymes_of(
        (searcher, rhymes, built): &(Searcher, Rhymes, Built),
        word: &str,
        lang: &str,
        kind: RhymeKind,
    ) -> Vec<String> {
        let (term, pronunciations) = pronounced(built, word, lang);
        let query = RhymeQuery::new(term, lang, kind, pronunciations);
        let hits = searcher
            .rhymes(None, rhymes, &query, &Filters::default(), 0, 100)
            .unwrap();
        let index = searcher.index();
        hits.words
            .iter()
            .map(|w| index.term(w.word.term).unwrap())
            .collect()
    }

    #[test]
    fn words_rhyme_within_their_language_most_common_first() {
        let postings = vec![
            posting("maison", "fra-eng", "fr", Some("/mɛzɔ̃/")),
            posting("saison", "fra-eng", "fr", Some("/sɛzɔ̃/")),
            posting("raison", "fra-eng", "fr", Some("/ʀɛzɔ̃/")),
            posting("maman", "fra-eng", "fr", Some("/mamɑ̃/")),
            posting("chose", "fra-eng", "fr", None),
            // The same sounds in another language are no rhyme.
            posting("bison", "eng-fra", "en", Some("/ˈbaɪsɔ̃/")),
            posting("corazón", "spa-eng", "es", Some("/kˌoɾaθˈon/")),
            posting("canción", "spa-eng", "es", Some("/kanθjˈon/")),
            posting("razón", "spa-eng", "es", Some("/raθˈon/")),
            posting("cantan", "spa-eng", "es", Some("/kˈantan/")),
        ];
        let reader = read(build(postings, &Lexicon::default()));
        let mut french = rhymes_of(&reader, "maison", "fr", RhymeKind::Perfect);
        french.sort();
        assert_eq!(french, ["raison", "saison"]);
        let mut spanish = rhymes_of(&reader, "corazón", "es", RhymeKind::Perfect);
        spanish.sort();
        assert_eq!(spanish, ["cancion", "razon"]);
        assert_eq!(
            rhymes_of(&reader, "corazón", "es", RhymeKind::Near),
            Vec::<String>::new(),
            "cantan's stressed vowel is another"
        );
        assert_eq!(
            rhymes_of(&reader, "canción", "es", RhymeKind::Perfect).len(),
            2
        );
        // A word without a transcription has none to look up, nor has a
        // word of no dictionary.
        let (_, _, built) = &reader;
        assert!(words_of(built, "chose").is_empty());
        assert!(words_of(built, "nothing").is_empty());
        // A word is found as typed.
        assert_eq!(words_of(built, "Maison").len(), 1);
    }

    /// A lookup finds the words of its text from the text alone: in each
    /// language, most common first, and none of a longer text.
    #[test]
    fn a_words_pronunciations_are_those_of_its_text_in_every_language() {
        let postings = vec![
            posting("cat", "eng-x", "en", Some("/kæt/")),
            posting("cats", "eng-x", "en", Some("/kæts/")),
            posting("chat", "fra-eng", "fr", Some("/ʃa/")),
            posting("chat", "eng-x", "en", Some("/tʃæt/")),
        ];
        let (searcher, _, built) = read(build(postings, &Lexicon::default()));
        let cat = words_of(&built, "cat");
        assert_eq!(cat.len(), 1, "not cats: {cat:?}");
        let dictionary = PronunciationSource::Dictionary;
        assert_eq!(cat[0].2, [(dictionary, "/kæt/".to_string())]);
        let chat = words_of(&built, "Chat");
        let mut langs: Vec<&str> = chat.iter().map(|w| w.1.as_str()).collect();
        langs.sort_unstable();
        assert_eq!(langs, ["en", "fr"]);
        assert!(chat.windows(2).all(|w| w[0].0 < w[1].0));
        for (term, lang, _) in &chat {
            assert_eq!(*term, searcher.term_in_lang("chat", lang));
        }
    }

    #[test]
    fn near_rhymes_share_the_vowels_but_are_not_perfect() {
        let postings = vec![
            posting("cat", "eng-x", "en", Some("/kæt/")),
            posting("hat", "eng-x", "en", Some("/hæt/")),
            posting("cap", "eng-x", "en", Some("/kæp/")),
            posting("cab", "eng-y", "en", Some("/kæb/")),
            posting("cut", "eng-y", "en", Some("/kʌt/")),
        ];
        let reader = read(build(postings, &Lexicon::default()));
        assert_eq!(rhymes_of(&reader, "cat", "en", RhymeKind::Perfect), ["hat"]);
        let mut near = rhymes_of(&reader, "cat", "en", RhymeKind::Near);
        near.sort();
        assert_eq!(near, ["cab", "cap"]);
        // A filter keeps the words with an entry that passes it.
        let (searcher, rhymes, built) = &reader;
        let (cat, _) = pronounced(built, "cat", "en");
        let dictionary = PronunciationSource::Dictionary;
        let query = RhymeQuery::new(
            cat,
            "en",
            RhymeKind::Near,
            vec![(dictionary, "/kæt/".into())],
        );
        let filters = Filters {
            source: Some("eng-y"),
            ..Filters::default()
        };
        let grams = built.grams().unwrap();
        let hits = searcher
            .rhymes(Some(&grams), rhymes, &query, &filters, 0, 10)
            .unwrap();
        assert_eq!(hits.total, 1);
        assert_eq!(
            searcher.index().term(hits.words[0].word.term).unwrap(),
            "cab"
        );
    }

    /// A synthesizer's pronunciation (the lexicon's) rhymes beside the
    /// dictionaries': `hat`, which a dictionary transcribes wrongly, rhymes
    /// with `cat` through both words' synthesized ones, labelled so; a word
    /// no dictionary transcribes rhymes through it alone.
    #[test]
    fn synthesized_pronunciations_rhyme_beside_the_dictionaries() {
        let postings = vec![
            posting("cat", "eng-x", "en", Some("/kæt/")),
            posting("hat", "eng-x", "en", Some("/heit/")),
            posting("bat", "eng-y", "en", None),
            posting("rat", "eng-y", "en", Some("/ræt/")),
        ];
        let mut lexicon = Lexicon::default();
        let spoken = [("cat", "kˈat"), ("hat", "hˈat"), ("bat", "bˈat")];
        let pairs = spoken.map(|(w, ipa)| (w.to_string(), ipa.to_string()));
        lexicon
            .add(LexiconKind::Pronunciations, "en", pairs.to_vec())
            .unwrap();
        let reader = read(build(postings, &lexicon));
        let mut found = rhymes_of(&reader, "cat", "en", RhymeKind::Perfect);
        found.sort();
        assert_eq!(found, ["bat", "hat", "rat"]);
        let (searcher, rhymes, built) = &reader;
        let (cat, own) = pronounced(built, "cat", "en");
        assert_eq!(
            own,
            [
                (PronunciationSource::Dictionary, "/kæt/".to_string()),
                (PronunciationSource::Espeak, "kˈat".to_string())
            ]
        );
        let query = RhymeQuery::new(cat, "en", RhymeKind::Perfect, own);
        let hits = searcher
            .rhymes(None, rhymes, &query, &Filters::default(), 0, 10)
            .unwrap();
        let labels: Vec<(String, &str, PronunciationSource)> = hits
            .words
            .iter()
            .map(|w| {
                let word = searcher.index().term(w.word.term).unwrap();
                (word, w.pronunciation.as_str(), w.source)
            })
            .collect();
        assert!(labels.contains(&("bat".into(), "bˈat", PronunciationSource::Espeak)));
        assert!(labels.contains(&("rat".into(), "/ræt/", PronunciationSource::Dictionary)));
    }

    /// A transcription: syllables of a consonant or two, a vowel and
    /// maybe a stress mark.
    fn transcription() -> impl Strategy<Value = String> {
        let syllable = ("[ˈ]?", "[ptkmnrs]{0,2}", "[aeiɔæ]", "[ː]?");
        proptest::collection::vec(syllable, 1..4).prop_map(|syllables| {
            syllables
                .into_iter()
                .map(|(s, c, v, l)| format!("{s}{c}{v}{l}"))
                .collect::<String>()
                + "t"
        })
    }

    proptest! {
            #![proptest_config(ProptestConfig::with_cases(32))]

            /// Over blocks and parts of any size, the rhymes of every word are
            /// exactly the other words of its language one of whose
            /// transcriptions has the rhyme part of one of its own (the brute
            /// force compares every pair), paged alike; so rhyming is
            /// symmetric.
            #[test]
            fn the_rhymes_of_a_word_are_those_sharing_its_rhyme_part(
                words in proptest::collection::vec(
                    ("[a-d]{1,4}", 0..3usize, transcription(), proptest::option::of(transcription())),
                    1..40,
                ),
                block_bytes in 64usize..4096,
                limit in 1usize..8,
            ) {
                let langs = ["fr", "pl", "fi"];
                // A word once per language: at most two transcriptions each.
                let mut seen = HashSet::new();
                let postings: Vec<Posting> = words
                    .iter()
                    .filter(|(word, lang, _, _)| seen.insert((word.clone(), *lang)))
                    .enumerate()
                    .flat_map(|(i, (word, lang, ipa, second))| {
                        let lang = langs[*lang];
                        let first = posting(word, &format!("{lang}-a"), lang, Some(ipa));
                        let first = PostingFields { id: format!("{i}a"), ..first.fields() }
    .into();
                        let other = second.as_deref().map(|ipa| PostingFields {
                            id: format!("{i}b"),
                            ..posting(word, &format!("{lang}-b"), lang, Some(ipa)).fields()
                        }
    .into());
                        std::iter::once(first).chain(other)
                    })
                    .collect();
                let built = build_with_blocks(postings.clone(), &Lexicon::default(), block_bytes);
                let (searcher, rhymes, built) = read(built);
                let index = searcher.index();
                // Per (word, language) its rhyme parts, brute force.
                let mut parts: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
                for p in &postings {
                    let lang = p.dictionary.source_lang.clone();
                    let rhyme = Pronunciation::parse(p.phonetic().unwrap())
                        .unwrap()
                        .rhyme(StressRule::of(&lang));
                    parts.entry((p.folded().to_string(), lang)).or_default().push(rhyme);
                }
                let mut rhyme_pairs = HashSet::new();
                for ((word, lang), mine) in &parts {
                    let (term, stored) = pronounced(&built, word, lang);
                    prop_assert!(!stored.is_empty());
                    let query = RhymeQuery::new(term, lang, RhymeKind::Perfect, stored);
                    let expected: Vec<String> = parts
                        .iter()
                        .filter(|((w, l), theirs)| {
                            l == lang && w != word && theirs.iter().any(|r| mine.contains(r))
                        })
                        .map(|((w, _), _)| w.clone())
                        .collect();
                    let mut found = Vec::new();
                    let mut offset = 0;
                    loop {
                        let hits = searcher
                            .rhymes(None, &rhymes, &query, &Filters::default(), offset, limit)
                            .unwrap();
                        prop_assert_eq!(hits.total, expected.len());
                        let terms: Vec<usize> = hits.words.iter().map(|w| w.word.term).collect();
                        let mut sorted = terms.clone();
                        sorted.sort_unstable();
                        prop_assert_eq!(&terms, &sorted, "most common first");
                        found.extend(terms.iter().map(|&t| index.term(t).unwrap()));
                        offset += limit;
                        if offset >= hits.total {
                            break;
                        }
                    }
                    found.sort();
                    prop_assert_eq!(&found, &expected, "{} in {}", word, lang);
                    for other in found {
                        rhyme_pairs.insert((lang.clone(), word.clone(), other));
                    }
                }
                for (lang, a, b) in &rhyme_pairs {
                    prop_assert!(
                        rhyme_pairs.contains(&(lang.clone(), b.clone(), a.clone())),
                        "{} rhymes with {} in {} but not back", a, b, lang
                    );
                }
            }
        }
}
