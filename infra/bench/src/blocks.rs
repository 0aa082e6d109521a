//! The term dictionary in blocks, measured offline (issue 39): the terms of
//! dictd `.index` files cut into FST blocks of several sizes
//! (`engine::snapshot::blocks`), and for each size the root a cold instance
//! reads once, and what random queries would read: the one block of an
//! exact lookup, the blocks of a prefix, and the blocks in whose key range a
//! typo can match, beside the whole FST that a cold instance reads today.
//! A typo is measured two ways: the blocks in whose key range a Levenshtein
//! automaton of its edits can match, and the blocks an anchored walk reads
//! (with k edits, one of k + 1 pieces of the query is unchanged: the first
//! piece anchors a walk of the forward blocks under it, the last a walk of
//! the backward blocks, terms spelled backwards, under it reversed; a middle
//! piece is looked up in the grams, which are not counted here).
//!
//!   cargo run --release -p bench --bin blocks -- [queries] [seed] [dictd dirs…]
//!
//! Without directories it reads `.local/corpus/root/usr/share/dictd`.
//! Queries are drawn at random from the terms (seeded), each given random
//! edits: one from 4 letters, two from 8, as search allows.

use bench::dictd_files::read_postings;
use bench::edits::random_edits;
use bench::stats;
use levenshtein_automata::LevenshteinAutomatonBuilder;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shared::search::snapshot::blocks::{self, Blocked};
use std::path::PathBuf;
use std::time::Instant;

/// The block sizes compared, in bytes.
const BLOCK_BYTES: [usize; 4] = [4_000, 16_000, 64_000, 350_000];

