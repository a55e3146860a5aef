#!/usr/bin/env python3
"""What each command of benches/one-build.sh would compile, without building: Cargo's unit
graph of each command (`cargo build --unit-graph`), a unit being new when no command before it
had the same one (package, target, profile settings, mode, features, platform and, recursively,
dependencies: what decides Cargo's file names). It gives the counts benches/one-build.sh prints,
for any commit, in seconds (docs/benchmarks.md, "One build").

    benches/one-build-units.py            # the commands of benches/one-build.sh
    benches/one-build-units.py 'build -p syncdef-mock' 'test --workspace --no-run'

The unit graph is unstable Cargo output: RUSTC_BOOTSTRAP=1 lets a stable cargo print it. It is
read, never used to build.
"""
import hashlib
import json
import os
import subprocess
import sys

COMMANDS = [
    "build --release -p syncdef-cli",
    "build --release -p syncdef-cli -p syncdef-mock",
    "build --release -p syncdef-mock",
    "build --release -p syncdef-engine --example push_one",
    "build --release -p syncdef-worker --example first_sync",
    "test --workspace --no-run",
    "build -p syncdef-cli",
    "build -p syncdef-engine --example push_one",
    "build -p syncdef-mock",
    "test -p syncdef-cli -p syncdef-transform -p syncdef-lsp --bench scaling --no-run",
]


def unit_graph(command):
    env = dict(os.environ, RUSTC_BOOTSTRAP="1")
    args = ["cargo"] + command.split() + ["--locked", "--unit-graph", "-Z", "unstable-options"]
    return json.loads(subprocess.run(args, capture_output=True, text=True, env=env, check=True).stdout)


def units_by_key(graph):
    units, keys = graph["units"], {}

    def key(index):
        if index not in keys:
            unit = units[index]
            # The profile's name is left out: `test` and `dev`, `bench` and `release` share
            # their dependencies' builds when their settings agree.
            profile = {k: v for k, v in unit["profile"].items() if k != "name"}
            identity = [unit["pkg_id"], unit["target"]["kind"], unit["target"]["name"], profile,
                        unit["mode"], unit["features"], unit.get("platform"),
                        sorted(key(dep["index"]) for dep in unit["dependencies"])]
            keys[index] = hashlib.sha256(json.dumps(identity).encode()).hexdigest()
        return keys[index]

    return {key(index): unit for index, unit in enumerate(units)}


def label(unit):
    source, _, rest = unit["pkg_id"].rpartition("#")
    name = rest.split("@")[0] if "@" in rest else source.rstrip("/").rsplit("/", 1)[-1]
    kind = unit["target"]["kind"][0]
    if unit["mode"] == "test":
        return f"{name}({unit['target']['name']} test)"
    if kind in ("bin", "example"):
        return f"{name}({kind} {unit['target']['name']})"
    return name


def target(unit):
    """The same crate target in the same profile: built again when its unit differs."""
    profile = {k: v for k, v in unit["profile"].items() if k != "name"}
    return json.dumps([unit["pkg_id"], unit["target"]["kind"], unit["target"]["name"],
                       unit["mode"], profile])


def main():
    built, targets = set(), set()
    for command in sys.argv[1:] or COMMANDS:
        units = units_by_key(unit_graph(command))
        new = [u for k, u in units.items() if k not in built and u["mode"] != "run-custom-build"]
        again = sorted({label(u) for u in new if target(u) in targets})
        first = sorted({label(u) for u in new if target(u) not in targets})
        print(f"cargo {command}\n  {len(again)} compiled again: {' '.join(again)}"
              f"\n  {len(first)} compiled for the first time: {' '.join(first)}")
        built.update(units)
        targets.update(target(u) for u in units.values())


if __name__ == "__main__":
    main()
