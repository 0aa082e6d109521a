//! Sounds-like search (docs/api.md, "Sounds like"): the words whose
//! spelling sounds like the query's in their language
//! ([`crate::sounds_like`]), fewest coarse edits first, then fewest fine
//! ones, then most common: one tier per pair of distances, each in ordinal
//! (commonness) order, paged as a search's tiers.
//!
//! A search reads the part index of `rhymes`, then the parts of the coarse
//! keys that start with the query's first sounds in whose key range a
//! Levenshtein automaton of one of its own keys may match
//! ([`SoundsLikeQuery::walk`], each automaton built once), walks them with
//! those automata ([`SoundsWalk::matches`]), then reads the parts of the
//! lists of the keys it reached ([`SoundsMatches::parts`]).

use super::{page_of_tiers, Hits, SearchError, Searcher, WordHits};
use crate::filters::{Filters, LangFilter};
use crate::snapshot::{sounds_index_prefix, sounds_key, Grams, PartIndex, Rhymes};
use crate::sounds_like::{self, distance, edit_budget, first_sound, SoundKey};
use crate::InvalidParameter;
use levenshtein_automata::{LevenshteinAutomatonBuilder, DFA};
use roaring::RoaringBitmap;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

/// The coarse keys reached and list items a sounds-like search may visit:
/// no request's work is unbounded.
pub const SOUNDS_LIKE_WORK_BUDGET: u64 = 1_000_000;

/// The bytes of `rhymes` one sounds-like search may read at each of its
/// two steps (the parts' stored sizes, from the part index): the coarse
/// keys of its first sounds, then the lists of the keys it reached. Both
/// grow with the corpus, so a query that would take more is refused before
/// they are read.
pub const SOUNDS_LIKE_MAX_BYTES: usize = 4 * 1024 * 1024;

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

    /// Its walks over the coarse keys of `rhymes` (one automaton per
    /// distinct coarse key of a language, built once) and the parts they
    /// read, named from the part index: over [`SOUNDS_LIKE_MAX_BYTES`],
    /// over budget.
    pub fn walk(&self, index: &PartIndex) -> Result<SoundsWalk, SearchError> {
        self.walk_within(index, SOUNDS_LIKE_MAX_BYTES)
    }

    fn walk_within(&self, index: &PartIndex, max: usize) -> Result<SoundsWalk, SearchError> {
        let mut walks: Vec<Walk> = Vec::new();
        for (lang, keys) in &self.langs {
            for key in keys {
                let coarse = key.coarse();
                if let Some(walk) = walks
                    .iter_mut()
                    .find(|w| w.lang == *lang && w.coarse == coarse)
                {
                    walk.own.push(key.clone());
                    continue;
                }
                let Some(first) = first_sound(&coarse) else {
                    continue;
                };
                let symbols = if first == 'a' {
                    &VOWEL_CLASS[..]
                } else {
                    &[first][..]
                };
                let budget = edit_budget(coarse.len());
                let dfa = automaton_builder(budget).build_dfa(&coarse);
                let prefixes = symbols
                    .iter()
                    .map(|&symbol| {
                        let prefix = sounds_index_prefix(lang, symbol);
                        let parts = Rhymes::sounds_key_parts(index, &prefix, &dfa);
                        (prefix, parts)
                    })
                    .collect();
                walks.push(Walk {
                    lang,
                    own: vec![key.clone()],
                    coarse,
                    budget,
                    dfa,
                    prefixes,
                });
            }
        }
        let parts: BTreeSet<usize> = walks
            .iter()
            .flat_map(|w| w.prefixes.iter().flat_map(|(_, parts)| parts))
            .copied()
            .collect();
        let parts = within_bytes(index, parts.into_iter().collect(), max)?;
        Ok(SoundsWalk { walks, parts })
    }
}

/// The walks of a sounds-like query over the coarse keys of its first
/// sounds ([`SoundsLikeQuery::walk`]) and the parts of `rhymes` they read.
pub struct SoundsWalk {
    walks: Vec<Walk>,
    parts: Vec<usize>,
}

