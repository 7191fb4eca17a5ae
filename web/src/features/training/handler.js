// The compute side of the training lab: the owner's trainer, stepped a few steps per request. The
// trainers live in model/training_side.js, because a run with weights=trained uses them too.

export const handlers = {
  /** The trainer for `settings` (made on first use, remade with `reset`), `steps` more steps, sample `sample`. */
  async train(request, side, post) {
    return side.training.request(await side.labs(), side.mine, request, post);
  },
};
