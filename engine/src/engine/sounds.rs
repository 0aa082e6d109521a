//! Sounds-like search (docs/api.md, "Sounds like"): the words whose
//! spelling sounds like the query's in their language
//! ([`crate::sounds_like`]), fewest coarse edits first, then fewest fine
//! ones, then most common: one tier per pair of distances, each in ordinal
//! (commonness) order, paged as a search's tiers.
//!
//! A search reads the part index of `rhymes`, then the parts of the keys
//! that start with the query's first sounds ([`SoundsLikeQuery::prefixes`]).

use super::{page_of_tiers, Hits, SearchError, Searcher, WordHits};
use crate::filters::{Filters, LangFilter};
use crate::snapshot::{sounds_prefix, PartIndex, Rhymes};
use crate::sounds_like::{self, distance, edit_budget, first_sound, SoundKey};
use crate::InvalidParameter;
use roaring::RoaringBitmap;
use std::collections::{BTreeMap, HashMap};

/// The coarse keys and list items a sounds-like search may visit: the
/// broadest first sound of a language at the corpus's scale stays well
/// within it, and no request's work is unbounded.
pub const SOUNDS_LIKE_WORK_BUDGET: u64 = 1_000_000;

/// The parts of `rhymes` one sounds-like search may read (16 KB each, 4 MB
/// in all): its first sounds' keys grow with the corpus, so a query whose
/// keys would take more is refused before anything is read.
pub const SOUNDS_LIKE_MAX_PARTS: usize = 256;

/// The first symbols of the coarse keys a query's first sound reaches:
/// those [`first_sound`] makes one.
const VOWEL_CLASS: [char; 4] = ['a', 'H', 'W', 'Y'];

/// A sounds-like query: its keys in each language it is looked up in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoundsLikeQuery {
    langs: Vec<(&'static str, Vec<SoundKey>)>,
}

impl SoundsLikeQuery {
    /// The query `q` (as typed: its accents are sounds) in every language
    /// with rules, or in the filter's: a filter of a language without
    /// rules, or a query longer than [`sounds_like::MAX_WORD_CHARS`], is an
    /// invalid parameter.
    pub fn new(q: &str, lang: Option<&LangFilter>) -> Result<Self, InvalidParameter> {
        if q.chars().count() > sounds_like::MAX_WORD_CHARS {
            return Err(InvalidParameter(format!(
                "q must be at most {} characters for matchType=soundsLike",
                sounds_like::MAX_WORD_CHARS
            )));
        }
        if let Some(filter) = lang {
            if !sounds_like::LANGUAGES.contains(&filter.source.as_str()) {
                return Err(InvalidParameter(format!(
                    "matchType=soundsLike knows how {} sound: lang must be one of them",
                    sounds_like::LANGUAGES.join(", ")
                )));
            }
        }
        let langs = sounds_like::LANGUAGES
            .into_iter()
            .filter(|l| lang.is_none_or(|filter| filter.source == *l))
            .map(|l| (l, sounds_like::keys(l, q)))
            .filter(|(_, keys)| !keys.is_empty())
            .collect();
        Ok(Self { langs })
    }

    /// Whether the query has no sound (only punctuation): it finds nothing.
    pub fn is_empty(&self) -> bool {
        self.langs.is_empty()
    }

    /// The key prefixes of `rhymes` it reads: per language, the first
    /// symbols its keys' first sounds reach.
    pub fn prefixes(&self) -> Vec<String> {
        self.reads().map(|(prefix, _)| prefix).collect()
    }

    /// The parts of `rhymes` it reads, named from the part index: over
    /// [`SOUNDS_LIKE_MAX_PARTS`], over budget.
    pub fn parts(&self, index: &PartIndex) -> Result<Vec<usize>, SearchError> {
        self.parts_within(index, SOUNDS_LIKE_MAX_PARTS)
    }

    fn parts_within(&self, index: &PartIndex, max: usize) -> Result<Vec<usize>, SearchError> {
        let parts = Rhymes::parts_with_prefixes(index, &self.prefixes());
        if parts.len() > max {
            return Err(SearchError::OverBudget);
        }
        Ok(parts)
    }

    /// Each prefix it reads, with its language's keys.
    fn reads(&self) -> impl Iterator<Item = (String, &[SoundKey])> {
        self.langs.iter().flat_map(|(lang, keys)| {
            prefixes_of(lang, keys)
                .into_iter()
                .map(move |prefix| (prefix, keys.as_slice()))
        })
    }
}

