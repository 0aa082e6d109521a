//! Helpers for the black-box tests: they talk HTTP to the running local stack
//! (`make test` starts it) and use the admin command line to make keys.

use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::http::{
    http_client_fn, HttpClient, HttpConnector, HttpConnectorFuture, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::interceptors::context::{
    BeforeDeserializationInterceptorContextRef, BeforeTransmitInterceptorContextRef,
};
use aws_smithy_runtime_api::client::interceptors::Intercept;
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, Metadata};
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::config_bag::{ConfigBag, Storable, StoreReplace};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Instant;

pub fn api_url() -> String {
    std::env::var("API_URL").unwrap_or_else(|_| "http://127.0.0.1:9000".to_string())
}

/// The local demo key (pro plan), created by `make up`.
pub fn demo_key() -> String {
    std::env::var("DEMO_KEY").unwrap_or_else(|_| "dk_localDemoKey00000000000000000000".to_string())
}

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the repo")
        .to_path_buf()
}

/// A response, with its body parsed as JSON when it is JSON.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub text: String,
    pub json: Value,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The `error` of a failure envelope, asserting the envelope's shape.
    pub fn error(&self) -> &str {
        assert_eq!(
            self.json["ok"],
            Value::Bool(false),
            "not a failure envelope: {}",
            self.text
        );
        self.json["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error string: {}", self.text))
    }

    /// The `data` of a success envelope, asserting the envelope's shape.
    pub fn data(&self) -> &Value {
        assert_eq!(self.status, 200, "{}", self.text);
        assert_eq!(
            self.json["ok"],
            Value::Bool(true),
            "not a success envelope: {}",
            self.text
        );
        assert!(
            self.json["meta"]["took_ms"].is_u64(),
            "meta.took_ms missing: {}",
            self.text
        );
        &self.json["data"]
    }

    /// [`Reply::data`], [`unsigned`].
    pub fn unsigned_data(&self) -> Value {
        unsigned(self.data())
    }
}

/// `value` with the query cut from every presigned URL in it. Presigned
/// audio URLs carry the second they were signed in, so two replies a second
/// apart differ there and nowhere else.
pub fn unsigned(value: &Value) -> Value {
    let mut value = value.clone();
    cut_signatures(&mut value);
    value
}

fn cut_signatures(value: &mut Value) {
    match value {
        Value::String(text) if text.contains("X-Amz-Signature=") => {
            text.truncate(text.find('?').unwrap_or(text.len()));
        }
        Value::Array(items) => items.iter_mut().for_each(cut_signatures),
        Value::Object(fields) => fields.values_mut().for_each(cut_signatures),
        _ => {}
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(std::time::Duration::from_secs(60))
        .build()
        .expect("client")
}

async fn into_reply(response: reqwest::Response) -> Reply {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.expect("body");
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        text,
        json,
    }
}

/// GET `path` (already percent-encoded) with `key`, if any.
pub async fn get(path: &str, key: Option<&str>) -> Reply {
    send(reqwest::Method::GET, path, key, None).await
}

/// GET with the demo key.
pub async fn get_demo(path: &str) -> Reply {
    get(path, Some(&demo_key())).await
}

/// The GraphQL endpoint.
pub const GRAPHQL_PATH: &str = "/api/v1/api/graphql";

/// POSTs a GraphQL request body (`{"query": …, "variables": …}`) with
/// `key`, if any.
pub async fn graphql_body(key: Option<&str>, body: &Value) -> Reply {
    send(
        reqwest::Method::POST,
        GRAPHQL_PATH,
        key,
        Some(body.to_string()),
    )
    .await
}

/// POSTs `query` with `variables` and `key`.
pub async fn graphql_as(key: &str, query: &str, variables: Value) -> Reply {
    graphql_body(
        Some(key),
        &serde_json::json!({"query": query, "variables": variables}),
    )
    .await
}

