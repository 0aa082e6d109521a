//! Introspection's own limits. async-graphql measures depth and complexity
//! over the whole document, so the standard introspection query of
//! graphql-js and graphql-core (depth 15, complexity in the hundreds) would
//! meet the limits meant for data (depth 6, complexity 100). Here a document
//! is split: its `__schema` and `__type` selections are held to the rule
//! below, and the rest (every data field, and `__typename`) to the data
//! limits, computed by the engine itself on the document without them.
//!
//! The rule, checked before anything runs, with fragments expanded:
//! - `ofType` nested at most [`MAX_OF_TYPE_DEPTH`] deep (the standard query's
//!   default `typeDepth`);
//! - the lists of a type (`fields`, `inputFields`, `interfaces`,
//!   `possibleTypes`) nested at most [`MAX_TYPE_LISTS`] deep, as graphql-js's
//!   `MaxIntrospectionDepthRule` allows (the standard query nests one);
//! - at most [`MAX_SELECTIONS`] selections in all (the standard query with
//!   every option has about 250);
//!
//! and, after it ran, the answer to the introspection fields at most
//! [`MAX_ANSWER_BYTES`] of JSON (the whole schema is about 40 KB).

use super::{Query, MAX_COMPLEXITY, MAX_DEPTH};
use async_graphql::extensions::{Extension, ExtensionContext, ExtensionFactory, NextExecute};
use async_graphql::parser::types::{
    DocumentOperations, ExecutableDocument, Selection, SelectionSet,
};
use async_graphql::{EmptyMutation, EmptySubscription, Name, Response, Schema, ValidationMode};
use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

/// `ofType` chains of the standard query (`typeDepth` 9 in graphql-js 16.15
/// and graphql-core 3.3).
pub(crate) const MAX_OF_TYPE_DEPTH: usize = 9;
/// Nested lists of a type's members; graphql-js refuses a third.
pub(crate) const MAX_TYPE_LISTS: usize = 2;
/// Fields, fragment spreads and inline fragments under `__schema` and
/// `__type`, fragments expanded.
pub(crate) const MAX_SELECTIONS: usize = 500;
/// The JSON of the introspection fields' answer.
pub(crate) const MAX_ANSWER_BYTES: usize = 256 * 1024;

/// The lists of a `__Type` that lead to more types.
const TYPE_LISTS: [&str; 4] = ["fields", "inputFields", "interfaces", "possibleTypes"];

/// The root fields that introspect the schema (`__typename` is a plain
/// field: it counts as data does).
pub(crate) fn is_introspection(field: &str) -> bool {
    field == "__schema" || field == "__type"
}

/// Whether the document selects `__schema` or `__type` anywhere.
pub(crate) fn introspects(document: &ExecutableDocument) -> bool {
    fn any(set: &SelectionSet) -> bool {
        set.items.iter().any(|item| match &item.node {
            Selection::Field(field) => {
                is_introspection(field.node.name.node.as_str())
                    || any(&field.node.selection_set.node)
            }
            Selection::FragmentSpread(_) => false,
            Selection::InlineFragment(inline) => any(&inline.node.selection_set.node),
        })
    }
    operations(document).any(any)
        || document
            .fragments
            .values()
            .any(|f| any(&f.node.selection_set.node))
}

fn operations(document: &ExecutableDocument) -> impl Iterator<Item = &SelectionSet> {
    let ops: Vec<&SelectionSet> = match &document.operations {
        DocumentOperations::Single(op) => vec![&op.node.selection_set.node],
        DocumentOperations::Multiple(ops) => {
            ops.values().map(|op| &op.node.selection_set.node).collect()
        }
    };
    ops.into_iter()
}

/// The message of the first bound the document's introspection breaks.
pub(crate) fn check(document: &ExecutableDocument) -> Result<(), String> {
    let mut walk = Walk {
        document,
        selections: 0,
        on_path: Vec::new(),
        roots_seen: HashSet::new(),
    };
    for set in operations(document) {
        walk.root(set)?;
    }
    Ok(())
}

struct Walk<'d> {
    document: &'d ExecutableDocument,
    selections: usize,
    /// Fragments being expanded: a cycle ends here (the engine reports it).
    on_path: Vec<&'d Name>,
    /// Fragments of the root selection already looked into.
    roots_seen: HashSet<&'d Name>,
}

