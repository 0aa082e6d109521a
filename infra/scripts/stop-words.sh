#!/usr/bin/env bash
# Stop words, which reverse lookup does not index: writes OUT_DIR/<code>.stop
# for every language of STOP_WORDS_LANGS (lib.sh), the Snowball project's
# stop word lists as Debian 12's PostgreSQL ships them
# (/usr/share/postgresql/15/tsearch_data/<language>.stop of postgresql-15),
# unchanged; beside them OUT_DIR/origin.txt, the package and its version,
# and OUT_DIR/postgresql-15.copyright, the package's copyright file. Load
# one with `dictadmin lexicon stop-words --lang en OUT_DIR/en.stop` (lib.sh
# import_stop_words loads them all with their origin and licence).
#
#   infra/scripts/stop-words.sh OUT_DIR
#
# The package is downloaded once into .local/stop-words/ (lib.sh
# debian_packages: `apt-get download` of this one .deb, none of its
# dependencies, unpacked with `dpkg-deb -x`; nothing is installed). Safe to
# re-run: a stamp in OUT_DIR skips the work already done. Sources and
# licences: docs/data-model.md, "Lexicon", and data/fixture/LICENSES.md.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
out="$1"

stamp="$out/.stop-words-$( { echo "$STOP_WORDS_PACKAGE ${STOP_WORDS_LANGS[*]}"; cat "$0"; } | sha256sum | cut -c1-16)"
if [ -f "$stamp" ]; then
  echo "==> stop word lists of $STOP_WORDS_PACKAGE already in $out"
  exit 0
fi

cache="$state/stop-words"
echo "==> stop word lists of the Debian package $STOP_WORDS_PACKAGE into $out"
debian_packages "$cache" "$STOP_WORDS_PACKAGE" || exit 1
deb="$(compgen -G "$cache/debs/${STOP_WORDS_PACKAGE}_*.deb" | tail -n 1)"
version="$(dpkg-deb -f "$deb" Version)"
tsearch="$cache/root/usr/share/postgresql/${STOP_WORDS_PACKAGE#postgresql-}/tsearch_data"
mkdir -p "$out"
rm -f "$out"/.stop-words-* "$out"/*.stop
for spec in "${STOP_WORDS_LANGS[@]}"; do
  read -r name code <<<"$spec"
  if [ ! -f "$tsearch/$name.stop" ]; then
    echo "$STOP_WORDS_PACKAGE $version has no $name.stop in ${tsearch#"$root"/}" >&2
    exit 1
  fi
  cp "$tsearch/$name.stop" "$out/$code.stop"
done
cp "$cache/root/usr/share/doc/$STOP_WORDS_PACKAGE/copyright" "$out/$STOP_WORDS_PACKAGE.copyright"
echo "Debian package $STOP_WORDS_PACKAGE $version" >"$out/origin.txt"
touch "$stamp"
echo "    ${#STOP_WORDS_LANGS[@]} lists of $STOP_WORDS_PACKAGE $version: $(cd "$out" && ls -- *.stop | tr '\n' ' ')"