/// The GraphQL document of issue 36, built to hide work: a search whose
/// result spreads `F0`, each fragment spreading the next twice, the last
/// selecting `id` (a kilobyte at 20 levels, a million selections expanded).
pub fn fragment_chain(levels: usize) -> String {
    let mut query = String::from("{ search(q: \"bank\", limit: 1) { results { ...F0 } } }\n");
    for i in 0..levels - 1 {
        query.push_str(&format!(
            "fragment F{i} on SearchResult {{ ...F{n} ...F{n} }}\n",
            n = i + 1
        ));
    }
    query + &format!("fragment F{} on SearchResult {{ id }}\n", levels - 1)
}

/// POSTs `query` with `variables` and the demo key.
pub async fn graphql(query: &str, variables: Value) -> Reply {
    graphql_as(&demo_key(), query, variables).await
}

pub async fn send(
    method: reqwest::Method,
    path: &str,
    key: Option<&str>,
    body: Option<String>,
) -> Reply {
    let mut attempt = 1;
    loop {
        let mut request = client().request(method.clone(), format!("{}{path}", api_url()));
        if let Some(key) = key {
            request = request.header("Authorization", format!("Bearer {key}"));
        }
        if let Some(body) = &body {
            request = request
                .header("Content-Type", "application/json")
                .body(body.clone());
        }
        let reply = into_reply(
            request
                .send()
                .await
                .expect("the local stack answers (is `make up` running?)"),
        )
        .await;
        if attempt < 3 && is_emulator_failure(&reply) {
            eprintln!("cargo lambda watch answered its own 500 for {method} {path}; retrying");
            EMULATOR_RETRIES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            attempt += 1;
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            continue;
        }
        return reply;
    }
}

/// Requests [`send`] sent again after `cargo lambda watch`'s own 500.
static EMULATOR_RETRIES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many requests [`send`] has sent again so far. The function may have
/// served (and counted) the attempt the emulator answered for, so a test
/// that bounds a key's usage by the requests it sent adds these.
pub fn emulator_retries() -> u64 {
    EMULATOR_RETRIES.load(std::sync::atomic::Ordering::SeqCst)
}

/// `cargo lambda watch` now and then answers a 500 of its own (a problem
/// document, `{"type": "https://httpstatuses.com/500", …}`), mostly without
/// the function seeing the request, but not always: the function may have
/// answered (and counted it) when the emulator lost the answer. Our
/// functions never answer that shape (their 500 is the `Internal error`
/// envelope), so only it is retried.
fn is_emulator_failure(reply: &Reply) -> bool {
    reply.status == 500 && reply.json["type"] == "https://httpstatuses.com/500"
}

/// The `dictadmin` binary of this build, wherever the target directory is
/// (`CARGO_TARGET_DIR` included): beside the test binary's `deps/` folder.
pub fn dictadmin_path() -> PathBuf {
    let test_binary = std::env::current_exe().expect("the test binary's path");
    let profile_dir = test_binary
        .parent()
        .and_then(|deps| deps.parent())
        .expect("test binaries live in <target>/<profile>/deps");
    profile_dir.join("dictadmin")
}

/// Runs dictadmin against `table` instead of the stack's entries table (a
/// scratch table of one test), with `extra_env` and its import state in
/// `state_dir`: its output, whether or not it succeeded.
pub fn dictadmin_on_table(
    table: &str,
    args: &[&str],
    extra_env: &[(&str, &str)],
    state_dir: &std::path::Path,
) -> std::process::Output {
    Command::new(dictadmin_path())
        .current_dir(repo_root())
        .args(args)
        .envs(stack_env())
        .env("ENTRIES_TABLE", table)
        .envs(extra_env.iter().copied())
        .env("DICTADMIN_STATE_DIR", state_dir)
        .output()
        .expect("dictadmin runs")
}

