#!/usr/bin/env bash
# How much of a QuickBooks company's request limit a pool of `syncdef sync` processes uses.
#
# The loopback QuickBooks (`syncdef-mock --limit`) enforces, per company (realm), at most LIMIT
# requests in any WINDOW seconds and CONCURRENCY at once, answering 429 over them; the
# definition's `x-syncdef.rateLimit` is scaled the same way (`windowSeconds`). Each company
# has its own PostgreSQL state (a database of one server this script starts) and PROCESSES
# `syncdef sync` processes on it, pushing RECORDS accounts (one create request each).
#
# For each scenario the table gives, over the whole windows from each company's first request,
# the requests admitted as a share of LIMIT per window (worst and median company), the 429
# answers, and the total requests a second. On stderr, to tell where a low share comes from:
# the worst company's requests in each whole window beside the machine's CPU time in it (busy,
# idle, stolen by other guests), sampled every half second from /proc/stat (with CPUS, from
# the cgroup).
#
# Usage: benches/pool-throughput.sh [COMPANIES:PROCESSES ...]  (default: 1:1 1:2 1:4 1:8 10:1)
# Env: LIMIT (500), WINDOW (6), CONCURRENCY (10), LATENCY_MS (20), RECORDS (3 windows' worth),
#      PUSHERS (each process's --pushers, 1),
#      PAGE_SIZE (the listing's --page-size, 40),
#      MAX_CONNECTIONS (the server's max_connections, 400; a process holds up to 4),
#      COUNT_CALLS (when set: how often the workers asked the request budget, on stderr),
#      CPUS (when set, e.g. 1.25: the whole run gets that many cores through a cgroup's CPU
#      quota, to see how the share follows the CPU the machine gives; needs root),
#      BIN (directory of syncdef and syncdef-mock; default: build them with cargo, PROFILE=release).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
limit=${LIMIT:-500} window=${WINDOW:-6} concurrency=${CONCURRENCY:-10} latency=${LATENCY_MS:-20}
records=${RECORDS:-$((limit * 3 + limit / 5))}
scenarios=("${@:-1:1 1:2 1:4 1:8 10:1}")
read -r -a scenarios <<<"${scenarios[*]}"

if [ -z "${BIN:-}" ]; then
    profile=${PROFILE:-release}
    cargo build --profile "$profile" -p syncdef-cli -p syncdef-mock >&2
    dir=$profile
    [ "$profile" = dev ] && dir=debug
    BIN=${CARGO_TARGET_DIR:-$root/target}/$dir
fi
for program in syncdef syncdef-mock; do
    [ -x "$BIN/$program" ] || { echo "no $BIN/$program: build it or set BIN" >&2; exit 1; }
done
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$pg_bin/initdb" ] || { echo "needs PostgreSQL's server programs (apt-get install postgresql)" >&2; exit 1; }

