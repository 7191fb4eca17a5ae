// A page may add enumerable properties to Object.prototype (old libraries did). The engine reads
// only the own keys of the options it is given and of the records it sends to the core: before
// the fix, recordBytes' for-in picked up Object.prototype.extra and the core refused the call
// with "unknown option 'extra'".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';

const attn = modules.simd;
const VIEW = { d_model: 24, n_heads: 6, n_kv_heads: 2, n_q: 5, n_k: 7, batch: 2, mask: 'causal' };
const LAYER = { d_model: 24, n_heads: 6, n_kv_heads: 2, bias: true, seed: 7 };

function run() {
  const view = attn.resolveView(VIEW);
  const mha = new attn.MultiHeadAttention(LAYER);
  try {
    const query = new Float32Array(2 * 5 * 24).map((_, i) => Math.sin(i * 0.37));
    const key = new Float32Array(2 * 7 * 24).map((_, i) => Math.cos(i * 0.11));
    const out = mha.forward({ query, key, value: key, batch: 2, n_q: 5, n_k: 7, mask: { causal: true }, need_weights: true });
    const a = attn.analyze({ d_model: 24, n_heads: 6, n_kv_heads: 2, bias: true, batch: 2, n_q: 5, n_k: 7 });
    return { view, output: out.output, weights: out.weights, flops: a.flops.exact_flops };
  } finally {
    mha.delete();
  }
}

test('an enumerable Object.prototype property changes nothing: resolveView, a layer, forward and analyze', () => {
  const clean = run();
  assert.equal(clean.view.ok, true);
  let polluted;
  Object.prototype.extra = 1; // eslint-disable-line no-extend-native
  try {
    polluted = run();
  } finally {
    delete Object.prototype.extra;
  }
  assert.equal('extra' in {}, false, 'Object.prototype restored');
  assert.deepEqual(polluted.view, clean.view);
  assert.deepEqual(polluted.output, clean.output, 'the same output, bit for bit');
  assert.deepEqual(polluted.weights, clean.weights);
  assert.equal(polluted.flops, clean.flops);
});
