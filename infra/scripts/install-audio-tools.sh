#!/usr/bin/env bash
# Installs the pronunciation tools the importer runs: espeak-ng (speech),
# lame (MP3) and speexenc (Speex in Ogg), from Debian's packages (root
# needed, as on CI); does nothing when they are already there.
exec "$(dirname "$0")/install-debian-packages.sh" espeak-ng=espeak-ng lame=lame speexenc=speex
