//! What a GraphQL request costs, and the guard that holds execution to it.
//!
//! The cost is one unit per root-field selection that executes, read from the
//! document before anything runs with the engine's own rules (async-graphql
//! 7.2, `Fields::add_set` and `remove_skipped_selection`): every occurrence
//! of a field runs its resolver, even beside an identical one (answers of one
//! response key are merged afterwards, not the executions); fragments are
//! expanded wherever they are spread, at any depth; `@skip`/`@include` read
//! the request's variables as given; `__typename` runs no resolver.
//!
//! The guard ([`PaidFields`]) is an extension on every schema that executes:
//! each root resolver takes one of the units charged for its request
//! ([`Units`]) before it runs, so a field the count missed fails with
//! `QUOTA_EXCEEDED` instead of running unpaid.

use super::introspection::is_introspection;
use async_graphql::extensions::{
    Extension, ExtensionContext, ExtensionFactory, NextResolve, ResolveInfo,
};
use async_graphql::parser::types::{
    Directive, ExecutableDocument, OperationDefinition, Selection, SelectionSet,
};
use async_graphql::{
    ErrorExtensionValues, Name, PathSegment, Positioned, ServerError, ServerResult, Value,
    Variables,
};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Root-field selections one request may execute, `__typename` and
/// introspection included: the complexity limit admits at most ten data
/// fields (each costs 10), and nothing needs more.
pub(crate) const MAX_ROOT_FIELDS: usize = 10;
/// Selections looked at in the root selection with its fragments expanded
/// (fields, spreads, inline fragments): bounds the walk, since fragments
/// spread in one another can multiply without ever reaching a field.
pub(crate) const MAX_ROOT_SELECTIONS: usize = 100;

/// What a root field runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RootKind {
    /// One of `Query`'s resolvers: a data lookup, paid with a unit.
    Data,
    /// `__schema` or `__type`: the engine's introspection.
    Introspection,
    /// `__typename`: answered without a resolver.
    Typename,
}

/// One root-field selection that executes: its response key and kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RootField {
    pub key: String,
    pub kind: RootKind,
}

/// The root fields `operation` executes, in the engine's order, or `None`
/// when they (or the selections walked to find them) exceed the limits.
pub(crate) fn executed_root_fields(
    document: &ExecutableDocument,
    operation: &OperationDefinition,
    variables: &Variables,
) -> Option<Vec<RootField>> {
    let mut walk = Walk {
        document,
        variables,
        fields: Vec::new(),
        selections: 0,
        on_path: Vec::new(),
    };
    walk.set(&operation.selection_set.node)?;
    Some(walk.fields)
}

/// Units a request with these root fields is charged: one per data field,
/// and at least 1, as every answered request.
pub(crate) fn units_of(fields: &[RootField]) -> u64 {
    let data = fields.iter().filter(|f| f.kind == RootKind::Data).count();
    data.max(1) as u64
}

struct Walk<'d> {
    document: &'d ExecutableDocument,
    variables: &'d Variables,
    fields: Vec<RootField>,
    selections: usize,
    /// Fragments being expanded: a cycle stops here (validation refuses it).
    on_path: Vec<&'d Name>,
}

impl<'d> Walk<'d> {
    fn set(&mut self, set: &'d SelectionSet) -> Option<()> {
        for item in &set.items {
            self.selections += 1;
            if self.selections > MAX_ROOT_SELECTIONS {
                return None;
            }
            if is_skipped(item.node.directives(), self.variables) {
                continue;
            }
            match &item.node {
                Selection::Field(field) => {
                    let name = field.node.name.node.as_str();
                    let kind = if name == "__typename" {
                        RootKind::Typename
                    } else if is_introspection(name) {
                        RootKind::Introspection
                    } else {
                        RootKind::Data
                    };
                    self.fields.push(RootField {
                        key: field.node.response_key().node.to_string(),
                        kind,
                    });
                    if self.fields.len() > MAX_ROOT_FIELDS {
                        return None;
                    }
                }
                Selection::FragmentSpread(spread) => {
                    let name = &spread.node.fragment_name.node;
                    let Some(fragment) = self.document.fragments.get(name) else {
                        continue;
                    };
                    if self.on_path.contains(&name)
                        || !applies_to_query(Some(
                            fragment.node.type_condition.node.on.node.as_str(),
                        ))
                    {
                        continue;
                    }
                    self.on_path.push(name);
                    let inner = self.set(&fragment.node.selection_set.node);
                    self.on_path.pop();
                    inner?;
                }
                Selection::InlineFragment(inline) => {
                    let condition = inline.node.type_condition.as_ref();
                    if applies_to_query(condition.map(|c| c.node.on.node.as_str())) {
                        self.set(&inline.node.selection_set.node)?;
                    }
                }
            }
        }
        Some(())
    }
}

