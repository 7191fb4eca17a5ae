// What the sparse-patterns panel asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** Full, sliding and strided masks at the playground's sizes: maps and visible-pair costs (handler.js). */
  sparsePatterns: Object.freeze({ deadlineMs: 20000 }),
});
