#!/usr/bin/env bash
# Word frequencies for commonness ranking (issue 13): writes OUT_DIR/<lang>.tsv,
# `word<TAB>zipf` lines, most frequent first, for every language of the
# project's dictionaries that wordfreq has, from the data files of the pinned
# wordfreq wheel on PyPI (data/sources.tsv, wordfreq: its version, file,
# SHA-256; data licence CC BY-SA 4.0, see data/fixture/LICENSES.md). Load one with `dictadmin lexicon wordfreq --lang en
# OUT_DIR/en.tsv`.
#
#   infra/scripts/wordfreq.sh OUT_DIR
#
# The wheel is downloaded once into .local/wordfreq/ (pip download, no
# dependencies, checked against its SHA-256) and read by wordfreq-tsv.py with
# the msgpack package of .tools/wordfreq-venv; wordfreq itself is never
# installed. Safe to re-run: a stamp in OUT_DIR skips the work already done.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
out="$1"

WORDFREQ_VERSION="$(source_field wordfreq version)"
WORDFREQ_WHEEL="$(source_field wordfreq file)"
WORDFREQ_SHA256="$(source_field wordfreq sha256)"
MSGPACK=msgpack==1.2.4
# The languages of the project's dictionaries (the default data set, the
# fixture and the benchmark corpus: infra/scripts/lib.sh and
# benchmark-corpus.sh), and the largest source languages of every FreeDict
# dictionary (CORPUS=all) that wordfreq has, for the lemma-coverage
# benchmark: pl el sv nl pt. wordfreq 3.1.1 has `large_` lists for all but
# Hungarian (`small_` only); it has no Esperanto (eo), so eo is left out.
LANGS=(en fr de es it ja hu fi cs pl el sv nl pt)

# A virtual environment holding exactly msgpack.
install_venv wordfreq-venv "$MSGPACK"
venv="$root/.tools/wordfreq-venv"

script="$root/infra/scripts/wordfreq-tsv.py"
stamp="$out/.wordfreq-$( { echo "$WORDFREQ_SHA256 ${LANGS[*]}"; cat "$script"; } | sha256sum | cut -c1-16)"
if [ -f "$stamp" ]; then
  echo "==> wordfreq $WORDFREQ_VERSION lists already in $out (${LANGS[*]})"
  exit 0
fi

cache="$root/.local/wordfreq"
wheel="$cache/$WORDFREQ_WHEEL"
pypi_download wordfreq "$WORDFREQ_VERSION" "$WORDFREQ_WHEEL" "$WORDFREQ_SHA256" "$cache" \
  --only-binary :all: || exit 1

echo "==> word lists of wordfreq $WORDFREQ_VERSION into $out"
mkdir -p "$out"
rm -f "$out"/.wordfreq-*
"$venv/bin/python" "$script" "$wheel" "$out" "${LANGS[@]}"
touch "$stamp"
