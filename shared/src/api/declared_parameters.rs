//! Every parameter a query reads is declared where callers look for it: in
//! the OpenAPI document's operation and in the GraphQL field's arguments,
//! exactly those and no others. A query reads its parameters by name
//! (`crate::queries`), so a source that records the names it is asked for
//! lists them.

use crate::api::graphql::schema;
use crate::error::ApiError;
use crate::queries::{
    AutocompleteQuery, ParamSource, RandomQuery, ReverseQuery, RhymesQuery, SearchQuery,
    ThesaurusQuery,
};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::BTreeSet;

/// A source with no values but `q`, which records every name asked for.
#[derive(Default)]
struct Recorder(RefCell<BTreeSet<String>>);

impl Recorder {
    fn ask(&self, name: &str) {
        self.0.borrow_mut().insert(name.to_string());
    }
}

impl ParamSource for Recorder {
    fn text(&self, name: &str) -> Result<Option<&str>, ApiError> {
        self.ask(name);
        Ok((name == "q").then_some("a"))
    }

    fn integer(&self, name: &str, _min: u32, _max: u32) -> Result<Option<u32>, ApiError> {
        self.ask(name);
        Ok(None)
    }

    fn flag(&self, name: &str) -> Result<Option<bool>, ApiError> {
        self.ask(name);
        Ok(None)
    }
}

/// (REST path, GraphQL field, the names its query reads, a path parameter
/// if any).
fn reads() -> Vec<(&'static str, &'static str, BTreeSet<String>)> {
    let read = |f: &dyn Fn(&Recorder)| {
        let recorder = Recorder::default();
        f(&recorder);
        recorder.0.into_inner()
    };
    let with_word = |mut names: BTreeSet<String>| {
        names.insert("word".into());
        names
    };
    vec![
        (
            "/api/v1/api/search",
            "search",
            read(&|r| drop(SearchQuery::read(r).unwrap())),
        ),
        (
            "/api/v1/api/reverse",
            "reverse",
            read(&|r| drop(ReverseQuery::read(r).unwrap())),
        ),
        (
            "/api/v1/api/autocomplete",
            "autocomplete",
            read(&|r| drop(AutocompleteQuery::read(r).unwrap())),
        ),
        (
            "/api/v1/random",
            "random",
            read(&|r| drop(RandomQuery::read(r).unwrap())),
        ),
        (
            "/api/v1/api/thesaurus/{word}",
            "thesaurus",
            with_word(read(&|r| drop(ThesaurusQuery::read("a", r).unwrap()))),
        ),
        (
            "/api/v1/api/rhymes/{word}",
            "rhymes",
            with_word(read(&|r| drop(RhymesQuery::read("a", r).unwrap()))),
        ),
    ]
}

/// The names of an OpenAPI operation's parameters, `$ref`s resolved.
fn documented(openapi: &Value, path: &str) -> BTreeSet<String> {
    let parameters = openapi["paths"][path]["get"]["parameters"]
        .as_array()
        .unwrap_or_else(|| panic!("docs/openapi.json documents GET {path}"));
    parameters
        .iter()
        .map(|p| match p["$ref"].as_str() {
            Some(reference) => {
                let name = reference.rsplit('/').next().unwrap();
                openapi["components"]["parameters"][name]["name"].clone()
            }
            None => p["name"].clone(),
        })
        .map(|name| name.as_str().expect("a parameter has a name").to_string())
        .collect()
}

/// The names of a GraphQL root field's arguments, from the schema itself.
fn arguments(field: &str) -> BTreeSet<String> {
    let query = r#"{ __type(name: "Query") { fields { name args { name } } } }"#;
    let response = futures::executor::block_on(schema().execute(query));
    assert!(response.errors.is_empty(), "{:?}", response.errors);
    let data = response.data.into_json().unwrap();
    let fields = data["__type"]["fields"].as_array().unwrap();
    let found = fields
        .iter()
        .find(|f| f["name"] == field)
        .unwrap_or_else(|| panic!("the schema has {field}"));
    found["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_parameter_a_query_reads_is_documented_and_an_argument() {
    let openapi: Value = serde_json::from_str(include_str!("../../../docs/openapi.json")).unwrap();
    for (path, field, read) in reads() {
        assert!(
            read.contains("lang"),
            "the recorder sees what {field} reads"
        );
        assert_eq!(
            documented(&openapi, path),
            read,
            "GET {path} in docs/openapi.json"
        );
        assert_eq!(arguments(field), read, "GraphQL {field}'s arguments");
    }
}
