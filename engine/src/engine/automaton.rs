//! The Levenshtein automaton over a whole term FST, which the row walks of
//! `typo.rs` replaced: kept as the typo benchmark's baseline and as a
//! second reference for the tests, behind the `automaton-baseline` feature
//! so that no function links it.

use super::reach::{automaton_builder, exact_distance, PrefixDistance};
use crate::matching::TypoDistance;
use crate::oracle;
use crate::typo::Near;
use fst::{IntoStreamer, Streamer};

/// The keys a Levenshtein automaton accepts, walked over a whole FST, with
/// their values and distances (1 to `max_edits`).
pub(super) fn typos<D: AsRef<[u8]>>(
    fst: &fst::Map<D>,
    query: &str,
    max_edits: usize,
    measure: TypoDistance,
) -> Vec<Near> {
    let dfa = automaton_builder(max_edits).build_dfa(query);
    let q: Vec<char> = query.chars().collect();
    let within =
        |distance: Option<u8>| distance.filter(|d| (1..=max_edits).contains(&usize::from(*d)));
    let mut found = Vec::new();
    match measure {
        TypoDistance::Prefix => {
            let mut stream = fst.search_with_state(PrefixDistance(&dfa)).into_stream();
            while let Some((key, value, (_, best))) = stream.next() {
                // The rule of a third edit (docs/api.md), which the row walk
                // keeps by its anchor.
                let term: Vec<char> = String::from_utf8_lossy(key).chars().collect();
                if let Some(d) =
                    within(best).filter(|_| oracle::head_within_one_edit(max_edits, &q, &term))
                {
                    found.push(Near::prefix(value, d, &q, &term, max_edits as u8));
                }
            }
        }
        TypoDistance::Whole => {
            let mut stream = fst.search_with_state(&dfa).into_stream();
            while let Some((key, value, state)) = stream.next() {
                if let Some(d) = within(exact_distance(&dfa, state)) {
                    let term: Vec<char> = String::from_utf8_lossy(key).chars().collect();
                    found.push(Near::whole(value, d, &q, &term));
                }
            }
        }
    }
    found
}
