#!/usr/bin/env bash
# The whole lint and push agreement corpus (engine/tests/it/agreement.rs): every mutant of the
# three catalog definitions, not the sample the test suite takes, with the counts per class
# that docs/benchmarks.md ("Lint and push agreement") records. Fails as the test does: a
# lint-clean mutant the engine refuses or fails, or whose request its operation's schema refuses,
# a failed answer reported as a success, or a mutant lint refuses that the engine loads anyway.
#
#   benches/agreement-corpus.sh              # all of them, ten to twenty minutes on 2 cores
#   STRIDE=3 benches/agreement-corpus.sh     # every third mutant
set -euo pipefail
cd "$(dirname "$0")/.."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
AGREEMENT_STRIDE="${STRIDE:-1}" AGREEMENT_OFFSET=0 \
  cargo test --locked -q -p syncdef-engine --test it agreement:: -- --nocapture --test-threads 1 \
  >"$log" 2>&1 || status=$?
# The per-class lines of each system ("system | class | mutants | lint errors | refusals |
# agreements"), added up over the systems.
grep -E '^[a-z-]+ \| ' "$log" | python3 -c '
import sys, collections
total = collections.OrderedDict()
for line in sys.stdin:
    _, cls, *nums = [p.strip() for p in line.split("|")]
    row = total.setdefault(cls, [0, 0, 0, 0])
    for i, n in enumerate(nums[:4]):
        row[i] += int(n)
print("| class | mutants | lint errors | engine refusals | agreements | lint error, engine carries it out |")
print("|---|---:|---:|---:|---:|---:|")
sums = [0, 0, 0, 0]
for cls, (m, e, r, a) in sorted(total.items()):
    print(f"| {cls} | {m:,} | {e:,} | {r:,} | {a:,} | {m - a:,} |")
    sums = [s + v for s, v in zip(sums, (m, e, r, a))]
m, e, r, a = sums
print(f"| all | {m:,} | {e:,} | {r:,} | {a:,} | {m - a:,} |")
'
if [ "$status" -ne 0 ]; then
  cat "$log" >&2
  echo "the agreement corpus found disagreements (above)" >&2
fi
exit "$status"
