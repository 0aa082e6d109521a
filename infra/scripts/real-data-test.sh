#!/usr/bin/env bash
# The black-box tests that need real data rather than the fixture (reverse
# lookup on the default data set of `make up`: complete FreeDict dictionaries
# and WordNet's common words). Restarts the local stack with DATA=default,
# runs the `#[ignore]`d tests of tests/tests/blackbox/reverse_real_data.rs,
# the committed sounds-like respellings (sounds_like.rs) and the audio of
# random entries of every dictionary,
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
cargo test -p blackbox --quiet -- --ignored --test-threads 1 --nocapture \
  reverse_real_data:: sounds_like::the_committed_respellings 2>&1 |
  tee "$state/logs/real-data-tests.txt"

# Every entry of the default data can be heard once the rarer words' audio
# is made in the background (speak_later_audio): wait for it, then play
# random entries of every dictionary.
for _ in $(seq 1 900); do
  is_running audio-later || break
  sleep 1
done
if is_running audio-later; then
  echo "error: the rarer words' audio was not made within 15 minutes (.local/logs/audio-later.log)" >&2
  exit 1
fi
if [ -s "$audio_later_file" ] && ! grep -q '^spoke and uploaded' "$state/logs/audio-later.log"; then
  echo "error: the rarer words' audio failed:" >&2
  cat "$state/logs/audio-later.log" >&2
  exit 1
fi
cargo test -p blackbox --quiet -- --test-threads 1 audio::random_entries_of_every_dictionary 2>&1 |
  tee -a "$state/logs/real-data-tests.txt"
