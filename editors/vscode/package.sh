#!/usr/bin/env bash
# Builds the VS Code extension's .vsix (editors/vscode/syncdef-<version>.vsix): installs the
# locked dependencies from the npm registry (npm ci), runs the extension's tests, then packages
# with the locked @vscode/vsce. Stops at once, with the reason, when Node.js or npm is missing.
set -euo pipefail
cd "$(dirname "$0")"

for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "editors/vscode/package.sh: $tool is not installed; install Node.js 20 or later with npm (apt-get install nodejs npm)" >&2
    exit 1
  fi
done
major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 20 ]; then
  echo "editors/vscode/package.sh: Node.js $(node --version) is too old; @vscode/vsce needs Node.js 20 or later" >&2
  exit 1
fi

npm ci --no-audit --no-fund --loglevel=error
npm test --silent
version="$(node -p 'require("./package.json").version')"
npx --no-install vsce package --out "syncdef-$version.vsix"
echo "editors/vscode/package.sh: built $(pwd)/syncdef-$version.vsix"