/// The [`sounds_prefix`]es of `lang` whose keys the first sounds of `keys`
/// reach, each once.
fn prefixes_of(lang: &str, keys: &[SoundKey]) -> Vec<String> {
    let mut prefixes: Vec<String> = Vec::new();
    for first in keys.iter().filter_map(|key| first_sound(&key.coarse())) {
        let symbols = if first == 'a' {
            &VOWEL_CLASS[..]
        } else {
            &[first][..]
        };
        for &symbol in symbols {
            let prefix = sounds_prefix(lang, symbol);
            if !prefixes.contains(&prefix) {
                prefixes.push(prefix);
            }
        }
    }
    prefixes
}

/// The edits between two coarse keys (ASCII), if at most `max`: keys
/// whose lengths differ by more are passed over unread, and no key is
/// copied (a search compares thousands).
fn bounded_distance(a: &[u8], b: &[u8], max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        let mut lowest = row[0];
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
            lowest = lowest.min(row[j + 1]);
        }
        if lowest > max {
            return None;
        }
    }
    (row[b.len()] <= max).then_some(row[b.len()])
}

impl Searcher {
    /// The page `offset..offset + limit` of the entries whose word sounds
    /// like the query, closest first, and how many do; the parts of its
    /// [`SoundsLikeQuery::prefixes`] must be held.
    pub fn sounds_like(
        &self,
        rhymes: &Rhymes,
        query: &SoundsLikeQuery,
        filters: &Filters<'_>,
        offset: usize,
        limit: usize,
    ) -> Result<Hits, SearchError> {
        let (tiers, work) = self.sounds_like_tiers(rhymes, query, filters)?;
        Ok(page_of_tiers(&tiers, offset, limit, work))
    }

    /// [`Searcher::sounds_like`] with one result per word ([`WordHits`]).
    pub fn sounds_like_words(
        &self,
        rhymes: &Rhymes,
        query: &SoundsLikeQuery,
        filters: &Filters<'_>,
        offset: usize,
        limit: usize,
    ) -> Result<WordHits, SearchError> {
        let (tiers, work) = self.sounds_like_tiers(rhymes, query, filters)?;
        let ordered = tiers.iter().flat_map(|tier| tier.iter());
        self.words_of(ordered, (work, SOUNDS_LIKE_WORK_BUDGET), offset, limit)
    }

