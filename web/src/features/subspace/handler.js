// The compute side of the "why several heads" panel: the training lab's two-relation task learnt twice by
// the core (attn.createTrainer), once with one head and once with two at the same d_model, the same
// steps and seed; each run's held-out accuracy, per output and per head where it looks. Imports nothing:
// scripts/subspace_result.mjs and the tests call the same handler with the engine in Node.

/** The comparison's settings: the lab's defaults (two_relation, d_model 32, seed 1), the same for both runs. */
export const SUBSPACE_RUN = Object.freeze({ task: 'two_relation', d_model: 32, seed: 1, steps: 300, samples: 1000, heads: [1, 2] });

export const handlers = {
  /**
   * {} → { settings, isa, runs: [{ n_heads, d_k, steps, accuracy, slot_accuracy: { previous, first },
   * focus: [per head { previous, first }] }] }: every figure the engine's.
   */
  async subspaceTrain(_request, side, post) {
    const attn = await side.labs();
    const { task, d_model, seed, steps, samples, heads } = SUBSPACE_RUN;
    const runs = [];
    for (const [i, n_heads] of heads.entries()) {
      const trainer = attn.createTrainer({ task, d_model, n_heads, seed });
      try {
        let done = 0;
        while (done < steps) {
          done = trainer.step(Math.min(50, steps - done, trainer.max_steps_per_call)).steps;
          // Progress between calls (it keeps the watchdog fed): both runs' steps in one count.
          post?.({ done: i * steps + done, total: heads.length * steps, n_heads });
        }
        const e = trainer.evaluate({ samples });
        runs.push({ n_heads, d_k: trainer.dims.d_k, steps: done, accuracy: e.accuracy, slot_accuracy: { ...e.slot_accuracy },
          focus: e.focus.map((f) => ({ previous: f.previous, first: f.first })) });
      } finally {
        trainer.delete();
      }
    }
    return { settings: { ...SUBSPACE_RUN, heads: [...heads] }, runs, isa: attn.isa };
  },
};
