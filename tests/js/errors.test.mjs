// Runs in a process of its own: tests/js/modules.mjs catches each wasm module's memory as it is first
// instantiated, and these checks view, grow or break that memory; in a process where another file loaded the
// engines first (tests/browser/run.mjs's lanes), 2 to 4 of them failed (2026-11-29).
// Every bad input reaches JavaScript as an Error that names the problem, in both modules:
// never a crash, an abort, a bare number or a silent 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import vm from 'node:vm';
import { modules, wasmMemories } from './modules.mjs';

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
      v: new Float32Array([1, 2]), n_q: 1, n_k: 2, d_k: 2, d_v: 1 }), /attention scores can overflow float32: \|q\|·\|k\|·scale reaches 1e\+40 \(head 0\), not below 1e38;/);
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
    // Inputs over the memory budget on their own are refused before they are copied into the engine's
    // memory, which never shrinks (a hostile probe: 512 MB copied, then refused, 1 GB held).
    const small = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 });
    const memory = attn.memoryBytes();
    throwsWith(() => small.forward({ query: new Float32Array(4096 * 8), n_q: 4096, memory_budget: 100000 }),
      /^the inputs alone take 131,072 bytes, over the memory budget of 100,000 bytes$/);
    throwsWith(() => small.forward({ query: new Float32Array(8), key: new Float32Array(8 * 3000), value: new Float32Array(8 * 3000), n_q: 1, n_k: 3000, memory_budget: 150000 }),
      /^the inputs alone take 192,032 bytes, over the memory budget of 150,000 bytes/);
    assert.equal(attn.memoryBytes(), memory);
    // Within the budget, the core's own count (inputs, weights, work) decides as before.
    throwsWith(() => small.forward({ query: new Float32Array(4096 * 8), n_q: 4096, memory_budget: 200000 }), /this forward pass needs .* over the memory budget of 200,000 bytes/);
    // The same for every call whose inputs the core counts in its budget: a backward pass (grad_output too),
    // scaled dot-product attention, its trace and its backward pass, and matmul (the default budget).
    const q = new Float32Array(4096 * 8), one = new Float32Array(8);
    throwsWith(() => small.backward({ query: new Float32Array(2048 * 8), n_q: 2048, grad_output: new Float32Array(2048 * 8), memory_budget: 100000 }),
      /^the inputs alone take 131,072 bytes, over the memory budget of 100,000 bytes$/);
    const sdpa = { q, k: one, v: one, n_q: 4096, n_k: 1, d_k: 8, memory_budget: 100000 };
    throwsWith(() => attn.scaledDotProductAttention(sdpa), /^the inputs alone take 131,136 bytes, over the memory budget of 100,000 bytes$/);
    throwsWith(() => attn.traceAttention({ ...sdpa, query_index: 0 }), /^the inputs alone take 131,136 bytes/);
    throwsWith(() => attn.scaledDotProductAttentionBackward({ ...sdpa, q: new Float32Array(2048 * 8), n_q: 2048, grad_output: new Float32Array(2048 * 8) }),
      /^the inputs alone take 131,136 bytes, over the memory budget of 100,000 bytes$/);
    // A call of no options refuses any (they were ignored), and takes none or {}.
    throwsWith(() => attn.modelPresets({ bogus: 1 }), /^modelPresets: unknown option 'bogus' \(expected one of: \)$/);
    assert.equal(attn.modelPresets({}).length, attn.modelPresets().length);
    // An explicit mask is copied in too (an 81 MB one grew the memory by 230 MB before the core refused the call).
    const n = 3000, t = new Float32Array(n);
    throwsWith(() => attn.scaledDotProductAttention({ q: t, k: t, v: t, n_q: n, n_k: n, d_k: 1, mask: new Uint8Array(n * n), memory_budget: 100000 }),
      /^the inputs and the mask alone take 9,036,000 bytes, over the memory budget of 100,000 bytes$/);
    throwsWith(() => new attn.MultiHeadAttention({ d_model: 4, n_heads: 2 }).forward({ query: new Float32Array(4 * n), n_q: n, mask: new Uint8Array(n * n), memory_budget: 200000 }),
      /^the inputs and the mask alone take 9,048,000 bytes, over the memory budget of 200,000 bytes$/);
    const side = Math.ceil(Math.sqrt(attn.defaultMemoryBudget / 8)) + 1; // a and b of side × side: over the default budget together
    const square = new Float32Array(side * side);
    throwsWith(() => attn.matmul({ a: square, b: square, m: side, k: side, n: side }), /^the inputs alone take [\d,]+ bytes, over the memory budget of [\d,]+ bytes$/);
    assert.equal(attn.memoryBytes(), memory, 'a refused call grew the wasm memory');
    // Within the budget the core decides, counting the mask too (Mask::bytes): what the guard lets through, the core
    // may take, and a call it refuses says why (it counted the mask nowhere, the guard in full: they disagreed).
    const within = { q: t, k: t, v: t, n_q: n, n_k: n, d_k: 1, mask: new Uint8Array(n * n) };
    assert.equal(attn.scaledDotProductAttention({ ...within, memory_budget: 10200000 }).output.length, n); // it needs 10,118,224 bytes, the mask 9,000,000 of them
    throwsWith(() => attn.scaledDotProductAttention({ ...within, memory_budget: 10000000 }), /^this attention needs 10,118,224 bytes .*over the memory budget of 10,000,000 bytes/);
    small.delete();
    // NaN and ±∞ are refused as by every other call, and a product of finite values past float32's range
    // too (they came back as NaN and Infinity).
    const two = new Float32Array([1, 2, 3, 4]);
    throwsWith(() => attn.matmul({ a: new Float32Array([1, 2, 3, NaN]), b: two, m: 2, k: 2, n: 2 }), /a contains NaN at index 3 \(row 1, column 1\)/);
    throwsWith(() => attn.matmul({ a: two, b: new Float32Array([1, -Infinity, 3, 4]), m: 2, k: 2, n: 2 }), /b contains -Infinity at index 1 \(row 0, column 1\)/);
    throwsWith(() => attn.matmul({ a: new Float32Array([3e38, 3e38, 1, 1]), b: new Float32Array([3e38, 0, 3e38, 0]), m: 2, k: 2, n: 2 }),
      /the product a·b overflowed float32/);
    assert.deepEqual([...attn.matmul({ a: two, b: new Float32Array([5, 6, 7, 8]), m: 2, k: 2, n: 2 })], [19, 22, 43, 50]);
  });
}

