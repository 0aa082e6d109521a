#!/usr/bin/env bash
# `make bench`: the benchmarks that need no downloaded corpus, with release
# builds, each beside its baseline of the same run (docs/benchmarks.md):
#   1. every function's stripped binary size and cold init, beside a
#      lambda_http hello world (function-footprint.sh);
#   2. the latency of every read path, in-process, beside a bare GetItem, on
#      whatever the running local stack holds (`make up` first; skipped when
#      no DynamoDB Local runs). LATENCY_ROUNDS sets the rounds (default 100).
# The corpus benchmarks download Debian packages and take about 15 minutes:
# infra/scripts/benchmark-corpus.sh and infra/scripts/spelling-benchmark.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

echo "==> binary size and cold init of every function"
"$root/infra/scripts/function-footprint.sh"

echo
echo "==> latency of every read path on the local stack"
if is_running dynamodb; then
  cargo build --release --quiet -p bench --bin latency
  "$target_dir/release/latency" "${LATENCY_ROUNDS:-100}"
else
  echo "No local stack runs: start one with \`make up\`, then run \`make bench\` again."
fi
