//! The Runtime API of one long-lived process, as a warm Lambda instance
//! sees it: events are handed out one at a time, each when
//! [`WarmRuntime::invoke`] is called, and the process's answer is returned
//! to that call. The benchmark of warm function binaries
//! (`infra/bench/src/function_latency.rs`) times a process's requests and
//! reads its resident memory between them, with nothing else in it.

use super::{read_body, read_head, respond, Event, Outcome, API};
use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, BufReader};
use tokio::net::TcpListener;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;

/// What the process posted for one invocation.
#[derive(Debug)]
pub struct Answer {
    pub outcome: Outcome,
    pub body: Vec<u8>,
}

/// Why an invocation has no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoAnswer {
    /// The process did not answer within the limit.
    Timeout,
    /// The process posted `…/init/error`, or the runtime is gone.
    Failed,
}

struct Pending {
    event: Event,
    answer: oneshot::Sender<Answer>,
}

struct Shared {
    queue: tokio::sync::Mutex<mpsc::UnboundedReceiver<Pending>>,
    /// The answers awaited, by request id.
    waiting: Mutex<HashMap<String, oneshot::Sender<Answer>>>,
    /// Set when the process first asks for work: its init is done.
    first_poll: watch::Sender<Option<Instant>>,
    init_failed: watch::Sender<bool>,
}

/// The Runtime API of one process, served on 127.0.0.1 until dropped.
pub struct WarmRuntime {
    address: SocketAddr,
    queue: mpsc::UnboundedSender<Pending>,
    shared: Arc<Shared>,
    server: JoinHandle<()>,
}

impl WarmRuntime {
    pub async fn start() -> io::Result<WarmRuntime> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let address = listener.local_addr()?;
        let (queue, receiver) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared {
            queue: tokio::sync::Mutex::new(receiver),
            waiting: Mutex::new(HashMap::new()),
            first_poll: watch::channel(None).0,
            init_failed: watch::channel(false).0,
        });
        let served = shared.clone();
        let server = tokio::spawn(super::accept_each(listener, move |stream| {
            serve_connection(stream, served.clone())
        }));
        Ok(WarmRuntime {
            address,
            queue,
            shared,
            server,
        })
    }

    /// Where it listens: the value of `AWS_LAMBDA_RUNTIME_API`.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// When the process first asked for work, once it has (within `limit`).
    pub async fn first_poll(&self, limit: Duration) -> Result<Instant, NoAnswer> {
        let mut polled = self.shared.first_poll.subscribe();
        let mut failed = self.shared.init_failed.subscribe();
        tokio::select! {
            at = polled.wait_for(Option::is_some) => at.ok().and_then(|at| *at).ok_or(NoAnswer::Failed),
            _ = failed.wait_for(|failed| *failed) => Err(NoAnswer::Failed),
            _ = tokio::time::sleep(limit) => Err(NoAnswer::Timeout),
        }
    }

    /// Hands `event` to the process when it next asks for work, and waits
    /// (at most `limit`) for its answer.
    pub async fn invoke(&self, event: Event, limit: Duration) -> Result<Answer, NoAnswer> {
        let (answer, answered) = oneshot::channel();
        self.queue
            .send(Pending { event, answer })
            .map_err(|_| NoAnswer::Failed)?;
        let mut failed = self.shared.init_failed.subscribe();
        tokio::select! {
            answer = answered => answer.map_err(|_| NoAnswer::Failed),
            _ = failed.wait_for(|failed| *failed) => Err(NoAnswer::Failed),
            _ = tokio::time::sleep(limit) => Err(NoAnswer::Timeout),
        }
    }
}

impl Drop for WarmRuntime {
    fn drop(&mut self) {
        self.server.abort();
    }
}

async fn serve_connection<S: AsyncRead + AsyncWrite + Unpin>(stream: S, shared: Arc<Shared>) {
    let mut stream = BufReader::new(stream);
    while let Ok(Some(head)) = read_head(&mut stream).await {
        let Ok(body) = read_body(&mut stream, &head).await else {
            return;
        };
        let rest = head.path.strip_prefix(API).unwrap_or_default();
        let served = if head.method == "GET" && rest == "/invocation/next" {
            hand_out(&mut stream, &shared).await
        } else if head.method == "POST" && rest == "/init/error" {
            shared.init_failed.send_replace(true);
            accepted(&mut stream).await
        } else if let Some((id, outcome)) = answer_route(rest) {
            let waiting = shared.waiting.lock().unwrap().remove(id);
            if let Some(waiting) = waiting {
                // The caller may have stopped waiting (a timeout).
                waiting.send(Answer { outcome, body }).ok();
            }
            accepted(&mut stream).await
        } else {
            super::refuse(&mut stream).await
        };
        if served.is_err() || head.close {
            return;
        }
    }
}

