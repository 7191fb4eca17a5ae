// What the training lab asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** { settings, steps, sample, reset }: the trainer for settings, steps more steps, a sample (worker/training.js). */
  train: Object.freeze({ deadlineMs: 60000 }),
});
