//! `POST /api/v1/api/graphql`: an async-graphql schema over the service layer.
//! Resolvers own no logic: a resolver's signature declares its arguments for
//! the schema, and the same typed queries as REST's read them by name
//! (`crate::queries` through [`FieldArguments`]: same validation, same
//! messages) and call the same service functions. Auth, quota and the 64 KiB body limit happen before, in the
//! shared pipeline, exactly as for REST.

use crate::access::auth::KeyRecord;
mod admission;
mod cost;
mod introspection;
use crate::api::pipeline::ApiRequest;
use crate::api::response::{graphql_code, Reply};
use crate::error::{shown, ApiError};
use crate::model::{
    Dictionary, Entry, RandomItem, RhymePage, SearchPage, ThesaurusItem, UsageRecord,
};
use crate::queries::{
    out_of_range, path_word, validate_dictionary_id, validate_entry_id, within_length,
    AutocompleteQuery, ParamSource, RandomQuery, ReverseQuery, RhymesQuery, SearchQuery,
    ThesaurusQuery,
};
use crate::runtime::app::App;
use crate::service;
use async_graphql::parser::types::{DocumentOperations, ExecutableDocument, OperationDefinition};
use async_graphql::{
    Context, EmptyMutation, EmptySubscription, ErrorExtensions, Name, Object, Schema, SimpleObject,
    Value as GraphqlValue, Variables,
};
use cost::{RootField, RootKind, Units};
use futures::future::BoxFuture;
use serde_json::{json, Value};
use std::sync::OnceLock;

pub(crate) type DictionarySchema = Schema<Query, EmptyMutation, EmptySubscription>;

/// The GraphQL explorer (GraphiQL, vendored and served by the playground from
/// `/assets/`), which a browser gets on a `GET` of this endpoint's path.
pub(crate) const EXPLORER_PAGE: &[u8] = include_bytes!("explorer.html");

/// Nesting deeper than any real query needs (`search { results { id } }` is 3).
/// Depth and complexity are the data's: introspection (`__schema`, `__type`)
/// has its own rule ([`introspection`]).
pub(crate) const MAX_DEPTH: usize = 6;
/// Every root field costs 10 plus its selection, so one request runs at most
/// a handful of lookups.
pub(crate) const MAX_COMPLEXITY: usize = 100;

/// The schema, built once per cold start. Its root resolvers run only with
/// a unit of their request ([`cost::PaidFields`]).
pub fn schema() -> &'static DictionarySchema {
    static SCHEMA: OnceLock<DictionarySchema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        Schema::build(Query, EmptyMutation, EmptySubscription)
            .limit_depth(MAX_DEPTH)
            .limit_complexity(MAX_COMPLEXITY)
            .extension(cost::PaidFields)
            .finish()
    })
}

/// The schema that runs a document holding introspection: no document-wide
/// limits (they were checked before, each part by its own rule:
/// [`introspection`]); its root resolvers too run only with a unit of
/// their request.
fn unlimited() -> &'static DictionarySchema {
    static SCHEMA: OnceLock<DictionarySchema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        Schema::build(Query, EmptyMutation, EmptySubscription)
            .extension(cost::PaidFields)
            .finish()
    })
}

/// What a request costs against the quota, known from its text alone
/// (parsed, admitted and its root fields counted, each in time linear in
/// the body) so that the quota is asked before any other work: one unit per
/// root data field that executes (`cost`), at least 1; 1 for a request that
/// cannot run (not JSON, a syntax error, refused by admission); nothing for
/// one over the root-field limit, which is answered 400 unrun. A document
/// that then fails validation gives back all but 1 ([`answer`]).
pub fn units(req: &ApiRequest) -> BoxFuture<'_, u64> {
    let units = units_of_body(&req.body);
    Box::pin(async move { units })
}

fn units_of_body(body: &[u8]) -> u64 {
    let Some(request) = parse_request(body) else {
        return 1;
    };
    match plan(request) {
        Plan::Refuse(_) => 1,
        Plan::TooManyRootFields => 0,
        Plan::Run { root_fields, .. } => cost::units_of(&root_fields),
    }
}

