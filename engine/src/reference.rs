//! A brute-force reference beside the snapshot engine: the rules of
//! decisions.md applied to every headword of a random corpus, compared with
//! what the snapshot answers for random queries, typos and filters.

use super::engine::{entries_per_word, SearchError, Searcher, TypoWalk, AUTOCOMPLETE_BLOCKS};
use super::filters::{Filters, LangFilter};
use super::lexicon::{Lexicon, LexiconKind};
use super::matching::{MatchRule, MatchType, TypoKind, EXTRA_EDIT_BELOW, EXTRA_EDIT_FROM};
use super::oracle;
use super::postings::{DictionaryRef, Posting, PostingFields};
use super::snapshot::{
    build, build_with_blocks, rank_order, Built, Grams, Records, TERM_BLOCK_BYTES,
};
use proptest::prelude::*;

/// The tier of a headword by the rules, or `None` if it does not match:
/// 0 exact, 1 literal, 2 lemma, then [`oracle::typo_tier`].
fn tier(rule: &MatchRule, lexicon: &Lexicon, p: &Posting, max_edits: usize) -> Option<usize> {
    oracle::tier(
        rule.query(),
        rule.match_type,
        max_edits,
        lexicon,
        &p.dictionary.source_lang,
        p.folded(),
    )
}

/// Commonness by its definition, over the whole corpus: the frequency of
/// the word (`term` in dictionaries of `lang`) in `lang`'s list, any listed
/// word above every unlisted one, and those by their number of
/// dictionaries of `lang`.
fn commonness(postings: &[Posting], lexicon: &Lexicon, term: &str, lang: &str) -> (bool, usize) {
    let same = |p: &&Posting| p.folded() == term && p.dictionary.source_lang == lang;
    let mut dictionaries: Vec<&str> = postings
        .iter()
        .filter(same)
        .map(|p| p.dictionary.id.as_str())
        .collect();
    dictionaries.sort_unstable();
    dictionaries.dedup();
    oracle::commonness(lexicon, term, lang, dictionaries.len())
}

fn admit(filters: &Filters<'_>, p: &Posting) -> bool {
    filters.admit_dictionary(&p.dictionary)
        && (!filters.has_audio || p.has_audio)
        && filters.part_of_speech.is_none_or(|want| {
            p.part_of_speech
                .as_deref()
                .is_some_and(|have| have.trim().eq_ignore_ascii_case(want.trim()))
        })
}

/// A match as the reference sorts it: tier, whether an exact match is not
/// capitalised as the query was typed (those that are come first), the
/// commonness of its word (most common first), length, folded headword,
/// language, its place among its dictionary's entries of the headword
/// ([`sense`]), dictionary, id, and its index in the corpus.
type Match<'a> = (
    usize,
    bool,
    std::cmp::Reverse<(bool, usize)>,
    usize,
    &'a str,
    &'a str,
    usize,
    &'a str,
    &'a str,
    usize,
);

/// How many entries of `p`'s dictionary with `p`'s folded headword have a
/// smaller id: a word's entries come each dictionary's first, then each
/// one's second, ….
fn sense(postings: &[Posting], p: &Posting) -> usize {
    let same = |q: &&Posting| q.folded() == p.folded() && q.dictionary.id == p.dictionary.id;
    postings
        .iter()
        .filter(same)
        .filter(|q| q.id() < p.id())
        .count()
}

fn matches<'a>(
    postings: &'a [Posting],
    lexicon: &Lexicon,
    rule: &MatchRule,
    filters: &Filters<'_>,
    max_edits: usize,
) -> Vec<Match<'a>> {
    postings
        .iter()
        .enumerate()
        .filter(|(_, p)| admit(filters, p))
        .filter_map(|(i, p)| {
            tier(rule, lexicon, p, max_edits).map(|t| {
                (
                    t,
                    t == 0 && !crate::fold::capitalised_as(p.word(), rule.capitalised),
                    std::cmp::Reverse(commonness(
                        postings,
                        lexicon,
                        p.folded(),
                        &p.dictionary.source_lang,
                    )),
                    p.folded().chars().count(),
                    p.folded(),
                    p.dictionary.source_lang.as_str(),
                    sense(postings, p),
                    p.dictionary.id.as_str(),
                    p.id(),
                    i,
                )
            })
        })
        .collect()
}

/// Every match in order (indexes into `postings`) and the page.
fn search(
    postings: &[Posting],
    lexicon: &Lexicon,
    rule: &MatchRule,
    filters: &Filters<'_>,
    offset: usize,
    limit: usize,
) -> (usize, Vec<usize>) {
    let mut found = matches(postings, lexicon, rule, filters, rule.max_edits);
    let mut terms: Vec<(&str, &str)> = found.iter().map(|m| (m.4, m.5)).collect();
    terms.sort_unstable();
    terms.dedup();
    // Too few words (a headword in a language) for a typo-tolerant query
    // of 5 or more characters: one edit more, ranked last.
    if rule.max_edits > 0
        && rule.query().chars().count() >= EXTRA_EDIT_FROM
        && terms.len() < EXTRA_EDIT_BELOW
    {
        let further = rule.max_edits + 1;
        let last = oracle::typo_tier(further, TypoKind::Doubling)
            ..=oracle::typo_tier(further, TypoKind::ThroughForm);
        found.extend(
            matches(postings, lexicon, rule, filters, further)
                .into_iter()
                .filter(|m| last.contains(&m.0))
                .map(|mut m| {
                    // After every tier of the query's own edits.
                    m.0 += 1000;
                    m
                }),
        );
    }
    found.sort();
    let total = found.len();
    let page = found
        .into_iter()
        .skip(offset)
        .take(limit)
        .map(|m| m.9)
        .collect();
    (total, page)
}

fn autocomplete(
    postings: &[Posting],
    prefix: &str,
    filters: &Filters<'_>,
    limit: usize,
) -> Vec<String> {
    let mut words: Vec<(&str, &str)> = postings
        .iter()
        .filter(|p| p.folded().starts_with(prefix) && admit(filters, p))
        .map(|p| (p.folded(), p.word()))
        .collect();
    words.sort_unstable();
    words.dedup_by(|a, b| a.1 == b.1);
    words
        .into_iter()
        .take(limit)
        .map(|(_, w)| w.to_string())
        .collect()
}

const DICTIONARIES: [(&str, &str, Option<&str>); 3] = [
    ("a-fr-en", "fr", Some("en")),
    ("b-en-fr", "en", Some("fr")),
    ("c-en", "en", None),
];
const PARTS: [Option<&str>; 4] = [None, Some("noun"), Some("Verb"), Some(" verb ")];

