// The TextMate grammar (syntaxes/bao.tmLanguage.json) on every token kind, with no
// dependency: a small tokenizer of the grammar's own subset (match with captures, begin/end
// with inner patterns, includes of the repository), scanning as a TextMate engine does (at
// each place the pattern that matches first, the earlier-listed one on a tie). Its regular
// expressions are read as JavaScript ones (the grammar uses nothing where they differ from
// Oniguruma's). Run: node test/grammar.test.js (exit 1 on a failure). bao-cli's tests run it.
'use strict';
const fs = require('fs');
const path = require('path');
const assert = require('assert');

const grammar = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', 'syntaxes', 'bao.tmLanguage.json'), 'utf8'));

function resolve(patterns) {
  const out = [];
  for (const p of patterns) {
    if (p.include) {
      const r = grammar.repository[p.include.slice(1)];
      if (r.patterns && !r.match && !r.begin) out.push(...resolve(r.patterns));
      else out.push(r);
    } else {
      out.push(p);
    }
  }
  return out;
}

// Tokens of one line: [text, scope] for each piece that has a scope (blanks and unscoped
// text left out); `stack` holds the begin/end rules open from the lines before.
function tokenizeLine(line, stack) {
  const tokens = [];
  let pos = 0;
  while (pos <= line.length) {
    const open = stack[stack.length - 1];
    const patterns = open ? resolve(open.patterns || []) : resolve(grammar.patterns);
    let best = null;
    if (open) {
      const re = new RegExp(open.end, 'g');
      re.lastIndex = pos;
      const m = re.exec(line);
      if (m) best = { at: m.index, m, end: true };
    }
    patterns.forEach((p) => {
      const re = new RegExp(p.match || p.begin, 'g');
      re.lastIndex = pos;
      const m = re.exec(line);
      if (m && (!best || m.index < best.at)) best = { at: m.index, m, p };
    });
    if (!best || (best.m[0] === '' && best.at >= line.length)) break;
    const { m, p } = best;
    const text = m[0];
    if (best.end) {
      tokens.push([text, open.name]);
      stack.pop();
    } else if (p.match) {
      if (p.captures) {
        // Each captured group in order (the grammar's groups do not nest).
        let at = m.index;
        for (let i = 1; i < m.length; i++) {
          if (m[i] === undefined || m[i] === '') continue;
          const start = line.indexOf(m[i], at);
          at = start + m[i].length;
          if (p.captures[i]) tokens.push([m[i], p.captures[i].name]);
        }
      } else {
        tokens.push([text, p.name]);
      }
    } else {
      tokens.push([text, p.name]);
      stack.push(p);
    }
    pos = m.index + Math.max(text.length, text.length === 0 ? 1 : 0);
  }
  return tokens;
}

function tokenize(text) {
  const stack = [];
  return text.split('\n').map((l) => tokenizeLine(l, stack));
}

const cases = [
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
    ['a4', 'variable.other.pit.bao'], ['2', 'constant.numeric.bao'],
    ['A7', 'variable.other.pit.bao'], ['1', 'constant.numeric.bao'],
    [']', 'meta.annotation.bao']]],
  ['{a comment} A6< ; to the end', [
    ['{', 'comment.block.bao'], ['}', 'comment.block.bao'],
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

let failed = 0;
for (const [text, expected] of cases) {
  const got = tokenize(text)[0].filter(([, scope]) => scope);
  try {
    assert.deepStrictEqual(got, expected);
  } catch (e) {
    failed += 1;
    console.error(`FAIL ${JSON.stringify(text)}\n  got      ${JSON.stringify(got)}\n  expected ${JSON.stringify(expected)}`);
  }
}
console.log(`grammar: ${cases.length - failed}/${cases.length} lines tokenized as expected`);
process.exit(failed ? 1 : 0);
