// A pool layer's forward reads each option of a call once, checks that record once and uses only
// it, as MultiHeadAttention.forward does (issue 23, item 3): getters are counted, getters that
// change between reads and arrays whose own `length` lies get a clear error or the correct result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomArray } from './reference.mjs';
import { poolInternals } from '../../web/src/engine/pool.js';
import { assertClose, randomWeights, singleForward, withPool } from './pool_helpers.mjs';

const CONFIG = { d_model: 16, n_heads: 4, seed: 2 };
const W = randomWeights(CONFIG, 40);

/** An object whose every key is a getter that counts its reads: { object, reads }. */
function counted(values) {
  const object = {}, reads = {};
  for (const [key, value] of Object.entries(values)) {
    reads[key] = 0;
    Object.defineProperty(object, key, { enumerable: true, get() { reads[key]++; return value; } });
  }
  return { object, reads };
}

/** An object whose getter `key` answers first[0], then first[1], alternating on every read. */
function alternating(values, key, answers) {
  const object = { ...values };
  let reads = 0;
  Object.defineProperty(object, key, { enumerable: true, get: () => answers[reads++ % 2] });
  return object;
}

function everyKeyReadOnce(what, reads) {
  for (const [key, count] of Object.entries(reads)) assert.equal(count, 1, `${what}: '${key}' was read ${count} times`);
}

test('every option, and every key of mask and into, is read exactly once (split pass and calling-thread pass)', () =>
  withPool({ workers: 2, splitFlops: 0 }, CONFIG, async (layer) => {
    await layer.setWeights(W);
    const query = randomArray(2 * 5 * 16, 1);
    for (const dropout of [0, 0.25]) { // dropout in training runs whole on the calling thread
      const mask = counted({ causal: true, padding: [5, 3] });
      const into = counted({ output: new Float32Array(2 * 5 * 16), weights: new Float32Array(2 * 4 * 25) });
      const options = counted({ query, batch: 2, n_q: 5, mask: mask.object, scale: true, need_weights: true, dropout,
        seed: 4, memory_budget: 1 << 26, head_mask: [1, 0.5, 1, 2], into: into.object });
      const r = await layer.forward(options.object);
      assert.equal(layer.lastWorkers, dropout === 0 ? 2 : 0);
      everyKeyReadOnce(`dropout ${dropout}: options`, options.reads);
      everyKeyReadOnce(`dropout ${dropout}: mask`, mask.reads);
      everyKeyReadOnce(`dropout ${dropout}: into`, into.reads);
      const s = singleForward(CONFIG, W, { query, batch: 2, n_q: 5, mask: { causal: true, padding: [5, 3] }, need_weights: true,
        dropout, seed: 4, head_mask: [1, 0.5, 1, 2] });
      assertClose(`dropout ${dropout}: output`, r.output, s.output);
      assertClose(`dropout ${dropout}: weights`, r.weights, s.weights);
    }
  }));

test('pool.layer reads each key of its config once (the engine reads it; the pool takes the sizes it resolved)', () =>
  withPool({ workers: 2, splitFlops: 0 }, CONFIG, async (_, pool) => {
    const config = counted({ d_model: 32, n_heads: 8, n_kv_heads: 2, d_k: 4, d_v: 6, bias: false, seed: 7 });
    const layer = await pool.layer(config.object);
    everyKeyReadOnce('config', config.reads);
    const plain = { d_model: 32, n_heads: 8, n_kv_heads: 2, d_k: 4, d_v: 6, bias: false, seed: 7 };
    const input = { query: randomArray(3 * 32, 9), n_q: 3, need_weights: true };
    const r = await layer.forward(input), s = singleForward(plain, await layer.getWeights(), input);
    assert.equal(layer.lastWorkers, 2);
    assertClose('output', r.output, s.output);
    assertClose('weights', r.weights, s.weights);
  }));

