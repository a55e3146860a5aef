// Replays the requests of the catalog snapshots (tests/it/snapshots/it__catalog__*.snap, written by
// tests/it/catalog.rs from `syncdef push --dry-run`) that belong to one definition against a
// Prism mock server of that definition, and fails on any request-validation violation Prism
// reports.
//
// Usage: node replay.mjs DEFINITION PORT SNAPSHOT...
// Prints one line per request; exits 1 when a request is refused or violates the definition,
// or when no snapshot belongs to DEFINITION (nothing would have been checked).
import { readFileSync } from 'node:fs';

const [definition, port, ...snapshots] = process.argv.slice(2);
if (!definition || !port || snapshots.length === 0) {
  console.error('usage: node replay.mjs DEFINITION PORT SNAPSHOT...');
  process.exit(2);
}
const mock = `http://127.0.0.1:${port}`;

// An insta snapshot is a metadata header between `---` lines, then the JSON value.
function readSnapshot(file) {
  const text = readFileSync(file, 'utf8');
  const body = text.split(/^---$/m).slice(2).join('---');
  return JSON.parse(body);
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

const pushes = snapshots.map((file) => ({ file, snap: readSnapshot(file) }))
  .filter(({ snap }) => snap.definition === definition);
if (pushes.length === 0) {
  console.error(`${definition}: no snapshot renders a push of it; run cargo test -p syncdef-cli --test it catalog::`);
  process.exit(1);
}
await waitForPrism(60_000);

let sent = 0;
const failures = [];
for (const { file, snap } of pushes) {
  for (const request of snap.requests) {
    if (!request.url.startsWith(snap.server)) {
      failures.push(`${file}: ${request.url} is not under the server ${snap.server}`);
      continue;
    }
    const path = request.url.slice(snap.server.length);
    const headers = {};
    // Headers as `{name: value}` or as `[name, value]` pairs.
    const pairs = Array.isArray(request.headers) ? request.headers : Object.entries(request.headers ?? {});
    for (const [name, value] of pairs) {
      if (!['host', 'content-length'].includes(name.toLowerCase())) headers[name] = value;
    }
    const init = { method: request.method, headers };
    if (request.body !== null && request.body !== undefined) init.body = JSON.stringify(request.body);
    const response = await fetch(mock + path, init);
    await response.arrayBuffer();
    sent += 1;
    const violations = JSON.parse(response.headers.get('sl-violations') ?? '[]')
      .filter((v) => v.location?.[0] === 'request');
    const what = `${snap.entry} ${snap.operation} ${snap.record}: ${request.step} ${request.method} ${path}`;
    if (violations.length > 0 || response.status >= 300) {
      const detail = violations.map((v) => `    ${v.location.join('.')}: ${v.message}`).join('\n');
      failures.push(`${what} -> ${response.status}\n${detail}`);
      console.log(`FAIL ${what} -> ${response.status}`);
    } else {
      console.log(`ok   ${what} -> ${response.status}`);
    }
  }
}
if (failures.length > 0) {
  console.error(`\n${definition}: ${failures.length} of ${sent} requests refused by Prism:\n${failures.join('\n')}`);
  process.exit(1);
}
console.log(`${definition}: ${sent} requests from ${pushes.length} pushes accepted by Prism`);
