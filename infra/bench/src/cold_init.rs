//! Cold init of Lambda function binaries, measured with a minimal Runtime API
//! emulator (infra/runtime-api).
//!
//! Usage:
//!
//! ```sh
//! cargo run --release -p bench --bin cold-init -- [--rounds N] [--warmup N] [--event FILE]
//!     [--timeout SECONDS] [--log-dir DIR] [--env NAME=VALUE ...] BASELINE BINARY [BINARY ...]
//! ```
//!
//! Each BINARY is a path to a function binary built for this machine, or
//! LABEL=PATH to name it in the table (for one function built with several
//! profiles). The first one given is the baseline: the hello world
//! (infra/hello-world), which every ratio is taken to.
//!
//! What one start measures: the benchmark serves the Lambda Runtime API
//! (<https://docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html>) on
//! 127.0.0.1 (loopback only), spawns the binary with
//! AWS_LAMBDA_RUNTIME_API pointing at it and the environment Lambda and
//! the functions set (see `lambda_environment`), and takes
//!
//! - init: the time from spawning the process to its first
//!   `GET /2018-06-01/runtime/invocation/next`: the runtime has done
//!   everything `main` does before it asks for work (logging,
//!   configuration, the AWS SDK clients);
//! - init CPU: the CPU time its threads had used by then
//!   (/proc/PID/task/*/schedstat): on a busy machine the wall time also
//!   holds the time spent waiting for a core, which is the same for every
//!   binary and so pulls the ratios towards 1; the CPU time does not;
//! - first invoke: the time from handing it an API Gateway HTTP API (v2)
//!   event to its POST .../response or .../error;
//! - peak RSS: the process's VmHWM (/proc/PID/status) when its start ends.
//!
//! Then it kills the process (by its pid) and starts the next. Nothing else
//! is emulated: DynamoDB and S3 requests (the functions' endpoints point at
//! this same server) are refused with a 400, so a first invoke that needs
//! data ends in an error response quickly and touches no running stack.
//! Init is the figure; the first invoke is shown for what it is.
//!
//! The binaries are started in turn, round after round (A, B, C, A, B, C,
//! ...), so that whatever else the machine does hits all of them alike;
//! --warmup rounds come first and are not counted (they load the binaries
//! into the page cache). For each binary the table shows the minimum,
//! median and maximum init, the median init CPU, and the medians of the
//! per-round ratios of both to the baseline's in the same round: quote the
//! ratios, not the milliseconds, when comparing runs made at different
//! times.
//!
//! The event is --event FILE for every binary; without it, events/NAME.json
//! of this repository for a binary named NAME (the functions' sample
//! events), or events/search.json when there is none (the hello world
//! answers any event).
//!
//! --env NAME=VALUE adds to (or overrides) that environment, for every
//! binary: to see what a setting costs (SSL_CERT_DIR=..., RUST_LOG=...).
//!
//! Output is Markdown, on stdout. It replaces infra/scripts/cold-init.py,
//! with the same options and the same table.
//!
//! Examples:
//!
//! ```sh
//! cargo run --release -p bench --bin cold-init -- target/release/hello-world target/release/search
//! cargo run --release -p bench --bin cold-init -- --rounds 50 hello=/tmp/a/hello-world \
//!     thin=/tmp/a/search fat=/tmp/b/search
//! ```

use clap::{CommandFactory, Parser};
use runtime_api::{Emulator, Event, FirstPoll, Outcome};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::IsTerminal;
use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

#[derive(Parser)]
#[command(
    name = "cold-init",
    about = "Cold init of Lambda function binaries, measured with a minimal Runtime API emulator."
)]
struct Args {
    /// The binaries, the baseline first
    #[arg(value_name = "[LABEL=]PATH", required = true)]
    binaries: Vec<String>,
    /// Counted rounds
    #[arg(long, default_value_t = 30)]
    rounds: usize,
    /// Uncounted rounds first
    #[arg(long, default_value_t = 1)]
    warmup: usize,
    /// The event every binary gets (default: events/NAME.json)
    #[arg(long, value_name = "FILE")]
    event: Option<PathBuf>,
    /// Seconds a start may take
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    timeout: f64,
    /// Keep each binary's output in DIR/LABEL.log
    #[arg(long, value_name = "DIR")]
    log_dir: Option<PathBuf>,
    /// More environment, for every binary
    #[arg(long = "env", value_name = "NAME=VALUE")]
    env: Vec<String>,
}

