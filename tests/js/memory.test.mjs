// Memory behaviour of the API: no leaks over 10,000 calls (nor with `into` arrays, nor in
// Embind's handle table when calls fail), results are copies that survive heap growth, and the
// module loads from any working directory and inside a worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { modules } from './modules.mjs';
import { randomArray } from './reference.mjs';

const API_URL = new URL('../../web/src/engine/attention.js', import.meta.url).href;

for (const [isa, attn] of Object.entries(modules)) {
  test(`${isa}: 10,000 forward calls leave the malloc heap where it was`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 4, seed: 2 });
    const query = randomArray(2 * 8 * 16, 1);
    const call = (i) => mha.forward({ query, batch: 2, n_q: 8, need_weights: i % 2 === 0,
      mask: i % 3 === 0 ? 'causal' : { padding: [8, 3] }, dropout: i % 5 === 0 ? 0.1 : 0 });
    for (let i = 0; i < 50; i++) call(i); // warm-up: scratch buffers reach their size
    const before = attn.heapAllocated(), memoryBefore = attn.memoryBytes();
    for (let i = 0; i < 10000; i++) call(i);
    const after = attn.heapAllocated();
    mha.delete();
    assert.equal(after, before, `malloc'd bytes went from ${before} to ${after}`);
    assert.equal(attn.memoryBytes(), memoryBefore, 'the wasm memory grew');
  });

  test(`${isa}: 1,000 calls into the caller's arrays leave the malloc heap and the wasm memory where they were`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 4, seed: 2 });
    const query = randomArray(2 * 8 * 16, 1);
    const output = new Float32Array(2 * 8 * 16), weights = new Float32Array(2 * 4 * 8 * 8);
    const q = randomArray(2 * 8 * 4, 2), sdpaOutput = new Float32Array(2 * 8 * 4), sdpaWeights = new Float32Array(2 * 8 * 8);
    const call = (i) => {
      const need_weights = i % 2 === 0, mask = i % 3 === 0 ? 'causal' : { padding: [8, 3] };
      const r = mha.forward({ query, batch: 2, n_q: 8, need_weights, mask, into: need_weights ? { output, weights } : { output } });
      const s = attn.scaledDotProductAttention({ q, k: q, v: q, batch: 2, n_q: 8, n_k: 8, d_k: 4, need_weights, mask,
        into: need_weights ? { output: sdpaOutput, weights: sdpaWeights } : { output: sdpaOutput } });
      return r.output === output && s.output === sdpaOutput;
    };
    for (let i = 0; i < 50; i++) call(i); // warm-up: scratch buffers reach their size
    const before = attn.heapAllocated(), memoryBefore = attn.memoryBytes();
    let allReturned = true;
    for (let i = 0; i < 1000; i++) allReturned = call(i) && allReturned;
    const after = attn.heapAllocated(), memoryAfter = attn.memoryBytes();
    mha.delete();
    assert.ok(allReturned, 'every call returned the given arrays');
    assert.equal(after, before, `malloc'd bytes went from ${before} to ${after}`);
    assert.equal(memoryAfter, memoryBefore, `the wasm memory went from ${memoryBefore} to ${memoryAfter} bytes`);
  });

  test(`${isa}: 1,000 failing calls of each kind leak nothing`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 });
    const nan = new Float32Array(16);
    nan[3] = NaN;
    const failing = [
      () => mha.forward({ query: nan, n_q: 2 }),                          // rejected in C++
      () => new attn.MultiHeadAttention({ d_model: 10, n_heads: 3 }),      // constructor throws in C++
      () => attn.scaledDotProductAttention({ q: nan, k: nan, v: nan, n_q: 4, n_k: 4, d_k: 4 }),
    ];
    for (const call of failing) {
      assert.throws(call); // warm-up: the reused message buffer reaches its size
      const before = attn.heapAllocated();
      for (let i = 0; i < 1000; i++) assert.throws(call);
      assert.equal(attn.heapAllocated(), before, `${call}: malloc'd bytes went from ${before} to ${attn.heapAllocated()}`);
    }
    mha.delete();
  });

  test(`${isa}: creating and deleting 1,000 layers does not leak`, () => {
    const make = () => new attn.MultiHeadAttention({ d_model: 32, n_heads: 4, seed: 3 }).delete();
    make();
    const before = attn.heapAllocated();
    for (let i = 0; i < 1000; i++) make();
    assert.equal(attn.heapAllocated(), before);
  });

  test(`${isa}: returned arrays are copies that survive wasm memory growth`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2, seed: 4 });
    const query = randomArray(3 * 8, 5);
    const first = mha.forward({ query, n_q: 3, need_weights: true });
    const saved = first.output.slice();
    const growBefore = attn.memoryBytes();
    // A large call grows the heap, which detaches every view of the old buffer.
    const big = new attn.MultiHeadAttention({ d_model: 64, n_heads: 1, seed: 1 });
    big.forward({ query: randomArray(2048 * 64, 6), n_q: 2048, need_weights: true });
    big.delete();
    assert.ok(attn.memoryBytes() > growBefore, 'the test must really grow the memory');
    assert.equal(first.output.length, 24);
    assert.deepEqual(first.output, saved);
    assert.equal(first.weights.length, 2 * 3 * 3);
    const second = mha.forward({ query, n_q: 3, need_weights: true });
    assert.deepEqual(second.output, saved, 'a later call must not overwrite an earlier result');
    mha.delete();
  });
}

