// Replays the requests of the catalog snapshots (tests/it/snapshots/it__catalog__*.snap, written by
// tests/it/catalog.rs from `syncdef push --dry-run`) that belong to one definition against a
// Prism mock server of that definition, and fails on any request-validation violation Prism
// reports.
//
// Usage: node replay.mjs MODULES DEFINITION PORT SNAPSHOT...
//   MODULES  the directory whose node_modules holds qs (run.sh installs it into
//            tests/prism/.prism)
// Prints one line per request; exits 1 when a request is refused or violates the definition,
// or when no snapshot belongs to DEFINITION (nothing would have been checked).
//
// A form body (application/x-www-form-urlencoded) is written from the snapshot's JSON value the
// way syncdef writes it, as validate.mjs does (snapshots.mjs).
//
// Prism reads such a form member by member of the schema, and a member whose encoding is
// `deepObject` becomes an object even when the form leaves it out (an empty one, or one
// holding empty objects for the members declared inside it): Prism then reports the required
// members of objects the request never sent. A violation located under a body member the
// request does not send is therefore set aside, and counted in the output; one located at a
// member the request sends, or at the body, is kept.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import {
  FORM, describe, headerPairs, mediaType, pathUnder, pushesOf, writeForm,
} from './snapshots.mjs';

const [modules, definition, port, ...snapshots] = process.argv.slice(2);
if (!modules || !definition || !port || snapshots.length === 0) {
  console.error('usage: node replay.mjs MODULES DEFINITION PORT SNAPSHOT...');
  process.exit(2);
}
const qs = createRequire(join(resolve(modules), 'package.json'))('qs');
const mock = `http://127.0.0.1:${port}`;

/** The body as sent: a form in the bracket convention, else JSON. */
function wire(body, contentType) {
  return mediaType(contentType) === FORM ? writeForm(qs, body) : JSON.stringify(body);
}

/**
 * A header as sent. The snapshots mask secrets (`Basic ***`); Prism checks that a basic
 * credential is base64 of `user:password`, so a masked one is sent as a stand-in of that shape.
 */
function header(name, value) {
  if (name.toLowerCase() === 'authorization' && /^basic \*\*\*$/i.test(value)) {
    return `Basic ${Buffer.from('replay-user:').toString('base64')}`;
  }
  return value;
}

/** Whether a violation's location (`request.body.a.b`) names a member `body` has. */
function sent(location, body) {
  if (location[0] !== 'request' || location[1] !== 'body') return true;
  let value = body;
  for (const token of location.slice(2)) {
    if (value === null || typeof value !== 'object' || !(token in value)) return false;
    value = value[token];
  }
  return true;
}

async function waitForPrism(deadlineMs) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      await fetch(mock, { method: 'OPTIONS' });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`Prism did not listen on ${mock} within ${deadlineMs / 1000} s`);
}

const pushes = pushesOf(definition, snapshots);
await waitForPrism(60_000);

let requests = 0;
const failures = [];
for (const { file, snap } of pushes) {
  for (const request of snap.requests) {
    const path = pathUnder(snap, request);
    if (path === null) {
      failures.push(`${file}: ${request.url} is not under the server ${snap.server}`);
      continue;
    }
    const headers = {};
    for (const [name, value] of headerPairs(request)) {
      if (!['host', 'content-length'].includes(name.toLowerCase())) headers[name] = header(name, value);
    }
    const init = { method: request.method, headers };
    const contentType = Object.entries(headers)
      .find(([name]) => name.toLowerCase() === 'content-type')?.[1];
    if (request.body !== null && request.body !== undefined) init.body = wire(request.body, contentType);
    const response = await fetch(mock + path, init);
    await response.arrayBuffer();
    requests += 1;
    const reported = JSON.parse(response.headers.get('sl-violations') ?? '[]')
      .filter((v) => v.location?.[0] === 'request');
    const violations = reported.filter((v) => sent(v.location, request.body));
    const setAside = reported.length - violations.length;
    const what = describe(snap, request, path);
    const aside = setAside > 0 ? ` (${setAside} violations under members not sent set aside)` : '';
    // A 422 that only the set-aside violations caused is Prism's answer to those.
    const refused = response.status >= 300 && !(response.status === 422 && setAside > 0);
    if (violations.length > 0 || refused) {
      const detail = violations.map((v) => `    ${v.location.join('.')}: ${v.message}`).join('\n');
      failures.push(`${what} -> ${response.status}\n${detail}`);
      console.log(`FAIL ${what} -> ${response.status}`);
    } else {
      console.log(`ok   ${what} -> ${response.status}${aside}`);
    }
  }
}
if (failures.length > 0) {
  console.error(`\n${definition}: ${failures.length} of ${requests} requests refused by Prism:\n${failures.join('\n')}`);
  process.exit(1);
}
console.log(`${definition}: ${requests} requests from ${pushes.length} pushes accepted by Prism`);