// A sentinel in the caller's arrays: a failed call must leave every value of it in place.
const SENTINEL = -7.25;
const sentinelArray = (n) => new Float32Array(n).fill(SENTINEL);
function assertUntouched(array, what) {
  const i = array.findIndex((x) => x !== SENTINEL);
  assert.equal(i, -1, `${what}: index ${i} was written (${array[i]}) by a call that failed`);
}

for (const [isa, attn] of Object.entries(modules)) {
  test(`${isa}: bad into destinations of forward and scaledDotProductAttention`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 });
    // output [2, 4, 8] and weights [2, 2, 4, 4] both hold 64 values, so one array could pass as either
    const query = new Float32Array(2 * 4 * 8);
    const f = (into, extra) => () => mha.forward({ query, batch: 2, n_q: 4, need_weights: true, into, ...extra });
    const ok = () => new Float32Array(64);
    throwsWith(f(new Float32Array(64)), /^into expects an options object, got a Float32Array of length 64$/);
    throwsWith(f(null), /^into expects an options object, got null$/);
    throwsWith(f({ outptu: ok() }), /^into: unknown option 'outptu' \(expected one of: output, weights\)$/);
    throwsWith(f({ output: new Float64Array(64) }), /^into.output must be a Float32Array, got a Float64Array of length 64$/);
    throwsWith(f({ output: Array.from(ok()) }), /^into.output must be a Float32Array, got an array of length 64$/);
    throwsWith(f({ weights: 'w' }), /^into.weights must be a Float32Array, got "w" \(a string\)$/);
    throwsWith(f({ output: new Float32Array(10) }), /^into.output has 10 values but \[batch, n_q, d_model\] = \[2, 4, 8\] needs 64$/);
    throwsWith(f({ output: ok(), weights: new Float32Array(63) }),
      /^into.weights has 63 values but \[batch, n_heads, n_q, n_k\] = \[2, 2, 4, 4\] needs 64$/);
    throwsWith(f({ weights: ok() }, { need_weights: false }), /^into.weights was given but need_weights is false/);
    throwsWith(f({ weights: ok() }, { need_weights: undefined }), /^into.weights was given but need_weights is false/);
    const same = ok();
    throwsWith(f({ output: same, weights: same }), /^into.output and into.weights are the same array/);
    const shared = new Float32Array(100);
    throwsWith(f({ output: shared.subarray(0, 64), weights: shared.subarray(36, 100) }),
      /^into.output \(bytes 0–256\) and into.weights \(bytes 144–400\) overlap in one buffer/);
    throwsWith(f({ output: shared.subarray(30, 94), weights: shared.subarray(0, 64) }),
      /^into.output \(bytes 120–376\) and into.weights \(bytes 0–256\) overlap in one buffer/);
    const heap = () => new Float32Array(wasmMemories[isa].buffer, 0, 64);
    assert.equal(heap().buffer.byteLength, attn.memoryBytes(), 'the test must view the module\'s current memory');
    throwsWith(f({ output: heap() }), /^into.output is a view of the wasm module's own memory, which the call may grow/);
    throwsWith(f({ output: ok(), weights: heap() }), /^into.weights is a view of the wasm module's own memory/);
    mha.delete();
    throwsWith(f({ output: ok() }), /this MultiHeadAttention was deleted/);

    // [batch, n_q, d_v] = [1, 2, 2] and [batch, n_q, n_k] = [1, 2, 3]
    const sdpa = (into, extra) => () => attn.scaledDotProductAttention({ q: new Float32Array(8), k: new Float32Array(12),
      v: new Float32Array(6), n_q: 2, n_k: 3, d_k: 4, d_v: 2, need_weights: true, into, ...extra });
    throwsWith(sdpa({ output: new Float32Array(5) }), /^into.output has 5 values but \[batch, n_q, d_v\] = \[1, 2, 2\] needs 4$/);
    throwsWith(sdpa({ weights: new Float32Array(4) }), /^into.weights has 4 values but \[batch, n_q, n_k\] = \[1, 2, 3\] needs 6$/);
    throwsWith(sdpa({ weights: new Float32Array(6) }, { need_weights: false }), /^into.weights was given but need_weights is false/);
    throwsWith(sdpa({ output: new Int32Array(4) }), /^into.output must be a Float32Array, got an Int32Array of length 4$/);
    throwsWith(sdpa({ out: new Float32Array(4) }), /^into: unknown option 'out'/);
    throwsWith(sdpa({ output: new Float32Array(wasmMemories[isa].buffer, 64, 4) }), /^into.output is a view of the wasm module's own memory/);
    const both = new Float32Array(8);
    throwsWith(sdpa({ output: both.subarray(0, 4), weights: both.subarray(2, 8) }), /^into.output \(bytes 0–16\) and into.weights \(bytes 8–32\) overlap/);
  });

  test(`${isa}: a call that fails writes nothing into the caller's arrays`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2, seed: 3 });
    const query = new Float32Array(2 * 4 * 8).map((_, i) => Math.cos(i));
    const nan = query.slice();
    nan[40] = NaN;
    const output = sentinelArray(64), weights = sentinelArray(64);
    const f = (extra) => () => mha.forward({ query, batch: 2, n_q: 4, need_weights: true, into: { output, weights }, ...extra });
    const failures = [
      [f({ query: nan }), /query contains NaN at index 40/],                                    // the core's input check
      [f({ memory_budget: 1000 }), /over the memory budget of 1,000 bytes/],                   // the core's budget
      [f({ into: { output, weights: new Float32Array(5) } }), /into.weights has 5 values/],    // JS: a good output beside a bad weights
      [f({ into: { output: new Float32Array(5), weights } }), /into.output has 5 values/],
      [f({ mask: { padding: [4, 9] } }), /key length of batch item 1 is 9/],
    ];
    for (const [call, message] of failures) {
      throwsWith(call, message);
      assertUntouched(output, `into.output after ${message}`);
      assertUntouched(weights, `into.weights after ${message}`);
    }
    mha.delete();
    // An error found in the middle of the computation: an output row that overflows float32.
    const huge = new attn.MultiHeadAttention({ d_model: 4, n_heads: 1 });
    const hw = huge.getWeights();
    huge.setWeights({ ...hw, wo: hw.wo.map(() => 3e38) });
    const hugeOut = sentinelArray(8), hugeWeights = sentinelArray(4);
    throwsWith(() => huge.forward({ query: new Float32Array(8).fill(1), n_q: 2, need_weights: true, into: { output: hugeOut, weights: hugeWeights } }),
      /the output overflowed float32/);
    huge.delete();
    assertUntouched(hugeOut, 'into.output after an overflow');
    assertUntouched(hugeWeights, 'into.weights after an overflow');

    const sdpaOut = sentinelArray(1), sdpaWeights = sentinelArray(2); // [1, 1, d_v = 1] and [1, 1, n_k = 2]
    const sdpa = (extra) => () => attn.scaledDotProductAttention({ q: new Float32Array([1, 2]), k: new Float32Array([1, 0, 0, 1]),
      v: new Float32Array([1, 2]), n_q: 1, n_k: 2, d_k: 2, d_v: 1, need_weights: true, into: { output: sdpaOut, weights: sdpaWeights }, ...extra });
    for (const [call, message] of [
      [sdpa({ k: new Float32Array([1, NaN, 0, 1]) }), /k contains NaN at index 1/],
      [sdpa({ q: new Float32Array([1e20, 1e20]), k: new Float32Array([1e20, 1, -1e20, 2]) }), /attention scores can overflow float32/],
      [sdpa({ memory_budget: 8 }), /over the memory budget of 8 bytes/],
    ]) {
      throwsWith(call, message);
      assertUntouched(sdpaOut, `SDPA into.output after ${message}`);
      assertUntouched(sdpaWeights, `SDPA into.weights after ${message}`);
    }
    // The same arrays then take a good call's results whole.
    const r = sdpa({})();
    assert.ok(r.output === sdpaOut && r.weights === sdpaWeights);
    assert.ok(sdpaWeights.every((x) => x !== SENTINEL) && Math.abs(sdpaWeights[0] + sdpaWeights[1] - 1) < 1e-6, `${sdpaWeights}`);
  });
}