/// A function binary of this build (`entry-by-word`, …), beside dictadmin.
pub fn function_binary(name: &str) -> PathBuf {
    dictadmin_path().with_file_name(name)
}

/// The functions that do not answer their sample event (events/) with 200,
/// and what they answer.
pub const NOT_200: &[(&str, &[u64])] = &[("audio", &[302]), ("not-found", &[404])];

/// What `function` answers its sample event (events/`function`.json) with.
pub fn sample_event_statuses(function: &str) -> &'static [u64] {
    NOT_200
        .iter()
        .find(|(f, _)| *f == function)
        .map_or(&[200], |(_, statuses)| statuses)
}

/// Runs the admin command line with the local stack's environment.
pub fn dictadmin(args: &[&str]) -> String {
    let output = Command::new(dictadmin_path())
        .args(args)
        .envs(stack_env())
        .output()
        .expect("dictadmin runs");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "dictadmin {args:?} failed: {stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// The variables of infra/local/stack.env.
pub fn stack_env() -> Vec<(String, String)> {
    let text =
        std::fs::read_to_string(repo_root().join("infra/local/stack.env")).expect("stack.env");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            l.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
        })
        .collect()
}

/// A new key; returns (secret, key id).
pub fn create_key(plan: &str, limit: Option<u64>) -> (String, String) {
    let limit_text = limit.map(|l| l.to_string());
    let mut args = vec!["keys", "create", "--name", "black-box test", "--plan", plan];
    if let Some(limit) = &limit_text {
        args.extend(["--limit", limit.as_str()]);
    }
    let out = dictadmin(&args);
    let secret = out
        .lines()
        .find_map(|l| l.strip_prefix("API key: "))
        .expect("secret printed")
        .trim()
        .to_string();
    let key_id = out
        .split_whitespace()
        .nth(1)
        .expect("key id printed")
        .to_string();
    (secret, key_id)
}

