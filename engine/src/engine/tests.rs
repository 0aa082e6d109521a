use super::*;
use crate::lexicon::{Lexicon, LexiconKind};
use crate::matching::MatchType;
use crate::postings::{DictionaryRef, Posting};
use crate::snapshot::{build, build_with_blocks, Grams};
use proptest::prelude::*;

fn index_of(words: &[String]) -> Searcher {
    searchable(words, &[]).0
}

/// An English index of `words` whose lexicon has `forms` (form, lemma),
/// and every part of its grams, as a warm instance holds them.
fn searchable(words: &[String], forms: &[(String, String)]) -> (Searcher, Grams) {
    let mut lexicon = Lexicon::default();
    lexicon
        .add(LexiconKind::Forms, "en", forms.to_vec())
        .expect("forms");
    let built = build(english_postings(words), &lexicon);
    (built.decode().unwrap(), built.grams().unwrap())
}

/// One entry of dictionary `d` (English) per word, folded as given.
fn english_postings(words: &[String]) -> Vec<Posting> {
    words
        .iter()
        .enumerate()
        .map(|(i, w)| Posting::headword(w, DictionaryRef::new("d", "en", None), format!("{i}")))
        .collect()
}

/// Among the exact matches, the headwords capitalised as the query was
/// typed come first; the other tiers keep their order, and paging and
/// `total` span both parts. The boat sorts before the city by id (as in
/// FreeDict's Polish–English), so only the capital of `Lodz` moves it.
#[test]
fn the_exact_matches_capitalised_as_the_query_come_first() {
    let postings = [
        ("łódź", "4eb735181a5b175f"),
        ("Łódź", "cde954d980c405c5"),
        ("łodzie", "1"),
        ("Łodzianin", "2"),
    ]
    .map(|(word, id)| {
        Posting::headword(
            word,
            DictionaryRef::new("freedict-pol-eng", "pl", Some("en")),
            id,
        )
    });
    let index: Searcher = build(postings.to_vec(), &Lexicon::default())
        .decode()
        .unwrap();
    let words = |rule: &MatchRule, offset, limit| {
        let hits = index
            .search(None, rule, &Filters::default(), offset, limit)
            .unwrap();
        let words: Vec<String> = hits
            .ordinals
            .iter()
            .map(|&o| index.index().word(o).unwrap())
            .collect();
        (hits.total, words.join(" "))
    };
    for (q, first) in [
        ("Lodz", "Łódź łódź"),
        ("lodz", "łódź Łódź"),
        ("LODZ", "Łódź łódź"),
        ("Łódź", "Łódź łódź"),
        ("łódź", "łódź Łódź"),
    ] {
        for fuzzy in [false, true] {
            let rule = MatchRule::of_query(q, MatchType::Prefix, fuzzy).unwrap();
            let all = format!("{first} łodzie Łodzianin");
            assert_eq!(words(&rule, 0, 10), (4, all), "{q}");
            let rule = MatchRule::of_query(q, MatchType::Exact, fuzzy).unwrap();
            assert_eq!(words(&rule, 0, 10), (2, first.to_string()), "{q}");
        }
    }
    // Pages cut across the two parts and the next tier.
    let rule = MatchRule::of_query("Lodz", MatchType::Prefix, true).unwrap();
    assert_eq!(words(&rule, 1, 1), (4, "łódź".into()));
    assert_eq!(words(&rule, 1, 2), (4, "łódź łodzie".into()));
    // A query whose case is unknown (folded) or that has none keeps the
    // ordinal order: the boat, by its id.
    let rule = MatchRule::new("lodz", MatchType::Prefix, true);
    assert_eq!(
        words(&rule, 0, 10),
        (4, "łódź Łódź łodzie Łodzianin".into())
    );
    let rule = MatchRule::of_query("  42", MatchType::Exact, true).unwrap();
    assert_eq!(rule.capitalised, None);
}

/// A cold instance reads the capitalisation bucket of the query's text
/// with the term block of its exact lookup, in one run, and splits the
/// exact tier as a warm one does; then, the bucket held, a query reads its
/// term block alone, whether its text mixes capitalisations (a run that
/// misses the block has the bucket, but no entries to split by it) or
/// mixes none, and a text that is no term reads nothing once the block of
/// its place is held.
#[test]
fn a_cold_exact_search_reads_its_capitalisation_with_its_term_block() {
    use crate::snapshot::Section;
    let postings = [
        ("łódź", "4eb735181a5b175f"),
        ("Łódź", "cde954d980c405c5"),
        ("kot", "3"),
        ("bank", "4"),
        ("Bank", "5"),
    ]
    .map(|(word, id)| {
        Posting::headword(
            word,
            DictionaryRef::new("freedict-pol-eng", "pl", Some("en")),
            id,
        )
    });
    let built = build_with_blocks(postings.to_vec(), &Lexicon::default(), 1);
    let terms = built.section(Section::Terms);
    let searcher = Searcher::new(built.cold_index().unwrap());
    for (q, first, expected) in [
        ("Lodz", "Łódź łódź", &[2][..]),
        ("lodz", "łódź Łódź", &[]),
        ("Bank", "Bank bank", &[1]),
        ("Kot", "kot", &[1]),
        ("Pies", "", &[]),
    ] {
        let rule = MatchRule::of_query(q, MatchType::Exact, false).unwrap();
        let mut reads = Vec::new();
        let hits = loop {
            match searcher.search(None, &rule, &Filters::default(), 0, 10) {
                Err(SearchError::Missing(Missing(items))) => {
                    let read = items.iter().map(|&i| (i, terms[i].clone()));
                    searcher.index().term_dictionary().keep(read).unwrap();
                    reads.push(items.len());
                }
                answer => break answer.unwrap(),
            }
        };
        let index = searcher.index();
        // The page's text blocks, as the service reads them with its records.
        if let Err(Missing(items)) = index.texts_of_entries(&hits.ordinals) {
            let read = items.iter().map(|&i| (i, terms[i].clone()));
            index.term_dictionary().keep(read).unwrap();
        }
        let texts = index.texts_of_entries(&hits.ordinals).unwrap();
        let words: Vec<&str> = hits.ordinals.iter().map(|&o| texts.word(o)).collect();
        assert_eq!(words.join(" "), first, "{q}");
        assert_eq!(
            reads, expected,
            "{q}: the term block and the bucket, together"
        );
    }
}

