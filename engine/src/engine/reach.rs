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

use crate::snapshot::blocks::{script_class, BlockRoot};
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
    let chars = text;
    let text: String = text.iter().collect();
    match (edits, mode) {
        // No builder goes further (a search allows at most three edits).
        (4.., _) => dictionary.every_item(fst),
        (0, Mode::Prefix) => dictionary.items_with_prefix(fst, text.as_bytes()),
        (0, Mode::Whole) => dictionary
            .item_of(fst, text.as_bytes())
            .into_iter()
            .collect(),
        (1, mode) => {
            let dfa = automaton_builder(1).build_dfa(&text);
            let keep = within_one_edit(dictionary.root(fst), chars);
            match mode {
                Mode::Whole => dictionary.items_matching_where(fst, &dfa, keep),
                Mode::Prefix => dictionary.items_matching_where(fst, &PrefixDistance(&dfa), keep),
            }
        }
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

/// Which blocks may hold a key that is (or starts with) a string within
/// one edit of `text`: such a key starts with one of text's first two
/// characters, or its second character is one of them (an edit of the
/// first character leaves the second in place, or moves it by one). A
/// block whose key range misses both starts and whose second characters
/// are of other scripts ([`BlockRoot::may_have_second_char_in`]) holds
/// none. Of a text of fewer than two characters, every block may.
fn within_one_edit<'r>(root: &'r BlockRoot, text: &[char]) -> impl Fn(usize) -> bool + 'r {
    let starting = |c: char| root.blocks_with_prefix(c.encode_utf8(&mut [0; 4]).as_bytes());
    let rule = match *text {
        [first, second, ..] => Some((
            [starting(first), starting(second)],
            script_class(first) | script_class(second),
        )),
        _ => None,
    };
    move |b: usize| match &rule {
        None => true,
        Some((starts, scripts)) => {
            starts.iter().any(|s| s.contains(&b)) || root.may_have_second_char_in(b, *scripts)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{edit_distance, prefix_edit_distance};
    use crate::snapshot::blocks::build;
    use proptest::prelude::*;

    /// Keys of several scripts, so that blocks differ in the scripts of
    /// their second characters.
    fn keys() -> impl Strategy<Value = std::collections::BTreeSet<String>> {
        proptest::collection::btree_set("[abé日ж]{0,5}", 1..300)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Every block that holds a key within one edit of the text (or,
        /// by the prefix measure, whose some prefix is) is reached; the
        /// scripts of second characters only leave out blocks without one.
        #[test]
        fn one_edit_reaches_every_block_with_a_match(
            keys in keys(),
            text in "[abé日жx]{0,5}",
            block_bytes in prop_oneof![Just(1usize), 8..64usize],
            prefix in any::<bool>(),
        ) {
            let built = build(keys.iter().map(|k| (k.as_bytes().to_vec(), 0)), block_bytes, block_bytes + 16, &|_| 0);
            let text: Vec<char> = text.chars().collect();
            let keep = within_one_edit(&built.root, &text);
            for (b, block) in built.blocks.iter().enumerate() {
                let map = fst::Map::new(block.as_slice()).unwrap();
                let holds = map.stream().into_str_keys().unwrap().iter().any(|key| {
                    let key: Vec<char> = key.chars().collect();
                    match prefix {
                        true => prefix_edit_distance(&text, &key, 1) <= 1,
                        false => edit_distance(&text, &key) <= 1,
                    }
                });
                prop_assert!(!holds || keep(b), "block {} of {:?}", b, text);
            }
        }
    }

    /// A Latin text leaves out the blocks of keys in other scripts that
    /// its first two letters do not start (`жа` ends in a Cyrillic `а`).
    #[test]
    fn blocks_of_other_scripts_are_left_out() {
        let keys = ["a日", "aж", "b日本", "bжж", "cat", "cot", "日本", "жа"];
        let built = build(
            keys.iter().map(|k| (k.as_bytes().to_vec(), 0)),
            1,
            16,
            &|_| 0,
        );
        let text: Vec<char> = "xat".chars().collect();
        let keep = within_one_edit(&built.root, &text);
        let kept: Vec<&str> = (0..keys.len())
            .filter(|&b| keep(b))
            .map(|b| keys[b])
            .collect();
        assert_eq!(kept, ["a日", "aж", "cat", "cot"]);
    }
}
