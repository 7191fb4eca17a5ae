// Memory behaviour of the API: no leaks over 10,000 calls, results are copies that survive
// heap growth, and the module loads from any working directory and inside a worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
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