/// Deterministic letters, so that the corpus is the same on every run.
struct Letters(u64);

impl Letters {
    fn word(&mut self, len: usize) -> String {
        (0..len)
            .map(|_| {
                self.0 = self
                    .0
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                char::from(b'a' + (self.0 >> 59) as u8 % 26)
            })
            .collect()
    }
}

/// 20,000 random words, two prefixes that head 4,096 terms each, and
/// two words of 100 letters, so that no query is out of reach.
/// At one edit, a headword that doubles a letter of the query comes first
/// and one the query only extends comes last, however common: `finaly`
/// lists `finally`, then `finale`, then `final`; at two edits, `ocassion`
/// lists `occasion` (a letter undoubled, another doubled) before `passion`.
/// Through forms the same: `agreing` lists `agree` (through `agreeing`)
/// before the commoner `age` (through `ageing`).
#[test]
fn a_doubled_letter_ranks_first_an_unlikely_edit_late_and_a_truncation_last() {
    let words = [
        "final",
        "finale",
        "finally",
        "occasion",
        "passion",
        "agree",
        "age",
        "abseil",
        "assail",
        "house",
        "houss",
        "formatter",
        "fraternity",
    ];
    let mut lexicon = Lexicon::default();
    let forms = [("agreeing", "agree"), ("ageing", "age")];
    let pairs = forms.map(|(f, l)| (f.to_string(), l.to_string())).to_vec();
    lexicon.add(LexiconKind::Forms, "en", pairs).unwrap();
    let pairs = vec![
        ("age".to_string(), "532".to_string()),
        ("agree".into(), "497".into()),
    ];
    lexicon.add(LexiconKind::Frequencies, "en", pairs).unwrap();
    let frequencies = [("final", "528"), ("finale", "404"), ("finally", "517")];
    let pairs = frequencies
        .map(|(w, f)| (w.to_string(), f.to_string()))
        .to_vec();
    lexicon.add(LexiconKind::Frequencies, "en", pairs).unwrap();
    let frequencies = [
        ("passion", "444"),
        ("occasion", "438"),
        ("assail", "211"),
        ("abseil", "189"),
        ("house", "550"),
        ("fraternity", "352"),
        ("formatter", "180"),
    ];
    let pairs = frequencies
        .map(|(w, f)| (w.to_string(), f.to_string()))
        .to_vec();
    lexicon.add(LexiconKind::Frequencies, "en", pairs).unwrap();
    let words: Vec<String> = words.map(String::from).to_vec();
    let built = build(english_postings(&words), &lexicon);
    let (searcher, grams): (Searcher, Grams) = (built.decode().unwrap(), built.grams().unwrap());
    let ranked_by = |q: &str, match_type: MatchType| -> Vec<String> {
        let rule = MatchRule::new(q, match_type, true);
        let hits = searcher
            .search(Some(&grams), &rule, &Filters::default(), 0, 10)
            .unwrap();
        let index = searcher.index();
        hits.ordinals
            .iter()
            .map(|&o| index.term(index.term_of(o)).unwrap())
            .collect()
    };
    let ranked = |q: &str| ranked_by(q, MatchType::Exact);
    assert_eq!(ranked("finaly"), ["finally", "finale", "final"]);
    assert_eq!(ranked("ocassion"), ["occasion", "passion"]);
    assert_eq!(ranked("agreing"), ["agree", "age"]);
    // A consonant for a consonant ranks after a vowel for a vowel.
    assert_eq!(ranked("absail"), ["abseil", "assail"]);
    // A doubling counts only for a listed word.
    assert_eq!(ranked("hous"), ["house", "houss"]);
    // A prefix search measures the start of a word: `fraternity` starts
    // with `frater`, `fomrater` without its `o` and its `m`.
    assert_eq!(
        ranked_by("fomrater", MatchType::Prefix),
        ["formatter", "fraternity"]
    );
}

fn hostile_corpus() -> Vec<String> {
    let mut letters = Letters(26);
    let mut words: Vec<String> = (0..20_000).map(|i| letters.word(4 + i % 9)).collect();
    for head in ["con", "pro"] {
        for i in 0..4096u32 {
            let tail: String = (0..3)
                .map(|k| char::from(b'a' + (i >> (4 * k) & 15) as u8))
                .collect();
            words.push(format!("{head}{tail}"));
        }
    }
    words.push(format!("{}ba", "ab".repeat(49)));
    words.push(format!("{}b", "a".repeat(99)));
    words.sort_unstable();
    words.dedup();
    words
}

fn work((index, grams): &(Searcher, Grams), q: &str, match_type: MatchType) -> (u64, usize) {
    let rule = MatchRule::new(q, match_type, true);
    let hits = index
        .search(Some(grams), &rule, &Filters::default(), 0, 20)
        .expect("within the budget");
    assert!(hits.work <= WORK_BUDGET);
    (hits.work, hits.total)
}

/// Queries built to cost the most stay within a small, counted amount of
/// work: each reads a few thousand FST nodes of a corpus of 28,000
/// terms, except where the answer itself is that large.
#[test]
fn hostile_queries_stay_within_the_work_budget() {
    let index = searchable(&hostile_corpus(), &[]);
    let longest = index.0.index().longest_term_chars();
    assert_eq!(longest, 100);
    // 100 characters, 2 edits (3 as the extra edit), whole word.
    let (w, _) = work(&index, &"ab".repeat(50), MatchType::Exact);
    assert!(w < 3_000, "ab×50 exact read {w} nodes");
    // A prefix search with 2 edits (3 as the extra edit) is anchored on
    // its head and on the pieces after it: unanchored, it read most of
    // the 17,576 three-letter prefixes (over 15,000 nodes here).
    let (w, _) = work(&index, &"a".repeat(100), MatchType::Prefix);
    assert!(w < 8_000, "a×100 prefix read {w} nodes");
    // `xcon` is one edit from `con`, whose subtree of 4,096 terms is
    // the answer: listing it is the work, a few nodes a term.
    let (w, total) = work(&index, "xcon", MatchType::Prefix);
    assert!(total >= 4_096, "{total}");
    assert!(w < 4 * total as u64 + 3_000, "xcon prefix read {w} nodes");
    // Random 14-letter strings: 2 edits, and 3 as the extra edit.
    let mut letters = Letters(14);
    let mut most = (0, 0);
    for _ in 0..50 {
        let q = letters.word(14);
        most.0 = most.0.max(work(&index, &q, MatchType::Exact).0);
        most.1 = most.1.max(work(&index, &q, MatchType::Prefix).0);
    }
    assert!(most.0 < 5_000, "14 letters, exact: {} nodes", most.0);
    assert!(most.1 < 12_000, "14 letters, prefix: {} nodes", most.1);
}

