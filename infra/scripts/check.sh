#!/usr/bin/env bash
# The quick loop, without the local stack: formatting, clippy, cfn-lint, the
# unit and property tests, and the drift tests (tests/drift: routes,
# template.yaml, events, OpenAPI and README held against each other and the
# code, reading files only). `make test` runs this first, then everything
# that needs the stack (the blackbox crate, tests/). The tests' output goes to
# the log that `make test` reads its closing summary from.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

# A full disk fails a build deep inside rustc; say how much room there is
# first (make test fills about 8 GB of target/ from a cold start).
mkdir -p "$target_dir"
echo "==> disk: $(df -h --output=avail "$target_dir" | tail -n 1 | tr -d ' ') free for $target_dir"

"$root/infra/scripts/install-tools.sh"
# The importer's unit tests run the real speech and encoding tools.
"$root/infra/scripts/install-audio-tools.sh"

echo "==> cargo fmt"
cargo fmt --all -- --check

echo "==> cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings

# The Python scripts run only where their data is (voikko-forms.py on the
# benchmark corpus): a syntax error this machine's Python refuses shows here.
echo "==> Python scripts compile"
python3 - "$root"/infra/scripts/*.py <<'EOF_PY'
import sys
for path in sys.argv[1:]:
    compile(open(path, encoding="utf-8").read(), path, "exec")
EOF_PY

echo "==> cfn-lint template.yaml"
cfn-lint template.yaml

# Every crate but blackbox, whose tests need the stack: the drift crate
# included.
echo "==> unit, property and drift tests"
cargo test --workspace --exclude blackbox --quiet 2>&1 | tee "$test_results"
