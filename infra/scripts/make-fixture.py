#!/usr/bin/env python3
"""Rebuilds data/fixture/ from the Debian packages: a small subset of real
FreeDict dictd databases, still in their original format (.index + .dict.dz),
with each package's copyright file. Run by hand when the fixture should change;
the tests and the local stack only read the committed result.

    python3 infra/scripts/make-fixture.py
    python3 infra/scripts/make-fixture.py wordfreq   # only the wordfreq excerpts
    python3 infra/scripts/make-fixture.py lemma-lookups   # only the lookup table excerpts
    python3 infra/scripts/make-fixture.py stop-words   # only the stop word lists

The wordfreq excerpts are cut from the full lists of infra/scripts/wordfreq.sh
(the pinned wordfreq wheel from PyPI) by the fixture's headwords, and so are
the lemma lookup table excerpts from the tables of
infra/scripts/lemma-lookups.sh (the pinned spacy-lookups-data wheel). The stop
word lists are copies of those of infra/scripts/stop-words.sh (Debian's
postgresql-15), whole.
"""
import gzip
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "data" / "fixture"

# Headwords the tests and the README name, plus an even sample of the rest.
FREEDICT = {
    "eng-fra": (["bank", "good", "bad", "house", "cat", "dog", "school", "a", "a few", "water", "book",
                 "banana", "band", "bandage", "banner", "bar", "colour", "color", "computer", "dictionary"], 25),
    "fra-eng": (["école", "maison", "chat", "chien", "banque", "bon", "mauvais", "eau", "livre", "cœur",
                 "être", "élève", "écrire", "ecu", "cote", "côte", "coté", "côté", "oeil"], 25),
    "eng-spa": (["dog", "school", "house", "cat", "bank", "water", "book", "good", "bad"], 25),
    # Spanish, for rhymes (`corazón`, `canción`, `ratón`, `camión`; `gato`,
    # `pato`, `zapato`): those and a few ordinary words, no sample.
    "spa-eng": (["corazón", "canción", "ratón", "camión", "casa", "cosa", "rosa", "perro", "gato",
                 "zapato", "pato", "hombre", "mujer", "agua", "libro"], 0),
    "deu-eng": (["Haus", "Schule", "gut", "Straße", "Hund", "Katze", "Wasser", "Buch", "schlecht", "Bank",
                 "Gut", "Übung", "Ärger", "Öl", "gehen"], 4000),
    # Italian, for a language that only lemma lookup tables give forms of.
    "ita-eng": (["uomo", "casa", "cane", "gatto", "scuola", "acqua", "libro", "buono", "andare", "essere",
                 "occhio"], 100),
    # Polish, for letters without a decomposition (`Lodz` finds `Łódź`): the
    # cities (`łódź` is two articles, the city and the boat) and a few
    # ordinary words, no sample (0): a handful of entries.
    "pol-eng": (["łódź", "kraków", "wrocław", "gdańsk", "żółw", "jabłko", "mleko", "łyżka", "źdźbło"], 0),
}


def dictd_excerpt(*args):
    """Runs the importer's dictd reader (admin/src/bin/dictd-excerpt.rs), the
    one reader of the format: an excerpt, or the headwords of index files."""
    subprocess.run(["cargo", "build", "--quiet", "-p", "admin", "--bin", "dictd-excerpt"], cwd=ROOT, check=True)
    return subprocess.run([str(ROOT / "target" / "debug" / "dictd-excerpt"), *map(str, args)], check=True,
                          capture_output=True, text=True).stdout


def subset(src_dir, name, words, every, out_dir):
    """The metadata articles, the index lines of WORDS, and every EVERY-th
    line of the rest (none when EVERY is 0). Returns the number of lines."""
    printed = dictd_excerpt("excerpt", src_dir / name, out_dir / name, every, *words)
    return int(printed.split()[0])


# WordNet lemmas kept, with every synset they are in and the synsets those point
# at (so that related words resolve). Lines are copied unchanged; WordNet keys
# synsets by the offset written at the start of each line.
WORDNET_LEMMAS = ["good", "bad", "bank", "house", "school", "able", "unable", "dog", "cat", "water",
                  "book", "run", "quickly", "slowly", "happy", "sad", "big", "small", "bright", "dark"]
WORDNET_FILES = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}


