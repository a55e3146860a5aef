// Starts `syncdef lsp` for the YAML and JSON definitions of the workspace.
'use strict';

const vscode = require('vscode');
const { LanguageClient, State } = require('vscode-languageclient/node');
const { hasSynchronizationKey, documentSelector } = require('./selection');

let client;

function settings() {
  const config = vscode.workspace.getConfiguration('syncdef');
  return {
    path: config.get('path', 'syncdef'),
    files: config.get('files', ['**/*.{yaml,yml,json}']),
    requireKey: config.get('requireSynchronizationKey', true),
  };
}

// The documents the server was told about; with `requireSynchronizationKey`, others matching
// the globs are never opened on the server, so their edits are not sent either.
function middleware(requireKey) {
  const opened = new Set();
  const known = (document) => !requireKey || opened.has(document.uri.toString());
  return {
    didOpen(document, next) {
      if (requireKey && !hasSynchronizationKey(document.languageId, document.getText())) {
        return Promise.resolve();
      }
      opened.add(document.uri.toString());
      return next(document);
    },
    didChange(event, next) {
      return known(event.document) ? next(event) : Promise.resolve();
    },
    didClose(document, next) {
      if (!known(document)) return Promise.resolve();
      opened.delete(document.uri.toString());
      return next(document);
    },
  };
}

async function start(output) {
  const { path, files, requireKey } = settings();
  const server = { command: path, args: ['lsp'] };
  client = new LanguageClient('syncdef', 'syncdef', server, {
    documentSelector: documentSelector(files),
    middleware: middleware(requireKey),
    outputChannel: output,
  });
  try {
    await client.start();
  } catch (error) {
    vscode.window.showErrorMessage(
      `syncdef: could not start \`${path} lsp\` (${error.message || error}); ` +
        'install syncdef (cargo install --locked --path cli) or set "syncdef.path" to the binary',
    );
  }
}

async function stop() {
  if (client && client.state !== State.Stopped) await client.stop();
  client = undefined;
}

async function activate(context) {
  const output = vscode.window.createOutputChannel('syncdef');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('syncdef.restart', async () => {
      await stop();
      await start(output);
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration('syncdef')) {
        await stop();
        await start(output);
      }
    }),
  );
  await start(output);
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