/// How a request is handled, decided the same way when it is priced and
/// when it runs.
enum Plan {
    /// Answered 400 with this message without running (costs 1).
    Refuse(String),
    /// More root fields than [`cost::MAX_ROOT_FIELDS`]: 400, not counted.
    TooManyRootFields,
    /// Given to `engine`, which validates it (a failure is 400 and costs 1)
    /// and runs `root_fields`.
    Run {
        request: Box<async_graphql::Request>,
        engine: &'static DictionarySchema,
        root_fields: Vec<RootField>,
        /// It selects `__schema` or `__type`, held to introspection's rule,
        /// and the rest to the data limits, before it runs.
        introspects: bool,
    },
}

fn plan(mut request: async_graphql::Request) -> Plan {
    // Parsed once here (the engine reuses it) to check variables and to know
    // the root fields; a syntax error is left to the engine to report.
    let Ok(document) = async_graphql::parser::parse_query(&request.query) else {
        return Plan::Run {
            request: Box::new(request),
            engine: schema(),
            root_fields: Vec::new(),
            introspects: false,
        };
    };
    // Before anything else reads the document: what it expands to.
    if let Err(message) = admission::admit(&document) {
        return Plan::Refuse(message);
    }
    // Quoted by the engine's "Unknown operation" message, so held to a name.
    if let Some(name) = request.operation_name.as_deref().filter(|n| !n.is_empty()) {
        if !is_graphql_name(name) {
            return Plan::Refuse(format!(
                "operationName must be a GraphQL name (letters, digits and '_', at most {MAX_NAME_CHARS} characters)"
            ));
        }
    }
    let mut root_fields = Vec::new();
    if let Some(operation) = chosen_operation(&document, request.operation_name.as_deref()) {
        if let Some(message) = missing_variable(operation, &request.variables) {
            return Plan::Refuse(message);
        }
        match cost::executed_root_fields(&document, operation, &request.variables) {
            Some(fields) => root_fields = fields,
            None => return Plan::TooManyRootFields,
        }
    }
    let introspects = introspection::introspects(&document);
    if introspects {
        if let Err(message) = introspection::check(&document) {
            return Plan::Refuse(message);
        }
    }
    request.set_parsed_query(document);
    Plan::Run {
        request: Box::new(request),
        // A document with introspection runs without document-wide limits:
        // each part was held to its own before.
        engine: if introspects { unlimited() } else { schema() },
        root_fields,
        introspects,
    }
}

/// The data limits on a document that introspects, measured on the
/// document without its introspection: the first error's message.
async fn data_limits(request: &mut async_graphql::Request) -> Result<(), String> {
    let Ok(document) = request.parsed_query() else {
        return Ok(());
    };
    let data_part = introspection::without_introspection(document);
    let mut data_only =
        async_graphql::Request::new(request.query.clone()).variables(request.variables.clone());
    data_only.operation_name = request.operation_name.clone();
    data_only.set_parsed_query(data_part);
    let checked = introspection::data_limits().execute(data_only).await;
    match checked.errors.first() {
        Some(error) => Err(error.message.clone()),
        None => Ok(()),
    }
}

/// Runs one GraphQL request. Requests that cannot run (not JSON, a syntax
/// error, an unknown field, a wrong argument type, a required variable not
/// given, too deep or too complex, too many root fields) answer 400 with
/// `BAD_USER_INPUT`; errors of single fields (not found, bad argument
/// values) answer 200 with that field `null` next to the data that could be
/// resolved.
pub(crate) async fn handle(app: &'static App, req: &ApiRequest) -> Result<Reply, ApiError> {
    answer(&req.body, req.units, |request| {
        let request = request.data(app);
        match &req.key {
            Some(key) => request.data(key.clone()),
            None => request,
        }
    })
    .await
}

