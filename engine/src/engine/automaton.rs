//! The Levenshtein automaton over a whole term FST, which the row walks of
//! `typo.rs` replaced: kept as the typo benchmark's baseline and as a
//! second reference for the tests, behind the `automaton-baseline` feature
//! so that no function links it.

use crate::matching::TypoDistance;
use fst::{IntoStreamer, Streamer};
use levenshtein_automata::{Distance, LevenshteinAutomatonBuilder, DFA, SINK_STATE};
use std::sync::OnceLock;

/// Levenshtein automaton builders for 1 to 3 edits (3 only as the extra
/// edit of a long query), transpositions costing one (the distance of
/// docs/api.md). Building one takes up to 25 ms (3 edits), so each is built
/// once per process, when first needed.
fn automaton_builder(edits: usize) -> &'static LevenshteinAutomatonBuilder {
    static BUILDERS: [OnceLock<LevenshteinAutomatonBuilder>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let edits = edits.clamp(1, 3);
    BUILDERS[edits - 1].get_or_init(|| LevenshteinAutomatonBuilder::new(edits as u8, true))
}

fn exact_distance(dfa: &DFA, state: u32) -> Option<u8> {
    match dfa.distance(state) {
        Distance::Exact(d) => Some(d),
        Distance::AtLeast(_) => None,
    }
}

/// A Levenshtein DFA run over terms in prefix mode: a term's distance is the
/// smallest distance between the query and any of its prefixes (docs/api.md:
/// for `prefix`, the edits apply to the prefix). The state is the DFA's and
/// the best distance of a prefix so far. (The crate's own prefix DFA
/// misses some prefixes once the query is used up: `edaeae` is 2 edits from
/// `eaae`, a prefix of `eaaec`, which it puts at 3.)
struct PrefixDistance<'a>(&'a DFA);

impl fst::Automaton for PrefixDistance<'_> {
    type State = (u32, Option<u8>);

    fn start(&self) -> Self::State {
        let state = self.0.initial_state();
        (state, exact_distance(self.0, state))
    }

    fn is_match(&self, state: &Self::State) -> bool {
        state.1.is_some()
    }

    fn can_match(&self, state: &Self::State) -> bool {
        state.1.is_some() || state.0 != SINK_STATE
    }

    fn accept(&self, state: &Self::State, byte: u8) -> Self::State {
        let next = self.0.transition(state.0, byte);
        let here = exact_distance(self.0, next);
        let best = match (state.1, here) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        (next, best)
    }
}

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
            let mut stream = fst.search_with_state(PrefixDistance(&dfa)).into_stream();
            while let Some((_, value, (_, best))) = stream.next() {
                add(value, best);
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