/// One walk: a coarse key of the query in a language, the query's keys
/// that have it, the edits it allows, its automaton and, per prefix of its
/// first sound ([`sounds_index_prefix`]), the parts in whose key range the
/// automaton may match.
struct Walk {
    lang: &'static str,
    own: Vec<SoundKey>,
    coarse: String,
    budget: usize,
    dfa: DFA,
    prefixes: Vec<(String, Vec<usize>)>,
}

impl SoundsWalk {
    /// The parts of `rhymes` the walks read, each once, in order.
    pub fn parts(&self) -> &[usize] {
        &self.parts
    }

    /// The coarse keys the walks reach in their parts (held in `rhymes`),
    /// each within the [`edit_budget`] of the query's coarse key. Over
    /// budget when the keys reached are more than
    /// [`SOUNDS_LIKE_WORK_BUDGET`].
    pub fn matches(&self, rhymes: &Rhymes) -> Result<SoundsMatches, SearchError> {
        let mut reached: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
        let mut owns: Vec<SoundKey> = Vec::new();
        let mut work = 0u64;
        for walk in &self.walks {
            let first_own = owns.len();
            owns.extend(walk.own.iter().cloned());
            let walk_owns = first_own..owns.len();
            for (prefix, parts) in &walk.prefixes {
                rhymes.each_sounds_key(parts, prefix, &walk.dfa, |found| {
                    let Some(d) =
                        bounded_distance(walk.coarse.as_bytes(), found.as_bytes(), walk.budget)
                    else {
                        return Ok::<(), SearchError>(());
                    };
                    work += 1;
                    if work > SOUNDS_LIKE_WORK_BUDGET {
                        return Err(SearchError::OverBudget);
                    }
                    let own = reached.entry(sounds_key(walk.lang, found)).or_default();
                    own.extend(walk_owns.clone().map(|key| (key, d)));
                    Ok(())
                })?;
            }
        }
        Ok(SoundsMatches {
            owns,
            reached,
            work,
        })
    }
}

/// The bytes `parts` take as stored, from the part index.
fn stored_bytes(index: &PartIndex, parts: &[usize]) -> usize {
    parts.iter().map(|&part| index.part_bytes(part)).sum()
}

/// `parts`, unless they hold more than `max` bytes: over budget.
fn within_bytes(
    index: &PartIndex,
    parts: Vec<usize>,
    max: usize,
) -> Result<Vec<usize>, SearchError> {
    if stored_bytes(index, &parts) > max {
        return Err(SearchError::OverBudget);
    }
    Ok(parts)
}

/// The builder of Levenshtein automata within `edits` (plain Levenshtein
/// distance, as [`distance`]: no transpositions), made once.
fn automaton_builder(edits: usize) -> &'static LevenshteinAutomatonBuilder {
    static ONE: OnceLock<LevenshteinAutomatonBuilder> = OnceLock::new();
    static TWO: OnceLock<LevenshteinAutomatonBuilder> = OnceLock::new();
    match edits {
        0 | 1 => ONE.get_or_init(|| LevenshteinAutomatonBuilder::new(1, false)),
        _ => TWO.get_or_init(|| LevenshteinAutomatonBuilder::new(2, false)),
    }
}

/// The coarse keys a sounds-like query reached: per [`sounds_key`], the
/// query's keys that reach it and their coarse distance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoundsMatches {
    /// The query's keys, each walk's in a run.
    owns: Vec<SoundKey>,
    /// Per key reached, the query's keys that reach it (in `owns`).
    reached: BTreeMap<String, Vec<(usize, usize)>>,
    /// The keys reached.
    work: u64,
}

impl SoundsMatches {
    /// The [`sounds_key`]s whose lists the search reads next.
    pub fn list_keys(&self) -> Vec<&str> {
        self.reached.keys().map(String::as_str).collect()
    }

    /// The parts of `rhymes` that hold those lists: over
    /// [`SOUNDS_LIKE_MAX_BYTES`], over budget.
    pub fn parts(&self, index: &PartIndex) -> Result<Vec<usize>, SearchError> {
        self.parts_within(index, SOUNDS_LIKE_MAX_BYTES)
    }

