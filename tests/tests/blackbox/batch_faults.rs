//! BatchGetItem answered in part, and throttled (issue 39): a cold instance
//! that reads the index and its queries' term blocks through a store in
//! front of the stack's DynamoDB Local, which answers each batch as
//! DynamoDB does past 16 MB or under throttling, still answers exactly as
//! one that reads the stack directly, or `503` with `Retry-After` within the
//! request deadline; nothing hangs.
//!
//! The store in front is a loopback HTTP server that passes every request
//! on to DynamoDB Local and changes only BatchGetItem: it is the stack's
//! real data, read through the real SDK and the functions' own pipeline,
//! with DynamoDB's documented partial answers made to happen every time.

use blackbox::{create_key, lambda_request, stack_clients, unsigned};
use lambda_http::Body;
use serde_json::{json, Value};
use shared::access::auth::KeyStore;
use shared::access::quota::QuotaCounter;
use shared::api::pipeline::{self, Endpoint, REQUEST_DEADLINE};
use shared::runtime::app::{App, Clients};
use shared::storage::store::Store;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

/// What the store in front does to a BatchGetItem.
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// Reads the first half of each table's keys and leaves the rest
    /// unprocessed, as DynamoDB does past 16 MB of answer.
    Halved,
    /// Answers the first `n` batches with no item and every key
    /// unprocessed, as DynamoDB does when it throttles part of a batch;
    /// then reads them.
    ThrottledFirst(usize),
    /// Refuses every batch with `ProvisionedThroughputExceededException`,
    /// as DynamoDB does when it can read none of its keys.
    Throttled,
}

/// The store in front of DynamoDB Local, and how many batches it changed.
struct FaultyStore {
    endpoint: String,
    changed: Arc<AtomicUsize>,
}

impl FaultyStore {
    async fn start(fault: Fault, upstream: String) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let endpoint = format!("http://{}", listener.local_addr().unwrap());
        let changed = Arc::new(AtomicUsize::new(0));
        let batches = Arc::new(AtomicUsize::new(0));
        let counted = changed.clone();
        // Ends with the test's runtime.
        tokio::spawn(async move {
            let client = reqwest::Client::new();
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let (client, upstream) = (client.clone(), upstream.clone());
                let (changed, batches) = (counted.clone(), batches.clone());
                tokio::spawn(async move {
                    let proxy = Proxy {
                        fault,
                        client,
                        upstream,
                        changed,
                        batches,
                    };
                    proxy.serve(stream).await;
                });
            }
        });
        Self { endpoint, changed }
    }

    fn changed(&self) -> usize {
        self.changed.load(Ordering::SeqCst)
    }
}

struct Proxy {
    fault: Fault,
    client: reqwest::Client,
    upstream: String,
    changed: Arc<AtomicUsize>,
    batches: Arc<AtomicUsize>,
}

