#!/usr/bin/env bash
# Lemma lookup tables for the inflected forms of every language they cover
# (issue 25): writes OUT_DIR/<lang>_lemma_lookup.json.gz and, where the
# package has them, OUT_DIR/<lang>_lemma_lookup_<pos>.json.gz (Italian's per
# part of speech), and for LEMMA_RULE_LANGS (Greek) the rule lemmatizer's
# OUT_DIR/<lang>_lemma_{index,rules,exc}.json.gz instead, unchanged, from the
# pinned spacy-lookups-data wheel on PyPI, with the package's licence and
# source notes beside them. The wheel, its version and SHA-256 are the row
# lemma-lookups of data/sources.tsv. Load a language with `dictadmin lexicon
# lookup-forms --lang it OUT_DIR` (lib.sh import_lexicon merges Hunspell's or
# WordNet's forms in).
#
#   infra/scripts/lemma-lookups.sh OUT_DIR
#
# The wheel is downloaded once into .local/lemma-lookups/ (pip download, no
# dependencies, checked against its SHA-256) and unpacked with Python's
# zipfile; spacy-lookups-data itself is never installed. Safe to re-run: a
# stamp in OUT_DIR skips the work already done. Sources and licences:
# docs/data-model.md, "Lexicon", and data/fixture/LICENSES.md.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
out="$1"
LEMMA_LOOKUPS_VERSION="$(source_field lemma-lookups version)"
LEMMA_LOOKUPS_WHEEL="$(source_field lemma-lookups file)"
LEMMA_LOOKUPS_SHA256="$(source_field lemma-lookups sha256)"

stamp="$out/.lemma-lookups-$(echo "$LEMMA_LOOKUPS_SHA256 ${LEMMA_LOOKUP_LANGS[*]} rules ${LEMMA_RULE_LANGS[*]}" |
  sha256sum | cut -c1-16)"
if [ -f "$stamp" ]; then
  echo "==> spacy-lookups-data $LEMMA_LOOKUPS_VERSION tables already in $out (${LEMMA_LOOKUP_LANGS[*]})"
  exit 0
fi

cache="$root/.local/lemma-lookups"
pypi_download spacy-lookups-data "$LEMMA_LOOKUPS_VERSION" "$LEMMA_LOOKUPS_WHEEL" "$LEMMA_LOOKUPS_SHA256" \
  "$cache" --only-binary :all: || exit 1

echo "==> lemma lookup tables of spacy-lookups-data $LEMMA_LOOKUPS_VERSION (${LEMMA_LOOKUP_LANGS[*]}) into $out"
mkdir -p "$out"
rm -f "$out"/.lemma-lookups-* "$out"/*_lemma_lookup*.json.gz "$out"/*_lemma_{index,rules,exc}.json.gz
python3 - "$cache/$LEMMA_LOOKUPS_WHEEL" "$out" "${LEMMA_RULE_LANGS[*]}" "${LEMMA_LOOKUP_LANGS[@]}" <<'EOF'
import re, sys, zipfile
wheel, out, rule_langs, langs = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4:]
lookup_langs = [lang for lang in langs if lang not in rule_langs]
tables = re.compile(r"spacy_lookups_data/data/(%s)_lemma_lookup(_[a-z]+)?\.json\.gz$" % "|".join(lookup_langs))
rules = re.compile(r"spacy_lookups_data/data/(%s)_lemma_(index|rules|exc)\.json\.gz$" % "|".join(rule_langs))
notes = re.compile(r"spacy_lookups_data/data/(%s)_(license|licence|source)\.txt$" % "|".join(langs))
found = set()
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        table = tables.match(name) or (rule_langs and rules.match(name))
        if table or notes.match(name) or name.endswith(".dist-info/LICENSE"):
            target = name.rsplit("/", 1)[1]
            with z.open(name) as src, open(f"{out}/{target}", "wb") as dst:
                dst.write(src.read())
            if table:
                found.add((table.group(1), table.group(2)))
missing = [lang for lang in lookup_langs if not any(f[0] == lang for f in found)]
missing += [f"{lang}_lemma_{t}" for lang in rule_langs for t in ("index", "rules", "exc") if (lang, t) not in found]
if missing:
    sys.exit(f"spacy-lookups-data has no lemma lookup table of {' '.join(missing)}")
EOF
touch "$stamp"
ls "$out"
