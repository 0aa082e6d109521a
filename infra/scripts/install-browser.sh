#!/usr/bin/env bash
# Installs the browser the playground's browser tests drive: Debian's own
# Chromium, never a browser build downloaded by a test tool (Playwright's
# `install` is not used). Root needed, as on CI; does nothing when
# /usr/bin/chromium is already there.
exec "$(dirname "$0")/install-debian-packages.sh" /usr/bin/chromium=chromium
