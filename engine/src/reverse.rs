//! Reverse lookup over the `definitions` section (docs/api.md, "Reverse
//! lookup"): the entries whose definition says the words of a query. An
//! entry one of whose phrases is exactly the query comes first; then the
//! sum of BM25 scores of the query words its definition says (a word's
//! score the best of its keys: itself and its lemmas), then the ordinal
//! (commonness, then search's order). The lists' lengths are known before
//! any is read, so a query over the work budget is refused before it works.

use super::codec::CorruptData;
use super::definitions::{
    definition_lang_key, phrase_key, stop_word_key, words, Bm25, MAX_QUERY_WORDS,
};
use super::engine::Searcher;
use super::engine::{Hits, SearchError, WordHits};
use super::filters::Filters;
use super::snapshot::{DefinitionList, Definitions, Grams, Index, Lemma, Missing};
use std::cmp::Ordering;
use std::collections::HashMap;

/// Entries of definition lists a reverse lookup may read: about 100 ms of
/// work on one core, and more than the lists of any three common words of
/// a 5-million-entry corpus hold.
pub const REVERSE_WORK_BUDGET: u64 = 3_000_000;

/// A key a query word is looked up by: the word itself (any language), or
/// one of its lemmas, which counts only in definitions of the lemma's
/// language (French `a` is a form of `avoir`; an English definition saying
/// `avoir` is no match for `a`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WordKey {
    pub key: String,
    pub lang: Option<String>,
}

/// A reverse query as the index answers it: per query word its keys (the
/// word itself first, then its lemmas), and the phrase key of the whole
/// query (exact matches).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefinitionQuery {
    pub words: Vec<Vec<WordKey>>,
    pub phrase: String,
}

/// Why a reverse query cannot be made.
#[derive(Debug, PartialEq, Eq)]
pub enum QueryError {
    /// It has more than [`MAX_QUERY_WORDS`] words.
    TooManyWords,
    /// The form or text blocks of its words' lemmas are not held yet.
    Missing(Missing),
}

impl DefinitionQuery {
    /// The words of `q` (folded), each with the lemmas the index knows of
    /// it.
    pub fn new(q: &str, index: &Index) -> Result<Self, QueryError> {
        let all = words(q);
        if all.len() > MAX_QUERY_WORDS {
            return Err(QueryError::TooManyWords);
        }
        let mut missing = Missing::default();
        let lemmas: Vec<Vec<Lemma>> = all
            .iter()
            .map(|word| missing.noted(index.lemmas(word)))
            .collect();
        missing.into_result().map_err(QueryError::Missing)?;
        let lemma_terms = lemmas.iter().flatten().map(|l| l.term);
        let texts = index.texts(lemma_terms).map_err(QueryError::Missing)?;
        let groups = all
            .iter()
            .zip(&lemmas)
            .map(|(word, lemmas)| {
                let mut keys = vec![WordKey {
                    key: word.clone(),
                    lang: None,
                }];
                for lemma in lemmas {
                    let key = WordKey {
                        key: texts.term(lemma.term).to_string(),
                        lang: Some(lemma.lang.to_string()),
                    };
                    if key.key != *word && !keys.contains(&key) {
                        keys.push(key);
                    }
                }
                keys
            })
            .collect();
        Ok(Self {
            words: groups,
            phrase: phrase_key(&all),
        })
    }

    /// Per query word, the keys it is looked up by: the word, and its
    /// lemmas but those in the languages the word is a stop word of (they
    /// would find what a function word's homograph means there: French
    /// `a`, `avoir`). The parts of the words' [`stop_word_keys`] must be
    /// held.
    fn looked_up(&self, definitions: &Definitions) -> Result<Vec<Vec<&WordKey>>, CorruptData> {
        self.words
            .iter()
            .map(|keys| {
                let stop_langs = definitions.stop_word_langs(&keys[0].key)?;
                let of_stop_lang =
                    |k: &WordKey| k.lang.as_ref().is_some_and(|l| stop_langs.contains(l));
                Ok(keys.iter().filter(|k| !of_stop_lang(k)).collect())
            })
            .collect()
    }

