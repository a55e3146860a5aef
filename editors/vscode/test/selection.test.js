'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { hasSynchronizationKey, documentSelector } = require('../selection');

test('a YAML definition has a top-level synchronization key', () => {
  assert.ok(hasSynchronizationKey('yaml', 'openapi: 3.0.3\nsynchronization:\n  Account: {}\n'));
  assert.ok(hasSynchronizationKey('yaml', 'openapi: 3.0.3\nx-synchronization:\n  Account: {}\n'));
});

test('a YAML file whose synchronization key is nested or in a value is not a definition', () => {
  assert.ok(!hasSynchronizationKey('yaml', 'jobs:\n  synchronization:\n    x: 1\n'));
  assert.ok(!hasSynchronizationKey('yaml', 'name: synchronization: later\n'));
  assert.ok(!hasSynchronizationKey('yaml', 'services:\n  web: {}\n'));
});

test('a JSON definition is found compact or pretty printed', () => {
  assert.ok(hasSynchronizationKey('json', '{"openapi":"3.0.3","synchronization":{}}'));
  assert.ok(hasSynchronizationKey('json', '{\n  "x-synchronization" : {}\n}'));
  assert.ok(!hasSynchronizationKey('json', '{"name": "synchronization"}'));
});

test('the selector covers YAML and JSON files of every pattern', () => {
  assert.deepStrictEqual(documentSelector(['**/catalog/**']), [
    { scheme: 'file', language: 'yaml', pattern: '**/catalog/**' },
    { scheme: 'file', language: 'json', pattern: '**/catalog/**' },
  ]);
});