/// The request id and outcome of `…/invocation/{id}/response` or `/error`.
fn answer_route(rest: &str) -> Option<(&str, Outcome)> {
    let rest = rest.strip_prefix("/invocation/")?;
    if let Some(id) = rest.strip_suffix("/response") {
        return Some((id, Outcome::Response));
    }
    rest.strip_suffix("/error").map(|id| (id, Outcome::Error))
}

async fn accepted<W: AsyncWrite + Unpin>(stream: &mut W) -> io::Result<()> {
    respond(
        stream,
        "202 Accepted",
        "application/json",
        &[],
        b"{\"status\":\"OK\"}\n",
    )
    .await
}

/// Answers a poll for the next invocation with the next event invoked,
/// waiting for one as long as it takes (Lambda freezes an idle process).
async fn hand_out<W: AsyncWrite + Unpin>(stream: &mut W, shared: &Shared) -> io::Result<()> {
    shared.first_poll.send_if_modified(|at| {
        let first = at.is_none();
        at.get_or_insert_with(Instant::now);
        first
    });
    let Some(Pending { event, answer }) = shared.queue.lock().await.recv().await else {
        std::future::pending::<()>().await;
        unreachable!("pending never resolves");
    };
    shared
        .waiting
        .lock()
        .unwrap()
        .insert(event.request_id.clone(), answer);
    super::write_event(stream, &event).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    /// A process's runtime loop, on one keep-alive connection: asks for
    /// `events` invocations and answers each with its event's body reversed.
    async fn echo_reversed(address: SocketAddr, events: usize) {
        let mut stream = BufReader::new(TcpStream::connect(address).await.unwrap());
        for _ in 0..events {
            let next = format!("GET {API}/invocation/next HTTP/1.1\r\nHost: x\r\n\r\n");
            stream.get_mut().write_all(next.as_bytes()).await.unwrap();
            let (mut id, mut length) = (String::new(), 0);
            loop {
                let mut line = String::new();
                stream.read_line(&mut line).await.unwrap();
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                let (name, value) = line.split_once(':').unwrap_or((line, ""));
                match name.to_ascii_lowercase().as_str() {
                    "lambda-runtime-aws-request-id" => id = value.trim().to_string(),
                    "content-length" => length = value.trim().parse().unwrap(),
                    _ => {}
                }
            }
            let mut body = vec![0; length];
            stream.read_exact(&mut body).await.unwrap();
            body.reverse();
            let post = format!(
                "POST {API}/invocation/{id}/response HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
                body.len()
            );
            stream.get_mut().write_all(post.as_bytes()).await.unwrap();
            stream.get_mut().write_all(&body).await.unwrap();
            // The 202.
            let mut accepted = String::new();
            while accepted != "\r\n" {
                accepted.clear();
                stream.read_line(&mut accepted).await.unwrap();
            }
            let mut ok = vec![0; "{\"status\":\"OK\"}\n".len()];
            stream.read_exact(&mut ok).await.unwrap();
        }
    }

    #[tokio::test]
    async fn hands_out_event_after_event_and_returns_each_answer() {
        let runtime = WarmRuntime::start().await.unwrap();
        let process = tokio::spawn(echo_reversed(runtime.address(), 2));
        let limit = Duration::from_secs(10);
        runtime.first_poll(limit).await.unwrap();
        for body in ["abc", "hello"] {
            let answer = runtime.invoke(Event::new(body, "f"), limit).await.unwrap();
            assert_eq!(answer.outcome, Outcome::Response);
            assert_eq!(answer.body, body.bytes().rev().collect::<Vec<u8>>());
        }
        process.await.unwrap();
        // No process asks for a third: the invocation times out.
        let third = runtime.invoke(Event::new("x", "f"), Duration::from_millis(50));
        assert_eq!(third.await.unwrap_err(), NoAnswer::Timeout);
    }

    #[test]
    fn answers_are_routed_by_request_id() {
        assert_eq!(
            answer_route("/invocation/abc/response"),
            Some(("abc", Outcome::Response))
        );
        assert_eq!(
            answer_route("/invocation/abc/error"),
            Some(("abc", Outcome::Error))
        );
        assert_eq!(answer_route("/invocation/abc"), None);
        assert_eq!(answer_route("/init/error"), None);
    }
}
