#!/usr/bin/env bash
# install-debian-packages.sh COMMAND=PACKAGE...: installs, from Debian's
# packages, each PACKAGE whose COMMAND (a name on PATH or an absolute path)
# is missing; does nothing when all are there. System packages need root (as
# on CI); otherwise it names the `apt-get` line to run and fails.
set -euo pipefail
missing=()
for pair in "$@"; do
  command -v "${pair%%=*}" >/dev/null || missing+=("${pair#*=}")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "==> installing ${missing[*]} (Debian packages)"
if [ "$(id -u)" -ne 0 ]; then
  echo "error: ${missing[*]} missing; run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