/// Answers `body`, whose request was charged `units`; `with_data` gives the
/// resolvers what they read (the App, the key). A document that fails
/// validation runs nothing and costs 1, as any document that cannot run:
/// its answer gives back the rest of what was charged for its root fields.
async fn answer(
    body: &[u8],
    units: u64,
    with_data: impl FnOnce(async_graphql::Request) -> async_graphql::Request,
) -> Result<Reply, ApiError> {
    let Some(request) = parse_request(body) else {
        return Ok(bad_request(
            "Request body must be a JSON object with a query string",
        ));
    };
    let (mut request, engine, root_fields, introspects) = match plan(request) {
        Plan::Refuse(message) => return Ok(bad_request(&message)),
        Plan::TooManyRootFields => {
            return Ok(bad_request(&format!(
                "Query selects more than {} root fields (fragments expanded).",
                cost::MAX_ROOT_FIELDS
            )))
        }
        Plan::Run {
            request,
            engine,
            root_fields,
            introspects,
        } => (request, engine, root_fields, introspects),
    };
    let unrun = units.saturating_sub(1);
    if introspects {
        if let Err(message) = data_limits(&mut request).await {
            return Ok(bad_request(&message).giving_back(unrun));
        }
    }
    let response = engine
        .execute(with_data(*request).data(Units::new(units)))
        .await;
    // A field that storage could not serve fails the whole request with 503,
    // so that the caller retries rather than trusting a partial answer.
    let unavailable = graphql_code(&ApiError::Unavailable);
    if response.errors.iter().any(|e| {
        e.extensions
            .as_ref()
            .and_then(|x| x.get("code"))
            .is_some_and(|code| *code == async_graphql::Value::from(unavailable))
    }) {
        return Err(ApiError::Unavailable);
    }
    let request_failed = response.data == async_graphql::Value::Null
        && response.errors.iter().any(|e| e.path.is_empty());
    let mut body = serde_json::to_value(&response)
        .map_err(|e| ApiError::Internal(format!("GraphQL response: {e}")))?;
    // Errors the engine raised itself (parsing, validation, limits) carry no
    // code: they are all the caller's to fix. A syntax error quotes the line
    // of the document it is on, which may be the whole body: shown cut.
    if let Some(errors) = body.get_mut("errors").and_then(Value::as_array_mut) {
        for error in errors {
            if error.pointer("/extensions/code").is_none() {
                error["extensions"] = json!({"code": "BAD_USER_INPUT"});
                if let Some(message) = error["message"].as_str() {
                    error["message"] = json!(shown(message, MAX_MESSAGE_CHARS));
                }
            }
        }
    }
    if !request_failed {
        let keys = distinct_keys(&root_fields, |_| true);
        body["data"] = complete_root(&body, &keys);
        let introspected: usize =
            distinct_keys(&root_fields, |kind| kind == RootKind::Introspection)
                .iter()
                .filter_map(|key| body["data"].get(key))
                .map(|answer| answer.to_string().len())
                .sum();
        if introspected > introspection::MAX_ANSWER_BYTES {
            return Ok(bad_request(&format!(
                "Introspection answer is larger than {} KiB.",
                introspection::MAX_ANSWER_BYTES / 1024
            )));
        }
    }
    Ok(Reply::Raw {
        status: if request_failed { 400 } else { 200 },
        body,
        unused_units: if request_failed { unrun } else { 0 },
    })
}

/// The response keys of the root fields of `kind`, each once, in query order.
fn distinct_keys(fields: &[RootField], wanted: impl Fn(RootKind) -> bool) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for field in fields.iter().filter(|f| wanted(f.kind)) {
        if !keys.contains(&field.key) {
            keys.push(field.key.clone());
        }
    }
    keys
}

/// The request, if the body is a JSON object whose `query` is a string.
fn parse_request(body: &[u8]) -> Option<async_graphql::Request> {
    let value: Value = serde_json::from_slice(body).ok()?;
    value.get("query")?.as_str()?;
    serde_json::from_value(value).ok()
}

/// The longest message of the engine's answered as it is.
const MAX_MESSAGE_CHARS: usize = 300;

/// The longest `operationName` taken: far beyond any a client writes.
const MAX_NAME_CHARS: usize = 128;

/// Whether `name` is a GraphQL name (`/[_A-Za-z][_0-9A-Za-z]*/`), which an
/// error message may quote as it is.
fn is_graphql_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    name.len() <= MAX_NAME_CHARS
        && bytes
            .next()
            .is_some_and(|b| b == b'_' || b.is_ascii_alphabetic())
        && bytes.all(|b| b == b'_' || b.is_ascii_alphanumeric())
}

/// The operation a request runs: the one named by `operationName`, or the
/// only one. Anything else is left to the engine to report.
fn chosen_operation<'d>(
    document: &'d ExecutableDocument,
    name: Option<&str>,
) -> Option<&'d OperationDefinition> {
    match (&document.operations, name) {
        (DocumentOperations::Single(op), _) => Some(&op.node),
        (DocumentOperations::Multiple(ops), Some(name)) => ops
            .iter()
            .find(|(n, _)| n.as_str() == name)
            .map(|(_, op)| &op.node),
        // A named operation is stored here even when it is the only one.
        (DocumentOperations::Multiple(ops), None) if ops.len() == 1 => {
            ops.values().next().map(|op| &op.node)
        }
        (DocumentOperations::Multiple(_), None) => None,
    }
}

