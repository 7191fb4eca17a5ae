// importTensors' checks (web/src/import/tensors.js) and the file readers (web/src/import/files.js),
// without a browser: each shape refusal names the tensor, its shape and the view's; non-finite numbers,
// negative weights and rows that do not sum to 1 are refused; what fits comes back as float32 in the
// view's shape; a link that says imported=… without tensors gets a note, and imports that no longer fit
// the sizes stop the view with a message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkImport, withImports, expectedShapes } from '../../web/src/import/tensors.js';
import { readImportFile } from '../../web/src/import/files.js';
import { writeNpy, writeNpz } from '../../web/src/export/npy.js';
import { loadAttention } from '../../web/src/engine/attention.js';

const attn = await loadAttention({});
/** The sizes as validate gives them: with the core's shape of each tensor (resolveView's tensors). */
const view = (sizes) => {
  const { d_model, n_heads, n_kv_heads, d_k, d_v, n_q, n_k, batch } = sizes;
  return { ...sizes, tensors: attn.resolveView({ d_model, n_heads, n_kv_heads, d_k, d_v, n_q, n_k, batch }).dims.tensors };
};

// A grouped-query view: 2 key/value heads for 4 query heads, d_k 3, d_v 5 (the sizes the engine resolved).
const config = view({ batch: 2, n_q: 3, n_k: 4, d_model: 6, n_heads: 4, n_kv_heads: 2, d_k: 3, d_v: 5, bias: true, cross: true });