/// Four letters that spell `i` in base 26, the lowest digit first:
/// distinct for every `i` below 26⁴.
fn spelled(i: usize) -> String {
    (0..4)
        .map(|k| char::from(b'a' + (i / 26usize.pow(k) % 26) as u8))
        .collect()
}

/// A search that would reach more than [`MAX_TERM_BLOCKS`] term blocks is
/// over budget, on a cold instance (having read none) and a warm one
/// alike, its prefix's matches cached or not; one under it answers. A
/// prefix of one character reads its bitmap instead, whatever it heads.
#[test]
fn a_search_reaches_at_most_max_term_blocks() {
    // A block per term: `cq` heads more terms than the limit, `xq` fewer.
    let mut words: Vec<String> = (0..MAX_TERM_BLOCKS + 200)
        .map(|i| format!("cq{}", spelled(i)))
        .chain((0..50).map(|i| format!("xq{}", spelled(i))))
        .collect();
    words.sort_unstable();
    let built = build_with_blocks(english_postings(&words), &Lexicon::default(), 1);
    let grams: Grams = built.decode().unwrap();
    let warm = Searcher::new(built.index().unwrap());
    let cold = Searcher::new(built.cold_index().unwrap());
    let search = |searcher: &Searcher, q: &str| {
        let rule = MatchRule::new(q, MatchType::Prefix, false);
        searcher.search(Some(&grams), &rule, &Filters::default(), 0, 20)
    };
    let under = |prefix: &str| words.iter().filter(|w| w.starts_with(prefix)).count();
    assert!(under("cq") > MAX_TERM_BLOCKS, "{}", under("cq"));
    for _ in 0..2 {
        assert_eq!(search(&warm, "cq"), Err(SearchError::OverBudget));
    }
    assert_eq!(search(&cold, "cq"), Err(SearchError::OverBudget));
    assert!(under("xq") < MAX_TERM_BLOCKS);
    assert_eq!(search(&warm, "xq").unwrap().total, under("xq"));
    assert!(matches!(search(&cold, "xq"), Err(SearchError::Missing(_))));
    assert_eq!(search(&warm, "c").unwrap().total, under("c"));
}

/// A search that would check its candidates against more than
/// [`MAX_TEXT_BLOCKS`] text blocks is over budget, on a cold instance and a
/// warm one alike; the extra edit leaves out its pieces' terms past it,
/// and keeps what its walk anchored on the head finds.
#[test]
fn a_search_checks_at_most_max_text_blocks() {
    // A text block per term. Each filler holds `def` where the extra
    // edit's first piece of `abcdefghij` can stand, and `qxwvy`.
    let fillers: Vec<String> = (0..MAX_TEXT_BLOCKS + 100)
        .map(|i| format!("{}defqxwvy", spelled(i)))
        .collect();
    // Three edits from `abcdefghij`: by the head's walk (`ab` kept), and
    // by the pieces alone (`xyz` for `abc`).
    let (by_walk, by_pieces) = ("abcdxfxhxj", "xyzdefghij");
    let few: Vec<String> = (0..50).map(|i| format!("{}kqxwvz", spelled(i))).collect();
    let searchers = |fillers: &[String]| {
        let mut words = [fillers, &few].concat();
        words.extend([by_walk.to_string(), by_pieces.to_string()]);
        words.sort_unstable();
        let built = build_with_blocks(english_postings(&words), &Lexicon::default(), 1);
        let grams: Grams = built.decode().unwrap();
        let warm = Searcher::new(built.index().unwrap());
        let cold = Searcher::new(built.cold_index().unwrap());
        (grams, warm, cold)
    };
    let search = |(grams, searcher): (&Grams, &Searcher), q: &str, match_type| {
        let rule = MatchRule::new(q, match_type, true);
        let hits = searcher.search(Some(grams), &rule, &Filters::default(), 0, 100)?;
        let texts = searcher.index().texts_of_entries(&hits.ordinals)?;
        let words = hits.ordinals.iter().map(|&o| texts.word(o).to_string());
        Ok::<_, SearchError>(words.collect::<Vec<_>>())
    };
    let (grams, warm, cold) = searchers(&fillers);
    assert_eq!(
        search((&grams, &cold), "qxwvy", MatchType::Contains),
        Err(SearchError::OverBudget)
    );
    assert_eq!(
        search((&grams, &warm), "qxwvy", MatchType::Contains),
        Err(SearchError::OverBudget)
    );
    assert_eq!(
        search((&grams, &warm), "qxwvz", MatchType::Contains)
            .unwrap()
            .len(),
        few.len()
    );
    assert!(matches!(
        search((&grams, &cold), "qxwvz", MatchType::Contains),
        Err(SearchError::Missing(_))
    ));
    let found = search((&grams, &warm), "abcdefghij", MatchType::Prefix).unwrap();
    assert_eq!(found, [by_walk]);
    // Under the bound, the pieces find the other.
    let (grams, warm, _) = searchers(&fillers[..100]);
    let found = search((&grams, &warm), "abcdefghij", MatchType::Prefix).unwrap();
    assert_eq!(found, [by_walk, by_pieces]);
}

