// What replay.mjs and validate.mjs read from the catalog snapshots
// (tests/it/snapshots/it__catalog__*.snap, written by tests/it/catalog.rs from
// `syncdef push --dry-run`): the pushes of one definition, each request's headers, path and
// body as syncdef sends them.
import { readFileSync } from 'node:fs';

export const FORM = 'application/x-www-form-urlencoded';

// An insta snapshot is a metadata header between `---` lines, then the JSON value.
function readSnapshot(file) {
  const text = readFileSync(file, 'utf8');
  return JSON.parse(text.split(/^---$/m).slice(2).join('---'));
}

/**
 * The pushes `files` render of `definition`, as `{file, snap}`; exits 1 when there is none,
 * since nothing would then be checked.
 */
export function pushesOf(definition, files) {
  const pushes = files.map((file) => ({ file, snap: readSnapshot(file) }))
    .filter(({ snap }) => snap.definition === definition);
  if (pushes.length === 0) {
    console.error(`${definition}: no snapshot renders a push of it; run cargo test -p syncdef-cli --test it catalog::`);
    process.exit(1);
  }
  return pushes;
}

/** A request's headers as `[name, value]` pairs (snapshots hold an object or pairs). */
export function headerPairs(request) {
  return Array.isArray(request.headers) ? request.headers : Object.entries(request.headers ?? {});
}

/** The media type of a Content-Type value, without parameters, in lower case. */
export function mediaType(contentType) {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * A form body written from the snapshot's JSON value the way syncdef writes it
 * (definitions/src/openapi/form_fields.rs): Stripe's bracket convention, `metadata[key]=v`,
 * `items[0][price]=p`, null members left out.
 */
export function writeForm(qs, body) {
  return qs.stringify(body, { arrayFormat: 'indices', skipNulls: true });
}

/** The request's path under the snapshot's server, or `null` when it is not under it. */
export function pathUnder(snap, request) {
  return request.url.startsWith(snap.server) ? request.url.slice(snap.server.length) : null;
}

/** How a request is named in the output. */
export function describe(snap, request, path) {
  return `${snap.entry} ${snap.operation} ${snap.record}: ${request.step} ${request.method} ${path}`;
}
