// A pool pass uses exactly the weights it was started with: setWeights, sendWeights and other
// passes while it is in flight, a weight update that fails in a worker, and a worker killed
// mid-pass. Each result is either a clear error or the single-threaded forward with the weights
// its pass started with (issue 23, item 1: a pass used to return W1's partial outputs plus W2's bᴼ).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomArray } from './reference.mjs';
import { poolInternals } from '../../web/src/engine/pool.js';
import { assertClose, randomWeights, singleForward, withPool } from './pool_helpers.mjs';

const CONFIG = { d_model: 32, n_heads: 4, seed: 3 };

test('setWeights while a split pass is in flight, then another pass: each pass keeps its own weights (bᴼ included)', () =>
  withPool({ workers: 2, splitFlops: 0 }, CONFIG, async (layer) => {
    const W1 = randomWeights(CONFIG, 100), W2 = randomWeights(CONFIG, 200);
    const input = { query: randomArray(2 * 9 * 32, 1), batch: 2, n_q: 9, need_weights: true };
    await layer.setWeights(W1);
    await layer.forward(input); // the layer lives in both workers with W1
    // forward posts to the workers before it returns its promise: both passes are in flight at once.
    const first = layer.forward(input);
    await layer.setWeights(W2);
    const second = layer.forward(input);
    const [r1, r2] = await Promise.all([first, second]);
    assert.equal(layer.lastWorkers, 2, 'the passes ran split');
    const s1 = singleForward(CONFIG, W1, input), s2 = singleForward(CONFIG, W2, input);
    assertClose('first pass output (started with W1)', r1.output, s1.output);
    assertClose('first pass weights (started with W1)', r1.weights, s1.weights);
    assertClose('second pass output (started with W2)', r2.output, s2.output);
    assertClose('second pass weights (started with W2)', r2.weights, s2.weights);
  }));

test('sendWeights during a pass does not change the bᴼ of the pass in flight', () =>
  withPool({ workers: 2, splitFlops: 0 }, CONFIG, async (layer) => {
    const W1 = randomWeights(CONFIG, 300), W2 = randomWeights(CONFIG, 400);
    const input = { query: randomArray(7 * 32, 2), n_q: 7 };
    await layer.setWeights(W1);
    await layer.sendWeights();
    const pass = layer.forward(input);
    await layer.setWeights(W2);
    await layer.sendWeights(); // the workers' new slices are queued behind the pass
    assertClose('pass started with W1', (await pass).output, singleForward(CONFIG, W1, input).output);
    assertClose('next pass, with W2', (await layer.forward(input)).output, singleForward(CONFIG, W2, input).output);
  }));

test('interleaved passes with three weight sets, into and new arrays, three workers: each equals its own weights', () =>
  withPool({ workers: 3, splitFlops: 0 }, { d_model: 48, n_heads: 6, seed: 5 }, async (layer) => {
    const config = { d_model: 48, n_heads: 6, seed: 5 };
    const sets = [randomWeights(config, 500), randomWeights(config, 600), randomWeights(config, 700)];
    const passes = [];
    for (let k = 0; k < 7; k++) {
      const W = sets[k % 3];
      const batch = 1 + (k % 2);
      const input = { query: randomArray(batch * 6 * 48, 10 + k), batch, n_q: 6, mask: 'causal', need_weights: k % 3 !== 2 };
      if (k === 4) input.into = { output: new Float32Array(batch * 6 * 48), weights: new Float32Array(batch * 6 * 36) };
      await layer.setWeights(W);
      passes.push({ W, input, result: layer.forward(input) });
    }
    // Settled first: an assertion that fails must not leave later passes' rejections unhandled.
    const results = await Promise.allSettled(passes.map((p) => p.result));
    for (const [k, { W, input }] of passes.entries()) {
      assert.equal(results[k].status, 'fulfilled', `pass ${k}: ${results[k].reason?.message}`);
      const r = results[k].value;
      const { into, ...plain } = input;
      const s = singleForward(config, W, plain);
      assertClose(`pass ${k} output`, r.output, s.output);
      if (input.need_weights) assertClose(`pass ${k} weights`, r.weights, s.weights);
    }
    assert.equal(layer.lastWorkers, 3);
  }));

test('a weight update that fails in one worker: passes posted before the failure is known are refused, never mixed', () =>
  withPool({ workers: 2, splitFlops: 0 }, CONFIG, async (layer, pool) => {
    const W1 = randomWeights(CONFIG, 800), W2 = randomWeights(CONFIG, 900);
    const input = { query: randomArray(2 * 8 * 32, 3), batch: 2, n_q: 8 };
    await layer.setWeights(W1);
    await layer.forward(input);
    // Worker 1 of 2 gets a broken slice of W2 (its setWeights throws there); worker 0 gets W2.
    const worker = pool[poolInternals].worker(1);
    const post = worker.postMessage.bind(worker);
    let broken = 0;
    const ops = [];
    worker.postMessage = (message, transfer) => {
      if (message.op === 'params' && broken++ === 0) message.params.wq = new Float32Array(3);
      ops.push(message.op);
      post(message, transfer);
    };
    await layer.setWeights(W2);
    const second = layer.forward(input);  // posts the (broken) update and the pass
    const third = layer.forward(input);   // posted at once: the pool does not know yet that the update failed
    await assert.rejects(second, /wq has 3 values/);
    await assert.rejects(third, /this pass was started with version \d+ of the layer's weights, but this worker holds none complete/);
    // The next pass sends worker 1 its slice again and computes with W2 everywhere.
    assertClose('after the failed update', (await layer.forward(input)).output, singleForward(CONFIG, W2, input).output);
    assert.equal(layer.lastWorkers, 2);
    // Worker 1's layer is made again with the weights (it no longer claims a version).
    assert.deepEqual(ops, ['params', 'forward', 'forward', 'create', 'forward']);
  }));

test('a worker killed during passes with different weights: each pass fails with a message or equals its own weights', () =>
  withPool({ workers: 2, splitFlops: 0 }, { d_model: 128, n_heads: 4, seed: 6 }, async (layer, pool) => {
    const config = { d_model: 128, n_heads: 4, seed: 6 };
    const W1 = randomWeights(config, 1000), W2 = randomWeights(config, 1100);
    // ~1 GFLOP: milliseconds per worker, so the kill below lands while they compute.
    const input = { query: randomArray(1024 * 128, 4), n_q: 1024 };
    await layer.setWeights(W1);
    await layer.forward(input);
    const first = layer.forward(input);
    await layer.setWeights(W2);
    const second = layer.forward(input);
    await pool[poolInternals].worker(1).terminate();
    const expected = [singleForward(config, W1, input).output, singleForward(config, W2, input).output];
    const settled = await Promise.allSettled([first, second]);
    settled.forEach((s, k) => {
      if (s.status === 'rejected') assert.match(s.reason.message, /pool worker 2 of 2 stopped/, `pass ${k + 1}`);
      else assertClose(`pass ${k + 1} output`, s.value.output, expected[k]);
    });
    assert.ok(settled.some((s) => s.status === 'rejected'), 'the kill landed during a pass');
    // The replacement worker gets the current weights, W2.
    assertClose('after the replacement', (await layer.forward(input)).output, expected[1]);
  }));