/// A form of more lemmas than its value holds keeps them in an overflow
/// item: a cold lookup names its form block, then the overflow item, then
/// answers every lemma in term order, and the lemma tier finds them all.
#[test]
fn a_form_of_many_lemmas_reads_its_overflow_item() {
    use crate::snapshot::Section;
    let words: Vec<String> = (0..20).map(|i| format!("lemma{i:02}")).collect();
    let mut forms: Vec<(String, String)> =
        words.iter().map(|w| ("many".into(), w.clone())).collect();
    forms.push(("zfew".into(), words[0].clone()));
    let mut lexicon = Lexicon::default();
    lexicon.add(LexiconKind::Forms, "en", forms).unwrap();
    // A block per form: `zfew`'s holds no form of many lemmas.
    let built = build_with_blocks(english_postings(&words), &lexicon, 1);
    let index = built.cold_index().unwrap();
    let terms = built.section(Section::Terms);
    let read = |form: &str| {
        let mut reads = Vec::new();
        loop {
            match index.lemmas(form) {
                Ok(lemmas) => break (lemmas, reads),
                Err(Missing(items)) => {
                    let read = items.iter().map(|&i| (i, terms[i].clone()));
                    index.term_dictionary().keep(read).unwrap();
                    reads.push(items.len());
                }
            }
        }
    };
    let (few, reads) = read("zfew");
    assert_eq!((few.len(), reads), (1, vec![1]), "its block alone");
    let (lemmas, reads) = read("many");
    assert_eq!(reads, [2], "the form block and the overflow item, together");
    let mut numbers: Vec<usize> = lemmas.iter().map(|l| l.term).collect();
    assert_eq!(numbers.len(), 20);
    assert!(numbers.is_sorted(), "term order: {numbers:?}");
    numbers.dedup();
    assert_eq!(numbers.len(), 20);
    let searcher = Searcher::new(built.index().unwrap());
    let rule = MatchRule::new("many", MatchType::Exact, false);
    let found = searcher.search(None, &rule, &Filters::default(), 0, 50);
    assert_eq!(found.unwrap().total, 20);
}

/// The form blocks have a reach budget of their own: a typo search whose
/// walks reach fewer than [`MAX_TERM_BLOCKS`] term blocks and fewer form
/// blocks, but more than that together, answers.
#[test]
fn form_blocks_are_counted_apart_from_term_blocks() {
    let mut words: Vec<String> = (0..MAX_TERM_BLOCKS * 3 / 4)
        .map(|i| format!("cc{}", spelled(i)))
        .collect();
    words.sort_unstable();
    let forms: Vec<(String, String)> = words.iter().map(|w| (format!("{w}s"), w.clone())).collect();
    let mut lexicon = Lexicon::default();
    lexicon.add(LexiconKind::Forms, "en", forms).unwrap();
    // A block per key: the head `cc` of `ccxyz` (its one edit in the tail)
    // reaches every block of both forward FSTs.
    let built = build_with_blocks(english_postings(&words), &lexicon, 1);
    let searcher = Searcher::new(built.index().unwrap());
    let rule = MatchRule::new("ccxyz", MatchType::Exact, true);
    assert_eq!(rule.max_edits, 1);
    let found = searcher.search(None, &rule, &Filters::default(), 0, 10);
    assert!(found.is_ok(), "{found:?}");
}

/// A whole-word typo search reads about as many nodes whatever the size
/// of the corpus: four times the terms, not four times the work.
#[test]
fn whole_word_typos_cost_what_the_query_needs() {
    let mut letters = Letters(7);
    let words: Vec<String> = (0..40_000).map(|i| letters.word(5 + i % 8)).collect();
    let small = searchable(&words[..10_000], &[]);
    let large = searchable(&words, &[]);
    let (mut on_small, mut on_large) = (0, 0);
    for w in words.iter().step_by(997).take(40) {
        let q: String = w.chars().rev().collect();
        on_small += work(&small, &q, MatchType::Exact).0;
        on_large += work(&large, &q, MatchType::Exact).0;
    }
    assert!(on_large < 2 * on_small, "{on_small} → {on_large}");
}

/// Patterns built to cost the most: each reads what its answer needs or
/// is refused over the budget, never reads past it, and never panics.
#[test]
fn hostile_patterns_stay_within_the_work_budget() {
    let words = hostile_corpus();
    let built = build(english_postings(&words), &Lexicon::default());
    let index: Searcher = built.decode().unwrap();
    let grams: Grams = built.decode().unwrap();
    let run = |raw: &str| {
        let rule = MatchRule::of_query(raw, MatchType::Pattern, true).unwrap();
        let hits = index.search(Some(&grams), &rule, &Filters::default(), 0, 20);
        let glob = rule.pattern().expect("a pattern rule").nfa();
        if let Ok(hits) = &hits {
            assert!(hits.work <= WORK_BUDGET, "{raw}");
            let matching = words.iter().filter(|w| glob.matches(w)).count();
            assert_eq!(hits.total, matching, "{raw}");
        }
        hits.map(|h| (h.work, h.total))
    };
    // The answer is the work: 4,096 terms under `con`.
    let (w, total) = run("con*").unwrap();
    assert_eq!(total, 4_096);
    assert!(w < 4 * total as u64 + 3_000, "con* read {w}");
    // Leading `?`s walk from the end; trailing ones from the start.
    let (w, _) = run(&format!("{}ab", "?".repeat(98))).unwrap();
    assert!(w < 2_000, "?×98 ab read {w}");
    let (w, _) = run(&format!("ab{}", "?".repeat(98))).unwrap();
    assert!(w < 2_000, "ab ?×98 read {w}");
    // `?` alone between one letter at each end: the entries of the
    // pattern's length that start and end with them, read, not checked.
    let (w, total) = run(&format!("a{}b", "?".repeat(98))).unwrap();
    assert_eq!(total, 1);
    assert_eq!(w, 1, "a ?×98 b read {w}");
    for raw in ["c???n", "c????n", "c?????????n", "a???b"] {
        assert_eq!(run(raw).unwrap().0, 1, "{raw}");
    }
    // Both ends wildcards: the terms that hold the grams, checked once.
    let (w, _) = run("*a*b*a*b*").unwrap();
    assert!(
        w <= index.index().term_count() as u64,
        "*a*b*a*b* checked {w}"
    );
    let (w, _) = run(&"*ab".repeat(30)).unwrap();
    assert!(w <= index.index().term_count() as u64, "*ab×30 checked {w}");
    // `?` before and after the only letters: every term of the length.
    let (w, _) = run("??????ab??????").unwrap();
    assert!(w < 200_000, "?×6 ab ?×6 read {w}");
    let (w, _) = run("?*?a?b?*?").unwrap();
    assert!(
        w <= index.index().term_count() as u64,
        "?*?a?b?*? checked {w}"
    );
}

