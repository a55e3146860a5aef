#!/usr/bin/env bash
# The push engine beside the bare reqwest loop, each side in a process of its own: the
# `push` bench run with `ONLY=engine` and `ONLY=bare`, one after the other in alternate order
# (engine first, then bare first, ...), and the median of the engine-to-bare ratios of the
# pairs. Complements `cargo bench -p syncdef-engine --bench push`, whose two sides share one
# process (its runtime, allocator and server).
#
# Usage: benches/push-processes.sh [PAIRS (default 15)] [PUSHES per run (default 60000)]
# Env: CONCURRENCY="1 8 64", LATENCY_MS (the server's answer time, default 0).
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-15}
pushes=${2:-60000}
bench=$(cargo bench -p syncdef-engine --bench push --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1)
[ -x "$bench" ] || { echo "could not build the push bench" >&2; exit 1; }

# Wall seconds of one run of side $1 at concurrency $2.
run() {
    local start end
    start=$(date +%s.%N)
    ONLY=$1 CONCURRENCY=$2 PUSHES=$pushes "$bench" --bench >/dev/null
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN {printf "%.6f\n", b - a}'
}

median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

echo "| concurrency | pairs | engine wall (median) | bare wall (median) | engine overhead (median of pairs) | pairs over +10 % |"
echo "|---:|---:|---:|---:|---:|---:|"
for c in ${CONCURRENCY:-1 8 64}; do
    run engine "$c" >/dev/null # warm-up: page cache, CPU frequency
    e=() b=() r=()
    for i in $(seq 1 "$pairs"); do
        if ((i % 2)); then
            te=$(run engine "$c")
            tb=$(run bare "$c")
        else
            tb=$(run bare "$c")
            te=$(run engine "$c")
        fi
        e+=("$te") b+=("$tb") r+=("$(awk -v e="$te" -v b="$tb" 'BEGIN {printf "%.6f\n", e / b}')")
    done
    me=$(printf '%s\n' "${e[@]}" | median)
    mb=$(printf '%s\n' "${b[@]}" | median)
    mr=$(printf '%s\n' "${r[@]}" | median)
    over=$(printf '%s\n' "${r[@]}" | awk '$1 > 1.10' | wc -l)
    printf '| %s | %s | %.3f s | %.3f s | %+.1f %% | %s |\n' "$c" "$pairs" "$me" "$mb" \
        "$(awk -v r="$mr" 'BEGIN {print (r - 1) * 100}')" "$over"
done
