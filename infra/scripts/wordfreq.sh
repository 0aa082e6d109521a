#!/usr/bin/env bash
# Word frequencies for commonness ranking (issue 13): writes OUT_DIR/<lang>.tsv,
# `word<TAB>zipf` lines, most frequent first, for every language of the
# project's dictionaries that wordfreq has, from the data files of the pinned
# wordfreq wheel on PyPI (data licence CC BY-SA 4.0; see
# data/fixture/LICENSES.md). Load one with `dictadmin lexicon wordfreq --lang en
# OUT_DIR/en.tsv`.
#
#   infra/scripts/wordfreq.sh OUT_DIR
#
# The wheel is downloaded once into .local/wordfreq/ (pip download, no
# dependencies, checked against its SHA-256) and read by wordfreq-tsv.py with
# the msgpack package of .tools/wordfreq-venv; wordfreq itself is never
# installed. Safe to re-run: a stamp in OUT_DIR skips the work already done.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
out="$1"

WORDFREQ_VERSION=3.1.1
WORDFREQ_WHEEL="wordfreq-$WORDFREQ_VERSION-py3-none-any.whl"
WORDFREQ_SHA256=4b1c6ecffc6198be3396d5cf871c4423ca71c907c231348d352dd54d62b97473
MSGPACK=msgpack==1.2.4
# The languages of the project's dictionaries (the default data set, the
# fixture and the benchmark corpus: infra/scripts/lib.sh and
# benchmark-corpus.sh). wordfreq 3.1.1 has `large_` lists for all but
# Hungarian (`small_` only); it has no Esperanto (eo), so eo is left out.
LANGS=(en fr de es it ja hu fi cs)

# A virtual environment holding exactly msgpack, made again only when the pin
# changes (as install_venv in install-tools.sh does).
venv="$root/.tools/wordfreq-venv"
venv_stamp="$venv/.installed-$(printf '%s\n' "$MSGPACK" | sha256sum | cut -c1-16)"
if [ ! -f "$venv_stamp" ]; then
  echo "==> installing $MSGPACK into .tools/wordfreq-venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$MSGPACK"
  touch "$venv_stamp"
fi

script="$root/infra/scripts/wordfreq-tsv.py"
stamp="$out/.wordfreq-$( { echo "$WORDFREQ_SHA256 ${LANGS[*]}"; cat "$script"; } | sha256sum | cut -c1-16)"
if [ -f "$stamp" ]; then
  echo "==> wordfreq $WORDFREQ_VERSION lists already in $out (${LANGS[*]})"
  exit 0
fi

cache="$root/.local/wordfreq"
wheel="$cache/$WORDFREQ_WHEEL"
if [ ! -f "$wheel" ]; then
  echo "==> downloading wordfreq $WORDFREQ_VERSION (57 MB) into .local/wordfreq"
  mkdir -p "$cache/.partial"
  "$venv/bin/pip" download --quiet --disable-pip-version-check --no-deps \
    --only-binary :all: -d "$cache/.partial" "wordfreq==$WORDFREQ_VERSION"
  mv "$cache/.partial/$WORDFREQ_WHEEL" "$wheel"
  rm -rf "$cache/.partial"
fi
if ! echo "$WORDFREQ_SHA256  $wheel" | sha256sum --check --quiet; then
  echo "$wheel is not the wordfreq $WORDFREQ_VERSION wheel pinned here (SHA-256); delete it to download again" >&2
  exit 1
fi

echo "==> word lists of wordfreq $WORDFREQ_VERSION into $out"
mkdir -p "$out"
rm -f "$out"/.wordfreq-*
"$venv/bin/python" "$script" "$wheel" "$out" "${LANGS[@]}"
touch "$stamp"
