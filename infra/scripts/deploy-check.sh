#!/usr/bin/env bash
# The deploy path, offline: the AWS SAM CLI (pinned, in .tools/sam-venv)
# validates and lints template.yaml, builds every function with the
# template's own BuildMethod (rust-cargolambda), and each artifact it built
# (.aws-sam/deploy-check/<Function>/bootstrap) answers its events/ sample through
# the Runtime API emulator against the local stack (tests/tests/blackbox/sam_artifacts.rs).
#
# The build is for x86_64 (FunctionArchitecture=x86_64): these machines have
# no arm64 Rust standard library. What that changes is in docs/deployment.md.
# Started with the fixture if the stack is not running, and stopped again.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

"$root/infra/scripts/install-tools.sh"
install_venv sam-venv "aws-sam-cli==1.170.0"
export SAM_CLI_TELEMETRY=0
sam="$root/.tools/sam-venv/bin/sam"

echo "==> sam validate --lint"
"$sam" validate --lint

echo "==> sam build (FunctionArchitecture=x86_64)"
start_seconds=$SECONDS
# cargo lambda (and the zig it links with) come from .tools/venv, on PATH
# through lib.sh. CARGO_TARGET_DIR, when set, is where every function's
# release build lands: one target dir, so the dependencies build once.
# A build dir of its own: x86_64 artifacts left in .aws-sam/build would be
# what a later `sam deploy` uploads to arm64 functions.
export SAM_BUILD_DIR="$root/.aws-sam/deploy-check"
"$sam" build --build-dir "$SAM_BUILD_DIR" --parameter-overrides FunctionArchitecture=x86_64
echo "    sam build took $((SECONDS - start_seconds)) s"
du -sh "$SAM_BUILD_DIR" "$target_dir/lambda" "$target_dir/x86_64-unknown-linux-gnu" 2>/dev/null || true

started_here=false
cleanup() { if $started_here; then "$root/infra/scripts/local-down.sh"; fi; }
trap cleanup EXIT
if ! is_running watch; then
  started_here=true
  cargo build --workspace --bins --quiet
  DATA=fixture "$root/infra/scripts/local-up.sh"
fi

echo "==> every artifact sam built answers its events/ sample"
cargo test -p blackbox --quiet -- --ignored --nocapture sam_artifacts:: 2>&1 | tee -a "$test_results"
