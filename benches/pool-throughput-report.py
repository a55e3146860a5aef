#!/usr/bin/env python3
"""One row of benches/pool-throughput.sh's table, from the loopback QuickBooks' GET /stats.

Reads the stats on stdin; argv: the scenario's company-id prefix, companies, processes per
company (with its pushers), records per company, workers that failed. A company's share is the requests admitted
in the whole windows from its first request, over the limit times those windows: what the pool
used of what the vendor allows. The last, partial window (the run's tail) is left out.
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


def main():
    prefix, companies, processes, records, failed = sys.argv[1:6]
    stats = json.load(sys.stdin)
    limit, window = stats["limits"]["requests"], stats["limits"]["windowMs"]
    mine = {k: v for k, v in stats["companies"].items() if k.startswith(prefix)}
    if len(mine) != int(companies):
        sys.exit(f"{len(mine)} companies of {companies} received requests")
    arrivals = [sorted(c["arrivalsMs"]) for c in mine.values()]
    shares = [share(a, limit, window) for a in arrivals]
    worst = arrivals[shares.index(min(shares))]
    print(f"worst company, requests per whole window: {per_window(worst, window)}", file=sys.stderr)
    throttled = sum(c["throttled"] for c in mine.values())
    over_window = sum(c["overWindow"] for c in mine.values())
    everything = sorted(t for c in mine.values() for t in c["arrivalsMs"])
    requests = len(everything)
    seconds = max((everything[-1] - everything[0]) / 1000, 0.001)
    print(f"| {companies} | {processes} | {records} | {min(shares):.1%} | "
          f"{statistics.median(shares):.1%} | {throttled} ({over_window}) | {requests / seconds:.0f} | {failed} |")


if __name__ == "__main__":
    main()
