#!/usr/bin/env bash
# Replays the catalog's rendered requests against Prism, a third-party validator of OpenAPI
# requests, and fails on any request-validation violation.
#
# How to run (from anywhere; needs Node.js 18+ and npm, and network access to the npm registry
# the first time):
#
#     tests/prism/run.sh
#
# What it does:
#   1. installs @stoplight/prism-cli (version pinned below) into tests/prism/.prism/
#      (git-ignored), once;
#   2. for each catalog definition (catalog/<system>/definition.{yaml,json}), starts
#      `prism mock` on it on 127.0.0.1, on a free port;
#   3. sends it every request that tests/catalog.rs rendered with `syncdef dry-run` for that
#      definition (the committed snapshots tests/snapshots/catalog__*.snap; cargo test keeps
#      them equal to what the definitions render), and fails when Prism reports a violation
#      located in the request (its `sl-violations` header) or refuses the request;
#   4. stops every Prism it started, also on failure or Ctrl-C.
# Prism's own log for each definition is kept in tests/prism/.prism/<system>-<format>.log.
set -euo pipefail

PRISM_VERSION=5.16.0
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
prefix="$here/.prism"
prism="$prefix/node_modules/.bin/prism"

command -v node >/dev/null || { echo "tests/prism/run.sh: Node.js is needed (node not found)" >&2; exit 2; }
command -v npm >/dev/null || { echo "tests/prism/run.sh: npm is needed (npm not found)" >&2; exit 2; }

installed="$(node -p "require('$prefix/node_modules/@stoplight/prism-cli/package.json').version" 2>/dev/null || true)"
if [[ "$installed" != "$PRISM_VERSION" ]]; then
  echo "== installing @stoplight/prism-cli@$PRISM_VERSION into tests/prism/.prism"
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error \
    "@stoplight/prism-cli@$PRISM_VERSION" >/dev/null
fi

shopt -s nullglob
snapshots=("$repo"/tests/snapshots/catalog__*.snap)
if (( ${#snapshots[@]} == 0 )); then
  echo "tests/prism/run.sh: no rendered requests (tests/snapshots/catalog__*.snap); run cargo test -p syncdef-cli --test catalog" >&2
  exit 1
fi
definitions=("$repo"/catalog/*/definition.yaml "$repo"/catalog/*/definition.json)

pids=()
cleanup() {
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT INT TERM

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

status=0
cd "$repo"
for file in "${definitions[@]}"; do
  definition="${file#"$repo"/}"
  system="$(basename "$(dirname "$file")")"
  log="$prefix/$system-${file##*.}.log"
  port="$(free_port)"
  echo "== $definition: prism mock on 127.0.0.1:$port"
  "$prism" mock --host 127.0.0.1 --port "$port" "$file" >"$log" 2>&1 &
  pid=$!
  pids+=("$pid")
  if ! node "$here/replay.mjs" "$definition" "$port" "${snapshots[@]}"; then
    status=1
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "Prism stopped on its own while checking $definition; its log:" >&2
    cat "$log" >&2
    status=1
  fi
  # Prism logs each violation as an error line as well; a request violation there that the
  # header did not show still fails the run.
  if grep -q "Violation: request" "$log"; then
    echo "Prism logged request violations for $definition:" >&2
    grep "Violation: request" "$log" >&2
    status=1
  fi
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
done

if (( status == 0 )); then
  echo "Prism accepted every rendered request of the catalog"
fi
exit "$status"