def wordnet_subset(src, out):
    data = {}
    for name in WORDNET_FILES:
        data[name] = (src / f"data.{name}").read_bytes().decode("utf-8", "replace").splitlines(keepends=True)
    by_pos = {pos: {} for pos in "nvar"}
    for name, pos in WORDNET_FILES.items():
        for line in data[name]:
            if not line.startswith(" "):
                by_pos[pos][line.split(" ", 1)[0]] = line
    wanted = {pos: set() for pos in "nvar"}
    for name, pos in WORDNET_FILES.items():
        kept = []
        for line in (src / f"index.{name}").read_bytes().decode("utf-8", "replace").splitlines(keepends=True):
            if line.startswith(" ") or line.split(" ", 1)[0] in WORDNET_LEMMAS:
                kept.append(line)
                if not line.startswith(" "):
                    fields = line.split()
                    count = int(fields[2])
                    wanted[pos].update(fields[-count:])
        (out / f"index.{name}").write_text("".join(kept), encoding="utf-8")
    for pos in "nvar":
        for offset in list(wanted[pos]):
            fields = by_pos[pos][offset].split(" | ")[0].split()
            words = int(fields[3], 16)
            at = 4 + 2 * words
            for i in range(int(fields[at])):
                symbol, target, target_pos = fields[at + 1 + 4 * i: at + 4 + 4 * i]
                wanted["a" if target_pos == "s" else target_pos].add(target)
    for name, pos in WORDNET_FILES.items():
        header = [l for l in data[name] if l.startswith(" ")]
        body = sorted((by_pos[pos][o] for o in wanted[pos]), key=lambda l: int(l.split(" ", 1)[0]))
        (out / f"data.{name}").write_text("".join(header + body), encoding="utf-8")


# MyThes thesauri: the encoding line and the blocks of a few headwords, bytes
# unchanged (the Spanish file stays ISO 8859-1).
MYTHES = {
    "mythes-en-us": ("th_en_US_v2.dat", ["good", "bad", "bank", "house", "school", "happy", "big", "small"]),
    "mythes-fr": ("th_fr_FR_v2.dat", ["bon", "mauvais", "maison", "école", "chat", "grand"]),
    "mythes-de": ("th_de_DE_v2.dat", ["gut", "schlecht", "Haus", "Schule", "groß"]),
    "mythes-es": ("th_es_ES_v2.dat", ["bueno", "malo", "casa", "escuela", "niño", "grande"]),
}


def mythes_subset(src, out_file, words):
    lines = src.read_bytes().split(b"\n")
    encoding = lines[0].decode("ascii").strip()
    codec = "latin-1" if encoding.upper().startswith("ISO") else "utf-8"
    wanted = {w.encode(codec) for w in words}
    kept = [lines[0]]
    i = 1
    while i < len(lines):
        head, _, count = lines[i].rpartition(b"|")
        n = int(count) if count.strip().isdigit() else 0
        if head in wanted:
            kept.extend(lines[i:i + 1 + n])
        i += 1 + n
    out_file.write_bytes(b"\n".join(kept) + b"\n")


# WordNet's exception lists (inflected form, lemmas): the lines of the lemmas
# kept above and of the irregular forms the tests name (went, geese, mice,
# better), lines unchanged.
WORDNET_EXC_LEMMAS = set(WORDNET_LEMMAS) | {"go", "goose", "mouse", "well"}


def wordnet_exc_subset(src, out):
    for name in WORDNET_FILES:
        lines = (src / f"{name}.exc").read_bytes().decode("utf-8").splitlines(keepends=True)
        kept = [line for line in lines if WORDNET_EXC_LEMMAS & set(line.split()[1:])]
        (out / f"{name}.exc").write_text("".join(kept), encoding="utf-8")


# Hunspell dictionaries, for the inflected forms of French, German and
# Spanish: the .aff whole (every affix rule may be needed) and, of the .dic,
# its first line (the stem count, a size hint), German's header and every
# line of the stems the tests and the other dictionaries name, unchanged.
HUNSPELL = {
    "hunspell-fr-classical": ("fr", ["cheval", "maison", "allée", "aller", "école", "chat", "chien", "bon",
                                     "mauvais", "eau", "livre", "être", "écrire", "grand"]),
    "hunspell-de-de": ("de_DE", ["Haus", "Hund", "Schule", "gut", "Straße", "Katze", "Wasser", "Buch",
                                 "Bank", "schlecht", "groß"]),
    "hunspell-es": ("es_ES", ["casa", "bueno", "malo", "escuela", "niño", "grande"]),
}


def hunspell_subset(src, name, stems, out):
    shutil.copy(src / f"{name}.aff", out / f"{name}.aff")
    lines = (src / f"{name}.dic").read_bytes().decode("utf-8").splitlines(keepends=True)
    wanted = set(stems)

    def stem(line):
        fields = line.split("/")[0].split()
        return fields[0] if fields else None

    kept = [lines[0]] + [line for line in lines[1:] if line.startswith("\t") or stem(line) in wanted]
    (out / f"{name}.dic").write_text("".join(kept), encoding="utf-8")
    return len(kept) - 1


