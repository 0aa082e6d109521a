//! The sounds-like benchmark, offline: builds the index snapshot in memory
//! from the headwords of dictd `.index` files (no DynamoDB), then runs
//! sounds-like searches for random headwords of at least four letters
//! given one random edit (as `latency`'s sounds-like line draws them),
//! every language searched, and reports what each of the search's two
//! reads of `rhymes` would fetch from the store (the parts its walk over
//! the coarse keys names, then the parts of the lists of the keys it
//! reached, in stored bytes), the keys it reached, and the time of the
//! search with every part held (the walk, the lists and the first page).
//!
//!   cargo run --release -p bench --bin sounds -- [rounds] [seed] [dictd dirs…]
//!
//! Without directories it reads `.local/corpus/root/usr/share/dictd`.
//! Only the dictionaries of languages with spelling rules (de, en, es, fr)
//! give sounds-like keys; a directory of links to those alone builds
//! faster (docs/benchmarks.md has the command).

use bench::offline::Offline;
use bench::stats;
use shared::search::engine::{SearchError, SoundsLikeQuery};
use shared::search::filters::Filters;
use shared::search::snapshot::{PartIndex, RhymePart, Rhymes, Section};
use std::time::Instant;

fn main() {
    let run = Offline::from_args(300, 38);
    let rhymes_bytes: usize = run
        .built
        .section(Section::Rhymes)
        .iter()
        .map(Vec::len)
        .sum();
    let (index, parts) = run
        .built
        .every_part::<RhymePart>()
        .expect("a fresh build decodes");
    let rhymes = Rhymes::new(index.clone(), parts);
    let index_bytes = run.built.section(Section::Rhymes)[0].len();
    println!(
        "{} entries; rhymes {:.1} MB in {} parts behind a part index of {:.0} KB; built in {:.1} s; seed {}, {} rounds",
        run.entries,
        rhymes_bytes as f64 / 1e6,
        index.len(),
        index_bytes as f64 / 1e3,
        run.built_in,
        run.seed,
        run.rounds
    );
    let draw = run.draw();
    let stored = |parts: &[usize]| -> f64 {
        parts.iter().map(|&p| index.part_bytes(p)).sum::<usize>() as f64 / 1e3
    };
    let (mut keys_kb, mut lists_kb, mut reached, mut micros) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut refused = 0;
    for _ in 0..run.rounds {
        let word = draw.term_where(4, 64, |t| t.chars().all(char::is_alphabetic));
        let q = bench::edits::random_edits(&word, 1, &mut *draw.rng.borrow_mut());
        let query = SoundsLikeQuery::new(&q, None).expect("a drawn word is a query");
        let started = Instant::now();
        match search(&run, &index, &rhymes, &query) {
            Ok((walked, lists, keys)) => {
                micros.push(started.elapsed().as_secs_f64() * 1e6);
                keys_kb.push(stored(&walked));
                lists_kb.push(stored(&lists));
                reached.push(keys as f64);
            }
            Err(SearchError::OverBudget) => refused += 1,
            Err(e) => panic!("{q}: {e:?}"),
        }
    }
    println!("| Sounds-like search (a headword with one edit) | p50 | p99 | max |");
    println!("|---|---:|---:|---:|");
    for (name, values) in [
        ("coarse keys' parts read, KB", &mut keys_kb),
        ("lists' parts read, KB", &mut lists_kb),
        ("keys reached", &mut reached),
        ("search with every part held, µs", &mut micros),
    ] {
        let (p50, p99, max) = stats(values);
        println!("| {name} | {p50:.0} | {p99:.0} | {max:.0} |");
    }
    println!("refused (over the budget): {refused} of {}", run.rounds);
}

/// One search as the service runs it, every part held: the parts of its
/// walk, the parts of the lists it reached, and the keys it reached.
fn search(
    run: &Offline,
    index: &PartIndex,
    rhymes: &Rhymes,
    query: &SoundsLikeQuery,
) -> Result<(Vec<usize>, Vec<usize>, usize), SearchError> {
    let walk = query.walk(index)?;
    let matches = walk.matches(rhymes)?;
    let lists = matches.parts(index)?;
    run.searcher
        .sounds_like_words(None, rhymes, &matches, &Filters::default(), 0, 10)?;
    Ok((walk.parts().to_vec(), lists, matches.list_keys().len()))
}