test('tensors that fit come back as float32 in the view\'s shape; bare arrays take the view\'s shape', () => {
  const wk = Float64Array.from({ length: 6 * 6 }, (_, i) => i / 10);
  const r = checkImport({ wk: { shape: [6, 6], data: wk }, bo: [1, 2, 3, 4, 5, 6], key: new Float32Array(2 * 4 * 6) }, config);
  assert.equal(r.kind, 'tensors');
  assert.ok(r.tensors.wk instanceof Float32Array);
  assert.deepEqual(Array.from(r.tensors.wk), Array.from(wk, Math.fround));
  assert.deepEqual(r.shapes, { wk: [6, 6], bo: [6], key: [2, 4, 6] });
  assert.deepEqual(expectedShapes(config).wv, ['d_model, n_kv_heads·d_v', [6, 10]], 'wv is d_model × n_kv_heads·d_v');
  assert.deepEqual(Object.fromEntries(Object.entries(expectedShapes(config)).map(([name, [, shape]]) => [name, shape])), {
    query: [2, 3, 6], key: [2, 4, 6], value: [2, 4, 6], wq: [6, 12], wk: [6, 6], wv: [6, 10], wo: [20, 6],
    bq: [12], bk: [6], bv: [10], bo: [6], attention: [2, 4, 3, 4] }, 'every shape, written out for these sizes');
  assert.throws(() => expectedShapes({ ...config, tensors: null }), /the shapes of the view's tensors come from the engine \(resolveView\)/);
  // leading axes of 1 may be left out (and added)
  const one = view({ ...config, batch: 1 });
  assert.deepEqual(checkImport({ query: { shape: [3, 6], data: new Float32Array(18) } }, one).shapes.query, [1, 3, 6]);
  const maps = new Float32Array(4 * 3 * 4).fill(0.25);
  assert.equal(checkImport({ attention: { shape: [1, 4, 3, 4], data: maps }, labels_q: ['a', 'b', 'c'] }, one).labels_q[0][2], 'c');
  assert.equal(checkImport({ attention: [[[0.5, 0.5, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]], ...Array(3).fill([[1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]])] }, one).kind, 'attention',
    'nested lists; a row of zeros is a fully masked query');
});

test('refusals name the tensor, its shape and the view\'s shape, or the number or row at fault', () => {
  const cases = [
    [{ wq: { shape: [6, 13], data: new Float32Array(78) } }, /wq has shape \[6, 13\]; the view needs \[d_model, n_heads·d_k\] = \[6, 12\]$/],
    [{ wv: new Float32Array(7) }, /wv holds 7 numbers; the view needs \[d_model, n_kv_heads·d_v\] = \[6, 10\], 60 numbers$/],
    [{ query: { shape: [2, 3, 6], data: new Float32Array(5) } }, /query: shape \[2, 3, 6\] holds 36 numbers, its data 5$/],
    [{ bq: Float64Array.from([1, 2, 3, NaN, 5, 6, 7, 8, 9, 10, 11, 12]) }, /bq holds NaN at index 3: every number must be finite$/],
    [{ bo: Float64Array.from([1, 2, 1e39, 4, 5, 6]) }, /bo holds 1e\+39, beyond float32 at index 2/],
    [{ attention: new Float32Array(2 * 4 * 3 * 4).fill(0.3) }, /attention row \(batch 0, head 0, query 0\) sums to 1\.20000, not 1 \(tolerance 0\.001\): pass the softmax weights, not the scores$/],
    [{ attention: Float32Array.from({ length: 96 }, (_, i) => (i === 50 ? -0.25 : i === 51 ? 0.5 : (i >> 2) === 12 ? 0.25 : 0.25)) }, /attention row \(batch 0, head 0, query 0\) sums|negative weight/],
    [{ attention: new Float32Array(96).fill(0.25), wq: new Float32Array(72) }, /attention maps are imported alone/],
    [{ q: new Float32Array(3) }, /“q” is not a tensor the view takes: query, key, value, wq/],
    [{}, /no tensor to import/],
    [{ wq: new Float32Array(72), labels_q: ['a', 'b'] }, /labels_q must be 2 lists \(one per batch item\) of 3 tokens$/],
    [{ wq: 'text' }, /wq: the data must be numbers/],
  ];
  for (const [given, pattern] of cases) assert.throws(() => checkImport(given, config), pattern);
  assert.throws(() => checkImport({ key: new Float32Array(48) }, { ...config, cross: false }), /self-attention takes its key and value from the query/);
  assert.throws(() => checkImport({ bk: new Float32Array(6) }, { ...config, bias: false }), /bk was given but the layer has bias off/);
  // a negative weight in a row that sums to 1 is refused by its own message
  const neg = new Float32Array(96).fill(0.25);
  neg[0] = -0.25;
  neg[1] = 0.75;
  assert.throws(() => checkImport({ attention: neg }, config), /attention row \(batch 0, head 0, query 0\) holds a negative weight \(-0\.25\)/);
});

test('a view with imports names them in its config; sizes that no longer fit stop it; a link without tensors gets a note', () => {
  const check = { ok: true, errors: {}, notes: [], config: { ...config } };
  const held = { id: 'import-1', kind: 'tensors', shapes: { wq: [6, 12] } };
  assert.deepEqual(withImports(check, held, { imported: 'tensors' }).config.imported, { id: 'import-1', kind: 'tensors', names: ['wq'] });
  const resized = withImports({ ...check, config: view({ ...config, d_k: 4 }) }, held, { imported: 'tensors' });
  assert.equal(resized.ok, false);
  assert.equal(resized.config, null);
  assert.match(resized.errors.imported, /the imported wq is \[6, 12\] but the view now needs \[d_model, n_heads·d_k\] = \[6, 16\]/);
  const fromLink = withImports(check, null, { imported: 'attention' });
  assert.equal(fromLink.config.imported, undefined);
  assert.match(fromLink.notes.at(-1).text, /imported attention maps, which a link does not carry: import them again/);
  assert.equal(withImports(check, null, { imported: '' }), check);
  const maps = withImports(check, { id: 'import-2', kind: 'attention', shapes: { attention: [2, 4, 3, 4] } }, { imported: 'attention' });
  assert.equal(maps.config.imported.kind, 'attention');
  assert.match(maps.notes.at(-1).text, /^Imported attention maps: .*show this view’s seeded layer/, 'the panels that need the layer say so');
});

test('files: .npy named by the file, .npz and exported bundles, .json, .csv with word labels; others refused', () => {
  const npy = readImportFile('wq.npy', writeNpy({ shape: [2], data: Float32Array.from([1, 2]) }));
  assert.deepEqual(Object.keys(npy.tensors), ['wq']);
  assert.throws(() => readImportFile('weights.npy', writeNpy({ shape: [1], data: new Float32Array(1) })), /weights\.npy: name the file after the tensor it holds \(query\.npy/);
  // a bundle: inputs and parameters are used, what the run computes again is skipped
  const bundle = readImportFile('attention-d8.zip', writeNpz({ query: { shape: [1], data: new Float32Array(1) }, attention: { shape: [1], data: new Float32Array(1) },
    output: { shape: [1], data: new Float32Array(1) } }));
  assert.deepEqual(Object.keys(bundle.tensors), ['query']);
  assert.deepEqual(bundle.skipped.sort(), ['attention', 'output']);
  assert.throws(() => readImportFile('x.npz', writeNpz({ output: { shape: [1], data: new Float32Array(1) } })), /x\.npz holds none of the tensors the view takes/);
  const json = readImportFile('t.json', new TextEncoder().encode('{"bo": [1, 2], "labels_q": ["a"]}'));
  assert.deepEqual(json.tensors, { bo: Float64Array.from([1, 2]) }, 'read as numbers where the file is read (the compute worker)');
  assert.deepEqual(json.labels_q, ['a']);
  assert.throws(() => readImportFile('t.json', new TextEncoder().encode('{"bo": [1,')), /t\.json is not JSON/);
  assert.throws(() => readImportFile('t.json', new TextEncoder().encode('[1, 2]')), /t\.json must hold an object/);
  const csv = readImportFile('attention.csv', new TextEncoder().encode(',the,cat\nthe,1,0\ncat,0.5,0.5\n'));
  assert.deepEqual(csv.tensors.attention.shape, [2, 2]);
  assert.deepEqual(Array.from(csv.tensors.attention.data), [1, 0, 0.5, 0.5]);
  assert.deepEqual([csv.labels_q, csv.labels_k], [['the', 'cat'], ['the', 'cat']]);
  assert.deepEqual(Array.from(readImportFile('wo.csv', new TextEncoder().encode('1;2\n3;4')).tensors.wo.data), [1, 2, 3, 4]);
  assert.throws(() => readImportFile('wo.csv', new TextEncoder().encode('1,2\n3\n')), /wo\.csv: row 2 has 1 numbers, the first 2/);
  assert.throws(() => readImportFile('wo.csv', new TextEncoder().encode('1,2\n3,x\n')), /wo\.csv: “x” \(row 2, column 2\) is not a number/);
  assert.throws(() => readImportFile('a.txt', new Uint8Array(1)), /a\.txt: \.txt files are not read; give \.npy, \.npz, \.json or \.csv/);
});
