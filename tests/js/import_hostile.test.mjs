// Hostile JSON and CSV files against the importer (web/src/import/files.js, nested.js, csv.js, and the
// checks of import/tensors.js): ragged nested lists (the count matching, mixed depth too) are refused
// naming the row; 10,000 levels of nesting get a message, not a stack overflow; a CSV with decimal
// commas is named as such, a space-separated one is read, and 0x10 / 0b11 are not numbers (issue 35,
// items 1, 12, 14).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkImport } from '../../web/src/import/tensors.js';
import * as files from '../../web/src/import/files.js';
import { loadAttention } from '../../web/src/engine/attention.js';

// The view's sizes with the core's shape of each tensor (resolveView's tensors), as validate gives them.
const attn = await loadAttention({});
const sizes = { batch: 1, n_q: 3, n_k: 3, d_model: 2, n_heads: 1, n_kv_heads: 1, d_k: 2, d_v: 2 };
const config = { ...sizes, bias: false, cross: false, tensors: attn.resolveView(sizes).dims.tensors };
const importLimits = files.importLimits ?? (() => undefined); // (absent before issue 35)
const text = (s) => new TextEncoder().encode(s);
/** A JSON file through the reader and the view's check, as the drop zone does. */
const viaFile = (json) => checkImport(files.readImportFile('t.json', text(json), importLimits(config)).tensors, config);

test('ragged nested lists are refused naming the row, even when the count of numbers matches; mixed depth too', () => {
  // 3 rows: 2 + 3 + 1 = 6 numbers = 3 × 2, the shape the first row implies
  const ragged = [[1, 2], [3, 4, 5], [6]];
  assert.throws(() => checkImport({ query: ragged }, config), /query: row \[1\] has 3 entries, row \[0\] has 2 \(the nested lists are ragged\)/);
  assert.throws(() => viaFile(JSON.stringify({ query: ragged })), /query: row \[1\] has 3 entries, row \[0\] has 2/);
  assert.throws(() => viaFile(JSON.stringify({ query: { shape: [3, 2], data: ragged } })), /query: row \[1\] has 3 entries/);
  // mixed depth: a list where a number belongs, and a number where a list belongs
  assert.throws(() => checkImport({ query: [[1, 2], [3, [4]], [5, 6]] }, config), /query: \[1, 1\] is a list where \[0, 0\] is a number \(the nested lists mix depths\)/);
  assert.throws(() => viaFile('{"query": [[1, 2], 3, [4, 5], 6]}'), /query: \[1\] is a number where \[0\] is a list/);
  // what is not ragged still reads, with its numbers where they were
  assert.deepEqual(Array.from(viaFile('{"query": [[1, 2], [3, 4], [5, 6]]}').tensors.query), [1, 2, 3, 4, 5, 6]);
  assert.throws(() => viaFile('{"query": [[1, 2], [3, "x"], [5, 6]]}'), /query: entry \[1, 1\] is "x", not a number/);
  assert.throws(() => viaFile('{"query": [[1, 2], [3, null], [5, 6]]}'), /query: entry \[1, 1\] is null, not a number \(JSON writes NaN and Infinity as null\)/);
});

test('10,000 levels of nesting give a clear message, not a stack overflow', () => {
  const deep = '['.repeat(10000) + '1' + ']'.repeat(10000);
  assert.throws(() => viaFile(`{"query": ${deep}}`), /t\.json nests objects and lists 10001 levels deep; a tensor has at most 32 axes/);
  assert.throws(() => checkImport({ query: JSON.parse(deep) }, config), /query: the nested lists are more than 32 levels deep; a tensor has at most 32 axes/);
  const objects = '{"a":'.repeat(10000) + '1' + '}'.repeat(10000);
  assert.throws(() => files.readImportFile('o.json', text(objects), importLimits(config)), /o\.json nests objects and lists 10000 levels deep/);
});

test('CSV: decimal commas are named, space-separated rows are read, 0x10 and 0b11 are not numbers', () => {
  const read = (s, name = 'query.csv') => files.readImportFile(name, text(s), importLimits(config));
  assert.throws(() => read('0,125;0,125\n0,5;0,5\n0,25;0,75\n'), /query\.csv: “0,125” \(row 1, column 1\) has a decimal comma: write 0\.125/);
  assert.throws(() => read('0,125\t0,5\n'), /decimal comma: write 0\.125/);
  const spaced = read('0.5 1.5\n2   3\n-4 5e-1\n');
  assert.deepEqual([spaced.tensors.query.shape, Array.from(spaced.tensors.query.data)], [[3, 2], [0.5, 1.5, 2, 3, -4, 0.5]]);
  assert.equal(spaced.labels_q, undefined, 'no labels from numbers');
  const spacedLabels = read('x a b\nthe 0.5 0.5\ncat 1 0\n', 'attention.csv');
  assert.deepEqual([spacedLabels.labels_q, spacedLabels.labels_k], [['the', 'cat'], ['a', 'b']]);
  for (const bad of ['0x10', '0b11', '0o7', 'Infinity', '1_000', '']) {
    assert.throws(() => read(`1,${bad || '""'}\n2,3\n`), new RegExp(`query\\.csv: “${bad}” \\(row 1, column 2\\) is not a (decimal )?number`), bad);
  }
  assert.throws(() => read('0x10,1\n0b11,2\n'), /query\.csv: “0x10” \(row 1, column 1\) is not a decimal number/, 'a hex column is not labels');
  assert.deepEqual(Array.from(read('1e-3,-.5\n+2,3.\n').tensors.query.data), [0.001, -0.5, 2, 3], 'decimal forms NumPy writes and reads');
});
