//! What a cold instance reads of the term dictionary per query class (issue
//! 39): each query, drawn at random from the corpus, searched by an index
//! that holds no term block, then given the blocks it names missing and
//! searched again, as the service does. Prints, per class, the blocks and
//! bytes it read and the runs it took (the most of any query), beside the
//! terms section's size and how many of its blocks take a second read
//! unit. Every part of `grams` is held, as the service reads a query's
//! grams before it searches.
//!
//! cargo run --release -p bench --bin term-reads -- [queries] [seed] [dictd dirs…]

use bench::edits::random_edits;
use bench::offline::{Offline, TermDraw};
use bench::stats;
use shared::search::engine::{SearchError, Searcher};
use shared::search::filters::Filters;
use shared::search::matching::{MatchRule, MatchType};
use shared::search::snapshot::{Missing, Section, TERM_BLOCK_MAX_BYTES};

/// A query class, and how to draw one of its queries.
struct Class {
    name: &'static str,
    draw: Box<dyn Fn(&TermDraw) -> Read>,
}

/// What a query asks of the index.
enum Read {
    Search(MatchRule),
    Autocomplete(String),
}

/// Runs `read` as the service does on a cold instance: each run that names
/// missing blocks is handed them (from the build) and run again. The blocks
/// and bytes handed over and the runs taken.
fn cold_reads(offline: &Offline, searcher: &Searcher, read: &Read) -> (usize, usize, usize) {
    let built = &offline.built;
    let filters = Filters::default();
    let (mut blocks, mut bytes) = (0, 0);
    for run in 1..=10 {
        let missing = match read {
            Read::Search(rule) => {
                match searcher.search(Some(&offline.grams), rule, &filters, 0, 10) {
                    Err(SearchError::Missing(missing)) => Some(missing),
                    Err(SearchError::OverBudget) | Ok(_) => None,
                    Err(SearchError::Corrupt(e)) => panic!("{e}"),
                }
            }
            Read::Autocomplete(prefix) => {
                match searcher.autocomplete(Some(&offline.grams), prefix, &filters, 10) {
                    Err(SearchError::Missing(missing)) => Some(missing),
                    Err(SearchError::OverBudget) | Ok(_) => None,
                    Err(SearchError::Corrupt(e)) => panic!("{e}"),
                }
            }
        };
        let Some(Missing(items)) = missing else {
            return (blocks, bytes, run);
        };
        let read = built.term_blocks(&Missing(items));
        blocks += read.len();
        bytes += read.iter().map(|(_, b)| b.len()).sum::<usize>();
        let dictionary = searcher.index().term_dictionary();
        dictionary.keep(read).expect("blocks of the build");
    }
    panic!("a read still missing blocks after ten runs");
}

fn classes() -> Vec<Class> {
    let search = |name, match_type, fuzzy, min, max, edits: usize| Class {
        name,
        draw: Box::new(move |d: &TermDraw| {
            let term = d.term_where(min, max, |_| true);
            let q = random_edits(&term, edits, &mut *d.rng.borrow_mut());
            Read::Search(MatchRule::new(&q, match_type, fuzzy))
        }),
    };
    vec![
        search("exact, fuzzy=false", MatchType::Exact, false, 1, 40, 0),
        search(
            "exact, 1 typo (5–7 letters)",
            MatchType::Exact,
            true,
            5,
            7,
            1,
        ),
        search(
            "exact, 2 typos (8+ letters)",
            MatchType::Exact,
            true,
            8,
            40,
            2,
        ),
        search(
            "prefix, 1 typo (4–7 letters)",
            MatchType::Prefix,
            true,
            4,
            7,
            1,
        ),
        search(
            "prefix, 2 typos (8+ letters)",
            MatchType::Prefix,
            true,
            8,
            40,
            2,
        ),
        Class {
            name: "prefix of 1 letter",
            draw: Box::new(|d| {
                let term = d.term_where(1, 40, |_| true);
                Read::Search(MatchRule::new(
                    &term[..term.chars().next().unwrap().len_utf8()],
                    MatchType::Prefix,
                    false,
                ))
            }),
        },
        Class {
            name: "prefix of 3 letters",
            draw: Box::new(|d| {
                let term = d.term_where(3, 40, |_| true);
                let prefix: String = term.chars().take(3).collect();
                Read::Search(MatchRule::new(&prefix, MatchType::Prefix, false))
            }),
        },
        Class {
            name: "pattern, leading letters (`hou*`)",
            draw: Box::new(|d| {
                let term = d.term_where(4, 40, |t| t.chars().all(char::is_alphabetic));
                let head: String = term.chars().take(3).collect();
                let rule = MatchRule::of_query(&format!("{head}*"), MatchType::Pattern, false);
                Read::Search(rule.expect("a pattern"))
            }),
        },
        Class {
            name: "pattern, leading * (`*ology`)",
            draw: Box::new(|d| {
                let term = d.term_where(5, 40, |t| t.chars().all(char::is_alphabetic));
                let tail: String = term
                    .chars()
                    .rev()
                    .take(4)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let rule = MatchRule::of_query(&format!("*{tail}"), MatchType::Pattern, false);
                Read::Search(rule.expect("a pattern"))
            }),
        },
        Class {
            name: "autocomplete, 3 letters",
            draw: Box::new(|d| {
                let term = d.term_where(3, 40, |_| true);
                Read::Autocomplete(term.chars().take(3).collect())
            }),
        },
    ]
}

fn main() {
    let offline = Offline::from_args(200, 39);
    let terms = offline.built.section(Section::Terms);
    let section_mb = terms.iter().map(Vec::len).sum::<usize>() as f64 / 1e6;
    let blocks = &terms[1..];
    let over_a_unit = blocks
        .iter()
        .filter(|b| b.len() > TERM_BLOCK_MAX_BYTES)
        .count();
    println!(
        "{} entries, {} terms; the terms section {section_mb:.1} MB in {} items (root {:.0} KB; largest block {} bytes, {over_a_unit} blocks over {TERM_BLOCK_MAX_BYTES}); built in {:.0} s; {} queries per class, seed {}",
        offline.entries,
        offline.built.terms,
        terms.len(),
        terms[0].len() as f64 / 1e3,
        blocks.iter().map(Vec::len).max().unwrap_or(0),
        offline.built_in,
        offline.rounds,
        offline.seed,
    );
    println!();
    println!("| Class | blocks p50 / p99 / max | KB p50 / p99 / max | runs (most) |");
    println!("|---|---|---|---:|");
    let draw = offline.draw();
    let searcher = Searcher::new(offline.built.cold_index().expect("decodes"));
    for class in classes() {
        let (mut blocks, mut kb, mut runs) = (Vec::new(), Vec::new(), 0);
        for _ in 0..offline.rounds {
            let read = (class.draw)(&draw);
            searcher.forget();
            let (b, bytes, r) = cold_reads(&offline, &searcher, &read);
            blocks.push(b as f64);
            kb.push(bytes as f64 / 1e3);
            runs = runs.max(r);
        }
        let (b, k) = (stats(&mut blocks), stats(&mut kb));
        println!(
            "| {} | {:.0} / {:.0} / {:.0} | {:.0} / {:.0} / {:.0} | {runs} |",
            class.name, b.0, b.1, b.2, k.0, k.1, k.2
        );
    }
}