test('loadAttention rejects unknown options', async () => {
  const { loadAttention } = await import('../../web/src/engine/attention.js');
  await assert.rejects(loadAttention({ simdd: true }), /unknown option 'simdd'/);
});

test('loadAttention `compiled`: a module compiled early is used for its own URL only; a failed or wrong one is compiled again', async () => {
  const { loadAttention } = await import('../../web/src/engine/attention.js');
  const { readFile } = await import('node:fs/promises');
  const url = (name) => new URL(`../../web/wasm/${name}.wasm`, import.meta.url).href;
  const simdModule = await WebAssembly.compile(await readFile(new URL(url('attention_simd'))));
  const check = async (attn, isa) => {
    assert.equal(attn.isa, isa);
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2, seed: 3 });
    const r = mha.forward({ query: new Float32Array(16).fill(0.5), n_q: 2, need_weights: true });
    assert.ok(Math.abs(r.weights[0] + r.weights[1] - 1) < 1e-6, `weights ${r.weights}`);
    mha.delete();
  };
  // Used: a thenable records that the engine took it.
  let taken = 0;
  const thenable = { then(resolve) { taken++; resolve(simdModule); } };
  await check(await loadAttention({ simd: true, compiled: { [url('attention_simd')]: thenable } }), 'wasm-simd128');
  assert.equal(taken, 1, 'the early compile was not used');
  // Another URL's module is not used: the baseline module is loaded from its own file.
  taken = 0;
  await check(await loadAttention({ simd: false, compiled: { [url('attention_simd')]: thenable } }), 'scalar');
  assert.equal(taken, 0, 'a module compiled for another URL was used');
  // A failed early compile, or something that is not a module: the engine compiles its own.
  const failed = Promise.reject(new Error('network down'));
  failed.catch(() => {});
  await check(await loadAttention({ simd: true, compiled: { [url('attention_simd')]: failed } }), 'wasm-simd128');
  await check(await loadAttention({ simd: true, compiled: { [url('attention_simd')]: new ArrayBuffer(8) } }), 'wasm-simd128');
  await assert.rejects(loadAttention({ compiled: 5 }), /compiled must be an object \{ \[\.wasm URL\]: WebAssembly\.Module or Promise \}, got number/);
  await assert.rejects(loadAttention({ compiled: null }), /compiled must be an object .*got null/);
});