/// Percent-encodes one path segment or query value.
pub fn enc(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

/// The stack's configuration, and AWS clients for it, for tests that talk to
/// DynamoDB Local directly through `shared`.
pub async fn stack_clients() -> (
    shared::runtime::app::Clients,
    shared::runtime::config::Config,
) {
    let env = stack_env();
    let config = shared::runtime::config::Config::from_lookup(|name| {
        env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    })
    .expect("stack.env names every variable");
    // The SDK reads credentials and region from the process environment.
    for (name, value) in &env {
        std::env::set_var(name, value);
    }
    (shared::runtime::app::Clients::new(&config).await, config)
}

/// A request for `pipeline::serve` in-process, with `key`: a GET of `path`, or
/// a POST of `graphql_query` to it.
pub fn lambda_request(path: &str, key: &str, graphql_query: Option<&str>) -> lambda_http::Request {
    let builder = lambda_http::http::Request::builder()
        .uri(path)
        .header("authorization", format!("Bearer {key}"));
    match graphql_query {
        Some(query) => builder
            .method("POST")
            .header("content-type", "application/json")
            .body(lambda_http::Body::Text(
                serde_json::json!({ "query": query }).to_string(),
            )),
        None => builder.body(lambda_http::Body::Empty),
    }
    .expect("a valid request")
}

/// The dictionary record of `dictionary` in `table`, if it is listed (read
/// consistently: an import lists it last).
pub async fn listed_dictionary(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    dictionary: &str,
) -> Option<shared::model::Dictionary> {
    let item = client
        .get_item()
        .table_name(table)
        .key(
            "pk",
            aws_sdk_dynamodb::types::AttributeValue::S(
                shared::storage::items::DICTIONARIES_PK.into(),
            ),
        )
        .key(
            "sk",
            aws_sdk_dynamodb::types::AttributeValue::S(dictionary.into()),
        )
        .consistent_read(true)
        .send()
        .await
        .expect("GetItem of a dictionary record")
        .item?;
    Some(shared::storage::items::dictionary_from_item(&item).expect("a dictionary record"))
}

/// One entry as the test oracles see it.
#[derive(Debug, Clone)]
pub struct OracleEntry {
    pub dictionary: String,
    pub id: String,
    pub word: String,
    pub pos: Option<String>,
    pub has_audio: bool,
    pub source_lang: String,
    pub target_lang: Option<String>,
}

/// Every entry in the table, read with a Scan of the `ByWord` index (tests may
/// scan; request paths never do).
pub async fn all_entries() -> Vec<OracleEntry> {
    let (clients, config) = stack_clients().await;
    let items: Vec<_> = clients
        .dynamodb
        .scan()
        .table_name(&config.entries_table)
        .index_name("ByWord")
        .into_paginator()
        .items()
        .send()
        .try_collect()
        .await
        .expect("scan");
    items
        .iter()
        .map(|item| {
            let s = |n: &str| item.get(n).and_then(|v| v.as_s().ok()).cloned();
            OracleEntry {
                dictionary: s("dictionaryId").unwrap(),
                id: s("id").unwrap(),
                word: s("word").unwrap(),
                pos: s("partOfSpeech"),
                has_audio: item.get("hasAudio").and_then(|v| v.as_bool().ok()) == Some(&true),
                source_lang: s("sourceLang").unwrap(),
                target_lang: s("targetLang"),
            }
        })
        .collect()
}

/// Every item a Scan finds, page by page (tests may scan; request paths
/// never do).
pub async fn scanned(
    scan: aws_sdk_dynamodb::operation::scan::builders::ScanFluentBuilder,
) -> Vec<shared::storage::items::Item> {
    scan.into_paginator()
        .items()
        .send()
        .try_collect()
        .await
        .expect("scan")
}

/// An item's primary key (`pk`, `sk`).
pub fn key_of(item: &shared::storage::items::Item) -> (String, String) {
    let s = |k: &str| item[k].as_s().expect("a string key").clone();
    (s("pk"), s("sk"))
}

/// The lexicon the stack's index was built with (forms and frequencies of
/// every language), read as `dictadmin index` reads it, for the oracles.
pub async fn stored_lexicon() -> shared::search::lexicon::Lexicon {
    use shared::storage::items;
    let (clients, config) = stack_clients().await;
    // Every item of a partition, page by page (a list is megabytes).
    let partition = |pk: String| {
        let (clients, table) = (&clients, &config.entries_table);
        async move {
            let items: Vec<items::Item> = clients
                .dynamodb
                .query()
                .table_name(table)
                .key_condition_expression("pk = :pk")
                .expression_attribute_values(":pk", aws_sdk_dynamodb::types::AttributeValue::S(pk))
                .into_paginator()
                .items()
                .send()
                .try_collect()
                .await
                .expect("query");
            items
        }
    };
    let mut lexicon = shared::search::lexicon::Lexicon::default();
    for item in partition(items::LEXICON_PK.to_string()).await {
        let list = items::lexicon_list_from_item(&item).expect("a lexicon list");
        let pk = items::lexicon_pk(list.kind, &list.lang);
        let chunks = items::current_chunks(&partition(pk).await).expect("chunks");
        assert_eq!(chunks.chunks.len(), chunks.expected, "a whole list");
        for (_, bytes) in chunks.chunks {
            let pairs = shared::search::lexicon::decode_chunk(&bytes).expect("a chunk");
            lexicon.add(list.kind, &list.lang, pairs).expect("pairs");
        }
    }
    lexicon.drop_misspelled_forms();
    lexicon
}

/// One DynamoDB request as sent: its operation name, its JSON body, and
/// when it went out and its answer came back (`None` if none did).
#[derive(Debug, Clone)]
pub struct DynamoCall {
    pub operation: String,
    pub body: Value,
    pub sent: Instant,
    pub answered: Option<Instant>,
    number: u64,
}

impl DynamoCall {
    /// A call sent now and not answered (for tests of the checks on calls).
    pub fn new(operation: &str, body: Value) -> Self {
        Self {
            operation: operation.to_string(),
            body,
            sent: Instant::now(),
            answered: None,
            number: 0,
        }
    }
}

/// Records every DynamoDB request a client sends, once per attempt (a retry
/// is a round trip too).
#[derive(Debug, Clone, Default)]
pub struct CallRecorder(Arc<Mutex<Recorded>>);

#[derive(Debug, Default)]
struct Recorded {
    calls: Vec<DynamoCall>,
    sent: u64,
}

/// Which recorded call an attempt is, kept in the attempt's config bag
/// from its sending to its answer.
#[derive(Debug, Clone)]
struct CallNumber(u64);

impl Storable for CallNumber {
    type Storer = StoreReplace<Self>;
}

impl CallRecorder {
    /// The calls recorded since the last `take`.
    pub fn take(&self) -> Vec<DynamoCall> {
        std::mem::take(&mut self.0.lock().unwrap().calls)
    }

    /// The operation names recorded since the last `take`.
    pub fn take_operations(&self) -> Vec<String> {
        self.take().into_iter().map(|c| c.operation).collect()
    }
}

impl Intercept for CallRecorder {
    fn name(&self) -> &'static str {
        "CallRecorder"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let operation = cfg.load::<Metadata>().map_or("?", Metadata::name);
        let body = context
            .request()
            .body()
            .bytes()
            .and_then(|b| serde_json::from_slice(b).ok())
            .unwrap_or_default();
        let mut recorded = self.0.lock().unwrap();
        recorded.sent += 1;
        let number = recorded.sent;
        recorded.calls.push(DynamoCall {
            number,
            ..DynamoCall::new(operation, body)
        });
        cfg.interceptor_state().store_put(CallNumber(number));
        Ok(())
    }

    fn read_after_transmit(
        &self,
        _context: &BeforeDeserializationInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Some(CallNumber(number)) = cfg.load::<CallNumber>().cloned() else {
            return Ok(());
        };
        let mut recorded = self.0.lock().unwrap();
        if let Some(call) = recorded.calls.iter_mut().find(|c| c.number == number) {
            call.answered = Some(Instant::now());
        }
        Ok(())
    }
}

