//! Latency and memory of the function binaries as Lambda runs them: each
//! function in a process of its own on a loopback Runtime API
//! (`runtime_api::WarmRuntime`), over whatever the local stack holds (the
//! benchmark corpus for docs/benchmarks.md), every request an API Gateway
//! HTTP API event with a key, through the whole pipeline (auth, quota,
//! query, envelope).
//!
//!   set -a; . infra/local/stack.env; set +a
//!   cargo build --release -p search -p entry -p entry-by-word -p reverse \
//!       -p rhymes -p thesaurus -p autocomplete -p random
//!   cargo build --release -p bench --bin function-latency
//!   target/release/function-latency [--rounds N] [--cold N] [--bin-dir DIR] [--only TEXT]
//!
//! Warm (`--rounds`, 200 by default): one process per function, started
//! once; each round draws one query of every class afresh from the data
//! ([`Draw`], uniformly over entries) and invokes it, beside a bare GetItem
//! of a random entry from this process. The first round is not counted.
//! The ratios are to entry by id through its function (the issue's
//! yardstick) and to the GetItem. Then each process's resident memory: it
//! holds nothing but the function, so this is what `MemorySize` must hold.
//!
//! Cold (`--cold N`, 3 by default, 0 to skip): for each class, N fresh
//! processes, each given one query of the class: its init (spawn to first
//! poll) and its first invocation.
//!
//! `--only TEXT` keeps the classes whose name holds it (and entry by id,
//! the yardstick), to compare one class between two builds.
//!
//! Queries are drawn by an instance in this process that holds every term
//! block and record; the functions' own instances read what their queries
//! need, within SNAPSHOT_CACHE_MB, as on Lambda.

use aws_sdk_dynamodb::types::AttributeValue;
use bench::draw::Draw;
use runtime_api::{Event, WarmRuntime};
use serde_json::{json, Value};
use shared::search::matching::{MatchRule, MatchType};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a start or an invocation may take before the run stops.
const LIMIT: Duration = Duration::from_secs(30);