/// The repository's root (events/ is there).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The environment of a function on Lambda (provided.al2023), with the
/// variables of template.yaml and the functions' endpoints pointed at the
/// emulator. Nothing is inherited from this process: the binaries need
/// nothing else (they link the C library only). Lambda's LD_LIBRARY_PATH
/// is kept, since the dynamic loader searches it at every start there too.
fn lambda_environment(name: &str, runtime_api: SocketAddr) -> Vec<(String, String)> {
    let endpoint = format!("http://{runtime_api}");
    let mut env = runtime_api::runtime_environment(name, runtime_api, 256);
    let rest = [
        // The rest of what Lambda sets for a custom runtime.
        ("_HANDLER", "bootstrap"),
        ("AWS_LAMBDA_INITIALIZATION_TYPE", "on-demand"),
        ("AWS_REGION", "us-east-1"),
        ("AWS_DEFAULT_REGION", "us-east-1"),
        // Dummy credentials: the SDK signs with them, nothing checks them.
        ("AWS_ACCESS_KEY_ID", "cold-init"),
        ("AWS_SECRET_ACCESS_KEY", "cold-init"),
        ("AWS_SESSION_TOKEN", "cold-init"),
        ("LAMBDA_TASK_ROOT", "/var/task"),
        ("LAMBDA_RUNTIME_DIR", "/var/runtime"),
        ("LANG", "en_US.UTF-8"),
        ("TZ", ":UTC"),
        ("PATH", "/usr/local/bin:/usr/bin/:/bin:/opt/bin"),
        (
            "LD_LIBRARY_PATH",
            "/lib64:/usr/lib64:/var/runtime:/var/runtime/lib:/var/task:/var/task/lib:/opt/lib",
        ),
        // template.yaml's Globals.
        ("ENTRIES_TABLE", "dictionary-entries"),
        ("KEYS_TABLE", "dictionary-keys"),
        ("AUDIO_BUCKET", "dictionary-audio"),
        ("AUDIO_BASE_URL", "https://d111111abcdef8.cloudfront.net"),
        ("RUST_LOG", "info"),
        // Not on Lambda: DynamoDB and S3 are this emulator, which refuses
        // them, so that no request leaves the machine or reaches a local stack.
        ("DYNAMODB_ENDPOINT", &endpoint),
        ("S3_ENDPOINT", &endpoint),
        ("AWS_EC2_METADATA_DISABLED", "true"),
    ];
    env.extend(
        rest.into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string())),
    );
    env
}

/// One binary to start: its label in the table, its path, its event.
struct Binary {
    label: String,
    path: PathBuf,
    event: Vec<u8>,
}

/// One start of one binary: what the emulator saw, in ms from the spawn.
#[derive(Debug, Default)]
struct Start {
    init_ms: Option<f64>,
    init_cpu_ms: Option<f64>,
    invoke_ms: Option<f64>,
    /// "response", "error", "init error", "timeout", "no answer", "exited N".
    outcome: String,
    /// The statusCode of the function's response.
    status: Option<i64>,
    rss_mb: Option<f64>,
}

fn ms(from: Instant, to: Instant) -> f64 {
    to.saturating_duration_since(from).as_nanos() as f64 / 1e6
}

/// Starts the binary once, lets it take one event, kills it.
async fn run_once(
    binary: &Binary,
    timeout: Duration,
    log_dir: Option<&Path>,
    extra_env: &BTreeMap<String, String>,
) -> Start {
    // The pid, once spawned; the CPU time read at the first poll, while the
    // process waits for its event. The server runs on this thread, and the
    // pid is set right after the spawn, before anything is awaited: the
    // first poll always finds it.
    let pid = Arc::new(OnceLock::<u32>::new());
    let init_cpu = Arc::new(Mutex::new(None));
    let on_first_poll: FirstPoll = {
        let (pid, init_cpu) = (pid.clone(), init_cpu.clone());
        Box::new(move || {
            *init_cpu.lock().unwrap() = pid.get().copied().and_then(bench::process_stats::cpu_ms)
        })
    };
    let emulator = Emulator::start_with(
        Event::new(binary.event.clone(), &binary.label),
        Some(on_first_poll),
    )
    .await
    .expect("a port on 127.0.0.1");
    let mut env = lambda_environment(&binary.label, emulator.address());
    env.retain(|(name, _)| !extra_env.contains_key(name));
    env.extend(extra_env.iter().map(|(k, v)| (k.clone(), v.clone())));
    let (stdout, stderr) = match log_dir {
        Some(dir) => {
            let path = dir.join(format!("{}.log", binary.label.replace('/', "_")));
            let log = File::options()
                .create(true)
                .append(true)
                .open(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (
                Stdio::from(log.try_clone().expect("a log file")),
                Stdio::from(log),
            )
        }
        None => (Stdio::null(), Stdio::null()),
    };

    let spawned = Instant::now();
    let mut child = Command::new(&binary.path)
        .env_clear()
        .envs(env)
        .current_dir("/")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .unwrap_or_else(|e| panic!("{} starts: {e}", binary.path.display()));
    pid.set(child.id()).ok();
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        let answered = tokio::time::timeout(Duration::from_millis(50), emulator.answered()).await;
        if answered.is_ok() || matches!(child.try_wait(), Ok(Some(_))) {
            break;
        }
    }
    let rss_mb = bench::process_stats::memory_mb(child.id(), "VmHWM");
    if matches!(child.try_wait(), Ok(None)) {
        child.kill().ok();
    }
    let exit = child.wait().expect("the process is waited for");
    let seen = emulator.seen();
    drop(emulator);

    let outcome = match seen.outcome {
        Some(Outcome::Response) => "response".to_string(),
        Some(Outcome::Error) => "error".to_string(),
        Some(Outcome::InitError) => "init error".to_string(),
        None if exit.signal() != Some(SIGKILL) => {
            format!(
                "exited {}",
                exit.code()
                    .or(exit.signal().map(|s| -s))
                    .unwrap_or_default()
            )
        }
        None if seen.first_poll.is_none() => "timeout".to_string(),
        None => "no answer".to_string(),
    };
    let init_cpu_ms = *init_cpu.lock().unwrap();
    Start {
        init_ms: seen.first_poll.map(|t| ms(spawned, t)),
        init_cpu_ms,
        invoke_ms: seen.event_sent.zip(seen.answered).map(|(s, a)| ms(s, a)),
        status: seen.status(),
        outcome,
        rss_mb,
    }
}

