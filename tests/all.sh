#!/usr/bin/env bash
# The whole test suite, as the README gives it: `cargo test --workspace --locked`, with the
# PostgreSQL server programs the state tests start their own server with (Debian's
# `postgresql`, installed with apt-get when initdb and pg_ctl are missing; the tests fail with
# that hint without them). Extra arguments go to cargo test.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== PostgreSQL server programs for the state tests (they start their own server)"
# The tests look on PATH, then in Debian's /usr/lib/postgresql/<n>/bin; install Debian's
# server when neither has initdb and pg_ctl, and put its programs on PATH.
pg_bin() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
    return
  fi
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}
if [ -z "$(pg_bin)" ] || [ ! -x "$(pg_bin)/pg_ctl" ]; then
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; }; then
    echo "cannot install PostgreSQL (apt-get install postgresql failed): the state tests need initdb and pg_ctl" >&2
    exit 1
  fi
fi
PG_BIN="$(pg_bin)"
if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ] || [ ! -x "$PG_BIN/pg_ctl" ]; then
  echo "PostgreSQL's initdb and pg_ctl are still missing after installing postgresql" >&2
  exit 1
fi
export PATH="$PG_BIN:$PATH"
# As root the tests run the server as `nobody` (PostgreSQL refuses root) through runuser.
if [ "$(id -u)" = 0 ] && ! command -v runuser >/dev/null 2>&1; then
  echo "running as root, the PostgreSQL tests need runuser (util-linux) to start the server as nobody" >&2
  exit 1
fi
echo "PostgreSQL programs: $PG_BIN"


cargo test --workspace --locked "$@"
