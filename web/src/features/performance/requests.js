// What the performance panel asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** The n-sweep: { layer, ns, workers } → { points, isa, layer } (progress per length). */
  sweep: Object.freeze({ deadlineMs: 60000 }),
  /** This browser's f32x4 peak: {} → { peak: { gflops, seconds, iterations } or null without wasm SIMD }. */
  browserPeak: Object.freeze({ deadlineMs: 30000 }),
});
