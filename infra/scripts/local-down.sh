#!/usr/bin/env bash
# Stops what local-up.sh started, by the pids it recorded, and nothing else.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
echo "==> stopping the local stack"
stop audio-later
stop functions
stop watch
stop s3
stop dynamodb
