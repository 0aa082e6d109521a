#!/usr/bin/env python3
"""Writes wordfreq's word lists as TSV: OUT_DIR/<lang>.tsv, one `word<TAB>zipf`
line per word, most frequent first (within one frequency, in the list's own
alphabetical order), zipf with two decimals. Reads the data files straight
from the wordfreq wheel, without installing or importing wordfreq: only the
`msgpack` package is needed. Run by infra/scripts/wordfreq.sh.

    wordfreq-tsv.py WHEEL OUT_DIR LANG...

wordfreq's data files are "cBpack": gzipped msgpack of a list whose first
element is the header {"format": "cB", "version": 1} and whose element i + 1
lists the words whose frequency rounds to -i centibels (10 ** (-i / 100)).
wordfreq's own `cB_to_zipf` is (cB + 900) / 100, so bucket i is Zipf
(900 - i) / 100, exactly what `zipf_frequency` returns for a word of one
token. The `large_` list is taken where it exists (words down to Zipf 1.0),
else the `small_` one (down to Zipf 3.0).
"""
import gzip
import io
import os
import sys
import zipfile

import msgpack


def buckets(wheel, member):
    with wheel.open(member) as raw:
        data = msgpack.unpack(gzip.GzipFile(fileobj=io.BufferedReader(raw)), raw=False)
    header = data[0]
    if not isinstance(header, dict) or header.get("format") != "cB" or header.get("version") != 1:
        raise ValueError(f"{member}: unexpected header {header!r}")
    return data[1:]


def zipf(bucket):
    centi = 900 - bucket
    if centi < 0:
        raise ValueError(f"bucket {bucket} is below Zipf 0")
    return f"{centi // 100}.{centi % 100:02d}"


def main():
    wheel_path, out_dir, *langs = sys.argv[1:]
    with zipfile.ZipFile(wheel_path) as wheel:
        names = set(wheel.namelist())
        for lang in langs:
            for size in ("large", "small"):
                member = f"wordfreq/data/{size}_{lang}.msgpack.gz"
                if member in names:
                    break
            else:
                print(f"    {lang}: wordfreq has no list", file=sys.stderr)
                continue
            seen = set()
            lines = []
            skipped = 0
            for i, words in enumerate(buckets(wheel, member)):
                z = zipf(i)
                for word in words:
                    # A word is one token: never a tab or a line break, but
                    # the TSV would break if one came.
                    if not word or any(c in word for c in "\t\r\n") or word in seen:
                        skipped += 1
                        continue
                    seen.add(word)
                    lines.append(f"{word}\t{z}\n")
            out = os.path.join(out_dir, f"{lang}.tsv")
            with open(out + ".tmp", "w", encoding="utf-8", newline="\n") as f:
                f.writelines(lines)
            os.replace(out + ".tmp", out)
            print(f"    {lang}: {len(lines)} words from {member.rsplit('/', 1)[1]}"
                  f" ({os.path.getsize(out) / 1e6:.1f} MB){f', {skipped} skipped' if skipped else ''}")


if __name__ == "__main__":
    main()
