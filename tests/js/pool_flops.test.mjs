// The pool's split threshold counts FLOPs with the core's count (analyze().flops), not a formula of
// its own (issue 22: no JavaScript copy of a core rule): the count equals the core's for several
// shapes, the threshold keeps its meaning (a pass splits from splitFlops on), and the old copy
// (forwardFlops in pool_split.js) stays deleted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { randomArray } from './reference.mjs';
import * as split from '../../web/src/engine/pool_split.js';
import { withPool } from './pool_helpers.mjs';

const SHAPES = [
  { config: { d_model: 64, n_heads: 4 }, batch: 1, n_q: 8, n_k: 8 },
  { config: { d_model: 48, n_heads: 6, d_k: 5, d_v: 11, bias: false }, batch: 3, n_q: 13, n_k: 13 },
  { config: { d_model: 64, n_heads: 8, n_kv_heads: 2 }, batch: 2, n_q: 9, n_k: 31 },
  { config: { d_model: 768, n_heads: 12 }, batch: 1, n_q: 2048, n_k: 2048 },
];

test('layer.forwardFlops is the core\'s count of matmul FLOPs (2 × analyze().flops.exact_macs) for several shapes', () =>
  withPool({ workers: 2 }, { d_model: 16, n_heads: 2 }, async (_, pool) => {
    for (const { config, batch, n_q, n_k } of SHAPES) {
      const layer = await pool.layer(config);
      const core = modules.simd.analyze({ ...config, batch, n_q, n_k, attention: n_q === n_k ? 'self' : 'cross' }).flops;
      const what = `${JSON.stringify(config)} batch ${batch}, n_q ${n_q}, n_k ${n_k}`;
      assert.equal(layer.forwardFlops(batch, n_q, n_k), 2 * core.exact_macs, what);
      // The same number as the sum of the core's stages (matmul stages only, 2 per multiply-add),
      // and as the lesson's terms written out here: the threshold's numbers did not change.
      assert.equal(layer.forwardFlops(batch, n_q, n_k), 2 * core.stages.reduce((sum, s) => sum + s.macs, 0), what);
      const { d_model: d, n_heads: h, d_k, d_v } = layer;
      const n_kv = layer.n_kv_heads ?? h;
      assert.equal(layer.forwardFlops(batch, n_q, n_k),
        2 * batch * (n_q * d * h * d_k + n_k * d * n_kv * (d_k + d_v) + n_q * n_k * h * (d_k + d_v) + n_q * h * d_v * d), what);
      layer.delete();
    }
  }));

test('a pass splits from exactly splitFlops FLOPs on, and runs on the calling thread one below', async () => {
  const config = { d_model: 32, n_heads: 4, seed: 1 };
  const input = { query: randomArray(20 * 32, 1), n_q: 20 };
  let count;
  await withPool({ workers: 2 }, config, async (layer) => { count = layer.forwardFlops(1, 20, 20); });
  await withPool({ workers: 2, splitFlops: count }, config, async (layer) => {
    await layer.forward(input);
    assert.equal(layer.lastWorkers, 2, `${count} FLOPs with splitFlops ${count}: split`);
  });
  await withPool({ workers: 2, splitFlops: count + 1 }, config, async (layer) => {
    await layer.forward(input);
    assert.equal(layer.lastWorkers, 0, `${count} FLOPs with splitFlops ${count + 1}: calling thread`);
  });
});

test('the JavaScript FLOP formula is gone: pool_split.js exports no forwardFlops and no file of web/src defines or imports one', async () => {
  assert.equal('forwardFlops' in split, false);
  const { readdir, readFile } = await import('node:fs/promises');
  const root = new URL('../../web/src/', import.meta.url);
  const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.js'));
  assert.ok(files.length > 10, 'the sources were found');
  for (const file of files) {
    const text = await readFile(new URL(file, root), 'utf8');
    // layer.forwardFlops (the core's count) is the only form allowed: no function of that name, no import of one.
    assert.doesNotMatch(text, /function\s+forwardFlops\b|forwardFlops\s*=|import\s*\{[^}]*\bforwardFlops\b/, `${file} has a forwardFlops of its own`);
  }
});