    fn parts_within(&self, index: &PartIndex, max: usize) -> Result<Vec<usize>, SearchError> {
        within_bytes(index, Rhymes::parts_of(index, &self.list_keys()), max)
    }
}

/// The edits between two coarse keys (ASCII), if at most `max`: keys
/// whose lengths differ by more are passed over unread, and no key is
/// copied.
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
    /// like the query, closest first, and how many do, from the keys it
    /// reached; the parts of their lists ([`SoundsMatches::parts`]) must
    /// be held.
    pub fn sounds_like(
        &self,
        grams: Option<&Grams>,
        rhymes: &Rhymes,
        matches: &SoundsMatches,
        filters: &Filters<'_>,
        offset: usize,
        limit: usize,
    ) -> Result<Hits, SearchError> {
        let (tiers, work) = self.sounds_like_tiers(grams, rhymes, matches, filters)?;
        Ok(page_of_tiers(&tiers, offset, limit, work))
    }

    /// [`Searcher::sounds_like`] with one result per word ([`WordHits`]).
    pub fn sounds_like_words(
        &self,
        grams: Option<&Grams>,
        rhymes: &Rhymes,
        matches: &SoundsMatches,
        filters: &Filters<'_>,
        offset: usize,
        limit: usize,
    ) -> Result<WordHits, SearchError> {
        let (tiers, work) = self.sounds_like_tiers(grams, rhymes, matches, filters)?;
        let ordered = tiers.iter().flat_map(|tier| tier.iter());
        self.words_of(ordered, (work, SOUNDS_LIKE_WORK_BUDGET), offset, limit)
    }

    /// The entries that pass `filters` of the words of the keys reached,
    /// one tier per (coarse, fine) distance in rank order, and the work
    /// done.
    fn sounds_like_tiers(
        &self,
        grams: Option<&Grams>,
        rhymes: &Rhymes,
        matches: &SoundsMatches,
        filters: &Filters<'_>,
    ) -> Result<(Vec<RoaringBitmap>, u64), SearchError> {
        let mut nearest: HashMap<usize, (usize, usize)> = HashMap::new();
        let mut work = matches.work;
        for (key, reaching) in &matches.reached {
            let Some(list) = rhymes.sounds_list(key)? else {
                continue;
            };
            let words = list.words()?;
            work += words.len() as u64;
            if work > SOUNDS_LIKE_WORK_BUDGET {
                return Err(SearchError::OverBudget);
            }
            for (term, fine) in words {
                for &(own, d) in reaching {
                    let pair = (d, distance(matches.owns[own].fine(), fine));
                    nearest
                        .entry(term)
                        .and_modify(|best| *best = (*best).min(pair))
                        .or_insert(pair);
                }
            }
        }
        let mut tiers: BTreeMap<(usize, usize), RoaringBitmap> = BTreeMap::new();
        for (term, pair) in nearest {
            let entries = self.index.term_entries(term);
            tiers.entry(pair).or_default().insert_range(entries);
        }
        let admitted = self.admitted(grams, filters)?;
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
    use crate::postings::{DictionaryRef, Posting, PostingFields};
    use crate::snapshot::{build, Built, PartIndex, RhymePart};
    use proptest::prelude::*;
    use std::sync::Arc;

    fn posting(word: &str, dictionary: &str, lang: &str, id: &str) -> Posting {
        PostingFields {
            id: id.to_string(),
            ..PostingFields::headword(word, DictionaryRef::new(dictionary, lang, None), word)
        }
        .into()
    }

    /// The searcher of `built`, the keys a query reaches and the parts of
    /// `rhymes` that hold their lists, each step given only the parts the
    /// one before named (a part it fails to name is missing).
    fn read(built: &Built, query: &SoundsLikeQuery) -> (Searcher, SoundsMatches, Rhymes) {
        let searcher: Searcher = built.decode().unwrap();
        let (index, every): (Arc<PartIndex>, HashMap<usize, Arc<RhymePart>>) =
            built.every_part().unwrap();
        let only = |named: &[usize]| {
            let mut parts = every.clone();
            parts.retain(|part, _| named.contains(part));
            Rhymes::new(index.clone(), parts)
        };
        let walk = query.walk(&index).unwrap();
        let matches = walk.matches(&only(walk.parts())).unwrap();
        let lists = only(&matches.parts(&index).unwrap());
        (searcher, matches, lists)
    }

    fn words(built: &Built, q: &str, lang: Option<&str>) -> Vec<String> {
        let filter = lang.map(|l| LangFilter::parse(l).unwrap());
        let query = SoundsLikeQuery::new(q, filter.as_ref()).unwrap();
        let (searcher, matches, rhymes) = read(built, &query);
        let filters = Filters {
            lang: filter.as_ref(),
            ..Filters::default()
        };
        let hits = searcher
            .sounds_like_words(
                Some(&built.grams().unwrap()),
                &rhymes,
                &matches,
                &filters,
                0,
                10,
            )
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
    fn a_query_whose_keys_or_lists_fill_too_many_parts_is_over_budget() {
        // 144 coarse keys of the first sound `S`, and words near `sat`.
        let consonants: Vec<char> = "bdfglmnprtvz".chars().collect();
        let postings: Vec<Posting> = (0..144)
            .map(|i| {
                let (a, b) = (consonants[i % 12], consonants[i / 12]);
                posting(&format!("s{a}o{b}ik"), "en-x", "en", &i.to_string())
            })
            .chain((0..200).map(|i| {
                let word = format!("sa{}t", ["", "m", "n", "l", "r", "k"][i % 6]);
                posting(&word, "en-x", "en", &format!("n{i}"))
            }))
            .collect();
        let built = build(postings, &Lexicon::default());
        let (index, every): (Arc<PartIndex>, HashMap<usize, Arc<RhymePart>>) =
            built.every_part().unwrap();
        let query = SoundsLikeQuery::new("sat", None).unwrap();
        let walk = query.walk_within(&index, usize::MAX).unwrap();
        assert!(walk.parts().len() > 2, "{:?} parts", walk.parts());
        let needed = stored_bytes(&index, walk.parts());
        let within = query.walk_within(&index, needed).unwrap();
        assert_eq!(within.parts(), walk.parts());
        assert!(matches!(
            query.walk_within(&index, needed - 1),
            Err(SearchError::OverBudget)
        ));
        // The lists of the keys reached: `sat`, `samt`, `sant`… each its own.
        let matches = walk.matches(&Rhymes::new(index.clone(), every)).unwrap();
        assert!(matches.list_keys().len() >= 5, "{:?}", matches.list_keys());
        let lists = matches.parts_within(&index, usize::MAX).unwrap();
        assert!(lists.len() >= 2, "{lists:?} parts");
        let needed = stored_bytes(&index, &lists);
        assert_eq!(matches.parts_within(&index, needed), Ok(lists));
        assert_eq!(
            matches.parts_within(&index, needed - 1),
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

        /// Over parts of about a hundred bytes, a sounds-like search finds
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
            let grams = built.grams().unwrap();
            let filter = filter_lang.map(|l| LangFilter::parse(langs[l]).unwrap());
            let query_of = SoundsLikeQuery::new(&query, filter.as_ref()).unwrap();
            let (searcher, matches, rhymes) = read(&built, &query_of);
            let index = searcher.index();
            // Brute force: per word (folded, language) its spellings.
            let mut spellings: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
            for p in &postings {
                let list = spellings
                    .entry((p.folded().to_string(), p.dictionary.source_lang.clone()))
                    .or_default();
                if !list.iter().any(|w| w == p.word()) {
                    list.push(p.word().to_string());
                }
            }
            let mut expected: Vec<((usize, usize), usize)> = Vec::new();
            for ((folded, lang), list) in &spellings {
                if filter.as_ref().is_some_and(|f| &f.source != lang) {
                    continue;
                }
                let list: Vec<&str> = list.iter().map(String::as_str).collect();
                if let Some(rank) = sounds_like_rank(&query, lang, &list) {
                    let term = searcher.term_in_lang(folded, lang);
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
                    .sounds_like(Some(&grams), &rhymes, &matches, &filters, offset, limit)
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
