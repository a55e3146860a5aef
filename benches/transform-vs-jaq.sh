#!/usr/bin/env bash
# Whole-process comparison: `syncdef transform --input-lines` against jaq running the equivalent
# jq program, on the same JSON Lines file of platform accounts.
#
#   benches/transform-vs-jaq.sh [RECORDS]     # default 1000000
#
# Needs python3 (to generate the records) and hyperfine (apt-get install hyperfine); installs
# jaq with benches/install-peers.sh when it is missing. The outputs of both tools are compared
# before timing: the benchmark refuses to run if they differ.
set -euo pipefail
cd "$(dirname "$0")/.."
records="${1:-1000000}"
data="benches/data/accounts-$records.jsonl"
template="transform-lang/benches/data/account-create.json"
program="transform-lang/benches/data/account-create.jq"
jaq="benches/.peers/jaq/bin/jaq"

mkdir -p benches/data
[ -s "$data" ] || python3 benches/gen-accounts.py "$records" > "$data"
[ -x "$jaq" ] || benches/install-peers.sh jaq
cargo build --release --quiet -p syncdef-cli
syncdef="${CARGO_TARGET_DIR:-target}/release/syncdef"

echo "== checking that both tools give the same output on $data"
"$syncdef" transform --template "$template" --input-lines "$data" > benches/data/out-syncdef.jsonl
"$jaq" -c -f "$program" "$data" > benches/data/out-jaq.jsonl
# jq and JUST print numbers alike here; the comparison is on parsed values to ignore spacing.
python3 - <<'PY'
import json, itertools, sys
with open("benches/data/out-syncdef.jsonl") as a, open("benches/data/out-jaq.jsonl") as b:
    for n, (x, y) in enumerate(itertools.zip_longest(a, b), 1):
        if x is None or y is None or json.loads(x) != json.loads(y):
            sys.exit(f"outputs differ at line {n}:\n syncdef: {x}\n jaq:     {y}")
print("outputs are identical")
PY

echo "== timing ($records records)"
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-markdown benches/data/transform-vs-jaq.md \
  -n "syncdef transform (all cores)" "$syncdef transform --template $template --input-lines $data" \
  -n "syncdef transform --jobs 1" "$syncdef transform --jobs 1 --template $template --input-lines $data" \
  -n "jaq $("$jaq" --version | awk '{print $2}')" "$jaq -c -f $program $data"
