//! A minimal Lambda Runtime API
//! (<https://docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html>) on
//! loopback, enough to run one function binary for real (its own `main`,
//! logging and runtime loop) on one event, without `cargo lambda watch` in
//! between: the binary asks for the next invocation, gets the event, and
//! posts its answer back.
//!
//! Three users: the black-box tests, through [`invoke_once`], the cold-init
//! benchmark (`infra/bench/src/cold_init.rs`), through [`Emulator`], which
//! reports when the process first asked for work and when it answered, and
//! the benchmark of warm function binaries, through [`WarmRuntime`], which
//! hands one process event after event.
//!
//! Each [`Emulator`] serves one start of one binary on a port of its own
//! (127.0.0.1, chosen by the system), so that a request a stopped process
//! sent late reaches no later start. It hands out one event; a second
//! `GET …/invocation/next` is held until the emulator is dropped, as Lambda
//! freezes the process. Anything that is not the Runtime API (a DynamoDB or
//! S3 request, when a function's endpoints point here) is refused with a 400
//! that the AWS SDK does not retry.

use serde_json::Value;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::io::BufReader;
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt,
};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::{JoinHandle, JoinSet};

mod warm;
pub use warm::{Answer, NoAnswer, WarmRuntime};

/// The prefix of every Runtime API path.
pub const API: &str = "/2018-06-01/runtime";

/// How long Lambda's deadline header says an invocation may take by default
/// (the functions' Timeout in template.yaml is 10 s).
pub const DEADLINE: Duration = Duration::from_secs(10);

/// The event a start hands out, and the headers it comes with.
#[derive(Debug, Clone)]
pub struct Event {
    /// The body of the `…/invocation/next` answer (an API Gateway event).
    pub body: Vec<u8>,
    /// `Lambda-Runtime-Aws-Request-Id`; the answer must be posted to
    /// `…/invocation/{request_id}/response` (or `/error`).
    pub request_id: String,
    /// `Lambda-Runtime-Invoked-Function-Arn`.
    pub function_arn: String,
    /// `Lambda-Runtime-Trace-Id`.
    pub trace_id: String,
    /// `Lambda-Runtime-Deadline-Ms` is this long after the event is handed out.
    pub deadline: Duration,
}

impl Event {
    /// `body` for the function `function_name`, with a random request id,
    /// an untraced trace id and [`DEADLINE`].
    pub fn new(body: impl Into<Vec<u8>>, function_name: &str) -> Event {
        Event {
            body: body.into(),
            request_id: random_uuid(),
            function_arn: function_arn(function_name),
            trace_id: "Root=1-00000000-000000000000000000000000;Sampled=0".to_string(),
            deadline: DEADLINE,
        }
    }
}

/// The ARN Lambda would give `function_name` (a made-up account).
pub fn function_arn(function_name: &str) -> String {
    format!("arn:aws:lambda:us-east-1:123456789012:function:{function_name}")
}

/// The variables Lambda sets for the process of a custom runtime: its
/// Runtime API at `runtime_api`, and the function's name, version, memory
/// and log names. Every start of a function binary here sets them.
pub fn runtime_environment(
    function_name: &str,
    runtime_api: SocketAddr,
    memory_mb: u32,
) -> Vec<(String, String)> {
    [
        ("AWS_LAMBDA_RUNTIME_API", runtime_api.to_string()),
        ("AWS_LAMBDA_FUNCTION_NAME", function_name.to_string()),
        ("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST".to_string()),
        ("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", memory_mb.to_string()),
        (
            "AWS_LAMBDA_LOG_GROUP_NAME",
            format!("/aws/lambda/{function_name}"),
        ),
        (
            "AWS_LAMBDA_LOG_STREAM_NAME",
            "2026/01/01/[$LATEST]00000000000000000000000000000000".to_string(),
        ),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_string(), value))
    .collect()
}

/// How the process ended its start, as the emulator saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// It posted `…/invocation/{id}/response`.
    Response,
    /// It posted `…/invocation/{id}/error`.
    Error,
    /// It posted `…/init/error`: `main` failed before asking for work.
    InitError,
}

