// Serves an OpenAPI 3 description with Prism's own HTTP server, started without the step of
// `prism mock` that cannot end on some descriptions.
//
// Usage: node serve.mjs MODULES DESCRIPTION PORT
//   MODULES      the directory whose node_modules holds @stoplight/prism-cli and its packages
//                (run.sh installs them, pinned, into tests/prism/.prism)
//   DESCRIPTION  the OpenAPI 3 description (JSON), as published
//   PORT         the port on 127.0.0.1 to listen on
// Logs Prism's JSON log lines on standard output, the last of them "Prism is listening on ...".
//
// `prism mock` turns a description into Prism's operations in three steps: it dereferences the
// whole document (every `$ref` replaced by what it names), undoes the cycles that leaves
// (`decycle`), and bundles each operation with what it refers to. On a description whose
// schemas refer to each other in dense cycles (Stripe's) the first two do not end: decycle
// writes each schema once per path of references that reaches it (startup_cost.mjs measures
// it). This script takes the published document as it is, with its `$ref`s, turns it into
// operations with Prism's own converter (@stoplight/http-spec), bundles each operation with
// the components it refers to (@stoplight/json's bundleTarget, as `prism mock` does), and
// hands them to Prism's HTTP server (@stoplight/prism-http-server) with the configuration
// `prism mock` gives it: requests validated, security checked, static examples.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const [modules, description, port] = process.argv.slice(2);
if (!modules || !description || !(Number(port) > 0)) {
  console.error('usage: node serve.mjs MODULES DESCRIPTION PORT');
  process.exit(2);
}
const require = createRequire(join(resolve(modules), 'package.json'));
const { transformOas3Operations } = require('@stoplight/http-spec/oas3/operation');
const { bundleTarget } = require('@stoplight/json');
const { createServer } = require('@stoplight/prism-http-server');
const { createLogger } = require('@stoplight/prism-core');

const text = readFileSync(description, 'utf8');
const document = JSON.parse(text);
if (typeof document.openapi !== 'string' || !document.openapi.startsWith('3.')) {
  console.error(`${description}: not an OpenAPI 3 description; serve it with \`prism mock\``);
  process.exit(2);
}
// Each operation is bundled into a document of its own, the operation copied too: bundling
// rewrites the `$ref`s it follows in place, and the operations share schema objects, so
// anything shared would leave the later operations' references pointing at components their
// bundle lacks.
const operations = transformOas3Operations(document).map((operation) =>
  bundleTarget({
    document: { ...JSON.parse(text), __target__: structuredClone(operation) },
    path: '#/__target__',
    cloneDocument: false,
  }),
);
const logger = createLogger('PRISM', { level: 'info' });
const server = createServer(operations, {
  cors: false,
  config: {
    validateRequest: true,
    validateResponse: true,
    checkSecurity: true,
    errors: false,
    upstreamProxy: undefined,
    mock: { dynamic: false },
    isProxy: false,
  },
  components: { logger },
});
const address = await server.listen(Number(port), '127.0.0.1');
logger.info(`Prism is listening on ${address} (${operations.length} operations)`);
