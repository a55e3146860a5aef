#!/usr/bin/env python3
"""Writes the large definitions of docs/benchmarks.md ("Large documents") into a directory.

    python3 benches/gen-large-docs.py /tmp/large
    /usr/bin/time -v target/release/syncdef lint /tmp/large/ref-chain-4000.yaml

ref-chain-4000.yaml: a request body schema reached through a chain of 4,000 `$ref`s.
wide-object-40000.yaml: a request body schema with 40,000 properties.
paths-200000.json: 200,000 paths, each with one operation and one response (13.5 MB).
Each carries a small synchronization section, so that every rule runs.
"""
import json
import os
import sys

HEAD = [
    "openapi: 3.0.3",
    "info: {title: large, version: '1'}",
    "paths:",
    "  /a:",
    "    post:",
    "      requestBody:",
    "        content:",
    "          application/json:",
    "            schema: {$ref: '#/components/schemas/S0'}",
    "      responses: {'200': {description: ok}}",
    "components:",
    "  schemas:",
]
SYNC = [
    "synchronization:",
    "  A:",
    "    module: Accounts",
    "    push:",
    "      create: /a/post",
    "      schemasTransformer:",
    "        createRequest: {p1: '#valueof($.account.name)'}",
    "        createResponse: {id: '#valueof($.id)', success: true, errors: []}",
]


def write(path, schemas):
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(HEAD + schemas + SYNC) + "\n")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    n = 4000
    chain = [f"    S{i}: {{$ref: '#/components/schemas/S{i + 1}'}}" for i in range(n - 1)]
    chain.append(f"    S{n - 1}: {{type: object}}")
    write(os.path.join(out, "ref-chain-4000.yaml"), chain)
    wide = ["    S0:", "      type: object", "      properties:"]
    wide += [f"        p{i}: {{type: string, maxLength: 10}}" for i in range(40000)]
    write(os.path.join(out, "wide-object-40000.yaml"), wide)
    write_many_paths(os.path.join(out, "paths-200000.json"), 200000)


def write_many_paths(path, n):
    paths = {
        f"/resources/r{i}": {"get": {"responses": {"200": {"description": "ok"}}}}
        for i in range(n)
    }
    paths["/a"] = {"post": {
        "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
        "responses": {"200": {"description": "ok"}},
    }}
    doc = {
        "openapi": "3.0.3",
        "info": {"title": "many paths", "version": "1"},
        "paths": paths,
        "synchronization": {"A": {
            "module": "Accounts",
            "push": {
                "create": "/a/post",
                "schemasTransformer": {
                    "createRequest": {"p1": "#valueof($.account.name)"},
                    "createResponse": {"id": "#valueof($.id)", "success": True, "errors": []},
                },
            },
        }},
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
