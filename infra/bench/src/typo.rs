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
//! every query with the nodes its walks read; `ROWS_ONLY=1` times the row
//! walk alone (the automaton, built per term block, takes seconds a query
//! over small blocks).

use bench::offline::{Offline, TermDraw};
use bench::stats;
use rand::Rng;
use shared::search::engine::{Hits, TypoWalk};
use shared::search::filters::Filters;
use shared::search::matching::{MatchRule, MatchType};
use shared::search::snapshot::Section;
use std::time::Instant;

fn main() {
    let run = Offline::from_args(200, 26);
    let (rounds, seed, entries) = (run.rounds, run.seed, run.entries);
    let (built, index, grams) = (&run.built, run.searcher.index(), &run.grams);
    let terms_bytes: usize = built.section(Section::Terms).iter().map(Vec::len).sum();
    println!(
        "{entries} entries, {} terms, terms section {:.1} MB (both FSTs); built in {:.1} s; seed {seed}, {rounds} rounds",
        index.term_count(),
        terms_bytes as f64 / 1e6,
        run.built_in
    );
    let draw = Draw(run.draw());
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
    let rows_only = std::env::var("ROWS_ONLY").is_ok();
    for (name, make) in &classes {
        let (mut rows, mut automaton, mut work) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..rounds {
            let rule = make();
            let run = |walk| {
                let t = Instant::now();
                let hits = run
                    .searcher
                    .search_with(walk, Some(grams), &rule, &filters, 0, 20);
                (t.elapsed().as_secs_f64() * 1e3, hits)
            };
            let (ms_rows, got) = run(TypoWalk::Rows);
            let got: Hits = got.unwrap_or_else(|e| panic!("{:?}: {e:?}", rule.query()));
            if !rows_only {
                let (ms_automaton, want) = run(TypoWalk::Automaton);
                let want = want.expect("the automaton has no budget");
                assert_eq!(
                    (got.total, &got.ordinals),
                    (want.total, &want.ordinals),
                    "both walks agree on {rule:?}"
                );
                automaton.push(ms_automaton);
            }
            if std::env::var("PROBE").is_ok() {
                println!(
                    "{:?} {:?}: {} nodes, total {}, {ms_rows:.3} ms",
                    rule.query(),
                    rule.match_type,
                    got.work,
                    got.total
                );
            }
            rows.push(ms_rows);
            work.push(got.work as f64);
        }
        let (r, a, w) = (stats(&mut rows), stats(&mut automaton), stats(&mut work));
        let timed = |ms: f64| match rows_only {
            true => "–".to_string(),
            false => format!("{ms:.2}"),
        };
        println!(
            "| {name} | {:.3} | {:.3} | {} | {} | {:.0} | {:.0} | {:.0} |",
            r.0,
            r.1,
            timed(a.0),
            timed(a.1),
            w.0,
            w.1,
            w.2
        );
    }
}

struct Draw<'a>(TermDraw<'a>);

impl Draw<'_> {
    /// The term of a random entry with `min..=max` characters (the last
    /// draw if none is found in 1,000 tries).
    fn term(&self, min: usize, max: usize) -> String {
        self.0.term_where(min, max, |_| true)
    }

    fn prefix(&self, min: usize, max: usize) -> String {
        let n = self.0.rng.borrow_mut().random_range(min..=max);
        self.term(n, 64).chars().take(n).collect()
    }

    /// `edits` random edits (substitution, insertion, deletion or swap).
    fn typo(&self, word: &str, edits: usize) -> String {
        bench::edits::random_edits(word, edits, &mut *self.0.rng.borrow_mut())
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
