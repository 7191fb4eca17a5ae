// What the linear-attention panel asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** Linear and softmax attention on the same inputs, and their costs: → { linear, softmax, cost, sweep, … }. */
  linearCompare: Object.freeze({ deadlineMs: 30000 }),
});
