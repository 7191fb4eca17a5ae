// Grouped-query attention, head_mask, constructed heads and head comparison through the
// JavaScript API, in both modules: against a float64 reference with K and V heads repeated by
// hand, the pattern strengths on the page's default sentence (inputs made by the
// page's own code), every bad argument by its message, and no memory left behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { mhaReference, normwiseError, randomArray } from './reference.mjs';
import { expanded } from './repeated_heads.mjs';
import { buildInputs, labelsFor, tokenize } from '../../web/src/model/inputs.js';

const TOLERANCE = 1e-5;
const SENTENCE = 'the cat sat on the mat because it was warm'; // the page's default text
const INPUT_SEED = 7; // the page's default input_seed

/** Wᴼ with the rows of head h multiplied by mask[h]: the float64 meaning of head_mask. */
function maskedWo(w, mask, d_v, d_model) {
  const wo = Float64Array.from(w.wo);
  mask.forEach((m, h) => { for (let i = h * d_v * d_model; i < (h + 1) * d_v * d_model; i++) wo[i] *= m; });
  return { ...w, wo };
}

/** The page's inputs for its default view, made by the page's own code: tokens, word embedding + positional encoding. */
function pageInputs(attn, d_model) {
  const tokens = tokenize(SENTENCE);
  const n = tokens.length;
  const { query } = buildInputs({ source: 'text', tokens_q: [tokens], batch: 1, n_q: n, n_k: n, d_model, cross: false,
    input_seed: INPUT_SEED }, attn);
  return { words: [labelsFor(tokens, n)], tokens, n, query };
}

// Word embeddings (d_model 4, seed 3) printed by the page's former JavaScript generator
// (model/inputs.js wordEmbedding: FNV-1a, its mixing stream, Box–Muller; deleted since the page
// asks the engine), so the engine's numbers are pinned to what links made before still show.
const FORMER_PAGE_EMBEDDINGS = {
  le: [-1.83414149, 0.0998780876, 0.829173148, 1.02065003],
  chat: [-0.0388242640, -0.552664518, 0.533602417, 0.494711548],
  'était': [-1.07653403, 1.39085877, 0.00923215132, -1.18484449],
  '<pad>': [0.915529907, -0.662376106, 0.912874937, -0.0312262867],
};

const GQA_CASES = [
  { name: 'GQA 8 heads / 2, self, causal, batch 2', d_model: 32, n_heads: 8, n_kv_heads: 2, batch: 2, n_q: 9, n_k: 9, mask: 'causal' },
  { name: 'MQA 4 heads / 1, cross, padding', d_model: 24, n_heads: 4, n_kv_heads: 1, batch: 2, n_q: 5, n_k: 11, cross: true, mask: { padding: [11, 3] } },
  { name: 'GQA 6 / 3, d_k ≠ d_v, no bias', d_model: 24, n_heads: 6, n_kv_heads: 3, d_k: 5, d_v: 7, bias: false, batch: 1, n_q: 7, n_k: 7, mask: 'none' },
];

