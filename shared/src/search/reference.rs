//! A brute-force reference beside the snapshot engine: the rules of
//! decisions.md applied to every headword of a random corpus, compared with
//! what the snapshot answers for random queries, typos and filters.

use super::distance::{edit_distance, prefix_edit_distance};
use super::postings::{DictionaryRef, Posting};
use super::rank::{Filters, MatchRule, MatchType};
use super::snapshot::{build, split_parts, Grams, Index, Records, Section};
use crate::params::LangFilter;
use proptest::prelude::*;

/// Where a headword ranks by the rules, or `None` if it does not match:
/// (tier, edit distance, length). Tier 0 exact, 1 literal, 2 typo.
fn rank(rule: &MatchRule, folded: &str) -> Option<(u8, usize, usize)> {
    let len = folded.chars().count();
    if folded == rule.query {
        return Some((0, 0, len));
    }
    let literal = match rule.match_type {
        MatchType::Contains => folded.contains(&rule.query),
        MatchType::Prefix => folded.starts_with(&rule.query),
        MatchType::Exact => false,
    };
    if literal {
        return Some((1, 0, len));
    }
    if rule.max_edits == 0 || rule.match_type == MatchType::Contains {
        return None;
    }
    let q: Vec<char> = rule.query.chars().collect();
    let w: Vec<char> = folded.chars().collect();
    let distance = match rule.match_type {
        MatchType::Prefix => prefix_edit_distance(&q, &w, rule.max_edits),
        _ => edit_distance(&q, &w),
    };
    (distance <= rule.max_edits).then_some((2, distance, len))
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

/// A match as the reference sorts it: rank, folded headword, dictionary, id,
/// and its index in the corpus.
type Match<'a> = ((u8, usize, usize), &'a str, &'a str, &'a str, usize);

/// Every match in order (indexes into `postings`) and the page.
fn search(
    postings: &[Posting],
    rule: &MatchRule,
    filters: &Filters<'_>,
    offset: usize,
    limit: usize,
) -> (usize, Vec<usize>) {
    let mut matches: Vec<Match<'_>> = postings
        .iter()
        .enumerate()
        .filter(|(_, p)| admit(filters, p))
        .filter_map(|(i, p)| {
            rank(rule, &p.folded).map(|r| {
                (
                    r,
                    p.folded.as_str(),
                    p.dictionary.id.as_str(),
                    p.id.as_str(),
                    i,
                )
            })
        })
        .collect();
    matches.sort();
    let total = matches.len();
    let page = matches
        .into_iter()
        .skip(offset)
        .take(limit)
        .map(|m| m.4)
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
        .filter(|p| p.folded.starts_with(prefix) && admit(filters, p))
        .map(|p| (p.folded.as_str(), p.word.as_str()))
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
    "[abcdeéAÉ ]{1,9}"
        .prop_map(|w| w.trim().to_string())
        .prop_filter("not empty", |w| !w.is_empty())
}

fn corpus() -> impl Strategy<Value = Vec<Posting>> {
    proptest::collection::vec(
        (
            headword(),
            0..3usize,
            0..4usize,
            any::<bool>(),
            any::<bool>(),
        ),
        1..120,
    )
    .prop_map(|raw| {
        let mut all: Vec<Posting> = raw
            .into_iter()
            .enumerate()
            .map(|(i, (word, d, part, audio, hex))| {
                let (id, source, target) = DICTIONARIES[d];
                Posting {
                    folded: crate::fold::fold(&word),
                    word: word.clone(),
                    dictionary: DictionaryRef {
                        id: id.into(),
                        source_lang: source.into(),
                        target_lang: target.map(Into::into),
                    },
                    part_of_speech: PARTS[part].map(Into::into),
                    has_audio: audio,
                    id: if hex {
                        format!("{:016x}", i * 104_729)
                    } else {
                        format!("id-{i}")
                    },
                    preview: format!("{word} {i}"),
                    phonetic: None,
                }
            })
            .filter(|p| !p.folded.is_empty())
            .collect();
        all.sort_by(|a, b| a.rank_key().cmp(&b.rank_key()));
        all
    })
}

