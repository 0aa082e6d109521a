#!/usr/bin/env bash
# Runs every test: `make check` (formatting, clippy, cfn-lint, the unit and
# property tests), then the black-box tests, the deploy check (`make
# deploy-check`: the SAM-built artifacts), the contract, generated-client,
# browser, load and fault tests against the running local stack (started here
# with the fixture if it is not running, and stopped again afterwards if this
# script started it), and last the tests that need real data, on a stack
# restarted with the default data set (infra/scripts/real-data-test.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

"$root/infra/scripts/check.sh"

results="$test_results"
# Runs cargo test, appending its output to the log the summary is read from.
run_tests() {
  cargo test "$@" 2>&1 | tee -a "$results"
}

# The lexicon's forms of the complete sources (WordNet, the Hunspell
# dictionaries stemmed by Hunspell's tools, the lemma lookup tables, IPADIC):
# downloaded once into .local/data, .tools/hunspell and .local/lemma-lookups;
# without them these tests cannot run, which fails.
echo "==> lexicon: inflected forms of the complete WordNet, Hunspell, lookup table and IPADIC data"
mapfile -t lexicon_sources < <(lexicon_packages)
lexicon_sources+=("$(source_field ipadic package)")
if ! debian_packages "$state/data" "${lexicon_sources[@]}" || ! hunspell_tools; then
  echo "error: the lexicon's real-data tests need ${lexicon_sources[*]} and Debian's Hunspell tools, which cannot be downloaded (see above)" >&2
  exit 1
fi
"$root/infra/scripts/lemma-lookups.sh" "$lemma_lookups_dir"
# Not the corpus_ tests: their data is the benchmark corpus' (CORPUS=all).
run_tests -p admin --quiet -- --ignored lexicon::real_data --skip lexicon::real_data::corpus_

echo "==> building the functions and dictadmin"
cargo build --workspace --bins --quiet

# A stack that was already running keeps running afterwards, but it must
# serve this build and hold the fixture (DATA=fixture), which the tests
# assert on: restart it if any binary is newer than its functions, or if it
# holds another data set (`make up` loads the default one).
started_here=false
cleanup() {
  local status=$?
  if [ "$status" != 0 ]; then print_stack_trouble; fi
  if $started_here; then "$root/infra/scripts/local-down.sh"; fi
}
trap cleanup EXIT
if is_running watch; then
  binaries=("$target_dir"/debug/dictadmin)
  for crate in "$root"/functions/*/; do binaries+=("$target_dir/debug/$(basename "$crate")"); done
  loaded="$(loaded_data_set)"
  if [ -n "$(find "${binaries[@]}" -newer "$state/pids/watch.pid" 2>/dev/null)" ]; then
    echo "==> the running stack serves an older build: restarting it with the fixture"
    "$root/infra/scripts/local-down.sh"
    DATA=fixture "$root/infra/scripts/local-up.sh"
  elif [ "$loaded" != fixture ]; then
    echo "==> the running stack holds $(describe_data_set "$loaded"), not the fixture: restarting it with the fixture"
    "$root/infra/scripts/local-down.sh"
    DATA=fixture "$root/infra/scripts/local-up.sh"
  fi
else
  started_here=true
  DATA=fixture "$root/infra/scripts/local-up.sh"
fi

echo "==> black-box tests against $API_URL"
export API_URL DEMO_KEY
# One test at a time: cargo lambda watch occasionally answers its own 500 when
# independent requests reach one function together (the quota tests still
# send their requests in parallel on purpose).
run_tests -p blackbox --quiet -- --test-threads 1

echo "==> deploy check: sam validate --lint, sam build, the artifacts on the stack"
"$root/infra/scripts/deploy-check.sh"

echo "==> API contract: docs/openapi.json valid, schemathesis over every operation"
"$root/infra/scripts/api-contract-test.sh" 2>&1 | tee "$state/logs/api-contract.txt"
echo "test result: ok. 1 passed; 0 failed; (API contract)" >>"$results"

echo "==> generated client: openapi-python-client from docs/openapi.json, every operation through it; GraphQL tools' introspection"
"$root/infra/scripts/client-test.sh" 2>&1 | tee "$state/logs/client-tests.txt"
client_passed="$(grep -oE '[0-9]+ passed' "$state/logs/client-tests.txt" | tail -n 1 | cut -d' ' -f1)"
echo "test result: ok. ${client_passed:-0} passed; 0 failed; (generated client)" >>"$results"

echo "==> browser: the playground and the GraphQL explorer in headless Chromium"
"$root/infra/scripts/browser-test.sh" 2>&1 | tee "$state/logs/browser-tests.txt"
browser_passed="$(grep -oE '[0-9]+ passed' "$state/logs/browser-tests.txt" | tail -n 1 | cut -d' ' -f1)"
echo "test result: ok. ${browser_passed:-0} passed; 0 failed; (browser tests)" >>"$results"

echo "==> load: 50 clients for 60 s, no 5xx of ours, quota exact"
"$root/infra/scripts/load-test.sh" | tee -a "$state/logs/load-test.txt"
echo "test result: ok. 1 passed; 0 failed; (load test)" >>"$results"

echo "==> fault injection: DynamoDB Local and S3 paused and killed, alone and last"
run_tests -p blackbox --quiet -- --ignored --test-threads 1 faults::

echo "==> real data: reverse lookup on the default data set of make up"
"$root/infra/scripts/real-data-test.sh"
cat "$state/logs/real-data-tests.txt" >>"$results"

# One closing line for the whole run (cargo prints one per test binary).
awk '/^test result:/ {for (i = 1; i <= NF; i++) { if ($i ~ /^passed;/) p += $(i-1); if ($i ~ /^failed;/) f += $(i-1) }}
     END { printf "%d passed, %d failed\n", p, f }' "$results"
