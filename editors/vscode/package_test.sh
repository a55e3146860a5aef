#!/usr/bin/env bash
# package.sh stops at once, with the reason, when Node.js or npm is missing or Node.js is too
# old (before touching npm): run with a PATH holding only what the script itself needs, plus
# stand-ins for `node` and `npm`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
for tool in bash dirname env; do
  ln -s "$(command -v "$tool")" "$bin/$tool"
done

# expect NAME PATTERN: package.sh fails with PATTERN on its standard error.
expect() {
  local status=0 err
  err="$(PATH="$bin" bash "$here/package.sh" 2>&1 >/dev/null)" || status=$?
  if [ "$status" = 0 ] || ! grep -q "$2" <<<"$err"; then
    echo "editors/vscode/package_test.sh: $1: expected a failure saying '$2', got status $status: $err" >&2
    exit 1
  fi
  echo "ok: $1"
}

expect "without node" "node is not installed"
printf '#!/usr/bin/env bash\necho 20\n' > "$bin/node"
chmod +x "$bin/node"
expect "without npm" "npm is not installed"
printf '#!/usr/bin/env bash\necho should not run >&2; exit 3\n' > "$bin/npm"
printf '#!/usr/bin/env bash\n[ "$1" = -p ] && echo 18 || echo v18.19.0\n' > "$bin/node"
chmod +x "$bin/npm" "$bin/node"
expect "with Node.js 18" "too old"
