#!/usr/bin/env bash
# The commands of the README, docs/getting-started.md and the examples, in the order a reader
# runs them, each timed, with the crates it compiled: a command that shares the build of the
# ones before compiles only what they did not need (docs/benchmarks.md, "One build").
#
#   benches/one-build.sh [TARGET_DIR]     # default: a new temporary directory, removed after
#
# Starts from an empty target directory (a cold build, several minutes on two cores). Prints
# one line a command: wall and CPU seconds (user + system: CPU time moves less than wall time
# when other builds share the machine), the load average when it ended, and the crates compiled.
set -euo pipefail
cd "$(dirname "$0")/.."
keep="${1:+yes}"
target="${1:-$(mktemp -d)}"
log="$(mktemp)"
trap 'rm -f "$log" "$log.time"; [ -n "$keep" ] || rm -rf "$target"' EXIT
export CARGO_TARGET_DIR="$target" CARGO_TERM_COLOR=never

# step COMMAND...: runs it, prints its line.
step() {
  local status=0
  /usr/bin/time -f '%e %U %S' -o "$log.time" "$@" >"$log" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    cat "$log" >&2
    echo "failed with status $status: $*" >&2
    exit 1
  fi
  local wall user system
  read -r wall user system < <(tail -n 1 "$log.time")
  printf '%s\n  %ss wall, %ss CPU, load %s, %s compiled: %s\n' "$*" "$wall" \
    "$(echo "$user + $system" | bc)" "$(cut -d' ' -f1 /proc/loadavg)" \
    "$(grep -c '^ *Compiling' "$log" || true)" \
    "$(grep '^ *Compiling' "$log" | awk '{print $2}' | tr '\n' ' ')"
}

# Release: the README, docs/getting-started.md, the examples.
step cargo build --release --locked -p syncdef-cli
step cargo build --release --locked -p syncdef-cli -p syncdef-mock
step cargo run --release --locked -p syncdef-mock -- --help
step cargo run --release --locked -p syncdef-cli -- --help
step cargo install --locked --path cli --root "$target/installed"
step cargo build --release --locked -p syncdef-engine --example push_one
step cargo build --release --locked -p syncdef-worker --example first_sync
# Dev: the test suite, then what a developer and CI build after it.
step cargo test --workspace --locked --no-run
step cargo build --locked -p syncdef-cli
step cargo build --locked -p syncdef-engine --example push_one
step cargo build --locked -p syncdef-mock
step cargo test --locked -p syncdef-cli -p syncdef-transform -p syncdef-lsp --bench scaling --no-run
