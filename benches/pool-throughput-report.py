#!/usr/bin/env python3
"""One row of benches/pool-throughput.sh's table, from the loopback QuickBooks' GET /stats.

Reads the stats on stdin; argv: the scenario's company-id prefix, companies, processes per
company (with its pushers), records per company, workers that failed, and optionally when the
scenario started (Unix milliseconds) and a file of CPU samples: lines of Unix milliseconds
followed by /proc/stat's `cpu` line, or by `group`, the nanoseconds a cgroup used and the cores
its quota allows. A company's share is the requests admitted
in the whole windows from its first request, over the limit times those windows: what the pool
used of what the vendor allows. The last, partial window (the run's tail) is left out.

On stderr, to tell where a low share comes from: the worst company's requests in each whole
window and, with the samples, how the machine's CPU time went in that window (busy, idle,
stolen by other guests of the host). A window short of the limit while the cores were idle is
the pool's doing; short while they were busy or stolen, the machine's.
"""
import json
import statistics
import sys


def share(arrivals, limit, window):
    """Requests in the whole windows from the first arrival, over what they allow."""
    if not arrivals:
        return 0.0
    first = arrivals[0]
    windows = (arrivals[-1] - first) // window
    if windows < 1:
        return float("nan")  # too short a run to say
    used = sum(1 for t in arrivals if t < first + windows * window)
    return used / (windows * limit)


def per_window(arrivals, window):
    """Requests in each whole window from the first arrival (where a low share comes from)."""
    if not arrivals:
        return []
    first = arrivals[0]
    windows = (arrivals[-1] - first) // window
    return [sum(1 for t in arrivals if first + w * window <= t < first + (w + 1) * window)
            for w in range(windows)]


def cpu_samples(path):
    """(Unix ms, [busy, idle, stolen] CPU time so far) per sample. For a cgroup, idle is what
    its quota allowed and it did not use, and nothing is stolen."""
    samples = []
    with open(path) as lines:
        for line in lines:
            fields = line.split()
            if len(fields) == 4 and fields[1] == "group":
                ms, used_ms = int(fields[0]), int(fields[2]) / 1e6
                allowed_ms = ms * float(fields[3])
                samples.append((ms, [used_ms, allowed_ms - used_ms, 0]))
            elif len(fields) >= 10 and fields[1] == "cpu":
                user, nice, system, idle, iowait, irq, softirq, steal = map(int, fields[2:10])
                samples.append((int(fields[0]), [user + nice + system + irq + softirq, idle + iowait, steal]))
    return samples


def cpu_between(samples, start_ms, end_ms):
    """The CPU time's shares (busy, idle, stolen) between the samples nearest two instants."""
    if len(samples) < 2:
        return None
    nearest = lambda t: min(samples, key=lambda s: abs(s[0] - t))[1]
    first, last = nearest(start_ms), nearest(end_ms)
    spent = [b - a for a, b in zip(first, last)]
    total = sum(spent)
    # A quota's accounting runs a little ahead of the clock at full use: no share below 0.
    return [max(part, 0) / total for part in spent] if total else None


def explain_worst(arrivals, limit, window, started_unix_ms, scenario_unix_ms, samples):
    """The worst company's windows, each with the machine's CPU over it, on stderr."""
    first = arrivals[0]
    windows = per_window(arrivals, window)
    if scenario_unix_ms is not None:
        late = (started_unix_ms + first - scenario_unix_ms) / 1000
        print(f"worst company: first request {late:.1f} s after the scenario started", file=sys.stderr)
    print(f"worst company, requests per whole window: {windows}", file=sys.stderr)
    for w, requests in enumerate(windows):
        begin = started_unix_ms + first + w * window
        shares = cpu_between(samples, begin, begin + window) if samples else None
        if shares:
            busy, idle, steal = shares
            print(f"  window {w + 1}: {requests} of {limit}; CPU busy {busy:.0%}, idle {idle:.0%}, "
                  f"stolen {steal:.0%}", file=sys.stderr)


def main():
    prefix, companies, processes, records, failed = sys.argv[1:6]
    scenario_unix_ms = int(sys.argv[6]) if len(sys.argv) > 6 else None
    samples = cpu_samples(sys.argv[7]) if len(sys.argv) > 7 else []
    stats = json.load(sys.stdin)
    limit, window = stats["limits"]["requests"], stats["limits"]["windowMs"]
    mine = {k: v for k, v in stats["companies"].items() if k.startswith(prefix)}
    if len(mine) != int(companies):
        sys.exit(f"{len(mine)} companies of {companies} received requests")
    arrivals = [sorted(c["arrivalsMs"]) for c in mine.values()]
    shares = [share(a, limit, window) for a in arrivals]
    worst = arrivals[shares.index(min(shares))]
    explain_worst(worst, limit, window, stats.get("startedAtUnixMs", 0), scenario_unix_ms, samples)
    short = sum(1 for a in arrivals if len(a) < int(records))
    if short:
        print(f"{short} companies admitted fewer requests than records", file=sys.stderr)
    throttled = sum(c["throttled"] for c in mine.values())
    over_window = sum(c["overWindow"] for c in mine.values())
    everything = sorted(t for c in mine.values() for t in c["arrivalsMs"])
    requests = len(everything)
    seconds = max((everything[-1] - everything[0]) / 1000, 0.001)
    print(f"| {companies} | {processes} | {records} | {min(shares):.1%} | "
          f"{statistics.median(shares):.1%} | {throttled} ({over_window}) | {requests / seconds:.0f} | {failed} |")


if __name__ == "__main__":
    main()
