// Measures why Prism cannot start on a description: the work of its start-up step that undoes
// the sharing of the dereferenced document.
//
// Usage: node startup_cost.mjs MODULES DESCRIPTION SECONDS
//   MODULES      the directory whose node_modules holds openapi-backend (run.sh installs it into
//                tests/prism/.prism); its @apidevtools/json-schema-ref-parser dereferences
//   DESCRIPTION  an OpenAPI description (JSON)
//   SECONDS      how long the walk may run before it is reported unfinished
//
// Prism 5 starts a mock by dereferencing the description (every `$ref` replaced by the object
// it names, one object per schema, shared wherever it is named) and then passing it to
// `decycle` (@stoplight/json): a walk that writes every object out again, cutting an object
// only while it is its own ancestor and forgetting it once its subtree is done. A schema that
// many paths reach is written once per path, so the walk's size is the number of paths
// through the description's references: a few times the description for most, exponential
// where schemas refer to each other in dense cycles (Stripe's customer, subscription, invoice,
// ...). This walks the same way, counting instead of writing, and prints how far it got.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const [modules, description, seconds] = process.argv.slice(2);
if (!modules || !description || !(Number(seconds) > 0)) {
  console.error('usage: node startup_cost.mjs MODULES DESCRIPTION SECONDS');
  process.exit(2);
}
const backend = createRequire(join(resolve(modules), 'package.json')).resolve('openapi-backend');
const { $RefParser } = createRequire(backend)('@apidevtools/json-schema-ref-parser');

/** Nodes of a JSON tree: objects, arrays and scalars. */
function size(value) {
  if (value === null || typeof value !== 'object') return 1;
  let n = 1;
  for (const key in value) n += size(value[key]);
  return n;
}

const own = size(JSON.parse(readFileSync(description, 'utf8')));
const started = Date.now();
const dereferenced = await new $RefParser().dereference(description);
const dereferencing = Date.now() - started;

const deadline = Date.now() + Number(seconds) * 1000;
const ancestors = new WeakSet();
let written = 0;
let finished = true;
// An explicit stack: the unfolded paths are far deeper than the call stack allows.
const stack = [{ value: dereferenced, leave: false }];
while (stack.length > 0) {
  const { value, leave } = stack.pop();
  if (leave) {
    ancestors.delete(value);
    continue;
  }
  written += 1;
  if (written % 1_000_000 === 0 && Date.now() > deadline) {
    finished = false;
    break;
  }
  if (value === null || typeof value !== 'object' || ancestors.has(value)) continue;
  ancestors.add(value);
  stack.push({ value, leave: true });
  for (const key in value) stack.push({ value: value[key], leave: false });
}
const ratio = Math.round(written / own).toLocaleString('en');
const counted = `${written.toLocaleString('en')} nodes written (${ratio} times the description's ${own.toLocaleString('en')})`;
console.log(`${description}: dereferenced in ${dereferencing} ms; decycle's walk ${
  finished ? `finished: ${counted}` : `unfinished after ${seconds} s: ${counted}`
}`);