    /// The entries that pass `filters` of the words within reach of the
    /// query, one tier per (coarse, fine) distance in rank order, and the
    /// keys and list items visited.
    fn sounds_like_tiers(
        &self,
        rhymes: &Rhymes,
        query: &SoundsLikeQuery,
        filters: &Filters<'_>,
    ) -> Result<(Vec<RoaringBitmap>, u64), SearchError> {
        let mut work = 0u64;
        let mut nearest: HashMap<usize, (usize, usize)> = HashMap::new();
        for (prefix, keys) in query.reads() {
            // Each key's coarse key (ASCII: its vowels are `a`), first sound
            // and budget, once per prefix rather than once per list.
            let own: Vec<(&SoundKey, String, Option<char>, usize)> = keys
                .iter()
                .map(|key| {
                    let coarse = key.coarse();
                    let first = first_sound(&coarse);
                    let budget = edit_budget(coarse.len());
                    (key, coarse, first, budget)
                })
                .collect();
            rhymes.each_sounds_list(&prefix, |coarse, list| {
                work += 1;
                if work > SOUNDS_LIKE_WORK_BUDGET {
                    return Err(SearchError::OverBudget);
                }
                // The query's keys that reach this coarse key, each with
                // its distance; the list is decoded only if one does.
                let first = first_sound(coarse);
                let reaching: Vec<(&SoundKey, usize)> = own
                    .iter()
                    .filter(|(_, _, own_first, _)| *own_first == first)
                    .filter_map(|(key, own_coarse, _, budget)| {
                        bounded_distance(own_coarse.as_bytes(), coarse.as_bytes(), *budget)
                            .map(|d| (*key, d))
                    })
                    .collect();
                if reaching.is_empty() {
                    return Ok(());
                }
                let words = list.words()?;
                work += words.len() as u64;
                if work > SOUNDS_LIKE_WORK_BUDGET {
                    return Err(SearchError::OverBudget);
                }
                for (term, fine) in words {
                    for &(key, d) in &reaching {
                        let pair = (d, distance(key.fine(), fine));
                        nearest
                            .entry(term)
                            .and_modify(|best| *best = (*best).min(pair))
                            .or_insert(pair);
                    }
                }
                Ok(())
            })?;
        }
        let mut tiers: BTreeMap<(usize, usize), RoaringBitmap> = BTreeMap::new();
        for (term, pair) in nearest {
            let entries = self.index.term_entries(term);
            tiers.entry(pair).or_default().insert_range(entries);
        }
        let admitted = self.admitted(filters);
        let tiers = tiers
            .into_values()
            .map(|mut tier| {
                if let Some(admitted) = &admitted {
                    tier &= admitted.as_ref();
                }
                tier
            })
            .collect();
        Ok((tiers, work))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::Lexicon;
    use crate::oracle::sounds_like_rank;
    use crate::postings::{DictionaryRef, Posting};
    use crate::snapshot::{build, Built, PartIndex, RhymePart};
    use proptest::prelude::*;
    use std::sync::Arc;

    fn posting(word: &str, dictionary: &str, lang: &str, id: &str) -> Posting {
        Posting {
            id: id.to_string(),
            ..Posting::headword(word, DictionaryRef::new(dictionary, lang, None), word)
        }
    }

    /// The searcher of `built`, and the parts of `rhymes` a query names
    /// (only those: a part it fails to name is missing).
    fn read(built: &Built, query: &SoundsLikeQuery) -> (Searcher, Rhymes) {
        let searcher: Searcher = built.decode().unwrap();
        let (index, mut parts): (Arc<PartIndex>, HashMap<usize, Arc<RhymePart>>) =
            built.every_part().unwrap();
        let named = query.parts(&index).unwrap();
        parts.retain(|part, _| named.contains(part));
        (searcher, Rhymes::new(index, parts))
    }

    fn words(built: &Built, q: &str, lang: Option<&str>) -> Vec<String> {
        let filter = lang.map(|l| LangFilter::parse(l).unwrap());
        let query = SoundsLikeQuery::new(q, filter.as_ref()).unwrap();
        let (searcher, rhymes) = read(built, &query);
        let filters = Filters {
            lang: filter.as_ref(),
            ..Filters::default()
        };
        let hits = searcher
            .sounds_like_words(&rhymes, &query, &filters, 0, 10)
            .unwrap();
        let index = searcher.index();
        hits.words
            .iter()
            .map(|w| index.term(w.term).unwrap())
            .collect()
    }

    #[test]
    fn a_respelling_finds_its_word_closest_first_in_its_language() {
        let postings = vec![
            posting("physics", "eng-fra", "en", "1"),
            posting("physic", "eng-fra", "en", "2"),
            posting("fizz", "eng-fra", "en", "3"),
            posting("pharmacie", "fra-eng", "fr", "4"),
            posting("farce", "fra-eng", "fr", "5"),
            posting("gente", "spa-eng", "es", "6"),
            posting("Vogel", "deu-eng", "de", "7"),
            posting("fisica", "ita-eng", "it", "8"),
        ];
        let built = build(postings, &Lexicon::default());
        assert_eq!(words(&built, "fizicks", None)[0], "physics");
        assert_eq!(words(&built, "fizicks", None)[1], "physic");
        assert_eq!(words(&built, "farmasi", Some("fr")), ["pharmacie"]);
        assert_eq!(words(&built, "jente", None), ["gente"]);
        assert_eq!(words(&built, "Fogel", Some("de")), ["vogel"]);
        // Italian has no rules: its words are never found.
        assert!(!words(&built, "fisica", None).contains(&"fisica".to_string()));
        // A word finds itself first.
        assert_eq!(words(&built, "physics", Some("en"))[0], "physics");
        assert!(words(&built, "-?!", None).is_empty());
    }

    #[test]
    fn queries_too_long_or_in_a_language_without_rules_are_refused() {
        let it = LangFilter::parse("it").unwrap();
        let err = SoundsLikeQuery::new("casa", Some(&it)).unwrap_err();
        assert!(err.0.contains("de, en, es, fr"), "{}", err.0);
        let long = "a".repeat(sounds_like::MAX_WORD_CHARS + 1);
        assert!(SoundsLikeQuery::new(&long, None).is_err());
        assert!(SoundsLikeQuery::new("-?!", None).unwrap().is_empty());
    }

    #[test]
    fn a_query_whose_first_sounds_fill_too_many_parts_is_over_budget() {
        let postings: Vec<Posting> = (0..200)
            .map(|i| {
                posting(
                    &format!("s{}", "abcdefghij".repeat(1 + i % 3)),
                    "en-x",
                    "en",
                    &i.to_string(),
                )
            })
            .chain((0..200).map(|i| posting(&format!("sa{i}t"), "en-x", "en", &format!("n{i}"))))
            .collect();
        let built = build(postings, &Lexicon::default());
        let (index, _): (Arc<PartIndex>, HashMap<usize, Arc<RhymePart>>) =
            built.every_part().unwrap();
        let query = SoundsLikeQuery::new("sat", None).unwrap();
        let needed = query.parts_within(&index, usize::MAX).unwrap().len();
        assert!(needed > 2, "{needed} parts");
        assert_eq!(query.parts_within(&index, needed).unwrap().len(), needed);
        assert_eq!(
            query.parts_within(&index, needed - 1),
            Err(SearchError::OverBudget)
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// The bounded distance is the distance when within the bound, and
        /// none beyond it.
        #[test]
        fn the_bounded_distance_is_the_distance_within_its_bound(
            a in "[aKST]{0,8}", b in "[aKST]{0,8}", max in 0usize..4,
        ) {
            let d = distance(&a, &b);
            let expected = (d <= max).then_some(d);
            prop_assert_eq!(bounded_distance(a.as_bytes(), b.as_bytes(), max), expected);
        }

        /// Over parts of a few dozen bytes, a sounds-like search finds
        /// exactly the words the brute force ranks (every word's spellings
        /// against the query, [`sounds_like_rank`]), in its order, tie
        /// broken by commonness (term order), paged alike, filters held.
        #[test]
        fn a_search_is_the_brute_force_ranking(
            words in proptest::collection::vec(
                ("[cksvh][aeiou]{0,2}[cklmnrst]{0,2}[aeiou]?[hkst]?", 0..4usize),
                1..60,
            ),
            query in "[cksvh][aeiou]{0,2}[cklmnrst]{0,2}[aeiou]?[hkst]?",
            filter_lang in proptest::option::of(0..3usize),
            limit in 1usize..7,
        ) {
            let langs = ["en", "fr", "de", "it"];
            let postings: Vec<Posting> = words
                .iter()
                .enumerate()
                .map(|(i, (word, lang))| {
                    let lang = langs[*lang];
                    posting(word, &format!("{lang}-x"), lang, &i.to_string())
                })
                .collect();
            let built = build(postings.clone(), &Lexicon::default());
            let filter = filter_lang.map(|l| LangFilter::parse(langs[l]).unwrap());
            let query_of = SoundsLikeQuery::new(&query, filter.as_ref()).unwrap();
            let (searcher, rhymes) = read(&built, &query_of);
            let index = searcher.index();
            // Brute force: per word (folded, language) its spellings.
            let mut spellings: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
            for p in &postings {
                let list = spellings
                    .entry((p.folded.clone(), p.dictionary.source_lang.clone()))
                    .or_default();
                if !list.contains(&p.word) {
                    list.push(p.word.clone());
                }
            }
            let mut expected: Vec<((usize, usize), usize)> = Vec::new();
            for ((folded, lang), list) in &spellings {
                if filter.as_ref().is_some_and(|f| &f.source != lang) {
                    continue;
                }
                let list: Vec<&str> = list.iter().map(String::as_str).collect();
                if let Some(rank) = sounds_like_rank(&query, lang, &list) {
                    let term = searcher.terms_of_word(folded, Some(lang)).unwrap()[0].0;
                    expected.push((rank, term));
                }
            }
            expected.sort_unstable();
            let expected: Vec<u32> = expected
                .iter()
                .flat_map(|&(_, term)| index.term_entries(term))
                .collect();
            let filters = Filters { lang: filter.as_ref(), ..Filters::default() };
            let mut found = Vec::new();
            let mut offset = 0;
            loop {
                let hits = searcher
                    .sounds_like(&rhymes, &query_of, &filters, offset, limit)
                    .unwrap();
                prop_assert_eq!(hits.total, expected.len());
                found.extend(hits.ordinals);
                offset += limit;
                if offset >= hits.total {
                    break;
                }
            }
            prop_assert_eq!(found, expected);
        }
    }
}
