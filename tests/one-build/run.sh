#!/usr/bin/env bash
# One build for every command: each package set Cargo can be asked to build (a package alone,
# with or without its tests and examples, the binary with syncdef-mock, the whole workspace)
# must resolve every crate with the features the whole workspace's tests resolve it with, or
# Cargo compiles that crate and everything above it again (Cargo unifies features per package
# set). The workspace-hack crate makes them equal (docs/architecture.md, "One build"); this
# checks it with `cargo tree`, in seconds and without building anything. When cargo-hakari is
# installed, it also checks that workspace-hack/Cargo.toml is what `cargo hakari generate`
# writes and that every crate depends on it.
set -euo pipefail
cd "$(dirname "$0")/../.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# features NAME ARGS...: every crate the package set builds, one line each: name, version and
# features (local paths left out, so that the lines compare across package sets).
features() {
  local name="$1"
  shift
  cargo tree --quiet "$@" --prefix none --format '{p} [{f}]' \
    | sed -E 's/ \(\*\)$//; s/ \(proc-macro\)//; s| \(/[^)]*\)||' \
    | grep -v '^$' | sort -u > "$work/$name"
}

features reference --workspace --edges normal,build,dev
sets=("workspace --workspace --edges normal,build"
  "syncdef-cli+syncdef-mock -p syncdef-cli -p syncdef-mock --edges normal,build")
for package in $(cargo metadata --format-version 1 --no-deps \
  | grep -o '"name":"[^"]*","version"' | cut -d'"' -f4); do
  sets+=("$package -p $package --edges normal,build"
    "$package+dev -p $package --edges normal,build,dev")
done

status=0
for set in "${sets[@]}"; do
  read -r name args <<<"$set"
  # shellcheck disable=SC2086 # the arguments are words
  features "$name" $args
  differ="$(comm -23 "$work/$name" "$work/reference" | cut -d' ' -f1 | sort -u | tr '\n' ' ')"
  if [ -n "$differ" ]; then
    echo "cargo tree $args resolves other features than the workspace's tests for: $differ" >&2
    status=1
  fi
done
echo "${#sets[@]} package sets checked against the workspace's tests"

if command -v cargo-hakari >/dev/null 2>&1; then
  cargo hakari generate --diff --quiet || status=1
  cargo hakari manage-deps --dry-run --quiet || status=1
  cargo hakari verify --quiet >/dev/null || status=1
fi

if [ "$status" -ne 0 ]; then
  cat >&2 <<'HINT'
A dependency was added or changed without updating workspace-hack/Cargo.toml: run
  cargo install cargo-hakari --locked   # once
  cargo hakari generate && cargo hakari manage-deps
and commit what they change (docs/architecture.md, "One build").
HINT
fi
exit "$status"
