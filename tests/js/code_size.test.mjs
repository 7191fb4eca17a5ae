// Code you can live in (issue 34): no function under web/src longer than 150 lines and no file longer
// than 500. Functions are found with acorn's AST (declarations, expressions, arrows, methods, getters,
// class bodies' members), so a long function is named wherever it hides. The one exemption is narrow
// and stated here: a file whose top level holds only imports, data literals and exports of data (a
// table: strings, numbers, arrays and objects of them, frozen or not) may exceed 500 lines; its
// functions, if any, are still measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parse } from 'acorn';
import { ancestor } from 'acorn-walk';
import { ROOT, jsFiles } from './source_files.mjs';

export const MAX_FUNCTION_LINES = 150;
export const MAX_FILE_LINES = 500;

const lines = (node) => node.loc.end.line - node.loc.start.line + 1;

/** A readable name for a function node: its own, its variable's, its property's or its method's. */
function nameOf(node, ancestors) {
  if (node.id?.name) return node.id.name;
  for (let i = ancestors.length - 2; i >= 0; i--) {
    const a = ancestors[i];
    if (a.type === 'VariableDeclarator' && a.id.type === 'Identifier') return a.id.name;
    if ((a.type === 'Property' || a.type === 'MethodDefinition' || a.type === 'PropertyDefinition') && a.key) {
      return a.key.name ?? a.key.value ?? '(computed)';
    }
    if (a.type === 'AssignmentExpression') return source(a.left);
    if (a.type === 'ExportDefaultDeclaration') return 'default';
    if (a.type.startsWith('Function') || a.type === 'ArrowFunctionExpression') break;
  }
  return '(anonymous)';
}
const source = (node) => (node.type === 'Identifier' ? node.name : node.type === 'MemberExpression' ? `${source(node.object)}.${node.property.name ?? '[…]'}` : '(expression)');

/** True for a data literal: strings, numbers, booleans, null, template strings without calls, arrays and objects of them, Object.freeze(…) of one. */
export function isData(node) {
  if (!node) return false;
  switch (node.type) {
    case 'Literal': return true;
    case 'TemplateLiteral': return node.expressions.every(isData);
    case 'UnaryExpression': return isData(node.argument);
    case 'ArrayExpression': return node.elements.every((e) => e === null || isData(e.type === 'SpreadElement' ? e.argument : e));
    case 'ObjectExpression': return node.properties.every((p) => p.type === 'Property' && !p.computed && p.kind === 'init' && !p.method && isData(p.value));
    case 'Identifier': return true; // a name bound to data declared above (checked where it is declared)
    case 'CallExpression': return source(node.callee) === 'Object.freeze' && node.arguments.length === 1 && isData(node.arguments[0]);
    default: return false;
  }
}

/** A data table: its top level holds only imports, `const` declarations of data literals and exports of those. */
export function isDataTable(program) {
  return program.body.every((s) => {
    if (s.type === 'ImportDeclaration') return true;
    const d = s.type === 'ExportNamedDeclaration' || s.type === 'ExportDefaultDeclaration' ? s.declaration ?? (s.specifiers?.length ? 'specifiers' : null) : s;
    if (d === 'specifiers') return true;
    if (!d) return false;
    if (d.type === 'VariableDeclaration') return d.kind === 'const' && d.declarations.every((v) => isData(v.init));
    return s.type === 'ExportDefaultDeclaration' && isData(d);
  });
}

/** { functions: [{ name, line, lines }], lines, table } of one file's source. */
export function measure(text) {
  const program = parse(text, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
  const functions = [];
  const visit = (node, ancestors) => functions.push({ name: nameOf(node, ancestors), line: node.loc.start.line, lines: lines(node) });
  ancestor(program, { FunctionDeclaration: visit, FunctionExpression: visit, ArrowFunctionExpression: visit });
  return { functions, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), table: isDataTable(program) };
}

test('the measure finds long functions wherever they are, and exempts only data tables', () => {
  const long = (n) => Array.from({ length: n }, (_, i) => `  x += ${i};`).join('\n');
  const sample = `export function a() {\n${long(10)}\n}\nconst b = () => {\n${long(3)}\n};\nclass C { m() {\n${long(2)}\n} }\nconst o = { p: function () {} };\n`;
  const m = measure(sample);
  assert.deepEqual(m.functions.map((f) => [f.name, f.lines]), [['a', 12], ['b', 5], ['m', 4], ['p', 1]]);
  assert.equal(m.table, false);
  assert.equal(measure("import x from './x.js';\nexport const T = Object.freeze([{ a: 1, b: 'two', c: [3, -4] }, x]);\n").table, true);
  assert.equal(measure('export const T = [1];\nexport function f() {}\n').table, false, 'a function beside the data is code');
  assert.equal(measure('export const T = [make()];\n').table, false, 'a call is code');
});

test(`no function under web/src longer than ${MAX_FUNCTION_LINES} lines, no file longer than ${MAX_FILE_LINES} (data tables aside)`, () => {
  const problems = [];
  for (const path of jsFiles(`${ROOT}web/src`)) {
    const name = relative(ROOT, path);
    const m = measure(readFileSync(path, 'utf8'));
    if (m.lines > MAX_FILE_LINES && !m.table) problems.push(`${name}: ${m.lines} lines (at most ${MAX_FILE_LINES})`);
    for (const f of m.functions) {
      if (f.lines > MAX_FUNCTION_LINES) problems.push(`${name}:${f.line}: function ${f.name} is ${f.lines} lines (at most ${MAX_FUNCTION_LINES})`);
    }
  }
  assert.deepEqual(problems, [], `split these:\n${problems.join('\n')}`);
});

// One name per file (issue 34): a file name under web/src says which file it is, except the names a
// convention gives one per folder: a feature's panel.js, handler.js, requests.js, service.js and
// style.css (features/<name>/), a chapter's files (lesson/chapters/<name>/: chapter.js, exercises.js,
// exercise_text.js and the like, the same set in each chapter), a folder's index.js, and the words of a
// feature by its name (lesson/panels/<feature>.js, named as the feature is).
const PER_FOLDER = new Set(['panel.js', 'handler.js', 'requests.js', 'service.js', 'index.js', 'chapter.js', 'exercises.js', 'exercise_text.js']);

test('every file name under web/src is unique but the per-folder conventions', () => {
  const seen = new Map();
  for (const path of jsFiles(`${ROOT}web/src`)) {
    const name = relative(ROOT, path);
    const base = name.split('/').pop();
    if (PER_FOLDER.has(base) || /^web\/src\/lesson\/(panels|chapters)\//.test(name)) continue;
    seen.set(base, [...(seen.get(base) ?? []), name]);
  }
  const twins = [...seen.values()].filter((names) => names.length > 1).map((names) => names.join(' and '));
  assert.deepEqual(twins, [], `files that share a name:\n${twins.join('\n')}`);
});