for (const [isa, attn] of Object.entries(modules)) {
  for (const [index, c] of GQA_CASES.entries()) {
    test(`${isa}: ${c.name} matches float64 with K and V heads repeated by hand, with and without head_mask`, () => {
      const mha = new attn.MultiHeadAttention({ d_model: c.d_model, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads, d_k: c.d_k,
        d_v: c.d_v, bias: c.bias ?? true, seed: 3 + index });
      try {
        assert.equal(mha.n_kv_heads, c.n_kv_heads);
        const w = mha.getWeights();
        assert.equal(w.wk.length, c.d_model * c.n_kv_heads * mha.d_k);
        assert.equal(w.wv.length, c.d_model * c.n_kv_heads * mha.d_v);
        const query = randomArray(c.batch * c.n_q * c.d_model, 50 + index);
        const key = c.cross ? randomArray(c.batch * c.n_k * c.d_model, 60 + index) : query;
        const value = c.cross ? randomArray(c.batch * c.n_k * c.d_model, 70 + index) : query;
        const args = { query, batch: c.batch, n_q: c.n_q, mask: c.mask, ...(c.cross ? { key, value, n_k: c.n_k } : {}) };
        const base = { query, key, value, batch: c.batch, n_q: c.n_q, n_k: c.n_k, d_model: c.d_model, n_heads: c.n_heads,
          d_k: mha.d_k, d_v: mha.d_v, mask: c.mask };
        for (const head_mask of [undefined, Array.from({ length: c.n_heads }, (_, h) => [1, 0, 0.5, -2][h % 4])]) {
          const ref = mhaReference({ ...base, weights: head_mask ? maskedWo(expanded(mha), head_mask, mha.d_v, c.d_model) : expanded(mha) });
          for (const need_weights of [true, false]) {
            const r = mha.forward({ ...args, need_weights, head_mask });
            const e = normwiseError(r.output, ref.output);
            assert.ok(e.error <= TOLERANCE, `output (need_weights ${need_weights}, head_mask ${head_mask}): ${e.error} at ${e.at}`);
            if (need_weights) assert.ok(normwiseError(r.weights, ref.weights).error <= TOLERANCE, 'weights');
          }
        }
      } finally {
        mha.delete();
      }
    });
  }

  test(`${isa}: n_kv_heads = n_heads is multi-head attention bit for bit; bad n_kv_heads are named`, () => {
    const a = new attn.MultiHeadAttention({ d_model: 32, n_heads: 4, seed: 5 });
    const b = new attn.MultiHeadAttention({ d_model: 32, n_heads: 4, n_kv_heads: 4, seed: 5 });
    try {
      assert.equal(a.n_kv_heads, 4);
      const query = randomArray(3 * 32, 9);
      const ra = a.forward({ query, n_q: 3, need_weights: true }), rb = b.forward({ query, n_q: 3, need_weights: true });
      assert.deepEqual(new Uint32Array(rb.output.buffer), new Uint32Array(ra.output.buffer));
      assert.deepEqual(rb.weights, ra.weights);
    } finally {
      a.delete();
      b.delete();
    }
    const make = (n_kv_heads) => () => new attn.MultiHeadAttention({ d_model: 64, n_heads: 8, n_kv_heads }).delete();
    assert.throws(make(0), /n_kv_heads must be at least 1 \(got 0\): 1 key\/value head is multi-query attention, n_heads \(8\) is multi-head attention/);
    assert.throws(make(-2), /n_kv_heads must be at least 1 \(got -2\)/);
    assert.throws(make(3), /n_heads \(8\) is not divisible by n_kv_heads \(3\).*choose one of 1, 2, 4, 8/);
    assert.throws(make(16), /n_kv_heads \(16\) is larger than n_heads \(8\)/);
    assert.throws(make(2.5), /n_kv_heads must be a whole number, got 2.5/);
    assert.throws(make('2'), /n_kv_heads must be a number, got "2" \(a string\)/);
    const g = new attn.MultiHeadAttention({ d_model: 32, n_heads: 4, n_kv_heads: 2 });
    try {
      const w = g.getWeights();
      assert.throws(() => g.setWeights({ ...w, wk: new Float32Array(32 * 32) }), /wk has 1,024 values but d_model×\(n_kv_heads·d_k\) = 32×16 needs 512/);
      assert.throws(() => g.setWeights({ ...w, bv: new Float32Array(32) }), /bv has 32 values but n_kv_heads·d_v = 16 needs 16/);
      g.setWeights(w); // the right sizes are taken
    } finally {
      g.delete();
    }
  });

  test(`${isa}: head_mask switches a head off exactly; all off leaves bᴼ; bad masks are named`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 4, n_kv_heads: 2, seed: 2 });
    try {
      const w = mha.getWeights();
      w.bo = randomArray(16, 4, 0.5);
      mha.setWeights(w);
      const query = randomArray(5 * 16, 11);
      const off = mha.forward({ query, n_q: 5, head_mask: new Float32Array([1, 1, 0, 1]) }).output;
      // The same layer with head 2's rows of Wᴼ zeroed gives the same bits.
      const wo = w.wo.slice();
      wo.fill(0, 2 * 4 * 16, 3 * 4 * 16);
      const cut = new attn.MultiHeadAttention({ d_model: 16, n_heads: 4, n_kv_heads: 2, seed: 2 });
      cut.setWeights({ ...w, wo });
      const zeroed = cut.forward({ query, n_q: 5 }).output;
      cut.delete();
      assert.deepEqual(off, zeroed);
      const none = mha.forward({ query, n_q: 5, head_mask: [0, 0, 0, 0] }).output;
      for (let i = 0; i < none.length; i++) assert.equal(none[i], w.bo[i % 16], `output ${i}`);
      assert.throws(() => mha.forward({ query, n_q: 5, head_mask: [1, 1] }), /head_mask has 2 values; it needs one per head, n_heads = 4/);
      assert.throws(() => mha.forward({ query, n_q: 5, head_mask: [1, NaN, 1, 1] }), /head_mask contains NaN at index 1/);
      assert.throws(() => mha.forward({ query, n_q: 5, head_mask: [1, '0', 1, 1] }), /head_mask\[1\] must be a number, got "0" \(a string\)/);
      assert.throws(() => mha.forward({ query, n_q: 5, head_mask: new Float32Array(3) }), /head_mask has 3 values but n_heads = 4 needs 4/);
    } finally {
      mha.delete();
    }
  });

  test(`${isa}: embedTokens gives the page's inputs bit for bit`, () => {
    const { words, n, query } = pageInputs(attn, 64);
    assert.deepEqual(attn.embedTokens({ words, d_model: 64, seed: INPUT_SEED }), query);
    // Case is ignored as the page does; several rows, a French word, padding.
    const rows = [['Le', 'chat', 'était'], ['le', '<pad>', '<pad>']];
    const pe = attn.positionalEncoding({ n: 3, d_model: 4 });
    const page = new Float32Array(2 * 3 * 4);
    rows.forEach((row, b) => row.forEach((word, pos) => {
      const e = FORMER_PAGE_EMBEDDINGS[word.toLowerCase()];
      for (let c = 0; c < 4; c++) page[(b * 3 + pos) * 4 + c] = Math.fround(e[c]) + pe[pos * 4 + c];
    }));
    assert.deepEqual(attn.embedTokens({ words: rows, d_model: 4, seed: 3 }), page);
    assert.equal(n, 10);
    assert.throws(() => attn.embedTokens({ words: [['a', 'b'], ['c']], d_model: 4 }), /words\[1\] has 1 words, words\[0\] has 2: fill short rows with '<pad>'/);
    assert.throws(() => attn.embedTokens({ words: [['a', 3]], d_model: 4 }), /words\[0\]\[1\] must be a string, got 3 \(a number\)/);
    assert.throws(() => attn.embedTokens({ words: 'the cat', d_model: 4 }), /words must be an array of rows of words/);
  });

  test(`${isa}: constructed heads reach the issue's strengths on the page's default sentence`, () => {
    const { words, n, tokens, query } = pageInputs(attn, 64);
    const mha = new attn.MultiHeadAttention({ d_model: 64, n_heads: 4, seed: 1 }); // the page's default layer
    try {
      const info = mha.setHeadPatterns({ heads: [{ head: 0, pattern: 'previous' }, { head: 1, pattern: 'same_word' },
        { head: 2, pattern: 'first_token' }, { head: 3, pattern: 'uniform' }], query_words: words, input_seed: INPUT_SEED });
      assert.deepEqual(info.map((r) => r.pattern), ['previous', 'same_word', 'first_token', 'uniform']);
      assert.ok(info[0].exact && info[0].fit_error < 1e-4, `exact ${info[0].exact}, fit error ${info[0].fit_error}`);
      assert.equal(info[0].omega[0], 1);
      assert.deepEqual(mha.getHeadPatterns().map((p) => p.pattern), ['previous', 'same_word', 'first_token', 'uniform']);
      const w = mha.forward({ query, n_q: n, need_weights: true }).weights;
      const at = (h, i, j) => w[(h * n + i) * n + j];
      let previous = 1, same = 1, first = 1, uniform = 0;
      for (let i = 0; i < n; i++) {
        if (i >= 1) previous = Math.min(previous, at(0, i, i - 1));
        first = Math.min(first, at(2, i, 0));
        let match = 0, has = false;
        for (let j = 0; j < n; j++) {
          if (j !== i && tokens[j] === tokens[i]) { match += at(1, i, j); has = true; }
          uniform = Math.max(uniform, Math.abs(at(3, i, j) - 1 / n));
        }
        if (has) same = Math.min(same, match);
      }
      console.log(`${isa}: previous ${previous.toFixed(4)}, same_word ${same.toFixed(4)}, first_token ${first.toFixed(4)}, uniform |w − 1/n_k| ${uniform.toExponential(2)}`);
      assert.ok(previous >= 0.8, `previous ${previous}`);
      assert.ok(same >= 0.8, `same_word ${same}`);
      assert.ok(first >= 0.8, `first_token ${first}`);
      assert.ok(uniform <= 1e-6, `uniform ${uniform}`);

      // The comparison sees four different heads; the metrics are what the weights say.
      const c = mha.compareHeads({ query, n_q: n });
      assert.ok(Math.abs(c.heads[3].entropy - Math.log(n)) < 1e-6, `uniform entropy ${c.heads[3].entropy}`);
      assert.equal(c.max_entropy, Math.log(n));
      assert.ok(c.divergence[0 * 4 + 2] > 0.3);
      assert.equal(c.divergence.length, 16);
      assert.deepEqual([...c.ablation.order].sort(), [0, 1, 2, 3]);
      const m = attn.headMetrics({ weights: w, batch: 1, n_heads: 4, n_q: n, n_k: n });
      assert.deepEqual(m.heads, c.heads);
    } finally {
      mha.delete();
    }
  });

  test(`${isa}: head metrics on hand-made maps against float64 formulas`, () => {
    // One head of one-hot rows on the diagonal, one of uniform rows: n_q = 2, n_k = 4.
    const weights = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25]);
    const m = attn.headMetrics({ weights, n_heads: 2, n_q: 2, n_k: 4 });
    assert.equal(m.heads[0].entropy, 0);
    assert.equal(m.heads[0].distance, 0);
    assert.equal(m.heads[0].max_weight, 1);
    assert.ok(Math.abs(m.heads[1].entropy - Math.log(4)) < 1e-12);
    assert.ok(Math.abs(m.heads[1].distance - ((0 + 1 + 2 + 3) / 4 + (1 + 0 + 1 + 2) / 4) / 2) < 1e-12);
    // JS(one-hot, uniform over 4) = ½·ln(1/m₀) + ½·[¼·ln(¼/m₀) + 3·¼·ln(¼/⅛)], m₀ = 5/8.
    const js = 0.5 * Math.log(1 / 0.625) + 0.5 * (0.25 * Math.log(0.25 / 0.625) + 0.75 * Math.log(2));
    assert.ok(Math.abs(m.divergence[1] - js) < 1e-12, `${m.divergence[1]} vs ${js}`);
    assert.ok(Math.abs(m.similarity[1] - (1 - js / Math.log(2))) < 1e-12);
    assert.throws(() => attn.headMetrics({ weights: new Float32Array([0.5, 0, 0, 0]), n_heads: 1, n_q: 1, n_k: 4 }),
      /row 0 sums to 0.5.*attention weights sum to 1/);
    assert.throws(() => attn.headMetrics({ weights, n_heads: 3, n_q: 2, n_k: 4 }), /weights has 16 values but \[batch, n_heads, n_q, n_k\] = \[1, 3, 2, 4\] needs 24/);
  });

  test(`${isa}: bad head patterns are refused by name and change nothing`, () => {
    const { words } = pageInputs(attn, 64);
    const mha = new attn.MultiHeadAttention({ d_model: 64, n_heads: 4 });
    try {
      const before = mha.getWeights().wq;
      const set = (heads, extra = {}) => () => mha.setHeadPatterns({ heads, query_words: words, ...extra });
      assert.throws(set([{ head: 0, pattern: 'previous token' }]), /unknown head pattern “previous token”; choose one of random, uniform, previous, same_word, first_token/);
      assert.throws(set([{ head: 4, pattern: 'previous' }]), /head 4 does not exist: heads are 0..3/);
      assert.throws(set([{ head: 1, pattern: 'uniform' }, { head: 1, pattern: 'random' }]), /head 1 is given more than one pattern/);
      assert.throws(set([{ head: 0, pattern: 'previous', strength: -1 }]), /strength must be a number in \[0, 1,000,000\]/);
      assert.throws(set([{ head: 0, pattern: 'previous', k: 0 }]), /heads\[0\].k must be at least 1, got 0/);
      assert.throws(set([{ head: 0, pattern: 3 }]), /heads\[0\].pattern must be a string, got 3 \(a number\)/);
      assert.throws(set([{ head: 0, pattern: 'previous', width: 2 }]), /heads\[0\]: unknown option 'width'/);
      assert.throws(() => mha.setHeadPatterns({ heads: [{ head: 0, pattern: 'same_word' }] }), /constructed heads need the tokens of the inputs/);
      assert.throws(set([{ head: 0, pattern: 'previous' }], { key_words: [['a'], ['b']] }), /key_words has 2 batch items, query_words 1/);
      assert.deepEqual(mha.getWeights().wq, before);
      // Random and uniform need no words; random is the layer's own initialisation.
      mha.setHeadPatterns({ heads: [{ head: 2, pattern: 'uniform' }] });
      mha.setHeadPatterns({ heads: [{ head: 2, pattern: 'random' }] });
      assert.deepEqual(mha.getWeights().wq, before);
      mha.setWeights(mha.getWeights());
      assert.deepEqual(mha.getHeadPatterns().map((p) => p.pattern), ['custom', 'custom', 'custom', 'custom']);
    } finally {
      mha.delete();
    }
  });

  test(`${isa}: analyze follows n_kv_heads and counts the key/value cache; the model table has it per token`, () => {
    const llama = attn.analyze({ d_model: 8192, n_heads: 64, n_kv_heads: 8, n: 4096, bias: false, n_layers: 80 });
    assert.equal(llama.dims.n_kv_heads, 8);
    assert.equal(llama.params.total, 150994944);
    assert.equal(llama.params_gqa, 150994944);
    assert.equal(llama.params_mha, 4 * 8192 * 8192);
    assert.equal(llama.kv_cache.numbers_per_token, 163840);
    assert.equal(llama.kv_cache.bytes, 655360 * 4096);
    assert.equal(llama.kv_cache.ratio, 8);
    assert.equal(llama.flops.stages[1].macs, 4096 * 8192 * 1024);
    assert.throws(() => attn.analyze({ d_model: 64, n_heads: 8, n_kv_heads: 0, n: 4 }), /n_kv_heads must be at least 1 \(got 0\)/);
    const mhaOnly = attn.analyze({ d_model: 64, n_heads: 8, n: 4 });
    assert.equal(mhaOnly.params_gqa, undefined);
    assert.equal(mhaOnly.kv_cache.ratio, 1);
    const presets = attn.modelPresets();
    const row = presets.find((p) => p.name === 'LLaMA-70B');
    assert.equal(row.n_layers, 80);
    assert.equal(row.kv_cache_per_token.numbers_per_token, 163840);
    assert.equal(row.kv_cache_per_token.mha_bytes_per_token, 8 * 655360);
  });

  test(`${isa}: the new calls leave no memory behind, failed or not`, () => {
    const { words, n, query } = pageInputs(attn, 64);
    const mha = new attn.MultiHeadAttention({ d_model: 64, n_heads: 4, n_kv_heads: 2 });
    const round = () => {
      mha.setHeadPatterns({ heads: [{ head: 0, pattern: 'previous' }, { head: 1, pattern: 'same_word' }], query_words: words, input_seed: 7 });
      mha.compareHeads({ query, n_q: n, head_mask: [1, 1, 0, 1] });
      attn.embedTokens({ words, d_model: 64 });
      assert.throws(() => mha.setHeadPatterns({ heads: [{ head: 9, pattern: 'previous' }], query_words: words }));
      assert.throws(() => mha.forward({ query, n_q: n, head_mask: [1, Infinity, 1, 1] }));
    };
    try {
      round();
      const heap = attn.heapAllocated(), stack = attn.stackPointer();
      for (let i = 0; i < 20; i++) round();
      assert.equal(attn.heapAllocated(), heap);
      assert.equal(attn.stackPointer(), stack);
    } finally {
      mha.delete();
    }
  });
}
