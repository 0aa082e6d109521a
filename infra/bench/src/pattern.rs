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

use bench::dictd_files::read_postings;
use bench::stats;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shared::search::engine::{SearchError, WORK_BUDGET};
use shared::search::filters::Filters;
use shared::search::lexicon::Lexicon;
use shared::search::matching::{MatchRule, MatchType};
use shared::search::oracle::glob;
use shared::search::pattern::Pattern;
use shared::search::snapshot::{build, Index};
use std::path::PathBuf;
use std::time::Instant;

/// Patterns whose total is checked against a glob over every term, per class.
const CHECKED: usize = 10;

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().map_or(200, |a| a.parse().expect("rounds"));
    let seed: u64 = args.next().map_or(23, |a| a.parse().expect("seed"));
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
    println!(
        "{entries} entries, {} terms; built in {:.1} s; seed {seed}, {rounds} rounds",
        index.term_count(),
        started.elapsed().as_secs_f64()
    );
    let rng = std::cell::RefCell::new(StdRng::seed_from_u64(seed));
    let draw = Draw {
        index: &index,
        rng: &rng,
    };
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
            let hits = index.search(Some(&grams), &rule, &filters, 0, 20);
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
                assert_eq!(hits.total, glob_total(&index, &rule), "{raw:?}");
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
    let pattern = Pattern::from_query(&rule.query);
    (0..index.term_count())
        .filter(|&t| {
            let chars: Vec<char> = index.term(t).chars().collect();
            glob(pattern.tokens(), &chars)
        })
        .map(|t| index.term_entries(t).len())
        .sum()
}

struct Draw<'a> {
    index: &'a Index,
    rng: &'a std::cell::RefCell<StdRng>,
}

impl Draw<'_> {
    /// The term of a random entry with `min..=max` characters and no
    /// wildcard character (the last draw if none is found in 1,000 tries).
    fn term(&self, min: usize, max: usize) -> String {
        let mut last = String::new();
        for _ in 0..1000 {
            let o = self.rng.borrow_mut().random_range(0..self.index.entries());
            last = self.index.term(self.index.term_of(o)).to_string();
            if (min..=max).contains(&last.chars().count()) && !last.contains(['?', '*']) {
                break;
            }
        }
        last
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
        let at = self.rng.borrow_mut().random_range(1..=t.len() - n - 1);
        t[at..at + n].iter().collect()
    }

    /// Two distinct positions below `n`.
    fn two_of(&self, n: usize) -> [usize; 2] {
        let mut rng = self.rng.borrow_mut();
        let a = rng.random_range(0..n);
        let b = (a + rng.random_range(1..n)) % n;
        [a, b]
    }
}