GCIDE = (["Able", "Good", "Bad", "Bank", "Banc", "naive", "House", "School", "Water", "Book", "Cafe",
          "Happy", "Sad", "Dog", "Cat"], 4000)


# wordfreq excerpts (issue 13): the lines of the full lists that
# infra/scripts/wordfreq.sh writes whose word is a headword of a fixture
# dictionary of that language (compared case-insensitively), unchanged and in
# the lists' order. Headwords are read from the committed fixture files.
WORDFREQ_LANGS = {"eng": "en", "fra": "fr", "deu": "de", "spa": "es", "ita": "it"}


def fixture_headwords():
    heads = {lang: set() for lang in WORDFREQ_LANGS.values()}

    def dictd(path, lang):
        for head in dictd_excerpt("headwords", path).splitlines():
            heads[lang].add(head.casefold())

    for index in sorted((OUT / "freedict").glob("freedict-*.index")):
        # Languages without a wordfreq excerpt (Polish) are left out.
        if index.stem.split("-")[1] in WORDFREQ_LANGS:
            dictd(index, WORDFREQ_LANGS[index.stem.split("-")[1]])
    dictd(OUT / "gcide" / "gcide.index", "en")
    for index in sorted((OUT / "wordnet").glob("index.*")):
        for line in index.read_text(encoding="utf-8").splitlines():
            if not line.startswith(" "):
                heads["en"].add(line.split(" ", 1)[0].replace("_", " ").casefold())
    for dat in sorted((OUT / "mythes").glob("th_*.dat")):
        lang = dat.name.split("_")[1]
        lines = dat.read_bytes().split(b"\n")
        codec = "latin-1" if lines[0].decode("ascii").strip().upper().startswith("ISO") else "utf-8"
        i = 1
        while i < len(lines):
            head, _, count = lines[i].rpartition(b"|")
            n = int(count) if count.strip().isdigit() else 0
            if head:
                heads[lang].add(head.decode(codec).casefold())
            i += 1 + n
    return heads


def wordfreq_excerpts():
    full = ROOT / ".local" / "wordfreq" / "tsv"
    subprocess.run([str(ROOT / "infra" / "scripts" / "wordfreq.sh"), str(full)], check=True)
    out = OUT / "wordfreq"
    out.mkdir(parents=True, exist_ok=True)
    for lang, heads in fixture_headwords().items():
        with (full / f"{lang}.tsv").open(encoding="utf-8", newline="") as f:
            kept = [line for line in f if line.split("\t", 1)[0].casefold() in heads]
        with (out / f"{lang}.tsv").open("w", encoding="utf-8", newline="") as f:
            f.writelines(kept)
        print(f"wordfreq {lang}: {len(kept)} of {len(heads)} headwords have a frequency")


# Lemma lookup table excerpts (issue 25): of each table of the languages of
# the fixture's dictionaries, the entries whose lemma (one of them, for a
# list) is a headword of a fixture dictionary of that language (compared
# case-insensitively), unchanged, as plain JSON with one entry a line.
LOOKUP_LANGS = ["en", "fr", "de", "es", "it"]


def lemma_lookup_excerpts():
    full = ROOT / ".local" / "lemma-lookups" / "tables"
    subprocess.run([str(ROOT / "infra" / "scripts" / "lemma-lookups.sh"), str(full)], check=True)
    out = OUT / "lemma-lookups"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    heads = fixture_headwords()
    for lang in LOOKUP_LANGS:
        for table in sorted(full.glob(f"{lang}_lemma_lookup*.json.gz")):
            entries = json.loads(gzip.open(table).read())
            kept = {form: lemma for form, lemma in entries.items()
                    if any(l.casefold() in heads[lang] for l in (lemma if isinstance(lemma, list) else [lemma]))}
            name = table.name.removesuffix(".gz")
            if kept:
                (out / name).write_text(json.dumps(kept, ensure_ascii=False, indent=0, sort_keys=True) + "\n",
                                        encoding="utf-8")
            print(f"lemma lookups {name}: {len(kept)} of {len(entries)} forms")
    for note in sorted(full.glob("*.txt")) + [full / "LICENSE"]:
        if note.name.split("_")[0] in LOOKUP_LANGS or note.name == "LICENSE":
            shutil.copy(note, out / ("spacy-lookups-data.LICENSE" if note.name == "LICENSE" else note.name))


# Stop word lists: the Snowball lists of the fixture's languages, as Debian's
# postgresql-15 ships them (infra/scripts/stop-words.sh), whole and
# unchanged, with the package's copyright file and the origin (package and
# version) the script records.
STOP_WORDS_LANGS = ["en", "fr", "de", "es", "it"]


