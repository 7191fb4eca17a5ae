// What the "why several heads" panel asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** {} → one head against two on the two-relation task, trained by the core (handler.js). */
  subspaceTrain: Object.freeze({ deadlineMs: 120000 }),
});
