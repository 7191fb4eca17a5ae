// What the √d_k lab asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** One seeded query's softmax row over a few keys, with and without the scale (handler.js). */
  sqrtDkRow: Object.freeze({ deadlineMs: 20000 }),
});
