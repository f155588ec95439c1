// The editors' word lists agree with docs/language.md: the builtin functions
// that both highlighters name (the tree-sitter query's list and the TextMate
// grammar's) are those of "Builtin functions", and the words the tree-sitter
// grammar reserves are the keywords of "Lexical structure" (and the cards), so
// that a new builtin or keyword is not left out.
'use strict';

const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');

const repo = path.join(__dirname, '..', '..', '..');

/** The names in the first column of the docs' builtin table (`len(xs)`, `min(a, b)`, ...). */
function documented() {
  const doc = fs.readFileSync(path.join(repo, 'docs', 'language.md'), 'utf8');
  const section = doc.split('\n## Builtin functions\n')[1].split('\n## ')[0];
  const names = [];
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const firstCell = line.split('|')[1];
    for (const m of firstCell.matchAll(/`([a-z_0-9]+)\(/g)) names.push(m[1]);
  }
  return names.sort();
}

test('the highlighted builtins are the documented ones', () => {
  const want = documented();
  assert.ok(want.length >= 20, `found only ${want.length} builtins in docs/language.md`);

  const query = fs.readFileSync(path.join(repo, 'editors', 'tree-sitter-gala', 'queries', 'highlights.scm'), 'utf8');
  const anyOf = /#any-of\? @function\.builtin([^)]*)\)/.exec(query);
  assert.ok(anyOf, 'no `#any-of? @function.builtin` list in highlights.scm');
  const inQuery = [...anyOf[1].matchAll(/"([^"]+)"/g)].map(m => m[1]).sort();
  assert.deepStrictEqual(inQuery, want, 'highlights.scm against docs/language.md');

  const grammar = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'syntaxes', 'gala.tmLanguage.json'), 'utf8'));
  const rule = grammar.repository.calls.patterns.find(p => p.captures['1'].name === 'support.function.builtin.gala');
  assert.ok(rule, 'no builtin function rule in gala.tmLanguage.json');
  const inTextMate = /\\b\(([^)]*)\)/.exec(rule.match)[1].split('|').sort();
  assert.deepStrictEqual(inTextMate, want, 'gala.tmLanguage.json against docs/language.md');
});

test('the reserved words of the tree-sitter grammar are the documented keywords and the cards', () => {
  const doc = fs.readFileSync(path.join(repo, 'docs', 'language.md'), 'utf8');
  const m = /- Keywords, which cannot be used as names:\s*`([^`]*)`, and `([^`]*)`/.exec(doc);
  assert.ok(m, 'no keyword list in docs/language.md');
  const keywords = [...m[1].split(/\s+/), m[2]].sort();
  const cards = ['T', 'J', 'Q', 'K', 'A'].flatMap(rank => ['s', 'h', 'd', 'c'].map(suit => rank + suit));

  const grammar = JSON.parse(
    fs.readFileSync(path.join(repo, 'editors', 'tree-sitter-gala', 'src', 'grammar.json'), 'utf8'),
  );
  const reserved = grammar.reserved.global.map(r => r.value).sort();
  assert.deepStrictEqual(reserved, [...keywords, ...cards].sort());
});
