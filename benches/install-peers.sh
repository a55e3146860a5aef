#!/usr/bin/env bash
# Installs the peer tools that syncdef is compared with, into benches/.peers/ (git-ignored).
# Nothing here is vendored: every tool comes from its public registry at the version pinned below.
#
#   benches/install-peers.sh            # install all peers
#   benches/install-peers.sh jaq        # only the named ones (jaq spectral redocly vacuum osv)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
peers="$here/.peers"
mkdir -p "$peers"

SPECTRAL_VERSION="6.16.3"
REDOCLY_VERSION="2.77.0"
VACUUM_VERSION="0.30.3"
JAQ_VERSION="3.1.2"
OSV_VERSION="0.9.0"

want() { [ $# -eq 0 ] || [ -z "${selected:-}" ] || [[ " $selected " == *" $1 "* ]]; }
selected="$*"

status=0
note() { printf '%s\n' "$*" >&2; }

if want spectral; then
  note "== Spectral $SPECTRAL_VERSION (npm)"
  npm install --silent --no-audit --no-fund --prefix "$peers/spectral" "@stoplight/spectral-cli@$SPECTRAL_VERSION" || status=1
fi
if want redocly; then
  note "== Redocly CLI $REDOCLY_VERSION (npm)"
  npm install --silent --no-audit --no-fund --prefix "$peers/redocly" "@redocly/cli@$REDOCLY_VERSION" || status=1
fi
if want vacuum; then
  # vacuum's npm package fetches its Go binary from GitHub releases in a postinstall step.
  # That host is outside the package registries this project may reach, so the install is
  # expected to fail here; the benchmark reports vacuum as "not installable" in that case.
  note "== vacuum $VACUUM_VERSION (npm; its postinstall downloads a binary from outside the registry)"
  if npm install --silent --no-audit --no-fund --prefix "$peers/vacuum" "@quobix/vacuum@$VACUUM_VERSION" \
     && "$peers/vacuum/node_modules/.bin/vacuum" version >/dev/null 2>&1; then
    note "vacuum installed"
  else
    note "vacuum could not be installed (binary download refused); the comparison omits it and says so"
    rm -rf "$peers/vacuum"
  fi
fi
if want osv; then
  note "== openapi-spec-validator $OSV_VERSION (PyPI)"
  python3 -m venv "$peers/osv" && "$peers/osv/bin/pip" install --quiet "openapi-spec-validator==$OSV_VERSION" || status=1
fi
if want jaq; then
  note "== jaq $JAQ_VERSION (crates.io)"
  cargo install --quiet --locked --root "$peers/jaq" "jaq@$JAQ_VERSION" || status=1
fi
exit $status