/// What the emulator saw of one start, and when (instants are taken when a
/// request's line and headers have been read, before its body).
#[derive(Debug, Clone, Default)]
pub struct Seen {
    /// When the process first asked for `…/invocation/next`: its init is done.
    pub first_poll: Option<Instant>,
    /// When the event had been written to it.
    pub event_sent: Option<Instant>,
    /// When it posted its response or error (or init error).
    pub answered: Option<Instant>,
    /// Which of those it posted.
    pub outcome: Option<Outcome>,
    /// The body it posted.
    pub answer: Option<Vec<u8>>,
}

impl Seen {
    /// The `statusCode` of the response posted, if it was a response with one.
    pub fn status(&self) -> Option<i64> {
        if self.outcome != Some(Outcome::Response) {
            return None;
        }
        let answer: Value = serde_json::from_slice(self.answer.as_deref()?).ok()?;
        answer.get("statusCode")?.as_i64()
    }
}

/// What is called once, when the process first asks for work, before the
/// event is handed out (while the process waits for it). Keep it short: the
/// server waits for it.
pub type FirstPoll = Box<dyn FnOnce() + Send>;

/// The Runtime API of one start, served on 127.0.0.1 until dropped.
pub struct Emulator {
    address: SocketAddr,
    shared: Arc<Shared>,
    server: JoinHandle<()>,
}

struct Shared {
    event: Event,
    seen: Mutex<Seen>,
    answered: watch::Sender<bool>,
    on_first_poll: Mutex<Option<FirstPoll>>,
}

impl Emulator {
    /// Serves `event` on a port of its own.
    pub async fn start(event: Event) -> io::Result<Emulator> {
        Emulator::start_with(event, None).await
    }

    /// Serves `event` on a port of its own, and calls `on_first_poll` when
    /// the process first asks for work.
    pub async fn start_with(
        event: Event,
        on_first_poll: Option<FirstPoll>,
    ) -> io::Result<Emulator> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let address = listener.local_addr()?;
        let shared = Arc::new(Shared {
            event,
            seen: Mutex::new(Seen::default()),
            answered: watch::channel(false).0,
            on_first_poll: Mutex::new(on_first_poll),
        });
        let served = shared.clone();
        let server = tokio::spawn(accept_each(listener, move |stream| {
            serve_connection(stream, served.clone())
        }));
        Ok(Emulator {
            address,
            shared,
            server,
        })
    }

    /// Where it listens: the value of `AWS_LAMBDA_RUNTIME_API`.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Resolves once the process has posted its response or error (or init
    /// error).
    pub async fn answered(&self) {
        let mut answered = self.shared.answered.subscribe();
        // The sender lives in `self`: waiting cannot fail.
        answered.wait_for(|done| *done).await.ok();
    }

    /// What it has seen so far.
    pub fn seen(&self) -> Seen {
        self.shared.seen.lock().unwrap().clone()
    }
}

impl Drop for Emulator {
    /// Stops serving: the listener and every connection (the held poll
    /// among them) are closed.
    fn drop(&mut self) {
        self.server.abort();
    }
}

/// Accepts connections until aborted; each is served by `serve` on a task
/// of its own (the runtime may poll on one connection and post on
/// another), and the tasks end with this one.
async fn accept_each<F, Served>(listener: TcpListener, serve: F)
where
    F: Fn(tokio::net::TcpStream) -> Served,
    Served: std::future::Future<Output = ()> + Send + 'static,
{
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                if let Ok((stream, _)) = accepted {
                    // Replies are small and awaited one by one: without
                    // this, Nagle's algorithm could hold a reply's last
                    // segment until the runtime's delayed acknowledgement
                    // (40 ms on Linux), as Lambda's own Runtime API does not.
                    stream.set_nodelay(true).ok();
                    connections.spawn(serve(stream));
                }
            }
            // Reap finished connections as they end.
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
}

/// What a request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    Next,
    Answer(Outcome),
    Refuse,
}

