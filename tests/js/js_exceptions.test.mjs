// Runs in a process of its own: tests/js/modules.mjs catches each wasm module's memory as it is first
// instantiated, and these checks view, grow or break that memory; in a process where another file loaded the
// engines first (tests/browser/run.mjs's lanes), 2 to 4 of them failed (2026-11-29).
// A JavaScript exception thrown in the middle of an API call (a getter, valueOf, a Proxy trap,
// an overridden method, a result array that cannot be allocated) leaves nothing behind:
// after each of 10,000 such calls the malloc heap, the wasm stack and the wasm memory are exactly
// where they were, and the next call is still right (checked against the float64 reference).
// Why 10,000 is enough (it was 100,000 checked every 10,000 calls): the calls are deterministic and
// the heap count is exact (operator new's bytes), so a call that leaks shows at once, and each is
// checked; the 26 kinds take turns, and a kind's variant (which read throws) follows its round, so
// every distinct call is made within 9 rounds (234 calls) and 10,000 calls make each one 42 times or more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mhaReference, normwiseError, randomArray } from './reference.mjs';

// "Memory is short" is simulated: TypedArray.prototype.slice, which copies a result out of the
// wasm heap into a new array, is wrapped before the API is imported (it keeps the built-ins it
// finds then) so that it throws the RangeError of a failed allocation while `sliceFails` is
// set. node --test runs each test file in a process of its own: nothing else sees the wrapper.
const TypedArrayPrototype = Object.getPrototypeOf(Float32Array.prototype);
const realSlice = TypedArrayPrototype.slice;
let sliceFails = false;
TypedArrayPrototype.slice = function slice(...args) {
  if (sliceFails) throw new RangeError('Array buffer allocation failed');
  return Reflect.apply(realSlice, this, args);
};
const { loadAttention } = await import('../../web/src/engine/attention.js');
const modules = { simd: await loadAttention({ simd: true }), scalar: await loadAttention({ simd: false }) };

const CALLS = 10_000;
const thrower = (what) => () => { throw new Error(`thrown by the caller's ${what}`); };

/** A getter that answers `value` `goodReads` times, then throws (a value read twice differs). */
function flaky(value, goodReads) {
  let reads = 0;
  return () => {
    if (reads++ >= goodReads) throw new Error('thrown by a getter read once too often');
    return value;
  };
}

/** Runs fn with object[key] (often inherited, e.g. Float32Array.prototype.set) replaced for its duration. */
function withPatched(object, key, replacement, fn) {
  const saved = Object.getOwnPropertyDescriptor(object, key);
  Object.defineProperty(object, key, { value: replacement, configurable: true, writable: true });
  try {
    return fn();
  } finally {
    if (saved) Object.defineProperty(object, key, saved);
    else delete object[key];
  }
}

function withSliceFailing(fn) {
  sliceFails = true;
  try {
    return fn();
  } finally {
    sliceFails = false;
  }
}

/**
 * Every kind of hostile call on one layer, called with its round r (0, 1, 2, ...), which picks its
 * variant: the read that throws. Each either throws an Error or returns a result, which must then
 * equal the clean result `fresh` to the bit.
 */
