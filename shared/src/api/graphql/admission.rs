//! Admission: the first look at a parsed document, before validation,
//! complexity, pricing or the quota. async-graphql's validation expands
//! every fragment wherever it is spread (its depth and complexity visitors),
//! so a kilobyte of fragments that each spread the next twice is millions of
//! selections to it, and its work does not yield: a request's deadline
//! cannot stop it. Here each fragment's expanded shape is computed once
//! (memoized, in the order of its dependencies) and a document whose
//! expanded shape passes a bound is refused, in time linear in its size.
//!
//! The shape is measured as the engine's validation walks it: every
//! operation and every fragment definition, each with its fragments
//! expanded wherever they are spread. A fragment cycle has no expanded
//! shape and is refused here too, with the engine's own wording.

use async_graphql::parser::types::{ExecutableDocument, Selection, SelectionSet};
use async_graphql::Name;
use std::collections::{HashMap, HashSet};

/// Fields, fragment spreads and inline fragments, fragments expanded,
/// summed over every operation and fragment definition. The standard
/// introspection query of graphql-js counts 489 by this measure (its
/// fragments' definitions as well as their spreads), the largest data query
/// the complexity limit admits about 100.
pub(crate) const MAX_SELECTIONS: u64 = 2_000;
/// Selections nested in one another, fragments expanded (a spread and an
/// inline fragment are a level each, as they are to the engine's walk): the
/// standard introspection query nests 18.
pub(crate) const MAX_DEPTH: u64 = 40;
/// Fragment spreads, expanded: the standard introspection query has 18.
pub(crate) const MAX_SPREADS: u64 = 200;

/// What a document expands to: the measures bounded above. Sums saturate,
/// so a shape too large to count is still larger than any bound.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Shape {
    pub selections: u64,
    pub depth: u64,
    pub spreads: u64,
}

impl Shape {
    /// `inner` placed one level below a selection of its own.
    fn nested(inner: Shape, spread: bool) -> Shape {
        Shape {
            selections: inner.selections.saturating_add(1),
            depth: inner.depth.saturating_add(1),
            spreads: inner.spreads.saturating_add(u64::from(spread)),
        }
    }

    /// Two selections side by side.
    fn beside(self, other: Shape) -> Shape {
        Shape {
            selections: self.selections.saturating_add(other.selections),
            depth: self.depth.max(other.depth),
            spreads: self.spreads.saturating_add(other.spreads),
        }
    }

    /// The message of the first bound this shape passes.
    fn refusal(self) -> Option<String> {
        if self.selections > MAX_SELECTIONS {
            Some(format!(
                "Query expands to more than {MAX_SELECTIONS} selections (fragments expanded)."
            ))
        } else if self.depth > MAX_DEPTH {
            Some(format!(
                "Query nests selections more than {MAX_DEPTH} deep (fragments expanded)."
            ))
        } else if self.spreads > MAX_SPREADS {
            Some(format!(
                "Query spreads fragments more than {MAX_SPREADS} times (fragments expanded)."
            ))
        } else {
            None
        }
    }
}

/// The document's expanded shape, or the `400` message that refuses it.
/// Each selection of the text is looked at a bounded number of times (twice
/// for a fragment's, once for an operation's), whatever the fragments
/// expand to.
pub(crate) fn admit(document: &ExecutableDocument) -> Result<Shape, String> {
    admit_counting(document, &mut 0)
}

/// [`admit`], adding to `work` a unit for each selection looked at and each
/// step between fragments: what the property tests hold to the size of the
/// text.
pub(crate) fn admit_counting(
    document: &ExecutableDocument,
    work: &mut u64,
) -> Result<Shape, String> {
    let fragments = expanded_fragments(document, work)?;
    let mut total = Shape::default();
    for (_, operation) in document.operations.iter() {
        total = total.beside(shape_of(
            &operation.node.selection_set.node,
            &fragments,
            work,
        ));
    }
    for shape in fragments.values() {
        total = total.beside(*shape);
    }
    match total.refusal() {
        Some(message) => Err(message),
        None => Ok(total),
    }
}

