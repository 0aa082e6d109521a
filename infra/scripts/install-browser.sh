#!/usr/bin/env bash
# Installs the browser the playground's browser tests drive: Debian's own
# Chromium, never a browser build downloaded by a test tool (Playwright's
# `install` is not used). It is a system package, so this needs root (as on
# CI); it does nothing when /usr/bin/chromium is already there.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
echo "==> installing chromium (Debian package)"
if [ "$(id -u)" -ne 0 ]; then
  echo "error: /usr/bin/chromium missing; run: sudo apt-get install -y chromium" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null
