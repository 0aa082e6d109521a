#!/usr/bin/env bash
# Runs every function of functions/, as built in target/debug, as one process
# each (Lambda's one instance per function), polling the Lambda Runtime API
# that `cargo lambda watch --only-lambda-apis` serves for it on
# 127.0.0.1:9000/.rt/<function>; one that exits is started again, as Lambda
# replaces an instance that died. local-up.sh launches this script and
# local-down.sh stops its process group; the functions log to its log.
#
# Why `cargo lambda watch` does not start them itself: it runs each function
# under a file watcher of its own over the whole work tree (.tools, target,
# .local, .aws-sam: over 13,000 folders), so a dozen functions exhaust the
# machine's inotify watches, and the watcher's error then ends that
# function's instance with a request in it, which never gets an answer (a CI
# run's API contract test timed out so).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
set -a
. "$root/infra/local/stack.env"
set +a
# What Lambda (and cargo lambda watch) tell every function instance.
export AWS_LAMBDA_FUNCTION_VERSION=1 AWS_LAMBDA_FUNCTION_MEMORY_SIZE=4096

for crate in "$root"/functions/*/; do
  name="$(basename "$crate")"
  (
    export AWS_LAMBDA_FUNCTION_NAME="$name" AWS_LAMBDA_RUNTIME_API="http://127.0.0.1:9000/.rt/$name"
    while true; do
      status=0
      "$target_dir/debug/$name" || status=$?
      echo "run-functions: $name exited with status $status; starting it again" >&2
      sleep 1
    done
  ) &
done
wait
