// What the exercises ask the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** The core calls that give an exercise's answer: { calls: [{ op, args }] } → { results } (handler.js). */
  solve: Object.freeze({ deadlineMs: 60000 }),
});