function hostileCalls(attn, mha, w, query, fresh) {
  const batch = 2, n_q = 8;
  const base = { query, batch, n_q };
  const out = () => new Float32Array(batch * n_q * 16);
  const q4 = randomArray(8 * 4, 3);
  return [
    ['getter on an option', () => mha.forward({ ...base, get need_weights() { return thrower('getter')(); } })],
    ['getter on a weight, read twice', (r) => {
      const weights = { ...w };
      Object.defineProperty(weights, 'wo', { get: flaky(w.wo, r % 5), enumerable: true });
      return mha.setWeights(weights);
    }],
    ['getter on into.output', () => mha.forward({ ...base, into: { get output() { return thrower('into getter')(); } } })],
    ['getter on mask.padding', () => mha.forward({ ...base, mask: { get padding() { return thrower('mask getter')(); } } })],
    ['valueOf of a size', () => mha.forward({ ...base, batch: { valueOf: thrower('valueOf') } })],
    ['valueOf of a padding length', () => mha.forward({ ...base, mask: { padding: [{ valueOf: thrower('valueOf') }, 8] } })],
    ['valueOf of the budget', () => mha.forward({ ...base, memory_budget: { valueOf: thrower('valueOf') } })],
    // Each of the four keys is there to be read (the API reads only the keys given): the read that throws varies.
    ['Proxy trap on the options', (r) => mha.forward(new Proxy({ ...base, mask: 'causal', into: { output: out() } }, {
      get: (target, key) => (key === ['mask', 'query', 'into', 'n_q'][r % 4] ? thrower('Proxy get trap')() : target[key]),
    }))],
    ['Proxy trap on the weights, after some reads', (r) => {
      let reads = 0;
      return mha.setWeights(new Proxy({ ...w }, {
        get: (target, key) => (typeof key === 'string' && reads++ >= r % 9 ? thrower('Proxy get trap')() : target[key]),
      }));
    }],
    ['Proxy as the query array', () => mha.forward({ ...base, query: new Proxy(query, { get: thrower('Proxy trap') }) })],
    ['Proxy trap on into', () => mha.forward({ ...base, into: new Proxy({ output: out() }, { ownKeys: thrower('ownKeys trap') }) })],
    ['overridden set on into.output', () => {
      const output = out();
      output.set = thrower('set');
      return mha.forward({ ...base, need_weights: true, into: { output } });
    }],
    ['overridden set on into.weights', () => {
      const weights = new Float32Array(batch * 4 * n_q * n_q);
      Object.defineProperty(weights, 'set', { get: thrower('set getter') });
      return mha.forward({ ...base, need_weights: true, into: { weights } });
    }],
    ['overridden Float32Array.prototype.set', () =>
      withPatched(Float32Array.prototype, 'set', thrower('prototype set'), () => mha.forward({ ...base, need_weights: true }))],
    ['overridden TypedArray length getter', () => withPatched(TypedArrayPrototype, 'length', 7, () => mha.forward(base))],
    ['slice fails: forward', () => withSliceFailing(() => mha.forward({ ...base, need_weights: true }))],
    ['slice fails: forward, weights only', () => withSliceFailing(() => mha.forward({ ...base, need_weights: true, into: { output: out() } }))],
    ['slice fails: scaledDotProductAttention', () => withSliceFailing(() =>
      attn.scaledDotProductAttention({ q: q4, k: q4, v: q4, n_q: 8, n_k: 8, d_k: 4, need_weights: true }))],
    ['slice fails: getWeights', () => withSliceFailing(() => mha.getWeights())],
    ['slice fails: matmul', () => withSliceFailing(() => attn.matmul({ a: q4, b: q4, m: 8, k: 4, n: 8 }))],
    ['slice fails: positionalEncoding', () => withSliceFailing(() => attn.positionalEncoding({ n: 8, d_model: 4 }))],
    ['getter on an analyze option', () => attn.analyze({ d_model: 16, n_heads: 4, get n() { return thrower('getter')(); } })],
    ['getter on a trace index', () => mha.trace({ ...base, get query_index() { return thrower('getter')(); } })],
    ['valueOf of a trace index', () => mha.trace({ ...base, head: { valueOf: thrower('valueOf') }, query_index: 0 })],
    ['slice fails: trace', () => withSliceFailing(() => mha.trace({ ...base, head: 1, query_index: 3 }))],
    ['slice fails: traceAttention', () => withSliceFailing(() =>
      attn.traceAttention({ q: q4, k: q4, v: q4, n_q: 8, n_k: 8, d_k: 4, query_index: 2 }))],
  ].map(([name, call]) => [name, (round) => {
    let r;
    try {
      r = call(round);
    } catch (e) {
      assert.ok(e instanceof Error, `${name}: threw ${typeof e} ${e}`);
      assert.ok(e.message.length > 0, `${name}: an Error without a message`);
      return 'threw';
    }
    // A call that went through must be right: the overridden methods were never used.
    if (r?.shapes) {
      // need_weights on and off take different paths, equal to rounding only: compare like with like.
      const e = normwiseError(r.output, (r.weights ? fresh.withWeights : fresh.withoutWeights).output);
      assert.equal(e.error, 0, `${name}: a wrong output (at ${e.at}: ${e.actual} instead of ${e.expected})`);
    }
    return 'returned';
  }]);
}