// Embind keeps every JavaScript value the wasm side holds in a handle table; a call that
// failed used to leave its arguments there for good, pinning the caller's arrays (inputs and
// `into` destinations) and option objects. This drives the raw binding, whose handle count
// the API hides.
for (const name of ['attention_simd', 'attention_scalar']) {
  test(`${name}: failing calls release their arguments from Embind's handle table`, async () => {
    const url = (ext) => new URL(`../../web/wasm/${name}.${ext}`, import.meta.url);
    const { default: create } = await import(url('mjs').href);
    const raw = await create({ wasmBinary: await readFile(url('wasm')) });
    const layer = new raw.MhaLayer({ d_model: 8, n_heads: 2, d_k: 0, d_v: 0, bias: true, seed: 1 });
    const options = { mask: { causal: false, padding: null, matrix: null }, scale: true, dropout: 0, training: false,
      seed: 1, need_weights: true, memory_budget: 2 ** 30 };
    const nan = new Float32Array(16);
    nan[3] = NaN;
    const output = new Float32Array(16), weights = new Float32Array(2 * 2 * 2), sdpaWeights = new Float32Array(16);
    const calls = [
      ['forward', () => layer.forward(nan, null, null, 1, 2, 2, options, output, weights), /query contains NaN/],
      ['forward (budget)', () => layer.forward(new Float32Array(16), null, null, 1, 2, 2, { ...options, memory_budget: 8 }, output, weights),
        /over the memory budget/],
      ['scaledDotProductAttention', () => raw.scaledDotProductAttention(nan, nan, nan, 1, 4, 4, 4, 4, options, output, sdpaWeights),
        /q contains NaN/],
      ['constructor', () => new raw.MhaLayer({ d_model: 10, n_heads: 3, d_k: 0, d_v: 0, bias: true, seed: 1 }), /not divisible/],
      ['setWeights', () => layer.setWeights({ wq: new Float32Array(3) }), /wq has 3 values/],
      ['analyze', () => raw.analyze({ d_model: 10, n_heads: 3, d_k: 0, d_v: 0, bias: true }, 1, 4, 4, true, true, 0), /not divisible/],
      ['matmul', () => raw.matmul(new Float32Array(6), new Float32Array(5), 2, 3, 2), /b has 5 values/],
    ];
    for (const [what, call, message] of calls) {
      const before = raw.count_emval_handles();
      for (let i = 0; i < 1000; i++) assert.throws(call, message);
      assert.equal(raw.count_emval_handles(), before, `${what}: Embind handles went from ${before} to ${raw.count_emval_handles()}`);
    }
    const before = raw.count_emval_handles();
    layer.forward(new Float32Array(16), null, null, 1, 2, 2, options, output, weights);
    assert.equal(raw.count_emval_handles(), before, 'a successful call keeps no handle either');
    // The binding checks destination lengths itself too, before writing either array.
    output.fill(-1);
    assert.throws(() => layer.forward(new Float32Array(16), null, null, 1, 2, 2, options, output, new Float32Array(7)),
      /^Error: into.weights has 7 values but the result needs 8$/);
    assert.ok(output.every((x) => x === -1), 'into.output was written by a call that failed');
    assert.equal(raw.count_emval_handles(), before, 'a refused destination keeps no handle');
    layer.delete();
  });
}

test('the module loads from another working directory', () => {
  const script = `import(${JSON.stringify(API_URL)}).then(async ({ loadAttention }) => {
    const a = await loadAttention(); const b = await loadAttention({ simd: false });
    console.log(a.isa + ' ' + b.isa + ' ' + a.lessonExamples().length); })`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: tmpdir() }).toString().trim();
  assert.equal(out, 'wasm-simd128 scalar 5');
});

test('the module loads and runs inside a worker thread', async () => {
  const code = `import(${JSON.stringify(API_URL)}).then(async ({ loadAttention }) => {
    const { parentPort } = await import('node:worker_threads');
    const attn = await loadAttention();
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 });
    const r = mha.forward({ query: new Float32Array(16).fill(0.5), n_q: 2 });
    parentPort.postMessage({ isa: attn.isa, n: r.output.length });
  })`;
  const worker = new Worker(code, { eval: true, type: 'module' });
  const message = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  assert.deepEqual(message, { isa: 'wasm-simd128', n: 16 });
});