impl Proxy {
    /// HTTP/1.1 requests on one kept-alive connection, one at a time.
    async fn serve(&self, stream: TcpStream) {
        let (reader, mut writer) = stream.into_split();
        let mut reader = BufReader::new(reader);
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                return;
            }
            let mut headers = Vec::new();
            loop {
                line.clear();
                if reader.read_line(&mut line).await.unwrap_or(0) == 0 {
                    return;
                }
                let header = line.trim_end();
                if header.is_empty() {
                    break;
                }
                if let Some((name, value)) = header.split_once(':') {
                    headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
                }
            }
            let header = |name: &str| {
                headers
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| v.as_str())
            };
            let length: usize = header("content-length").map_or(0, |n| n.parse().unwrap());
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).await.is_err() {
                return;
            }
            let target = header("x-amz-target").unwrap_or_default().to_string();
            let (status, answer) = if target.ends_with(".BatchGetItem") {
                self.batch_get(&headers, body).await
            } else {
                self.forward(&headers, body).await
            };
            let head = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: application/x-amz-json-1.0\r\ncontent-length: {}\r\n\r\n",
                answer.len()
            );
            let sent = writer.write_all(head.as_bytes()).await;
            if sent.is_err() || writer.write_all(&answer).await.is_err() {
                return;
            }
        }
    }

    /// The request as sent, answered by DynamoDB Local.
    async fn forward(&self, headers: &[(String, String)], body: Vec<u8>) -> (u16, Vec<u8>) {
        let mut request = self.client.post(&self.upstream).body(body);
        for (name, value) in headers {
            if !matches!(name.as_str(), "host" | "content-length") {
                request = request.header(name, value);
            }
        }
        let response = request.send().await.expect("DynamoDB Local answers");
        let status = response.status().as_u16();
        (status, response.bytes().await.unwrap().to_vec())
    }

    async fn batch_get(&self, headers: &[(String, String)], body: Vec<u8>) -> (u16, Vec<u8>) {
        let mut request: Value = serde_json::from_slice(&body).unwrap();
        let batch = self.batches.fetch_add(1, Ordering::SeqCst);
        match self.fault {
            Fault::Throttled => {
                self.changed.fetch_add(1, Ordering::SeqCst);
                let refusal = json!({
                    "__type": "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
                    "message": "The level of configured provisioned throughput for the table was exceeded."
                });
                (400, refusal.to_string().into_bytes())
            }
            Fault::ThrottledFirst(n) if batch < n => {
                self.changed.fetch_add(1, Ordering::SeqCst);
                let tables = request["RequestItems"].as_object().unwrap();
                let empty: serde_json::Map<String, Value> =
                    tables.keys().map(|t| (t.clone(), json!([]))).collect();
                let answer = json!({"Responses": empty, "UnprocessedKeys": tables});
                (200, answer.to_string().into_bytes())
            }
            Fault::ThrottledFirst(_) => self.forward(headers, body).await,
            Fault::Halved => {
                let mut left = serde_json::Map::new();
                for (table, wanted) in request["RequestItems"].as_object_mut().unwrap() {
                    let keys = wanted["Keys"].as_array_mut().unwrap();
                    if keys.len() < 2 {
                        continue;
                    }
                    let rest = keys.split_off(keys.len().div_ceil(2));
                    let mut unprocessed = wanted.clone();
                    unprocessed["Keys"] = Value::Array(rest);
                    left.insert(table.clone(), unprocessed);
                }
                let body = serde_json::to_vec(&request).unwrap();
                let (status, answer) = self.forward(headers, body).await;
                if status != 200 || left.is_empty() {
                    return (status, answer);
                }
                self.changed.fetch_add(1, Ordering::SeqCst);
                let mut answer: Value = serde_json::from_slice(&answer).unwrap();
                let unprocessed = answer["UnprocessedKeys"]
                    .as_object_mut()
                    .expect("a BatchGetItem answer has UnprocessedKeys");
                for (table, mut rest) in left {
                    if let Some(more) = unprocessed.get(&table) {
                        let more = more["Keys"].as_array().unwrap().clone();
                        rest["Keys"].as_array_mut().unwrap().extend(more);
                    }
                    unprocessed.insert(table, rest);
                }
                (200, answer.to_string().into_bytes())
            }
        }
    }
}

/// A cold app whose entries table is read through `store` (keys and quota
/// straight from the stack).
async fn app_through(store: Option<&FaultyStore>) -> &'static App {
    let (healthy, config) = stack_clients().await;
    let entries = match store {
        Some(store) => {
            let mut through = config.clone();
            through.dynamodb_endpoint = Some(store.endpoint.clone());
            Clients::new(&through).await.dynamodb
        }
        None => healthy.dynamodb.clone(),
    };
    let app = App {
        store: Store::new(entries, config.entries_table.clone()),
        keys: KeyStore::new(healthy.dynamodb.clone(), config.keys_table.clone()),
        quota: QuotaCounter::new(healthy.dynamodb.clone(), config.keys_table.clone()),
        audio: Some(healthy.audio.clone()),
        config,
        clock: shared::runtime::app::system_clock,
    };
    Box::leak(Box::new(app))
}

fn endpoint(name: &str) -> &'static Endpoint {
    drift::endpoints()
        .into_iter()
        .find(|e| e.route.name == name)
        .unwrap_or_else(|| panic!("an endpoint named {name}"))
}

