// Imported tensors in the compute's runs (web/src/import/run.js through model/job.js and the export
// feature's handler), with the real engine in Node: after holdImports, a run of a config that names the
// import uses the imported parameters and inputs — its output equals a plain forward pass of a layer
// given those weights and inputs — in cross-attention with key ≠ value and a batch split into slices
// (a slice once took the key's rows as its value too); attention maps alone replace the weights; a
// config naming an import the compute does not hold is refused with what to do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/src/engine/attention.js';
import { createHandlers } from '../../web/src/worker/handlers.js';
import { loadHandlers } from '../../web/src/features/handlers_of.js';
import { validate } from '../../web/src/model/validate.js';
import { defaults, withChanges } from '../../web/src/model/schema.js';
import { checkImport, withImports } from '../../web/src/import/tensors.js';

const attn = await (await loadAttention({})).labs(); // trainingCost runs in the labs module
const handlers = createHandlers(async () => attn, { featureHandlers: loadHandlers });
await handlers.init({});
const ask = (request, payload) => handlers.ask({ owner: 7, feature: 'export', request, payload }, () => {});

/** A validated config of `changes`, with `held` imports named in it (as the playground does). */
function configOf(changes, held = null) {
  const state = withChanges(defaults(), { ...changes, ...(held ? { imported: held.kind } : {}) });
  const check = withImports(validate(state, { resolveView: attn.resolveView, analyze: attn.analyze, trainingCost: attn.trainingCost }), held, state);
  assert.ok(check.ok, JSON.stringify(check.errors));
  return check.config;
}

const numbers = (count, seed) => attn.randomNormal({ seed, count });

test('imported parameters and cross-attention inputs (key ≠ value, batch in slices) drive the run', async () => {
  const sizes = { attention: 'cross', source: 'random', d_model: '8', n_heads: '2', n_q: '3', n_k: '5', batch: '3', workers: '1' };
  const plain = configOf(sizes);
  const given = { wq: numbers(64, 11), wo: numbers(64, 12), bv: numbers(8, 13), key: numbers(3 * 5 * 8, 14), value: numbers(3 * 5 * 8, 15), query: numbers(3 * 3 * 8, 16) };
  const held = checkImport(given, plain);
  await ask('holdImports', { id: 'import-a', kind: held.kind, tensors: held.tensors });
  const config = configOf(sizes, { id: 'import-a', kind: held.kind, shapes: held.shapes });
  const ran = await handlers.run({ owner: 7, config }, () => {});
  const { tensors } = await ask('tensors', { config });

  // The reference: a layer of the same seed with the imported weights set, on the imported inputs, in one pass.
  const layer = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2, seed: config.seed });
  layer.setWeights({ ...layer.getWeights(), wq: given.wq, wo: given.wo, bv: given.bv });
  const want = layer.forward({ query: given.query, key: given.key, value: given.value, batch: 3, n_q: 3, n_k: 5, need_weights: true });
  layer.delete();
  let worst = 0;
  for (let k = 0; k < want.output.length; k++) worst = Math.max(worst, Math.abs(want.output[k] - tensors.output.data[k]));
  assert.ok(worst < 1e-6, `the run's output differs from the reference by ${worst}`);
  assert.deepEqual(Array.from(tensors.wq.data), Array.from(given.wq));
  assert.deepEqual(Array.from(tensors.value.data), Array.from(given.value));
  // the run itself (batch split into slices) gives the same output as the export's single pass
  let sum = 0;
  for (const v of want.output) sum += v;
  assert.ok(Math.abs(ran.output_sum - sum) < 1e-4, `run output sum ${ran.output_sum} against ${sum}`);
});

test('attention maps alone replace the weights the heatmaps draw; an import the compute lost is refused', async () => {
  const sizes = { source: 'random', d_model: '8', n_heads: '2', n_q: '3' };
  const maps = new Float32Array(2 * 3 * 3).fill(1 / 3);
  maps.set([1, 0, 0], 0);
  const held = checkImport({ attention: { shape: [2, 3, 3], data: maps } }, configOf(sizes));
  await ask('holdImports', { id: 'import-b', kind: held.kind, tensors: held.tensors });
  const config = configOf(sizes, { id: 'import-b', kind: held.kind, shapes: held.shapes });
  const ran = await handlers.run({ owner: 7, config }, () => {});
  assert.deepEqual(Array.from(ran.item.data), Array.from(maps));
  const { tensors } = await ask('tensors', { config });
  assert.deepEqual(Object.keys(tensors), ['attention']);
  const stale = configOf(sizes, { id: 'import-gone', kind: 'attention', shapes: held.shapes });
  await assert.rejects(handlers.run({ owner: 7, config: stale }, () => {}), /the imported tensors are no longer held by the compute .*: import them again/);
});