/// The message for the first variable of a non-null type, without a
/// default, that the request does not give. (The engine would only notice
/// while resolving, as a field error with status 200.)
fn missing_variable(operation: &OperationDefinition, variables: &Variables) -> Option<String> {
    operation
        .variable_definitions
        .iter()
        .find_map(|definition| {
            let definition = &definition.node;
            let given = variables
                .get(definition.name.node.as_str())
                .is_some_and(|v| *v != async_graphql::Value::Null);
            (!given && definition.default_value().is_none()).then(|| {
                format!(
                    "Variable ${} of required type {} was not provided",
                    definition.name.node, definition.var_type.node
                )
            })
        })
}

/// `data` of an executed operation as GraphQL specifies it: every root field
/// that failed is `null` beside the others (async-graphql leaves a failed
/// field out, and answers `null` for an operation whose fields were all
/// skipped), in the order of the query.
fn complete_root(body: &Value, root_keys: &[String]) -> Value {
    let data = body.get("data").and_then(Value::as_object);
    let failed: Vec<&str> = body
        .get("errors")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|e| match e.get("path").and_then(Value::as_array) {
            Some(path) if path.len() == 1 => path[0].as_str(),
            _ => None,
        })
        .collect();
    let mut out = serde_json::Map::new();
    for key in root_keys {
        if let Some(value) = data.and_then(|d| d.get(key)) {
            out.insert(key.clone(), value.clone());
        } else if failed.contains(&key.as_str()) {
            out.insert(key.clone(), Value::Null);
        }
    }
    // Anything the keys did not foresee keeps its place after them.
    for (key, value) in data.into_iter().flatten() {
        if !out.contains_key(key) {
            out.insert(key.clone(), value.clone());
        }
    }
    // An executed operation has an object, empty when every root field was
    // skipped (`@skip`, `@include(if: false)`).
    Value::Object(out)
}

fn bad_request(message: &str) -> Reply {
    Reply::Raw {
        status: 400,
        body: json!({
            "data": null,
            "errors": [{"message": message, "extensions": {"code": "BAD_USER_INPUT"}}],
        }),
        unused_units: 0,
    }
}

/// A service error as a GraphQL error with `extensions.code`. Internal
/// details are logged, never shown.
fn field_error(err: ApiError) -> async_graphql::Error {
    if let ApiError::Internal(detail) = &err {
        tracing::error!(detail = detail.as_str(), "GraphQL field failed");
    }
    let code = graphql_code(&err);
    let mut error = async_graphql::Error::new(err.public_message());
    if let ApiError::EntryNotFound { suggestions } = &err {
        if !suggestions.is_empty() {
            error = error.extend_with(|_, e| e.set("suggestions", suggestions.clone()));
        }
    }
    error.extend_with(|_, e| e.set("code", code))
}

type FieldResult<T> = Result<T, async_graphql::Error>;

fn app<'a>(ctx: &Context<'a>) -> &'a App {
    ctx.data_unchecked::<&'static App>()
}

/// The arguments of the field being resolved, variables substituted: GraphQL's
/// [`ParamSource`]. The schema has already checked each value's type (a
/// `String` argument is a string), so a value of another kind is never given.
struct FieldArguments(Vec<(Name, GraphqlValue)>);

impl FieldArguments {
    fn of(ctx: &Context<'_>) -> FieldResult<Self> {
        Ok(Self(ctx.field().arguments()?))
    }

    fn get(&self, name: &str) -> Option<&GraphqlValue> {
        self.0
            .iter()
            .find(|(n, _)| n.as_str() == name)
            .map(|(_, v)| v)
    }
}

impl ParamSource for FieldArguments {
    fn text(&self, name: &str) -> Result<Option<&str>, ApiError> {
        match self.get(name) {
            Some(GraphqlValue::String(text)) => within_length(name, text).map(Some),
            _ => Ok(None),
        }
    }