test('provideLoader: a loader a bundle carries is used instead of importing it; bad calls are refused', async () => {
  const { loadAttention, provideLoader } = await import('../../web/src/engine/attention.js');
  const { default: realLoader } = await import('../../web/wasm/attention_scalar.mjs');
  let calls = 0;
  provideLoader('attention_scalar', (args) => { calls++; return realLoader(args); });
  try {
    const attn = await loadAttention({ simd: false });
    assert.equal(attn.isa, 'scalar');
    assert.equal(calls, 1, 'the provided loader was not used');
    const mha = new attn.MultiHeadAttention({ d_model: 4, n_heads: 1, seed: 2 });
    assert.equal(mha.forward({ query: new Float32Array(8).fill(1), n_q: 2, need_weights: true }).weights.length, 4);
    mha.delete();
  } finally {
    provideLoader('attention_scalar', realLoader);
  }
  // A loader of another build: its imports do not fit the wasm, and the message says which file.
  provideLoader('attention_scalar', (args) => {
    args.instantiateWasm({ a: {} }, () => {});
    return new Promise(() => {}); // never ready: only the failure can end the wait
  });
  try {
    await assert.rejects(loadAttention({ simd: false }), /^Error: attention_scalar\.wasm from file:.*\/web\/wasm\/ does not fit this module's loader \(are they from different builds\?\): /);
  } finally {
    provideLoader('attention_scalar', realLoader);
  }
  assert.throws(() => provideLoader('attention_fast', realLoader), /provideLoader: no module named 'attention_fast'/);
  assert.throws(() => provideLoader('attention_simd', 'loader.mjs'), /the loader of attention_simd must be a function/);
});

test('loadAttention names the file and the folder when the wasm is not there', async () => {
  const { loadAttention } = await import('../../web/src/engine/attention.js');
  const { mkdtemp, copyFile, rm, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const dir = await mkdtemp(join(tmpdir(), 'attention-wasm-'));
  try {
    await copyFile(new URL('../../web/wasm/attention_simd.mjs', import.meta.url), join(dir, 'attention_simd.mjs'));
    const wasmDir = pathToFileURL(`${dir}/`).href;
    await assert.rejects(loadAttention({ simd: true, wasmDir }), { message: `attention_simd.wasm could not be read from ${wasmDir}attention_simd.wasm: ENOENT` });
    // Something else under the wasm's name (a sign-in page a server sent instead, say).
    await writeFile(join(dir, 'attention_simd.wasm'), '<!doctype html><title>Sign in</title>');
    await assert.rejects(loadAttention({ simd: true, wasmDir }),
      (err) => err.message.startsWith(`attention_simd.wasm from ${wasmDir}attention_simd.wasm is not a WebAssembly module this engine can compile: `));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

for (const [isa, attn] of Object.entries(modules)) {
  test(`${isa}: options objects must be plain objects; other objects are refused, never read as "none"`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 });
    const query = new Float32Array(2 * 4 * 8);
    const f = (extra) => () => mha.forward({ query, batch: 2, n_q: 4, need_weights: true, ...extra });
    throwsWith(f({ mask: new Date(0) }), /^mask must be 'none', 'causal', \{ causal, padding, matrix \} or a Uint8Array of n_q×n_k, got a Date object$/);
    throwsWith(f({ mask: new Number(4) }), /^mask must be .* got a Number object$/);
    throwsWith(f({ mask: new (class Mask {})() }), /^mask must be .* got an object that is not a plain \{ \.\.\. \} object$/);
    throwsWith(f({ mask: [1, 0] }), /^mask must be .* got an array of length 2$/);
    throwsWith(f({ mask: new Uint16Array(16) }), /^mask must be .* got a Uint16Array of length 16$/);
    throwsWith(f({ into: new Date(0) }), /^into expects an options object, got a Date object$/);
    throwsWith(f({ into: new Map() }), /^into expects an options object, got a Map object$/);
    throwsWith(() => mha.forward(Object.assign(new (class Args {})(), { query, batch: 2, n_q: 4 })), /^forward expects an options object/);
    throwsWith(() => mha.forward(new Proxy({}, { getPrototypeOf: () => { throw new Error('trap'); } })), /^trap$/);
    // Plain objects of every origin are fine: Object.create(null), another realm (a worker's message, an iframe).
    const bare = Object.assign(Object.create(null), { query, batch: 2, n_q: 4, mask: Object.assign(Object.create(null), { causal: true }) });
    const foreign = vm.runInNewContext('({ causal: true })');
    const want = mha.forward({ query, batch: 2, n_q: 4, mask: 'causal' }).output;
    assert.deepEqual(mha.forward(bare).output, want);
    assert.deepEqual(mha.forward({ query, batch: 2, n_q: 4, mask: foreign }).output, want);
    // Keys inherited from a prototype are not options.
    const inherited = Object.create({ need_weights: true });
    Object.assign(inherited, { query, batch: 2, n_q: 4 });
    throwsWith(() => mha.forward(inherited), /^forward expects an options object/);
    mha.delete();
  });

  test(`${isa}: a padding array is read once: the checked copy is what the engine uses`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2, seed: 4 });
    const query = new Float32Array(2 * 4 * 8).map((_, i) => Math.sin(i));
    const run = (padding) => mha.forward({ query, batch: 2, n_q: 4, need_weights: true, mask: { padding } });
    const want = run([4, 3]);
    // Checked as 3, then read again as 2^32: ToInt32 made that 0, every key of batch item 1
    // masked, with no error. Each is read once now, so the value checked is the value used.
    for (const later of [2 ** 32, 2 ** 32 + 3, -1, 9, 2.5, 'x']) {
      let reads = 0;
      const padding = [4, 0];
      Object.defineProperty(padding, 1, { get: () => (reads++ === 0 ? 3 : later), enumerable: true });
      const got = run(padding);
      assert.deepEqual(got.masked_rows, want.masked_rows, `the second read (${later}) was used`);
      assert.deepEqual(got.weights, want.weights, `the second read (${later}) was used`);
      assert.equal(reads, 1, `the padding value was read ${reads} times`);
    }
    // A Proxy of an array: its length and elements are read once each, through the traps.
    const reads = [];
    const proxy = new Proxy([4, 3], { get: (t, k) => { reads.push(String(k)); return t[k]; } });
    assert.deepEqual(run(proxy).weights, want.weights);
    assert.deepEqual(reads.filter((k) => k === 'length' || k === '0' || k === '1').sort(), ['0', '1', 'length']);
    throwsWith(() => run({ 0: 4, 1: 3, length: 2 }), /^mask.padding must be an array of key lengths, one per batch item, got an object$/);
    mha.delete();
  });

  test(`${isa}: arrays are judged by what they are, not by the properties they carry`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 });
    const query = new Float32Array(2 * 4 * 8);
    const f = (extra) => () => mha.forward({ query, batch: 2, n_q: 4, need_weights: true, ...extra });
    // A view of the wasm memory with an own `buffer` property that says otherwise.
    const heapView = new Float32Array(wasmMemories[isa].buffer, 0, 64);
    Object.defineProperty(heapView, 'buffer', { value: new ArrayBuffer(256) });
    throwsWith(f({ into: { output: heapView } }), /^into.output is a view of the wasm module's own memory/);
    const heapWeights = new Float32Array(wasmMemories[isa].buffer, 256, 64);
    Object.defineProperty(heapWeights, 'buffer', { get: () => new ArrayBuffer(256) });
    throwsWith(f({ into: { weights: heapWeights } }), /^into.weights is a view of the wasm module's own memory/);
    // Inputs that view the wasm memory are refused too (the call's own allocations could detach them).
    throwsWith(f({ query: new Float32Array(wasmMemories[isa].buffer, 0, 64) }), /^query is a view of the wasm module's own memory/);
    // An own `length` that lies about the real one.
    const short = new Float32Array(10);
    Object.defineProperty(short, 'length', { value: 64 });
    throwsWith(f({ into: { output: short } }), /^into.output has 10 values but \[batch, n_q, d_model\] = \[2, 4, 8\] needs 64$/);
    throwsWith(f({ query: Object.defineProperty(new Float32Array(10), 'length', { value: 64 }) }), /^query has 10 values/);
    // A Proxy of a Float32Array is not one (it has no typed-array slots for the engine to copy from).
    throwsWith(f({ query: new Proxy(query, {}) }), /^query must be a Float32Array, got an? /);
    throwsWith(f({ into: { output: new Proxy(new Float32Array(64), {}) } }), /^into.output must be a Float32Array/);
    // A subclass is a real Float32Array, and its own methods are never what copies.
    class Noisy extends Float32Array { set() { throw new Error('Noisy.set'); } slice() { throw new Error('Noisy.slice'); } }
    const out = new Noisy(64);
    const r = f({ into: { output: out } })();
    assert.ok(r.output === out);
    assert.deepEqual(Array.from(out), Array.from(f({})().output));
    mha.delete();
  });
}

