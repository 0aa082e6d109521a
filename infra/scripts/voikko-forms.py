#!/usr/bin/env python3
"""Finnish forms from Voikko: writes `form<TAB>lemma` lines for every word of
a wordfreq list (`word<TAB>zipf`, as wordfreq.sh writes it) that Voikko
analyses, one line per distinct baseform other than the word itself (an
ambiguous word keeps each: `kuin` -> `kuu`). Voikko analyses and does not
generate, so the words come from the frequency list.

    voikko-forms.py ROOT WORDS_TSV OUT_TSV

ROOT holds the unpacked Debian packages (lib.sh debian_packages): libvoikko1,
its libraries (libhfstospell11, libarchive13), python3-libvoikko's ctypes
binding and voikko-fi's dictionary (usr/lib/voikko). The libraries'
directory must be on LD_LIBRARY_PATH (lib.sh voikko_forms sets it): the
dynamic loader reads it only when the process starts. Nothing is installed.
"""
import os
import sys


def fail(message):
    print(f"voikko-forms.py: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 4:
        fail("usage: voikko-forms.py ROOT WORDS_TSV OUT_TSV")
    root, words, out = sys.argv[1:]
    binding = os.path.join(root, "usr/lib/python3/dist-packages")
    dictionary = os.path.join(root, "usr/lib/voikko")
    for path in (os.path.join(binding, "libvoikko.py"), dictionary, words):
        if not os.path.exists(path):
            fail(f"{path}: missing (lib.sh: debian_packages ROOT_DIR with the packages of the source voikko in data/sources.tsv unpacks them)")
    sys.path.insert(0, binding)
    import libvoikko

    try:
        voikko = libvoikko.Voikko("fi", path=dictionary)
    except (OSError, libvoikko.VoikkoException) as e:
        fail(f"cannot load libvoikko with voikko-fi's dictionary in {dictionary}: {e} "
             f"(LD_LIBRARY_PATH={os.environ.get('LD_LIBRARY_PATH', '')})")
    analysed = pairs = 0
    partial = out + ".partial"
    with open(words, encoding="utf-8") as src, open(partial, "w", encoding="utf-8") as dst:
        for n, line in enumerate(src, 1):
            word, tab, _ = line.rstrip("\n").partition("\t")
            if not tab:
                fail(f"{words} line {n}: not word<TAB>zipf")
            lemmas = {a["BASEFORM"] for a in voikko.analyze(word) if a.get("BASEFORM")}
            lemmas.discard(word)
            analysed += bool(lemmas)
            for lemma in sorted(lemmas):
                dst.write(f"{word}\t{lemma}\n")
                pairs += 1
    voikko.terminate()
    os.replace(partial, out)
    print(f"    {pairs} pairs of {analysed} words with a lemma other than themselves, in {out}")


main()