    /// Every key the query reads, each once: what the store loads once it
    /// holds the parts of the query's [`stop_word_keys`] (which say which
    /// lemmas are no lookup), the lists of its words and lemmas, the
    /// bitmaps of its lemmas' languages and the list of its phrase.
    pub fn keys(&self, definitions: &Definitions) -> Result<Vec<String>, CorruptData> {
        let looked_up = self.looked_up(definitions)?;
        let lemma_langs = looked_up.iter().flatten().filter_map(|k| k.lang.as_deref());
        let mut keys: Vec<String> = looked_up
            .iter()
            .flatten()
            .map(|k| k.key.clone())
            .chain(self.words.iter().map(|keys| stop_word_key(&keys[0].key)))
            .chain(lemma_langs.map(definition_lang_key))
            .chain([self.phrase.clone()])
            .collect();
        keys.sort_unstable();
        keys.dedup();
        Ok(keys)
    }
}

/// The stop-word keys of the words of `q`: read first (while the query's
/// lemmas are found), so that the lists and bitmaps of the lemmas that are
/// no lookup are never read ([`DefinitionQuery::keys`]).
pub fn stop_word_keys(q: &str) -> Vec<String> {
    words(q).iter().map(|w| stop_word_key(w)).collect()
}

/// A candidate: whether its definition says the phrase, its score, its
/// ordinal.
type Scored = (bool, f64, u32);

/// A candidate's place in the order: exact first, then score, then ordinal.
fn rank(a: &Scored, b: &Scored) -> Ordering {
    b.0.cmp(&a.0)
        .then_with(|| b.1.total_cmp(&a.1))
        .then_with(|| a.2.cmp(&b.2))
}

impl Searcher {
    /// The entries whose definitions say the words of `query` that pass
    /// `filters`, ranked, and the page `offset..offset + limit`.
    pub fn reverse(
        &self,
        grams: Option<&Grams>,
        definitions: &Definitions,
        query: &DefinitionQuery,
        filters: &Filters<'_>,
        offset: usize,
        limit: usize,
    ) -> Result<Hits, SearchError> {
        self.reverse_within(
            grams,
            REVERSE_WORK_BUDGET,
            definitions,
            query,
            filters,
            (offset, limit),
        )
    }

    /// [`Searcher::reverse`] with one result per word ([`WordHits`]): the
    /// words `offset..offset + limit` of every ranked entry.
    pub fn reverse_words(
        &self,
        grams: Option<&Grams>,
        definitions: &Definitions,
        query: &DefinitionQuery,
        filters: &Filters<'_>,
        offset: usize,
        limit: usize,
    ) -> Result<WordHits, SearchError> {
        let (mut ranked, work) =
            self.scored(grams, REVERSE_WORK_BUDGET, definitions, query, filters)?;
        ranked.sort_unstable_by(rank);
        let budget = (work, REVERSE_WORK_BUDGET);
        self.words_of(ranked.iter().map(|r| r.2), budget, offset, limit)
    }

    /// [`Searcher::reverse`] within a work budget of `budget` list entries,
    /// the page `(offset, limit)`.
    pub(crate) fn reverse_within(
        &self,
        grams: Option<&Grams>,
        budget: u64,
        definitions: &Definitions,
        query: &DefinitionQuery,
        filters: &Filters<'_>,
        (offset, limit): (usize, usize),
    ) -> Result<Hits, SearchError> {
        let (mut ranked, work) = self.scored(grams, budget, definitions, query, filters)?;
        let total = ranked.len();
        let end = offset.saturating_add(limit).min(total);
        if end < total {
            ranked.select_nth_unstable_by(end, rank);
            ranked.truncate(end);
        }
        ranked.sort_unstable_by(rank);
        Ok(Hits {
            total,
            ordinals: ranked.iter().skip(offset).map(|r| r.2).collect(),
            work,
        })
    }