impl<'d> Walk<'d> {
    /// The root selection: finds `__schema` and `__type`, through fragments
    /// (each looked into once, as the engine merges their fields).
    fn root(&mut self, set: &'d SelectionSet) -> Result<(), String> {
        for item in &set.items {
            match &item.node {
                Selection::Field(field) if is_introspection(field.node.name.node.as_str()) => {
                    self.count()?;
                    self.walk(&field.node.selection_set.node, 0, 0)?;
                }
                Selection::Field(_) => {}
                Selection::FragmentSpread(spread) => {
                    let name = &spread.node.fragment_name.node;
                    if let Some(fragment) = self.document.fragments.get(name) {
                        if self.roots_seen.insert(name) {
                            self.root(&fragment.node.selection_set.node)?;
                        }
                    }
                }
                Selection::InlineFragment(inline) => self.root(&inline.node.selection_set.node)?,
            }
        }
        Ok(())
    }

    fn count(&mut self) -> Result<(), String> {
        self.selections += 1;
        if self.selections > MAX_SELECTIONS {
            return Err(format!(
                "Introspection selects more than {MAX_SELECTIONS} fields."
            ));
        }
        Ok(())
    }

    fn walk(&mut self, set: &'d SelectionSet, of_type: usize, lists: usize) -> Result<(), String> {
        for item in &set.items {
            self.count()?;
            match &item.node {
                Selection::Field(field) => {
                    let name = field.node.name.node.as_str();
                    let of_type = if name == "ofType" { of_type + 1 } else { 0 };
                    if of_type > MAX_OF_TYPE_DEPTH {
                        return Err(format!(
                            "Introspection nests ofType more than {MAX_OF_TYPE_DEPTH} deep."
                        ));
                    }
                    let lists = lists + usize::from(TYPE_LISTS.contains(&name));
                    if lists > MAX_TYPE_LISTS {
                        return Err(format!(
                            "Introspection nests fields, inputFields, interfaces or possibleTypes more than {MAX_TYPE_LISTS} deep."
                        ));
                    }
                    self.walk(&field.node.selection_set.node, of_type, lists)?;
                }
                Selection::FragmentSpread(spread) => {
                    let name = &spread.node.fragment_name.node;
                    if self.on_path.contains(&name) {
                        continue;
                    }
                    if let Some(fragment) = self.document.fragments.get(name) {
                        self.on_path.push(name);
                        let result = self.walk(&fragment.node.selection_set.node, of_type, lists);
                        self.on_path.pop();
                        result?;
                    }
                }
                Selection::InlineFragment(inline) => {
                    self.walk(&inline.node.selection_set.node, of_type, lists)?;
                }
            }
        }
        Ok(())
    }
}

/// The document without its `__schema` and `__type` selections: what the
/// data limits are measured on.
pub(crate) fn without_introspection(document: &ExecutableDocument) -> ExecutableDocument {
    fn strip(set: &mut SelectionSet) {
        set.items.retain(|item| {
            !matches!(&item.node, Selection::Field(field)
                if is_introspection(field.node.name.node.as_str()))
        });
        for item in &mut set.items {
            match &mut item.node {
                Selection::Field(field) => strip(&mut field.node.selection_set.node),
                Selection::FragmentSpread(_) => {}
                Selection::InlineFragment(inline) => strip(&mut inline.node.selection_set.node),
            }
        }
    }
    let mut document = document.clone();
    match &mut document.operations {
        DocumentOperations::Single(op) => strip(&mut op.node.selection_set.node),
        DocumentOperations::Multiple(ops) => {
            for op in ops.values_mut() {
                strip(&mut op.node.selection_set.node);
            }
        }
    }
    for fragment in document.fragments.values_mut() {
        strip(&mut fragment.node.selection_set.node);
    }
    document
}

type Limits = Schema<Query, EmptyMutation, EmptySubscription>;

/// The schema with the data limits, which validates a document and never
/// runs it: the engine's own depth and complexity, on what is left of a
/// document without its introspection.
pub(crate) fn data_limits() -> &'static Limits {
    static SCHEMA: OnceLock<Limits> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        Schema::build(Query, EmptyMutation, EmptySubscription)
            .limit_depth(MAX_DEPTH)
            .limit_complexity(MAX_COMPLEXITY)
            // Only the limits are asked here; every other rule is checked
            // when the document runs, on the whole of it.
            .validation_mode(ValidationMode::Fast)
            .extension(ValidateOnly)
            .finish()
    })
}

