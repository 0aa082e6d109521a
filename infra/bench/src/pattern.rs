//! The pattern benchmark, offline: builds the index snapshot in memory from
//! the headwords of dictd `.index` files (no DynamoDB), as the typo
//! benchmark does, then times every class of wildcard pattern
//! (`matchType=pattern`) with the work it reads against the budget, and
//! checks each answer's `total` against a glob over every term.
//!
//!   cargo run --release -p bench --bin pattern -- [rounds] [seed] [dictd dirs…]
//!
//! Without directories it reads `.local/corpus/root/usr/share/dictd` (where
//! infra/scripts/benchmark-corpus.sh unpacks the FreeDict packages). Every
//! round draws fresh patterns (seeded) from random terms. `PROBE=1` also
//! prints every pattern with its plan's work and total.

use bench::offline::{Offline, TermDraw};
use bench::stats;
use rand::Rng;
use shared::search::engine::{SearchError, WORK_BUDGET};
use shared::search::filters::Filters;
use shared::search::matching::{MatchRule, MatchType};
use shared::search::oracle::glob;
use shared::search::snapshot::Index;
use std::time::Instant;

/// Patterns whose total is checked against a glob over every term, per class.
const CHECKED: usize = 10;

fn main() {
    let run = Offline::from_args(200, 23);
    let (rounds, seed, entries) = (run.rounds, run.seed, run.entries);
    let (index, grams) = (run.searcher.index(), &run.grams);
    println!(
        "{entries} entries, {} terms; built in {:.1} s; seed {seed}, {rounds} rounds",
        index.term_count(),
        run.built_in
    );
    let draw = Draw(run.draw());
    type Class<'a> = (&'static str, Box<dyn Fn() -> String + 'a>);
    let classes: Vec<Class> = vec![
        (
            "leading letters, then * (`hou*`)",
            Box::new(|| format!("{}*", draw.prefix(3))),
        ),
        (
            "leading letters with a ? (`h?us*`)",
            Box::new(|| {
                let mut p: Vec<char> = draw.prefix(4).chars().collect();
                p[1] = '?';
                format!("{}*", p.into_iter().collect::<String>())
            }),
        ),
        (
            "leading * (`*ology`)",
            Box::new(|| format!("*{}", draw.suffix(4))),
        ),
        (
            "only ? between two letters (`h???e`)",
            Box::new(|| {
                let t: Vec<char> = draw.term(5, 9).chars().collect();
                let middle = "?".repeat(t.len() - 2);
                format!("{}{middle}{}", t[0], t[t.len() - 1])
            }),
        ),
        (
            "first and last letter (`c*t`)",
            Box::new(|| {
                let t: Vec<char> = draw.term(2, 64).chars().collect();
                format!("{}*{}", t[0], t[t.len() - 1])
            }),
        ),
        (
            "crossword, 2 of 5 letters (`?o?s?`)",
            Box::new(|| {
                let mut t: Vec<char> = draw.term(5, 5).chars().collect();
                let keep = draw.two_of(5);
                for (i, c) in t.iter_mut().enumerate() {
                    if !keep.contains(&i) {
                        *c = '?';
                    }
                }
                t.into_iter().collect()
            }),
        ),
        (
            "both ends * (`*olog*`)",
            Box::new(|| format!("*{}*", draw.middle(3))),
        ),
    ];
    println!("| class | p50 ms | p99 ms | work p50 | p99 | max | total p50 | over budget |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let filters = Filters::default();
    for (name, make) in &classes {
        let (mut ms, mut work, mut totals, mut over) = (Vec::new(), Vec::new(), Vec::new(), 0);
        for round in 0..rounds {
            let raw = make();
            let Ok(rule) = MatchRule::of_query(&raw, MatchType::Pattern, true) else {
                continue;
            };
            let t = Instant::now();
            let hits = run.searcher.search(Some(grams), &rule, &filters, 0, 20);
            let elapsed = t.elapsed().as_secs_f64() * 1e3;
            let hits = match hits {
                Ok(hits) => hits,
                Err(SearchError::OverBudget) => {
                    over += 1;
                    if std::env::var("PROBE").is_ok() {
                        println!("{raw:?}: over the budget");
                    }
                    continue;
                }
                Err(e) => panic!("{raw:?}: {e:?}"),
            };
            assert!(hits.work <= WORK_BUDGET);
            if round < CHECKED {
                assert_eq!(hits.total, glob_total(index, &rule), "{raw:?}");
            }
            if std::env::var("PROBE").is_ok() {
                println!(
                    "{raw:?}: work {}, total {}, {elapsed:.3} ms",
                    hits.work, hits.total
                );
            }
            ms.push(elapsed);
            work.push(hits.work as f64);
            totals.push(hits.total as f64);
        }
        let (m, w, t) = (stats(&mut ms), stats(&mut work), stats(&mut totals));
        println!(
            "| {name} | {:.3} | {:.3} | {:.0} | {:.0} | {:.0} | {:.0} | {over} |",
            m.0, m.1, w.0, w.1, w.2, t.0
        );
    }
}

/// The entries of every term that the pattern's glob matches.
fn glob_total(index: &Index, rule: &MatchRule) -> usize {
    let pattern = rule.pattern().expect("a pattern rule");
    (0..index.term_count())
        .filter(|&t| {
            let chars: Vec<char> = index.term(t).expect("every block held").chars().collect();
            glob(pattern.tokens(), &chars)
        })
        .map(|t| index.term_entries(t).len())
        .sum()
}

struct Draw<'a>(TermDraw<'a>);

impl Draw<'_> {
    /// The term of a random entry with `min..=max` characters and no
    /// wildcard character (the last draw if none is found in 1,000 tries).
    fn term(&self, min: usize, max: usize) -> String {
        self.0.term_where(min, max, |t| !t.contains(['?', '*']))
    }

    fn prefix(&self, n: usize) -> String {
        self.term(n, 64).chars().take(n).collect()
    }

    fn suffix(&self, n: usize) -> String {
        let t: Vec<char> = self.term(n, 64).chars().collect();
        t[t.len() - n..].iter().collect()
    }

    /// `n` characters from inside a term (neither its first nor its last).
    fn middle(&self, n: usize) -> String {
        let t: Vec<char> = self.term(n + 2, 64).chars().collect();
        let at = self.0.rng.borrow_mut().random_range(1..=t.len() - n - 1);
        t[at..at + n].iter().collect()
    }

    /// Two distinct positions below `n`.
    fn two_of(&self, n: usize) -> [usize; 2] {
        let mut rng = self.0.rng.borrow_mut();
        let a = rng.random_range(0..n);
        let b = (a + rng.random_range(1..n)) % n;
        [a, b]
    }
}
