// What the KV cache panel asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** The sentence decoded token by token with a KV cache: { config } → { n, labels, steps, ... }. */
  kvDecode: Object.freeze({ passes: 2 }),
});
