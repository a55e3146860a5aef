#!/usr/bin/env python3
"""Makes GitHub's REST description reference every one of its operations, for timing the
resolution of operation references (`path_match::PathIndex`) on a 13 MB document.

One entry per (path, method), its `push.create` naming that operation with the path parameters
filled alternately by `{IntegrationId}` and a literal, so every reference goes through the
parameter match, not only the literal comparison.

    python3 benches/github-every-operation.py benches/data/api.github.com.json > benches/data/github-every-operation.json
"""
import json
import re
import sys

doc = json.load(open(sys.argv[1]))
doc.pop("synchronization", None)
entries = {}
for path, item in doc["paths"].items():
    for method in ["get", "put", "post", "delete", "patch"]:
        if method not in item:
            continue
        n = 0

        def fill(_):
            global n
            n += 1
            return "{IntegrationId}" if n % 2 else f"lit{n}"

        reference = re.sub(r"\{[^}]*\}", fill, path) + "/" + method
        entries[f"E{len(entries)}"] = {"module": "Accounts", "push": {"create": reference}}
doc["x-synchronization"] = entries
json.dump(doc, sys.stdout)
print(f"{len(entries)} references", file=sys.stderr)