// The out-of-memory tests below: each loads its own module, to reach the raw module's callOpen and
// callInput, and fills the memory by reserving RESERVE bytes at the opening of every call.
const RESERVE = 2 ** 31 - 2 ** 26; // the wasm memory's 2 GiB (wasm_module.cmake) less 64 MiB

/** A module of its own (attention_simd or attention_scalar) and the raw module under it. */
async function loadWithRaw(name) {
  const { loadAttention, provideLoader } = await import('../../web/src/engine/attention.js');
  const { default: realLoader } = await import(`../../web/wasm/${name}.mjs`);
  let raw = null;
  provideLoader(name, async (args) => (raw = await realLoader(args)));
  try {
    return { attn: await loadAttention({ simd: name === 'attention_simd' }), raw };
  } finally {
    provideLoader(name, realLoader);
  }
}

/** The message of what fn throws while every call opens with RESERVE bytes taken ('' if it throws nothing). */
function messageWhenFull(raw, fn) {
  const open = raw.callOpen;
  raw.callOpen = () => {
    const opened = open();
    if (opened) assert.notEqual(raw.callInput(RESERVE), 0, 'the reservation itself failed');
    return opened;
  };
  try {
    fn();
    return '';
  } catch (e) {
    return e.message;
  } finally {
    raw.callOpen = open;
  }
}

