// Runs in a process of its own: tests/js/modules.mjs catches each wasm module's memory as it is first
// instantiated, and these checks view, grow or break that memory; in a process where another file loaded the
// engines first (tests/browser/run.mjs's lanes), 2 to 4 of them failed (2026-11-29).
// Memory behaviour of the API: no leaks over 1,000 calls, each checked (nor with `into` arrays, nor in
// Embind's handle table when calls fail), results are copies that survive heap growth, and the
// module loads from any working directory and inside a worker. The counts checked are exact (operator
// new's bytes, Embind's handles, the stack pointer) and the calls deterministic, so a call that leaks
// shows on its first run: the loops check after every call and repeat each kind of call many times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { modules } from './modules.mjs';
import { randomArray } from './reference.mjs';
import { recordBytes } from '../../web/src/engine/record.js';

const API_URL = new URL('../../web/src/engine/attention.js', import.meta.url).href;

for (const [isa, attn] of Object.entries(modules)) {
  test(`${isa}: heapAllocated counts a layer's weights exactly, and is back to the byte when it is deleted`, () => {
    // The count is the bytes asked for (allocator slack excluded), so a layer's parameters show
    // as at least their float count × 4 and the figure returns exactly after delete().
    new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 }).delete(); // the layer table's first buckets stay
    const before = attn.heapAllocated();
    const mha = new attn.MultiHeadAttention({ d_model: 64, n_heads: 4, bias: true, seed: 3 });
    const held = attn.heapAllocated() - before;
    const parameters = 4 * 64 * 64 + 4 * 64;
    mha.delete();
    assert.ok(held >= 4 * parameters, `a layer with ${parameters} parameters holds only ${held} bytes`);
    assert.equal(attn.heapAllocated(), before, `after delete: ${attn.heapAllocated() - before} bytes still held`);
    // The same work twice leaves the same count (the allocator's own in-use figure moved by ±8 to ±24
    // bytes from call to call with the history of its free list).
    const again = new attn.MultiHeadAttention({ d_model: 64, n_heads: 4, bias: true, seed: 3 });
    assert.equal(attn.heapAllocated() - before, held);
    again.delete();
  });

  // 1,000 calls, each checked (it was 10,000 checked at the end): the 30 kinds (i mod 30: weights or
  // not, the mask, dropout) run 33 times each.
  test(`${isa}: 1,000 forward calls leave the malloc heap where it was, after each of them`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 4, seed: 2 });
    const query = randomArray(2 * 8 * 16, 1);
    const call = (i) => mha.forward({ query, batch: 2, n_q: 8, need_weights: i % 2 === 0,
      mask: i % 3 === 0 ? 'causal' : { padding: [8, 3] }, dropout: i % 5 === 0 ? 0.1 : 0 });
    for (let i = 0; i < 50; i++) call(i); // warm-up: scratch buffers reach their size
    const before = attn.heapAllocated(), memoryBefore = attn.memoryBytes();
    for (let i = 0; i < 1000; i++) {
      call(i);
      if (attn.heapAllocated() !== before) assert.fail(`call ${i + 1}: malloc'd bytes went from ${before} to ${attn.heapAllocated()}`);
    }
    const after = attn.heapAllocated();
    mha.delete();
    assert.equal(after, before, `malloc'd bytes went from ${before} to ${after}`);
    assert.equal(attn.memoryBytes(), memoryBefore, 'the wasm memory grew');
  });

  // 300 calls, each checked (it was 1,000 checked at the end): the 6 kinds (i mod 6) run 50 times each.
  test(`${isa}: 300 calls into the caller's arrays leave the malloc heap and the wasm memory where they were, after each of them`, () => {
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
    for (let i = 0; i < 300; i++) {
      allReturned = call(i) && allReturned;
      if (attn.heapAllocated() !== before || attn.memoryBytes() !== memoryBefore) {
        assert.fail(`call ${i + 1}: malloc'd bytes ${before} → ${attn.heapAllocated()}, wasm memory ${memoryBefore} → ${attn.memoryBytes()} bytes`);
      }
    }
    const after = attn.heapAllocated(), memoryAfter = attn.memoryBytes();
    mha.delete();
    assert.ok(allReturned, 'every call returned the given arrays');
    assert.equal(after, before, `malloc'd bytes went from ${before} to ${after}`);
    assert.equal(memoryAfter, memoryBefore, `the wasm memory went from ${memoryBefore} to ${memoryAfter} bytes`);
  });

  // An error of the engine's own used to be thrown into JavaScript from inside C++, which left
  // the wasm stack pointer 64 bytes lower per failed call: after ~82,000 failures the 5 MB
  // stack was gone and every later call failed.
  // 200 of each kind, each checked (it was 1,000 checked at the end): the old leak moved the stack at every call.
  test(`${isa}: 200 failing calls of each kind leak nothing, neither heap nor wasm stack, after each of them`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 });
    const nan = new Float32Array(16);
    nan[3] = NaN;
    const failing = [
      () => mha.forward({ query: nan, n_q: 2 }),                          // rejected in C++
      () => new attn.MultiHeadAttention({ d_model: 10, n_heads: 3 }),      // constructor throws in C++
      () => attn.scaledDotProductAttention({ q: nan, k: nan, v: nan, n_q: 4, n_k: 4, d_k: 4 }),
    ];
    for (const call of failing) {
      assert.throws(call); // warm-up: buffers reach their size
      const before = attn.heapAllocated(), stack = attn.stackPointer();
      for (let i = 0; i < 200; i++) {
        assert.throws(call);
        if (attn.heapAllocated() !== before || attn.stackPointer() !== stack) {
          assert.fail(`${call}, call ${i + 1}: malloc'd bytes ${before} → ${attn.heapAllocated()}, wasm stack pointer ${stack} → ${attn.stackPointer()}`);
        }
      }
      assert.equal(attn.heapAllocated(), before, `${call}: malloc'd bytes went from ${before} to ${attn.heapAllocated()}`);
      assert.equal(attn.stackPointer(), stack, `${call}: the wasm stack pointer went from ${stack} to ${attn.stackPointer()}`);
    }
    mha.delete();
  });

  // Issue 23, item 9: the engine's grow-only thread_local scratch (packed K and V, the matmul's
  // packs, rows of logits) used to keep the largest call's size for good: 3.7 MB after a large
  // forward and backward and delete(). Every binding now frees it as it returns (bind::run), so
  // the figure is back to the byte after any call, with no warm-up to let the scratch settle.
  test(`${isa}: large calls of every kind, then delete(), leave heapAllocated() exactly where it was`, () => {
    // Both modules' heaps: the trainers and the gradient lab run in the labs module (engine/labs.js).
    const heap = () => attn.heapAllocated() + attn.labs.heapAllocated();
    new attn.MultiHeadAttention({ d_model: 8, n_heads: 2 }).delete(); // the layer table's first buckets stay
    attn.createTrainer({ d_model: 8, n_heads: 2, seq_len: 4, batch: 1 }).delete(); // and the trainer table's
    const before = heap();
    const n = 600, d_model = 64; // n above a query block (512): both attention paths run
    const query = randomArray(n * d_model, 11), grad_output = randomArray(n * d_model, 12, 0.1);
    const mha = new attn.MultiHeadAttention({ d_model, n_heads: 4, seed: 8 });
    const steps = [
      ['forward', () => mha.forward({ query, n_q: n })],
      ['forward (weights, causal)', () => mha.forward({ query, n_q: n, need_weights: true, mask: 'causal' })],
      ['backward', () => mha.backward({ query, n_q: n, grad_output })],
      ['backward (weights)', () => mha.backward({ query, n_q: n, grad_output, need_weights: true })],
      ['scaledDotProductAttention', () => attn.scaledDotProductAttention({ q: query, k: query, v: query, n_q: n, n_k: n, d_k: d_model })],
      ['scaledDotProductAttentionBackward', () => attn.scaledDotProductAttentionBackward({ q: query, k: query, v: query,
        n_q: n, n_k: n, d_k: d_model, grad_output })],
      ['matmul', () => attn.matmul({ a: query, b: randomArray(d_model * 300, 13), m: n, k: d_model, n: 300 })],
      ['sqrtDkGradients', () => attn.sqrtDkGradients({ d_k_values: [16, 256], n_k: 128, samples: 64 })],
    ];
    const layerHeld = heap() - before;
    for (const [what, step] of steps) {
      step();
      const held = heap() - before - layerHeld;
      assert.equal(held, 0, `after ${what}: ${held} bytes more than before (scratch kept?)`);
    }
    // A trainer owns buffers of its own (its workspace, sized by its first step, freed by
    // delete()); a step keeps nothing besides them.
    const trainer = attn.createTrainer({ d_model: 32, n_heads: 2, seq_len: 8, batch: 32 });
    trainer.step(1);
    const trainerHeld = heap() - before - layerHeld;
    trainer.step(3);
    assert.equal(heap() - before - layerHeld, trainerHeld, 'a training step kept scratch');
    trainer.delete();
    mha.delete();
    assert.equal(heap(), before, `after delete(): ${heap() - before} bytes still held`);
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
// `into` destinations) and option objects. The bindings now take plain numbers or one record of
// them (an input of the call, engine/record.js) and answer with text (cpp/bindings/embind.cpp):
// this drives the raw module as the API does, and checks that no call, failed or not, leaves a
// handle, a byte of the heap or an open call behind, and that a record is read by name.
for (const name of ['attention_simd', 'attention_scalar']) {
  test(`${name}: raw bindings answer errors as text and leave no handle, heap byte or open call behind`, async () => {
    const url = (ext) => new URL(`../../web/wasm/${name}.${ext}`, import.meta.url);
    const { default: create } = await import(url('mjs').href);
    const raw = await create({ wasmBinary: await readFile(url('wasm')) });
    /**
     * Runs body inside one call with inputs made from Float32Arrays (f(array)) and records
     * (f.record({ ... })); returns the envelope text.
     */
    const inCall = (body) => {
      assert.equal(raw.callOpen(), true, 'a call was left open');
      try {
        const floats = (array) => {
          const address = raw.callInput(array.length * 4);
          raw.HEAPF32.set(array, address / 4);
          return address;
        };
        floats.record = (fields) => {
          const bytes = recordBytes(fields);
          const address = raw.callInput(bytes.length);
          raw.HEAPU8.set(bytes, address);
          return address;
        };
        return body(floats);
      } finally {
        raw.callClose();
      }
    };
    const layerRecord = { d_model: 8, n_heads: 2, d_k: 0, d_v: 0, bias: true, seed: 1 };
    const created = JSON.parse(inCall((f) => raw.mhaCreate(f.record(layerRecord))));
    const layer = created.value.layer;
    assert.deepEqual(created.value.dims, { d_model: 8, n_heads: 2, n_kv_heads: 2, d_k: 4, d_v: 4, bias: true });
    const nan = new Float32Array(16);
    nan[3] = NaN;
    const stage = (f) => raw.stageAttentionOptions(f.record({ causal: false, padding: 0, matrix: 0, scale: true, dropout: 0,
      training: false, seed: 1 }));
    const forward = (f, fields) => raw.mhaForward(f.record({ layer, key: 0, value: 0, batch: 1, n_q: 2, n_k: 2, need_weights: true,
      memory_budget: 2 ** 30, head_mask: 0, ...fields }));
    const analyzeRecord = { ...layerRecord, batch: 1, n_q: 4, n_k: 4, need_weights: true, scale: true, n_layers: 1,
      self_attention: true };
    delete analyzeRecord.seed;
    const calls = [
      ['forward', (f) => (stage(f), forward(f, { query: f(nan) })), /query contains NaN/],
      ['forward (budget)', (f) => (stage(f), forward(f, { query: f(new Float32Array(16)), memory_budget: 8 })), /over the memory budget/],
      ['forward (deleted layer)', (f) => forward(f, { layer: 9999, query: f(nan) }), /was deleted/],
      ['forward (head_mask)', (f) => (stage(f), forward(f, { query: f(new Float32Array(16)), head_mask: f(new Float32Array([1, NaN])) })),
        /head_mask contains NaN/],
      ['forward (an address not of this call)', (f) => forward(f, { query: 64 }),
        /internal error: a binding was given an address that is not an input of this call/],
      // A record is read by name: an unknown, a missing and a mistyped field are named.
      ['forward (unknown field)', (f) => (stage(f), forward(f, { query: f(new Float32Array(16)), n_kv: 2 })),
        /^mhaForward: unknown option 'n_kv'$/],
      ['forward (missing field)', (f) => raw.mhaForward(f.record({ layer, query: f(nan), need_weights: true, memory_budget: 2 ** 30 })),
        /^mhaForward: batch is required$/],
      ['forward (mistyped field)', (f) => (stage(f), forward(f, { query: f(new Float32Array(16)), need_weights: 1 })),
        /^mhaForward: need_weights must be true or false/],
      ['forward (no record)', () => raw.mhaForward(0), /^mhaForward: internal error: no options record$/],
      ['scaledDotProductAttention', (f) => (stage(f), raw.scaledDotProductAttention(f.record({ q: f(nan), k: f(nan), v: f(nan),
        batch: 1, n_q: 4, n_k: 4, d_k: 4, d_v: 4, need_weights: true, memory_budget: 2 ** 30 }))), /q contains NaN/],
      ['create', (f) => raw.mhaCreate(f.record({ ...layerRecord, d_model: 10, n_heads: 3 })), /not divisible/],
      ['create (n_kv_heads)', (f) => raw.mhaCreate(f.record({ ...layerRecord, n_kv_heads: 0 })), /n_kv_heads must be at least 1/],
      ['create (n_kv_heads not whole)', (f) => raw.mhaCreate(f.record({ ...layerRecord, n_kv_heads: 1.5 })),
        /^mhaCreate: n_kv_heads must be a whole number within 32 bits/],
      ['setWeights', (f) => raw.mhaSetWeights(f.record({ layer, wq: f(new Float32Array(3)), wk: 0, wv: 0, wo: 0, bq: 0, bk: 0, bv: 0,
        bo: 0 })), /wq has 3 values/],
      ['analyze', (f) => raw.analyze(f.record({ ...analyzeRecord, d_model: 10, n_heads: 3 })), /not divisible/],
      ['setHeadPatterns', (f) => raw.mhaSetHeadPatterns(f.record({ layer, heads: f(new Float32Array(2)), strengths: 0, names: 0,
        query_words: 0, batch: 0, n_q: 0, key_words: 0, key_batch: 0, n_k: 0, input_seed: 1 })),
      /the head pattern inputs disagree in length/],
      ['compareHeads', (f) => (stage(f), raw.mhaCompareHeads(f.record({ layer, query: f(nan), key: 0, value: 0, batch: 1, n_q: 2,
        n_k: 2, memory_budget: 2 ** 30, head_mask: 0 }))), /query contains NaN/],
      ['headMetrics', (f) => raw.headMetrics(f.record({ weights: f(new Float32Array([0.5, 0])), batch: 1, n_heads: 1, n_q: 1,
        n_k: 2 })), /sums to 0.5/],
      ['matmul', (f) => raw.matmul(f.record({ a: f(new Float32Array(6)), b: f(new Float32Array(5)), m: 2, k: 3, n: 2 })),
        /b has 5 values/],
      ['resolveView', (f) => raw.resolveView(f.record({ d_model: 8, n_heads: 2, batch: 1, n_q: 2, n_k: 2, causal: false,
        padding: 0, extra: 1 })), /^resolveView: unknown option 'extra'$/],
    ];
    inCall((f) => calls.map(([, call]) => call(f))); // warm-up: scratch buffers reach their size
    // 100 calls of each kind, each checked (it was 1,000 checked at the end: the counts are exact).
    for (const [what, call, message] of calls) {
      const handles = raw.count_emval_handles(), heap = raw.heapAllocated(), stack = raw.stackSave();
      for (let i = 0; i < 100; i++) {
        const envelope = JSON.parse(inCall(call));
        assert.match(envelope.error ?? '(no error)', message, what);
        if (raw.count_emval_handles() !== handles || raw.heapAllocated() !== heap || raw.stackSave() !== stack) {
          assert.fail(`${what}, call ${i + 1}: Embind handles ${handles} → ${raw.count_emval_handles()}, malloc'd bytes ${heap} → ` +
            `${raw.heapAllocated()}, wasm stack pointer ${stack} → ${raw.stackSave()}`);
        }
      }
      assert.equal(raw.count_emval_handles(), handles, `${what}: Embind handles went from ${handles} to ${raw.count_emval_handles()}`);
      assert.equal(raw.heapAllocated(), heap, `${what}: malloc'd bytes went from ${heap} to ${raw.heapAllocated()}`);
      assert.equal(raw.stackSave(), stack, `${what}: the wasm stack pointer moved`);
    }
    const handles = raw.count_emval_handles();
    const good = JSON.parse(inCall((f) => (stage(f), forward(f, { query: f(new Float32Array(16).fill(0.5)) }))));
    assert.deepEqual(Object.keys(good.arrays), ['output', 'weights']);
    assert.equal(good.arrays.weights[1], 2 * 2 * 2);
    assert.equal(raw.count_emval_handles(), handles, 'a successful call keeps no handle either');
    // The slot refuses what would corrupt it: a call inside a call, inputs outside a call.
    assert.equal(raw.callOpen(), true);
    assert.equal(raw.callOpen(), false, 'a second call opened inside the first');
    raw.callClose();
    assert.equal(raw.callInput(16), 0, 'an input was handed out with no call open');
    raw.mhaDelete(layer);
  });
}

test('the module loads from another working directory', () => {
  const script = `import(${JSON.stringify(API_URL)}).then(async ({ loadAttention }) => {
    const a = await loadAttention(); const b = await loadAttention({ simd: false });
    console.log(a.isa + ' ' + b.isa + ' ' + (await a.lessonExamples()).length); })`;
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
