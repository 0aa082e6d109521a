//! The search engine beside Debian's dictd on the same dictionary, in one
//! run (infra/scripts/dictd-benchmark.sh starts dictd and runs this).
//!
//!   peer --dictd 127.0.0.1:26280 --database freedict-deu-eng \
//!        --index .local/corpus/root/usr/share/dictd/freedict-deu-eng.index [--rounds 2000] [--seed 26]
//!
//! The engine's snapshot is built in memory from the headwords of the same
//! `.index` file dictd serves. Every round draws fresh queries from those
//! headwords and runs each class once on both, interleaved:
//!
//! - `exact`: dictd `DEFINE` against an exact search without typos;
//! - `prefix`: dictd `MATCH prefix` against a literal prefix search, and the
//!   same prefix searched as the API's default does (with typo tolerance);
//! - `lev`: dictd `MATCH lev` (one edit) against an exact search with typo
//!   tolerance, on words of 5 to 7 letters given one random edit.
//!
//! dictd's times are end to end over loopback (a persistent connection,
//! quick ACKs); the engine's are in-process: the search of a page of 20
//! ordinals, which is what the search function does before it reads the
//! page's records.

use bench::dictd_client::DictClient;
use bench::dictd_files::{headwords, read_index};
use bench::edits::random_edits;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shared::fold::fold;
use shared::search::engine::Searcher;
use shared::search::filters::Filters;
use shared::search::lexicon::Lexicon;
use shared::search::matching::{MatchRule, MatchType};
use shared::search::snapshot::build;
use std::path::PathBuf;
use std::time::Instant;

const PAGE: usize = 20;

struct Args {
    dictd: String,
    database: String,
    index: PathBuf,
    rounds: usize,
    seed: u64,
}

fn args() -> Args {
    let mut args = Args {
        dictd: "127.0.0.1:26280".into(),
        database: String::new(),
        index: PathBuf::new(),
        rounds: 2000,
        seed: 26,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--dictd" => args.dictd = value(),
            "--database" => args.database = value(),
            "--index" => args.index = value().into(),
            "--rounds" => args.rounds = value().parse().expect("--rounds is a number"),
            "--seed" => args.seed = value().parse().expect("--seed is a number"),
            other => panic!("unknown argument {other}"),
        }
    }
    assert!(
        !args.database.is_empty() && !args.index.as_os_str().is_empty(),
        "--database and --index are required"
    );
    args
}

/// Milliseconds of each run of one line, and how many answered something.
#[derive(Default)]
struct Line {
    ms: Vec<f64>,
    found: usize,
}

impl Line {
    fn record(&mut self, started: Instant, found: bool) {
        self.ms.push(started.elapsed().as_secs_f64() * 1e3);
        self.found += usize::from(found);
    }

    /// p50 and p99.
    fn percentiles(&mut self) -> (f64, f64) {
        self.ms.sort_by(f64::total_cmp);
        let at = |q: f64| self.ms[((self.ms.len() - 1) as f64 * q).round() as usize];
        (at(0.5), at(0.99))
    }
}

fn main() -> std::io::Result<()> {
    let args = args();
    let words: Vec<String> = headwords(&args.index)?
        .into_iter()
        .filter(|w| !w.contains('"'))
        .collect();
    let mut postings = Vec::new();
    read_index(&args.index, &mut postings)?;
    let entries = postings.len();
    let built = build(postings, &Lexicon::default());
    let searcher = Searcher::new(built.index().expect("a fresh build decodes"));
    let grams = built.grams().expect("a fresh build decodes");
    println!(
        "{}: {} headwords, {entries} entries in the snapshot; {} rounds, seed {}",
        args.database,
        words.len(),
        args.rounds,
        args.seed
    );

    let mut dictd = DictClient::connect(args.dictd.as_str())?;
    let mut rng = StdRng::seed_from_u64(args.seed);
    let engine = |rule: &MatchRule| {
        let started = Instant::now();
        let hits = searcher
            .search(Some(&grams), rule, &Filters::default(), 0, PAGE)
            .expect("an index built here is sound");
        (started, hits.total > 0)
    };
    let names = [
        "exact: dictd DEFINE",
        "exact: engine, fuzzy=false",
        "prefix: dictd MATCH prefix",
        "prefix: engine, fuzzy=false",
        "prefix: engine, fuzzy=true (the default)",
        "lev: dictd MATCH lev",
        "lev: engine exact with 1 typo",
    ];
    let mut lines: Vec<Line> = names.iter().map(|_| Line::default()).collect();
    for _ in 0..args.rounds {
        let word = &words[rng.random_range(0..words.len())];
        let started = Instant::now();
        let answer = dictd
            .define(&args.database, word)
            .map_err(|e| std::io::Error::other(format!("DEFINE {word:?}: {e}")))?;
        lines[0].record(started, answer.status == 250);
        let (started, found) = engine(&MatchRule::new(&fold(word), MatchType::Exact, false));
        lines[1].record(started, found);

        let prefix = draw_prefix(&words, &mut rng);
        let started = Instant::now();
        let answer = dictd
            .matches(&args.database, "prefix", &prefix)
            .map_err(|e| std::io::Error::other(format!("MATCH prefix {prefix:?}: {e}")))?;
        lines[2].record(started, answer.status == 250);
        let (started, found) = engine(&MatchRule::new(&fold(&prefix), MatchType::Prefix, false));
        lines[3].record(started, found);
        let (started, found) = engine(&MatchRule::new(&fold(&prefix), MatchType::Prefix, true));
        lines[4].record(started, found);

        let typo = random_edits(&draw_word(&words, &mut rng, 5..=7), 1, &mut rng);
        let started = Instant::now();
        let answer = dictd
            .matches(&args.database, "lev", &typo)
            .map_err(|e| std::io::Error::other(format!("MATCH lev {typo:?}: {e}")))?;
        lines[5].record(started, answer.status == 250);
        let (started, found) = engine(&MatchRule::new(&fold(&typo), MatchType::Exact, true));
        lines[6].record(started, found);
    }

    println!();
    println!("| Line | p50 ms | p99 ms | answered |");
    println!("|---|---:|---:|---:|");
    let mut p50s = Vec::new();
    for (name, line) in names.iter().zip(&mut lines) {
        let (p50, p99) = line.percentiles();
        p50s.push(p50);
        println!(
            "| {name} | {p50:.3} | {p99:.3} | {:.0}% |",
            100.0 * line.found as f64 / args.rounds as f64
        );
    }
    println!();
    println!(
        "dictd closed the connection {} times (its query limit); each query was sent again on a new one",
        dictd.reconnects
    );
    println!(
        "engine p50 ÷ dictd p50: exact {:.2}, prefix {:.2} (default {:.2}), lev {:.2}",
        p50s[1] / p50s[0],
        p50s[3] / p50s[2],
        p50s[4] / p50s[2],
        p50s[6] / p50s[5]
    );
    Ok(())
}

/// A headword of `chars` characters (any headword after 1,000 misses).
fn draw_word(words: &[String], rng: &mut StdRng, chars: std::ops::RangeInclusive<usize>) -> String {
    let mut word = String::new();
    for _ in 0..1000 {
        word = words[rng.random_range(0..words.len())].clone();
        if chars.contains(&word.chars().count()) {
            break;
        }
    }
    word
}

/// The first 3 to 6 characters of a headword.
fn draw_prefix(words: &[String], rng: &mut StdRng) -> String {
    let n = rng.random_range(3..=6);
    draw_word(words, rng, n..=64).chars().take(n).collect()
}