def stop_words_lists():
    full = ROOT / ".local" / "stop-words" / "lists"
    subprocess.run([str(ROOT / "infra" / "scripts" / "stop-words.sh"), str(full)], check=True)
    out = OUT / "stop-words"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for lang in STOP_WORDS_LANGS:
        shutil.copy(full / f"{lang}.stop", out / f"{lang}.stop")
        print(f"stop words {lang}: {sum(1 for _ in (out / f'{lang}.stop').open(encoding='utf-8'))} lines")
    for note in ["origin.txt", "postgresql-15.copyright"]:
        shutil.copy(full / note, out / note)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        packages = ([f"dict-freedict-{pair}" for pair in FREEDICT] + ["wordnet-base", "dict-gcide"] + list(MYTHES)
                    + list(HUNSPELL))
        subprocess.run(["apt-get", "download", *packages], cwd=tmp, check=True)
        for deb in tmp.glob("*.deb"):
            subprocess.run(["dpkg-deb", "-x", str(deb), str(tmp / "x")], check=True)
        out = OUT / "freedict"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        for pair, (words, every) in FREEDICT.items():
            name = f"freedict-{pair}"
            count = subset(tmp / "x/usr/share/dictd", name, words, every, out)
            # The dict-freedict-* packages of one source package ship the same
            # copyright file: freedict's is COPYRIGHT.debian, another's (the
            # WikDict dictionaries of freedict-wikdict) COPYRIGHT.<source>.debian.
            deb = next(tmp.glob(f"dict-{name}_*.deb"))
            # `Source: name (version)` when the versions differ; none when it is the package's own.
            source = (subprocess.run(["dpkg-deb", "-f", str(deb), "Source"], check=True, capture_output=True,
                                     text=True).stdout.split() or [f"dict-{name}"])[0]
            copyright = "COPYRIGHT.debian" if source == "freedict" else f"COPYRIGHT.{source}.debian"
            shutil.copy(tmp / f"x/usr/share/doc/dict-{name}/copyright", out / copyright)
            print(f"{name}: {count} index lines")
        gcide = OUT / "gcide"
        shutil.rmtree(gcide, ignore_errors=True)
        gcide.mkdir(parents=True)
        words, every = GCIDE
        count = subset(tmp / "x/usr/share/dictd", "gcide", words, every, gcide)
        shutil.copy(tmp / "x/usr/share/doc/dict-gcide/copyright", gcide / "COPYRIGHT.debian")
        print(f"gcide: {count} index lines")
        wordnet = OUT / "wordnet"
        shutil.rmtree(wordnet, ignore_errors=True)
        wordnet.mkdir(parents=True)
        wordnet_subset(tmp / "x/usr/share/wordnet", wordnet)
        wordnet_exc_subset(tmp / "x/usr/share/wordnet", wordnet)
        shutil.copy(tmp / "x/usr/share/doc/wordnet-base/copyright", wordnet / "COPYRIGHT.debian")
        print("wordnet:", sum(1 for _ in (wordnet / "data.noun").open()), "noun data lines")
        mythes = OUT / "mythes"
        shutil.rmtree(mythes, ignore_errors=True)
        mythes.mkdir(parents=True)
        for package, (name, words) in MYTHES.items():
            mythes_subset(tmp / "x/usr/share/mythes" / name, mythes / name, words)
            # mythes-en-us, -fr and -es come from one source package
            # (libreoffice-dictionaries) with one copyright file.
            target = "mythes-de.copyright" if package == "mythes-de" else "libreoffice-dictionaries.copyright"
            shutil.copy(tmp / f"x/usr/share/doc/{package}/copyright", mythes / target)
        print("mythes:", sorted(p.name for p in mythes.glob("*.dat")))
        hunspell = OUT / "hunspell"
        shutil.rmtree(hunspell, ignore_errors=True)
        hunspell.mkdir(parents=True)
        for package, (name, stems) in HUNSPELL.items():
            count = hunspell_subset(tmp / "x/usr/share/hunspell", name, stems, hunspell)
            # hunspell-es comes from libreoffice-dictionaries, whose copyright
            # file is mythes/libreoffice-dictionaries.copyright already.
            if package != "hunspell-es":
                shutil.copy(tmp / f"x/usr/share/doc/{package}/copyright", hunspell / f"{package}.copyright")
            print(f"hunspell {name}: {count} .dic lines")
    wordfreq_excerpts()
    lemma_lookup_excerpts()
    stop_words_lists()


if __name__ == "__main__":
    if sys.argv[1:] == ["wordfreq"]:
        wordfreq_excerpts()
    elif sys.argv[1:] == ["lemma-lookups"]:
        lemma_lookup_excerpts()
    elif sys.argv[1:] == ["stop-words"]:
        stop_words_lists()
    else:
        main()
