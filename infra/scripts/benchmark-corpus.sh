#!/usr/bin/env bash
# Imports the benchmark corpus into DynamoDB Local: complete dictionaries read
# from their Debian packages, which are downloaded and unpacked (not
# installed), and the lexicon (inflected forms of the languages of
# DEFAULT_LEMMA_LOOKUP_LANGS, or with CORPUS=all of every language of
# LEMMA_LOOKUP_LANGS, of Dutch and Finnish and of Japanese from IPADIC, word frequencies of the corpus' languages, the stop
# words of every language with a Snowball list), builds the
# search index from them and measures every read path (target/release/latency). Prints each
# step's figures; they go to docs/benchmarks.md. Resumable: run it again after
# an interruption.
#
#   CORPUS=core  the 12 FreeDict dictionaries and GCIDE (1.65 million entries)
#   CORPUS=full  (default) also WordNet and four MyThes thesauri (2.1 million
#                entries and 4.5 million thesaurus links)
#   CORPUS=all   every open dictionary Debian has: each dict-freedict-*
#                package of the package lists (203 in Debian 12; a meta or
#                virtual package, which holds no dictionary of its own, is left
#                out and named), GCIDE, WordNet and the four MyThes thesauri
#                (5 million entries, 4.5 million thesaurus links), and
#                mecab-ipadic for Japanese's forms
#
# Each corpus gets a DynamoDB Local of its own, beside the stack's and
# untouched by `make up`, `make down` and `make test` (so CI can run while a
# corpus imports): its data on disk (about 1.75 KB an item, up to 10 million
# items, too many for memory beside anything else), run under libeatmydata so
# that no write is synced (DYNAMODB_NO_SYNC=0 syncs them; docs/benchmarks.md
# has both rates). core and full: port 8731, data in .local/corpus/dynamodb;
# all: port 8730, data in .local/corpus-all/dynamodb (CORPUS_DYNAMODB_PORT and
# CORPUS_DYNAMODB_DIR override them). It is left running; point dictadmin,
# latency and spelling at it with
#   set -a; . infra/local/stack.env; set +a
#   export DYNAMODB_ENDPOINT=http://127.0.0.1:8731   # 8730 for all
# and stop it with `CORPUS=full infra/scripts/benchmark-corpus.sh stop` (the
# same CORPUS). Its packages are in .local/corpus/ (.local/corpus-all/).
#
# BUILD=0 resumes with the binaries an earlier run built (.local/corpus-all/bin
# or .local/corpus/bin) instead of building.
# DRY_RUN=1 only downloads and parses (dictadmin import --dry-run): each
# dictionary's entries and links, nothing written, no DynamoDB needed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

# every_freedict_package: every dict-freedict-<from>-<to> package of the
# package lists, one a line, sorted (updating the lists first, as root, if
# they have none). A name of another shape (a meta package such as
# dict-freedict-all, which only depends on the others) or a purely virtual
# one is left out, and named on stderr.
every_freedict_package() {
  local names real name
  mapfile -t names < <(apt-cache pkgnames dict-freedict- | sort)
  if [ ${#names[@]} -eq 0 ] && [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq -o Acquire::Retries=1 >&2
    mapfile -t names < <(apt-cache pkgnames dict-freedict- | sort)
  fi
  if [ ${#names[@]} -eq 0 ]; then
    echo "the package lists have no dict-freedict-* package: sudo apt-get update" >&2
    return 1
  fi
  # A purely virtual name has no record of its own to show.
  real=" $(apt-cache show --no-all-versions "${names[@]}" 2>/dev/null |
    sed -n 's/^Package: //p' | tr '\n' ' ')"
  for name in "${names[@]}"; do
    if [[ $real != *" $name "* ]]; then
      echo "    left out: $name (a virtual package)" >&2
    elif [[ ! $name =~ ^dict-freedict-[a-z]{3}-[a-z]{3}$ ]]; then
      echo "    left out: $name (a meta package, no dictionary of its own)" >&2
    else
      echo "$name"
    fi
  done
}

kind="${CORPUS:-full}"
case "$kind" in
  core | full)
    corpus="$state/corpus"
    ddb_name=dynamodb-corpus-full
    ddb_port="${CORPUS_DYNAMODB_PORT:-8731}"
    packages=(
      dict-freedict-deu-eng dict-freedict-eng-deu dict-freedict-jpn-eng dict-freedict-jpn-deu
      dict-freedict-hun-eng dict-freedict-epo-eng dict-freedict-eng-hun dict-freedict-eng-fin
      dict-freedict-eng-ces dict-freedict-deu-fra dict-freedict-eng-fra dict-freedict-fra-eng
    )
    ;;
  all)
    corpus="$state/corpus-all"
    ddb_name=dynamodb-corpus
    ddb_port="${CORPUS_DYNAMODB_PORT:-8730}"
    echo "==> every FreeDict package of the package lists"
    mapfile -t packages < <(every_freedict_package)
    ;;
  *)
    echo "CORPUS must be core, full or all, not $kind" >&2
    exit 2
    ;;
esac
if [ "${1:-}" = stop ]; then
  stop "$ddb_name"
  exit 0