    fn integer(&self, name: &str, min: u32, max: u32) -> Result<Option<u32>, ApiError> {
        match self.get(name) {
            Some(GraphqlValue::Number(n)) => match n.as_i64() {
                Some(v) if (i64::from(min)..=i64::from(max)).contains(&v) => Ok(Some(v as u32)),
                _ => Err(out_of_range(name, min, max)),
            },
            _ => Ok(None),
        }
    }

    fn flag(&self, name: &str) -> Result<Option<bool>, ApiError> {
        match self.get(name) {
            Some(GraphqlValue::Boolean(b)) => Ok(Some(*b)),
            _ => Ok(None),
        }
    }
}

/// A usage example and the entry it comes from.
#[derive(SimpleObject, Debug, Clone, PartialEq)]
pub(crate) struct UsageExample {
    pub text: String,
    pub word: String,
    pub entry_id: String,
    pub dictionary_id: String,
    pub dictionary_name: String,
}

/// Every root field is nullable: a field that fails (a bad argument, not
/// found) is `null` with its error, and the other fields of the request keep
/// their data, instead of the whole `data` turning null.
pub struct Query;

#[Object]
impl Query {
    /// Search all dictionaries; arguments and rules as `GET /api/v1/api/search`.
    #[graphql(complexity = "10 + child_complexity")]
    // The signature is the schema's list of arguments, one each.
    #[allow(unused_variables, clippy::too_many_arguments)]
    async fn search(
        &self,
        ctx: &Context<'_>,
        q: String,
        lang: Option<String>,
        source: Option<String>,
        match_type: Option<String>,
        pos: Option<String>,
        has_audio: Option<bool>,
        fuzzy: Option<bool>,
        group: Option<String>,
        limit: Option<i64>,
        offset: Option<i64>,
    ) -> FieldResult<Option<SearchPage>> {
        let query = SearchQuery::read(&FieldArguments::of(ctx)?).map_err(field_error)?;
        service::search(app(ctx), &query)
            .await
            .map(Some)
            .map_err(field_error)
    }

    /// Reverse lookup: the entries whose definition or translation says the
    /// words of `q`; arguments and rules as `GET /api/v1/api/reverse`.
    #[graphql(complexity = "10 + child_complexity")]
    // The signature is the schema's list of arguments, one each.
    #[allow(unused_variables, clippy::too_many_arguments)]
    async fn reverse(
        &self,
        ctx: &Context<'_>,
        q: String,
        lang: Option<String>,
        source: Option<String>,
        pos: Option<String>,
        has_audio: Option<bool>,
        group: Option<String>,
        limit: Option<i64>,
        offset: Option<i64>,
    ) -> FieldResult<Option<SearchPage>> {
        let query = ReverseQuery::read(&FieldArguments::of(ctx)?).map_err(field_error)?;
        service::reverse(app(ctx), &query)
            .await
            .map(Some)
            .map_err(field_error)
    }

    /// Prefix suggestions; as `GET /api/v1/api/autocomplete`.
    #[graphql(complexity = "10 + child_complexity")]
    #[allow(unused_variables)]
    async fn autocomplete(
        &self,
        ctx: &Context<'_>,
        q: String,
        lang: Option<String>,
        source: Option<String>,
        limit: Option<i64>,
    ) -> FieldResult<Option<Vec<String>>> {
        let query = AutocompleteQuery::read(&FieldArguments::of(ctx)?).map_err(field_error)?;
        service::autocomplete(app(ctx), &query)
            .await
            .map(Some)
            .map_err(field_error)
    }

    /// The usage examples of the entries whose headword is `q` (exactly, after
    /// folding), in search order: of the first 10 such entries.
    #[graphql(complexity = "10 + child_complexity")]
    #[allow(unused_variables)]
    async fn examples(
        &self,
        ctx: &Context<'_>,
        q: String,
        lang: Option<String>,
        source: Option<String>,
    ) -> FieldResult<Option<Vec<UsageExample>>> {
        let query = SearchQuery::read(&FieldArguments::of(ctx)?).map_err(field_error)?;
        let entries = service::examples(app(ctx), &query)
            .await
            .map_err(field_error)?;
        Ok(Some(
            entries
                .into_iter()
                .flat_map(|e| {
                    e.examples
                        .iter()
                        .map(|text| UsageExample {
                            text: text.clone(),
                            word: e.word.clone(),
                            entry_id: e.id.clone(),
                            dictionary_id: e.dictionary_id.clone(),
                            dictionary_name: e.dictionary_name.clone(),
                        })
                        .collect::<Vec<_>>()
                })
                .collect(),
        ))
    }

