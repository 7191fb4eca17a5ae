// What the √d_k gradient lab asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** The core's sweep (attn.sqrtDkGradients) of these arguments: → { gradients }. */
  gradients: Object.freeze({ deadlineMs: 60000 }),
});
