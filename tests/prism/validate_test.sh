#!/usr/bin/env bash
# Checks that the validators of Stripe's requests refuse wrong ones: it takes the committed
# Stripe snapshot of a product's creation (POST /v1/products), writes copies of it each spoiled
# in one way, and expects validate.mjs (openapi-backend on Stripe's own description) to fail on
# each, naming the fault, and the unspoiled copy to pass. With PRISM_PORT set, it also replays
# each copy (replay.mjs) against the Prism listening there (serve.mjs on Stripe's description)
# and expects the same, in Prism's words. Prism reads a form member by member of the schema,
# and a `deepObject` member (metadata) from its bracketed keys only, so it sees neither an
# unknown member nor `metadata=7`: those two copies are left to openapi-backend.
#
#     tests/prism/validate_test.sh      (run.sh runs it before it validates Stripe's requests)
#
# Needs the Node.js and the packages run.sh installs (SYNCDEF_PRISM_DIR, else
# tests/prism/.prism); run tests/prism/run.sh once first.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
prefix="${SYNCDEF_PRISM_DIR:-$here/.prism}"
if [[ -x "$prefix/node/node_modules/.bin/node" ]]; then
  PATH="$prefix/node/node_modules/.bin:$PATH"
fi
if [[ ! -f "$prefix/node_modules/openapi-backend/package.json" ]]; then
  echo "tests/prism/validate_test.sh: openapi-backend is not installed in $prefix; run tests/prism/run.sh first" >&2
  exit 2
fi
definition=catalog/stripe/definition.yaml
description=catalog/stripe/vendor/stripe.com.json
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$repo"

shopt -s nullglob
snapshots=(tests/it/snapshots/it__catalog__stripe_yaml__*.snap)
original=""
for file in "${snapshots[@]}"; do
  if grep -q '"url": "https://api.stripe.com/v1/products"' "$file" && grep -q '"method": "POST"' "$file"; then
    original="$file"
    break
  fi
done
if [[ -z "$original" ]]; then
  echo "tests/prism/validate_test.sh: no Stripe snapshot creates a product (POST /v1/products) to spoil" >&2
  exit 1
fi

# Writes $work/$1.snap: the original with the JavaScript $2 applied to its request `r`.
spoil() {
  node -e '
    const fs = require("fs");
    const [original, out, code] = process.argv.slice(1);
    const text = fs.readFileSync(original, "utf8");
    const parts = text.split(/^---$/m);
    const snap = JSON.parse(parts.slice(2).join("---"));
    const r = snap.requests.find((q) => q.method === "POST" && q.url.endsWith("/v1/products"));
    new Function("r", code)(r);
    fs.writeFileSync(out, `${parts[0]}---${parts[1]}---\n${JSON.stringify(snap, null, 2)}\n`);
  ' "$original" "$work/$1.snap" "$2"
}

failures=0
# Whether the command after $1 $2 $3 exits $2 and, when failing, says $3 (check name $1).
check() {
  local name="$1" want="$2" says="$3" status=0
  shift 3
  "$@" >"$work/$name.out" 2>&1 || status=$?
  if [[ $status -ne $want ]] || ! grep -qF -- "$says" "$work/$name.out"; then
    echo "FAIL $name: exit $status; expected exit $want${says:+ saying: $says}" >&2
    cat "$work/$name.out" >&2
    failures=$((failures + 1))
  else
    echo "ok   $name: ${says:-accepted}"
  fi
}

# Checks $work/$1.snap: validate.mjs must exit $2 saying $3; with PRISM_PORT, Prism must
# refuse it as well saying $4 (`-`: Prism does not see this fault).
expect() {
  local name="$1" want="$2" says="${3:-}" prism_says="${4:-}"
  check "$name" "$want" "$says" \
    node "$here/validate.mjs" "$prefix" "$definition" "$description" "$work/$name.snap"
  if [[ -n "${PRISM_PORT:-}" && "$prism_says" != - ]]; then
    check "$name (Prism)" "$want" "$prism_says" \
      node "$here/replay.mjs" "$prefix" "$definition" "$PRISM_PORT" "$work/$name.snap"
  fi
}

spoil unspoiled ''
expect unspoiled 0
spoil name-missing 'delete r.body.name'
expect name-missing 1 "must have required property 'name'" \
  "Request body must have required property 'name'"
spoil active-not-boolean 'r.body.active = "maybe"'
expect active-not-boolean 1 "/requestBody/active: must be boolean" \
  "Request body property active must be boolean"
spoil name-not-string 'r.body.name = { first: "Cloud" }'
expect name-not-string 1 "/requestBody/name: must be string" \
  "Request body must have required property 'name'"
spoil metadata-not-object 'r.body.metadata = 7'
expect metadata-not-object 1 "/requestBody/metadata" -
spoil price-without-currency 'delete r.body.default_price_data.currency'
expect price-without-currency 1 "must have required property 'currency'" \
  "default_price_data must have required property 'currency'"
spoil unknown-field 'r.body.colour = "blue"'
expect unknown-field 1 "must NOT have additional properties (colour)" -
spoil unknown-path 'r.url = r.url.replace("/v1/products", "/v1/product")'
expect unknown-path 1 "no operation of $description is POST /v1/product" "-> 404"
spoil no-authorization 'delete r.headers.authorization'
expect no-authorization 1 "no security requirement of PostProducts is met" "-> 401"
spoil json-body 'r.headers["content-type"] = "application/json"'
expect json-body 1 "body sent as application/json; PostProducts declares application/x-www-form-urlencoded" \
  "Supported content types: application/x-www-form-urlencoded"

if ((failures > 0)); then
  exit 1
fi
echo "each spoiled Stripe request is refused${PRISM_PORT:+ by openapi-backend and Prism}, and the unspoiled one accepted"
