#!/usr/bin/env bash
# The black-box tests that need real data rather than the fixture (reverse
# lookup on the default data set of `make up`: complete FreeDict dictionaries
# and WordNet's common words). Restarts the local stack with DATA=default,
# runs the `#[ignore]`d tests of tests/tests/blackbox/reverse_real_data.rs,
# and leaves that stack running (test.sh stops what it started). Their
# figures go to docs/benchmarks.md ("Reverse lookup on real data").
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

if [ "$(loaded_data_set)" != default ] || ! is_running watch; then
  "$root/infra/scripts/local-down.sh"
  DATA=default "$root/infra/scripts/local-up.sh"
fi
if [ "$(loaded_data_set)" != default ]; then
  echo "error: the default data set could not be loaded (see above): the real-data tests need it" >&2
  exit 1
fi
export API_URL DEMO_KEY
cargo test -p blackbox --quiet -- --ignored --test-threads 1 --nocapture reverse_real_data:: 2>&1 |
  tee "$state/logs/real-data-tests.txt"