fn main() {
    let mut args = std::env::args().skip(1);
    let queries: usize = args.next().map_or(300, |a| a.parse().expect("queries"));
    let seed: u64 = args.next().map_or(39, |a| a.parse().expect("seed"));
    let mut dirs: Vec<PathBuf> = args.map(PathBuf::from).collect();
    if dirs.is_empty() {
        dirs.push(".local/corpus/root/usr/share/dictd".into());
    }
    let started = Instant::now();
    let mut terms: Vec<String> = read_postings(&dirs)
        .into_iter()
        .map(|p| p.folded().to_string())
        .collect();
    let entries = terms.len();
    terms.sort_unstable();
    terms.dedup();
    let whole = fst::Map::from_iter(terms.iter().enumerate().map(|(n, t)| (t, n as u64)))
        .expect("sorted, distinct")
        .into_fst()
        .into_inner()
        .len();
    println!(
        "{entries} entries, {} terms; one FST of them all {:.1} MB; read in {:.1} s; {queries} queries, seed {seed}",
        terms.len(),
        whole as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    let mut rng = StdRng::seed_from_u64(seed);
    let drawn: Vec<(String, u8)> = (0..queries)
        .map(|_| loop {
            let term = &terms[rng.random_range(0..terms.len())];
            let chars = term.chars().count();
            if chars >= 4 {
                let edits = if chars >= 8 { 2 } else { 1 };
                break (random_edits(term, edits as usize, &mut rng), edits);
            }
        })
        .collect();
    let one = LevenshteinAutomatonBuilder::new(1, true);
    let two = LevenshteinAutomatonBuilder::new(2, true);
    println!();
    println!("| block size | blocks (forwards) | root KB | exact: blocks | prefix of 3: blocks p50 / p99 | 1 edit (4–7 letters), automaton: blocks p50 / p99, KB p50 | 2 edits (8+), automaton: blocks p50 / p99, KB p50 | automaton pruning ms p50 | 1 edit, anchored: blocks p50 / p99, KB p50 / p99 | 2 edits, anchored (ends only): blocks p50 / p99, KB p50 / p99 |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    // Blocks closed at the size alone (no most), as this comparison
    // measured them.
    for block_bytes in BLOCK_BYTES {
        let built: Blocked = blocks::build(
            terms
                .iter()
                .enumerate()
                .map(|(n, t)| (t.as_bytes().to_vec(), n as u64)),
            block_bytes,
            usize::MAX,
            &|_| 0,
        );
        let backward: Blocked = blocks::build(
            {
                let mut reversed: Vec<(Vec<u8>, u64)> = terms
                    .iter()
                    .enumerate()
                    .map(|(n, t)| (t.chars().rev().collect::<String>().into_bytes(), n as u64))
                    .collect();
                reversed.sort_unstable();
                reversed
            },
            block_bytes,
            usize::MAX,
            &|_| 0,
        );
        let root = built.root.encode().len() + backward.root.encode().len();
        let size = |b: &usize| built.blocks[*b].len() as f64;
        let (mut one_anchored, mut one_anchored_kb, mut two_anchored, mut two_anchored_kb) =
            (vec![], vec![], vec![], vec![]);
        let (mut prefix, mut one_blocks, mut one_kb, mut two_blocks, mut two_kb, mut ms) =
            (vec![], vec![], vec![], vec![], vec![], vec![]);
        for (q, edits) in &drawn {
            let three: String = q.chars().take(3).collect();
            prefix.push(built.root.blocks_with_prefix(three.as_bytes()).len() as f64);
            let started = Instant::now();
            let dfa = if *edits == 1 { &one } else { &two }.build_dfa(q);
            let reached = built.root.blocks_matching(&dfa);
            ms.push(started.elapsed().as_secs_f64() * 1e3);
            let kb = reached.iter().map(size).sum::<f64>() / 1e3;
            // Anchored: k + 1 pieces, the first and the last.
            let chars: Vec<char> = q.chars().collect();
            let piece = chars.len() / (usize::from(*edits) + 1);
            let head: String = chars[..piece].iter().collect();
            let tail: String = chars[chars.len() - piece..].iter().rev().collect();
            let forwards = built.root.blocks_with_prefix(head.as_bytes());
            let backwards = backward.root.blocks_with_prefix(tail.as_bytes());
            let anchored = (forwards.len() + backwards.len()) as f64;
            let anchored_kb = (forwards.map(|b| built.blocks[b].len()).sum::<usize>()
                + backwards.map(|b| backward.blocks[b].len()).sum::<usize>())
                as f64
                / 1e3;
            if *edits == 1 {
                one_blocks.push(reached.len() as f64);
                one_kb.push(kb);
                one_anchored.push(anchored);
                one_anchored_kb.push(anchored_kb);
            } else {
                two_blocks.push(reached.len() as f64);
                two_kb.push(kb);
                two_anchored.push(anchored);
                two_anchored_kb.push(anchored_kb);
            }
        }
        let (p, o, ok, t, tk, m) = (
            stats(&mut prefix),
            stats(&mut one_blocks),
            stats(&mut one_kb),
            stats(&mut two_blocks),
            stats(&mut two_kb),
            stats(&mut ms),
        );
        let (oa, oak, ta, tak) = (
            stats(&mut one_anchored),
            stats(&mut one_anchored_kb),
            stats(&mut two_anchored),
            stats(&mut two_anchored_kb),
        );
        println!(
            "| {:.0} KB | {} | {:.0} | 1 | {:.0} / {:.0} | {:.0} / {:.0}, {:.0} | {:.0} / {:.0}, {:.0} | {:.2} | {:.0} / {:.0}, {:.0} / {:.0} | {:.0} / {:.0}, {:.0} / {:.0} |",
            block_bytes as f64 / 1e3,
            built.blocks.len(),
            root as f64 / 1e3,
            p.0,
            p.1,
            o.0,
            o.1,
            ok.0,
            t.0,
            t.1,
            tk.0,
            m.0,
            oa.0,
            oa.1,
            oak.0,
            oak.1,
            ta.0,
            ta.1,
            tak.0,
            tak.1
        );
    }
}
