#!/usr/bin/env bash
# The quick loop, without the local stack: formatting, clippy, cfn-lint and
# the unit and property tests. `make test` runs this first, then everything
# that needs the stack. The unit tests' output goes to the log that
# `make test` reads its closing summary from.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

"$root/infra/scripts/install-tools.sh"
# The importer's unit tests run the real speech and encoding tools.
"$root/infra/scripts/install-audio-tools.sh"

echo "==> cargo fmt"
cargo fmt --all -- --check

echo "==> cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings

echo "==> cfn-lint template.yaml"
cfn-lint template.yaml

echo "==> unit and property tests"
cargo test --workspace --exclude blackbox --quiet 2>&1 | tee "$test_results"