work=$(mktemp -d /tmp/syncdef-pool-bench.XXXXXX)
chmod 711 "$work" # the server user (nobody, as root) must reach its directory
pids=() groups=()
cleanup() {
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    [ -f "$work/pg/data/postmaster.pid" ] && as_pg "$pg_bin/pg_ctl" -D "$work/pg/data" -m immediate -w stop >/dev/null 2>&1
    # A group goes once its last process has (the sampler's sleep ends within half a second).
    for group in "${groups[@]}"; do
        echo $$ >"$(dirname "$group")/cgroup.procs" || continue
        for _ in $(seq 50); do rmdir "$group" 2>/dev/null && break; sleep 0.1; done
    done
    [ -n "${KEEP:-}" ] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT

# PostgreSQL refuses to run as root: as `nobody` then, as the tests' server does.
as_pg() {
    if [ "$(id -u)" = 0 ]; then (cd "$work/pg" && runuser -u nobody -- "$@"); else (cd "$work/pg" && "$@"); fi
}

# CPUS: this script and everything it starts move into a cgroup with that CPU quota (v2's
# cpu.max, or v1's cpu and cpuacct hierarchies); `usage_ns` reads what the group used.
if [ -n "${CPUS:-}" ]; then
    quota=$(python3 -c "import sys; print(max(1000, int(float(sys.argv[1]) * 100000)))" "$CPUS" 2>/dev/null) ||
        { echo "CPUS takes a number of cores (1.25), not '$CPUS'" >&2; exit 1; }
    if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
        # cgroup v2: child groups have cpu.max only where the parent hands them the controller.
        grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control ||
            echo +cpu >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null ||
            { echo "CPUS: cannot give child groups of /sys/fs/cgroup the cpu controller (run as root, outside a container)" >&2; exit 1; }
        groups=(/sys/fs/cgroup/syncdef-bench-$$)
        mkdir "${groups[0]}" && echo "$quota 100000" >"${groups[0]}/cpu.max"
        usage_ns() { awk '$1 == "usage_usec" { print $2 * 1000 }' "${groups[0]}/cpu.stat"; }
    elif [ -d /sys/fs/cgroup/cpu ] && [ -d /sys/fs/cgroup/cpuacct ]; then
        groups=(/sys/fs/cgroup/cpu/syncdef-bench-$$ /sys/fs/cgroup/cpuacct/syncdef-bench-$$)
        mkdir "${groups[@]}" && echo "$quota" >"${groups[0]}/cpu.cfs_quota_us"
        usage_ns() { cat "${groups[1]}/cpuacct.usage"; }
    else
        echo "CPUS needs a cgroup CPU controller under /sys/fs/cgroup" >&2; exit 1
    fi
    for group in "${groups[@]}"; do
        echo $$ >"$group/cgroup.procs" || { echo "CPUS: cannot move into $group (run as root)" >&2; exit 1; }
    done
fi

# The accounts, one file each (the platform fake's format), with distinct names.
mkdir -p "$work/records" "$work/pg"
python3 - "$root/catalog/records/account-acme-eur.json" "$work/records" "$records" <<'EOF'
import datetime, json, sys
template, out, n = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
start = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
for i in range(1, n + 1):
    at = (start + datetime.timedelta(seconds=i)).strftime("%Y-%m-%dT%H:%M:%SZ")
    record = dict(template, id=100000 + i, code=f"ACC-{i}", name=f"Bench Account {i:06d}", updatedAt=at)
    json.dump(record, open(f"{out}/account-{i}.json", "w"))
EOF

# The catalog definition with the limit scaled to WINDOW seconds.
sed "s|^  rateLimit: .*|  rateLimit: {key: [realmId], requestsPerMinute: $limit, windowSeconds: $window, concurrency: $concurrency}|" \
    catalog/quickbooks-online/definition.yaml >"$work/definition.yaml"
grep -q "windowSeconds: $window" "$work/definition.yaml" || { echo "could not scale the definition's rateLimit" >&2; exit 1; }

[ "$(id -u)" = 0 ] && chown nobody "$work/pg"
track_functions=none
[ -n "${COUNT_CALLS:-}" ] && track_functions=pl
as_pg "$pg_bin/initdb" -D "$work/pg/data" -U syncdef --auth=trust -E UTF8 --no-sync >/dev/null
as_pg "$pg_bin/pg_ctl" -D "$work/pg/data" -l "$work/pg/server.log" -w start \
    -o "-p 5499 -k $work/pg -c listen_addresses='' -c fsync=off -c max_connections=${MAX_CONNECTIONS:-400} -c track_functions=$track_functions" >/dev/null
db_url() { echo "postgres://syncdef@localhost/$1?host=$work/pg&port=5499"; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
platform_port=$(free_port) qbo_port=$(free_port)
"$BIN/syncdef-mock" --records "$work/records" --platform-port "$platform_port" --quickbooks-port "$qbo_port" \
    --limit "$limit/$window" --concurrency "$concurrency" --latency-ms "$latency" >"$work/mock.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$qbo_port/stats" >/dev/null && break; sleep 0.1; done

# The CPU time every half second (Unix ms, then /proc/stat's `cpu` line, or with CPUS the
# group's nanoseconds used and its cores), so that the report can say whether the cores were
# busy, idle or stolen in a short window.
if [ -n "${CPUS:-}" ]; then
    while :; do echo "$(date +%s%3N) group $(usage_ns) $CPUS"; sleep 0.5; done >"$work/cpu.log" &
else
    while :; do echo "$(date +%s%3N) $(head -1 /proc/stat)"; sleep 0.5; done >"$work/cpu.log" &
fi
pids+=($!)

export SYNCDEF_PLATFORM_CLIENT_KEY=bench SYNCDEF_PLATFORM_CLIENT_SECRET=bench
export SYNCDEF_PLATFORM_USERNAME=bench SYNCDEF_PLATFORM_PASSWORD=bench
export RUST_LOG=warn NO_COLOR=1

# Runs COMPANIES x PROCESSES workers; the company ids are prefixed with the scenario.
run_scenario() {
    local companies=$1 processes=$2 prefix="c${1}p${2}x" workers=() failed=0 started
    started=$(date +%s%3N)
    for c in $(seq "$companies"); do
        as_pg "$pg_bin/createdb" -h "$work/pg" -p 5499 -U syncdef "$prefix$c"
        for _ in $(seq "$processes"); do
            "$BIN/syncdef" sync "$work/definition.yaml" --platform "http://127.0.0.1:$platform_port" \
                --state "$(db_url "$prefix$c")" \
                --base-url "http://127.0.0.1:$qbo_port/v3/company/$prefix$c" --var "realmId=$prefix$c" \
                --entry Account --page-size ${PAGE_SIZE:-40} --pushers "${PUSHERS:-1}" --format json \
                >"$work/$prefix$c-$RANDOM.out" 2>>"$work/$prefix.err" &
            workers+=($!) pids+=($!)
        done
    done
    for pid in "${workers[@]}"; do wait "$pid" || failed=$((failed + 1)); done
    if [ "$failed" -gt 0 ]; then
        echo "$failed worker(s) failed; their errors:" >&2
        tail -20 "$work/$prefix.err" >&2
    fi
    if [ -n "${COUNT_CALLS:-}" ]; then
        # The budget's calls per company (the server runs with track_functions=pl).
        local calls=0
        for c in $(seq "$companies"); do
            n=$(as_pg "$pg_bin/psql" -h "$work/pg" -p 5499 -U syncdef -d "$prefix$c" -Atc \
                "SELECT coalesce(sum(calls), 0) FROM pg_stat_user_functions WHERE funcname = 'syncdef_take_slot'")
            calls=$((calls + n))
        done
        echo "$companies:$processes: syncdef_take_slot called $calls times" >&2
    fi
    curl -sf "http://127.0.0.1:$qbo_port/stats" |
        python3 "$root/benches/pool-throughput-report.py" "$prefix" "$companies" "$processes x ${PUSHERS:-1}" "$records" "$failed" \
            "$started" "$work/cpu.log"
}

echo "| companies | processes per company x pushers each | records per company | share of the limit (worst company) | share (median company) | 429 answers (of which over the window) | total requests/s | workers failed |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for scenario in "${scenarios[@]}"; do
    run_scenario "${scenario%%:*}" "${scenario##*:}"
done
