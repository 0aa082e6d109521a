#!/usr/bin/env bash
# Starts the whole service locally: DynamoDB Local and moto's S3 on loopback,
# the tables and bucket of template.yaml, a data set of dictionaries, a demo
# API key, and every function behind `cargo lambda watch` on
# http://localhost:9000. Safe to re-run: what runs already is left alone.
#
#   DATA=default  (the default) complete FreeDict dictionaries and WordNet's
#                 common words from Debian packages (downloaded once into
#                 .local/data/), or the fixture if they cannot be downloaded
#   DATA=fixture  the small excerpts of data/fixture/ that the tests use
#
# A running stack that holds another data set, or did not finish loading
# one, is restarted (DynamoDB Local keeps its data in memory: a restart
# empties it); one that holds this data set is not loaded again.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
data_set="${DATA:-default}"
case "$data_set" in
  default | fixture) ;;
  *) echo "DATA=$data_set: no such data set (default or fixture)" >&2; exit 1 ;;
esac

echo "==> tools"
"$root/infra/scripts/install-tools.sh"

echo "==> building functions and admin (the first build takes a while)"
cargo build --workspace --bins --quiet

if [ "$data_set" = default ]; then
  echo "==> the default data set: Debian packages"
  if ! fetch_default_data; then
    echo "warning: the default data set cannot be downloaded (see above): loading the small fixture of data/fixture/ instead" >&2
    data_set=fixture
  fi
fi

loaded="$(loaded_data_set)"
if [ "${DYNAMODB_PERSIST:-0}" = 1 ]; then
  if [ -n "$loaded" ] && [ "$loaded" != "$data_set" ]; then
    echo "DynamoDB Local's store in .local/dynamodb holds the $loaded data set, not the $data_set one: run DATA=$loaded make up, or make down and remove .local/dynamodb" >&2
    exit 1
  fi
elif is_running dynamodb && [ "$loaded" != "$data_set" ]; then
  echo "==> the running stack holds $(describe_data_set "$loaded"), not the $data_set data set: restarting it"
  "$root/infra/scripts/local-down.sh"
fi
# A DynamoDB Local started now holds nothing yet (in memory).
is_running dynamodb || rm -f "$data_marker"

echo "==> emulators"
start_dynamodb
start s3 8721 moto_server -H 127.0.0.1 -p 8721
wait_for_port 8720 dynamodb 60
wait_for_port 8721 s3 60

if [ "$(loaded_data_set)" = "$data_set" ]; then
  echo "==> the stack already holds the $data_set data set (make down && make up loads it afresh)"
else
  load_data "$data_set"
fi

echo "==> functions"
# --disable-cors: the functions answer CORS themselves, as they do on AWS.
# `cargo lambda watch` serves the routes of Cargo.toml and a Runtime API per
# function; run-functions.sh runs the functions against it (it says why
# watch does not start them). WATCH_RELOAD=1 make up lets watch start them
# instead and rebuild one on every file change, which drops requests in
# flight and needs a small work tree (see run-functions.sh); otherwise
# `make down && make up` picks up changes.
if [ "${WATCH_RELOAD:-0}" = 1 ]; then
  start watch 9000 cargo lambda watch --invoke-address 127.0.0.1 --invoke-port 9000 --disable-cors \
    --env-file "$root/infra/local/stack.env"
  wait_for_port 9000 watch 120
else
  start watch 9000 cargo lambda watch --only-lambda-apis --invoke-address 127.0.0.1 --invoke-port 9000 --disable-cors
  wait_for_port 9000 watch 120
  launch functions "$root/infra/scripts/run-functions.sh"
fi
warm_functions
speak_later_audio

cat <<MSG

The dictionary API runs on http://localhost:9000
Demo API key: $DEMO_KEY
Try:
  curl -H 'Authorization: Bearer $DEMO_KEY' http://localhost:9000/api/v1/api/entry/freedict-eng-fra/word/bank
Stop it with: make down
MSG
