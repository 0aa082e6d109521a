#!/usr/bin/env bash
# Clients generated from what the service publishes, against the running
# stack (started with the fixture, and stopped again, if none runs):
# - openapi-python-client (pinned in .tools/client-venv) generates a Python
#   client from docs/openapi.json, which must give no warning at all (a
#   warning means a construct it does not accept, and a part of the API
#   left out of the client); tests/clients/test_generated_client.py then
#   calls every operation through it and checks the parsed types;
# - tests/clients/test_introspection.py sends graphql-core's and
#   graphql-js's standard introspection queries (tests/fixtures/graphql/)
#   and checks, with graphql-core's build_client_schema and print_schema,
#   that the schema they give is docs/schema.graphql.
#
#   infra/scripts/client-test.sh          # both
#   infra/scripts/client-test.sh -k audio # pytest arguments pass through
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"
venv="$root/.tools/client-venv"
out="$state/client"

"$root/infra/scripts/install-tools.sh"
install_venv client-venv "openapi-python-client==0.29.1" "graphql-core==3.3.2" "pytest==9.2.0"

echo "==> openapi-python-client 0.29.1: a Python client from docs/openapi.json"
rm -rf "$out"
mkdir -p "$out"
# No post hooks: they run ruff, which is not the generator's dependency (and
# is only formatting); without this line its absence is itself a warning.
printf 'post_hooks: []\n' >"$out/config.yaml"
(cd "$out" && "$venv/bin/openapi-python-client" generate --path "$root/docs/openapi.json" \
  --meta none --config "$out/config.yaml") 2>&1 | tee "$out/generate.log"
if grep -v '^Generating ' "$out/generate.log" | grep -q '[^[:space:]]'; then
  echo "error: openapi-python-client did not generate silently (above): docs/openapi.json uses a construct it does not accept" >&2
  exit 1
fi

stack_for_tests
warm_functions

echo "==> the generated client and the standard introspection queries against $API_URL"
cd "$root/tests/clients"
export PYTHONDONTWRITEBYTECODE=1
API_URL="$API_URL" DEMO_KEY="$DEMO_KEY" DICTADMIN="$target_dir/debug/dictadmin" PYTHONPATH="$out" \
  "$venv/bin/pytest" -p no:cacheprovider -q "$@"
