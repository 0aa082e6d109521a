//! The Levenshtein automaton over a whole term FST, which the row walks of
//! `typo.rs` replaced: kept as the typo benchmark's baseline and as a
//! second reference for the tests, behind the `automaton-baseline` feature
//! so that no function links it.

use super::reach::{automaton_builder, exact_distance, PrefixDistance};
use crate::matching::TypoDistance;
use crate::oracle;
use fst::{IntoStreamer, Streamer};

/// The keys a Levenshtein automaton accepts, walked over a whole FST, with
/// their values and distances (1 to `max_edits`).
pub(super) fn typos<D: AsRef<[u8]>>(
    fst: &fst::Map<D>,
    query: &str,
    max_edits: usize,
    measure: TypoDistance,
) -> Vec<(u64, u8)> {
    let dfa = automaton_builder(max_edits).build_dfa(query);
    let mut found = Vec::new();
    let mut add = |value: u64, distance: Option<u8>| {
        if let Some(d) = distance.filter(|d| (1..=max_edits).contains(&usize::from(*d))) {
            found.push((value, d));
        }
    };
    match measure {
        TypoDistance::Prefix => {
            let q: Vec<char> = query.chars().collect();
            let mut stream = fst.search_with_state(PrefixDistance(&dfa)).into_stream();
            while let Some((key, value, (_, best))) = stream.next() {
                // The rule of a third edit (docs/api.md), which the row walk
                // keeps by its anchor.
                let term: Vec<char> = String::from_utf8_lossy(key).chars().collect();
                if oracle::head_within_one_edit(max_edits, &q, &term) {
                    add(value, best);
                }
            }
        }
        TypoDistance::Whole => {
            let mut stream = fst.search_with_state(&dfa).into_stream();
            while let Some((_, value, state)) = stream.next() {
                add(value, exact_distance(&dfa, state));
            }
        }
    }
    found
}
