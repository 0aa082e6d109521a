#!/usr/bin/env bash
# The load test: mixed traffic on every endpoint (tests/load/locustfile.py)
# from LOAD_USERS clients (50) sending back to back for LOAD_SECONDS (60)
# against the local stack on loopback, with a fresh key. It fails on any 5xx
# answer, and unless the key's usage afterwards is exactly the units of the
# answers that count. Prints the table that docs/benchmarks.md quotes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
users="${LOAD_USERS:-50}"
seconds="${LOAD_SECONDS:-60}"
out="$state/load"
mkdir -p "$out"
rm -f "$out"/*

"$root/infra/scripts/install-tools.sh"
stack_for_tests

warm_functions
key="$("$target_dir/debug/dictadmin" keys create --name "load test" --plan pro |
  sed -n 's/^API key: //p')"
echo "==> load: $users clients for $seconds s against $API_URL"
# `timeout` bounds the run even if Locust itself hangs on the way out.
LOAD_KEY="$key" LOAD_COUNTS_FILE="$out/counts.json" timeout $((seconds + 60)) \
  "$root/.tools/load-venv/bin/locust" -f "$root/tests/load/locustfile.py" --headless \
  --users "$users" --spawn-rate "$users" --run-time "${seconds}s" --stop-timeout 10 \
  --host "$API_URL" --csv "$out/load" --only-summary --exit-code-on-error 0 \
  --loglevel WARNING >"$out/locust.log" 2>&1

usage="$(curl -s --max-time 30 -H "Authorization: Bearer $key" "$API_URL/api/v1/api/me/usage")"
python3 - "$out" "$usage" "$users" "$seconds" <<'PY'
import csv, json, sys
out, usage, users, seconds = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
counts = json.load(open(f"{out}/counts.json"))
# Quota units of one answer: GraphQL's query has three root fields
# (search, reverse, autocomplete: tests/load/locustfile.py).
units = {"usage": 0, "graphql": 3, "not-found (baseline)": 0}
BASELINE = "not-found (baseline)"
EMULATOR = "emulator 500"
by_endpoint = {}
for row in counts:
    by_endpoint.setdefault(row["endpoint"], {})[row["status"]] = row["count"]
stats = {r["Name"]: r for r in csv.DictReader(open(f"{out}/load_stats.csv"))}
print(f"\n{users} clients for {seconds} s, debug build under cargo lambda watch\n")
base = stats.get(BASELINE, {})
def ratio(row, column):
    try:
        return f"{float(row[column]) / float(base[column]):.2f}"
    except (KeyError, ValueError, ZeroDivisionError):
        return "?"
print("| endpoint | requests | p50 ms | p99 ms | p50 ÷ baseline | p99 ÷ baseline | statuses | 5xx of ours | emulator 500 |")
print("|---|---:|---:|---:|---:|---:|---|---:|---:|")
counted = uncertain = total = ours = emulator = 0
for name in sorted(by_endpoint):
    statuses = by_endpoint[name]
    n = sum(statuses.values())
    five = sum(c for s, c in statuses.items() if s != EMULATOR and (s >= 500 or s == 0))
    lost = statuses.get(EMULATOR, 0)
    total, ours, emulator = total + n, ours + five, emulator + lost
    answered = sum(c for s, c in statuses.items() if s not in (0, 429, EMULATOR))
    counted += units.get(name, 1) * answered
    # The emulator may fail before or after the function counted.
    uncertain += units.get(name, 1) * lost
    row = stats.get(name, {})
    shown = ", ".join(f"{s}: {c}" for s, c in sorted(statuses.items(), key=str))
    print(f"| {name} | {n} | {row.get('50%', '?')} | {row.get('99%', '?')} | {ratio(row, '50%')} | {ratio(row, '99%')} | {shown} | {five} | {lost} |")
agg = stats.get("Aggregated", {})
print(f"| **all** | {total} | {agg.get('50%', '?')} | {agg.get('99%', '?')} | | | | {ours} | {emulator} |")
used = usage["data"]["usage"]
exact = counted <= used <= counted + uncertain
print(f"\nquota: usage {used}; units of the counted answers {counted}"
      + (f" (+ up to {uncertain} for the emulator's 500s)" if uncertain else "")
      + (": exact" if exact else ": MISMATCH"))
sys.exit(0 if ours == 0 and exact else 1)
PY