/// How many round trips these calls took one after another: the longest
/// chain of calls each sent after the one before it was answered. Calls on
/// the wire together (as `try_join!` sends them) are one round trip; a call
/// sent as soon as another came back is the next one, whether or not it
/// needed its answer. A call never answered ends when it was sent. Count
/// the calls of a [`distant_app`], whose round trips are long beside the
/// time spent between them.
pub fn round_trips(calls: &[DynamoCall]) -> usize {
    let mut spans: Vec<(Instant, Instant)> = calls
        .iter()
        .map(|c| (c.sent, c.answered.unwrap_or(c.sent)))
        .collect();
    spans.sort();
    // The longest chain ending with each call, in the order sent.
    let mut chain = vec![0; spans.len()];
    for i in 0..spans.len() {
        let before = (0..i).filter(|&j| spans[j].1 < spans[i].0);
        chain[i] = 1 + before.map(|j| chain[j]).max().unwrap_or(0);
    }
    chain.into_iter().max().unwrap_or(0)
}

/// The `(pk, sk)` of every snapshot item (`S#…`) that these calls asked
/// for with BatchGetItem, once per time it was asked.
pub fn snapshot_items_asked(calls: &[DynamoCall]) -> Vec<(String, String)> {
    let mut asked = Vec::new();
    for call in calls.iter().filter(|c| c.operation == "BatchGetItem") {
        let Some(tables) = call.body["RequestItems"].as_object() else {
            continue;
        };
        for request in tables.values() {
            for key in request["Keys"].as_array().into_iter().flatten() {
                let pk = key["pk"]["S"].as_str().unwrap_or_default();
                if pk.starts_with("S#") {
                    let sk = key["sk"]["S"].as_str().unwrap_or_default();
                    asked.push((pk.to_string(), sk.to_string()));
                }
            }
        }
    }
    asked
}