fi
"$root/infra/scripts/install-tools.sh"
freedict_count=${#packages[@]}
packages+=(dict-gcide wordnet-base mythes-en-us mythes-fr mythes-de mythes-es)
# The lexicon: the Hunspell dictionaries of French, German and Spanish; for
# CORPUS=all also the sources of data/sources.tsv that feed it alone:
# Dutch's Hunspell dictionary, Voikko for Finnish, IPADIC for Japanese.
mapfile -t -O "${#packages[@]}" packages < <(lexicon_packages | grep -v '^wordnet-base$')
if [ "$kind" = all ]; then
  mapfile -t -O "${#packages[@]}" packages < <(source_packages corpus-all)
fi
echo "==> ${#packages[@]} Debian packages ($freedict_count of them FreeDict dictionaries)"
started=$SECONDS
debian_packages "$corpus" "${packages[@]}"
echo "    $(du -cb "$corpus"/debs/*.deb | tail -n 1 | cut -f1 | numfmt --to=si)B of packages, ready in $((SECONDS - started)) s"
# Word frequencies of the corpus' languages (wordfreq has no Esperanto).
"$root/infra/scripts/wordfreq.sh" "$corpus/wordfreq"
"$root/infra/scripts/lemma-lookups.sh" "$corpus/lemma-lookups"
"$root/infra/scripts/stop-words.sh" "$corpus/stop-words"

# The run's own copies of the binaries: a build of another tree in a shared
# CARGO_TARGET_DIR cannot swap them during an import of hours. BUILD=0 takes
# those of an earlier run as they are (resuming it, without a build).
if [ "${BUILD:-1}" = 1 ] || [ ! -x "$corpus/bin/dictadmin" ]; then
  cargo build --release --quiet -p admin -p bench
  mkdir -p "$corpus/bin"
  cp "$target_dir/release/dictadmin" "$target_dir/release/latency" "$corpus/bin/"
fi
admin="$corpus/bin/dictadmin"
latency="$corpus/bin/latency"
share="$corpus/root/usr/share"
freedict=()
for package in "${packages[@]:0:$freedict_count}"; do
  freedict+=("$share/dictd/${package#dict-}")
done
mythes=("$share/mythes/th_en_US_v2.dat" "$share/mythes/th_fr_FR_v2.dat"
  "$share/mythes/th_de_DE_v2.dat" "$share/mythes/th_es_ES_v2.dat")

if [ "${DRY_RUN:-0}" = 1 ]; then
  echo "==> parsing every dictionary (dictadmin import --dry-run: nothing written)"
  time {
    "$admin" import --dry-run freedict "${freedict[@]}"
    "$admin" import --dry-run gcide "$share/dictd/gcide"
    if [ "$kind" != core ]; then
      "$admin" import --dry-run wordnet "$share/wordnet"
      "$admin" import --dry-run mythes "${mythes[@]}"
    fi
  }
  exit 0
fi

# Its own DynamoDB Local, on disk, writes not synced (see the top).
export DYNAMODB_ENDPOINT="http://127.0.0.1:$ddb_port"
echo "==> DynamoDB Local for the corpus on port $ddb_port, data in ${CORPUS_DYNAMODB_DIR:-$corpus/dynamodb}"
DYNAMODB_NO_SYNC="${DYNAMODB_NO_SYNC:-1}" JAVA_TOOL_OPTIONS="${JAVA_TOOL_OPTIONS:--Xmx2g}" \
  start_dynamodb "$ddb_name" "$ddb_port" "${CORPUS_DYNAMODB_DIR:-$corpus/dynamodb}"
wait_for_port "$ddb_port" "$ddb_name" 60
"$admin" setup --no-bucket --template "$root/template.yaml"

echo "==> word frequencies (before the dictionaries, whose entries are stamped from them)"
time import_frequencies "$admin" "$corpus/wordfreq" en fr de es ja hu fi cs pl el sv nl pt
echo "==> stop words of every language with a list (${#STOP_WORDS_LANGS[@]})"
time import_stop_words "$admin" "$corpus/stop-words"
time {
  "$admin" import freedict "${freedict[@]}"
  "$admin" import gcide "$share/dictd/gcide"
  if [ "$kind" != core ]; then
    "$admin" import wordnet "$share/wordnet"
    "$admin" import mythes "${mythes[@]}"
  fi
}
# Inflected forms of every source language of the corpus that a lemma
# lookup table covers: every language taken from the tables for CORPUS=all,
# and Japanese from IPADIC.
forms_langs=("${DEFAULT_LEMMA_LOOKUP_LANGS[@]}")
if [ "$kind" = all ]; then forms_langs=("${LEMMA_LOOKUP_LANGS[@]}"); fi
echo "==> lexicon: inflected forms of ${forms_langs[*]}"
time import_lexicon "$admin" "$share/wordnet" "$share/hunspell" "$corpus/lemma-lookups" "${forms_langs[@]}"
if [ "$kind" = all ]; then
  echo "==> lexicon: inflected forms of the languages without tables (nl: Hunspell, fi: Voikko)"
  time import_forms_without_tables "$admin" "$corpus/root" "$corpus/wordfreq" "$corpus/voikko"
  echo "==> lexicon: inflected forms of ja (IPADIC)"
  time import_ipadic_forms "$admin" "$share/mecab/dic/ipadic"
fi
# What rhymes compare beside the dictionaries' transcriptions, as `make up`
# has them (lib.sh load_data): espeak-ng's IPA of every headword, about 20
# minutes at 2 M entries (docs/benchmarks.md, "Rhymes").
"$root/infra/scripts/install-audio-tools.sh"
echo "==> lexicon: espeak-ng's pronunciations of every headword"
time "$admin" lexicon espeak-pronunciations --every-language
time "$admin" index
echo "==> a cold instance's first request of each query class, three fresh processes each"
"$latency" --cold 3
echo "==> latency of every read path (${LATENCY_ROUNDS:-300} rounds)"
"$latency" "${LATENCY_ROUNDS:-300}"
