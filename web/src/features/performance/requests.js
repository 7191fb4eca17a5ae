// What the performance panel asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** The n-sweep: { layer, ns, workers } → { points, isa, layer } (progress per length). */
  sweep: Object.freeze({ deadlineMs: 60000 }),
});
