#!/usr/bin/env python3
"""Cold init of Lambda function binaries, measured with a minimal Runtime API emulator.

Usage:
    infra/scripts/cold-init.py [--rounds N] [--warmup N] [--event FILE]
                               [--timeout SECONDS] [--log-dir DIR]
                               [--env NAME=VALUE ...] BASELINE BINARY [BINARY ...]

Each BINARY is a path to a function binary built for this machine, or
LABEL=PATH to name it in the table (for one function built with several
profiles). The first one given is the baseline: the hello world
(infra/hello-world), which every ratio is taken to.

What one start measures: the script serves the Lambda Runtime API
(https://docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html) on
127.0.0.1 (loopback only), spawns the binary with
AWS_LAMBDA_RUNTIME_API pointing at it and the environment Lambda and
the functions set (see lambda_environment), and takes

  init          the time from spawning the process to its first
                GET /2018-06-01/runtime/invocation/next: the runtime has
                done everything `main` does before it asks for work
                (logging, configuration, the AWS SDK clients);
  init CPU      the CPU time its threads had used by then
                (/proc/PID/task/*/schedstat): on a busy machine the wall
                time also holds the time spent waiting for a core, which
                is the same for every binary and so pulls the ratios
                towards 1; the CPU time does not;
  first invoke  the time from handing it an API Gateway HTTP API (v2)
                event to its POST .../response or .../error.

Then it kills the process (by its pid) and starts the next. Nothing else
is emulated: DynamoDB and S3 requests (the functions' endpoints point at
this same server) are refused with a 400, so a first invoke that needs
data ends in an error response quickly and touches no running stack.
Init is the figure; the first invoke is shown for what it is.

The binaries are started in turn, round after round (A, B, C, A, B, C,
...), so that whatever else the machine does hits all of them alike;
--warmup rounds come first and are not counted (they load the binaries
into the page cache). For each binary the table shows the minimum,
median and maximum init, the median init CPU, and the medians of the
per-round ratios of both to the baseline's in the same round: quote the
ratios, not the milliseconds, when comparing runs made at different
times.

The event is --event FILE for every binary; without it, events/NAME.json
of this repository for a binary named NAME (the functions' sample
events), or events/search.json when there is none (the hello world
answers any event).

--env NAME=VALUE adds to (or overrides) that environment, for every
binary: to see what a setting costs (SSL_CERT_DIR=..., RUST_LOG=...).

Standard library only. Output is Markdown, on stdout.

Examples:
    infra/scripts/cold-init.py target/release/hello-world target/release/search
    infra/scripts/cold-init.py --rounds 50 hello=/tmp/a/hello-world \\
        thin=/tmp/a/search fat=/tmp/b/search
"""

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EVENTS = os.path.join(ROOT, "events")
API = "/2018-06-01/runtime"
# How long Lambda's deadline header says an invocation may take (the
# functions' Timeout in template.yaml is 10 s).
DEADLINE_MS = 10_000


def lambda_environment(name, runtime_api):
    """The environment of a function on Lambda (provided.al2023), with the
    variables of template.yaml and the functions' endpoints pointed at the
    emulator. Nothing is inherited from this process: the binaries need
    nothing else (they link the C library only). Lambda's LD_LIBRARY_PATH
    is kept, since the dynamic loader searches it at every start there too."""
    return {
        # What Lambda sets for a custom runtime.
        "AWS_LAMBDA_RUNTIME_API": runtime_api,
        "_HANDLER": "bootstrap",
        "AWS_LAMBDA_FUNCTION_NAME": name,
        "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
        "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "256",
        "AWS_LAMBDA_LOG_GROUP_NAME": f"/aws/lambda/{name}",
        "AWS_LAMBDA_LOG_STREAM_NAME": "2026/01/01/[$LATEST]00000000000000000000000000000000",
        "AWS_LAMBDA_INITIALIZATION_TYPE": "on-demand",
        "AWS_REGION": "us-east-1",
        "AWS_DEFAULT_REGION": "us-east-1",
        # Dummy credentials: the SDK signs with them, nothing checks them.
        "AWS_ACCESS_KEY_ID": "cold-init",
        "AWS_SECRET_ACCESS_KEY": "cold-init",
        "AWS_SESSION_TOKEN": "cold-init",
        "LAMBDA_TASK_ROOT": "/var/task",
        "LAMBDA_RUNTIME_DIR": "/var/runtime",
        "LANG": "en_US.UTF-8",
        "TZ": ":UTC",
        "PATH": "/usr/local/bin:/usr/bin/:/bin:/opt/bin",
        "LD_LIBRARY_PATH": "/lib64:/usr/lib64:/var/runtime:/var/runtime/lib:/var/task:/var/task/lib:/opt/lib",
        # template.yaml's Globals.
        "ENTRIES_TABLE": "dictionary-entries",
        "KEYS_TABLE": "dictionary-keys",
        "AUDIO_BUCKET": "dictionary-audio",
        "AUDIO_BASE_URL": "https://d111111abcdef8.cloudfront.net",
        "RUST_LOG": "info",
        # Not on Lambda: DynamoDB and S3 are this emulator, which refuses
        # them, so that no request leaves the machine or reaches a local stack.
        "DYNAMODB_ENDPOINT": f"http://{runtime_api}",
        "S3_ENDPOINT": f"http://{runtime_api}",
        "AWS_EC2_METADATA_DISABLED": "true",
    }


