# Shared by the local-stack scripts: paths, the environment, pid handling.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
state="$root/.local"
mkdir -p "$state/pids" "$state/logs"
set -a
# shellcheck source=../local/stack.env
. "$root/infra/local/stack.env"
set +a
export PATH="$root/.tools/venv/bin:$PATH"
API_URL="http://127.0.0.1:9000"
# The local demo key: fixed so that docs and sample events can name it. It
# exists only in the local tables.
DEMO_KEY="dk_localDemoKey00000000000000000000"

# is_running NAME: the process recorded for NAME is alive.
is_running() {
  local pid_file="$state/pids/$1.pid"
  [ -f "$pid_file" ] && kill -0 "$(cat "$pid_file")" 2>/dev/null
}

# start NAME COMMAND...: runs COMMAND in its own process group, logs to
# .local/logs/NAME.log, records its pid. Does nothing if NAME already runs.
start() {
  local name="$1"; shift
  if is_running "$name"; then
    echo "    $name already running (pid $(cat "$state/pids/$name.pid"))"
    return
  fi
  setsid "$@" >"$state/logs/$name.log" 2>&1 < /dev/null &
  echo $! >"$state/pids/$name.pid"
  echo "    $name started (pid $!, log .local/logs/$name.log)"
}

# stop NAME: ends the process group started for NAME, and only that.
stop() {
  local pid_file="$state/pids/$1.pid"
  [ -f "$pid_file" ] || return 0
  local pid; pid="$(cat "$pid_file")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || true
    echo "    $1 stopped (pid $pid)"
  fi
  rm -f "$pid_file"
}

# wait_for_port PORT NAME SECONDS
wait_for_port() {
  for _ in $(seq 1 $(( $3 * 4 ))); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    is_running "$2" || { echo "$2 exited; see .local/logs/$2.log" >&2; tail -20 "$state/logs/$2.log" >&2; return 1; }
    sleep 0.25
  done
  echo "$2 did not listen on port $1 within $3 s; see .local/logs/$2.log" >&2
  return 1
}