// Issue 23, item 8: when the wasm memory is full, the error used to be a bare "std::bad_alloc".
// The memory is filled here without touching it: every call of the module opens with an input of
// nearly 2 GiB reserved (callInput hands out uninitialised bytes), so a forward pass needing a
// few tens of MB no longer fits. bind::run turns the std::bad_alloc into a message with the
// bytes the call needed and what to change; afterwards the module still computes right numbers.
for (const name of ['attention_simd', 'attention_scalar']) {
  test(`${name}: a call that runs out of wasm memory says how many bytes it needed and what to do, and the module stays usable`, async () => {
    const { mhaReference, normwiseError, randomArray } = await import('./reference.mjs');
    const { attn, raw } = await loadWithRaw(name);
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 4, seed: 5 });
    const heap = attn.heapAllocated();
    const n = 2048; // weights: 4 heads × 2048² floats = 64 MiB, more than is left
    const big = randomArray(n * 16, 3);
    const message = messageWhenFull(raw, () => mha.forward({ query: big, n_q: n, need_weights: true }));
    assert.match(message, /^the engine ran out of memory: this call needed more than ([\d,]+) bytes \([\d.]+ [GM]iB\)/);
    const needed = Number(message.match(/needed more than ([\d,]+) bytes/)[1].replaceAll(',', ''));
    // At least the reservation, the query's copy and the weights array that could not be had.
    assert.ok(needed >= RESERVE + 4 * n * 16 + 4 * 4 * n * n, `needed ${needed} bytes: too few`);
    assert.match(message, /cannot grow past 2\.00 GiB/);
    assert.match(message, /delete\(\) those no longer needed, use smaller sizes \(d_model, n_q, n_k, batch, n_heads\) or split the work/);
    assert.equal(attn.heapAllocated(), heap, 'the failed call left bytes behind');
    // Still usable: a normal call gives the float64 reference's numbers.
    const query = randomArray(5 * 16, 4);
    const r = mha.forward({ query, n_q: 5, need_weights: true });
    const ref = mhaReference({ query, key: query, value: query, batch: 1, n_q: 5, n_k: 5, d_model: 16, n_heads: 4,
      d_k: 4, d_v: 4, weights: mha.getWeights() });
    assert.ok(normwiseError(r.output, ref.output).error < 1e-5, JSON.stringify(normwiseError(r.output, ref.output)));
    assert.ok(normwiseError(r.weights, ref.weights).error < 1e-5);
    mha.delete();
  });
}

