//! Which term blocks a walk can reach, named from the root alone
//! (issue 39): for a walk with an anchor, the blocks in whose key range
//! some string has a prefix within the anchor's edits of the query's head
//! (a prefix range when it has none to spend); for one without, those
//! where some string is within the walk's edits of the query. A walk finds
//! only terms that pass, so the blocks left out hold none it would find.
//! The anchor alone is narrowed no further by the whole query's automaton:
//! intersecting the two saved few blocks (docs/benchmarks.md) and cost a
//! Levenshtein automaton of the whole query, built per walk, on every warm
//! search.

use crate::snapshot::{Fst, TermDictionary};
use crate::typo::{Anchor, Mode};
use levenshtein_automata::{Distance, LevenshteinAutomatonBuilder, DFA, SINK_STATE};
use std::sync::OnceLock;

/// The items of `dictionary` (of `fst`) that a walk over `query`
/// within `max_edits` by `mode` (the whole term, or its closest prefix)
/// can reach, with its `anchor` when it has one.
pub(super) fn reachable_items(
    dictionary: &TermDictionary,
    fst: Fst,
    query: &[char],
    max_edits: usize,
    mode: Mode,
    anchor: Option<Anchor>,
) -> Vec<usize> {
    match anchor.filter(|a| a.applies(query.len(), max_edits)) {
        Some(a) => within(
            dictionary,
            fst,
            &query[..a.chars],
            usize::from(a.edits),
            Mode::Prefix,
        ),
        None => within(dictionary, fst, query, max_edits, mode),
    }
}

/// The items that hold the terms within `edits` of `text` by `mode`.
fn within(
    dictionary: &TermDictionary,
    fst: Fst,
    text: &[char],
    edits: usize,
    mode: Mode,
) -> Vec<usize> {
    let text: String = text.iter().collect();
    match (edits, mode) {
        // No builder goes further (a search allows at most three edits).
        (4.., _) => dictionary.every_item(fst),
        (0, Mode::Prefix) => dictionary.items_with_prefix(fst, text.as_bytes()),
        (0, Mode::Whole) => dictionary
            .item_of(fst, text.as_bytes())
            .into_iter()
            .collect(),
        (_, Mode::Whole) => {
            let dfa = automaton_builder(edits).build_dfa(&text);
            dictionary.items_matching(fst, &dfa)
        }
        (_, Mode::Prefix) => {
            let dfa = automaton_builder(edits).build_dfa(&text);
            dictionary.items_matching(fst, &PrefixDistance(&dfa))
        }
    }
}

/// Levenshtein automaton builders for 1 to 3 edits (3 only as the extra
/// edit of a long query), transpositions costing one (the distance of
/// docs/api.md). Building one takes up to 25 ms (3 edits), so each is built
/// once per process, when first needed.
pub(super) fn automaton_builder(edits: usize) -> &'static LevenshteinAutomatonBuilder {
    static BUILDERS: [OnceLock<LevenshteinAutomatonBuilder>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let edits = edits.clamp(1, 3);
    BUILDERS[edits - 1].get_or_init(|| LevenshteinAutomatonBuilder::new(edits as u8, true))
}

pub(super) fn exact_distance(dfa: &DFA, state: u32) -> Option<u8> {
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
pub(super) struct PrefixDistance<'a>(pub(super) &'a DFA);

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
