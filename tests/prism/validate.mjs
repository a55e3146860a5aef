// Validates the requests of the catalog snapshots (tests/it/snapshots/it__catalog__*.snap,
// written by tests/it/catalog.rs from `syncdef push --dry-run`) that belong to one definition
// with openapi-backend, a third-party OpenAPI request validator (Ajv underneath), loading the
// vendor's own description unmodified, in this process: for descriptions Prism cannot serve.
//
// Usage: node validate.mjs MODULES DEFINITION DESCRIPTION SNAPSHOT...
//   MODULES      the directory whose node_modules holds openapi-backend and qs (run.sh installs
//                them, pinned, into tests/prism/.prism)
//   DESCRIPTION  the OpenAPI description the requests are checked against (the one DEFINITION
//                extends), read and dereferenced by openapi-backend itself
// Prints one line per request; exits 1 when a request violates the description, or when no
// snapshot belongs to DEFINITION (nothing would have been checked); 2 on a usage error.
//
// Each request is checked for:
//   - its URL: under the snapshot's server, and its method and path an operation of the
//     description (openapi-backend's router);
//   - its path, query and header parameters, and its body, against that operation's schemas
//     (openapi-backend's validateRequest; Ajv with allErrors, and coerceTypes because every
//     value of a query or form is text: `active=true` is the boolean Stripe reads);
//   - its security: one of the operation's security requirements (else the document's) is met
//     by the request's headers (an `Authorization` of the scheme an `http` scheme names, the
//     header an `apiKey` scheme names);
//   - its Content-Type: a media type the operation's requestBody declares, and a body only when
//     the operation takes one.
// A form body (application/x-www-form-urlencoded) is written from the snapshot's JSON value the
// way syncdef writes it (snapshots.mjs: Stripe's bracket convention, `metadata[key]=v`,
// `items[0][price]=p`, null members left out), then read back the way Stripe documents its
// forms are read, with qs.parse (brackets nest), so that the schema sees `metadata` as an
// object, as Stripe does.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import {
  FORM, describe, headerPairs, mediaType, pathUnder, pushesOf, writeForm,
} from './snapshots.mjs';

const [modules, definition, description, ...snapshots] = process.argv.slice(2);
if (!modules || !definition || !description || snapshots.length === 0) {
  console.error('usage: node validate.mjs MODULES DEFINITION DESCRIPTION SNAPSHOT...');
  process.exit(2);
}
const require = createRequire(join(resolve(modules), 'package.json'));
const { OpenAPIBackend } = require('openapi-backend');
const qs = require('qs');

// How deep and how long the brackets of a form may nest: beyond qs's defaults (5 levels, 20
// items), which would turn deeper members into flat keys the schema then refuses.
const PARSE = { depth: 50, arrayLimit: 1000, parameterLimit: 10000 };

const pushes = pushesOf(definition, snapshots);

const started = Date.now();
const api = new OpenAPIBackend({
  definition: resolve(description),
  // Compile each operation's validator when a request first needs it: the description's
  // response schemas (never used here) are not compiled.
  quick: true,
  strict: true,
  validate: true,
  ajvOpts: {
    strict: false,
    allErrors: true,
    coerceTypes: true,
    // Formats Ajv does not know are not checked; say so once below instead of per schema.
    logger: false,
  },
});
await api.init();
const document = api.definition;
console.log(`${description}: loaded by openapi-backend in ${((Date.now() - started) / 1000).toFixed(1)} s`);

// The header that carries each security scheme, and how its value starts.
function securityMet(requirements, headers) {
  const schemes = document.components?.securitySchemes ?? {};
  const header = (name) => headers[name.toLowerCase()];
  const met = (name) => {
    const scheme = schemes[name];
    if (!scheme) return false;
    if (scheme.type === 'http') {
      const value = header('authorization');
      return typeof value === 'string' && value.toLowerCase().startsWith(`${scheme.scheme.toLowerCase()} `);
    }
    if (scheme.type === 'apiKey' && scheme.in === 'header') return header(scheme.name) !== undefined;
    if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') {
      return /^bearer /i.test(header('authorization') ?? '');
    }
    return false;
  };
  return requirements.length === 0 || requirements.some((r) => Object.keys(r).every(met));
}

let sent = 0;
const failures = [];
for (const { file, snap } of pushes) {
  for (const request of snap.requests) {
    sent += 1;
    const path = pathUnder(snap, request);
    if (path === null) {
      failures.push(`${file}: ${request.url} is not under the server ${snap.server}`);
      continue;
    }
    const what = describe(snap, request, path);
    const problems = [];
    const headers = {};
    // Header names are case-insensitive.
    for (const [name, value] of headerPairs(request)) headers[name.toLowerCase()] = value;
    const sentType = mediaType(headers['content-type']);
    const hasBody = request.body !== null && request.body !== undefined;
    let body;
    if (hasBody && sentType === FORM) {
      body = qs.parse(writeForm(qs, request.body), PARSE);
    } else if (hasBody) {
      body = request.body;
    }
    const req = { method: request.method, path, headers, body };
    const operation = api.matchOperation(req);
    if (!operation) {
      problems.push(`no operation of ${description} is ${request.method} ${path.split('?')[0]}`);
    } else {
      const declared = Object.keys(operation.requestBody?.content ?? {}).map((m) => m.toLowerCase());
      if (hasBody && !declared.includes(sentType)) {
        problems.push(`body sent as ${sentType || 'no Content-Type'}; ${operation.operationId} declares ${declared.join(', ') || 'no body'}`);
      }
      // openapi-backend checks a body against the operation's JSON schema first, else its
      // multipart one, else its form one: make sure that is the media type sent.
      const checked = ['application/json', 'multipart/form-data', FORM].find((m) => declared.includes(m));
      if (hasBody && checked && checked !== sentType) {
        problems.push(`openapi-backend would check this ${sentType} body against ${operation.operationId}'s ${checked} schema`);
      }
      if (operation.requestBody?.required && !hasBody) {
        problems.push(`${operation.operationId} requires a body`);
      }
      const result = api.validateRequest(req, operation);
      for (const e of result.errors ?? []) {
        const extra = e.params?.additionalProperty ?? e.params?.missingProperty;
        problems.push(`${e.instancePath || '/'}: ${e.message}${extra && !e.message.includes(extra) ? ` (${extra})` : ''}`);
      }
      if (!securityMet(operation.security ?? document.security ?? [], headers)) {
        problems.push(`no security requirement of ${operation.operationId} is met by the request's headers`);
      }
    }
    const id = operation ? ` (${operation.operationId})` : '';
    if (problems.length > 0) {
      failures.push(`${what}${id}\n${problems.map((p) => `    ${p}`).join('\n')}`);
      console.log(`FAIL ${what}${id}`);
    } else {
      console.log(`ok   ${what}${id}`);
    }
  }
}
if (failures.length > 0) {
  console.error(`\n${definition}: ${failures.length} of ${sent} requests refused by openapi-backend:\n${failures.join('\n')}`);
  process.exit(1);
}
console.log(`${definition}: ${sent} requests from ${pushes.length} pushes accepted by openapi-backend`);
