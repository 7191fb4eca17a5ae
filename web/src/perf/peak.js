// Measures this browser's f32x4 multiply+add peak with a tiny wasm module assembled here from bytes:
// independent chains acc = acc·x + y, so the result is limited by SIMD throughput, not latency.

// Enough chains to hide the mul→add latency on two SIMD ports; measured here, 12 beat 8 and 10,
// and 14 fell off a cliff (V8 runs out of the 16 xmm registers and spills to memory).
const CHAINS = 12;
const FLOPS_PER_ITERATION = CHAINS * 4 /* lanes */ * 2 /* mul + add */;

const uleb = (n) => {
  const out = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
};
const f32x4Bytes = (value) => [...new Uint8Array(new Float32Array([value, value, value, value]).buffer)];
const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];

const OP = {
  localGet: 0x20, localSet: 0x21, localTee: 0x22, i32Const: 0x41, i32Sub: 0x6b, brIf: 0x0d,
  loop: 0x03, end: 0x0b, void: 0x40, f32Add: 0x92,
  v128Const: [0xfd, 0x0c], f32x4Mul: [0xfd, 0xe6, 0x01], f32x4Add: [0xfd, 0xe4, 0x01], f32x4ExtractLane: [0xfd, 0x1f],
};

/** The module's bytes: export peak(iterations: i32) -> f32 (the sum of the chains, so no work is dead). */
export function peakModuleBytes() {
  const x = 1 + CHAINS, y = 2 + CHAINS; // local indices: 0 = iterations, 1..CHAINS = accumulators
  const body = [];
  for (let c = 1; c <= CHAINS; c++) body.push(...OP.v128Const, ...f32x4Bytes(1 + c / 64), OP.localSet, c);
  // acc → acc·0.999 + 0.001 converges to 1: no overflow, no denormals, whatever the count.
  body.push(...OP.v128Const, ...f32x4Bytes(0.999), OP.localSet, x);
  body.push(...OP.v128Const, ...f32x4Bytes(0.001), OP.localSet, y);
  body.push(OP.loop, OP.void);
  for (let c = 1; c <= CHAINS; c++) {
    body.push(OP.localGet, c, OP.localGet, x, ...OP.f32x4Mul, OP.localGet, y, ...OP.f32x4Add, OP.localSet, c);
  }
  body.push(OP.localGet, 0, OP.i32Const, 1, OP.i32Sub, OP.localTee, 0, OP.brIf, 0, OP.end);
  body.push(OP.localGet, 1, ...OP.f32x4ExtractLane, 0);
  for (let c = 2; c <= CHAINS; c++) body.push(OP.localGet, c, ...OP.f32x4ExtractLane, 0, OP.f32Add);
  body.push(OP.end);
  const locals = [1, ...uleb(CHAINS + 2), 0x7b /* v128 */];
  const func = [...locals, ...body];
  const name = [...new TextEncoder().encode('peak')];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 1, 0x7f, 1, 0x7d]),            // type: (i32) -> f32
    ...section(3, [1, 0]),                                  // one function of type 0
    ...section(7, [1, name.length, ...name, 0x00, 0]),      // export "peak" = function 0
    ...section(10, [1, ...uleb(func.length), ...func]),     // its code
  ]);
}

/**
 * Times the module and returns { gflops, seconds, iterations }, the best of `repeats` runs of at
 * least `minSeconds` each, or null where the engine has no wasm SIMD.
 */
export async function measurePeak({ minSeconds = 0.05, repeats = 3, now = () => performance.now() / 1000 } = {}) {
  const bytes = peakModuleBytes();
  if (typeof WebAssembly !== 'object' || !WebAssembly.validate(bytes)) return null;
  const { instance } = await WebAssembly.instantiate(bytes);
  const peak = instance.exports.peak;
  peak(10000); // let V8 tier the function up before anything is timed
  let iterations = 100000, seconds = 0;
  for (;;) {
    const t0 = now();
    peak(iterations);
    seconds = now() - t0;
    if (seconds >= minSeconds || iterations > 2 ** 29) break;
    iterations = Math.min(2 ** 30, Math.ceil(iterations * Math.max(2, (minSeconds * 1.2) / Math.max(seconds, 1e-6))));
  }
  let best = seconds;
  for (let r = 1; r < repeats; r++) {
    const t0 = now();
    peak(iterations);
    best = Math.min(best, now() - t0);
  }
  return { gflops: (FLOPS_PER_ITERATION * iterations) / best / 1e9, seconds: best, iterations };
}
