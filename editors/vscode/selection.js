// Which documents the syncdef server sees: a pure module (no `vscode`), so that it is tested
// with Node alone.
'use strict';

// A top-level key at the start of a line (YAML), or a quoted key anywhere (JSON: pretty
// printed or not, its position in the text says nothing about its depth; the server reports
// a JSON file whose section is misplaced).
const YAML_KEY = /^(x-)?synchronization[ \t]*:/m;
const JSON_KEY = /"(x-)?synchronization"\s*:/;

/** Whether `text` (in `languageId`) holds a synchronization section the server should lint. */
function hasSynchronizationKey(languageId, text) {
  return languageId === 'json' || languageId === 'jsonc' ? JSON_KEY.test(text) : YAML_KEY.test(text);
}

/** The document selector: YAML and JSON files matching one of `patterns`. */
function documentSelector(patterns) {
  const selector = [];
  for (const pattern of patterns) {
    for (const language of ['yaml', 'json']) {
      selector.push({ scheme: 'file', language, pattern });
    }
  }
  return selector;
}

module.exports = { hasSynchronizationKey, documentSelector };