/// Holds every BatchGetItem before it is sent while closed, so that a test
/// can let a request's deadline fire in the middle of a load. It blocks the
/// sending thread (interceptors are synchronous): only for tests on a
/// multi-threaded runtime, closed for well under the SDK's attempt timeout.
#[derive(Debug, Clone, Default)]
pub struct Gate(Arc<(Mutex<GateState>, std::sync::Condvar)>);

#[derive(Debug, Default)]
struct GateState {
    closed: bool,
    held: usize,
}

impl Gate {
    pub fn close(&self) {
        self.0 .0.lock().unwrap().closed = true;
    }

    pub fn open(&self) {
        self.0 .0.lock().unwrap().closed = false;
        self.0 .1.notify_all();
    }

    /// How many calls the gate has held so far.
    pub fn held(&self) -> usize {
        self.0 .0.lock().unwrap().held
    }
}

impl Intercept for Gate {
    fn name(&self) -> &'static str {
        "Gate"
    }

    fn read_before_transmit(
        &self,
        _context: &BeforeTransmitInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if cfg.load::<Metadata>().map(Metadata::name) != Some("BatchGetItem") {
            return Ok(());
        }
        let (state, opened) = &*self.0;
        let mut state = state.lock().unwrap();
        if state.closed {
            state.held += 1;
            while state.closed {
                state = opened.wait(state).unwrap();
            }
        }
        Ok(())
    }
}

/// A cold instance of the service on the local stack, as [`recorded_app`],
/// whose BatchGetItem calls also pass through `gate`.
pub async fn gated_app(gate: &Gate) -> (shared::App, CallRecorder) {
    let (clients, config) = stack_clients().await;
    let (dynamodb, recorder) = recorded(&clients.dynamodb);
    let dynamodb = aws_sdk_dynamodb::Client::from_conf(
        dynamodb
            .config()
            .to_builder()
            .interceptor(gate.clone())
            .build(),
    );
    let clients = shared::runtime::app::Clients {
        dynamodb,
        ..clients
    };
    let app = shared::App::new(config, clients, shared::runtime::app::system_clock);
    (app, recorder)
}

/// A cold instance of the service on the local stack, as [`recorded_app`],
/// whose DynamoDB answers each arrive [`DISTANT_LATENCY`] late: far enough
/// that the time the instance spends between a read's answer and the next
/// read (a debug build decoding the root takes milliseconds) is small beside
/// a round trip, so [`round_trips`] counts the reads that waited for others
/// and not the ones that merely came later.
pub async fn distant_app() -> (shared::App, CallRecorder) {
    let (clients, config) = stack_clients().await;
    let near = clients.dynamodb.config();
    let wire = near
        .http_client()
        .expect("the stack's DynamoDB client has an HTTP client");
    let far = aws_sdk_dynamodb::Client::from_conf(
        near.to_builder()
            .http_client(http_client_fn(move |settings, components| {
                SharedHttpConnector::new(Late(wire.http_connector(settings, components)))
            }))
            .build(),
    );
    let (dynamodb, recorder) = recorded(&far);
    let clients = shared::runtime::app::Clients {
        dynamodb,
        ..clients
    };
    let app = shared::App::new(config, clients, shared::runtime::app::system_clock);
    (app, recorder)
}

/// How late [`distant_app`]'s answers arrive. With 40 ms, a one-letter
/// prefix search once counted a fourth round trip in CI (one run of two,
/// not reproduced since): most likely a read sent after a debug build's
/// decoding that outlasted another read's answer. A later answer leaves
/// such races more room; a read that truly waits for another counts alike.
pub const DISTANT_LATENCY: std::time::Duration = std::time::Duration::from_millis(100);