// Issue 35, item 9: with the wasm memory full to its last pages (4 GiB then), emmalloc handed out blocks
// reaching past the end of the memory (its fit check adds a size to an address, which wrapped past
// 2^32): a 576 MB scaledDotProductAttention trapped "memory access out of bounds" and its bytes stayed
// counted by heapAllocated(). Here the memory is filled to the top, down to 4 KiB pieces, once the
// call's inputs are in (just before the binding runs, so the 576 MiB of weights is what cannot fit),
// and once before them: every block handed out must lie inside the memory, the call must fail naming
// the bytes it needed, and everything must be given back.
for (const name of ['attention_simd', 'attention_scalar']) {
  test(`${name}: with the memory full to its last pages, a 576 MB call fails naming its bytes, and leaves nothing behind`, async () => {
    const { attn, raw } = await loadWithRaw(name);
    const start = attn.heapAllocated();
    const blocks = [];
    const fill = () => {
      for (let bytes = 2 ** 28; bytes >= 4096; bytes /= 4) {
        for (let address; (address = raw.callInput(bytes)) !== 0;) blocks.push([address, bytes, raw.HEAPU8.length]);
      }
    };
    const n = 12288, d_k = 8; // the weights: n² floats = 576 MiB
    const q = new Float32Array(n * d_k).fill(0.5);
    const call = () => attn.scaledDotProductAttention({ q, k: q, v: q, n_q: n, n_k: n, d_k, need_weights: true });
    const binding = raw.scaledDotProductAttention, open = raw.callOpen;
    const failure = (when) => {
      try {
        call();
        return `${when}: it ran`;
      } catch (e) {
        return `${when}: ${e.constructor.name}: ${e.message}`;
      }
    };
    raw.scaledDotProductAttention = (...args) => { fill(); return binding(...args); };
    const inCall = failure('filled as the binding starts');
    raw.scaledDotProductAttention = binding;
    raw.callOpen = () => { const opened = open(); if (opened) fill(); return opened; };
    const atOpen = failure('filled as the call opens');
    raw.callOpen = open;
    assert.ok(blocks.length > 0, 'nothing was reserved');
    const outside = blocks.filter(([address, bytes, size]) => address + bytes > size);
    assert.deepEqual(outside.slice(0, 3), [], `${outside.length} blocks reach past the end of the memory ([address, bytes, memory size]); ` +
      `the calls: ${inCall}; ${atOpen}; heapAllocated() ${attn.heapAllocated() - start} bytes up`);
    // Filled once the inputs are in: the engine's message with the bytes (what the call held, the fill
    // included, plus the block it could not have).
    assert.match(inCall, /^filled as the binding starts: Error: the engine ran out of memory: this call needed more than [\d,]+ bytes/);
    const needed = Number(inCall.match(/needed more than ([\d,]+) bytes/)[1].replaceAll(',', ''));
    assert.ok(needed >= 4 * n * n, `needed ${needed} bytes: fewer than the weights' ${4 * n * n}`);
    // Filled before any input: an Error of the engine (the first input's bytes, or no room left even for a
    // message), never a trap of the module.
    assert.match(atOpen, /^filled as the call opens: Error: the engine (could not allocate [\d,]+ bytes for |ran out of memory)/);
    assert.equal(attn.heapAllocated(), start, `${attn.heapAllocated() - start} bytes still counted after the failed calls`);
    const r = attn.scaledDotProductAttention({ q: q.subarray(0, 32), k: q.subarray(0, 32), v: q.subarray(0, 32), n_q: 4, n_k: 4, d_k });
    assert.deepEqual(Array.from(r.output), Array(32).fill(0.5), 'the module still computes');
    assert.equal(attn.heapAllocated(), start);
  });
}

