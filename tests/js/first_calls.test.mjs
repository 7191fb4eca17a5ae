// The README promises that heapAllocated() is the same before and after any call, apart from what
// the call keeps (a layer, a trainer) until delete(). That held from the second call on, but the
// first call of some kinds made a static table the module then kept for good: the task table (the
// first trainingCost left +20 bytes) and the bucket arrays of the layer and trainer tables (+8
// bytes after the first layer's or trainer's delete()). Each check here loads a FRESH module, so
// the call measured is the first of its kind in that module.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/src/engine/attention.js';

const query = new Float32Array(3 * 8).map((_, i) => Math.sin(i));
const firstCalls = {
  'trainingCost': (a) => a.trainingCost({ task: 'reverse', d_model: 8, n_heads: 2, seq_len: 4 }),
  'a layer made and deleted': (a) => new a.MultiHeadAttention({ d_model: 8, n_heads: 2 }).delete(),
  'a trainer made and deleted': (a) => a.createTrainer({ d_model: 8, n_heads: 2, seq_len: 4, batch: 1 }).delete(),
  'a trainer stepped, scored, sampled and deleted': (a) => {
    const t = a.createTrainer({ task: 'lookup', d_model: 8, n_heads: 2, seq_len: 4, batch: 1 });
    t.step(2); t.evaluate({ samples: 5 }); t.attentionMaps({ sample: 1 }); t.weights();
    t.delete();
  },
  'a layer forward (weights) and deleted': (a) => {
    const mha = new a.MultiHeadAttention({ d_model: 8, n_heads: 2 });
    mha.forward({ query, n_q: 3, need_weights: true, mask: 'causal' });
    mha.delete();
  },
  'two layers, deleted in the order made': (a) => {
    const one = new a.MultiHeadAttention({ d_model: 8, n_heads: 2 }), two = new a.MultiHeadAttention({ d_model: 8, n_heads: 2 });
    one.delete(); two.delete();
  },
  'analyze': (a) => a.analyze({ d_model: 8, n_heads: 2, n_q: 3, n_k: 3 }),
  'maskGrid': (a) => a.maskGrid({ mask: 'causal', n_q: 3, n_k: 3 }),
  'positionalEncoding': (a) => a.positionalEncoding({ n: 4, d_model: 8 }),
  'sqrtDkGradients': (a) => a.sqrtDkGradients({ d_k_values: [4], n_k: 4, samples: 8 }),
  'embedTokens': (a) => a.embedTokens({ words: [['a', 'b']], d_model: 8 }),
};

for (const simd of [true, false]) {
  const isa = simd ? 'simd' : 'scalar';
  test(`${isa}: the first call of each kind in a fresh module leaves heapAllocated() where it was`, async () => {
    const leaks = [];
    for (const [name, call] of Object.entries(firstCalls)) {
      // A fresh core module and a fresh labs module (the trainers and the gradient lab run there): both heaps.
      const attn = await (await loadAttention({ simd })).labs();
      const heap = () => attn.heapAllocated() + attn.labs.heapAllocated();
      const before = heap();
      call(attn);
      const after = heap();
      if (after !== before) leaks.push(`${name}: ${before} → ${after} bytes`);
    }
    assert.deepEqual(leaks, [], `first calls that left bytes behind:\n${leaks.join('\n')}`);
  });
}
