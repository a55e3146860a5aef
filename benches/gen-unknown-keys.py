#!/usr/bin/env python3
"""An OpenAPI document whose root holds N unknown keys, a lint finding each: on one line (a
minified document) or, with --lines, a key a line. Positions of findings on one long line must
cost what they cost over many lines (docs/benchmarks.md, "Scaling").

    benches/gen-unknown-keys.py 80000 > one.json
    benches/gen-unknown-keys.py 80000 --lines > multi.json
"""
import sys


def main() -> None:
    args = sys.argv[1:]
    if not args or not args[0].isdigit():
        sys.exit("usage: gen-unknown-keys.py N [--lines]")
    count = int(args[0])
    sep = "\n" if "--lines" in args[1:] else ""
    head = '{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{}'
    keys = "".join(f',{sep}"k{i}":1' for i in range(count))
    sys.stdout.write(head + keys + "}\n")


main()
