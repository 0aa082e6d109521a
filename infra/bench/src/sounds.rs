//! The sounds-like benchmark, offline: builds the index snapshot in memory
//! from the headwords of dictd `.index` files (no DynamoDB), then runs
//! sounds-like searches for random headwords of at least four letters
//! given one random edit (as `latency`'s sounds-like line draws them),
//! every language searched, and reports what each of the search's two
//! reads of `rhymes` would fetch from the store (the parts its walk over
//! the coarse keys names, then the parts of the lists of the keys it
//! reached, in stored bytes), the keys it reached, and the time of the
//! search with every part held (the walk, the lists and the first page),
//! step by step. Then the same searches on a warm instance: against a
//! cache of `rhymes` parts kept by recency within a budget (the store's
//! [`BlockCache`]), what each still reads, the first tenth not counted.
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
use shared::search::snapshot::cache::BlockCache;
use shared::search::snapshot::{PagedPart, PartIndex, RhymePart, Rhymes, Section};
use std::collections::HashMap;
use std::sync::Arc;
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
    let rhymes = Rhymes::new(index.clone(), parts.clone());
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
    let (mut keys_kb, mut lists_kb, mut reached) = (Vec::new(), Vec::new(), Vec::new());
    let mut steps: [Vec<f64>; 4] = Default::default();
    let mut searches = Vec::new();
    let mut refused = 0;
    for _ in 0..run.rounds {
        let word = draw.term_where(4, 64, |t| t.chars().all(char::is_alphabetic));
        let q = bench::edits::random_edits(&word, 1, &mut *draw.rng.borrow_mut());
        match search(&run, &q, &index, &rhymes) {
            Ok(searched) => {
                keys_kb.push(stored(&searched.walked));
                lists_kb.push(stored(&searched.lists));
                reached.push(searched.keys as f64);
                for (all, step) in steps.iter_mut().zip(searched.steps) {
                    all.push(step);
                }
                steps[3].push(searched.steps.iter().sum());
                searches.push(searched);
            }
            Err(SearchError::OverBudget) => refused += 1,
            Err(e) => panic!("{q}: {e:?}"),
        }
    }
    println!("| Sounds-like search (a headword with one edit) | p50 | p99 | max |");
    println!("|---|---:|---:|---:|");
    let [planned, walked, listed, whole] = &mut steps;
    for (name, values) in [
        ("coarse keys' parts read, KB", &mut keys_kb),
        ("lists' parts read, KB", &mut lists_kb),
        ("keys reached", &mut reached),
        ("search with every part held, µs", whole),
        ("… its keys, automata and parts named, µs", planned),
        ("… its walk over the coarse keys, µs", walked),
        ("… its lists and first page, µs", listed),
    ] {
        let (p50, p99, max) = stats(values);
        println!("| {name} | {p50:.0} | {p99:.0} | {max:.0} |");
    }
    println!("refused (over the budget): {refused} of {}", run.rounds);
    warm_runs(&index, &parts, &searches);
}

/// What one search read and took.
struct Searched {
    walked: Vec<usize>,
    lists: Vec<usize>,
    keys: usize,
    /// µs of its steps: the query's keys and automata with the parts they
    /// name, the walk over the coarse keys, then the lists and the page.
    steps: [f64; 3],
}

/// One search as the service runs it, every part held.
fn search(
    run: &Offline,
    q: &str,
    index: &PartIndex,
    rhymes: &Rhymes,
) -> Result<Searched, SearchError> {
    let micros = |since: Instant| since.elapsed().as_secs_f64() * 1e6;
    let started = Instant::now();
    let query = SoundsLikeQuery::new(q, None).expect("a drawn word is a query");
    let walk = query.walk(index)?;
    let planned = micros(started);
    let started = Instant::now();
    let matches = walk.matches(rhymes)?;
    let walked = micros(started);
    let started = Instant::now();
    let lists = matches.parts(index)?;
    run.searcher
        .sounds_like_words(None, rhymes, &matches, &Filters::default(), 0, 10)?;
    Ok(Searched {
        walked: walk.parts().to_vec(),
        lists,
        keys: matches.list_keys().len(),
        steps: [planned, walked, micros(started)],
    })
}

/// The searches run again on a warm instance: per cache of `rhymes` parts,
/// what a search still reads (stored KB) and how many read at all, the
/// first tenth of them not counted. The walk's parts (coarse keys) are
/// either in the lists' cache or kept apart in one of their own.
fn warm_runs(index: &PartIndex, parts: &HashMap<usize, Arc<RhymePart>>, searches: &[Searched]) {
    let coarse: Vec<usize> = (0..index.len())
        .filter(|&p| index.first_key(p).first() == Some(&b'c'))
        .collect();
    let memory = |p: usize| parts[&p].memory_bytes();
    println!(
        "coarse keys: {} parts, {:.1} MB stored, {:.1} MB decoded",
        coarse.len(),
        coarse.iter().map(|&p| index.part_bytes(p)).sum::<usize>() as f64 / 1e6,
        coarse.iter().map(|&p| memory(p)).sum::<usize>() as f64 / 1e6,
    );
    println!("| Warm cache of `rhymes` parts | KB read p50 | KB read mean | searches that read |");
    println!("|---|---:|---:|---:|");
    let mb = 1 << 20;
    for (name, lists_budget, apart_budget) in [
        ("16 MB (rhymes' share of 256 MB before)", 16 * mb, None),
        (
            "lists 16 MB, coarse keys apart 16 MB",
            16 * mb,
            Some(16 * mb),
        ),
        ("32 MB", 32 * mb, None),
        ("64 MB", 64 * mb, None),
        ("128 MB (the paged parts' pool of 256 MB)", 128 * mb, None),
    ] {
        let lists_cache: BlockCache<usize, ()> = BlockCache::new(lists_budget);
        let apart = apart_budget.map(BlockCache::<usize, ()>::new);
        let walk_cache = apart.as_ref().unwrap_or(&lists_cache);
        let (mut read_kb, mut reading) = (Vec::new(), 0);
        let skip = searches.len() / 10;
        for (n, searched) in searches.iter().enumerate() {
            let mut read = 0;
            let walked = searched.walked.iter().map(|p| (p, walk_cache));
            for (&p, cache) in walked.chain(searched.lists.iter().map(|p| (p, &lists_cache))) {
                if cache.get(&p).is_none() {
                    read += index.part_bytes(p);
                    cache.insert(p, Arc::new(()), memory(p));
                }
            }
            if n >= skip {
                read_kb.push(read as f64 / 1e3);
                reading += usize::from(read > 0);
            }
        }
        let counted = read_kb.len();
        let mean = read_kb.iter().sum::<f64>() / counted.max(1) as f64;
        let (p50, _, _) = stats(&mut read_kb);
        println!("| {name} | {p50:.0} | {mean:.0} | {reading} of {counted} |");
    }
}