class Start:
    """One start of one binary: what the emulator saw, when."""

    def __init__(self, event):
        self.event = event
        self.request_id = str(uuid.uuid4())
        self.spawned = None
        self.init_done = None
        self.event_sent = None
        self.finished = None
        self.outcome = None  # "response", "error", "init error"
        self.status = None  # the statusCode of the function's response
        self.over = threading.Event()  # set when the process is gone
        self.rss_mb = None
        self.init_cpu_ms = None

    def init_ms(self):
        return None if self.init_done is None else (self.init_done - self.spawned) / 1e6

    def invoke_ms(self):
        if self.finished is None or self.event_sent is None:
            return None
        return (self.finished - self.event_sent) / 1e6


class RuntimeApi(BaseHTTPRequestHandler):
    """The Runtime API for one start (server.start); anything else refused."""

    protocol_version = "HTTP/1.1"

    def do_GET(self):
        now = time.perf_counter_ns()
        start = self.server.start
        if self.path != f"{API}/invocation/next":
            return self.refuse()
        if start.init_done is not None:
            # The runtime asks for a second event: there is none. Hold the
            # request until the process is killed, as Lambda freezes it.
            start.over.wait(60)
            self.close_connection = True
            return
        start.init_done = now
        self.server.spawned.wait(5)
        start.init_cpu_ms = cpu_ms(self.server.pid)
        body = start.event
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Lambda-Runtime-Aws-Request-Id", start.request_id)
        self.send_header("Lambda-Runtime-Deadline-Ms", str(int(time.time() * 1000) + DEADLINE_MS))
        self.send_header(
            "Lambda-Runtime-Invoked-Function-Arn",
            "arn:aws:lambda:us-east-1:123456789012:function:cold-init",
        )
        self.send_header("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000;Sampled=0")
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        start.event_sent = time.perf_counter_ns()

    def do_POST(self):
        now = time.perf_counter_ns()
        start = self.server.start
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if not self.path.startswith(API):
            return self.refuse()
        if self.path == f"{API}/init/error":
            start.outcome = "init error"
        elif self.path == f"{API}/invocation/{start.request_id}/response":
            start.outcome = "response"
            try:
                start.status = json.loads(body).get("statusCode")
            except (ValueError, AttributeError):
                pass
        elif self.path == f"{API}/invocation/{start.request_id}/error":
            start.outcome = "error"
        else:
            return self.refuse()
        start.finished = now
        self.send_response(202)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "16")
        self.end_headers()
        self.wfile.write(b'{"status":"OK"}\n')
        self.server.finished.set()

    do_PUT = do_DELETE = do_POST

    def refuse(self):
        """Anything but the Runtime API: a DynamoDB or S3 request. A 400 that
        the AWS SDK does not retry."""
        body = json.dumps(
            {
                "__type": "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                "message": "cold-init.py emulates no AWS service",
            }
        ).encode()
        self.send_response(400)
        self.send_header("Content-Type", "application/x-amz-json-1.0")
        self.send_header("x-amzn-RequestId", "cold-init")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def cpu_ms(pid):
    """The CPU time the threads of a process have had, in ms, or None."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as schedstat:
                total += int(schedstat.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return total / 1e6


def peak_rss_mb(pid):
    """The process's peak resident memory (VmHWM), in MB, or None."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


class Emulator(ThreadingHTTPServer):
    """The Runtime API of one start, on a port of its own: a request that a
    killed process sent late can reach no later start."""

    daemon_threads = True

    def __init__(self, start):
        super().__init__(("127.0.0.1", 0), RuntimeApi)
        self.start = start
        self.finished = threading.Event()
        # The pid of the process, once spawned: the first request may come
        # before Popen returns.
        self.pid = None
        self.spawned = threading.Event()

    def handle_error(self, request, client_address):
        # A killed process leaves its connections behind: nothing to report.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def run_once(label, path, event, timeout, log_dir, extra_env):
    """Starts PATH once, lets it take one event, kills it. Returns the Start."""
    start = Start(event)
    server = Emulator(start)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = lambda_environment(label, f"127.0.0.1:{server.server_address[1]}") | extra_env
    log = subprocess.DEVNULL
    if log_dir:
        log = open(os.path.join(log_dir, label.replace("/", "_") + ".log"), "ab")
    try:
        start.spawned = time.perf_counter_ns()
        process = subprocess.Popen(
            [path], env=env, cwd="/", stdin=subprocess.DEVNULL, stdout=log, stderr=log
        )
        server.pid = process.pid
        server.spawned.set()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if server.finished.wait(0.05) or process.poll() is not None:
                break
        start.rss_mb = peak_rss_mb(process.pid)
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
        process.wait()
        if start.outcome is None:
            start.outcome = "timeout" if start.init_done is None else "no answer"
            if process.returncode != -signal.SIGKILL:
                start.outcome = f"exited {process.returncode}"
    finally:
        start.over.set()
        server.shutdown()
        server.server_close()
        if log_dir:
            log.close()
    return start


