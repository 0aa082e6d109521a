#!/usr/bin/env bash
# Installs the pronunciation tools the importer runs: espeak-ng (speech),
# lame (MP3) and speexenc (Speex in Ogg), from Debian's packages. They are
# system packages, so this needs root (as on CI); it does nothing when they
# are already there.
set -euo pipefail
missing=()
command -v espeak-ng >/dev/null || missing+=(espeak-ng)
command -v lame >/dev/null || missing+=(lame)
command -v speexenc >/dev/null || missing+=(speex)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "==> installing ${missing[*]} (Debian packages)"
if [ "$(id -u)" -ne 0 ]; then
  echo "error: ${missing[*]} missing; run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