test('with attention maps alone, follow-one-query shows the imported row and compare heads measures the imported maps in the core', async () => {
  const sizes = { source: 'random', d_model: '8', n_heads: '2', n_q: '3', n_k: '3', batch: '2' };
  // Two batch items × two heads × 3 × 3 rows, each a distribution, different per head and item.
  const maps = new Float32Array(2 * 2 * 3 * 3);
  const rowsOf = [[[1, 0, 0], [0.2, 0.8, 0], [0.1, 0.2, 0.7]], [[1 / 3, 1 / 3, 1 / 3], [0.5, 0.25, 0.25], [0.6, 0.3, 0.1]],
    [[0.9, 0.1, 0], [0, 1, 0], [0, 0, 1]], [[0.25, 0.5, 0.25], [0.4, 0.4, 0.2], [0.05, 0.15, 0.8]]];
  rowsOf.forEach((rows, m) => rows.forEach((r, i) => maps.set(r, (m * 3 + i) * 3)));
  const plain = configOf(sizes);
  const held = checkImport({ attention: { shape: [2, 2, 3, 3], data: maps } }, plain);
  await ask('holdImports', { id: 'import-c', kind: held.kind, tensors: held.tensors });
  const config = configOf(sizes, { id: 'import-c', kind: held.kind, shapes: held.shapes });
  await handlers.run({ owner: 7, config }, () => {});
  const askOf = (feature, request, payload) => handlers.ask({ owner: 7, feature, request, payload }, () => {});

  // follow one query: batch item 1, head 0, query 2 is the imported row, and no trace of the seeded layer
  const reply = await askOf('query', 'trace', { config, item: 1, head: 0, query: 2 });
  assert.equal(reply.trace, undefined, 'no trace of a layer the maps did not come from');
  assert.deepEqual(Array.from(reply.imported.weights), Array.from(maps.subarray(((1 * 2 + 0) * 3 + 2) * 3, ((1 * 2 + 0) * 3 + 3) * 3)));

  // compare heads: entropy, distance and largest weight against float64 loops over the imported rows
  const { compare } = await askOf('compare', 'compare', { config });
  assert.equal(compare.imported, true);
  assert.equal(compare.ablation, null, 'no ablation without a layer');
  for (let h = 0; h < 2; h++) {
    let entropy = 0, distance = 0, max = 0, rows = 0;
    for (let b = 0; b < 2; b++) {
      for (let i = 0; i < 3; i++) {
        const r = rowsOf[b * 2 + h][i].map((v) => Math.fround(v));
        rows++;
        r.forEach((a, j) => { if (a > 0) entropy -= a * Math.log(a); distance += a * Math.abs(i - j); max = Math.max(max, a); });
      }
    }
    const got = compare.heads[h];
    assert.ok(Math.abs(got.entropy - entropy / rows) < 1e-6, `head ${h} entropy ${got.entropy} against ${entropy / rows}`);
    assert.ok(Math.abs(got.distance - distance / rows) < 1e-6, `head ${h} distance ${got.distance} against ${distance / rows}`);
    assert.ok(Math.abs(got.max_weight - max) < 1e-7, `head ${h} largest weight ${got.max_weight} against ${max}`);
  }
});

test('a view that names imports it does not hold gets the note; a value that is no kind of import gets only its own error', async () => {
  const { withoutImports } = await import('../../web/src/import/link_note.js');
  const check = { config: {}, errors: {}, notes: [] };
  assert.match(withoutImports(check, { imported: 'attention' }).notes[0].text, /^This view was made with imported attention maps/);
  assert.match(withoutImports(check, { imported: 'tensors' }).notes[0].text, /^This view was made with imported tensors/);
  for (const imported of ['', 'bogus', 'constructor']) assert.equal(withoutImports(check, { imported }), check, imported);
});