/// Headwords from a small alphabet, so that queries share prefixes, contain
/// each other and sit within a few edits of many headwords.
fn headword() -> impl Strategy<Value = String> {
    trimmed("[abcdeéAÉ ]{1,9}")
}

/// Headwords of 4 to 14 characters, some of several bytes once folded, so
/// that queries allow 2 edits (and 3 as the extra edit) and typo walks
/// anchor on either end.
fn long_headword() -> impl Strategy<Value = String> {
    trimmed("[abcéß日ж ]{4,14}")
}

fn trimmed(pattern: &'static str) -> impl Strategy<Value = String> {
    pattern
        .prop_map(|w| w.trim().to_string())
        .prop_filter("not empty", |w| !w.is_empty())
}

fn corpus() -> impl Strategy<Value = Vec<Posting>> {
    corpus_of(headword().boxed())
}

/// A corpus of `headword`s; about one in five is the twin of an earlier
/// one with its first letter's case swapped (`Ab` beside `ab`), so that
/// exact matches often differ in capitalisation.
fn corpus_of(headword: BoxedStrategy<String>) -> impl Strategy<Value = Vec<Posting>> {
    let twin = prop::option::weighted(0.2, any::<usize>());
    proptest::collection::vec(
        (
            headword,
            0..3usize,
            0..4usize,
            any::<bool>(),
            any::<bool>(),
            twin,
        ),
        1..120,
    )
    .prop_map(|raw| {
        let mut words: Vec<String> = Vec::new();
        let all: Vec<Posting> = raw
            .into_iter()
            .enumerate()
            .map(|(i, (word, d, part, audio, hex, twin))| -> Posting {
                let word = match twin {
                    Some(k) if i > 0 => case_swapped(&words[k % i]),
                    _ => word,
                };
                words.push(word.clone());
                let (id, source, target) = DICTIONARIES[d];
                PostingFields {
                    part_of_speech: PARTS[part].map(Into::into),
                    has_audio: audio,
                    preview: format!("{word} {i}"),
                    ..PostingFields::headword(
                        &word,
                        DictionaryRef::new(id, source, target),
                        if hex {
                            format!("{:016x}", i * 104_729)
                        } else {
                            format!("id-{i}")
                        },
                    )
                }
                .into()
            })
            .filter(|p| !p.folded().is_empty())
            .collect();
        rank_order(all, &Lexicon::default())
    })
}

/// `word` with its first character's case swapped.
fn case_swapped(word: &str) -> String {
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    let swapped: String = if first.is_uppercase() {
        first.to_lowercase().collect()
    } else {
        first.to_uppercase().collect()
    };
    swapped + chars.as_str()
}

const LEXICON_LANGS: [&str; 3] = ["en", "fr", "de"];

/// A corpus and a lexicon for it: frequencies for some of its headwords (and
/// a few others), forms whose lemmas are mostly its headwords (often the
/// lemma with an ending, so that typos of a form land near it), in languages
/// that some of its dictionaries have and one that none has. The corpus
/// comes in the snapshot's rank order, so that an ordinal is an index.
fn corpus_and_lexicon() -> impl Strategy<Value = (Vec<Posting>, Lexicon)> {
    corpus().prop_flat_map(|postings| {
        let n = postings.len();
        let frequencies = proptest::collection::vec((0..n + 2, 0..3usize, 0..900u16), 0..12);
        // A lemma with an ending, or an unrelated string (`went`, `go`).
        let ending = prop::sample::select(vec!["", "s", "ed", "ing"]);
        let forms = proptest::collection::vec((headword(), ending, 0..n + 1, 0..3usize), 0..12);
        (Just(postings), frequencies, forms).prop_map(|(postings, frequencies, forms)| {
            let mut lexicon = Lexicon::default();
            let word = |pick: usize| match postings.get(pick) {
                Some(p) => p.folded().to_string(),
                None => "abc".to_string(),
            };
            for (pick, lang, centis) in frequencies {
                let pairs = vec![(word(pick), centis.to_string())];
                lexicon
                    .add(LexiconKind::Frequencies, LEXICON_LANGS[lang], pairs)
                    .unwrap();
            }
            for (form, ending, pick, lang) in forms {
                let form = match ending {
                    "" => crate::fold::fold(&form),
                    _ => format!("{}{ending}", word(pick)),
                };
                if !form.is_empty() {
                    let pairs = vec![(form, word(pick))];
                    lexicon
                        .add(LexiconKind::Forms, LEXICON_LANGS[lang], pairs)
                        .unwrap();
                }
            }
            (rank_order(postings, &lexicon), lexicon)
        })
    })
}

/// A corpus of long headwords and inflected forms of them, some a lemma with
/// an ending, some unrelated strings, so that typo walks over the forms run
/// with 2 and 3 edits, anchored on either end.
fn long_corpus_and_forms() -> impl Strategy<Value = (Vec<Posting>, Lexicon)> {
    corpus_of(long_headword().boxed()).prop_flat_map(|postings| {
        let n = postings.len();
        let ending = prop::sample::select(vec!["", "s", "ed", "ing", "ßж"]);
        let forms =
            proptest::collection::vec((long_headword(), ending, 0..n + 1, 0..3usize), 0..20);
        (Just(postings), forms).prop_map(|(postings, forms)| {
            let mut lexicon = Lexicon::default();
            for (other, ending, pick, lang) in forms {
                let (form, lemma) = match postings.get(pick) {
                    Some(p) if !ending.is_empty() => {
                        (format!("{}{ending}", p.folded()), p.folded().to_string())
                    }
                    Some(p) => (crate::fold::fold(&other), p.folded().to_string()),
                    None => (crate::fold::fold(&other), "abc".to_string()),
                };
                lexicon
                    .add(LexiconKind::Forms, LEXICON_LANGS[lang], vec![(form, lemma)])
                    .unwrap();
            }
            (rank_order(postings, &lexicon), lexicon)
        })
    })
}