// A layer's constructor that runs out of memory used to get the advice of a forward pass ("a smaller
// n (n_q, n_k) ... or a smaller batch"), which it has none of, and no word of the real cause: the
// layers already alive. The message now says what live layers and trainers held as the call began
// (here: heapAllocated() just before it, to the byte) and to delete() those no longer needed.
for (const name of ['attention_simd', 'attention_scalar']) {
  test(`${name}: a layer that does not fit says what live layers held before it and to delete() them`, async () => {
    const { attn, raw } = await loadWithRaw(name);
    const alive = [256, 256].map((d_model, i) => new attn.MultiHeadAttention({ d_model, n_heads: 4, seed: i }));
    const held = attn.heapAllocated();
    assert.ok(held >= 2 * 4 * 256 * 256 * 4, `two d_model 256 layers hold only ${held} bytes`);
    const message = messageWhenFull(raw, () => new attn.MultiHeadAttention({ d_model: 3072, n_heads: 4 })); // 4 × 36 MiB of weights
    assert.match(message, /^the engine ran out of memory: this call needed more than [\d,]+ bytes/);
    const said = message.match(/Layers and trainers alive held ([\d,]+) bytes \([\d.]+ [KMG]?i?B\) before it/);
    assert.ok(said, `no word of the live layers: ${message}`);
    assert.equal(Number(said[1].replaceAll(',', '')), held);
    assert.match(message, /delete\(\) those no longer needed, use smaller sizes \(d_model, n_q, n_k, batch, n_heads\)/);
    assert.doesNotMatch(message, /smaller n \(n_q, n_k\)|smaller batch/); // a constructor has neither
    assert.equal(attn.heapAllocated(), held, 'the failed constructor left bytes behind');
    for (const mha of alive) mha.delete();
    new attn.MultiHeadAttention({ d_model: 64, n_heads: 4 }).delete(); // still usable
  });
}

// Issue 23, item 10: with one key ∂L/∂S is exactly 0 at every d_k, and sqrtDkGradients returned
// spreads of Infinity (0/0). Refused by name; two keys give finite spreads.
for (const [isa, attn] of Object.entries(modules)) {
  test(`${isa}: sqrtDkGradients refuses n_k = 1 by name; n_k = 2 gives finite spreads`, () => {
    throwsWith(() => attn.sqrtDkGradients({ d_k_values: [4, 8], n_k: 1, samples: 16 }),
      /^n_k must be at least 2 for the √d_k gradients \(got 1\): with a single key/);
    const r = attn.sqrtDkGradients({ d_k_values: [4, 8], n_k: 2, samples: 64 });
    assert.ok(Number.isFinite(r.scaled_spread) && r.scaled_spread >= 1, `scaled_spread ${r.scaled_spread}`);
    assert.ok(Number.isFinite(r.unscaled_spread) && r.unscaled_spread >= 1, `unscaled_spread ${r.unscaled_spread}`);
  });
}
