#!/usr/bin/env bash
# The playground's browser tests (tests/browser/): pytest and Playwright drive
# Debian's headless Chromium through the page at / and the GraphQL explorer of
# the running stack at $API_URL, which must hold the fixture. This script does
# not start the stack (DATA=fixture make up does); it installs the browser and
# the test venv if they are missing.
#
#   infra/scripts/browser-test.sh               # every test
#   infra/scripts/browser-test.sh -k audio      # pytest arguments pass through
#   SCREENSHOTS=1 infra/scripts/browser-test.sh # also write docs/images/*.png
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$root/infra/scripts/install-browser.sh"
"$root/infra/scripts/install-tools.sh"

if ! curl -s -o /dev/null --max-time 60 "$API_URL/"; then
  echo "error: nothing answers at $API_URL; start the stack first (DATA=fixture make up)" >&2
  exit 1
fi
# The tests name the fixture's dictionaries and words (freedict-deu-eng Haus).
if [ "$(loaded_data_set)" != fixture ]; then
  echo "error: the stack holds $(describe_data_set "$(loaded_data_set)"), not the fixture these tests use; start it with DATA=fixture make up (make test does)" >&2
  exit 1
fi

echo "==> browser tests against $API_URL${SCREENSHOTS:+ (screenshots to docs/images/)}"
cd "$root/tests/browser"
# No __pycache__ in the work tree, whoever runs it.
export PYTHONDONTWRITEBYTECODE=1
API_URL="$API_URL" DEMO_KEY="$DEMO_KEY" CHROMIUM=/usr/bin/chromium \
  exec "$root/.tools/browser-venv/bin/pytest" -c "$root/tests/browser/pytest.ini" "$@"
