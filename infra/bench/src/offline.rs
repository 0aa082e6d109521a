//! What the offline benchmarks (typo, pattern) start from: the command line
//! `[rounds] [seed] [dictd dirs…]`, the index snapshot built in memory from
//! the headwords of those dictd files (`.local/corpus/root/usr/share/dictd`,
//! where infra/scripts/benchmark-corpus.sh unpacks the FreeDict packages,
//! when none is given), and terms drawn from it at random, seeded.

use crate::dictd_files::read_postings;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shared::search::engine::Searcher;
use shared::search::lexicon::Lexicon;
use shared::search::snapshot::{build_with_blocks, Built, Grams, Index, TERM_BLOCK_BYTES};
use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Instant;

/// One offline run: its settings and the snapshot it searches.
pub struct Offline {
    pub rounds: usize,
    pub seed: u64,
    /// Entries read from the dictd files.
    pub entries: usize,
    pub built: Built,
    pub searcher: Searcher,
    pub grams: Grams,
    /// Seconds taken to read the files and build the snapshot.
    pub built_in: f64,
}

impl Offline {
    /// Reads the command line (with these defaults for rounds and seed) and
    /// builds the snapshot.
    pub fn from_args(default_rounds: usize, default_seed: u64) -> Self {
        let mut args = std::env::args().skip(1);
        let rounds = args
            .next()
            .map_or(default_rounds, |a| a.parse().expect("rounds"));
        let seed = args
            .next()
            .map_or(default_seed, |a| a.parse().expect("seed"));
        let mut dirs: Vec<PathBuf> = args.map(PathBuf::from).collect();
        if dirs.is_empty() {
            dirs.push(".local/corpus/root/usr/share/dictd".into());
        }
        let started = Instant::now();
        let postings = read_postings(&dirs);
        let entries = postings.len();
        let built = build_with_blocks(postings, &Lexicon::default(), term_block_bytes());
        let searcher = Searcher::new(built.index().expect("a fresh build decodes"));
        let grams = built.grams().expect("a fresh build decodes");
        Offline {
            rounds,
            seed,
            entries,
            built,
            searcher,
            grams,
            built_in: started.elapsed().as_secs_f64(),
        }
    }

    /// A seeded draw of this run's terms.
    pub fn draw(&self) -> TermDraw<'_> {
        TermDraw {
            index: self.searcher.index(),
            rng: RefCell::new(StdRng::seed_from_u64(self.seed)),
        }
    }
}

/// Random terms of an index: each the term of a random entry, so that
/// terms with more entries are drawn more often, as searches ask for them.
pub struct TermDraw<'a> {
    index: &'a Index,
    pub rng: RefCell<StdRng>,
}

impl TermDraw<'_> {
    /// The term of a random entry with `min..=max` characters that `accept`
    /// takes (the last draw if none is found in 1,000 tries).
    pub fn term_where(&self, min: usize, max: usize, accept: impl Fn(&str) -> bool) -> String {
        let mut last = String::new();
        for _ in 0..1000 {
            let o = self.rng.borrow_mut().random_range(0..self.index.entries());
            last = self
                .index
                .term(self.index.term_of(o))
                .expect("every block held");
            if (min..=max).contains(&last.chars().count()) && accept(&last) {
                break;
            }
        }
        last
    }
}

/// The bytes of a term block: `TERM_BLOCK_BYTES` from the environment (to
/// compare block sizes), else the release's.
fn term_block_bytes() -> usize {
    std::env::var("TERM_BLOCK_BYTES").map_or(TERM_BLOCK_BYTES, |b| {
        b.parse().expect("TERM_BLOCK_BYTES is a number of bytes")
    })
}