/// A query: a headword of the corpus or a form of the lexicon, with up to
/// two random edits, or a fresh string.
fn query(
    postings: &[Posting],
    lexicon: &Lexicon,
    pick: usize,
    edits: &[(u8, usize, char)],
    fresh: &str,
) -> String {
    let forms: Vec<&str> = lexicon.forms.values().flat_map(|f| f.forms()).collect();
    // A third of the queries start from a form, when there are forms: they
    // are few beside the headwords.
    let mut q: Vec<char> = match pick % (postings.len() + forms.len() + 1) {
        _ if pick.is_multiple_of(3) && !forms.is_empty() => {
            forms[pick / 3 % forms.len()].chars().collect()
        }
        i if i < postings.len() => postings[i].folded().chars().collect(),
        i if i < postings.len() + forms.len() => forms[i - postings.len()].chars().collect(),
        _ => fresh.chars().collect(),
    };
    for &(kind, at, c) in edits {
        let at = at % (q.len() + 1);
        match kind % 4 {
            0 if at < q.len() => q[at] = c,
            1 => q.insert(at, c),
            2 if at < q.len() && q.len() > 1 => {
                q.remove(at);
            }
            3 if at + 1 < q.len() => q.swap(at, at + 1),
            _ => {}
        }
    }
    crate::fold::fold(&q.into_iter().collect::<String>())
}

/// A pattern made from `word`: each change turns the character at a place
/// into `?` (0) or `*` (1), inserts `*` (2) or `?` (3), or turns a run of up
/// to 3 characters into `*` (4); `ends` add a `*` before and after.
fn pattern_of(word: &str, changes: &[(u8, usize, usize)], ends: (bool, bool)) -> String {
    let mut p: Vec<char> = word.chars().collect();
    for &(kind, at, len) in changes {
        let at = at % (p.len() + 1);
        match kind {
            0 if at < p.len() => p[at] = '?',
            1 if at < p.len() => p[at] = '*',
            2 => p.insert(at, '*'),
            3 => p.insert(at, '?'),
            4 if at < p.len() => {
                let end = (at + len).min(p.len());
                p.splice(at..end, ['*']);
            }
            _ => {}
        }
    }
    let mut raw: String = p.into_iter().collect();
    if ends.0 {
        raw.insert(0, '*');
    }
    if ends.1 {
        raw.push('*');
    }
    raw
}

/// A cold instance's view of the build of `postings`: term blocks of
/// about `block_bytes` (tiny ones put block boundaries inside every walk),
/// none held yet, and every part of `records` and `grams`.
fn snapshot(postings: &[Posting], lexicon: &Lexicon, block_bytes: usize) -> (Cold, Records, Grams) {
    let built = build_with_blocks(postings.to_vec(), lexicon, block_bytes);
    let searcher = Searcher::new(built.cold_index().unwrap());
    let (records, grams) = (built.decode().unwrap(), built.decode().unwrap());
    (Cold { built, searcher }, records, grams)
}

/// Term block sizes: one key per block, a few keys, and the real size.
fn block_bytes() -> impl Strategy<Value = usize> {
    prop_oneof![Just(1usize), 8..120usize, Just(TERM_BLOCK_BYTES)]
}

/// A searcher that starts with no term block, and its build.
struct Cold {
    built: Built,
    searcher: Searcher,
}

impl Cold {
    /// What `read` answers once it has the term blocks it names missing,
    /// handed over as the store reads them, in at most `rounds` passes: a
    /// search names every FST block of its tiers in its first pass, the
    /// text blocks of the terms it checks by text and the FST blocks of the
    /// extra edit in the second, the extra edit's text blocks in the third.
    fn answer<T>(
        &self,
        rounds: usize,
        read: impl Fn(&Searcher) -> Result<T, SearchError>,
    ) -> Result<T, SearchError> {
        for _ in 1..rounds {
            match read(&self.searcher) {
                Err(SearchError::Missing(missing)) => {
                    let blocks = self.built.term_blocks(&missing);
                    assert_eq!(blocks.len(), missing.0.len(), "{missing:?} are stored");
                    let dictionary = self.searcher.index().term_dictionary();
                    dictionary.keep(blocks).unwrap();
                }
                answered => return answered,
            }
        }
        read(&self.searcher)
    }
}

#[derive(Debug, Clone)]
struct FilterChoice {
    lang: Option<&'static str>,
    source: Option<&'static str>,
    pos: Option<&'static str>,
    audio: bool,
}