fn route(head: &Head, request_id: &str) -> Route {
    let Some(rest) = head.path.strip_prefix(API) else {
        return Route::Refuse;
    };
    if head.method == "GET" {
        return if rest == "/invocation/next" {
            Route::Next
        } else {
            Route::Refuse
        };
    }
    if rest == "/init/error" {
        return Route::Answer(Outcome::InitError);
    }
    match rest
        .strip_prefix("/invocation/")
        .and_then(|r| r.strip_prefix(request_id))
    {
        Some("/response") => Route::Answer(Outcome::Response),
        Some("/error") => Route::Answer(Outcome::Error),
        _ => Route::Refuse,
    }
}

/// Serves the requests of one keep-alive connection until it closes (or
/// fails: a stopped process leaves its connections behind, nothing to
/// report).
async fn serve_connection<S: AsyncRead + AsyncWrite + Unpin>(stream: S, shared: Arc<Shared>) {
    let mut stream = BufReader::new(stream);
    while let Ok(Some(head)) = read_head(&mut stream).await {
        let now = Instant::now();
        let Ok(body) = read_body(&mut stream, &head).await else {
            return;
        };
        let served = match route(&head, &shared.event.request_id) {
            Route::Next => hand_out(&mut stream, &shared, now).await,
            Route::Answer(outcome) => {
                {
                    let mut seen = shared.seen.lock().unwrap();
                    seen.answered = Some(now);
                    seen.outcome = Some(outcome);
                    seen.answer = Some(body);
                }
                let written = respond(
                    &mut stream,
                    "202 Accepted",
                    "application/json",
                    &[],
                    b"{\"status\":\"OK\"}\n",
                )
                .await;
                shared.answered.send_replace(true);
                written
            }
            Route::Refuse => refuse(&mut stream).await,
        };
        if served.is_err() || head.close {
            return;
        }
    }
}

/// Answers a poll for the next invocation: the event the first time, then
/// never (the poll is held until the emulator is dropped).
async fn hand_out<W: AsyncWrite + Unpin>(
    stream: &mut W,
    shared: &Shared,
    now: Instant,
) -> io::Result<()> {
    let first = {
        let mut seen = shared.seen.lock().unwrap();
        seen.first_poll.is_none() && {
            seen.first_poll = Some(now);
            true
        }
    };
    if !first {
        std::future::pending::<()>().await;
    }
    let on_first_poll = shared.on_first_poll.lock().unwrap().take();
    if let Some(on_first_poll) = on_first_poll {
        on_first_poll();
    }
    write_event(stream, &shared.event).await?;
    shared.seen.lock().unwrap().event_sent = Some(Instant::now());
    Ok(())
}

/// Writes `event` as the answer to a poll for the next invocation, with the
/// headers Lambda sends beside it.
async fn write_event<W: AsyncWrite + Unpin>(stream: &mut W, event: &Event) -> io::Result<()> {
    let deadline = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .saturating_add(event.deadline)
        .as_millis();
    let headers = [
        ("Lambda-Runtime-Aws-Request-Id", event.request_id.clone()),
        ("Lambda-Runtime-Deadline-Ms", deadline.to_string()),
        (
            "Lambda-Runtime-Invoked-Function-Arn",
            event.function_arn.clone(),
        ),
        ("Lambda-Runtime-Trace-Id", event.trace_id.clone()),
    ];
    respond(stream, "200 OK", "application/json", &headers, &event.body).await
}

/// Anything but the Runtime API: a DynamoDB or S3 request. A 400 that the
/// AWS SDK does not retry.
async fn refuse<W: AsyncWrite + Unpin>(stream: &mut W) -> io::Result<()> {
    let body = serde_json::json!({
        "__type": "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
        "message": "the Runtime API emulator (infra/runtime-api) emulates no AWS service",
    })
    .to_string();
    respond(
        stream,
        "400 Bad Request",
        "application/x-amz-json-1.0",
        &[("x-amzn-RequestId", "runtime-api".to_string())],
        body.as_bytes(),
    )
    .await
}

