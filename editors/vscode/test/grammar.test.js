// The TextMate grammar (syntaxes/bao.tmLanguage.json) on every token kind, tokenized by
// vscode-textmate, the engine VS Code itself runs, with vscode-oniguruma for the grammar's
// regular expressions (as VS Code reads them). Each line's tokens are compared as
// [text, innermost scope], blanks and text with no scope of its own left out.
//
// Run: npm ci && node grammar.test.js (in this directory; exit 1 on a failure). bao-cli's
// tests run it, and .ci/run installs the two packages first.
'use strict';
const fs = require('fs');
const path = require('path');
const assert = require('assert');

let vsctm, oniguruma;
try {
  vsctm = require('vscode-textmate');
  oniguruma = require('vscode-oniguruma');
} catch (e) {
  console.error('grammar: vscode-textmate and vscode-oniguruma are missing: run `npm ci` in ' + __dirname);
  process.exit(2);
}

const GRAMMAR = path.join(__dirname, '..', 'syntaxes', 'bao.tmLanguage.json');
const WASM = path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm');

async function loadGrammar() {
  const wasm = fs.readFileSync(WASM).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== 'source.bao') return null;
      return vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR, 'utf8'), GRAMMAR);
    },
  });
  return registry.loadGrammar('source.bao');
}

// Tokens of a text, line by line (the rule stack carried from line to line, as in an
// editor): [text, innermost scope] for each token with a scope beyond the file's own.
function tokenize(grammar, text) {
  let stack = vsctm.INITIAL;
  return text.split('\n').map((line) => {
    const r = grammar.tokenizeLine(line, stack);
    stack = r.ruleStack;
    return r.tokens
      .map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes[t.scopes.length - 1]])
      .filter(([piece, scope]) => scope !== 'source.bao' && piece.trim() !== '');
  });
}

// Each case: a text and the tokens of its LAST line (earlier lines set the rule stack: a
// comment left open goes on).
const cases = [
  ['{a comment\nacross lines} A6<', [
    ['across lines', 'comment.block.bao'], ['}', 'comment.block.bao'],
    ['A6', 'variable.other.pit.bao'], ['<', 'keyword.operator.direction.bao']]],
  ['[Event "De Voogt, problem 3"]', [
    ['[', 'punctuation.definition.tag.begin.bao'],
    ['Event', 'entity.name.tag.bao'],
    ['"De Voogt, problem 3"', 'string.quoted.double.bao'],
    [']', 'punctuation.definition.tag.end.bao']]],
  ['1. A6L* a6R 2... a5l', [
    ['1.', 'constant.numeric.move-number.bao'],
    ['A6', 'variable.other.pit.bao'], ['L', 'keyword.operator.direction.bao'],
    ['*', 'keyword.operator.takasa.bao'],
    ['a6', 'variable.other.pit.bao'], ['R', 'keyword.operator.direction.bao'],
    ['2...', 'constant.numeric.move-number.bao'],
    ['a5', 'variable.other.pit.bao'], ['l', 'keyword.operator.direction.bao']]],
  ['3. A8+ B2<** b3># 6<', [
    ['3.', 'constant.numeric.move-number.bao'],
    ['A8', 'variable.other.pit.bao'], ['+', 'keyword.operator.safari.bao'],
    ['B2', 'variable.other.pit.bao'], ['<', 'keyword.operator.direction.bao'],
    ['**', 'keyword.operator.takasa.bao'],
    ['b3', 'variable.other.pit.bao'], ['>', 'keyword.operator.direction.bao'],
    ['#', 'keyword.operator.win.bao'],
    ['6', 'variable.other.pit.bao'], ['<', 'keyword.operator.direction.bao']]],
  ['A6<*!? $14 [xa4:2 A7:1]', [
    ['A6', 'variable.other.pit.bao'], ['<', 'keyword.operator.direction.bao'],
    ['*', 'keyword.operator.takasa.bao'], ['!?', 'constant.other.glyph.bao'],
    ['$14', 'constant.other.nag.bao'],
    ['[', 'meta.annotation.bao'], ['x', 'keyword.operator.capture.bao'],
    ['a4', 'variable.other.pit.bao'], [':', 'meta.annotation.bao'], ['2', 'constant.numeric.bao'],
    ['A7', 'variable.other.pit.bao'], [':', 'meta.annotation.bao'], ['1', 'constant.numeric.bao'],
    [']', 'meta.annotation.bao']]],
  ['{a comment} A6< ; to the end', [
    ['{', 'comment.block.bao'], ['a comment', 'comment.block.bao'], ['}', 'comment.block.bao'],
    ['A6', 'variable.other.pit.bao'], ['<', 'keyword.operator.direction.bao'],
    ['; to the end', 'comment.line.semicolon.bao']]],
  ['1-0', [['1-0', 'keyword.control.result.bao']]],
  ['0-1', [['0-1', 'keyword.control.result.bao']]],
  ['12. A6< 1/2-1/2', [
    ['12.', 'constant.numeric.move-number.bao'],
    ['A6', 'variable.other.pit.bao'], ['<', 'keyword.operator.direction.bao'],
    ['1/2-1/2', 'keyword.control.result.bao']]],
  ['4. A6<* *', [
    ['4.', 'constant.numeric.move-number.bao'],
    ['A6', 'variable.other.pit.bao'], ['<', 'keyword.operator.direction.bao'],
    ['*', 'keyword.operator.takasa.bao'],
    ['*', 'keyword.control.result.bao']]],
];

async function main() {
  const grammar = await loadGrammar();
  let failed = 0;
  for (const [text, expected] of cases) {
    const lines = tokenize(grammar, text);
    const got = lines[lines.length - 1];
    try {
      assert.deepStrictEqual(got, expected);
    } catch (e) {
      failed += 1;
      console.error(`FAIL ${JSON.stringify(text)}\n  got      ${JSON.stringify(got)}\n  expected ${JSON.stringify(expected)}`);
    }
  }
  console.log(`grammar: ${cases.length - failed}/${cases.length} lines tokenized as expected by vscode-textmate`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