fn filter_choice() -> impl Strategy<Value = FilterChoice> {
    (
        prop_oneof![
            Just(None),
            Just(Some("en")),
            Just(Some("fr-en")),
            Just(Some("de"))
        ],
        prop_oneof![Just(None), Just(Some("a-fr-en")), Just(Some("c-en"))],
        prop_oneof![Just(None), Just(Some("verb")), Just(Some("NOUN"))],
        any::<bool>(),
    )
        .prop_map(|(lang, source, pos, audio)| FilterChoice {
            lang,
            source,
            pos,
            audio,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn search_matches_the_brute_force_rules(
        (postings, lexicon) in corpus_and_lexicon(),
        pick in any::<usize>(),
        edits in proptest::collection::vec((any::<u8>(), any::<usize>(), prop::sample::select(vec!['a', 'b', 'e', 'x', 'é'])), 0..3),
        fresh in "[abcdex]{1,10}",
        match_type in prop_oneof![Just(MatchType::Exact), Just(MatchType::Prefix), Just(MatchType::Contains)],
        fuzzy in any::<bool>(),
        typed in 0..3u8,
        choice in filter_choice(),
        offset in prop_oneof![Just(0usize), 0..40usize],
        limit in 1..40usize,
        block_bytes in block_bytes(),
    ) {
        let q = query(&postings, &lexicon, pick, &edits, &fresh);
        prop_assume!(!q.is_empty());
        let lang = choice.lang.map(|l| LangFilter::parse(l).unwrap());
        let filters = Filters { lang: lang.as_ref(), source: choice.source, part_of_speech: choice.pos, has_audio: choice.audio };
        // Folded (no capitalisation known), typed in lower case, or typed
        // with a capital first letter: the exact matches capitalised so come
        // first.
        let rule = match typed {
            0 => MatchRule::new(&q, match_type, fuzzy),
            1 => MatchRule::of_query(&q, match_type, fuzzy).unwrap(),
            _ => {
                let mut chars = q.chars();
                let first = chars.next().expect("not empty").to_uppercase();
                let raw: String = first.chain(chars).collect();
                MatchRule::of_query(&raw, match_type, fuzzy).unwrap()
            }
        };
        prop_assert_eq!(rule.query(), &q);
        let (cold, records, grams) = snapshot(&postings, &lexicon, block_bytes);
        let hits = cold.answer(4, |index| index.search(Some(&grams), &rule, &filters, offset, limit)).unwrap();
        let (total, page) = search(&postings, &lexicon, &rule, &filters, offset, limit);
        prop_assert_eq!(hits.total, total, "total of {:?}", rule);
        let got: Vec<usize> = hits.ordinals.iter().map(|&o| o as usize).collect();
        prop_assert_eq!(&got, &page, "page of {:?}", rule);
        // What a result shows comes from the snapshot, field for field: the
        // headwords from the text blocks of the page, read as the store does.
        let shown = records.get(&hits.ordinals).unwrap();
        let words = cold.answer(2, |index| {
            let texts = index.index().texts_of_entries(&hits.ordinals)?;
            Ok(hits.ordinals.iter().map(|&o| texts.word(o).to_string()).collect::<Vec<_>>())
        }).unwrap();
        for ((record, &i), word) in shown.iter().zip(&page).zip(words) {
            prop_assert_eq!(&record.id, &postings[i].id());
            prop_assert_eq!(word, postings[i].word());
        }
    }

    /// One result per word: the words of a search are its entry results'
    /// (folded headword, language) pairs in the order of their first entry,
    /// each once, each with its entries in order (the first
    /// [`entries_per_word`] of the page) and their count; the words' entries add up to
    /// the entry total, and a page of words is a window of all of them.
    #[test]
    fn words_are_the_entry_results_grouped(
        (postings, lexicon) in corpus_and_lexicon(),
        pick in any::<usize>(),
        edits in proptest::collection::vec((any::<u8>(), any::<usize>(), prop::sample::select(vec!['a', 'b', 'e', 'x', 'é'])), 0..3),
        fresh in "[abcdex]{1,10}",
        match_type in prop_oneof![Just(MatchType::Exact), Just(MatchType::Prefix), Just(MatchType::Contains)],
        typed in any::<bool>(),
        choice in filter_choice(),
        offset in prop_oneof![Just(0usize), 0..10usize],
        limit in 1..10usize,
    ) {
        let q = query(&postings, &lexicon, pick, &edits, &fresh);
        prop_assume!(!q.is_empty());
        let lang = choice.lang.map(|l| LangFilter::parse(l).unwrap());
        let filters = Filters { lang: lang.as_ref(), source: choice.source, part_of_speech: choice.pos, has_audio: choice.audio };
        let rule = if typed { MatchRule::of_query(&q, match_type, true).unwrap() } else { MatchRule::new(&q, match_type, true) };
        let (cold, _, grams) = snapshot(&postings, &lexicon, TERM_BLOCK_BYTES);
        let all = cold.answer(4, |s| s.search(Some(&grams), &rule, &filters, 0, usize::MAX)).unwrap();
        let index = cold.searcher.index();
        // A word is a term: a folded headword in one language.
        let mut expected: Vec<(usize, Vec<u32>)> = Vec::new();
        for &o in &all.ordinals {
            let term = index.term_of(o);
            match expected.iter_mut().find(|w| w.0 == term) {
                Some(word) => word.1.push(o),
                None => expected.push((term, vec![o])),
            }
        }
        let words = cold.answer(4, |s| s.search_words(Some(&grams), &rule, &filters, offset, limit)).unwrap();
        prop_assert_eq!(words.total, expected.len());
        prop_assert_eq!(words.entries, all.total);
        let shown: Vec<(usize, Vec<u32>, usize)> = words
            .words
            .into_iter()
            .map(|w| (w.term, w.entries, w.entry_count))
            .collect();
        let wanted: Vec<(usize, Vec<u32>, usize)> = expected
            .into_iter()
            .skip(offset)
            .take(limit)
            .map(|(term, entries)| {
                let count = entries.len();
                (term, entries.into_iter().take(entries_per_word(limit)).collect(), count)
            })
            .collect();
        prop_assert_eq!(shown, wanted);
    }

    /// Wildcard patterns against a glob over every headword: patterns made
    /// from a headword of the corpus (characters turned into `?`, runs into
    /// `*`, `*` added anywhere, repeated, at either end) or fresh ones, with
    /// filters and paging; `fuzzy` changes nothing.
    #[test]
    fn patterns_match_the_brute_force_glob(
        postings in corpus(),
        pick in any::<usize>(),
        changes in proptest::collection::vec((0..5u8, any::<usize>(), 1..4usize), 0..5),
        ends in (any::<bool>(), any::<bool>()),
        fresh in "[abcdeé?* ]{2,10}",
        use_fresh in any::<bool>(),
        fuzzy in any::<bool>(),
        choice in filter_choice(),
        offset in prop_oneof![Just(0usize), 0..40usize],
        limit in 1..40usize,
        block_bytes in block_bytes(),
    ) {
        let raw = if use_fresh {
            fresh
        } else {
            pattern_of(postings[pick % postings.len()].folded(), &changes, ends)
        };
        let rule = MatchRule::of_query(&raw, MatchType::Pattern, fuzzy);
        prop_assume!(rule.is_ok());
        let rule = rule.unwrap();
        prop_assert_eq!(rule.max_edits, 0);
        let lang = choice.lang.map(|l| LangFilter::parse(l).unwrap());
        let filters = Filters { lang: lang.as_ref(), source: choice.source, part_of_speech: choice.pos, has_audio: choice.audio };
        let lexicon = Lexicon::default();
        let (cold, _, grams) = snapshot(&postings, &lexicon, block_bytes);
        let hits = cold.answer(4, |index| index.search(Some(&grams), &rule, &filters, offset, limit)).unwrap();
        let (total, page) = search(&postings, &lexicon, &rule, &filters, offset, limit);
        prop_assert_eq!(hits.total, total, "total of {:?} ({})", rule, raw);
        let got: Vec<usize> = hits.ordinals.iter().map(|&o| o as usize).collect();
        prop_assert_eq!(&got, &page, "page of {:?} ({})", rule, raw);
    }

    /// Longer words, so that typo searches allow 2 edits (3 with the extra
    /// edit), of headwords and of their inflected forms: both typo walks
    /// against the rules, on the same queries.
    #[test]
    fn long_typos_match_the_brute_force_rules(
        (postings, lexicon) in long_corpus_and_forms(),
        pick in any::<usize>(),
        edits in proptest::collection::vec((any::<u8>(), any::<usize>(), prop::sample::select(vec!['a', 'c', 'ж', 'x', 'é'])), 0..4),
        prefix in any::<bool>(),
        choice in filter_choice(),
        offset in prop_oneof![Just(0usize), 0..40usize],
        limit in 1..40usize,
        block_bytes in block_bytes(),
    ) {
        let q = query(&postings, &lexicon, pick, &edits, "abcabcabc");
        prop_assume!(!q.is_empty());
        let lang = choice.lang.map(|l| LangFilter::parse(l).unwrap());
        let filters = Filters { lang: lang.as_ref(), source: choice.source, part_of_speech: choice.pos, has_audio: choice.audio };
        let match_type = if prefix { MatchType::Prefix } else { MatchType::Exact };
        let rule = MatchRule::new(&q, match_type, true);
        let (cold, _, grams) = snapshot(&postings, &lexicon, block_bytes);
        let (total, page) = search(&postings, &lexicon, &rule, &filters, offset, limit);
        for walk in [TypoWalk::Rows, TypoWalk::Automaton] {
            let hits = cold.answer(4, |index| index.search_with(walk, Some(&grams), &rule, &filters, offset, limit)).unwrap();
            prop_assert_eq!(hits.total, total, "total of {:?} by {:?}", rule, walk);
            let got: Vec<usize> = hits.ordinals.iter().map(|&o| o as usize).collect();
            prop_assert_eq!(&got, &page, "page of {:?} by {:?}", rule, walk);
        }
    }

    #[test]
    fn autocomplete_matches_the_brute_force_rules(
        postings in corpus(),
        pick in any::<usize>(),
        cut in 1..4usize,
        choice in filter_choice(),
        limit in 1..20usize,
        block_bytes in block_bytes(),
    ) {
        let word = &postings[pick % postings.len()].folded();
        let prefix: String = word.chars().take(cut).collect();
        let lang = choice.lang.map(|l| LangFilter::parse(l).unwrap());
        let filters = Filters { lang: lang.as_ref(), source: choice.source, ..Filters::default() };
        // Within the blocks an autocomplete looks through, whatever their size.
        let mut under: Vec<&str> = postings.iter().map(|p| p.folded()).filter(|t| t.starts_with(&prefix)).collect();
        under.dedup();
        prop_assume!(under.len() < AUTOCOMPLETE_BLOCKS);
        let (cold, _, grams) = snapshot(&postings, &Lexicon::default(), block_bytes);
        // In the runs a request takes (the service's TERM_BLOCK_RUNS): four
        // that read, then the answer.
        let completed = cold.answer(5, |index| index.autocomplete(Some(&grams), &prefix, &filters, limit));
        prop_assert_eq!(
            completed.unwrap(),
            autocomplete(&postings, &prefix, &filters, limit)
        );
    }

    #[test]
    fn random_draws_distinct_admitted_entries(
        postings in corpus(),
        choice in filter_choice(),
        count in 1..12usize,
        seed in any::<u64>(),
    ) {
        let lang = choice.lang.map(|l| LangFilter::parse(l).unwrap());
        let filters = Filters { lang: lang.as_ref(), source: choice.source, has_audio: choice.audio, ..Filters::default() };
        // Random picks read no term block.
        let (cold, _, grams) = snapshot(&postings, &Lexicon::default(), TERM_BLOCK_BYTES);
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(seed);
        let picks = cold.searcher.random(Some(&grams), &filters, count, &mut rng).unwrap();
        let admitted = postings.iter().filter(|p| admit(&filters, p)).count();
        prop_assert_eq!(picks.len(), count.min(admitted));
        let mut distinct = picks.clone();
        distinct.sort_unstable();
        distinct.dedup();
        prop_assert_eq!(distinct.len(), picks.len());
        for o in picks {
            prop_assert!(admit(&filters, &postings[o as usize]));
        }
    }
}

/// Random picks cover the admitted entries evenly: over many draws of one
/// from a pool of 4, each is drawn about a quarter of the time.
#[test]
fn random_is_uniform_over_admitted_entries() {
    let postings: Vec<Posting> = {
        let all: Vec<Posting> = ["aa", "ab", "ba", "bb", "cc", "dd"]
            .iter()
            .enumerate()
            .map(|(i, w)| {
                PostingFields {
                    has_audio: i < 4,
                    ..PostingFields::headword(
                        w,
                        DictionaryRef::new("d", "en", None),
                        format!("{i}"),
                    )
                }
                .into()
            })
            .collect();
        rank_order(all, &Lexicon::default())
    };
    let (cold, _, grams) = snapshot(&postings, &Lexicon::default(), TERM_BLOCK_BYTES);
    let index = cold.searcher;
    let filters = Filters {
        has_audio: true,
        ..Filters::default()
    };
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(7);
    let mut counts = [0usize; 6];
    for _ in 0..4000 {
        for o in index.random(Some(&grams), &filters, 1, &mut rng).unwrap() {
            counts[o as usize] += 1;
        }
    }
    assert_eq!(counts[4] + counts[5], 0, "no entry without audio");
    for c in &counts[..4] {
        assert!((800..1200).contains(c), "{counts:?}");
    }
}

/// Under a prefix of more blocks than an autocomplete looks through, a
/// filter that admits none of their entries answers within a request's
/// runs: the completions of the first blocks (none), not a 503; one that
/// admits an entry among them finds it.
#[test]
fn an_autocomplete_under_a_sparse_filter_answers_within_a_requests_runs() {
    let words = 3 * AUTOCOMPLETE_BLOCKS;
    let postings: Vec<Posting> = (0..words)
        .map(|n| {
            let (id, source, target) = DICTIONARIES[usize::from(n == 40 || n + 1 == words)];
            Posting::headword(
                &format!("co{n:04}"),
                DictionaryRef::new(id, source, target),
                format!("id-{n}"),
            )
        })
        .collect();
    let (cold, _, grams) = snapshot(
        &rank_order(postings, &Lexicon::default()),
        &Lexicon::default(),
        1,
    );
    let filters = Filters {
        source: Some(DICTIONARIES[1].0),
        ..Filters::default()
    };
    let completed = cold.answer(5, |s| s.autocomplete(Some(&grams), "co", &filters, 10));
    assert_eq!(
        completed.unwrap(),
        ["co0040"],
        "not the last word, past the blocks looked through"
    );
}

fn en_posting(word: &str, id: usize) -> Posting {
    Posting::headword(
        word,
        DictionaryRef::new("c-en", "en", None),
        format!("id-{id}"),
    )
}

/// Both engines on a hand-made corpus: the words of each search's page.
fn both(words: &[&str], lexicon: &Lexicon, q: &str, match_type: MatchType) -> Vec<String> {
    both_fuzzy(words, lexicon, q, match_type, true)
}

fn both_fuzzy(
    words: &[&str],
    lexicon: &Lexicon,
    q: &str,
    match_type: MatchType,
    fuzzy: bool,
) -> Vec<String> {
    let postings: Vec<Posting> = words
        .iter()
        .enumerate()
        .map(|(i, w)| en_posting(w, i))
        .collect();
    let rule = MatchRule::new(q, match_type, fuzzy);
    let (postings, page) = both_on(postings, lexicon, &rule);
    page.into_iter()
        .map(|i| postings[i].word().to_string())
        .collect()
}

/// Both engines (both walks) on `postings`, ranked: the ranked postings
/// and the indexes into them of the first 50 matches, the same from each.
fn both_on(
    postings: Vec<Posting>,
    lexicon: &Lexicon,
    rule: &MatchRule,
) -> (Vec<Posting>, Vec<usize>) {
    let postings = rank_order(postings, lexicon);
    let (cold, _, grams) = snapshot(&postings, lexicon, 1);
    let filters = Filters::default();
    let (total, page) = search(&postings, lexicon, rule, &filters, 0, 50);
    for walk in [TypoWalk::Rows, TypoWalk::Automaton] {
        let hits = cold
            .answer(4, |index| {
                index.search_with(walk, Some(&grams), rule, &filters, 0, 50)
            })
            .unwrap();
        assert_eq!(hits.total, total, "{walk:?}");
        let got: Vec<usize> = hits.ordinals.iter().map(|&o| o as usize).collect();
        assert_eq!(got, page, "{walk:?}");
    }
    (postings, page)
}

/// A letter moved two or three places is one likely edit: `jstu` finds
/// `just` (two edits by distance) and `yatch` lists `yacht` before `latch`
/// and `watch` (a consonant for another); only into a listed word.
#[test]
fn a_letter_moved_is_one_likely_edit() {
    let words = [
        "just", "jest", "stuj", "yacht", "latch", "watch", "they", "the",
    ];
    let mut lexicon = Lexicon::default();
    let listed = [
        ("just", "600"),
        ("jest", "300"),
        ("yacht", "380"),
        ("latch", "330"),
        ("watch", "530"),
        ("they", "680"),
        ("the", "770"),
    ];
    add_list(&mut lexicon, LexiconKind::Frequencies, "en", &listed);
    let ranked = |q: &str| both(&words, &lexicon, q, MatchType::Exact);
    // `stuj` is `jstu` with a letter moved too, but no list has it.
    assert_eq!(ranked("jstu"), ["just"]);
    assert_eq!(ranked("yatch"), ["yacht", "latch", "watch"]);
    // With the other likely edits, by commonness.
    assert_eq!(ranked("tyhe"), ["the", "they"]);
}

/// Spanish respellings rank with the doublings, at as many edits as rules:
/// `guevo` lists `huevo` before the commoner `nuevo`, `yave` finds `llave`
/// (two edits, one rule) though four letters allow one edit; an unlisted
/// word is no respelling.
#[test]
fn a_spanish_respelling_ranks_with_the_doublings() {
    let words = [
        "huevo", "nuevo", "llave", "ave", "nube", "nave", "hueso", "grueso",
    ];
    let mut lexicon = Lexicon::default();
    let listed = [
        ("huevo", "450"),
        ("nuevo", "577"),
        ("llave", "380"),
        ("ave", "412"),
    ];
    add_list(&mut lexicon, LexiconKind::Frequencies, "es", &listed);
    let more = [("nube", "408"), ("nave", "439"), ("grueso", "396")];
    add_list(&mut lexicon, LexiconKind::Frequencies, "es", &more);
    let postings = |lang: &str| -> Vec<Posting> {
        let dictionary = DictionaryRef::new(&format!("d-{lang}"), lang, None);
        let each = words.iter().enumerate();
        each.map(|(i, w)| Posting::headword(w, dictionary.clone(), format!("{i}")))
            .collect()
    };
    let ranked = |lang: &str, q: &str| -> Vec<String> {
        let rule = MatchRule::new(q, MatchType::Exact, true);
        let (postings, page) = both_on(postings(lang), &lexicon, &rule);
        page.into_iter()
            .map(|i| postings[i].word().to_string())
            .collect()
    };
    assert_eq!(ranked("es", "guevo"), ["huevo", "nuevo", "grueso", "hueso"]);
    assert_eq!(ranked("es", "nuve"), ["nube", "nave"]);
    assert_eq!(ranked("es", "yave"), ["llave", "ave", "nave"]);
    // Only Spanish respells so.
    assert_eq!(ranked("en", "yave"), ["ave", "nave"]);
    // `hueso` is unlisted: `gueso` finds it by its distance alone.
    assert_eq!(ranked("es", "gueso")[..2], ["grueso", "hueso"]);
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| w.to_string()).collect()
}

/// The extra edit comes with fewer than five headwords, not with five.
#[test]
fn one_edit_more_below_five_headwords() {
    let lexicon = Lexicon::default();
    // `uniro`, a prefix of the query, after the other words one edit away.
    let four = ["uniform", "unirm", "uniro", "unirob", "unirmo"];
    assert_eq!(
        both(&four, &lexicon, "unirom", MatchType::Exact),
        words(&["unirm", "unirmo", "unirob", "uniro", "uniform"])
    );
    let five = ["uniform", "unirm", "uniro", "unirob", "unirmo", "unirot"];
    assert_eq!(
        both(&five, &lexicon, "unirom", MatchType::Exact),
        words(&["unirm", "unirmo", "unirob", "unirot", "uniro"])
    );
    // Not below 5 characters.
    assert_eq!(
        both(&["uxrmy"], &lexicon, "unrm", MatchType::Exact),
        words(&[])
    );
}

/// Lemma matches come after literal ones and before typos; a lemma that is
/// also a literal match is listed once, as a literal match; commonness
/// orders each tier.
#[test]
fn lemmas_rank_between_literal_matches_and_typos() {
    let mut lexicon = forms_of("en", &[("went", "go"), ("a", "avoir")]);
    let frequencies = [("wend", "300"), ("want", "500")];
    add_list(&mut lexicon, LexiconKind::Frequencies, "en", &frequencies);
    let corpus = ["wend", "went", "go", "want", "wentworth", "gone"];
    assert_eq!(
        both(&corpus, &lexicon, "went", MatchType::Exact),
        words(&["went", "go", "want", "wend"])
    );
    assert_eq!(
        both(&corpus, &lexicon, "went", MatchType::Prefix),
        words(&["went", "wentworth", "go", "want", "wend"])
    );
    assert_eq!(
        both(&["avoir", "ab", "a"], &lexicon, "a", MatchType::Prefix),
        words(&["a", "ab", "avoir"])
    );
    // A form's lemmas count only in dictionaries of the form's language.
    lexicon.forms.clear();
    add_list(&mut lexicon, LexiconKind::Forms, "fr", &[("went", "go")]);
    assert_eq!(
        both(&corpus, &lexicon, "went", MatchType::Exact),
        words(&["went", "want", "wend"])
    );
}

fn forms_of(lang: &str, forms: &[(&str, &str)]) -> Lexicon {
    let mut lexicon = Lexicon::default();
    add_list(&mut lexicon, LexiconKind::Forms, lang, forms);
    lexicon
}

/// Adds a list of `lang` to `lexicon`: (form, lemma) pairs, or (word,
/// frequency in centi-Zipf) pairs.
fn add_list(lexicon: &mut Lexicon, kind: LexiconKind, lang: &str, pairs: &[(&str, &str)]) {
    let pairs = pairs
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    lexicon.add(kind, lang, pairs).unwrap();
}

/// A typo of an inflected form finds the form's lemmas, in the typo tier of
/// the form's distance, beside the headwords at that distance and ordered
/// with them: `runnin` is one edit from `running` (a headword, and a form of
/// `run`), and `run` is the shorter.
#[test]
fn typos_of_forms_find_their_lemmas() {
    let lexicon = forms_of(
        "en",
        &[
            ("attached", "attach"),
            ("running", "run"),
            ("ran", "run"),
            ("runs", "run"),
        ],
    );
    let corpus = ["attach", "attic", "run", "running", "rung"];
    assert_eq!(
        both(&corpus, &lexicon, "attched", MatchType::Exact),
        words(&["attach"])
    );
    assert_eq!(
        both(&corpus, &lexicon, "attched", MatchType::Prefix),
        words(&["attach"])
    );
    // Both one edit away: `running` itself before `run` through a form.
    assert_eq!(
        both(&corpus, &lexicon, "runnin", MatchType::Exact),
        words(&["running", "run"])
    );
    // `runnin` is a literal prefix of `running`; `run` is one edit from the
    // whole form, not from a prefix of it.
    assert_eq!(
        both(&corpus, &lexicon, "runnin", MatchType::Prefix),
        words(&["running", "run"])
    );
    // `runns` is two edits from `run` but one from `runs`: `run` is a typo
    // at 1, and `rung` comes with the extra edit, at 2.
    assert_eq!(
        both(&corpus, &lexicon, "runns", MatchType::Exact),
        words(&["run", "rung"])
    );
}

/// A lemma reached through a form keeps a better tier of its own: `house` is
/// the exact match of `house`, never again a typo through `houses`; `hous`
/// reaches `house` as a literal prefix, not through `houses` at 1.
#[test]
fn an_entry_reached_through_a_form_appears_once_in_its_best_tier() {
    let lexicon = forms_of("en", &[("houses", "house"), ("housed", "house")]);
    let corpus = ["house", "horse", "hose"];
    assert_eq!(
        both(&corpus, &lexicon, "house", MatchType::Exact),
        words(&["house", "hose", "horse"])
    );
    assert_eq!(
        both(&corpus, &lexicon, "hous", MatchType::Prefix),
        words(&["house", "hose", "horse"])
    );
    // One edit from `house` and from `houses`: `house` once, at 1; the
    // others come with the extra edit.
    assert_eq!(
        both(&corpus, &lexicon, "housse", MatchType::Exact),
        words(&["house", "hose", "horse"])
    );
}

/// Typos of forms are typos: `fuzzy=false` and `contains` have none; and a
/// form counts only in dictionaries of its language, as in the lemma tier.
#[test]
fn typos_of_forms_follow_fuzzy_and_the_forms_language() {
    let lexicon = forms_of("en", &[("attached", "attach")]);
    let corpus = ["attach"];
    for (match_type, fuzzy) in [
        (MatchType::Exact, false),
        (MatchType::Prefix, false),
        (MatchType::Contains, true),
    ] {
        let found = both_fuzzy(&corpus, &lexicon, "attched", match_type, fuzzy);
        assert_eq!(found, words(&[]), "{match_type:?}, fuzzy={fuzzy}");
    }
    let french = forms_of("fr", &[("attached", "attach")]);
    assert_eq!(
        both(&corpus, &french, "attched", MatchType::Exact),
        words(&[])
    );
}

// Reverse lookup, by its rules (docs/api.md, "Reverse lookup"), over every
// definition of a random corpus.

/// The keys a definition word of `lang` is listed under: itself and its
/// lemmas in `lang`, stop words of `lang` left out.
fn definition_keys(lexicon: &Lexicon, lang: &str, word: &str) -> Vec<String> {
    if lexicon.is_stop_word(lang, word) {
        return Vec::new();
    }
    let mut keys = vec![word.to_string()];
    let lemmas = lexicon
        .forms
        .get(lang)
        .into_iter()
        .flat_map(|f| f.lemmas(word));
    for lemma in lemmas.map(str::to_string) {
        if !lexicon.is_stop_word(lang, &lemma) && !keys.contains(&lemma) {
            keys.push(lemma);
        }
    }
    keys
}

/// Reverse lookup by brute force: every definition tokenized, every key's
/// document frequency counted over the whole corpus, every entry scored.
/// Gives (total, the page's indices).
fn reverse(
    postings: &[Posting],
    lexicon: &Lexicon,
    q: &str,
    filters: &Filters<'_>,
    offset: usize,
    limit: usize,
) -> (usize, Vec<usize>) {
    use super::definitions::{phrases, words, Bm25};
    use std::collections::HashMap;
    let query = words(q);
    // A query word's keys: itself in any language, and its lemmas where the
    // lemma is a headword of that language, in that language only.
    let query_keys: Vec<Vec<(String, Option<&str>)>> = query
        .iter()
        .map(|w| {
            let mut keys = vec![(w.clone(), None)];
            for (lang, forms) in &lexicon.forms {
                for lemma in forms.lemmas(w) {
                    let lemma = lemma.to_string();
                    let headword = postings
                        .iter()
                        .any(|p| p.folded() == lemma && p.dictionary.source_lang == *lang);
                    let key = (lemma.clone(), Some(lang.as_str()));
                    let function_word = lexicon.is_stop_word(lang, w);
                    if lemma != *w && headword && !function_word && !keys.contains(&key) {
                        keys.push(key);
                    }
                }
            }
            keys
        })
        .collect();
    let counts: Vec<HashMap<String, u8>> = postings
        .iter()
        .map(|p| {
            let mut counts = HashMap::new();
            for w in words(p.definition()) {
                for key in definition_keys(lexicon, p.dictionary.definition_lang(), &w) {
                    let c: &mut u8 = counts.entry(key).or_default();
                    *c = c.saturating_add(1);
                }
            }
            counts
        })
        .collect();
    let lengths: Vec<usize> = postings
        .iter()
        .map(|p| words(p.definition()).len())
        .collect();
    let defined = lengths.iter().filter(|&&n| n > 0).count().max(1);
    let average = lengths.iter().sum::<usize>() as f64 / defined as f64;
    let all = postings.len() as u32;
    let df = |key: &str| counts.iter().filter(|c| c.contains_key(key)).count() as u32;
    let mut found: Vec<(bool, f64, usize)> = Vec::new();
    for (i, p) in postings.iter().enumerate() {
        if !admit(filters, p) {
            continue;
        }
        let lang = p.dictionary.definition_lang();
        let length = Bm25::relative_length(lengths[i], average);
        let mut score = 0.0;
        let mut matched = false;
        for keys in &query_keys {
            let mut best: Option<f64> = None;
            for (key, key_lang) in keys {
                let Some(&count) = counts[i].get(key) else {
                    continue;
                };
                if key_lang.is_some_and(|l| l != lang) {
                    continue;
                }
                let s = Bm25::score(Bm25::idf(all, df(key)), count, length);
                best = Some(best.map_or(s, |b: f64| b.max(s)));
            }
            if let Some(best) = best {
                score += best;
                matched = true;
            }
        }
        let exact = !query.is_empty()
            && phrases(p.definition(), |w| lexicon.is_stop_word(lang, w)).contains(&query);
        if matched || exact {
            found.push((exact, score, i));
        }
    }
    found.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)).then(a.2.cmp(&b.2)));
    let page = found.iter().skip(offset).take(limit).map(|f| f.2).collect();
    (found.len(), page)
}

