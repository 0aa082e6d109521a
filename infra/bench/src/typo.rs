//! The typo benchmark, offline: builds the index snapshot in memory from the
//! headwords of dictd `.index` files (no DynamoDB), then times every typo
//! class with both typo walks, the row walk that search uses and the
//! Levenshtein automaton over every term that it replaced, on the same
//! queries, and checks that both give the same page and total.
//!
//!   cargo run --release -p bench --bin typo -- [rounds] [seed] [dictd dirs…]
//!
//! Without directories it reads `.local/corpus/root/usr/share/dictd` (where
//! infra/scripts/benchmark-corpus.sh unpacks the FreeDict packages). Each
//! `.index` file is one dictionary named by its file (`freedict-deu-eng`:
//! German to English); an article is one entry under the first headword
//! that points at it. Every round draws fresh queries (seeded): random
//! terms of the right length, given random edits. `PROBE=1` also prints
//! every query with the nodes its walks read.

use bench::dictd_files::read_postings;
use bench::stats;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shared::search::engine::{Hits, TypoWalk};
use shared::search::filters::Filters;
use shared::search::lexicon::Lexicon;
use shared::search::matching::{MatchRule, MatchType};
use shared::search::snapshot::{build, Index, Section};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().map_or(200, |a| a.parse().expect("rounds"));
    let seed: u64 = args.next().map_or(26, |a| a.parse().expect("seed"));
    let mut dirs: Vec<PathBuf> = args.map(PathBuf::from).collect();
    if dirs.is_empty() {
        dirs.push(".local/corpus/root/usr/share/dictd".into());
    }
    let started = Instant::now();
    let postings = read_postings(&dirs);
    let entries = postings.len();
    let built = build(postings, &Lexicon::default());
    let index = built.index().expect("a fresh build decodes");
    let grams = built.grams().expect("a fresh build decodes");
    let terms_bytes: usize = built.section(Section::Terms).iter().map(Vec::len).sum();
    println!(
        "{entries} entries, {} terms, terms section {:.1} MB (both FSTs); built in {:.1} s; seed {seed}, {rounds} rounds",
        index.term_count(),
        terms_bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    let rng = std::cell::RefCell::new(StdRng::seed_from_u64(seed));
    let draw = Draw {
        index: &index,
        rng: &rng,
    };
    type Class<'a> = (&'static str, Box<dyn Fn() -> MatchRule + 'a>);
    let classes: Vec<Class> = vec![
        (
            "exact, fuzzy=false (yardstick)",
            Box::new(|| MatchRule::new(&draw.term(1, 64), MatchType::Exact, false)),
        ),
        (
            "prefix literal, 2-3 letters (yardstick)",
            Box::new(|| MatchRule::new(&draw.prefix(2, 3), MatchType::Prefix, false)),
        ),
        (
            "exact, 1 typo in 5-7 letters",
            Box::new(|| MatchRule::new(&draw.typo(&draw.term(5, 7), 1), MatchType::Exact, true)),
        ),
        (
            "exact, 2 edits in 8+ letters",
            Box::new(|| MatchRule::new(&draw.typo(&draw.term(8, 64), 2), MatchType::Exact, true)),
        ),
        (
            "prefix with a typo, 4-7 letters",
            Box::new(|| MatchRule::new(&draw.typo(&draw.prefix(4, 7), 1), MatchType::Prefix, true)),
        ),
        (
            "prefix, 2 edits in 8+ letters",
            Box::new(|| MatchRule::new(&draw.typo(&draw.term(8, 64), 2), MatchType::Prefix, true)),
        ),
        (
            "extra edit, 5-7 letters (2 edits)",
            Box::new(|| draw.extra_edit(5, 7)),
        ),
        (
            "extra edit, 8+ letters (3 edits)",
            Box::new(|| draw.extra_edit(8, 64)),
        ),
    ];
    println!(
        "| class | rows p50 ms | rows p99 ms | automaton p50 ms | automaton p99 ms | nodes read p50 | p99 | max |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let filters = Filters::default();
    for (name, make) in &classes {
        let (mut rows, mut automaton, mut work) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..rounds {
            let rule = make();
            let run = |walk| {
                let t = Instant::now();
                let hits = index.search_with(walk, Some(&grams), &rule, &filters, 0, 20);
                (t.elapsed().as_secs_f64() * 1e3, hits)
            };
            let (ms_rows, got) = run(TypoWalk::Rows);
            let (ms_automaton, want) = run(TypoWalk::Automaton);
            let got: Hits = got.unwrap_or_else(|e| panic!("{:?}: {e:?}", rule.query));
            let want = want.expect("the automaton has no budget");
            assert_eq!(
                (got.total, &got.ordinals),
                (want.total, &want.ordinals),
                "both walks agree on {rule:?}"
            );
            if std::env::var("PROBE").is_ok() {
                println!(
                    "{:?} {:?}: {} nodes, total {}, {ms_rows:.3} ms",
                    rule.query, rule.match_type, got.work, got.total
                );
            }
            rows.push(ms_rows);
            automaton.push(ms_automaton);
            work.push(got.work as f64);
        }
        let (r, a, w) = (stats(&mut rows), stats(&mut automaton), stats(&mut work));
        println!(
            "| {name} | {:.3} | {:.3} | {:.2} | {:.2} | {:.0} | {:.0} | {:.0} |",
            r.0, r.1, a.0, a.1, w.0, w.1, w.2
        );
    }
}

struct Draw<'a> {
    index: &'a Index,
    rng: &'a std::cell::RefCell<StdRng>,
}

impl Draw<'_> {
    /// The term of a random entry with `min..=max` characters (the last
    /// draw if none is found in 1,000 tries).
    fn term(&self, min: usize, max: usize) -> String {
        let mut last = String::new();
        for _ in 0..1000 {
            let o = self.rng.borrow_mut().random_range(0..self.index.entries());
            last = self.index.term(self.index.term_of(o)).to_string();
            if (min..=max).contains(&last.chars().count()) {
                break;
            }
        }
        last
    }

    fn prefix(&self, min: usize, max: usize) -> String {
        let n = self.rng.borrow_mut().random_range(min..=max);
        self.term(n, 64).chars().take(n).collect()
    }

    /// `edits` random edits (substitution, insertion, deletion or swap).
    fn typo(&self, word: &str, edits: usize) -> String {
        bench::edits::random_edits(word, edits, &mut *self.rng.borrow_mut())
    }

    /// A query that takes the extra edit: a term of `min..=max` characters
    /// with one edit more than its length allows, so that few terms are
    /// within the allowed edits (whole-word distance).
    fn extra_edit(&self, min: usize, max: usize) -> MatchRule {
        let term = self.term(min, max);
        let allowed = if term.chars().count() >= 8 { 2 } else { 1 };
        MatchRule::new(&self.typo(&term, allowed + 1), MatchType::Exact, true)
    }
}