/// The request line and headers of one HTTP/1.1 request, as far as the
/// emulator needs them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub method: String,
    pub path: String,
    /// `Content-Length` (0 without one).
    pub length: usize,
    /// `Transfer-Encoding: chunked`.
    pub chunked: bool,
    /// `Connection: close`: the client sends nothing after this request.
    pub close: bool,
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// Reads one line, without its line end; `None` at the end of the stream.
async fn read_line<R: AsyncBufRead + Unpin>(reader: &mut R) -> io::Result<Option<String>> {
    let mut line = String::new();
    if reader.read_line(&mut line).await? == 0 {
        return Ok(None);
    }
    let trimmed = line.trim_end_matches(['\r', '\n']).len();
    line.truncate(trimmed);
    Ok(Some(line))
}

/// Reads the head of the next request; `None` when the connection closed
/// between requests.
pub async fn read_head<R: AsyncBufRead + Unpin>(reader: &mut R) -> io::Result<Option<Head>> {
    let Some(request_line) = read_line(reader).await? else {
        return Ok(None);
    };
    let mut parts = request_line.split_whitespace();
    let (Some(method), Some(path), Some(version)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(invalid("not an HTTP request line"));
    };
    let mut head = Head {
        method: method.to_string(),
        path: path.to_string(),
        length: 0,
        chunked: false,
        close: version.eq_ignore_ascii_case("HTTP/1.0"),
    };
    loop {
        let line = read_line(reader)
            .await?
            .ok_or_else(|| invalid("the headers end early"))?;
        if line.is_empty() {
            return Ok(Some(head));
        }
        let (name, value) = line
            .split_once(':')
            .ok_or_else(|| invalid("a header with no colon"))?;
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => {
                head.length = value.parse().map_err(|_| invalid("a bad Content-Length"))?;
            }
            "transfer-encoding" => {
                head.chunked = value
                    .rsplit(',')
                    .next()
                    .is_some_and(|last| last.trim().eq_ignore_ascii_case("chunked"));
            }
            "connection" => {
                if value.eq_ignore_ascii_case("close") {
                    head.close = true;
                } else if value.eq_ignore_ascii_case("keep-alive") {
                    head.close = false;
                }
            }
            _ => {}
        }
    }
}

/// Reads the body of a request whose head is `head`: chunked, or as long as
/// its Content-Length.
pub async fn read_body<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    head: &Head,
) -> io::Result<Vec<u8>> {
    let mut body = Vec::new();
    if !head.chunked {
        body.resize(head.length, 0);
        reader.read_exact(&mut body).await?;
        return Ok(body);
    }
    loop {
        let line = read_line(reader)
            .await?
            .ok_or_else(|| invalid("the body ends early"))?;
        let size = line.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size, 16).map_err(|_| invalid("a bad chunk size"))?;
        if size == 0 {
            // Trailers, if any, up to an empty line.
            while !read_line(reader)
                .await?
                .ok_or_else(|| invalid("the trailers end early"))?
                .is_empty()
            {}
            return Ok(body);
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader.read_exact(&mut body[start..]).await?;
        if !read_line(reader)
            .await?
            .ok_or_else(|| invalid("a chunk ends early"))?
            .is_empty()
        {
            return Err(invalid("a chunk longer than its size"));
        }
    }
}

async fn respond<W: AsyncWrite + Unpin>(
    stream: &mut W,
    status: &str,
    content_type: &str,
    headers: &[(&str, String)],
    body: &[u8],
) -> io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    // One write: a head sent apart from its body is a small segment the
    // body waits behind.
    let mut reply = head.into_bytes();
    reply.extend_from_slice(body);
    stream.write_all(&reply).await?;
    stream.flush().await
}