/// Definition words from a small vocabulary, so that words repeat across
/// definitions, phrases recur exactly, and stop words and forms appear.
const DEFINITION_WORDS: [&str; 12] = [
    "a", "the", "to", "house", "houses", "dog", "dogs", "young", "run", "ran", "maison", "big",
];

fn definition() -> impl Strategy<Value = String> {
    let word = prop::sample::select(DEFINITION_WORDS.to_vec());
    let piece = proptest::collection::vec(word, 1..5).prop_map(|w| w.join(" "));
    let separator = prop::sample::select(vec![", ", "; ", "\n", " (", ") "]);
    proptest::collection::vec((piece, separator), 0..4).prop_map(|pieces| {
        pieces
            .into_iter()
            .map(|(p, s)| format!("{p}{s}"))
            .collect::<String>()
    })
}

/// A corpus whose entries have definitions, and a lexicon with stop words
/// and forms in English and French, some lemmas headwords of one language
/// only.
fn corpus_with_definitions() -> impl Strategy<Value = (Vec<Posting>, Lexicon)> {
    let headword = prop::sample::select(vec!["house", "dog", "run", "maison", "avoir", "chien"]);
    proptest::collection::vec(
        (headword, definition(), 0..3usize, 0..4usize, any::<bool>()),
        1..60,
    )
    .prop_map(|raw| {
        let all: Vec<Posting> = raw
            .into_iter()
            .enumerate()
            .map(|(i, (word, definition, d, part, audio))| {
                let (id, source, target) = DICTIONARIES[d];
                PostingFields {
                    definition,
                    part_of_speech: PARTS[part].map(Into::into),
                    has_audio: audio,
                    ..PostingFields::headword(
                        word,
                        DictionaryRef::new(id, source, target),
                        format!("id-{i}"),
                    )
                }
                .into()
            })
            .collect();
        let mut lexicon = Lexicon::default();
        let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        lexicon
            .add(
                LexiconKind::StopWords,
                "en",
                pairs(&[("a", ""), ("the", ""), ("to", "")]),
            )
            .unwrap();
        lexicon
            .add(
                LexiconKind::StopWords,
                "fr",
                pairs(&[("the", ""), ("maisons", "")]),
            )
            .unwrap();
        lexicon
            .add(
                LexiconKind::Forms,
                "en",
                pairs(&[
                    ("houses", "house"),
                    ("dogs", "dog"),
                    ("ran", "run"),
                    ("big", "the"),
                ]),
            )
            .unwrap();
        lexicon
            .add(
                LexiconKind::Forms,
                "fr",
                pairs(&[("a", "avoir"), ("maisons", "maison")]),
            )
            .unwrap();
        (rank_order(all, &lexicon), lexicon)
    })
}

