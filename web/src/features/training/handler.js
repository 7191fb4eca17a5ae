// The compute side of the training lab: the owner's trainer, stepped a few steps per request. The
// trainers live in model/training_side.js, because a run with weights=trained uses them too.

export const handlers = {
  /** The trainer for `settings` (made on first use, remade with `reset`), `steps` more steps, sample `sample`. */
  async train(request, side, post) {
    return side.training.request(await side.labs(), side.mine, request, post);
  },

  /** { args (createTrainer's), steps, samples } → { lr, steps, accuracy }: a fresh model, not the lab's, trained and scored. */
  async trainPreview({ args, steps, samples }, side) {
    const trainer = (await side.labs()).createTrainer(args);
    try {
      let done = 0;
      while (done < steps) done += trainer.step(Math.min(trainer.max_steps_per_call, steps - done)).loss.length;
      return { lr: trainer.config.lr, steps: done, accuracy: trainer.evaluate({ samples }).accuracy };
    } finally {
      trainer.delete();
    }
  },
};
