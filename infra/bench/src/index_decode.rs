//! What a cold instance spends decoding the index it reads before its
//! first answer (issue 39): the snapshot built in memory from dictd files
//! (as the other offline benchmarks do), then its `core` section, the root
//! of `terms` and `forms` decoded from their stored items into an
//! [`shared::search::snapshot::Index`], round after round. No store is
//! read: this is the CPU part of a cold start, beside the size of what it
//! decodes. Then the memory of every text block held (what a `contains`
//! query may read). Then what the first request with a filter adds on an
//! instance (the filter's stored bitmaps intersected, once, and cached),
//! with every part of `grams` held: a random pick with `lang=en`, with
//! `source=freedict-deu-eng` and with `lang=de-en`, each from an empty
//! cache.
//!
//! cargo run --release -p bench --bin index-decode -- [rounds] [seed] [dictd dirs…]

use bench::offline::Offline;
use bench::stats;
use rand::SeedableRng;
use shared::search::filters::{Filters, LangFilter};
use shared::search::snapshot::{BlockBudget, Section};
use std::time::Instant;

fn main() {
    let offline = Offline::from_args(9, 0);
    let built = &offline.built;
    let stored = |section: Section| -> usize { built.section(section).iter().map(Vec::len).sum() };
    println!(
        "{} entries, {} terms; core {:.2} MB in {} items, terms root {:.1} KB, terms blocks {:.2} MB",
        offline.entries,
        built.terms,
        stored(Section::Core) as f64 / 1e6,
        built.section(Section::Core).len(),
        built.section(Section::Terms)[0].len() as f64 / 1e3,
        stored(Section::Terms) as f64 / 1e6,
    );
    let mut ms = Vec::with_capacity(offline.rounds);
    let mut held = 0;
    for _ in 0..offline.rounds {
        let started = Instant::now();
        let index = built.cold_index().expect("a fresh build decodes");
        ms.push(started.elapsed().as_secs_f64() * 1e3);
        held = index.memory_bytes();
    }
    let first = ms[0];
    let (p50, _, max) = stats(&mut ms);
    println!(
        "decode ms: p50 {p50:.0}, first {first:.0}, max {max:.0} ({} rounds); held {:.0} MB",
        offline.rounds,
        held as f64 / 1e6
    );
    // What an instance holds once a query (`contains`) has read every text
    // block: the budget its text blocks need.
    let mut index = built.cold_index().expect("a fresh build decodes");
    index.keep_term_blocks_within(BlockBudget {
        fst: 0,
        text: usize::MAX,
    });
    let items = built.section(Section::Terms).iter().cloned().enumerate();
    index
        .term_dictionary()
        .keep(items.skip(1))
        .expect("its blocks");
    println!(
        "every text block held: {:.0} MB more",
        (index.memory_bytes() - held) as f64 / 1e6
    );

    let english = LangFilter::parse("en").expect("a language");
    let german_english = LangFilter::parse("de-en").expect("a pair");
    let choices = [
        ("lang=en", Some(&english), None),
        ("source=freedict-deu-eng", None, Some("freedict-deu-eng")),
        ("lang=de-en", Some(&german_english), None),
    ];
    let searcher = &offline.searcher;
    let mut rng = rand::rngs::StdRng::seed_from_u64(offline.seed);
    for (name, lang, source) in choices {
        let filters = Filters {
            lang,
            source,
            ..Filters::default()
        };
        let mut ms = Vec::with_capacity(offline.rounds);
        for _ in 0..offline.rounds {
            searcher.forget();
            let started = Instant::now();
            let grams = Some(&offline.grams);
            searcher
                .random(grams, &filters, 1, &mut rng)
                .expect("a build decodes");
            ms.push(started.elapsed().as_secs_f64() * 1e3);
        }
        let (p50, _, max) = stats(&mut ms);
        println!("first random pick with {name}: p50 {p50:.1} ms, max {max:.1}");
    }
}