fn reverse_snapshot(
    postings: &[Posting],
    lexicon: &Lexicon,
) -> (Searcher, super::snapshot::Definitions, Grams) {
    let built = build(postings.to_vec(), lexicon);
    (
        built.decode().unwrap(),
        built.decode().unwrap(),
        built.grams().unwrap(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Reverse lookup answers what the brute-force rules answer: the same
    /// total and the same page, for queries of corpus words, stop words,
    /// forms and phrases, with filters and paging.
    #[test]
    fn reverse_lookup_equals_the_reference(
        (postings, lexicon) in corpus_with_definitions(),
        query in proptest::collection::vec(prop::sample::select(
            DEFINITION_WORDS.iter().copied().chain(["avoir", "maisons", "nowhere", "DOG"]).collect::<Vec<_>>()), 1..4),
        choice in filter_choice(),
        offset in prop_oneof![Just(0usize), 0..30usize],
        limit in 1..30usize,
    ) {
        let q = query.join(" ");
        let lang = choice.lang.map(|l| LangFilter::parse(l).unwrap());
        let filters = Filters { lang: lang.as_ref(), source: choice.source, part_of_speech: choice.pos, has_audio: choice.audio };
        let (index, definitions, grams) = reverse_snapshot(&postings, &lexicon);
        let query = super::reverse::DefinitionQuery::new(&q, index.index()).unwrap();
        let hits = index.reverse(Some(&grams), &definitions, &query, &filters, offset, limit).unwrap();
        let (total, page) = reverse(&postings, &lexicon, &q, &filters, offset, limit);
        prop_assert_eq!(hits.total, total, "total of {}", q);
        let got: Vec<usize> = hits.ordinals.iter().map(|&o| o as usize).collect();
        prop_assert_eq!(got, page, "page of {}", q);
    }
}