test('getters that change between reads: the pool computes what the single-threaded layer computes for the same object', () =>
  withPool({ workers: 2, splitFlops: 0 }, CONFIG, async (layer) => {
    await layer.setWeights(W);
    const query = randomArray(2 * 6 * 16, 2);
    const base = { query, batch: 2, n_q: 6 };
    const cases = {
      // A nested getter: each worker's copy of the message used to read it again.
      'mask.causal true then false': () => ({ ...base, mask: alternating({}, 'causal', [true, false]) }),
      'mask.padding [6, 2] then [1, 1]': () => ({ ...base, mask: alternating({}, 'padding', [[6, 2], [1, 1]]) }),
      'need_weights true then false': () => alternating({ ...base }, 'need_weights', [true, false]),
      'batch 2 then 1': () => alternating({ ...base }, 'batch', [2, 1]),
      'head_mask [1, 0, 1, 0] then [0, 1, 0, 1]': () => alternating({ ...base }, 'head_mask', [[1, 0, 1, 0], [0, 1, 0, 1]]),
      'dropout 0 then 0.5': () => alternating({ ...base, seed: 3 }, 'dropout', [0, 0.5]),
    };
    for (const [what, make] of Object.entries(cases)) {
      const s = singleForward(CONFIG, W, make());
      const r = await layer.forward(make());
      assertClose(`${what}: output`, r.output, s.output);
      if (s.weights) assertClose(`${what}: weights`, r.weights, s.weights);
      else assert.equal(r.weights, null, `${what}: no weights`);
    }
  }));

test('an into array whose own length lies is measured by its typed-array slots: a clear error or the correct result', () =>
  withPool({ workers: 2, splitFlops: 0 }, CONFIG, async (layer) => {
    await layer.setWeights(W);
    const input = { query: randomArray(3 * 16, 3), n_q: 3, need_weights: true };
    const s = singleForward(CONFIG, W, input);
    const wanted = /into\.output must be a Float32Array of length 48 \(\[batch, n_q, d_model\] = \[1, 3, 16\]\), got /;
    // Too short, claiming the right length: refused (it used to be written up to its real end only).
    class ClaimsRight extends Float32Array { get length() { return 48; } }
    await assert.rejects(layer.forward({ ...input, into: { output: new ClaimsRight(8) } }), wanted);
    // A Proxy has no typed-array slots: it is not a Float32Array, whatever it answers.
    await assert.rejects(layer.forward({ ...input, into: { output: new Proxy(new Float32Array(48), {}) } }), wanted);
    // The right size, claiming less: every value is written (it used to stop at the claimed length).
    class ClaimsLess extends Float32Array { get length() { return 4; } }
    const less = new ClaimsLess(48).fill(7);
    assert.equal((await layer.forward({ ...input, into: { output: less } })).output, less);
    assertClose('output into an array claiming a length of 4', Float32Array.from(new Float32Array(less.buffer)), s.output);
    const own = new Float32Array(48).fill(7);
    Object.defineProperty(own, 'length', { value: 1 });
    await layer.forward({ ...input, into: { output: own } });
    assertClose('output into an array with an own length of 1', new Float32Array(own.buffer), s.output);
    // A subclass whose set() does nothing: the weights are written with the built-in set.
    class NoSet extends Float32Array { set() {} }
    const weights = new NoSet(4 * 9);
    await layer.forward({ ...input, into: { weights } });
    assertClose('weights into an array whose set() does nothing', new Float32Array(weights.buffer), s.weights);
    // An input whose length lies is copied whole.
    const query = new ClaimsLess(48);
    query.set(input.query);
    assertClose('query claiming a length of 4', (await layer.forward({ ...input, query })).output, s.output);
  }));

test('the record is checked once, with the engine\'s messages, before anything is posted', () =>
  withPool({ workers: 2, splitFlops: 0 }, CONFIG, async (layer, pool) => {
    await layer.sendWeights(); // the layer lives in both workers: a pass would post only 'forward'
    const posted = [];
    for (const i of [0, 1]) {
      const worker = pool[poolInternals].worker(i);
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (message, transfer) => {
        posted.push(message.op);
        post(message, transfer);
      };
    }
    const query = randomArray(2 * 4 * 16, 5);
    const bad = [
      { query, batch: 2, n_q: 4, head_mask: [1, 2] },
      { query, batch: 2, n_q: 4, head_mask: new Proxy([1, 1, 1, 1], {}), mask: { padding: [4, 'x'] } },
      { query, batch: 2, n_q: 4, dropout: 1 },
      { query, batch: 2, n_q: 4, n_k: 5 },
      { query: new Proxy(query, {}), batch: 2, n_q: 4 },
      { query, batch: 2, n_q: 4, into: [] },
    ];
    for (const input of bad) {
      let expected;
      assert.throws(() => singleForward(CONFIG, W, input), (e) => { expected = e.message; return true; });
      await assert.rejects(layer.forward(input), { message: expected });
    }
    assert.deepEqual(posted, [], 'nothing was posted for a call that must fail');
  }));
