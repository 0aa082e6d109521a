#!/usr/bin/env bash
# Starts DynamoDB Local again after it died (the fault-injection tests kill
# it) and loads the tables and data again: it keeps them in memory. The
# functions (run-functions.sh) keep running and pick up the new
# index build on their next request.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
# The data set the DynamoDB Local that died held.
data_set="$(recorded_data_set)"
stop dynamodb
start_dynamodb
wait_for_port 8720 dynamodb 60
load_data "${data_set:-fixture}"