/// Stops a request after validation: nothing resolves.
struct ValidateOnly;

impl ExtensionFactory for ValidateOnly {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(ValidateOnly)
    }
}

#[async_graphql::async_trait::async_trait]
impl Extension for ValidateOnly {
    async fn execute(
        &self,
        _ctx: &ExtensionContext<'_>,
        _operation_name: Option<&str>,
        _next: NextExecute<'_>,
    ) -> Response {
        Response::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use async_graphql::parser::types::{TypeKind, TypeSystemDefinition};
    use async_graphql::parser::{parse_query, parse_schema};
    use serde_json::Value;

    /// The standard introspection queries of graphql-js and graphql-core,
    /// every option on (tests/fixtures/graphql/README.md).
    const STANDARD: [(&str, &str); 2] = [
        (
            "graphql-js",
            include_str!("../../../../tests/fixtures/graphql/graphql-js-16.15.0.graphql"),
        ),
        (
            "graphql-core",
            include_str!("../../../../tests/fixtures/graphql/graphql-core-3.3.2.graphql"),
        ),
    ];

    /// Runs `query` as the handler does for a document that introspects:
    /// the rule, the data limits on the rest, then the engine.
    fn introspect(query: &str) -> Result<Value, String> {
        let document = parse_query(query).map_err(|e| e.to_string())?;
        assert!(introspects(&document));
        check(&document)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut data_only = async_graphql::Request::new(query);
        data_only.set_parsed_query(without_introspection(&document));
        let checked = runtime.block_on(data_limits().execute(data_only));
        if let Some(error) = checked.errors.first() {
            return Err(error.message.clone());
        }
        let answer = runtime.block_on(super::super::unlimited().execute(query));
        assert!(answer.errors.is_empty(), "{:?}", answer.errors);
        Ok(answer.data.into_json().unwrap())
    }

    /// `[String!]!` from an introspection type reference.
    fn type_ref(t: &Value) -> String {
        match t["kind"].as_str().unwrap() {
            "NON_NULL" => format!("{}!", type_ref(&t["ofType"])),
            "LIST" => format!("[{}]", type_ref(&t["ofType"])),
            _ => t["name"].as_str().unwrap().to_string(),
        }
    }

    fn text(description: &Option<async_graphql::Positioned<String>>) -> Value {
        description
            .as_ref()
            .map_or(Value::Null, |d| Value::from(d.node.trim()))
    }

    fn trimmed(description: &Value) -> Value {
        description
            .as_str()
            .map_or(Value::Null, |d| Value::from(d.trim()))
    }

    /// `FRAGMENT_SPREAD` from `FragmentSpread`.
    fn location(debug: String) -> String {
        let mut out = String::new();
        for (i, c) in debug.chars().enumerate() {
            if c.is_uppercase() && i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_uppercase());
        }
        out
    }

    fn arguments_of(
        args: &[async_graphql::Positioned<async_graphql::parser::types::InputValueDefinition>],
    ) -> Vec<(String, String, Value, Value)> {
        args.iter()
            .map(|a| {
                let a = &a.node;
                let default = a
                    .default_value
                    .as_ref()
                    .map_or(Value::Null, |v| Value::from(v.node.to_string()));
                (
                    a.name.node.to_string(),
                    a.ty.node.to_string(),
                    default,
                    text(&a.description),
                )
            })
            .collect()
    }

