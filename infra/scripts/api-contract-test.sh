#!/usr/bin/env bash
# The API contract test: docs/openapi.json is a valid OpenAPI 3.1 document,
# and the running local stack answers every operation as it says. Schemathesis
# (pinned in .tools/api-venv by install-tools.sh) reads the file in the work
# tree, not the served copy, and sends generated requests to $API_URL with
# the demo key: valid ones, and ones that break the documented constraints
# (wrong types, out-of-range numbers, missing or empty values, hostile
# strings, malformed bodies and content types). Every answer must be no 5xx,
# have a documented status, content type and required headers, and match the
# documented schema.
#
# Bounded: a fixed number of examples per operation and a fixed seed, so a
# run sends the same requests each time (about 2,500, charged to the demo
# key's 1,000,000 a month) and takes under two minutes; `timeout` ends a run
# that hangs. One worker, since `cargo lambda watch` sometimes answers a 500
# of its own when concurrent requests reach one function. Tunable:
# API_CONTRACT_EXAMPLES (per operation and phase), API_CONTRACT_SEED.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
examples="${API_CONTRACT_EXAMPLES:-200}"
seed="${API_CONTRACT_SEED:-20261123}"
spec="$root/docs/openapi.json"
venv="$root/.tools/api-venv"
out="$state/api-contract"
mkdir -p "$out"
rm -rf "${out:?}"/*

"$root/infra/scripts/install-tools.sh"

echo "==> docs/openapi.json: a valid OpenAPI 3.1 document"
"$venv/bin/openapi-spec-validator" --schema 3.1 "$spec"

stack_for_tests
warm_functions

# Schemathesis hooks for what the local runner does and API Gateway does not.
# `cargo lambda watch` answers some requests with a 500 problem document of
# its own (`{"type": "https://httpstatuses.com/500", …}`) without the function
# ever seeing them; our functions never write that shape (their 500 is the
# envelope's "Internal error"), so nothing of ours is excused:
# - such a 500 is sent again (up to 3 times), as the black-box client does
#   (a retry that fails to connect or times out counts as one of the 3);
# - it stays only for a request body that is not UTF-8, which the runner
#   cannot put into its event (API Gateway sends it base64-encoded and the
#   function answers 400): that one failure is dropped and counted.
# And a browser's GET of the GraphQL path gets the explorer page: every other
# GET of it carries `Accept: text/html`, so both answers (200 page, 405) are
# checked.
cat >"$out/hooks.py" <<'PY'
import json
import os
import time

import requests
import schemathesis
from schemathesis.core.transport import Response

EMULATOR_500 = "https://httpstatuses.com/500"
LOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "emulator.log")
_session = requests.Session()
_page_gets = 0


def _note(line):
    with open(LOG, "a", encoding="utf-8") as log:
        log.write(line + "\n")


def _is_emulator_500(response):
    if response.status_code != 500:
        return False
    try:
        return json.loads(response.content).get("type") == EMULATOR_500
    except (ValueError, AttributeError):
        return False


def _body_is_utf8(request):
    body = request.body
    if body is None or isinstance(body, str):
        return True
    try:
        body.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


@schemathesis.hook
def before_call(context, case, kwargs):
    global _page_gets
    if case.method == "GET" and case.path == "/api/v1/api/graphql":
        _page_gets += 1
        if _page_gets % 2 == 0:
            case.headers = {**(case.headers or {}), "Accept": "text/html"}


@schemathesis.hook
def after_call(context, case, response):
    for attempt in range(3):
        if not _is_emulator_500(response) or not _body_is_utf8(response.request):
            return
        _note(f"retry {case.method} {response.request.url}")
        time.sleep(0.2 * (attempt + 1))
        try:
            sent = _session.send(response.request.copy(), allow_redirects=False, timeout=30)
        except requests.RequestException as error:
            _note(f"retry failed: {error}")
            continue
        fresh = Response.from_requests(sent, verify=True)
        for slot in Response.__slots__:
            setattr(response, slot, getattr(fresh, slot))


@schemathesis.hook
def filter_failure(context, failure, case, response):
    if _is_emulator_500(response) and not _body_is_utf8(response.request):
        _note(f"excused {case.method} {response.request.url}: body not UTF-8")
        return False
    return True
PY

# Our own configuration, so that no schemathesis.toml found elsewhere applies,
# and no crash cache: a run never replays or depends on an earlier one (nor
# leaves .schemathesis/ in the work tree).
printf '[cache]\nenabled = false\n' >"$out/schemathesis.toml"

echo "==> schemathesis against $API_URL: every operation, $examples examples each, seed $seed"
status=0
# --max-redirects 0: the audio 302 is checked as documented (Location), not
# followed into S3. --generation-database none: no example database either.
SCHEMATHESIS_HOOKS="$out/hooks.py" timeout 900 "$venv/bin/schemathesis" \
  --config-file "$out/schemathesis.toml" run "$spec" \
  --url "$API_URL" \
  --header "Authorization: Bearer $DEMO_KEY" \
  --workers 1 \
  --mode all \
  --phases examples,coverage,fuzzing \
  --max-examples "$examples" \
  --seed "$seed" \
  --generation-database none \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
  --max-redirects 0 \
  --request-timeout 30 \
  --suppress-health-check all \
  --no-color \
  --report junit,ndjson \
  --report-junit-path "$out/junit.xml" \
  --report-ndjson-path "$out/events.ndjson" \
  >"$out/schemathesis.log" 2>&1 || status=$?

# The whole report on failure; one summary line either way.
if [ "$status" -ne 0 ]; then
  cat "$out/schemathesis.log"
fi
python3 - "$out" "$status" <<'PY'
import json, os, re, sys
out, status = sys.argv[1], int(sys.argv[2])
operations, failures = set(), 0
for line in open(os.path.join(out, "events.ndjson"), encoding="utf-8") if os.path.exists(os.path.join(out, "events.ndjson")) else []:
    event = json.loads(line).get("ScenarioFinished")
    if not event:
        continue
    recorder = event.get("recorder") or {}
    if recorder.get("label"):
        operations.add(recorder["label"])
    for checks in (recorder.get("checks") or {}).values():
        failures += sum(1 for check in checks if check.get("status") == "failure")
log = open(os.path.join(out, "schemathesis.log"), encoding="utf-8", errors="replace").read()
generated = re.search(r"(\d+) generated", log)
emulator = []
if os.path.exists(os.path.join(out, "emulator.log")):
    emulator = open(os.path.join(out, "emulator.log"), encoding="utf-8").read().splitlines()
retried = sum(1 for line in emulator if line.startswith("retry"))
excused = sum(1 for line in emulator if line.startswith("excused"))
verdict = "ok" if status == 0 else "FAILED"
print(
    f"api contract: {verdict}: {len(operations)} operations, "
    f"{generated.group(1) if generated else '?'} test cases, {failures} failed checks; "
    f"cargo lambda watch's own 500: {retried} retried, {excused} excused (body not UTF-8)"
    f" [schemathesis exit {status}, report in {os.path.relpath(out)}]"
)
PY
exit "$status"
