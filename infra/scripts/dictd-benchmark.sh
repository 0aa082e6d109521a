#!/usr/bin/env bash
# The search engine beside a peer (docs/benchmarks.md, "Beside dictd"):
# Debian's dictd, the RFC 2229 server a self-hoster would pick instead,
# serves one FreeDict dictionary's own .index/.dict.dz on loopback, and
# target/release/peer times the same random queries against both in one
# run, interleaved: dictd's `DEFINE` against an exact search, `MATCH prefix`
# against a prefix search and `MATCH lev` against a one-typo search. The
# engine runs in-process on a snapshot built in memory from the same
# headwords; dictd's time is end to end over loopback.
#
#   infra/scripts/dictd-benchmark.sh [ROUNDS]     (default 2000)
#   DICT=freedict-eng-deu infra/scripts/dictd-benchmark.sh
#
# DICT defaults to the largest FreeDict dictionary of the benchmark corpus
# (.local/corpus, infra/scripts/benchmark-corpus.sh) by number of
# headwords, else freedict-deu-eng, downloaded here. Nothing is installed:
# dictd and its library are unpacked into .tools/dictd.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

rounds="${1:-2000}"
port=26280
tools="$root/.tools/dictd"
echo "==> dictd (Debian package, unpacked into .tools/dictd)"
debian_packages "$tools" dictd libmaa4 >/dev/null
dictd_bin="$tools/root/usr/sbin/dictd"
libmaa="$(compgen -G "$tools/root/usr/lib/*/libmaa.so.4" | head -n 1)"

dictd_dir="$state/corpus/root/usr/share/dictd"
if [ -z "${DICT:-}" ]; then
  DICT=freedict-deu-eng
  largest=0
  for index in $(compgen -G "$dictd_dir/freedict-*.index" || true); do
    lines="$(wc -l <"$index")"
    if [ "$lines" -gt "$largest" ]; then largest="$lines"; DICT="$(basename "$index" .index)"; fi
  done
fi
if [ ! -f "$dictd_dir/$DICT.index" ]; then
  debian_packages "$state/corpus" "dict-$DICT" >/dev/null
fi
index="$dictd_dir/$DICT.index"
data="$dictd_dir/$DICT.dict.dz"
echo "==> $DICT: $(wc -l <"$index") index lines"

conf="$state/dictd.conf"
cat >"$conf" <<EOF
database $DICT {
  data "$data"
  index "$index"
}
EOF
cargo build --release --quiet -p bench --bin peer
trap 'stop dictd' EXIT
# -d nodetach keeps dictd in the foreground, so `start` records its pid.
# dictd renames its process to "dictd <version>: …", which `is_running`
# still recognises by the name recorded here.
LD_LIBRARY_PATH="${libmaa%/*}" start dictd "$port" "$dictd_bin" -c "$conf" \
  --listen-to 127.0.0.1 -p "$port" --locale C.UTF-8 -d nodetach
wait_for_port "$port" dictd 60
"$target_dir/release/peer" --dictd "127.0.0.1:$port" --database "$DICT" \
  --index "$index" --rounds "$rounds"