    /// Every entry that passes `filters` whose definitions say a word of
    /// `query`, unordered, as (says the phrase, score, ordinal) for
    /// [`rank`], and the list entries read (the work, within `budget`).
    fn scored(
        &self,
        grams: Option<&Grams>,
        budget: u64,
        definitions: &Definitions,
        query: &DefinitionQuery,
        filters: &Filters<'_>,
    ) -> Result<(Vec<Scored>, u64), SearchError> {
        let admitted = self.admitted(grams, filters)?;
        let entries = self.index().entries();
        let admits = |ordinal: u32| -> Result<bool, CorruptData> {
            if ordinal >= entries {
                return Err(CorruptData("a definition list beyond the entries"));
            }
            Ok(admitted.as_ref().is_none_or(|a| a.contains(ordinal)))
        };
        // Every list first: their lengths are the work, known before any is
        // read.
        let mut groups: Vec<Vec<(&WordKey, DefinitionList<'_>)>> = Vec::new();
        for keys in query.looked_up(definitions)? {
            let mut lists = Vec::new();
            for key in keys {
                if let Some(list) = definitions.list(&key.key)? {
                    lists.push((key, list));
                }
            }
            groups.push(lists);
        }
        let phrase = definitions.list(&query.phrase)?;
        let work: u64 = groups
            .iter()
            .flatten()
            .map(|(_, list)| list.len() as u64)
            .chain(phrase.as_ref().map(|l| l.len() as u64))
            .sum();
        if work > budget {
            return Err(SearchError::OverBudget);
        }
        let mut scores: HashMap<u32, f64> = HashMap::new();
        for lists in groups {
            // A word's score in a definition is the best of its keys'.
            let mut best: HashMap<u32, f64> = HashMap::new();
            for (key, list) in lists {
                let idf = Bm25::idf(entries, list.len() as u32);
                // A lemma counts in the definitions of its own language.
                let in_lang = key.lang.as_deref().map(|l| definitions.defined_in(l));
                let in_lang = in_lang.transpose()?;
                list.for_each(|listed| {
                    if !admits(listed.ordinal)? {
                        return Ok(());
                    }
                    if in_lang
                        .as_ref()
                        .is_some_and(|l| !l.contains(listed.ordinal))
                    {
                        return Ok(());
                    }
                    let score = Bm25::score(idf, listed.count, listed.relative_length);
                    let held = best.entry(listed.ordinal).or_insert(0.0);
                    if score > *held {
                        *held = score;
                    }
                    Ok(())
                })?;
            }
            for (ordinal, score) in best {
                *scores.entry(ordinal).or_insert(0.0) += score;
            }
        }
        let mut exact = Vec::new();
        if let Some(list) = phrase {
            list.for_each(|listed| {
                if admits(listed.ordinal)? {
                    exact.push(listed.ordinal);
                }
                Ok(())
            })?;
        }
        let mut ranked: Vec<Scored> = exact
            .iter()
            .map(|&o| (true, scores.remove(&o).unwrap_or(0.0), o))
            .collect();
        ranked.extend(scores.into_iter().map(|(o, score)| (false, score, o)));
        Ok((ranked, work))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::{Lexicon, LexiconKind};
    use crate::postings::{DictionaryRef, Posting, PostingFields};
    use crate::snapshot::{build, PagedPart, PartIndex, Section};
    use std::sync::Arc;

    fn entry(word: &str, dictionary: (&str, &str, Option<&str>), definition: &str) -> Posting {
        let (id, source, target) = dictionary;
        PostingFields {
            definition: definition.into(),
            ..PostingFields::headword(word, DictionaryRef::new(id, source, target), word)
        }
        .into()
    }

    const FR_EN: (&str, &str, Option<&str>) = ("fr-en", "fr", Some("en"));
    const EN: (&str, &str, Option<&str>) = ("en", "en", None);
    const EN_FR: (&str, &str, Option<&str>) = ("en-fr", "en", Some("fr"));

    fn lexicon() -> Lexicon {
        let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        let mut lexicon = Lexicon::default();
        let stop = pairs(&[("a", ""), ("the", ""), ("to", ""), ("of", "")]);
        lexicon.add(LexiconKind::StopWords, "en", stop).unwrap();
        let forms = pairs(&[("houses", "house"), ("dogs", "dog")]);
        lexicon.add(LexiconKind::Forms, "en", forms).unwrap();
        lexicon
            .add(LexiconKind::Forms, "fr", pairs(&[("a", "avoir")]))
            .unwrap();
        lexicon
    }

    /// The words of `q`, looked up in a snapshot of `entries`: the
    /// headwords found, in order, and the total.
    fn lookup(
        entries: Vec<Posting>,
        q: &str,
        budget: u64,
    ) -> Result<(Vec<String>, usize), SearchError> {
        let built = build(entries, &lexicon());
        let index: Searcher = built.decode().unwrap();
        let definitions: Definitions = built.decode().unwrap();
        let query = DefinitionQuery::new(q, index.index()).unwrap();
        let hits = index.reverse_within(
            None,
            budget,
            &definitions,
            &query,
            &Filters::default(),
            (0, 20),
        )?;
        let words = hits
            .ordinals
            .iter()
            .map(|&o| index.index().word(o).unwrap())
            .collect();
        Ok((words, hits.total))
    }

    #[test]
    fn the_translation_said_exactly_comes_first() {
        let entries = vec![
            entry(
                "domicile",
                FR_EN,
                "home; house of residence; dwelling house",
            ),
            entry("maison", FR_EN, "house, home"),
            entry("logis", FR_EN, "house"),
            entry("chien", FR_EN, "dog"),
        ];
        let (words, total) = lookup(entries, "house", REVERSE_WORK_BUDGET).unwrap();
        assert_eq!(total, 3);
        // `logis` and `maison` both say exactly `house` (`logis`'s shorter
        // definition scores higher); `domicile` says it twice, never alone.
        assert_eq!(words, ["logis", "maison", "domicile"]);
    }

    #[test]
    fn a_phrase_said_exactly_outranks_its_words_said_often() {
        let entries = vec![
            entry("kennel", EN, "a house for a dog; a dog house, dog dog"),
            entry("puppy", EN, "a young dog"),
            entry("youth", EN, "the state of being young"),
        ];
        let (words, total) = lookup(entries, "a young dog", REVERSE_WORK_BUDGET).unwrap();
        assert_eq!(words, ["puppy", "kennel", "youth"]);
        assert_eq!(total, 3);
        // Without its stop word, the phrase is still said exactly.
        let entries = vec![
            entry("puppy", EN, "a young dog"),
            entry("x", EN, "young dog young dog"),
        ];
        assert_eq!(
            lookup(entries, "young dog", REVERSE_WORK_BUDGET).unwrap().0,
            ["puppy", "x"]
        );
    }

    #[test]
    fn a_query_word_matches_the_forms_of_its_lemma() {
        let entries = vec![
            entry("maison", FR_EN, "house"),
            entry("maisons", FR_EN, "houses"),
            entry("house", EN, "a building"),
            entry("chien", FR_EN, "dog"),
        ];
        for q in ["house", "houses"] {
            let (mut words, total) = lookup(entries.clone(), q, REVERSE_WORK_BUDGET).unwrap();
            words.sort();
            assert_eq!(
                (words, total),
                (vec!["maison".to_string(), "maisons".into()], 2),
                "{q}"
            );
        }
    }

    /// French `a` is a form of `avoir`; an English definition that says
    /// `avoir` is no match for `a`, a French one is.
    #[test]
    fn a_lemma_counts_in_its_own_language_only() {
        let entries = vec![
            entry("avoir", FR_EN, "to have"),
            entry("avoir", EN, "avoir: to have, in French"),
            entry("have", EN_FR, "avoir"),
            entry("a", FR_EN, "has"),
        ];
        let (words, _) = lookup(entries, "a", REVERSE_WORK_BUDGET).unwrap();
        assert_eq!(
            words,
            ["have"],
            "through the French form, in a French definition"
        );
    }

    /// Where `a` is also a French stop word (`à` folds to it), its French
    /// lemma is not looked up: `a young dog` is no question about `avoir`.
    #[test]
    fn a_stop_words_lemmas_in_its_stop_language_are_not_looked_up() {
        let entries = vec![
            entry("avoir", FR_EN, "to have"),
            entry("have", EN_FR, "avoir"),
            entry("a", FR_EN, "has"),
        ];
        let mut lexicon = lexicon();
        let stop = vec![("a".to_string(), String::new())];
        lexicon.add(LexiconKind::StopWords, "fr", stop).unwrap();
        let built = build(entries, &lexicon);
        let index: Searcher = built.decode().unwrap();
        let definitions: Definitions = built.decode().unwrap();
        let query = DefinitionQuery::new("a", index.index()).unwrap();
        assert_eq!(stop_word_keys("a"), [stop_word_key("a")]);
        let keys = query.keys(&definitions).unwrap();
        assert!(keys.contains(&stop_word_key("a")), "{query:?}");
        // `avoir`'s list and the bitmap of French definitions are not read.
        assert_eq!(
            keys,
            [phrase_key(&["a".into()]), stop_word_key("a"), "a".into()]
        );
        let filters = Filters::default();
        let hits = index
            .reverse(None, &definitions, &query, &filters, 0, 20)
            .unwrap();
        assert_eq!(hits.total, 0);
    }

    #[test]
    fn stop_words_match_nothing_but_count_in_a_phrase() {
        let entries = vec![entry("x", EN, "the"), entry("y", EN, "the end of the road")];
        let (words, total) = lookup(entries, "the", REVERSE_WORK_BUDGET).unwrap();
        assert_eq!(
            (words, total),
            (vec!["x".to_string()], 1),
            "only the exact phrase"
        );
    }

    #[test]
    fn a_query_over_the_work_budget_is_refused_before_it_works() {
        let entries: Vec<Posting> = (0..30)
            .map(|i| entry(&format!("w{i}"), EN, "a big dog"))
            .collect();
        // Three lists of 30: `big`, `dog` and the phrase `big dog` (the
        // definition without its stop word).
        assert_eq!(lookup(entries.clone(), "big dog", 90).unwrap().1, 30);
        assert_eq!(
            lookup(entries, "big dog", 89).unwrap_err(),
            SearchError::OverBudget
        );
    }

    #[test]
    fn too_many_words_are_refused() {
        let index: Searcher = build(Vec::new(), &Lexicon::default()).decode().unwrap();
        let q = vec!["w"; MAX_QUERY_WORDS + 1].join(" ");
        assert_eq!(
            DefinitionQuery::new(&q, index.index()),
            Err(QueryError::TooManyWords)
        );
        let q = vec!["w"; MAX_QUERY_WORDS].join(" ");
        assert!(DefinitionQuery::new(&q, index.index()).is_ok());
    }

    /// A lookup with only the parts of its keys held finds what it finds
    /// with every part held: what a cold instance loads is enough.
    #[test]
    fn a_lookup_reads_only_the_parts_of_its_keys() {
        let entries: Vec<Posting> = (0..20_000)
            .map(|i| {
                let definition = format!("word{} and word{}, word{}", i % 700, i % 13, i % 3);
                entry(&format!("w{i}"), EN, &definition)
            })
            .collect();
        let built = build(entries, &lexicon());
        let index: Searcher = built.decode().unwrap();
        let every: Definitions = built.decode().unwrap();
        let items = built.section(Section::Definitions);
        let parts = Arc::new(PartIndex::decode(&items[0]).unwrap());
        assert!(parts.len() > 3, "the section has several parts");
        for q in ["word5 word12", "word0 and word1", "word699", "nothing here"] {
            let query = DefinitionQuery::new(q, index.index()).unwrap();
            let wanted = Definitions::parts_of(&parts, &query.keys(&every).unwrap());
            let held = Definitions::new(
                parts.clone(),
                wanted
                    .iter()
                    .map(|&p| {
                        let bytes = items[parts.part_items(p)].concat();
                        let part =
                            crate::snapshot::DefinitionPart::decode(parts.first_key(p), bytes);
                        (p, Arc::new(part.unwrap()))
                    })
                    .collect(),
            );
            let filters = Filters::default();
            let full = index
                .reverse(None, &every, &query, &filters, 0, 50)
                .unwrap();
            let partial = index.reverse(None, &held, &query, &filters, 0, 50).unwrap();
            assert_eq!(full, partial, "{q}");
        }
    }
}