/// Whether a fragment's type condition admits the root type (`Query`
/// implements no interface, so only its own name or none).
fn applies_to_query(condition: Option<&str>) -> bool {
    condition.is_none_or(|name| name == "Query")
}

/// The engine's reading of `@skip` and `@include`: the `if` argument with
/// the request's variables substituted as given (a variable's default is not
/// applied), and anything but a boolean read as `false`.
fn is_skipped(directives: &[Positioned<Directive>], variables: &Variables) -> bool {
    directives.iter().any(|directive| {
        let include = match directive.node.name.node.as_str() {
            "skip" => false,
            "include" => true,
            _ => return false,
        };
        let Some(condition) = directive.node.get_argument("if") else {
            return false;
        };
        let value = condition
            .node
            .clone()
            .into_const_with(|name| variables.get(&name).cloned().ok_or(()))
            .unwrap_or_default();
        let value = matches!(value, Value::Boolean(true));
        include != value
    })
}

/// The units charged for the request being executed, which its root
/// resolvers take one by one.
#[derive(Debug)]
pub(crate) struct Units(AtomicU64);

impl Units {
    pub(crate) fn new(units: u64) -> Self {
        Self(AtomicU64::new(units))
    }

    /// Takes one unit: `false` when none is left.
    fn take(&self) -> bool {
        self.0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
    }
}

/// The guard: a root resolver runs only with a unit of its request.
pub(crate) struct PaidFields;

impl ExtensionFactory for PaidFields {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(PaidFields)
    }
}

#[async_graphql::async_trait::async_trait]
impl Extension for PaidFields {
    async fn resolve(
        &self,
        ctx: &ExtensionContext<'_>,
        info: ResolveInfo<'_>,
        next: NextResolve<'_>,
    ) -> ServerResult<Option<Value>> {
        let root_data = info.path_node.parent.is_none() && !is_introspection(info.name);
        if root_data && !ctx.data_opt::<Units>().is_some_and(Units::take) {
            let mut extensions = ErrorExtensionValues::default();
            extensions.set("code", "QUOTA_EXCEEDED");
            let key = info.alias.unwrap_or(info.name);
            return Err(ServerError {
                message: "Quota exceeded: this field was not paid for".into(),
                source: None,
                locations: Vec::new(),
                path: vec![PathSegment::Field(key.to_string())],
                extensions: Some(extensions),
            });
        }
        next.run(ctx, info).await
    }
}

#[cfg(test)]
mod tests {
    use super::super::{answer, units_of_body};
    use crate::api::response::Reply;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    /// Root fields whose resolvers fail on their arguments before they read
    /// anything (no storage needed), each with its own error: every one that
    /// runs leaves one error behind, which is how runs are counted.
    const FIELDS: [&str; 9] = [
        "search(q: \"\") { total }",
        "reverse(q: \"\") { total }",
        "autocomplete(q: \"\")",
        "thesaurus(word: \"\") { __typename }",
        "random(count: 0) { __typename }",
        "entry(id: \"!\", source: \"x\") { __typename }",
        "wordEntry(word: \"\", source: \"x\") { __typename }",
        "examples(q: \"\") { __typename }",
        "usage { __typename }",
    ];
    /// No alias, aliases of one field each (`search1: search`), and now and
    /// then one shared by all, which the engine refuses when it names two
    /// different fields.
    const ALIASES: [&str; 6] = ["", "", "1", "2", "3", "shared"];

    fn alias(index: usize, field: &str) -> String {
        match ALIASES[index] {
            "" => String::new(),
            "shared" => "shared: ".to_string(),
            n => format!("{}{n}: ", field.trim_start_matches('_')),
        }
    }
    const DIRECTIVES: [&str; 8] = [
        "",
        "",
        " @skip(if: true)",
        " @skip(if: false)",
        " @include(if: true)",
        " @include(if: false)",
        " @skip(if: $a)",
        " @include(if: $b)",
    ];

    #[derive(Debug, Clone)]
    enum Sel {
        Field(usize, usize, usize),
        Typename(usize, usize),
        Inline(bool, usize, Vec<Sel>),
        Spread(usize, usize),
    }