for (const [isa, attn] of Object.entries(modules)) {
  test(`${isa}: ${CALLS.toLocaleString('en-US')} calls broken by JavaScript exceptions leave the heap and the stack where they were`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 16, n_heads: 4, seed: 3 });
    const w = mha.getWeights();
    const query = randomArray(2 * 8 * 16, 11);
    const fresh = { withWeights: mha.forward({ query, batch: 2, n_q: 8, need_weights: true }),
      withoutWeights: mha.forward({ query, batch: 2, n_q: 8 }) };
    const calls = hostileCalls(attn, mha, w, query, fresh);
    for (let i = 0; i < 3 * calls.length; i++) calls[i % calls.length][1](Math.floor(i / calls.length)); // warm-up: rounds 0 to 2
    const heap = attn.heapAllocated(), stack = attn.stackPointer(), memory = attn.memoryBytes();
    const outcomes = new Map(calls.map(([name]) => [name, { returned: 0, threw: 0 }]));
    for (let i = 0; i < CALLS; i++) {
      const [name, call] = calls[i % calls.length];
      outcomes.get(name)[call(Math.floor(i / calls.length))]++;
      // After every call (not only at the end): the call that left something behind is named.
      if (attn.heapAllocated() !== heap || attn.stackPointer() !== stack || attn.memoryBytes() !== memory) {
        assert.fail(`call ${i + 1} (${name}): malloc'd bytes ${heap} → ${attn.heapAllocated()}, wasm stack pointer ${stack} → ` +
          `${attn.stackPointer()}, wasm memory ${memory} → ${attn.memoryBytes()} bytes`);
      }
    }
    assert.equal(attn.heapAllocated(), heap, `malloc'd bytes went from ${heap} to ${attn.heapAllocated()}`);
    assert.equal(attn.stackPointer(), stack, 'the wasm stack pointer moved');
    assert.equal(attn.memoryBytes(), memory, 'the wasm memory grew');
    // Every kind really threw at least once (the fixture is hostile where it means to be).
    for (const [name, n] of outcomes) {
      if (!/overridden|read twice|after some reads/.test(name)) assert.ok(n.threw > 0, `${name}: never threw (${JSON.stringify(n)})`);
    }
    console.log(`${isa}: ${[...outcomes].map(([name, n]) => `${name} ${n.threw}/${n.threw + n.returned}`).join('; ')} threw`);

    // Later calls are right, to float64 accuracy, into new arrays and into the caller's.
    const weights = mha.getWeights();
    const mask = { causal: true, padding: [8, 5] };
    const ref = mhaReference({ query, key: query, value: query, batch: 2, n_q: 8, n_k: 8, d_model: 16, n_heads: 4, d_k: 4, d_v: 4,
      weights, mask });
    const r = mha.forward({ query, batch: 2, n_q: 8, mask, need_weights: true });
    const into = { output: new Float32Array(256).fill(NaN), weights: new Float32Array(512).fill(NaN) };
    const s = mha.forward({ query, batch: 2, n_q: 8, mask, need_weights: true, into });
    mha.delete();
    for (const [what, actual, expected] of [['output', r.output, ref.output], ['weights', r.weights, ref.weights],
      ['into.output', s.output, ref.output], ['into.weights', s.weights, ref.weights]]) {
      const e = normwiseError(actual, expected);
      assert.ok(e.error <= 1e-5, `${what}: normwise error ${e.error} (worst at ${e.at}: ${e.actual} vs ${e.expected})`);
    }
    assert.ok(s.output === into.output && s.weights === into.weights);
  });

  test(`${isa}: a need_weights forward at 8 heads × 512² whose result cannot be copied out leaks nothing`, () => {
    const mha = new attn.MultiHeadAttention({ d_model: 64, n_heads: 8, seed: 5 });
    const query = randomArray(512 * 64, 12);
    const output = new Float32Array(512 * 64);
    output.set = thrower('set');
    const run = (i) => (i % 2 === 0
      ? withSliceFailing(() => mha.forward({ query, n_q: 512, need_weights: true }))
      : mha.forward({ query, n_q: 512, need_weights: true, into: { output, get weights() { return thrower('getter')(); } } }));
    assert.throws(() => run(0), RangeError);
    const heap = attn.heapAllocated(), stack = attn.stackPointer();
    for (let i = 0; i < 20; i++) assert.throws(() => run(i));
    const leaked = attn.heapAllocated() - heap, moved = attn.stackPointer() - stack;
    mha.delete();
    assert.equal(leaked, 0, `malloc'd bytes grew by ${leaked} (${(leaked / 20 / 2 ** 20).toFixed(1)} MiB a call)`);
    assert.equal(moved, 0, 'the wasm stack pointer moved');
  });
}
