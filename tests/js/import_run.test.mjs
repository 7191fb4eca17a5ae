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
import { loadHandlers } from '../../web/src/features/compute.js';
import { validate } from '../../web/src/model/validate.js';
import { defaults, withChanges } from '../../web/src/model/schema.js';
import { checkImport, withImports } from '../../web/src/import/tensors.js';

const attn = await loadAttention({});
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