/// Each fragment's expanded shape, computed after those it spreads; a
/// fragment that spreads itself, directly or through others, is refused.
fn expanded_fragments<'d>(
    document: &'d ExecutableDocument,
    work: &mut u64,
) -> Result<HashMap<&'d Name, Shape>, String> {
    let spreads: HashMap<&Name, Vec<&Name>> = document
        .fragments
        .iter()
        .map(|(name, fragment)| {
            let mut names = Vec::new();
            spread_names(&fragment.node.selection_set.node, &mut names, work);
            // Only defined fragments: an unknown one is the engine's to report.
            names.retain(|n| document.fragments.contains_key(*n));
            (name, names)
        })
        .collect();
    let mut shapes: HashMap<&Name, Shape> = HashMap::with_capacity(spreads.len());
    let mut on_path: HashSet<&Name> = HashSet::new();
    // Depth-first with a stack of its own (a chain of fragments can be as
    // long as the body allows): each fragment is pushed, then its first
    // spread not yet done, and computed once all of them are.
    for start in spreads.keys() {
        if shapes.contains_key(start) {
            continue;
        }
        let mut stack: Vec<(&Name, usize)> = vec![(start, 0)];
        on_path.insert(start);
        while let Some((name, next)) = stack.last_mut() {
            *work += 1;
            let name: &Name = name;
            let children = &spreads[name];
            if let Some(child) = children.get(*next) {
                *next += 1;
                if shapes.contains_key(child) {
                    continue;
                }
                if on_path.contains(child) {
                    return Err(format!("Cannot spread fragment \"{child}\" within itself."));
                }
                on_path.insert(child);
                stack.push((child, 0));
            } else {
                let fragment = &document.fragments[name];
                let shape = shape_of(&fragment.node.selection_set.node, &shapes, work);
                shapes.insert(name, shape);
                on_path.remove(name);
                stack.pop();
            }
        }
    }
    Ok(shapes)
}

/// The names of the fragments `set` spreads, at any depth of its text.
fn spread_names<'d>(set: &'d SelectionSet, names: &mut Vec<&'d Name>, work: &mut u64) {
    for item in &set.items {
        *work += 1;
        match &item.node {
            Selection::Field(field) => spread_names(&field.node.selection_set.node, names, work),
            Selection::FragmentSpread(spread) => names.push(&spread.node.fragment_name.node),
            Selection::InlineFragment(inline) => {
                spread_names(&inline.node.selection_set.node, names, work)
            }
        }
    }
}

/// The shape of `set` with every spread replaced by its fragment's shape
/// (an unknown fragment's spread is one selection).
fn shape_of(set: &SelectionSet, fragments: &HashMap<&Name, Shape>, work: &mut u64) -> Shape {
    set.items.iter().fold(Shape::default(), |shape, item| {
        *work += 1;
        let item = match &item.node {
            Selection::Field(field) => Shape::nested(
                shape_of(&field.node.selection_set.node, fragments, work),
                false,
            ),
            Selection::InlineFragment(inline) => Shape::nested(
                shape_of(&inline.node.selection_set.node, fragments, work),
                false,
            ),
            Selection::FragmentSpread(spread) => {
                let name = &spread.node.fragment_name.node;
                Shape::nested(fragments.get(name).copied().unwrap_or_default(), true)
            }
        };
        shape.beside(item)
    })
}