/// One request of every class that reads the index and term blocks:
/// exact, prefix, typos, contains, a pattern, filters, autocomplete,
/// reverse lookup and entry by word.
const CALLS: [(&str, &str); 9] = [
    (
        "search",
        "/api/v1/api/search?q=bank&matchType=exact&fuzzy=false",
    ),
    ("search", "/api/v1/api/search?q=hou&matchType=prefix"),
    ("search", "/api/v1/api/search?q=hosue"),
    ("search", "/api/v1/api/search?q=an&matchType=contains"),
    ("search", "/api/v1/api/search?q=b*k&matchType=pattern"),
    (
        "search",
        "/api/v1/api/search?q=ho&matchType=prefix&lang=en&pos=noun",
    ),
    ("autocomplete", "/api/v1/api/autocomplete?q=ba"),
    ("reverse", "/api/v1/api/reverse?q=house"),
    (
        "entry-by-word",
        "/api/v1/api/entry/freedict-eng-fra/word/banks",
    ),
];

/// Status, `Retry-After`, the body (presigned URLs and the time it took
/// cut) and how long it took.
async fn answer(
    app: &'static App,
    name: &str,
    path: &str,
    key: &str,
) -> (u16, Option<String>, Value, Duration) {
    let started = Instant::now();
    let response = pipeline::serve(app, endpoint(name), lambda_request(path, key, None)).await;
    let took = started.elapsed();
    let mut json = match response.body() {
        Body::Text(text) => serde_json::from_str(text).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    if let Some(meta) = json.get_mut("meta").and_then(Value::as_object_mut) {
        meta.remove("took_ms");
    }
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    (
        response.status().as_u16(),
        retry_after,
        unsigned(&json),
        took,
    )
}

/// Each call's answer through a fresh app reading the stack directly.
async fn expected(key: &str) -> Vec<(u16, Value)> {
    let direct = app_through(None).await;
    let mut answers = Vec::new();
    for (name, path) in CALLS {
        let (status, _, json, _) = answer(direct, name, path, key).await;
        assert_eq!(status, 200, "{path}: {json}");
        answers.push((status, json));
    }
    answers
}

async fn answers_as_the_stack_does(fault: Fault) {
    let (key, _) = create_key("free", Some(1_000));
    let expected = expected(&key).await;
    let (_, config) = stack_clients().await;
    let upstream = config
        .dynamodb_endpoint
        .clone()
        .expect("the stack's DynamoDB endpoint");
    let store = FaultyStore::start(fault, upstream).await;
    let faulty = app_through(Some(&store)).await;
    for ((name, path), (status, json)) in CALLS.iter().zip(expected) {
        let (got_status, _, got, _) = answer(faulty, name, path, &key).await;
        assert_eq!((got_status, &got), (status, &json), "{fault:?} {path}");
    }
    assert!(store.changed() > 0, "{fault:?} changed no batch");
}

#[tokio::test]
async fn batches_answered_by_halves_give_the_same_answers() {
    answers_as_the_stack_does(Fault::Halved).await;
}

#[tokio::test]
async fn batches_throttled_for_a_while_give_the_same_answers() {
    answers_as_the_stack_does(Fault::ThrottledFirst(3)).await;
}

#[tokio::test]
async fn batches_throttled_for_good_answer_503_within_the_deadline() {
    let (key, _) = create_key("free", Some(1_000));
    let (_, config) = stack_clients().await;
    let upstream = config
        .dynamodb_endpoint
        .clone()
        .expect("the stack's DynamoDB endpoint");
    let store = FaultyStore::start(Fault::Throttled, upstream).await;
    let faulty = app_through(Some(&store)).await;
    for (name, path) in CALLS {
        let (status, retry_after, json, took) = answer(faulty, name, path, &key).await;
        assert_eq!(status, 503, "{path}: {json}");
        assert_eq!(retry_after.as_deref(), Some("5"), "{path}");
        assert!(
            took < REQUEST_DEADLINE + Duration::from_secs(1),
            "{path} took {took:?}"
        );
    }
    assert!(store.changed() > 0, "no batch refused");
}