/// One request: the function that serves it, its route, path parameters
/// and query.
struct Request {
    function: &'static str,
    route: &'static str,
    path: Vec<(&'static str, String)>,
    query: Vec<(&'static str, String)>,
}

impl Request {
    fn new(function: &'static str, route: &'static str) -> Request {
        Request {
            function,
            route,
            path: Vec::new(),
            query: Vec::new(),
        }
    }

    fn search(q: &str, match_type: &str) -> Request {
        Request::new("search", "/api/v1/api/search")
            .with("q", q)
            .with("matchType", match_type)
    }

    fn with(mut self, name: &'static str, value: impl Into<String>) -> Request {
        self.query.push((name, value.into()));
        self
    }

    fn at(mut self, name: &'static str, value: impl Into<String>) -> Request {
        self.path.push((name, value.into()));
        self
    }

    /// The API Gateway HTTP API (v2) event of this request, as the route
    /// `ANY {route}` receives it: `rawPath` encoded, path parameters and
    /// query values decoded.
    fn event(&self, key: &str) -> Value {
        let mut raw_path = self.route.to_string();
        for (name, value) in &self.path {
            raw_path = raw_path.replace(&format!("{{{name}}}"), &encoded(value));
        }
        let raw_query: Vec<String> = self
            .query
            .iter()
            .map(|(name, value)| format!("{name}={}", encoded(value)))
            .collect();
        let route_key = format!("ANY {}", self.route);
        let mut event = json!({
            "version": "2.0",
            "routeKey": route_key,
            "rawPath": raw_path,
            "rawQueryString": raw_query.join("&"),
            "headers": {
                "accept": "application/json",
                "authorization": format!("Bearer {key}"),
                "host": "localhost",
            },
            "requestContext": {
                "accountId": "123456789012",
                "apiId": "local",
                "domainName": "localhost",
                "http": {
                    "method": "GET",
                    "path": raw_path,
                    "protocol": "HTTP/1.1",
                    "sourceIp": "127.0.0.1",
                    "userAgent": "function-latency",
                },
                "requestId": runtime_api::random_uuid(),
                "routeKey": route_key,
                "stage": "$default",
                "time": "01/Jan/2026:00:00:00 +0000",
                "timeEpoch": 1767225600000u64,
            },
            "isBase64Encoded": false,
        });
        let object = |pairs: &[(&str, String)]| -> Value {
            pairs
                .iter()
                .map(|(name, value)| (name.to_string(), json!(value)))
                .collect::<serde_json::Map<String, Value>>()
                .into()
        };
        if !self.query.is_empty() {
            event["queryStringParameters"] = object(&self.query);
        }
        if !self.path.is_empty() {
            event["pathParameters"] = object(&self.path);
        }
        event
    }
}

/// Percent-encodes all but the unreserved characters (RFC 3986).
fn encoded(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

type Class = (&'static str, Box<dyn Fn(&Draw) -> Request>);

/// Every class measured, named as `latency`'s lines are, each drawing its
/// request afresh.
fn classes(draw: &Draw) -> Vec<Class> {
    let mut classes: Vec<Class> = vec![
        (
            "entry by id",
            Box::new(|d: &Draw| {
                let (source, id, _) = d.entry();
                Request::new("entry", "/api/v1/entry/{source}/{id}")
                    .at("source", source)
                    .at("id", id)
            }),
        ),
        (
            "entry by word",
            Box::new(|d: &Draw| {
                let (source, _, word) = d.entry();
                by_word(source, word)
            }),
        ),
    ];
    if draw.has_forms() {
        classes.push((
            "entry by word, an inflected form (lemma hit)",
            Box::new(|d: &Draw| {
                let (source, form) = d.form();
                by_word(source, form)
            }),
        ));
    }
    classes.extend::<Vec<Class>>(vec![
        (
            "search exact (fuzzy=false)",
            Box::new(|d: &Draw| Request::search(&d.word(1, 64).1, "exact").with("fuzzy", "false")),
        ),
        (
            "search exact, 1 typo (5-7 letters)",
            Box::new(|d: &Draw| Request::search(&d.typo(&d.word(5, 7).1, 1), "exact")),
        ),
        (
            "search prefix, 1 letter",
            Box::new(|d: &Draw| Request::search(&d.prefix(1, 1), "prefix")),
        ),
        (
            "search prefix, 2-3 letters",
            Box::new(|d: &Draw| Request::search(&d.prefix(2, 3), "prefix")),
        ),
        (
            "search prefix with a typo (4-7 letters)",
            Box::new(|d: &Draw| Request::search(&d.typo(&d.prefix(4, 7), 1), "prefix")),
        ),
        (
            "search fuzzy, 8+ letters (2 edits)",
            Box::new(|d: &Draw| Request::search(&d.typo(&d.word(8, 64).1, 2), "prefix")),
        ),
        (
            "search contains, 2-4 letters",
            Box::new(|d: &Draw| {
                let chars: Vec<char> = d.word(4, 64).1.chars().collect();
                let n = d.number(2..=4);
                let at = d.number(0..=chars.len() - n);
                Request::search(&chars[at..at + n].iter().collect::<String>(), "contains")
            }),
        ),
        (
            "search pattern, only ? between two letters (`h???e`)",
            Box::new(|d: &Draw| loop {
                let chars: Vec<char> = d.word(5, 9).1.chars().collect();
                let middle = "?".repeat(chars.len() - 2);
                let q = format!("{}{middle}{}", chars[0], chars[chars.len() - 1]);
                if MatchRule::of_query(&q, MatchType::Pattern, true).is_ok() {
                    return Request::search(&q, "pattern");
                }
            }),
        ),
        (
            "search prefix, lang + pos",
            Box::new(|d: &Draw| {
                let (o, word) = d.word(2, 64);
                let prefix: String = word.chars().take(2).collect();
                let lang = d.dictionary(o).source_lang;
                let pos = d.part_of_speech(o).unwrap_or_else(|| "noun".to_string());
                Request::search(&prefix, "prefix")
                    .with("lang", lang)
                    .with("pos", pos)
            }),
        ),
        (
            "search soundsLike, a word with one typo",
            Box::new(|d: &Draw| {
                for _ in 0..1000 {
                    let (o, word) = d.word(4, 12);
                    let lang = d.dictionary(o).source_lang;
                    if shared::search::sounds_like::LANGUAGES.contains(&lang.as_str()) {
                        return Request::search(&d.typo(&word, 1), "soundsLike");
                    }
                }
                Request::search("fizicks", "soundsLike")
            }),
        ),
        (
            "reverse, one word",
            Box::new(|d: &Draw| {
                let (_, words) = d.definition_words(1);
                let n = d.number(0..=words.len() - 1);
                Request::new("reverse", "/api/v1/api/reverse").with("q", words[n].clone())
            }),
        ),
        (
            "reverse, five-word phrase",
            Box::new(|d: &Draw| {
                let (_, words) = d.definition_words(5);
                let start = d.number(0..=words.len() - 5);
                Request::new("reverse", "/api/v1/api/reverse")
                    .with("q", words[start..start + 5].join(" "))
            }),
        ),
        (
            "rhymes, perfect",
            Box::new(|d: &Draw| {
                let (o, word) = d.word(2, 64);
                Request::new("rhymes", "/api/v1/api/rhymes/{word}")
                    .at("word", word)
                    .with("lang", d.dictionary(o).source_lang)
            }),
        ),
        (
            "thesaurus",
            Box::new(|d: &Draw| {
                let (_, _, word) = d.entry();
                Request::new("thesaurus", "/api/v1/api/thesaurus/{word}").at("word", word)
            }),
        ),
        (
            "autocomplete, 2-4 letters",
            Box::new(|d: &Draw| {
                Request::new("autocomplete", "/api/v1/api/autocomplete").with("q", d.prefix(2, 4))
            }),
        ),
        (
            "random (count 10)",
            Box::new(|_: &Draw| Request::new("random", "/api/v1/random").with("count", "10")),
        ),
    ]);
    classes
}

fn by_word(source: String, word: String) -> Request {
    Request::new("entry-by-word", "/api/v1/api/entry/{source}/word/{word}")
        .at("source", source)
        .at("word", word)
}

/// A function binary running on its own Runtime API.
struct Process {
    runtime: WarmRuntime,
    child: Child,
    /// From the spawn to its first poll for work.
    init: Duration,
}

impl Process {
    async fn start(bin_dir: &Path, function: &str) -> Process {
        let runtime = WarmRuntime::start().await.expect("a loopback port");
        let path = bin_dir.join(function);
        let log = std::fs::File::create(
            std::env::temp_dir().join(format!("function-latency-{function}.log")),
        )
        .expect("a log file");
        let spawned = Instant::now();
        let child = Command::new(&path)
            .envs(runtime_api::runtime_environment(
                function,
                runtime.address(),
                1024,
            ))
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("a log file"))
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("{} starts (build it with --release): {e}", path.display()));
        let polled = runtime.first_poll(LIMIT).await;
        let init = polled.unwrap_or_else(|e| panic!("{function} starts: {e:?}")) - spawned;
        Process {
            runtime,
            child,
            init,
        }
    }

    /// Invokes `event`; the time to its answer, and its status code.
    async fn invoke(&self, event: &Value) -> (Duration, i64, String) {
        let event = Event::new(event.to_string(), "function-latency");
        let started = Instant::now();
        let answer = self.runtime.invoke(event, LIMIT).await;
        let took = started.elapsed();
        let answer = answer.unwrap_or_else(|e| panic!("no answer: {e:?}"));
        let response: Value = serde_json::from_slice(&answer.body).unwrap_or(Value::Null);
        let status = response["statusCode"].as_i64().unwrap_or(0);
        let body = response["body"].as_str().unwrap_or_default();
        (took, status, body.chars().take(300).collect())
    }

    /// VmRSS and VmHWM, in MB.
    fn memory_mb(&self) -> (f64, f64) {
        let of = |field| bench::process_stats::memory_mb(self.child.id(), field).unwrap_or(0.0);
        (of("VmRSS"), of("VmHWM"))
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.child.kill().ok();
        self.child.wait().ok();
    }
}

/// What a status means for a line: counted, refused by design, or a
/// failure that stops the run.
fn counted(
    class: &str,
    status: i64,
    body: &str,
    refused: &mut BTreeMap<(String, i64), usize>,
) -> bool {
    match status {
        200 => true,
        // Over the work budget; no pronunciation; the store did not answer
        // in time: answers by design, counted per line.
        400 | 404 | 503 => {
            *refused.entry((class.to_string(), status)).or_default() += 1;
            false
        }
        _ => panic!("{class}: {status} {body}"),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

#[tokio::main]
async fn main() {
    let mut rounds = 200;
    let mut cold_runs = 3;
    let mut bin_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/release");
    let mut only = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--rounds" => rounds = value().parse().expect("a number of rounds"),
            "--cold" => cold_runs = value().parse().expect("a number of runs"),
            "--bin-dir" => bin_dir = PathBuf::from(value()),
            "--only" => only = Some(value()),
            _ => panic!("unknown argument {arg}: --rounds N, --cold N, --bin-dir DIR, --only TEXT"),
        }
    }
    let app = bench::stack_app().await;
    let client = shared::runtime::app::Clients::new(&app.config)
        .await
        .dynamodb;
    let (key, _, _) = admin::keys::create(
        &client,
        &app.config.keys_table,
        "function-latency",
        admin::keys::parse_plan("pro").expect("a plan"),
        Some(u64::from(u32::MAX)),
        None,
    )
    .await
    .expect("a key for the run");
    let draw = Draw::load(&app).await;
    let mut classes = classes(&draw);
    if let Some(only) = &only {
        classes.retain(|(class, _)| *class == "entry by id" || class.contains(only.as_str()));
    }
    let mut refused = BTreeMap::new();

    if cold_runs > 0 {
        println!("| First request of a fresh function process | init ms (median of {cold_runs}) | first invocation ms (median; min–max) | resident MB after |");
        println!("|---|---:|---:|---:|");
        for (class, make) in &classes {
            let (mut inits, mut firsts, mut resident) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..cold_runs {
                let request = make(&draw);
                let process = Process::start(&bin_dir, request.function).await;
                let (took, status, body) = process.invoke(&request.event(&key)).await;
                counted(class, status, &body, &mut refused);
                inits.push(ms(process.init));
                firsts.push(ms(took));
                resident.push(process.memory_mb().0);
            }
            let (min, max) = firsts
                .iter()
                .fold((f64::MAX, 0f64), |(lo, hi), &t| (lo.min(t), hi.max(t)));
            println!(
                "| {class} | {:.0} | {:.0} ({min:.0}–{max:.0}) | {:.0} |",
                median(inits),
                median(firsts.clone()),
                median(resident)
            );
        }
        println!();
    }
    if rounds == 0 {
        return;
    }

    let mut processes: BTreeMap<&'static str, Process> = BTreeMap::new();
    for (_, make) in &classes {
        let function = make(&draw).function;
        if !processes.contains_key(function) {
            processes.insert(function, Process::start(&bin_dir, function).await);
        }
    }
    let mut timings: Vec<Vec<f64>> = vec![Vec::new(); classes.len()];
    let mut get_item = Vec::new();
    let mut served: BTreeMap<&'static str, usize> = BTreeMap::new();
    for round in 0..=rounds {
        let (source, id, _) = draw.entry();
        let started = Instant::now();
        client
            .get_item()
            .table_name(&app.config.entries_table)
            .key("pk", AttributeValue::S(format!("E#{source}#{id}")))
            .key("sk", AttributeValue::S("E".into()))
            .send()
            .await
            .expect("GetItem");
        if round > 0 {
            get_item.push(ms(started.elapsed()));
        }
        for (i, (class, make)) in classes.iter().enumerate() {
            let request = make(&draw);
            let (took, status, body) = processes[request.function]
                .invoke(&request.event(&key))
                .await;
            *served.entry(request.function).or_default() += 1;
            if counted(class, status, &body, &mut refused) && round > 0 {
                timings[i].push(ms(took));
            }
        }
    }
    let (get_p50, _, _) = bench::stats(&mut get_item);
    let by_id = bench::stats(&mut timings[0].clone());
    println!("| Through the function binaries, warm | p50 ms | p99 ms | p50 ÷ entry by id p50 | p99 ÷ entry by id p99 | p50 ÷ GetItem p50 | answered 200 |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    println!(
        "| bare GetItem (baseline) | {get_p50:.2} | {:.2} | | | 1.00 | {} |",
        bench::stats(&mut get_item).1,
        get_item.len()
    );
    for ((class, _), mut samples) in classes.iter().zip(timings) {
        let (p50, p99, _) = bench::stats(&mut samples);
        println!(
            "| {class} | {p50:.2} | {p99:.2} | {:.2} | {:.2} | {:.2} | {} |",
            p50 / by_id.0,
            p99 / by_id.1,
            p50 / get_p50,
            samples.len()
        );
    }
    println!("\n{rounds} rounds (and one not counted), every class once per round, queries drawn afresh in each.");
    for ((class, status), count) in &refused {
        println!("{class}: {count} answered {status}");
    }
    println!("\n| Function process | requests served | resident MB (VmRSS) | peak resident MB (VmHWM) | CPU ms per request (mean) |");
    println!("|---|---:|---:|---:|---:|");
    for (function, process) in &processes {
        let (rss, hwm) = process.memory_mb();
        let requests = served[function];
        let cpu = bench::process_stats::cpu_ms(process.child.id()).unwrap_or(0.0);
        println!(
            "| {function} | {requests} | {rss:.0} | {hwm:.0} | {:.2} |",
            cpu / requests as f64
        );
    }
    println!(
        "\nSNAPSHOT_CACHE_MB {}; the drawing instance (this process) loaded in {:.0} ms.",
        app.config.snapshot_cache_bytes >> 20,
        draw.load_ms
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use lambda_http::RequestExt;

    #[test]
    fn an_event_carries_its_path_and_query_as_api_gateway_does() {
        let request = Request::new("entry-by-word", "/api/v1/api/entry/{source}/word/{word}")
            .at("source", "freedict-fra-eng")
            .at("word", "école/50%")
            .with("q", "a b&c");
        let event = request.event("dk_x");
        assert_eq!(
            event["rawPath"],
            "/api/v1/api/entry/freedict-fra-eng/word/%C3%A9cole%2F50%25"
        );
        assert_eq!(event["rawQueryString"], "q=a%20b%26c");
        let parsed = lambda_http::request::from_str(&event.to_string()).expect("an event");
        let values =
            shared::api::pipeline::path_values("/api/v1/api/entry/{source}/word/{word}", &parsed)
                .expect("the route's values");
        assert_eq!(
            values,
            vec![
                ("source", "freedict-fra-eng".to_string()),
                ("word", "école/50%".to_string())
            ]
        );
        assert_eq!(
            parsed
                .query_string_parameters_ref()
                .and_then(|q| q.first("q")),
            Some("a b&c")
        );
    }
}
