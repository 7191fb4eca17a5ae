// What the training lab asks the compute for (see features/index.js for the fields).

export const requests = Object.freeze({
  /** { settings, steps, sample, reset }: the trainer for settings, steps more steps, a sample (model/training_side.js). */
  // movesTrainedModel: more steps or a reset take the lab's model, which the playground may have been
  // handed, away from the worker: the playground then counts its training again (playground.js).
  /** { args, steps, samples }: a copy of the lab's model trained a few steps, scored (preview.js). */
  trainPreview: Object.freeze({ deadlineMs: 60000 }),
  train: Object.freeze({ deadlineMs: 60000, movesTrainedModel: (payload) => payload.steps > 0 || payload.reset === true }),
});
