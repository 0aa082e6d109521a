#!/usr/bin/env bash
# The footprint of the function binaries (docs/benchmarks.md, "Binary size and
# cold init"): builds the release binary of every crate in functions/ and of
# the hello world (infra/hello-world, the yardstick), prints their stripped
# sizes, then measures their cold init against the hello world's with the
# cold-init bench binary (infra/bench/src/cold_init.rs, built here in release
# like them). Everything it prints, on stdout, is Markdown to paste into the
# docs; cargo's own errors and warnings come with it.
#
#   infra/scripts/function-footprint.sh [CRATE...]
#
# CRATE...  only these functions (the hello world is always built and is the
#           baseline); default: every crate in functions/
#
# Each crate is built alone (`cargo build --release -p CRATE`, one cargo per
# crate), as SAM builds each function: built together, cargo would unify the
# features of their dependencies and a binary could hold what only another
# one needs. Binaries are for the machine it runs on (x86_64 here).
#
# The environment picks a variant of the release profile, as cargo reads it:
#   CARGO_PROFILE_RELEASE_LTO, _OPT_LEVEL, _PANIC, _CODEGEN_UNITS, _STRIP, ...
#   CARGO_TARGET_DIR  where to build (give each variant its own, so that
#                     variants do not rebuild over each other)
#   ROUNDS            cold-init rounds (default 30); 0 skips cold init
#   COLD_INIT_ARGS    more arguments for cold-init (e.g. --warmup 3)
# For example:
#   CARGO_PROFILE_RELEASE_LTO=fat CARGO_TARGET_DIR=/tmp/variants/lto-fat \
#     infra/scripts/function-footprint.sh search openapi
#
# The binaries measured are copied to $CARGO_TARGET_DIR/footprint/ (stripped
# copies in footprint/stripped/), so that a build running after this one
# cannot swap them during the measurement.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$root"

if [ $# -gt 0 ]; then
  functions=("$@")
else
  functions=()
  for manifest in functions/*/Cargo.toml; do
    functions+=("$(sed -n 's/^name = "\(.*\)"$/\1/p' "$manifest" | head -n 1)")
  done
fi
crates=(hello-world)
for crate in "${functions[@]}"; do
  [ "$crate" = hello-world ] || crates+=("$crate")
done
rounds="${ROUNDS:-30}"
out="$target_dir/footprint"
rm -rf "$out"
mkdir -p "$out/stripped"

echo "Release binaries of $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- shared functions Cargo.toml || echo ' (with uncommitted changes)')," \
  "$(rustc -V | cut -d' ' -f1-2), host $(rustc -vV | sed -n 's/^host: //p'), in ${target_dir}."
overrides="$(env | grep '^CARGO_PROFILE_RELEASE_' | sort | tr '\n' ' ' || true)"
echo "Release profile of Cargo.toml, overridden by: ${overrides:-nothing}."
echo

for crate in "${crates[@]}"; do
  started=$SECONDS
  cargo build --release --quiet -p "$crate" 2>&1
  echo "- built $crate in $((SECONDS - started)) s"
  cp "$target_dir/release/$crate" "$out/$crate"
  strip -o "$out/stripped/$crate" "$out/$crate"
done
echo

mb() { awk -v b="$1" 'BEGIN { printf "%.2f", b / 1e6 }'; }
hello_bytes="$(stat -c %s "$out/stripped/hello-world")"
echo "| Binary | As built, bytes | Stripped by the profile | Stripped, bytes | Stripped, MB | ÷ hello-world |"
echo "|---|---:|---|---:|---:|---:|"
for crate in "${crates[@]}"; do
  built="$(stat -c %s "$out/$crate")"
  stripped="$(stat -c %s "$out/stripped/$crate")"
  case "$(file -b "$out/$crate")" in *", stripped"*) said=yes ;; *) said=no ;; esac
  echo "| $crate | $built | $said | $stripped | $(mb "$stripped") | $(awk -v a="$stripped" -v b="$hello_bytes" 'BEGIN { printf "%.2f", a / b }') |"
done
echo
echo "MB = 10^6 bytes. Stripped: \`strip\` run on a copy (what a deployment holds)."
echo

if [ "$rounds" -gt 0 ]; then
  binaries=()
  for crate in "${crates[@]}"; do binaries+=("$crate=$out/stripped/$crate"); done
  # The measuring binary, built as the functions were (same profile and
  # target directory, so it reuses what they built).
  cargo build --release --quiet -p bench --bin cold-init 2>&1
  # shellcheck disable=SC2086 # COLD_INIT_ARGS is a list of arguments
  "$target_dir/release/cold-init" --rounds "$rounds" ${COLD_INIT_ARGS:-} "${binaries[@]}"
fi
