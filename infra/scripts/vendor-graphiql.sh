#!/usr/bin/env bash
# Vendors the GraphQL explorer's browser files into the playground function,
# which serves them from /assets/ (no asset comes from another origin). Run it
# only to change versions: the files are committed, with their licences, and
# the build never reaches the npm registry. `npm pack` checks each tarball
# against the registry's integrity hash; the SHA-256 of every vendored file is
# written to VENDORED.md so that a review sees exactly what changed.
#
# GraphiQL 3.8 is the last release with a single-file browser (UMD) build;
# GraphiQL 4 and later ship ES modules for a bundler.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
vendor="$root/functions/playground/assets/vendor"
packages=(graphiql@3.8.3 react@18.3.1 react-dom@18.3.1)
# package file → vendored name
files=(
  "graphiql package/graphiql.min.js graphiql.min.js"
  "graphiql package/graphiql.min.css graphiql.min.css"
  "graphiql package/LICENSE LICENSE-graphiql"
  "react package/umd/react.production.min.js react.production.min.js"
  "react package/LICENSE LICENSE-react"
  "react-dom package/umd/react-dom.production.min.js react-dom.production.min.js"
  "react-dom package/LICENSE LICENSE-react-dom"
)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
for package in "${packages[@]}"; do
  tarball="$(npm pack --silent "$package" 2>/dev/null | tail -n 1)"
  mkdir -p "${package%@*}"
  tar -xzf "$tarball" -C "${package%@*}"
done
mkdir -p "$vendor"
{
  echo "# Vendored browser files"
  echo
  echo "Served by the playground function at \`/assets/<name>\` for the GraphQL explorer"
  echo "(\`GET /api/v1/api/graphql\` with \`Accept: text/html\`). Written by"
  echo "\`infra/scripts/vendor-graphiql.sh\`; do not edit by hand. All three packages are"
  echo "MIT-licensed; their licences are beside them."
  echo
  echo "| file | from | sha256 |"
  echo "|---|---|---|"
} >"$vendor/VENDORED.md"
for spec in "${files[@]}"; do
  read -r package path name <<<"$spec"
  cp "$package/$path" "$vendor/$name"
  version="$(printf '%s\n' "${packages[@]}" | grep "^$package@")"
  echo "| $name | $version \`$path\` | \`$(sha256sum "$vendor/$name" | cut -c1-64)\` |" >>"$vendor/VENDORED.md"
done
echo "vendored ${packages[*]} into ${vendor#"$root"/}"