/// SIGKILL's number on Linux: how a process killed by `run_once` ends.
const SIGKILL: i32 = 9;

fn event_for(path: &Path, event_file: Option<&Path>) -> Result<Vec<u8>, String> {
    let name = match event_file {
        Some(file) => file.to_path_buf(),
        None => {
            let events = root().join("events");
            let name = events.join(format!(
                "{}.json",
                path.file_name().unwrap_or_default().to_string_lossy()
            ));
            if name.exists() {
                name
            } else {
                events.join("search.json")
            }
        }
    };
    std::fs::read(&name).map_err(|e| format!("{}: {e}", name.display()))
}

fn fmt(value: Option<f64>, digits: usize) -> String {
    value.map_or_else(|| "–".to_string(), |v| format!("{v:.digits$}"))
}

/// The median (the mean of the two middle values of an even count), as
/// Python's statistics.median.
fn median(values: &[f64]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// The one-minute load average.
fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next()?.parse().ok())
        .unwrap_or(f64::NAN)
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map_or_else(|_| "unknown host".to_string(), |h| h.trim().to_string())
}

/// Now, as YYYY-MM-DD HH:MM UTC.
fn now_utc() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs() as i64;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60
    )
}

fn usage_error(message: String) -> ! {
    Args::command()
        .error(clap::error::ErrorKind::ValueValidation, message)
        .exit()
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args = Args::parse();
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        usage_error(format!(
            "--timeout {}: not a positive number of seconds",
            args.timeout
        ));
    }
    let mut binaries: Vec<Binary> = Vec::new();
    for spec in &args.binaries {
        let (label, path) = match spec.split_once('=') {
            Some((label, path)) => (label.to_string(), path),
            None => (
                Path::new(spec)
                    .file_name()
                    .map_or_else(|| spec.clone(), |n| n.to_string_lossy().into_owned()),
                spec.as_str(),
            ),
        };
        let path =
            std::path::absolute(path).unwrap_or_else(|e| usage_error(format!("{path}: {e}")));
        let executable = std::fs::metadata(&path)
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
        if !executable {
            usage_error(format!("{} is not an executable file", path.display()));
        }
        if binaries.iter().any(|b| b.label == label) {
            usage_error(format!("{label} is given twice; name them LABEL=PATH"));
        }
        let event = event_for(&path, args.event.as_deref()).unwrap_or_else(|e| usage_error(e));
        binaries.push(Binary { label, path, event });
    }
    if let Some(dir) = &args.log_dir {
        std::fs::create_dir_all(dir)
            .unwrap_or_else(|e| usage_error(format!("{}: {e}", dir.display())));
    }
    let mut extra_env = BTreeMap::new();
    for setting in &args.env {
        match setting.split_once('=') {
            Some((name, value)) if !name.is_empty() => {
                extra_env.insert(name.to_string(), value.to_string());
            }
            _ => usage_error(format!("--env {setting}: not NAME=VALUE")),
        }
    }
    let timeout = Duration::from_secs_f64(args.timeout);

    let load_before = load_average();
    let mut results: Vec<Vec<Start>> = binaries.iter().map(|_| Vec::new()).collect();
    let total = args.warmup + args.rounds;
    for round in 0..total {
        for (binary, starts) in binaries.iter().zip(&mut results) {
            let start = run_once(binary, timeout, args.log_dir.as_deref(), &extra_env).await;
            if round >= args.warmup {
                starts.push(start);
            }
        }
        if std::io::stderr().is_terminal() {
            eprint!("round {}/{total}\r", round + 1);
        }
    }
    let load_after = load_average();

    let baseline = &binaries[0].label;
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let with = if args.env.is_empty() {
        ".".to_string()
    } else {
        format!("; with {}.", args.env.join(" "))
    };
    println!(
        "Cold init: {} rounds (after {} uncounted), binaries started in turn; \
         {}, {cpus} CPUs, load average {load_before:.2} before, {load_after:.2} after; {}{with}",
        args.rounds,
        args.warmup,
        host_name(),
        now_utc(),
    );
    println!();
    println!(
        "Ratios: the median over the rounds of each start's figure ÷ {baseline}'s in the same round."
    );
    println!();
    println!(
        "| Binary | Init min ms | Init median ms | Init max ms | Init ÷ {baseline} \
         | Init CPU median ms | Init CPU ÷ {baseline} \
         | First invoke median ms | First invoke result | Peak RSS MB |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|");
    let base = &results[0];
    // Each start's figure ÷ the baseline's start of the same round, where
    // both have one (and the baseline's is not 0).
    let ratios = |starts: &[Start], figure: fn(&Start) -> Option<f64>| -> Vec<f64> {
        starts
            .iter()
            .zip(base)
            .filter_map(|(s, b)| Some(figure(s)? / figure(b).filter(|b| *b != 0.0)?))
            .collect()
    };
    for (binary, starts) in binaries.iter().zip(&results) {
        let inits: Vec<f64> = starts.iter().filter_map(|s| s.init_ms).collect();
        let invokes: Vec<f64> = starts.iter().filter_map(|s| s.invoke_ms).collect();
        let cpus: Vec<f64> = starts.iter().filter_map(|s| s.init_cpu_ms).collect();
        let rss: Vec<f64> = starts.iter().filter_map(|s| s.rss_mb).collect();
        let mut outcomes = BTreeMap::<String, usize>::new();
        for s in starts {
            let key = match s.status {
                Some(status) => format!("{} {status}", s.outcome),
                None => s.outcome.clone(),
            };
            *outcomes.entry(key).or_default() += 1;
        }
        let outcomes: Vec<String> = outcomes.iter().map(|(k, n)| format!("{k} ×{n}")).collect();
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            binary.label,
            fmt(inits.iter().copied().reduce(f64::min), 2),
            fmt(median(&inits), 2),
            fmt(inits.iter().copied().reduce(f64::max), 2),
            fmt(median(&ratios(starts, |s| s.init_ms)), 2),
            fmt(median(&cpus), 2),
            fmt(median(&ratios(starts, |s| s.init_cpu_ms)), 2),
            fmt(median(&invokes), 2),
            outcomes.join(", "),
            fmt(median(&rss), 1),
        );
    }
    let failed: Vec<&str> = binaries
        .iter()
        .zip(&results)
        .filter(|(_, starts)| !starts.iter().any(|s| s.init_ms.is_some_and(|ms| ms != 0.0)))
        .map(|(b, _)| b.label.as_str())
        .collect();
    if !failed.is_empty() {
        eprintln!(
            "\nNo start of {} reached the Runtime API.",
            failed.join(", ")
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_as_python_takes_them() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }

    #[test]
    fn an_environment_with_the_emulator_as_every_endpoint() {
        let env = lambda_environment("search", "127.0.0.1:1234".parse().unwrap());
        let get = |name: &str| env.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        assert_eq!(get("AWS_LAMBDA_RUNTIME_API"), Some("127.0.0.1:1234"));
        assert_eq!(get("DYNAMODB_ENDPOINT"), Some("http://127.0.0.1:1234"));
        assert_eq!(get("S3_ENDPOINT"), Some("http://127.0.0.1:1234"));
        assert_eq!(get("AWS_LAMBDA_LOG_GROUP_NAME"), Some("/aws/lambda/search"));
    }

    #[test]
    fn the_sample_event_of_a_function_else_search() {
        let search = std::fs::read(root().join("events/search.json")).unwrap();
        let entry = std::fs::read(root().join("events/entry.json")).unwrap();
        assert_eq!(event_for(Path::new("/x/entry"), None).unwrap(), entry);
        assert_eq!(
            event_for(Path::new("/x/hello-world"), None).unwrap(),
            search
        );
    }
}
