#!/usr/bin/env bash
# Starts the whole service locally: DynamoDB Local and moto's S3 on loopback,
# the tables and bucket of template.yaml, the fixture dictionaries, a demo API
# key, and every function behind `cargo lambda watch` on http://localhost:9000.
# Safe to re-run: what runs already is left alone, imports are idempotent.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

echo "==> tools"
"$root/infra/scripts/install-tools.sh"

echo "==> building functions and admin (the first build takes a while)"
cargo build --workspace --bins --quiet

echo "==> emulators"
start_dynamodb
start s3 8721 moto_server -H 127.0.0.1 -p 8721
wait_for_port 8720 dynamodb 60
wait_for_port 8721 s3 60

load_data

echo "==> functions"
# --disable-cors: the functions answer CORS themselves, as they do on AWS.
# Rebuilding on every file change drops requests in flight, so it is opt-in
# (WATCH_RELOAD=1 make up); otherwise `make down && make up` picks up changes.
reload_flag=(--ignore-changes)
[ "${WATCH_RELOAD:-0}" = 1 ] && reload_flag=()
start watch 9000 cargo lambda watch "${reload_flag[@]}" --invoke-address 127.0.0.1 --invoke-port 9000 --disable-cors \
  --env-file "$root/infra/local/stack.env"
wait_for_port 9000 watch 120
warm_functions

cat <<MSG

The dictionary API runs on http://localhost:9000
Demo API key: $DEMO_KEY
Try:
  curl -H 'Authorization: Bearer $DEMO_KEY' http://localhost:9000/api/v1/api/entry/freedict-eng-fra/word/bank
Stop it with: make down
MSG
