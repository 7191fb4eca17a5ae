// What the export asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /**
   * Every tensor of one run of `config`, computed by the engine: → { tensors: { name: { shape, data } },
   * sizes, labels_q, labels_k, masked_rows }. About four passes: the forward pass, the projections and
   * the head outputs (one matmul per head and batch item).
   */
  tensors: Object.freeze({ passes: 4 }),
  /** Holds imported tensors (import/tensors.js checked them) for the owner's runs: → { held: its id }. */
  holdImports: Object.freeze({ deadlineMs: 30000 }),
  /**
   * Reads files a learner brought ({ files: [{ name, bytes }], config }) off the page's thread, each
   * bounded by the view's sizes (import/files.js): → { given (importTensors' object), skipped }.
   */
  readImports: Object.freeze({ deadlineMs: 60000 }),
});