/// Documents up to the body limit, of the shapes that multiply work:
/// fragment chains that fan out, many fragments spread side by side,
/// selections nested in inline fragments, aliases, directives and variables
/// between them (for the property tests here and of the cost).
#[cfg(test)]
pub(super) fn large_document() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::strategy::Strategy;
    let wanted = proptest::prop_oneof![1usize..12, 12usize..5_000];
    (0usize..4, 1usize..5, 0usize..4, 1usize..4, wanted).prop_map(
        |(kind, fan_out, fields, operations, wanted)| {
            const LIMIT: usize = crate::api::pipeline::MAX_BODY_BYTES - 1024;
            let field_text: String = (0..fields)
                .map(|f| format!("x{f}: total @include(if: $v) "))
                .collect();
            let mut head = String::new();
            for o in 0..operations {
                head.push_str(&format!(
                "query Q{o}($v: Boolean = true) {{ search(q: \"\") {{ ...F0 {field_text}}} }}\n"
            ));
            }
            let mut fragments = String::new();
            let mut i = 0;
            loop {
                let body = match kind {
                    // Each spreads the next `fan_out` times.
                    0 => format!("...F{} ", i + 1).repeat(fan_out),
                    // Each spreads every later one the text has room for.
                    1 => (1..=fan_out).map(|k| format!("...F{} ", i + k)).collect(),
                    // Each nests the next in inline fragments.
                    2 => format!(
                        "{}...F{} {}",
                        "... on SearchPage { ".repeat(fan_out * 10),
                        i + 1,
                        "} ".repeat(fan_out * 10)
                    ),
                    // Each spreads the next under aliases.
                    _ => (0..fan_out)
                        .map(|k| format!("... on SearchPage {{ ...F{} }} l{k}: limit ", i + 1))
                        .collect(),
                };
                let fragment = format!("fragment F{i} on SearchPage {{ {field_text}{body}}}\n");
                if i == wanted || head.len() + fragments.len() + fragment.len() + 64 > LIMIT {
                    break;
                }
                fragments.push_str(&fragment);
                i += 1;
            }
            // Every spread names a fragment: the last ones end the chain.
            let ends = if kind == 1 { fan_out } else { 1 };
            for j in i..i + ends {
                fragments.push_str(&format!("fragment F{j} on SearchPage {{ total }}\n"));
            }
            format!("{head}{fragments}")
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use async_graphql::parser::parse_query;
    use proptest::prelude::*;

    fn admitted(query: &str) -> Result<Shape, String> {
        admit(&parse_query(query).expect("the test's query parses"))
    }

    /// The fragment chain of the report: `F0` spreads `F1` twice, … down to
    /// `F{levels - 1}`, which selects `id`.
    fn chain(levels: usize) -> String {
        let mut query = String::from("{ search(q: \"bank\", limit: 1) { results { ...F0 } } }\n");
        for i in 0..levels - 1 {
            query.push_str(&format!(
                "fragment F{i} on SearchResult {{ ...F{n} ...F{n} }}\n",
                n = i + 1
            ));
        }
        query.push_str(&format!(
            "fragment F{} on SearchResult {{ id }}\n",
            levels - 1
        ));
        query
    }

    /// The reference: the shape by expanding every spread where it stands,
    /// as the engine's visitors do (exponential; for small documents only).
    fn expanded(query: &str) -> Shape {
        let document = parse_query(query).unwrap();
        fn walk(set: &SelectionSet, document: &ExecutableDocument, on_path: &[&str]) -> Shape {
            let mut shape = Shape::default();
            for item in &set.items {
                let inner = match &item.node {
                    Selection::Field(field) => Shape::nested(
                        walk(&field.node.selection_set.node, document, on_path),
                        false,
                    ),
                    Selection::InlineFragment(inline) => Shape::nested(
                        walk(&inline.node.selection_set.node, document, on_path),
                        false,
                    ),
                    Selection::FragmentSpread(spread) => {
                        let name = spread.node.fragment_name.node.as_str();
                        assert!(!on_path.contains(&name), "the reference takes no cycle");
                        let inner = document.fragments.get(&spread.node.fragment_name.node).map(
                            |fragment| {
                                let path = [on_path, &[name]].concat();
                                walk(&fragment.node.selection_set.node, document, &path)
                            },
                        );
                        Shape::nested(inner.unwrap_or_default(), true)
                    }
                };
                shape = shape.beside(inner);
            }
            shape
        }
        let mut total = Shape::default();
        for (_, operation) in document.operations.iter() {
            total = total.beside(walk(&operation.node.selection_set.node, &document, &[]));
        }
        for (name, fragment) in &document.fragments {
            total = total.beside(walk(
                &fragment.node.selection_set.node,
                &document,
                &[name.as_str()],
            ));
        }
        total
    }

    #[test]
    fn the_reported_fragment_chains_are_refused_by_their_expanded_size() {
        for levels in [19, 23, 40] {
            let message = admitted(&chain(levels)).unwrap_err();
            assert_eq!(
                message, "Query expands to more than 2000 selections (fragments expanded).",
                "{levels} levels"
            );
        }
        // Five levels expand to a hundred selections: admitted, and
        // measured as the expansion would count them.
        let five = chain(5);
        assert_eq!(admitted(&five), Ok(expanded(&five)));
    }

    #[test]
    fn the_standard_introspection_queries_are_admitted() {
        for query in [
            include_str!("../../../../tests/fixtures/graphql/graphql-js-16.15.0.graphql"),
            include_str!("../../../../tests/fixtures/graphql/graphql-core-3.3.2.graphql"),
        ] {
            let shape = admitted(query).expect("the standard query is admitted");
            assert_eq!(shape, expanded(query));
            assert!(shape.selections * 3 < MAX_SELECTIONS, "{shape:?}");
            assert!(
                shape.depth < MAX_DEPTH && shape.spreads < MAX_SPREADS,
                "{shape:?}"
            );
        }
    }

    #[test]
    fn fragment_cycles_are_refused_with_the_engines_words() {
        // The cycle is found from whichever fragment the walk starts at.
        let message =
            admitted("{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }")
                .unwrap_err();
        assert!(
            [
                "Cannot spread fragment \"A\" within itself.",
                "Cannot spread fragment \"B\" within itself."
            ]
            .contains(&message.as_str()),
            "{message}"
        );
        assert_eq!(
            admitted("{ ...A } fragment A on Query { usage { plan } ...A }").unwrap_err(),
            "Cannot spread fragment \"A\" within itself."
        );
        // An unknown fragment is the engine's to report: one selection here.
        assert_eq!(admitted("{ ...Nope }").unwrap().selections, 1);
    }

    #[test]
    fn depth_and_spreads_have_bounds_of_their_own() {
        // 41 inline fragments in one another, one field at the bottom.
        let deep = format!("{{ {}__typename{} }}", "... { ".repeat(41), " }".repeat(41));
        assert_eq!(
            admitted(&deep).unwrap_err(),
            "Query nests selections more than 40 deep (fragments expanded)."
        );
        // 201 spreads of one small fragment, side by side in a field.
        let spreads = format!(
            "{{ search(q: \"a\") {{ total {} }} }} fragment T on SearchPage {{ total }}",
            "...T ".repeat(201)
        );
        assert_eq!(
            admitted(&spreads).unwrap_err(),
            "Query spreads fragments more than 200 times (fragments expanded)."
        );
    }

    /// A document of `fragments` fragments, each spreading later ones as
    /// `fan_out` says, with fields, aliases, inline fragments and
    /// directives between them; spreads only go forwards, so there is no
    /// cycle.
    fn generated(fragments: usize, fan_out: &[Vec<usize>], fields: usize) -> String {
        let body = |i: usize, spreads: &[usize]| {
            let mut body = String::new();
            for f in 0..fields {
                body.push_str(&format!("a{f}: total @skip(if: $s) "));
            }
            body.push_str("... on SearchPage @include(if: true) { limit } ");
            for target in spreads.iter().map(|s| i + 1 + s).filter(|t| *t < fragments) {
                body.push_str(&format!("...F{target} "));
            }
            body
        };
        let mut query =
            String::from("query Q($s: Boolean = false) { search(q: \"a\") { ...F0 } }\n");
        for i in 0..fragments {
            let spreads = fan_out.get(i).map(Vec::as_slice).unwrap_or_default();
            query.push_str(&format!(
                "fragment F{i} on SearchPage {{ {} }}\n",
                body(i, spreads)
            ));
        }
        query
    }

    proptest! {
        /// The memoized shape is the expansion's, for documents small
        /// enough to expand; a refusal is exactly a shape past a bound.
        #[test]
        fn the_shape_is_the_expansions(
            fragments in 1usize..7,
            fan_out in prop::collection::vec(prop::collection::vec(0usize..4, 0..4), 0..7),
            fields in 0usize..4,
        ) {
            let query = generated(fragments, &fan_out, fields);
            let reference = expanded(&query);
            match admitted(&query) {
                Ok(shape) => prop_assert_eq!(shape, reference),
                Err(message) => prop_assert_eq!(Some(message), reference.refusal()),
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// Admission's work is linear in the text, whatever the text
        /// expands to: at most two units a byte.
        #[test]
        fn admission_work_is_linear_in_the_text(query in large_document()) {
            let Ok(document) = parse_query(&query) else {
                // Past the parser's own nesting limit: refused before admission.
                return Ok(());
            };
            let mut work = 0;
            let verdict = admit_counting(&document, &mut work);
            prop_assert!(
                work <= 2 * query.len() as u64,
                "{} units for {} bytes ({:?})",
                work,
                query.len(),
                verdict
            );
        }
    }
}
