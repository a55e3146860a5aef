#!/usr/bin/env bash
# Checks that tests/prism/run.sh stops at once, with the reason, when it cannot get a Node.js
# that Prism runs on (no node, a node older than Prism needs, or an npm that cannot install
# the pinned one), or cannot install the validators themselves. Each case runs with a PATH holding only fakes and the few tools run.sh uses
# before it decides, and an empty SYNCDEF_PRISM_DIR, so nothing is downloaded.
#
#     tests/prism/run_test.sh        (CI runs it before the Prism stage)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0

# A bin directory with the system tools run.sh needs before it reaches Node.js.
bin_with() {
  local dir="$work/$1"
  mkdir -p "$dir"
  local tool
  for tool in dirname uname mkdir; do
    ln -sf "$(command -v "$tool")" "$dir/$tool"
  done
  echo "$dir"
}

# A fake `$2` in directory $1 that prints $3 and exits $4.
fake() {
  printf '#!/bin/bash\necho "%s"\nexit %s\n' "$3" "$4" >"$1/$2"
  chmod +x "$1/$2"
}

# Runs run.sh with PATH=$1; expects exit 2 within 5 s and stderr containing $2.
expect_fail_fast() {
  local name="$1" path="$2" reason="$3"
  local started=$SECONDS status=0
  env -i PATH="$path" HOME="$work" SYNCDEF_PRISM_DIR="$work/$name-prism" \
    "$BASH" "$here/run.sh" >"$work/$name.out" 2>"$work/$name.err" || status=$?
  local took=$((SECONDS - started))
  if [[ $status -ne 2 ]] || ((took > 5)) || ! grep -qF "$reason" "$work/$name.err"; then
    echo "FAIL $name: exit $status after ${took}s; expected exit 2 within 5 s saying: $reason" >&2
    cat "$work/$name.out" "$work/$name.err" >&2
    failures=$((failures + 1))
  else
    echo "ok   $name: $(head -n 1 "$work/$name.err")"
  fi
}

missing="$(bin_with missing)"
expect_fail_fast missing "$missing" "no node on PATH and no npm"

old="$(bin_with old)"
fake "$old" node v20.20.2 0
expect_fail_fast old "$old" "Node.js 20.20.2 and no npm"

offline="$(bin_with offline)"
fake "$offline" node v22.1.0 0
fake "$offline" npm "npm error network request failed" 1
expect_fail_fast offline "$offline" "npm could not install node-"

packages="$(bin_with packages)"
fake "$packages" node v24.21.0 0
fake "$packages" npm "npm error network request failed" 1
expect_fail_fast packages "$packages" "npm could not install @stoplight/prism-cli@"

if ((failures > 0)); then
  exit 1
fi
echo "run.sh stops at once when it cannot get a Node.js >= Prism's minimum or the validators"