/// A connection whose answers arrive [`DISTANT_LATENCY`] after the wire's.
#[derive(Debug)]
struct Late(SharedHttpConnector);

impl HttpConnector for Late {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let answer = self.0.call(request);
        HttpConnectorFuture::new(async move {
            let answer = answer.await;
            tokio::time::sleep(DISTANT_LATENCY).await;
            answer
        })
    }
}

/// A client like `client` whose calls are recorded.
pub fn recorded(client: &aws_sdk_dynamodb::Client) -> (aws_sdk_dynamodb::Client, CallRecorder) {
    let recorder = CallRecorder::default();
    let recorded = aws_sdk_dynamodb::Client::from_conf(
        client
            .config()
            .to_builder()
            .interceptor(recorder.clone())
            .build(),
    );
    (recorded, recorder)
}

/// A cold instance of the service on the local stack (empty caches), whose
/// DynamoDB calls are recorded.
pub async fn recorded_app() -> (shared::App, CallRecorder) {
    let (clients, config) = stack_clients().await;
    let (dynamodb, recorder) = recorded(&clients.dynamodb);
    let clients = shared::runtime::app::Clients {
        dynamodb,
        ..clients
    };
    let app = shared::App::new(config, clients, shared::runtime::app::system_clock);
    (app, recorder)
}

/// Creates an empty table keyed like the stack's (`pk` hash, `sk` range,
/// both strings, on demand): what tests that write a snapshot of their own
/// write it into.
pub async fn create_pk_sk_table(client: &aws_sdk_dynamodb::Client, table: &str) {
    use aws_sdk_dynamodb::types::{
        AttributeDefinition, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType,
    };
    let mut create = client
        .create_table()
        .table_name(table)
        .billing_mode(BillingMode::PayPerRequest);
    for (key, key_type) in [("pk", KeyType::Hash), ("sk", KeyType::Range)] {
        create = create
            .attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name(key)
                    .attribute_type(ScalarAttributeType::S)
                    .build()
                    .expect("a complete attribute definition"),
            )
            .key_schema(
                KeySchemaElement::builder()
                    .attribute_name(key)
                    .key_type(key_type)
                    .build()
                    .expect("a complete key schema element"),
            );
    }
    create.send().await.expect("create table");
}

/// Runs `checks` on the scratch table `table`, then deletes the table
/// whether or not they passed, and fails as they did.
pub async fn on_scratch_table(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
    checks: impl std::future::Future<Output = ()>,
) {
    use futures::FutureExt;
    let checked = std::panic::AssertUnwindSafe(checks).catch_unwind().await;
    client
        .delete_table()
        .table_name(table)
        .send()
        .await
        .expect("delete table");
    if let Err(panic) = checked {
        std::panic::resume_unwind(panic);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn calls_on_the_wire_together_are_one_round_trip() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let call = |sent: u64, answered: Option<u64>| DynamoCall {
            sent: at(sent),
            answered: answered.map(at),
            ..DynamoCall::new("BatchGetItem", Value::Null)
        };
        assert_eq!(round_trips(&[]), 0);
        // Two sent together, then one after both answered.
        let calls = [call(0, Some(5)), call(1, Some(9)), call(10, Some(12))];
        assert_eq!(round_trips(&calls), 2);
        // In any order. A call sent after the first came back follows it,
        // though the second was still on the wire.
        let calls = [call(6, Some(8)), call(0, Some(5)), call(1, Some(11))];
        assert_eq!(round_trips(&calls), 2);
        let calls = [call(9, Some(12)), call(6, Some(8)), call(0, Some(5))];
        assert_eq!(round_trips(&[&calls[..], &[call(1, Some(11))]].concat()), 3);
        // Three one after another; one never answered.
        let calls = [call(0, Some(1)), call(2, Some(3)), call(4, None)];
        assert_eq!(round_trips(&calls), 3);
    }
}
