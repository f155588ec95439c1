// The TextMate grammar agrees with the tree-sitter highlight queries: every
// assertion of editors/tree-sitter-gala/test/highlight/ (`// ^ capture` under
// a line, as `tree-sitter test` reads them) is checked against the innermost
// TextMate scope at that place, through the scope each capture stands for.
// Run with `node --test` in editors/vscode (editors/check.sh does).
'use strict';

const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const oniguruma = require('vscode-oniguruma');
const vsctm = require('vscode-textmate');

const grammarPath = path.join(__dirname, '..', 'syntaxes', 'gala.tmLanguage.json');
const highlightDir = path.join(__dirname, '..', '..', 'tree-sitter-gala', 'test', 'highlight');

// The TextMate scope (innermost, without the `.gala` suffix) of each capture.
const SCOPES = {
  keyword: /^keyword\.(control|other)$/,
  operator: /^keyword\.operator\./,
  module: /^entity\.name\.namespace$/,
  type: /^entity\.name\.type(\.enum)?$/,
  'type.builtin': /^support\.type\.primitive$/,
  function: /^entity\.name\.function$/,
  'function.builtin': /^support\.function\.builtin$/,
  constructor: /^variable\.other\.enummember$/,
  variable: /^variable\.other$/,
  // TextMate cannot tell a parameter from another name.
  'variable.parameter': /^variable\.other$/,
  'variable.builtin': /^variable\.language$/,
  constant: /^(constant\.other\.card|variable\.other\.constant)$/,
  'constant.builtin': /^constant\.language\.boolean$/,
  number: /^constant\.numeric\.integer$/,
  string: /^string\.quoted\.double$/,
  comment: /^comment\.(line\.double-slash|block)$/,
  label: /^entity\.name\.label\.fact$/,
};

/** The assertions of a tree-sitter highlight test: {row, column, capture} of the source lines. */
function assertions(lines) {
  const found = [];
  let source = -1;
  lines.forEach((line, row) => {
    const m = /^(\s*)\/\/\s*(\^|<-)\s*(\S+)/.exec(line);
    if (!m) {
      source = row;
      return;
    }
    const column = m[2] === '^' ? line.indexOf('^') : m[1].length;
    found.push({ row: source, column, capture: m[3], at: row + 1 });
  });
  return found;
}

async function loadGrammar() {
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: patterns => new oniguruma.OnigScanner(patterns),
      createOnigString: s => new oniguruma.OnigString(s),
    }),
    loadGrammar: async scope =>
      scope === 'source.gala' ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath) : null,
  });
  return registry.loadGrammar('source.gala');
}

test('the TextMate grammar scopes what the tree-sitter queries capture', async () => {
  const grammar = await loadGrammar();
  const files = fs.readdirSync(highlightDir).filter(f => f.endsWith('.gala'));
  assert.ok(files.length > 0, 'no highlight tests found');
  let checked = 0;
  for (const file of files) {
    const lines = fs.readFileSync(path.join(highlightDir, file), 'utf8').split('\n');
    let stack = vsctm.INITIAL;
    const tokens = lines.map(line => {
      const result = grammar.tokenizeLine(line, stack);
      stack = result.ruleStack;
      return result.tokens;
    });
    for (const { row, column, capture, at } of assertions(lines)) {
      const want = SCOPES[capture];
      assert.ok(want, `${file}:${at}: no TextMate scope is given for the capture ${capture}`);
      const token = tokens[row].find(t => t.startIndex <= column && column < t.endIndex);
      // The innermost scope, past the delimiters' (the quotes of a string, the `//` of a comment).
      const scopes = token ? token.scopes.filter(s => !s.startsWith('punctuation.definition.')) : [];
      const scope = scopes.length > 0 ? scopes[scopes.length - 1].replace(/\.gala$/, '') : '(none)';
      const text = token ? lines[row].slice(token.startIndex, token.endIndex) : '';
      assert.match(scope, want, `${file}:${row + 1}:${column + 1} \`${text}\`: tree-sitter says ${capture}, TextMate ${scope}`);
      checked += 1;
    }
  }
  assert.ok(checked >= 50, `only ${checked} assertions checked`);
});