/// A pattern that would read more than the budget is refused, not cut.
#[test]
fn a_pattern_over_budget_is_an_error_not_a_partial_answer() {
    let index = index_of(&hostile_corpus());
    let rule = MatchRule::of_query("co*n", MatchType::Pattern, true).unwrap();
    let pattern = rule.pattern().expect("a pattern rule");
    let mut typos = Typos {
        work: WORK_BUDGET - 100,
        ..Typos::new(TypoWalk::Rows)
    };
    assert_eq!(
        index
            .matching_pattern(None, pattern, None, &mut typos)
            .unwrap_err(),
        SearchError::OverBudget
    );
    let mut typos = Typos {
        work: 0,
        ..Typos::new(TypoWalk::Rows)
    };
    assert!(index
        .matching_pattern(None, pattern, None, &mut typos)
        .is_ok());
}

#[test]
fn a_walk_over_budget_is_an_error_not_a_partial_answer() {
    let index = index_of(&hostile_corpus());
    let rule = MatchRule::new("xcon", MatchType::Prefix, true);
    let mut typos = Typos {
        work: WORK_BUDGET - 100,
        ..Typos::new(TypoWalk::Rows)
    };
    assert_eq!(
        index.typos(None, &rule, 1, &mut typos).unwrap_err(),
        SearchError::OverBudget
    );
}

/// The hostile corpus with three forms of every word (`-s`, `-ed`,
/// `-ing`): 80,000 forms beside its 28,000 terms.
fn hostile_with_forms() -> (Vec<String>, Vec<(String, String)>) {
    let words = hostile_corpus();
    let forms = words
        .iter()
        .flat_map(|w| ["s", "ed", "ing"].map(|end| (format!("{w}{end}"), w.clone())))
        .collect();
    (words, forms)
}

/// Typos of forms are walked like typos of terms, anchored on both ends:
/// the hostile queries stay within the bounds they have without forms
/// (random 14-letter strings read under 800 nodes more, never the forms'
/// first letters with every edit to spend), and `work` counts them.
#[test]
fn typos_of_forms_stay_within_the_work_budget() {
    let (words, forms) = hostile_with_forms();
    let plain = searchable(&words, &[]);
    let index = searchable(&words, &forms);
    let (w, _) = work(&index, &"ab".repeat(50), MatchType::Exact);
    assert!(w < 3_000, "ab×50 exact read {w} nodes");
    let (w, _) = work(&index, &"a".repeat(100), MatchType::Prefix);
    assert!(w < 25_000, "a×100 prefix read {w} nodes");
    let mut letters = Letters(14);
    let (mut most, mut more) = (0, 0);
    for _ in 0..50 {
        let q = letters.word(14);
        for match_type in [MatchType::Exact, MatchType::Prefix] {
            let with = work(&index, &q, match_type).0;
            let without = work(&plain, &q, match_type).0;
            assert!(with > without, "{q} {match_type:?}: {with} ≤ {without}");
            most = most.max(with);
            more = more.max(with - without);
        }
    }
    assert!(most < 60_000, "14 letters: {most} nodes");
    assert!(more < 3_000, "14 letters: {more} nodes more for the forms");
    // A typo of a form of a hostile word: its lemma, at distance 1.
    let word = &words[1000];
    let typo = format!("{word}ign");
    let rule = MatchRule::new(&typo, MatchType::Exact, true);
    let (index, grams) = index;
    let hits = index
        .search(Some(&grams), &rule, &Filters::default(), 0, 20)
        .unwrap();
    let lemma = index.index().term_number(word).unwrap().unwrap() as u32;
    assert!(hits
        .ordinals
        .contains(&index.index().term_entries(lemma as usize).start));
}

/// The forms' walks spend the same budget as the terms': a search whose
/// terms walk fits but whose forms walk does not is over the budget.
#[test]
fn the_work_budget_covers_the_walk_over_the_forms() {
    let (words, forms) = hostile_with_forms();
    let plain = index_of(&words);
    let index = searchable(&words, &forms).0;
    let rule = MatchRule::new("conabcing", MatchType::Exact, true);
    let spent = |index: &Searcher, work| {
        let mut typos = Typos {
            work,
            ..Typos::new(TypoWalk::Rows)
        };
        index.typos(None, &rule, 2, &mut typos).map(|_| typos.work)
    };
    let terms = spent(&plain, 0).unwrap();
    let all = spent(&index, 0).unwrap();
    assert!(all > terms, "{all} ≤ {terms}");
    assert!(spent(&index, WORK_BUDGET - all).is_ok());
    assert_eq!(
        spent(&index, WORK_BUDGET - terms - 1).unwrap_err(),
        SearchError::OverBudget
    );
}

