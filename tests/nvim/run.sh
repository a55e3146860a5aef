#!/usr/bin/env bash
# End to end through a real editor: Neovim (headless) and its built-in LSP client start
# `syncdef lsp`, open a copy of a catalog definition with a misspelt module, and must receive
# SD601 at its line; then an edit in the buffer (an incremental didChange) must bring SD202 and
# clear SD601; then every Lua snippet of docs/editor-setup.md runs as an init.lua. Installs
# Neovim with apt-get when it is missing; stops at once, with the reason, when it cannot.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v nvim >/dev/null 2>&1; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "tests/nvim/run.sh: Neovim is not installed and there is no apt-get to install it; install Neovim (0.7 or later)" >&2
    exit 1
  fi
  if [ "$(id -u)" != 0 ]; then
    echo "tests/nvim/run.sh: Neovim is not installed and installing it needs root (apt-get install neovim)" >&2
    exit 1
  fi
  if ! { apt-get update -qq && apt-get install -y -qq neovim >/dev/null; }; then
    echo "tests/nvim/run.sh: apt-get could not install neovim; install Neovim (0.7 or later) by hand" >&2
    exit 1
  fi
fi

# The binary the test suite builds: every command resolves the same features
# (docs/architecture.md, "One build"), so nothing to compile after the suite, and run alone
# only the binary and what it links, not the tests.
cargo build --locked -q -p syncdef-cli
target="${CARGO_TARGET_DIR:-target}"
bin="$(cd "$target/debug" && pwd)/syncdef"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sed 's/module: Accounts/module: Acounts/' catalog/quickbooks-online/definition.yaml > "$work/definition.yaml"
expected_line="$(grep -n 'module: Acounts' "$work/definition.yaml" | cut -d: -f1)"

status=0
SYNCDEF_NVIM_BIN="$bin" SYNCDEF_NVIM_FILE="$work/definition.yaml" HOME="$work" \
  timeout 120 nvim --headless --clean -n -c "luafile tests/nvim/diagnostics.lua" \
  > "$work/out" 2> "$work/err" < /dev/null || status=$?
cat "$work/out"
if [ "$status" != 0 ]; then
  echo "tests/nvim/run.sh: Neovim ended with status $status:" >&2
  cat "$work/err" >&2
  exit 1
fi
if ! grep -qP "^open\t${expected_line}:13\tSD601\t" "$work/out"; then
  echo "tests/nvim/run.sh: SD601 was not reported at line ${expected_line}, column 13" >&2
  exit 1
fi
if ! grep -qP "^change\t[0-9]+:[0-9]+\tSD202\t" "$work/out" || grep -qP "^change\t.*\tSD601\t" "$work/out"; then
  echo "tests/nvim/run.sh: after the edit, SD202 was expected and SD601 gone" >&2
  exit 1
fi
echo "tests/nvim/run.sh: Neovim received syncdef's diagnostics, before and after an edit"

# Each Lua snippet of docs/editor-setup.md, run as a user's init.lua with `syncdef` on the PATH,
# on a definition under a `catalog/` folder (the folder the snippets attach the server to).
mkdir -p "$work/project/catalog" "$work/project/.git" "$work/snippets" "$work/bin"
cp "$work/definition.yaml" "$work/project/catalog/definition.yaml"
ln -s "$bin" "$work/bin/syncdef"
awk -v dir="$work/snippets" '
  /^```lua$/ { n++; file = sprintf("%s/%02d.lua", dir, n); inside = 1; next }
  /^```/ && inside { inside = 0; close(file); next }
  inside { print > file }
' docs/editor-setup.md
driver="$PWD/tests/nvim/snippet.lua"
ran=0
for snippet in "$work"/snippets/*.lua; do
  out="$(cd "$work/project" && PATH="$work/bin:$PATH" HOME="$work" SYNCDEF_SNIPPET="$snippet" \
    SYNCDEF_NVIM_FILE="$work/project/catalog/definition.yaml" \
    timeout 120 nvim --headless --clean -n -c "luafile $driver" 2>&1 < /dev/null)" || {
    echo "tests/nvim/run.sh: the editor-setup snippet $(basename "$snippet") failed:" >&2
    echo "$out" >&2
    cat "$snippet" >&2
    exit 1
  }
  echo "snippet $(basename "$snippet"): $out"
  case "$out" in ran*) ran=$((ran + 1)) ;; esac
done
if [ "$ran" = 0 ]; then
  echo "tests/nvim/run.sh: no editor-setup snippet could run on this Neovim ($(nvim --version | head -1))" >&2
  exit 1
fi
echo "tests/nvim/run.sh: $ran editor-setup snippet(s) attached the server on $(nvim --version | head -1)"