    fn selection() -> impl Strategy<Value = Sel> {
        let leaf = prop_oneof![
            4 => (0..FIELDS.len(), 0..ALIASES.len(), 0..DIRECTIVES.len())
                .prop_map(|(f, a, d)| Sel::Field(f, a, d)),
            1 => (0..ALIASES.len(), 0..DIRECTIVES.len()).prop_map(|(a, d)| Sel::Typename(a, d)),
            1 => (0..3usize, 0..DIRECTIVES.len()).prop_map(|(f, d)| Sel::Spread(f, d)),
        ];
        // Small: the engine's complexity limit (about nine fields, skipped
        // ones included) refuses most larger documents.
        leaf.prop_recursive(7, 10, 3, |inner| {
            (
                any::<bool>(),
                0..DIRECTIVES.len(),
                prop::collection::vec(inner, 1..3),
            )
                .prop_map(|(on_query, d, items)| Sel::Inline(on_query, d, items))
        })
    }

    /// Renders a selection, noting the fragments it spreads; a spread of
    /// fragment `f` inside fragment `within` becomes a spread of a later
    /// fragment, so there is no cycle.
    fn render(sel: &Sel, within: Option<usize>, out: &mut String, spread: &mut [bool; 3]) {
        match sel {
            Sel::Field(f, a, d) => {
                // The directive goes after the arguments, before the selection.
                let field = FIELDS[*f];
                let split = field
                    .find(')')
                    .map_or_else(|| field.find(' ').unwrap_or(field.len()), |close| close + 1);
                let (head, selection) = field.split_at(split);
                let name = head.split('(').next().unwrap_or(head);
                out.push_str(&format!(
                    "{}{head}{}{selection} ",
                    alias(*a, name),
                    DIRECTIVES[*d]
                ));
            }
            Sel::Typename(a, d) => {
                out.push_str(&format!(
                    "{}__typename{} ",
                    alias(*a, "__typename"),
                    DIRECTIVES[*d]
                ));
            }
            Sel::Inline(on_query, d, items) => {
                let condition = if *on_query { " on Query" } else { "" };
                out.push_str(&format!("...{condition}{} {{ ", DIRECTIVES[*d]));
                for item in items {
                    render(item, within, out, spread);
                }
                out.push_str("} ");
            }
            Sel::Spread(f, d) => {
                let target = within.map_or(*f, |w| w + 1 + f);
                if target < 3 {
                    spread[target] = true;
                    out.push_str(&format!("...F{target}{} ", DIRECTIVES[*d]));
                } else {
                    out.push_str("__typename ");
                }
            }
        }
    }

    /// A document: the operation, then the fragments it spreads (each may
    /// spread later ones), with `$a` and `$b` declared when used, and the
    /// variables given.
    fn document() -> impl Strategy<Value = (String, Value)> {
        (
            prop::collection::vec(selection(), 1..5),
            prop::collection::vec(prop::collection::vec(selection(), 1..3), 3),
            prop_oneof![Just(None), any::<bool>().prop_map(Some)],
            prop_oneof![Just(None), any::<bool>().prop_map(Some)],
            any::<bool>(),
        )
            .prop_map(|(root, fragments, a, b, b_default)| {
                let mut spread = [false; 3];
                let mut body = String::new();
                for sel in &root {
                    render(sel, None, &mut body, &mut spread);
                }
                // Only fragments that are spread: an unused one fails validation.
                let mut defined = String::new();
                for (i, items) in fragments.iter().enumerate() {
                    if !spread[i] {
                        continue;
                    }
                    defined.push_str(&format!("fragment F{i} on Query {{ "));
                    for sel in items {
                        render(sel, Some(i), &mut defined, &mut spread);
                    }
                    defined.push_str("} ");
                }
                let mut declared = Vec::new();
                let all = format!("{body}{defined}");
                if all.contains("$a") {
                    declared.push("$a: Boolean".to_string());
                }
                if all.contains("$b") {
                    declared.push(
                        if b_default {
                            "$b: Boolean = true"
                        } else {
                            "$b: Boolean"
                        }
                        .to_string(),
                    );
                }
                let header = if declared.is_empty() {
                    "query".to_string()
                } else {
                    format!("query({})", declared.join(", "))
                };
                let mut variables = serde_json::Map::new();
                if let Some(a) = a {
                    variables.insert("a".into(), json!(a));
                }
                if let Some(b) = b {
                    variables.insert("b".into(), json!(b));
                }
                (
                    format!("{header} {{ {body}}} {defined}"),
                    Value::Object(variables),
                )
            })
    }