/// Form blocks are checked as they are read: a value whose lemma lies
/// beyond the terms, the languages or the overflow items, or that holds
/// no lemma, is refused in either FST; the blocks as built are taken.
#[test]
fn corrupt_form_blocks_are_refused_when_read() {
    use crate::snapshot::{Direction, Fst, Lemma, Section};
    let (searcher, _) = searchable(&["run".to_string()], &[("runs".into(), "run".into())]);
    let built = {
        let mut lexicon = Lexicon::default();
        let forms = vec![("runs".to_string(), "run".to_string())];
        lexicon.add(LexiconKind::Forms, "en", forms).unwrap();
        build(english_postings(&["run".to_string()]), &lexicon)
    };
    let index = built.cold_index().unwrap();
    let dictionary = index.term_dictionary();
    let items = |direction| dictionary.every_item(Fst::Forms(direction));
    let (forwards, backwards) = (items(Direction::Forwards), items(Direction::Backwards));
    assert_eq!((forwards.len(), backwards.len()), (1, 1));
    assert_eq!(index.lemmas("runs"), Err(Missing(forwards.clone())));
    let terms = built.section(Section::Terms);
    let as_built = [forwards[0], backwards[0]].map(|item| (item, terms[item].clone()));
    dictionary.keep(as_built).unwrap();
    let run = Lemma {
        term: 0,
        lang: "en",
    };
    assert_eq!(index.lemmas("runs"), Ok(vec![run]));
    let block = |key: &str, value: u64| {
        let map = fst::Map::from_iter([(key, value)]).unwrap();
        map.into_fst().into_inner()
    };
    // One term and one language: a pair is a bit of term, after 4 bits of
    // count.
    let beyond_the_terms = 1 | (1 << 4);
    let no_lemma = 0;
    let beyond_the_overflow = (1 << 63) | (1 << 32);
    for value in [beyond_the_terms, no_lemma, beyond_the_overflow, u64::MAX] {
        for (item, key) in [(forwards[0], "runs"), (backwards[0], "snur")] {
            let kept = dictionary.keep([(item, block(key, value))]);
            assert!(kept.is_err(), "{value:#x} in item {item}");
        }
    }
    // `xuns` has its edit in the head: only the backwards walk (on the
    // tail `ns`) reaches `runs`.
    let rule = MatchRule::new("xuns", MatchType::Exact, true);
    let found = searcher.search(None, &rule, &Filters::default(), 0, 10);
    assert_eq!(found.unwrap().total, 1, "`xuns` is one edit from `runs`");
}

/// A build of one entry per word, with its grams whole and by part: what
/// the tests of which gram parts a search reads compare.
struct GramParts {
    index: Searcher,
    /// Every part, as a warm instance holds them.
    every: Grams,
    parts: Arc<crate::snapshot::PartIndex>,
    items: Vec<Vec<u8>>,
    /// Each entry's folded term, by ordinal.
    terms: Vec<Vec<char>>,
}

impl GramParts {
    fn of(words: &[String]) -> Self {
        let all = crate::snapshot::rank_order(
            (0..)
                .zip(words)
                .map(|(i, w): (usize, _)| crate::snapshot::tests::posting(w, "d", &i.to_string()))
                .collect(),
            &Lexicon::default(),
        );
        let terms = all.iter().map(|p| p.folded().chars().collect()).collect();
        let built = build(all, &Lexicon::default());
        let items = built.section(crate::snapshot::Section::Grams).to_vec();
        GramParts {
            index: built.decode().unwrap(),
            every: built.decode().unwrap(),
            parts: Arc::new(crate::snapshot::PartIndex::decode(&items[0]).unwrap()),
            items,
            terms,
        }
    }

    /// The grams with only `wanted` parts held.
    fn holding(&self, wanted: &[usize]) -> Grams {
        use crate::snapshot::{GramPart, PagedPart};
        let load = |p: usize| {
            let bytes = self.items[self.parts.part_items(p)].concat();
            Arc::new(GramPart::decode(self.parts.first_key(p), bytes).unwrap())
        };
        Grams::new(
            self.parts.clone(),
            wanted.iter().map(|&p| (p, load(p))).collect(),
        )
    }
}