/// A query: a headword of the corpus with up to two random edits, or a fresh
/// string.
fn query(postings: &[Posting], pick: usize, edits: &[(u8, usize, char)], fresh: &str) -> String {
    let mut q: Vec<char> = match postings.get(pick % (postings.len() + 1)) {
        Some(p) => p.folded.chars().collect(),
        None => fresh.chars().collect(),
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

fn snapshot(postings: &[Posting]) -> (Index, Records, Grams) {
    let built = build(postings);
    let section =
        |s: Section| split_parts(&built.sections.iter().find(|(n, _)| *n == s).unwrap().1).concat();
    (
        Index::decode(&section(Section::Core), section(Section::Terms)).unwrap(),
        Records::decode(section(Section::Records)).unwrap(),
        Grams::decode(section(Section::Grams)).unwrap(),
    )
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
        postings in corpus(),
        pick in any::<usize>(),
        edits in proptest::collection::vec((any::<u8>(), any::<usize>(), prop::sample::select(vec!['a', 'b', 'e', 'x', 'é'])), 0..3),
        fresh in "[abcdex]{1,10}",
        match_type in prop_oneof![Just(MatchType::Exact), Just(MatchType::Prefix), Just(MatchType::Contains)],
        fuzzy in any::<bool>(),
        choice in filter_choice(),
        offset in prop_oneof![Just(0usize), 0..40usize],
        limit in 1..40usize,
    ) {
        let q = query(&postings, pick, &edits, &fresh);
        prop_assume!(!q.is_empty());
        let lang = choice.lang.map(|l| LangFilter::parse(l).unwrap());
        let filters = Filters { lang: lang.as_ref(), source: choice.source, part_of_speech: choice.pos, has_audio: choice.audio };
        let rule = MatchRule::new(&q, match_type, fuzzy);
        let (index, records, grams) = snapshot(&postings);
        let hits = index.search(Some(&grams), &rule, &filters, offset, limit).unwrap();
        let (total, page) = search(&postings, &rule, &filters, offset, limit);
        prop_assert_eq!(hits.total, total, "total of {:?}", rule);
        let got: Vec<usize> = hits.ordinals.iter().map(|&o| o as usize).collect();
        prop_assert_eq!(&got, &page, "page of {:?}", rule);
        // What a result shows comes from the snapshot, field for field.
        let shown = records.get(&hits.ordinals).unwrap();
        for (record, &i) in shown.iter().zip(&page) {
            prop_assert_eq!(&record.id, &postings[i].id);
            prop_assert_eq!(index.word(i as u32), postings[i].word.as_str());
        }
    }

    #[test]
    fn autocomplete_matches_the_brute_force_rules(
        postings in corpus(),
        pick in any::<usize>(),
        cut in 1..4usize,
        choice in filter_choice(),
        limit in 1..20usize,
    ) {
        let word = &postings[pick % postings.len()].folded;
        let prefix: String = word.chars().take(cut).collect();
        let lang = choice.lang.map(|l| LangFilter::parse(l).unwrap());
        let filters = Filters { lang: lang.as_ref(), source: choice.source, ..Filters::default() };
        let (index, _, _) = snapshot(&postings);
        prop_assert_eq!(
            index.autocomplete(&prefix, &filters, limit),
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
        let (index, _, _) = snapshot(&postings);
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(seed);
        let picks = index.random(&filters, count, &mut rng);
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
        let mut all: Vec<Posting> = ["aa", "ab", "ba", "bb", "cc", "dd"]
            .iter()
            .enumerate()
            .map(|(i, w)| Posting {
                folded: w.to_string(),
                word: w.to_string(),
                dictionary: DictionaryRef {
                    id: "d".into(),
                    source_lang: "en".into(),
                    target_lang: None,
                },
                part_of_speech: None,
                has_audio: i < 4,
                id: format!("{i}"),
                preview: String::new(),
                phonetic: None,
            })
            .collect();
        all.sort_by(|a, b| a.rank_key().cmp(&b.rank_key()));
        all
    };
    let (index, _, _) = snapshot(&postings);
    let filters = Filters {
        has_audio: true,
        ..Filters::default()
    };
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(7);
    let mut counts = [0usize; 6];
    for _ in 0..4000 {
        for o in index.random(&filters, 1, &mut rng) {
            counts[o as usize] += 1;
        }
    }
    assert_eq!(counts[4] + counts[5], 0, "no entry without audio");
    for c in &counts[..4] {
        assert!((800..1200).contains(c), "{counts:?}");
    }
}