/// A random version 4 UUID (std's hasher keys are random per process and per
/// `RandomState`), as Lambda's request ids are.
pub fn random_uuid() -> String {
    let word = || {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u128(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default()
                .as_nanos(),
        );
        hasher.finish()
    };
    let bits = (u128::from(word()) << 64 | u128::from(word())) & !(0xf000 << 64 | 0xc000 << 48)
        | (0x4000 << 64 | 0x8000 << 48);
    let hex = format!("{bits:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// What one invocation gave: the function's answer and everything it logged.
#[derive(Debug)]
pub struct Invocation {
    pub response: Value,
    pub logs: String,
}

/// Runs `binary` with `env` (plus the Runtime API variables), hands it
/// `event`, waits (at most `limit`) for its answer, then stops it.
pub async fn invoke_once(
    binary: &Path,
    env: &[(String, String)],
    event: &Value,
    limit: Duration,
) -> Invocation {
    let emulator = Emulator::start(Event {
        request_id: "test-invocation-1".to_string(),
        trace_id: "Root=1-00000000-000000000000000000000000".to_string(),
        ..Event::new(event.to_string(), "local-test")
    })
    .await
    .expect("bind");
    let address = emulator.address();
    let log_path = std::env::temp_dir().join(format!(
        "runtime-api-{}-{}.log",
        std::process::id(),
        address.port()
    ));
    let log_file = std::fs::File::create(&log_path).expect("log file");
    let mut child = std::process::Command::new(binary)
        .envs(env.iter().cloned())
        .envs(runtime_environment("local-test", address, 256))
        .stdin(Stdio::null())
        .stdout(log_file.try_clone().expect("log file"))
        .stderr(log_file)
        .spawn()
        .unwrap_or_else(|e| panic!("{} starts: {e}", binary.display()));

    let answered = tokio::time::timeout(limit, emulator.answered()).await;
    child.kill().ok();
    child.wait().ok();
    answered.expect("the function answers in time");
    let answer = emulator.seen().answer.unwrap_or_default();
    drop(emulator);
    let logs = std::fs::read_to_string(&log_path).unwrap_or_default();
    std::fs::remove_file(&log_path).ok();
    Invocation {
        response: serde_json::from_slice(&answer).unwrap_or(Value::Null),
        logs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn parse(bytes: &[u8]) -> io::Result<Option<(Head, Vec<u8>)>> {
        let mut reader = BufReader::new(bytes);
        let Some(head) = read_head(&mut reader).await? else {
            return Ok(None);
        };
        let body = read_body(&mut reader, &head).await?;
        Ok(Some((head, body)))
    }

    #[tokio::test]
    async fn a_body_by_content_length() {
        let (head, body) = parse(
            b"POST /2018-06-01/runtime/invocation/x/response HTTP/1.1\r\n\
              Host: 127.0.0.1\r\ncontent-length: 5\r\n\r\nhello, and more",
        )
        .await
        .unwrap()
        .unwrap();
        assert_eq!(head.method, "POST");
        assert_eq!(head.path, "/2018-06-01/runtime/invocation/x/response");
        assert_eq!((head.length, head.chunked, head.close), (5, false, false));
        assert_eq!(body, b"hello");
    }

    #[tokio::test]
    async fn a_get_has_no_body() {
        let (head, body) = parse(b"GET /2018-06-01/runtime/invocation/next HTTP/1.1\r\n\r\n")
            .await
            .unwrap()
            .unwrap();
        assert_eq!((head.method.as_str(), head.length), ("GET", 0));
        assert!(body.is_empty());
    }

    #[tokio::test]
    async fn a_chunked_body_with_extensions_and_trailers() {
        let (head, body) = parse(
            b"POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n\
              5\r\nhello\r\nA;name=value\r\n, world!!!\r\n0\r\nX-Trailer: 1\r\n\r\n",
        )
        .await
        .unwrap()
        .unwrap();
        assert!(head.chunked && head.close);
        assert_eq!(body, b"hello, world!!!");
    }

    #[tokio::test]
    async fn two_requests_on_one_connection() {
        let mut reader = BufReader::new(
            &b"POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n\
               POST /b HTTP/1.1\r\nContent-Length: 2\r\n\r\ncd"[..],
        );
        for (path, expected) in [("/a", b"ab"), ("/b", b"cd")] {
            let head = read_head(&mut reader).await.unwrap().unwrap();
            assert_eq!(head.path, path);
            assert_eq!(read_body(&mut reader, &head).await.unwrap(), expected);
        }
        assert!(read_head(&mut reader).await.unwrap().is_none());
    }

    #[tokio::test]
    async fn broken_requests_are_errors() {
        for bytes in [
            &b"GET\r\n\r\n"[..],
            b"GET / HTTP/1.1\r\nno colon\r\n\r\n",
            b"GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n",
            b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nshort",
            b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n",
            b"POST / HTTP/1.1\r\nHost: x\r\n",
        ] {
            assert!(
                parse(bytes).await.is_err(),
                "{}",
                String::from_utf8_lossy(bytes)
            );
        }
    }

    #[test]
    fn routes() {
        let head = |method: &str, path: &str| Head {
            method: method.into(),
            path: path.into(),
            length: 0,
            chunked: false,
            close: false,
        };
        let cases = [
            ("GET", "/2018-06-01/runtime/invocation/next", Route::Next),
            ("POST", "/2018-06-01/runtime/invocation/next", Route::Refuse),
            (
                "GET",
                "/2018-06-01/runtime/invocation/id/response",
                Route::Refuse,
            ),
            (
                "POST",
                "/2018-06-01/runtime/invocation/id/response",
                Route::Answer(Outcome::Response),
            ),
            (
                "POST",
                "/2018-06-01/runtime/invocation/id/error",
                Route::Answer(Outcome::Error),
            ),
            (
                "POST",
                "/2018-06-01/runtime/init/error",
                Route::Answer(Outcome::InitError),
            ),
            (
                "POST",
                "/2018-06-01/runtime/invocation/other/response",
                Route::Refuse,
            ),
            ("POST", "/", Route::Refuse),
            ("GET", "/bucket/key", Route::Refuse),
        ];
        for (method, path, expected) in cases {
            assert_eq!(
                route(&head(method, path), "id"),
                expected,
                "{method} {path}"
            );
        }
    }

    #[test]
    fn uuids() {
        let (a, b) = (random_uuid(), random_uuid());
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "4");
        assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"), "{a}");
    }

    /// One start over an in-memory connection: the event handed out with its
    /// headers, a DynamoDB request refused, the response recorded.
    #[tokio::test]
    async fn a_start_over_one_connection() {
        let shared = Arc::new(Shared {
            event: Event::new(&b"{\"e\":1}"[..], "f"),
            seen: Mutex::new(Seen::default()),
            answered: watch::channel(false).0,
            on_first_poll: Mutex::new(None),
        });
        let id = shared.event.request_id.clone();
        let (client, server) = tokio::io::duplex(4096);
        tokio::spawn(serve_connection(server, shared.clone()));
        let mut client = BufReader::new(client);
        let mut exchange = async |request: String| {
            client.write_all(request.as_bytes()).await.unwrap();
            let mut head = String::new();
            let mut length = 0;
            while let Some(line) = read_line(&mut client).await.unwrap() {
                if line.is_empty() {
                    break;
                }
                if let Some(l) = line.strip_prefix("Content-Length: ") {
                    length = l.parse().unwrap();
                }
                head.push_str(&line);
                head.push('\n');
            }
            let mut body = vec![0; length];
            client.read_exact(&mut body).await.unwrap();
            (head, String::from_utf8(body).unwrap())
        };
        let (head, body) = exchange(format!("GET {API}/invocation/next HTTP/1.1\r\n\r\n")).await;
        assert!(head.starts_with("HTTP/1.1 200 OK\n"), "{head}");
        assert!(head.contains(&format!("Lambda-Runtime-Aws-Request-Id: {id}\n")));
        assert!(head.contains("Lambda-Runtime-Invoked-Function-Arn: arn:aws:lambda:us-east-1:123456789012:function:f\n"));
        assert_eq!(body, "{\"e\":1}");
        let (head, _) = exchange("POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}".into()).await;
        assert!(head.starts_with("HTTP/1.1 400 "), "{head}");
        assert!(shared.seen.lock().unwrap().answered.is_none());
        let (head, _) = exchange(format!(
            "POST {API}/invocation/{id}/response HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n\
             10\r\n{{\"statusCode\":20\r\n2\r\n4}}\r\n0\r\n\r\n"
        ))
        .await;
        assert!(head.starts_with("HTTP/1.1 202 "), "{head}");
        let seen = shared.seen.lock().unwrap().clone();
        assert_eq!(seen.outcome, Some(Outcome::Response));
        assert_eq!(seen.status(), Some(204));
        assert!(seen.first_poll.unwrap() <= seen.event_sent.unwrap());
        assert!(seen.event_sent.unwrap() <= seen.answered.unwrap());
        assert!(*shared.answered.borrow());
    }
}