/// Words of a small alphabet, so that grams repeat and parts fill.
fn word() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![Just('a'), Just('b'), Just('c'), Just('é'), Just('d')],
        1..9,
    )
    .prop_map(|c| c.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A `contains` search (or a pattern's) with only the parts of its
    /// query's grams held finds what it finds with every part held; the part of a gram is
    /// the one whose range holds it.
    #[test]
    fn a_contains_search_reads_only_the_parts_of_its_grams(
        words in proptest::collection::vec(word(), 1..3000),
        needles in proptest::collection::vec(word(), 1..10),
    ) {
        let gram_parts = GramParts::of(&words);
        let (index, every, parts) = (&gram_parts.index, &gram_parts.every, &gram_parts.parts);
        for needle in needles {
            let needle = crate::fold::fold(&needle);
            let wanted = Grams::parts_of(parts, &query_grams(&needle));
            for gram in query_grams(&needle) {
                let holder = (0..parts.len())
                    .rfind(|&p| parts.first_key(p) <= gram.as_bytes())
                    .unwrap_or(0);
                prop_assert!(wanted.contains(&holder));
            }
            let held = gram_parts.holding(&wanted);
            let rule = MatchRule::new(&needle, MatchType::Contains, true);
            let filters = Filters::default();
            let full = index.search(Some(every), &rule, &filters, 0, 50).unwrap();
            let partial = index.search(Some(&held), &rule, &filters, 0, 50).unwrap();
            prop_assert_eq!(full, partial);
            // A pattern with wildcards at both ends reads the grams of its
            // letters, and only those.
            let first = needle.chars().next().unwrap();
            for raw in [format!("*{needle}*"), format!("?*{first}?{needle}*")] {
                let Ok(rule) = MatchRule::of_query(&raw, MatchType::Pattern, true) else {
                    continue;
                };
                let wanted = rule.pattern().expect("a pattern rule").needed_grams();
                let wanted: Vec<&str> = wanted.iter().map(String::as_str).collect();
                let held = gram_parts.holding(&Grams::parts_of(parts, &wanted));
                let full = index.search(Some(every), &rule, &filters, 0, 50).unwrap();
                let partial = index.search(Some(&held), &rule, &filters, 0, 50).unwrap();
                prop_assert_eq!(full, partial);
            }
        }
    }
}

/// Words of three letters (one of two bytes), long enough that a prefix
/// typo search's piece stands in many of them, at many places.
fn long_word() -> impl Strategy<Value = String> {
    proptest::collection::vec(prop_oneof![Just('a'), Just('b'), Just('ж')], 3..14)
        .prop_map(|c| c.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The lookups of a prefix typo search's piece find the entries whose
    /// term holds it where it can stand: its first five characters (all,
    /// when shorter) at one of its starts when its grams are looked up by
    /// start, its grams anywhere when not. And a prefix search with only the
    /// parts of its grams held finds what it finds with every part held.
    #[test]
    fn a_pieces_lookups_find_the_terms_that_hold_it_in_place(
        words in proptest::collection::vec(long_word(), 1..400),
        queries in proptest::collection::vec(long_word(), 1..8),
    ) {
        let gram_parts = GramParts::of(&words);
        let (index, every) = (&gram_parts.index, &gram_parts.every);
        for query in queries {
            let chars: Vec<char> = query.chars().collect();
            for max_edits in [2, 3] {
                let Some(split) = typo::prefix_split(&chars, max_edits) else {
                    continue;
                };
                for piece in &split.pieces {
                    let lookups = piece_lookups(piece, max_edits);
                    let mut found = RoaringBitmap::new();
                    for lookup in &lookups {
                        let keys: Vec<&str> = lookup.iter().map(String::as_str).collect();
                        found |= holding_all(every, &keys, None).unwrap();
                    }
                    let placed = lookups[0][0].starts_with('\u{1}');
                    let text: String = piece.chars.iter().collect();
                    let head = &piece.chars[..piece.chars.len().min(5)];
                    let holds = |term: &[char]| {
                        if placed {
                            piece.starts(max_edits).any(|s| term.get(s..s + head.len()) == Some(head))
                        } else {
                            let term: String = term.iter().collect();
                            query_grams(&text).iter().all(|g| term.contains(g))
                        }
                    };
                    let wanted: RoaringBitmap = (0u32..).zip(&gram_parts.terms).filter(|(_, t)| holds(t)).map(|(o, _)| o).collect();
                    prop_assert_eq!(found, wanted, "{:?} with {} edits", piece, max_edits);
                }
            }
            let rule = MatchRule::new(&query, MatchType::Prefix, true);
            let wanted = needed_grams(&rule);
            let wanted: Vec<&str> = wanted.iter().map(String::as_str).collect();
            let held = gram_parts.holding(&Grams::parts_of(&gram_parts.parts, &wanted));
            let filters = Filters::default();
            let full = index.search(Some(every), &rule, &filters, 0, 50);
            let partial = index.search(Some(&held), &rule, &filters, 0, 50);
            prop_assert_eq!(format!("{full:?}"), format!("{partial:?}"));
        }
    }
}

/// `word` with one edit of `kind` (substitution, insertion, deletion,
/// transposition with the next character) at `at`; the middle character's
/// place is drawn as often as all the others.
fn one_edit(word: &str, kind: u8, at: usize, c: char) -> String {
    let mut q: Vec<char> = word.chars().collect();
    let at = match at % 2 {
        0 => crate::snapshot::middle(q.len()),
        _ => at / 2 % (q.len() + 1),
    };
    match kind % 4 {
        0 if at < q.len() => q[at] = c,
        1 => q.insert(at.min(q.len()), c),
        2 if at < q.len() && q.len() > 1 => {
            q.remove(at);
        }
        3 if at + 1 < q.len() => q.swap(at, at + 1),
        _ => {}
    }
    q.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A one-edit whole-word search finds, at distance one, the entries of
    /// every term one edit from the query and the lemmas of every form one
    /// edit from it, whichever character the edit takes (the middle one
    /// among them: walks anchored on either side of it, lookups for its
    /// own edits), over blocks of any size. Beside it the brute force
    /// measures every term and every form.
    #[test]
    fn one_edit_typos_are_those_of_the_brute_force(
        words in proptest::collection::vec(word(), 1..120),
        forms in proptest::collection::vec((word(), any::<usize>()), 0..30),
        pick in any::<usize>(),
        (kind, at) in (0..4u8, any::<usize>()),
        c in prop::sample::select(vec!['a', 'b', 'c', 'é', 'd', 'x']),
        block_bytes in prop_oneof![Just(1usize), 8..200usize],
    ) {
        // The lexicon holds folded words, as the importer gives them.
        let fold = crate::fold::fold;
        let forms: Vec<(String, String)> = forms
            .into_iter()
            .map(|(form, lemma)| (fold(&form), fold(&words[lemma % words.len()])))
            .filter(|(form, _)| !form.is_empty())
            .collect();
        let mut lexicon = Lexicon::default();
        lexicon.add(LexiconKind::Forms, "en", forms.clone()).expect("forms");
        let built = build_with_blocks(english_postings(&words), &lexicon, block_bytes);
        let searcher: Searcher = built.decode().unwrap();
        let index = searcher.index();
        let start = match pick % 3 {
            0 if !forms.is_empty() => &forms[pick / 3 % forms.len()].0,
            _ => &words[pick / 3 % words.len()],
        };
        let query = fold(&one_edit(start, kind, at, c));
        prop_assume!(!query.is_empty());
        let rule = MatchRule::new(&query, MatchType::Exact, true);
        let mut typos = Typos::new(TypoWalk::Rows);
        let tiers = searcher.typos(None, &rule, 1, &mut typos).unwrap();
        prop_assert_eq!(typos.complete(index), Ok(()));
        // The headwords one edit away (by kind), and the lemmas of forms one
        // edit away.
        let found = tiers.iter().fold(RoaringBitmap::new(), |all, tier| all | tier);
        let q: Vec<char> = query.chars().collect();
        let one_edit_from = |word: &str| {
            crate::oracle::edit_distance(&q, &word.chars().collect::<Vec<_>>()) == 1
        };
        let mut wanted = RoaringBitmap::new();
        for t in 0..index.term_count() {
            if one_edit_from(&index.term(t).unwrap()) {
                wanted.extend(index.term_entries(t));
            }
        }
        for (form, _) in &forms {
            if one_edit_from(form) {
                for lemma in index.lemmas(form).unwrap() {
                    wanted |= index.lemma_entries(lemma);
                }
            }
        }
        let differ: Vec<String> = (&found ^ &wanted)
            .iter()
            .map(|o| format!("{o} {} {}", index.term(index.term_of(o)).unwrap(), found.contains(o)))
            .collect();
        prop_assert_eq!(&found, &wanted, "{} differ {:?} in {:?} with forms {:?}", query, differ, words, forms);
    }
}

impl Searcher {
    /// The term of `word` (folded) in `lang`, every block held: what a
    /// test's brute force names a word by.
    pub(crate) fn term_in_lang(&self, word: &str, lang: &str) -> usize {
        let first = self.index.term_number(&crate::fold::fold(word)).unwrap();
        let terms: Vec<usize> = self.index.text_terms(first.expect("a headword")).collect();
        let texts = self.index.texts(terms.iter().copied()).unwrap();
        terms
            .into_iter()
            .find(|&t| texts.term_lang(t) == lang)
            .expect("a word of the language")
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// What a search names before its grams are read
    /// ([`Searcher::blocks_named_first`]) is read for nothing unless the
    /// search needs it: on a cold instance, over blocks of any size, every
    /// block it names is one the search's own first run names; a
    /// `contains` search of a word names at least its exact tier's block; and
    /// with them held, the search answers as an instance that held them
    /// from the start. Every word has a form (itself and `s`), so that a
    /// typo search walks the forms too, named after its pieces.
    #[test]
    fn the_blocks_named_first_are_the_first_runs_own(
        words in proptest::collection::vec(word(), 1..600),
        needles in proptest::collection::vec(word(), 1..6),
        block_bytes in 64usize..2048,
    ) {
        let mut lexicon = Lexicon::default();
        let forms = words.iter().map(|w| (format!("{w}s"), w.clone())).collect();
        lexicon.add(LexiconKind::Forms, "fr", forms).expect("forms");
        let all = crate::snapshot::rank_order(
            words.iter().enumerate().map(|(i, w)| crate::snapshot::tests::posting(w, "d", &i.to_string())).collect(),
            &lexicon,
        );
        let built = build_with_blocks(all, &lexicon, block_bytes);
        let every: Grams = built.decode().unwrap();
        let warm = Searcher::new(built.index().unwrap());
        let filters = Filters::default();
        for needle in needles {
            let needle = crate::fold::fold(&needle);
            let rules = [
                MatchRule::new(&needle, MatchType::Contains, true),
                MatchRule::new(&needle, MatchType::Prefix, true),
                MatchRule::new(&needle, MatchType::Exact, true),
            ];
            for rule in rules {
                let cold = Searcher::new(built.cold_index().unwrap());
                let named = cold.blocks_named_first(&rule).0;
                let first = match cold.search(Some(&every), &rule, &filters, 0, 20) {
                    Err(SearchError::Missing(missing)) => missing.0,
                    _ => Vec::new(),
                };
                for block in &named {
                    prop_assert!(first.contains(block), "{:?}: {} named, not read first", rule, block);
                }
                // The forms' blocks too, after a prefix typo's pieces.
                let first_form = cold.index().term_dictionary().first_form_item();
                if rule.match_type != MatchType::Contains && !named.is_empty() {
                    for block in first.iter().filter(|&&b| b >= first_form) {
                        prop_assert!(named.contains(block), "{:?}: form block {} not named", rule, block);
                    }
                }
                let a_word = words.iter().any(|w| crate::fold::fold(w) == needle);
                if rule.match_type == MatchType::Contains && a_word {
                    prop_assert!(!named.is_empty(), "the exact tier's block of {}", needle);
                }
                let items = built.section(crate::snapshot::Section::Terms);
                let mut named = named;
                named.sort_unstable();
                named.dedup();
                cold.index()
                    .term_dictionary()
                    .keep(named.iter().map(|&n| (n, items[n].clone())))
                    .unwrap();
                let answered = loop {
                    match cold.search(Some(&every), &rule, &filters, 0, 20) {
                        Err(SearchError::Missing(missing)) => cold
                            .index()
                            .term_dictionary()
                            .keep(missing.0.iter().map(|&n| (n, items[n].clone())))
                            .unwrap(),
                        answered => break answered,
                    }
                };
                prop_assert_eq!(answered, warm.search(Some(&every), &rule, &filters, 0, 20));
            }
        }
    }
}

/// A word as typed: capitals and lower case of a few letters, so that
/// texts often mix them (`Ab` beside `ab`), and a letter without case.
fn cased_word() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just('a'),
            Just('A'),
            Just('b'),
            Just('B'),
            Just('é'),
            Just('É'),
            Just('1')
        ],
        1..6,
    )
    .prop_map(|c| c.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// One instance, cold at first, answers a run of searches as typed,
    /// each after reading what its runs name, as an instance that held
    /// every block from the start: whatever the searches before it left
    /// held (a capitalisation bucket without the term block of this
    /// query's text, a term block without its text block), over blocks of
    /// any size.
    #[test]
    fn an_instance_warming_up_answers_as_a_warm_one(
        words in proptest::collection::vec(cased_word(), 1..300),
        queries in proptest::collection::vec(cased_word(), 1..10),
        block_bytes in 1usize..512,
    ) {
        let all = crate::snapshot::rank_order(
            words
                .iter()
                .enumerate()
                .map(|(i, w)| crate::snapshot::tests::posting(w, ["d", "e"][i % 2], &i.to_string()))
                .collect(),
            &Lexicon::default(),
        );
        let built = build_with_blocks(all, &Lexicon::default(), block_bytes);
        let grams: Grams = built.decode().unwrap();
        let items = built.section(crate::snapshot::Section::Terms);
        let warm = Searcher::new(built.index().unwrap());
        let warming = Searcher::new(built.cold_index().unwrap());
        let filters = Filters::default();
        for q in &queries {
            for match_type in [MatchType::Exact, MatchType::Prefix, MatchType::Contains] {
                let rule = MatchRule::of_query(q, match_type, true).unwrap();
                let answered = loop {
                    match warming.search(Some(&grams), &rule, &filters, 0, 20) {
                        Err(SearchError::Missing(missing)) => warming
                            .index()
                            .term_dictionary()
                            .keep(missing.0.iter().map(|&n| (n, items[n].clone())))
                            .unwrap(),
                        answered => break answered,
                    }
                };
                prop_assert_eq!(
                    answered,
                    warm.search(Some(&grams), &rule, &filters, 0, 20),
                    "{:?}",
                    rule
                );
            }
        }
    }
}
