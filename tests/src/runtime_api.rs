//! A minimal Lambda Runtime API on loopback, enough to run one function
//! binary for real (its own `main`, logging and runtime loop) on one event,
//! without `cargo lambda watch` in between: the binary asks for the next
//! invocation, gets `event`, and posts its answer back.

use serde_json::Value;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

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
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    let log_path = std::env::temp_dir().join(format!(
        "runtime-api-{}-{}.log",
        std::process::id(),
        address.port()
    ));
    let log_file = std::fs::File::create(&log_path).expect("log file");
    let mut child = std::process::Command::new(binary)
        .envs(env.iter().cloned())
        .env("AWS_LAMBDA_RUNTIME_API", address.to_string())
        .env("AWS_LAMBDA_FUNCTION_NAME", "local-test")
        .env("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST")
        .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
        .env("AWS_LAMBDA_LOG_GROUP_NAME", "local")
        .env("AWS_LAMBDA_LOG_STREAM_NAME", "local")
        .stdin(Stdio::null())
        .stdout(log_file.try_clone().expect("log file"))
        .stderr(log_file)
        .spawn()
        .unwrap_or_else(|e| panic!("{} starts: {e}", binary.display()));

    let event = event.to_string();
    let answer = tokio::time::timeout(limit, async {
        let mut handed_out = false;
        loop {
            let (stream, _) = listener.accept().await.expect("accept");
            if let Some(answer) = serve_connection(stream, &event, &mut handed_out).await {
                return answer;
            }
        }
    })
    .await;
    child.kill().ok();
    child.wait().ok();
    let answer = answer.expect("the function answers in time");
    let logs = std::fs::read_to_string(&log_path).unwrap_or_default();
    std::fs::remove_file(&log_path).ok();
    Invocation {
        response: serde_json::from_slice(&answer).unwrap_or(Value::Null),
        logs,
    }
}

/// Serves the requests of one keep-alive connection. Returns the body the
/// function posted as its answer (or error), once it does.
async fn serve_connection(
    stream: TcpStream,
    event: &str,
    handed_out: &mut bool,
) -> Option<Vec<u8>> {
    let mut stream = BufReader::new(stream);
    loop {
        let (request_line, body) = read_request(&mut stream).await?;
        let path = request_line.split_whitespace().nth(1).unwrap_or_default();
        if path.ends_with("/invocation/next") {
            if *handed_out {
                // One event only: hold the poll until the binary is stopped.
                std::future::pending::<()>().await;
            }
            *handed_out = true;
            let deadline = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis())
                + 10_000;
            let headers = format!(
                "Lambda-Runtime-Aws-Request-Id: test-invocation-1\r\n\
                 Lambda-Runtime-Deadline-Ms: {deadline}\r\n\
                 Lambda-Runtime-Invoked-Function-Arn: arn:aws:lambda:us-east-1:123456789012:function:local-test\r\n\
                 Lambda-Runtime-Trace-Id: Root=1-00000000-000000000000000000000000\r\n"
            );
            respond(&mut stream, "200 OK", &headers, event.as_bytes()).await;
        } else {
            respond(&mut stream, "202 Accepted", "", b"{}").await;
            if path.ends_with("/response") || path.ends_with("/error") {
                return Some(body);
            }
        }
    }
}

/// One HTTP/1.1 request: its request line and body (by Content-Length or
/// chunked). `None` when the connection closes.
async fn read_request(stream: &mut BufReader<TcpStream>) -> Option<(String, Vec<u8>)> {
    let mut request_line = String::new();
    if stream.read_line(&mut request_line).await.ok()? == 0 {
        return None;
    }
    let (mut length, mut chunked) = (0usize, false);
    loop {
        let mut line = String::new();
        stream.read_line(&mut line).await.ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().ok()?,
            "transfer-encoding" => chunked = value.trim().eq_ignore_ascii_case("chunked"),
            _ => {}
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            stream.read_line(&mut size).await.ok()?;
            let size = usize::from_str_radix(size.trim().split(';').next()?, 16).ok()?;
            let mut chunk = vec![0; size + 2];
            stream.read_exact(&mut chunk).await.ok()?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else {
        body.resize(length, 0);
        stream.read_exact(&mut body).await.ok()?;
    }
    Some((request_line, body))
}

async fn respond(stream: &mut BufReader<TcpStream>, status: &str, headers: &str, body: &[u8]) {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{headers}\r\n",
        body.len()
    );
    let stream = stream.get_mut();
    stream.write_all(head.as_bytes()).await.ok();
    stream.write_all(body).await.ok();
    stream.flush().await.ok();
}