def event_for(path, event_file):
    if event_file:
        name = event_file
    else:
        name = os.path.join(EVENTS, os.path.basename(path) + ".json")
        if not os.path.exists(name):
            name = os.path.join(EVENTS, "search.json")
    with open(name, "rb") as f:
        return f.read()


def fmt(value, digits=2):
    return "–" if value is None else f"{value:.{digits}f}"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("binaries", nargs="+", metavar="[LABEL=]PATH", help="the baseline first")
    parser.add_argument("--rounds", type=int, default=30, help="counted rounds (default 30)")
    parser.add_argument("--warmup", type=int, default=1, help="uncounted rounds first (default 1)")
    parser.add_argument("--event", help="the event every binary gets (default: events/NAME.json)")
    parser.add_argument("--timeout", type=float, default=30, help="seconds a start may take (default 30)")
    parser.add_argument("--log-dir", help="keep each binary's output in DIR/LABEL.log")
    parser.add_argument(
        "--env", action="append", default=[], metavar="NAME=VALUE", help="more environment, for every binary"
    )
    args = parser.parse_args()

    binaries = []
    for spec in args.binaries:
        label, sep, path = spec.partition("=")
        if not sep:
            label, path = os.path.basename(spec), spec
        path = os.path.abspath(path)
        if not os.access(path, os.X_OK):
            parser.error(f"{path} is not an executable file")
        if label in (b[0] for b in binaries):
            parser.error(f"{label} is given twice; name them LABEL=PATH")
        binaries.append((label, path, event_for(path, args.event)))
    if args.log_dir:
        os.makedirs(args.log_dir, exist_ok=True)
    extra_env = {}
    for setting in args.env:
        name, sep, value = setting.partition("=")
        if not sep or not name:
            parser.error(f"--env {setting}: not NAME=VALUE")
        extra_env[name] = value

    load_before = os.getloadavg()
    results = {label: [] for label, _, _ in binaries}
    for round_no in range(args.warmup + args.rounds):
        for label, path, event in binaries:
            start = run_once(label, path, event, args.timeout, args.log_dir, extra_env)
            if round_no >= args.warmup:
                results[label].append(start)
        if sys.stderr.isatty():
            print(f"round {round_no + 1}/{args.warmup + args.rounds}", file=sys.stderr, end="\r")
    load_after = os.getloadavg()

    baseline = binaries[0][0]
    print(
        f"Cold init: {args.rounds} rounds (after {args.warmup} uncounted), binaries started in turn; "
        f"{platform.node()}, {os.cpu_count()} CPUs, load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after; {time.strftime('%Y-%m-%d %H:%M')}"
        + (f"; with {' '.join(args.env)}." if args.env else ".")
    )
    print()
    print(f"Ratios: the median over the rounds of each start's figure ÷ {baseline}'s in the same round.")
    print()
    print(
        f"| Binary | Init min ms | Init median ms | Init max ms | Init ÷ {baseline} "
        f"| Init CPU median ms | Init CPU ÷ {baseline} "
        "| First invoke median ms | First invoke result | Peak RSS MB |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    for label, _, _ in binaries:
        starts = results[label]
        inits = [s.init_ms() for s in starts if s.init_ms() is not None]
        invokes = [s.invoke_ms() for s in starts if s.invoke_ms() is not None]
        ratios = [
            s.init_ms() / b.init_ms()
            for s, b in zip(starts, results[baseline])
            if s.init_ms() is not None and b.init_ms()
        ]
        cpus = [s.init_cpu_ms for s in starts if s.init_cpu_ms is not None]
        cpu_ratios = [
            s.init_cpu_ms / b.init_cpu_ms
            for s, b in zip(starts, results[baseline])
            if s.init_cpu_ms is not None and b.init_cpu_ms
        ]
        outcomes = {}
        for s in starts:
            key = s.outcome + (f" {s.status}" if s.status is not None else "")
            outcomes[key] = outcomes.get(key, 0) + 1
        rss = [s.rss_mb for s in starts if s.rss_mb is not None]
        print(
            f"| {label} | {fmt(min(inits) if inits else None)} "
            f"| {fmt(statistics.median(inits) if inits else None)} "
            f"| {fmt(max(inits) if inits else None)} "
            f"| {fmt(statistics.median(ratios) if ratios else None)} "
            f"| {fmt(statistics.median(cpus) if cpus else None)} "
            f"| {fmt(statistics.median(cpu_ratios) if cpu_ratios else None)} "
            f"| {fmt(statistics.median(invokes) if invokes else None)} "
            f"| {', '.join(f'{k} ×{n}' for k, n in sorted(outcomes.items()))} "
            f"| {fmt(statistics.median(rss) if rss else None, 1)} |"
        )
    failed = [label for label in results if not any(s.init_ms() for s in results[label])]
    if failed:
        print(f"\nNo start of {', '.join(failed)} reached the Runtime API.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