    /// Related words; as `GET /api/v1/api/thesaurus/{word}`.
    #[graphql(complexity = "10 + child_complexity")]
    #[allow(unused_variables)]
    async fn thesaurus(
        &self,
        ctx: &Context<'_>,
        word: String,
        lang: Option<String>,
        source: Option<String>,
    ) -> FieldResult<Option<Vec<ThesaurusItem>>> {
        let query = ThesaurusQuery::read(&word, &FieldArguments::of(ctx)?).map_err(field_error)?;
        service::thesaurus(app(ctx), &query)
            .await
            .map(Some)
            .map_err(field_error)
    }

    /// Words that rhyme with a word; arguments and rules as
    /// `GET /api/v1/api/rhymes/{word}`.
    #[graphql(complexity = "10 + child_complexity")]
    // The signature is the schema's list of arguments, one each.
    #[allow(unused_variables, clippy::too_many_arguments)]
    async fn rhymes(
        &self,
        ctx: &Context<'_>,
        word: String,
        lang: Option<String>,
        source: Option<String>,
        pos: Option<String>,
        kind: Option<String>,
        limit: Option<i64>,
        offset: Option<i64>,
    ) -> FieldResult<Option<RhymePage>> {
        let query = RhymesQuery::read(&word, &FieldArguments::of(ctx)?).map_err(field_error)?;
        service::rhymes(app(ctx), &query)
            .await
            .map(Some)
            .map_err(field_error)
    }

    /// Random headwords; as `GET /api/v1/random`.
    #[graphql(complexity = "10 + child_complexity")]
    #[allow(unused_variables)]
    async fn random(
        &self,
        ctx: &Context<'_>,
        lang: Option<String>,
        source: Option<String>,
        has_audio: Option<bool>,
        count: Option<i64>,
    ) -> FieldResult<Option<Vec<RandomItem>>> {
        let query = RandomQuery::read(&FieldArguments::of(ctx)?).map_err(field_error)?;
        service::random(app(ctx), &query)
            .await
            .map(Some)
            .map_err(field_error)
    }

    /// One entry by id; as `GET /api/v1/entry/{source}/{id}`.
    #[graphql(complexity = "10 + child_complexity")]
    async fn entry(
        &self,
        ctx: &Context<'_>,
        id: String,
        source: String,
    ) -> FieldResult<Option<Entry>> {
        let source = validate_dictionary_id("source", &source).map_err(field_error)?;
        let id = validate_entry_id("id", &id).map_err(field_error)?;
        service::entry_by_id(app(ctx), &source, &id)
            .await
            .map(Some)
            .map_err(field_error)
    }

    /// One entry by word; as `GET /api/v1/api/entry/{source}/word/{word}`.
    #[graphql(complexity = "10 + child_complexity")]
    async fn word_entry(
        &self,
        ctx: &Context<'_>,
        word: String,
        source: String,
    ) -> FieldResult<Option<Entry>> {
        let source = validate_dictionary_id("source", &source).map_err(field_error)?;
        let word = path_word(&word).map_err(field_error)?;
        service::entry_by_word(app(ctx), &source, &word)
            .await
            .map(Some)
            .map_err(field_error)
    }

    /// Every dictionary; as `GET /api/v1/api/dictionaries`.
    #[graphql(complexity = "10 + child_complexity")]
    async fn dictionaries(&self, ctx: &Context<'_>) -> FieldResult<Option<Vec<Dictionary>>> {
        service::dictionaries(app(ctx))
            .await
            .map(Some)
            .map_err(field_error)
    }

    /// The caller's plan and usage; as `GET /api/v1/api/me/usage`.
    #[graphql(complexity = "10 + child_complexity")]
    async fn usage(&self, ctx: &Context<'_>) -> FieldResult<Option<UsageRecord>> {
        let key = ctx
            .data_opt::<KeyRecord>()
            .ok_or_else(|| field_error(ApiError::MissingKey))?;
        service::usage(app(ctx), key)
            .await
            .map(Some)
            .map_err(field_error)
    }
}

#[cfg(test)]
mod tests;
