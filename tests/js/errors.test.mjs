// Every bad input reaches JavaScript as an Error that names the problem, in both modules:
// never a crash, an abort, a bare number or a silent 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';

const throwsWith = (fn, pattern) => assert.throws(fn, (e) => {
  assert.ok(e instanceof Error, `expected an Error, got ${typeof e}: ${e}`);
  assert.match(e.message, pattern);
  return true;
});

for (const [isa, attn] of Object.entries(modules)) {
  test(`${isa}: bad layer configurations`, () => {
    throwsWith(() => new attn.MultiHeadAttention({ d_model: 510, n_heads: 8 }), /^d_model \(510\) is not divisible by n_heads \(8\)/);
    throwsWith(() => new attn.MultiHeadAttention({ d_model: 0, n_heads: 8 }), /d_model must be at least 1, got 0/);
    throwsWith(() => new attn.MultiHeadAttention({ d_model: -4, n_heads: 2 }), /d_model must be at least 1, got -4/);
    throwsWith(() => new attn.MultiHeadAttention({ d_model: '512', n_heads: 8 }), /d_model must be a number, got "512" \(a string\)/);
    throwsWith(() => new attn.MultiHeadAttention({ d_model: 512, n_heads: 8.5 }), /n_heads must be a whole number, got 8.5/);
    throwsWith(() => new attn.MultiHeadAttention({ n_heads: 8 }), /d_model is required/);
    throwsWith(() => new attn.MultiHeadAttention({ d_model: 512, heads: 8 }), /unknown option 'heads'/);
    throwsWith(() => new attn.MultiHeadAttention(512), /expects an options object, got 512/);
    throwsWith(() => new attn.MultiHeadAttention({ d_model: 8, n_heads: 16 }), /n_heads \(16\) is larger than d_model \(8\)/);
    throwsWith(() => new attn.MultiHeadAttention({ d_model: 12288, n_heads: 96 }), /needs 4,832,231,424 bytes .* over the memory budget of 1,073,741,824 bytes/);
    // d_model not divisible is fine when d_k and d_v are given
    const ok = new attn.MultiHeadAttention({ d_model: 510, n_heads: 8, d_k: 64, d_v: 32 });
    assert.equal(ok.d_v, 32);
    ok.delete();
  });

  test(`${isa}: bad forward inputs`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 });
    const query = new Float32Array(2 * 4 * 8);
    const f = (extra) => () => mha.forward({ query, batch: 2, n_q: 4, ...extra });
    throwsWith(f({ query: new Float32Array(10) }), /query has 10 values but \[batch, n_q, d_model\] = \[2, 4, 8\] needs 64/);
    throwsWith(f({ query: Array.from(query) }), /query must be a Float32Array, got an array of length 64/);
    throwsWith(f({ query: new Float64Array(64) }), /query must be a Float32Array, got a Float64Array/);
    throwsWith(f({ n_q: 0 }), /n_q must be at least 1, got 0/);
    throwsWith(f({ n_q: '4' }), /n_q must be a number, got "4"/);
    throwsWith(f({ batch: 1.5 }), /batch must be a whole number, got 1.5/);
    throwsWith(f({ mask: 'cuasal' }), /unknown mask 'cuasal'/);
    throwsWith(f({ mask: { padding: [4] } }), /mask.padding has 1 key lengths but batch is 2/);
    throwsWith(f({ mask: { padding: [4, 5] } }), /key length of batch item 1 is 5, outside 0..4 \(n_k\)/);
    throwsWith(f({ mask: new Uint8Array(3) }), /mask matrix has 3 entries but n_q×n_k = 4×4 = 16/);
    throwsWith(f({ mask: { causal: 'yes' } }), /mask.causal must be true or false/);
    throwsWith(f({ dropout: 1 }), /dropout must be in \[0, 1\), got 1/);
    throwsWith(f({ dropout: -0.1 }), /dropout must be in \[0, 1\)/);
    throwsWith(f({ dropout: 0.99999999 }), /dropout must be in \[0, 1\), got 0.99999999/);
    throwsWith(f({ key: query }), /give both key and value \(cross-attention\) or neither/);
    throwsWith(f({ key: query, value: new Float32Array(8), n_k: 4 }), /value has 8 values but \[batch, n_k, d_model\] = \[2, 4, 8\] needs 64/);
    throwsWith(f({ n_k: 5 }), /self-attention needs n_k = n_q/);
    throwsWith(f({ need_weight: true }), /unknown option 'need_weight'/);
    const nan = query.slice();
    nan[13] = NaN;
    throwsWith(f({ query: nan }), /query contains NaN at index 13 \(row 1, column 5\)/);
    const inf = query.slice();
    inf[2] = -Infinity;
    throwsWith(f({ key: query, value: inf, n_k: 4 }), /value contains -Infinity at index 2/);
    throwsWith(f({ memory_budget: 1000 }), /this forward pass needs [\d,]+ bytes .*over the memory budget of 1,000 bytes/);
    mha.delete();
    throwsWith(f({}), /this MultiHeadAttention was deleted/);
  });

  test(`${isa}: bad weights, analysis and helper calls`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 });
    const w = mha.getWeights();
    throwsWith(() => mha.setWeights({ ...w, wq: new Float32Array(3) }), /wq has 3 values but d_model×\(n_heads·d_k\) = 8×8 needs 64/);
    throwsWith(() => mha.setWeights({ ...w, bo: undefined }), /setWeights: bo is required/);
    const bad = w.wv.slice();
    bad[5] = NaN;
    throwsWith(() => mha.setWeights({ ...w, wv: bad }), /wv contains NaN at index 5/);
    mha.delete();
    const noBias = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2, bias: false });
    throwsWith(() => noBias.setWeights({ ...w }), /bq was given but this layer was made with bias: false/);
    noBias.delete();
    throwsWith(() => attn.analyze({ d_model: 510, n_heads: 8, n: 4 }), /d_model \(510\) is not divisible by n_heads \(8\)/);
    throwsWith(() => attn.analyze({ d_model: 512, n_heads: 8 }), /n_q is required/);
    throwsWith(() => attn.analyze({ d_model: 1024, n_heads: 16, batch: 2 ** 31 - 1, n: 2 ** 31 - 1 }),
      /batch, n_q and n_k must each be at most 1,048,576/);
    throwsWith(() => attn.analyze({ d_model: 1024, n_heads: 16, batch: 2 ** 20, n: 2 ** 20 }),
      /too large to count exactly: about .* FLOPs, more than 2\^53/);
    // Finite inputs whose scores overflow float32 are refused, never turned into NaN.
    throwsWith(() => attn.scaledDotProductAttention({ q: new Float32Array([1e20, 1e20]), k: new Float32Array([1e20, 1, -1e20, 2]),
      v: new Float32Array([1, 2]), n_q: 1, n_k: 2, d_k: 2, d_v: 1 }), /attention scores can overflow float32/);
    const huge = new attn.MultiHeadAttention({ d_model: 4, n_heads: 1 });
    const hw = huge.getWeights();
    huge.setWeights({ ...hw, wo: hw.wo.map(() => 3e38) });
    throwsWith(() => huge.forward({ query: new Float32Array(8).fill(1), n_q: 2 }), /the output overflowed float32 at batch item 0, query 0: the inputs or weights are too large/);
    huge.delete();
    throwsWith(() => attn.positionalEncoding({ n: 0, d_model: 4 }), /n must be at least 1, got 0/);
    throwsWith(() => attn.positionalEncoding({ n: 100000, d_model: 1000 }), /too large to tabulate/);
    throwsWith(() => attn.scaledDotProductAttention({ q: new Float32Array(4), k: new Float32Array(4), v: new Float32Array(4), n_q: 2, n_k: 2, d_k: 3 }),
      /q has 4 values but \[batch, n_q, d_k\] = \[1, 2, 3\] needs 6/);
    throwsWith(() => attn.sqrtDkStats({ d_k: 4096, n_k: 4096, samples: 1000 }), /at most 50,000,000/);
    throwsWith(() => attn.matmul({ a: new Float32Array(6), b: new Float32Array(5), m: 2, k: 3, n: 2 }), /b has 5 values but k×n = 3×2 needs 6/);
    // m·n past 2^32: refused by the budget before anything is allocated (it used to wrap and write out of bounds)
    throwsWith(() => attn.matmul({ a: new Float32Array(65536), b: new Float32Array(65537), m: 65536, k: 1, n: 65537 }),
      /this matmul needs 17,180,655,620 bytes .* over the memory budget/);
  });
}

test('loadAttention rejects unknown options', async () => {
  const { loadAttention } = await import('../../web/src/engine/attention.js');
  await assert.rejects(loadAttention({ simdd: true }), /unknown option 'simdd'/);
});
