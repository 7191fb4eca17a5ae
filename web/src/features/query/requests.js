// What the "Follow one query" panel asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** The core's trace of one query: { config, item, head, query } → { trace, labels_q, labels_k }. */
  trace: Object.freeze({ passes: 2 }),
  /** One head's logits and attention for every query, with and without 1/√d_k: { config, item, head }. */
  headLogits: Object.freeze({ passes: 2 }),
});