    /// Runs `body` charged `units`: its status, the root resolvers that ran,
    /// those the guard refused and the units given back.
    fn run(body: &[u8], units: u64) -> (u16, usize, usize, u64) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let reply = runtime.block_on(answer(body, units, |r| r)).unwrap();
        let Reply::Raw {
            status,
            body,
            unused_units,
        } = reply
        else {
            panic!("GraphQL answers raw")
        };
        let errors = body["errors"].as_array().cloned().unwrap_or_default();
        let at_root = |e: &&Value| e["path"].as_array().is_some_and(|p| p.len() == 1);
        let refused = errors
            .iter()
            .filter(at_root)
            .filter(|e| e["extensions"]["code"] == "QUOTA_EXCEEDED")
            .count();
        let ran = errors.iter().filter(at_root).count() - refused;
        (status, ran, refused, unused_units)
    }

    fn price(body: &[u8]) -> u64 {
        units_of_body(body)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The units charged, less those given back, are the root resolvers
        /// that run (at least 1); a document that runs gives nothing back;
        /// and with one unit fewer, one of them is refused rather than run.
        #[test]
        fn units_charged_are_the_resolvers_that_run((query, variables) in document()) {
            let body = json!({"query": query, "variables": variables}).to_string();
            let units = price(body.as_bytes());
            let (status, ran, refused, unused) = run(body.as_bytes(), units);
            prop_assert_eq!(refused, 0, "the count missed a field: {}", query);
            if units == 0 {
                prop_assert_eq!((status, ran), (400, 0), "over the limit runs nothing: {}", query);
            } else {
                prop_assert_eq!(units - unused, ran.max(1) as u64, "{} → status {}", query, status);
            }
            if ran > 0 {
                prop_assert_eq!(unused, 0, "{}", query);
            }
            if units > 0 {
                let (_, ran_short, refused_short, _) = run(body.as_bytes(), units - 1);
                prop_assert!((ran_short as u64) < units, "a resolver ran unpaid: {}", query);
                prop_assert_eq!(ran_short + refused_short, ran, "{}", query);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Documents up to the body limit: one that admission refuses costs
        /// 1 and runs nothing; one it admits is answered and charged what
        /// runs, at least 1; nothing runs unpaid.
        #[test]
        fn documents_up_to_the_body_limit_run_nothing_unpaid(
            query in super::super::admission::large_document()
        ) {
            let body = json!({"query": query, "variables": {"v": true}}).to_string();
            let units = price(body.as_bytes());
            let (status, ran, refused, unused) = run(body.as_bytes(), units);
            prop_assert_eq!(refused, 0);
            prop_assert!(status == 200 || status == 400, "status {}", status);
            let document = async_graphql::parser::parse_query(&query).unwrap();
            if super::super::admission::admit(&document).is_err() {
                prop_assert_eq!((units, status, ran, unused), (1, 400, 0, 0));
            } else {
                prop_assert_eq!(units - unused, ran.max(1) as u64);
            }
        }
    }

    #[test]
    fn documents_of_the_issue_are_charged_what_runs() {
        let charge = |query: &str| {
            let body = json!({ "query": query }).to_string();
            let units = price(body.as_bytes());
            let (status, ran, refused, unused) = run(body.as_bytes(), units);
            assert_eq!(refused, 0, "{query}");
            (units - unused, status, ran)
        };
        let searches: String = (1..=9)
            .map(|i| format!("s{i}: search(q: \"\") {{ total }} "))
            .collect();
        // Eleven root fields: over the limit, refused and not counted.
        assert_eq!(
            charge(&format!("{{ {searches} t1: __typename t2: __typename }}")),
            (0, 400, 0)
        );
        // Nine searches beside one __typename: nine units for nine runs.
        assert_eq!(
            charge(&format!("{{ {searches} t1: __typename }}")),
            (9, 200, 9)
        );
        let deep = "{ ... { ... { ... { ... { ... { ... { ... on Query {
            a: search(q: \"\") { total } b: search(q: \"\") { total } c: search(q: \"\") { total }
        } } } } } } } }";
        assert_eq!(charge(deep), (3, 200, 3));
        let duplicates = "{ search(q: \"\") { total } search(q: \"\") { total } ... on Query { search(q: \"\") { total } } }";
        assert_eq!(charge(duplicates), (3, 200, 3));
        // A validation failure (an unknown field) costs 1 and runs nothing:
        // charged for its root fields, it gives back all but one.
        assert_eq!(charge("{ search(q: \"\") { total } nope }"), (1, 400, 0));
        let body =
            json!({ "query": "{ a: search(q: \"\") { total } b: search(q: \"\") { nope } }" });
        let body = body.to_string();
        assert_eq!(price(body.as_bytes()), 2);
        assert_eq!(run(body.as_bytes(), 2), (400, 0, 0, 1));
        assert_eq!(charge("{ __typename }"), (1, 200, 0));
    }
}
