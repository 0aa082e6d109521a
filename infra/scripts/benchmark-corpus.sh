#!/usr/bin/env bash
# Imports the benchmark corpus into the running local stack (`make up` first):
# over a million entries from more than ten dictionaries, read from their
# Debian packages, which are downloaded and unpacked into .local/corpus/ (not
# installed), and the lexicon (inflected forms of English, French, German and
# Spanish, word frequencies of the corpus' languages), builds the search index
# from them and measures every read path (target/release/latency). Prints each
# step's figures; they go to docs/benchmarks.md. Resumable: run it again after
# an interruption.
#
#   CORPUS=core  the 12 FreeDict dictionaries and GCIDE (1.65 million entries)
#   CORPUS=full  (default) also WordNet and four MyThes thesauri (2.1 million
#                entries and 4.5 million thesaurus links)
#
# DynamoDB Local keeps the data in native memory (about 4.5 GB for the core
# corpus) but makes a lot of garbage while importing: start the stack with
# room for it, for example JAVA_TOOL_OPTIONS=-Xmx8g make up
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

corpus="$state/corpus"
packages=(
  dict-freedict-deu-eng dict-freedict-eng-deu dict-freedict-jpn-eng dict-freedict-jpn-deu
  dict-freedict-hun-eng dict-freedict-epo-eng dict-freedict-eng-hun dict-freedict-eng-fin
  dict-freedict-eng-ces dict-freedict-deu-fra dict-freedict-eng-fra dict-freedict-fra-eng
  dict-gcide wordnet-base mythes-en-us mythes-fr mythes-de mythes-es
)
# The lexicon: the Hunspell dictionaries of French, German and Spanish.
mapfile -t -O "${#packages[@]}" packages < <(lexicon_packages | grep -v '^wordnet-base$')
echo "==> ${#packages[@]} Debian packages"
debian_packages "$corpus" "${packages[@]}"
# Word frequencies of the corpus' languages (wordfreq has no Esperanto).
"$root/infra/scripts/wordfreq.sh" "$corpus/wordfreq"

cargo build --release --quiet -p admin -p bench
admin="$target_dir/release/dictadmin"
share="$corpus/root/usr/share"
freedict=()
for index in "$share"/dictd/freedict-*.index; do freedict+=("${index%.index}"); done
time {
  "$admin" import freedict "${freedict[@]}"
  "$admin" import gcide "$share/dictd/gcide"
  if [ "${CORPUS:-full}" = full ]; then
    "$admin" import wordnet "$share/wordnet"
    "$admin" import mythes "$share/mythes/th_en_US_v2.dat" "$share/mythes/th_fr_FR_v2.dat" \
      "$share/mythes/th_de_DE_v2.dat" "$share/mythes/th_es_ES_v2.dat"
  fi
}
echo "==> lexicon: inflected forms of en, fr, de, es and word frequencies"
time import_lexicon "$admin" "$share/wordnet" "$share/hunspell" "$corpus/wordfreq" en fr de es ja hu fi cs
time "$admin" index
echo "==> a cold instance's first request of each query class, three fresh processes each"
"$target_dir/release/latency" --cold 3
echo "==> latency of every read path (${LATENCY_ROUNDS:-300} rounds)"
"$target_dir/release/latency" "${LATENCY_ROUNDS:-300}"