    /// The arguments of an answer, as the SDL gives them: async-graphql's
    /// SDL leaves out the descriptions of arguments, so an argument's is
    /// compared when the SDL has one (`sdl`: the SDL's arguments).
    fn arguments_in(
        args: &Value,
        sdl: &[(String, String, Value, Value)],
    ) -> Vec<(String, String, Value, Value)> {
        args.as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let printed = sdl.get(i).is_some_and(|s| !s.3.is_null());
                assert_eq!(a["isDeprecated"], false);
                (
                    a["name"].as_str().unwrap().to_string(),
                    type_ref(&a["type"]),
                    a["defaultValue"].clone(),
                    if printed {
                        trimmed(&a["description"])
                    } else {
                        Value::Null
                    },
                )
            })
            .collect()
    }

    /// The answer describes docs/schema.graphql, type by type and field by
    /// field: kinds, descriptions, types, arguments and their defaults, and
    /// the directives it declares; and no type that it does not declare
    /// besides the built-in scalars and the introspection types.
    fn assert_describes_the_committed_schema(who: &str, answer: &Value) {
        let sdl = include_str!("../../../../docs/schema.graphql");
        let document = parse_schema(sdl).unwrap();
        let schema = &answer["__schema"];
        assert_eq!(schema["queryType"]["name"], "Query", "{who}");
        assert_eq!(schema["mutationType"], Value::Null, "{who}");
        assert_eq!(schema["subscriptionType"], Value::Null, "{who}");
        let types = schema["types"].as_array().unwrap();
        let mut declared = Vec::new();
        for definition in &document.definitions {
            match definition {
                TypeSystemDefinition::Type(t) => {
                    let t = &t.node;
                    let name = t.name.node.as_str();
                    declared.push(name.to_string());
                    let answered = types
                        .iter()
                        .find(|a| a["name"] == name)
                        .unwrap_or_else(|| panic!("{who}: no type {name} in the answer"));
                    assert_eq!(
                        trimmed(&answered["description"]),
                        text(&t.description),
                        "{who}: {name}"
                    );
                    let TypeKind::Object(object) = &t.kind else {
                        panic!("{name}: only object types are compared; compare this kind too");
                    };
                    assert_eq!(answered["kind"], "OBJECT", "{who}: {name}");
                    assert_eq!(
                        answered["interfaces"],
                        Value::Array(vec![]),
                        "{who}: {name}"
                    );
                    assert!(object.implements.is_empty());
                    let fields = answered["fields"].as_array().unwrap();
                    assert_eq!(fields.len(), object.fields.len(), "{who}: fields of {name}");
                    for (field, answered) in object.fields.iter().zip(fields) {
                        let field = &field.node;
                        let at = format!("{who}: {name}.{}", field.name.node);
                        assert_eq!(answered["name"], field.name.node.as_str(), "{at}");
                        assert_eq!(
                            type_ref(&answered["type"]),
                            field.ty.node.to_string(),
                            "{at}"
                        );
                        assert_eq!(
                            trimmed(&answered["description"]),
                            text(&field.description),
                            "{at}"
                        );
                        assert_eq!(answered["isDeprecated"], false, "{at}");
                        assert_eq!(
                            arguments_in(&answered["args"], &arguments_of(&field.arguments)),
                            arguments_of(&field.arguments),
                            "{at}"
                        );
                    }
                }
                TypeSystemDefinition::Directive(d) => {
                    let d = &d.node;
                    let name = d.name.node.as_str();
                    let answered = schema["directives"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|a| a["name"] == name)
                        .unwrap_or_else(|| panic!("{who}: no directive @{name} in the answer"));
                    assert_eq!(
                        trimmed(&answered["description"]),
                        text(&d.description),
                        "{who}: @{name}"
                    );
                    // (The parser reads every directive as repeatable: the
                    // SDL's own line says.)
                    let repeatable = sdl.lines().any(|line| {
                        line.starts_with(&format!("directive @{name}("))
                            && line.contains(") repeatable on ")
                    });
                    assert_eq!(answered["isRepeatable"], repeatable, "{who}: @{name}");
                    let locations: Vec<String> = d
                        .locations
                        .iter()
                        .map(|l| location(format!("{:?}", l.node)))
                        .collect();
                    assert_eq!(
                        answered["locations"],
                        serde_json::json!(locations),
                        "{who}: @{name}"
                    );
                    assert_eq!(
                        arguments_in(&answered["args"], &arguments_of(&d.arguments)),
                        arguments_of(&d.arguments),
                        "{who}: @{name}"
                    );
                }
                TypeSystemDefinition::Schema(s) => {
                    let query = s.node.query.as_ref().map(|q| q.node.as_str());
                    assert_eq!(query, Some("Query"));
                }
            }
        }
        for answered in types {
            let name = answered["name"].as_str().unwrap();
            let builtin = name.starts_with("__")
                || ["String", "Int", "Float", "Boolean", "ID"].contains(&name);
            assert!(
                builtin || declared.iter().any(|d| d == name),
                "{who}: the answer has {name}, which docs/schema.graphql does not declare"
            );
        }
    }

    #[test]
    fn the_standard_queries_answer_the_whole_schema() {
        for (who, query) in STANDARD {
            let answer = introspect(query).unwrap_or_else(|e| panic!("{who}: {e}"));
            assert_describes_the_committed_schema(who, &answer);
            let bytes = answer.to_string().len();
            assert!(bytes < MAX_ANSWER_BYTES / 4, "{who}: {bytes} bytes");
        }
    }

    #[test]
    fn the_standard_queries_are_well_inside_the_rule() {
        for (who, query) in STANDARD {
            let document = parse_query(query).unwrap();
            let mut walk = Walk {
                document: &document,
                selections: 0,
                on_path: Vec::new(),
                roots_seen: HashSet::new(),
            };
            for set in operations(&document) {
                walk.root(set).unwrap();
            }
            assert!(
                walk.selections * 3 / 2 < MAX_SELECTIONS,
                "{who}: {} selections",
                walk.selections
            );
        }
    }

    fn of_types(n: usize) -> String {
        let mut query = String::from("name");
        for _ in 0..n {
            query = format!("name ofType {{ {query} }}");
        }
        format!("{{ __type(name: \"Entry\") {{ fields {{ type {{ {query} }} }} }} }}")
    }

    #[test]
    fn introspection_has_its_own_bounds() {
        assert!(introspect(&of_types(MAX_OF_TYPE_DEPTH)).is_ok());
        let deeper = introspect(&of_types(MAX_OF_TYPE_DEPTH + 1)).unwrap_err();
        assert!(deeper.contains("ofType"), "{deeper}");
        // graphql-js's own example of a query its rule refuses.
        let lists = introspect(
            "{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }",
        )
        .unwrap_err();
        assert!(lists.contains("possibleTypes"), "{lists}");
        assert!(
            introspect("{ __schema { types { fields { type { fields { name } } } } } }").is_ok()
        );
        // Wide: aliases, or a fragment spread many times over, fragments expanded.
        let wide: String = (0..=MAX_SELECTIONS)
            .map(|i| format!("a{i}: name "))
            .collect();
        let err = introspect(&format!("{{ __schema {{ types {{ {wide} }} }} }}")).unwrap_err();
        assert!(err.contains("more than"), "{err}");
        let bomb = "{ __schema { types { ...A } } }
            fragment A on __Type { a: ofType { ...B } b: ofType { ...B } c: ofType { ...B } }
            fragment B on __Type { a: ofType { ...C } b: ofType { ...C } c: ofType { ...C } }
            fragment C on __Type { a: ofType { ...D } b: ofType { ...D } c: ofType { ...D } }
            fragment D on __Type { a: ofType { ...E } b: ofType { ...E } c: ofType { ...E } }
            fragment E on __Type { a: ofType { ...F } b: ofType { ...F } c: ofType { ...F } }
            fragment F on __Type { a: ofType { name } b: ofType { name } c: ofType { kind } }";
        let err = introspect(bomb).unwrap_err();
        assert!(err.contains("more than"), "{err}");
    }

    #[test]
    fn data_fields_keep_their_limits_beside_introspection() {
        let deep = "{ __schema { queryType { name } } search(q: \"a\") { results { a { b { c { d { e } } } } } } }";
        assert_eq!(introspect(deep).unwrap_err(), "Query is nested too deep.");
        let many: String = (0..10)
            .map(|i| format!("s{i}: search(q: \"bank\") {{ total }} "))
            .collect();
        let complex = format!("{{ __schema {{ queryType {{ name }} }} {many} }}");
        assert_eq!(introspect(&complex).unwrap_err(), "Query is too complex.");
        // The same data alone: the engine's limits, as before.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let alone = runtime.block_on(super::super::schema().execute(format!("{{ {many} }}")));
        assert_eq!(alone.errors[0].message, "Query is too complex.");
    }

    #[test]
    fn the_data_left_is_the_document_without_introspection() {
        let document = parse_query(
            "query Q { __typename ...F s: search(q: \"a\") { total } }
             fragment F on Query { __schema { types { name } } __type(name: \"Entry\") { name } usage { plan } }",
        )
        .unwrap();
        let left = without_introspection(&document);
        assert!(!introspects(&left));
        assert!(introspects(&document));
        let printed = format!("{:?}", left);
        assert!(printed.contains("usage") && printed.contains("__typename"));
    }
}
