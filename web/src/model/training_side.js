// The training lab's part of the compute (the worker, or the page's thread where no worker starts):
// each playground's trainer, stepped a few steps per request so the panel can draw between them
// (features/training/handler.js asks for that), and the trained model a layer with weights=trained
// runs on. Training is seeded, so the model of a link (train_* fields, train_steps) is trained again,
// step for step, when no live trainer matches it.

import { trainingKey, trainerArguments, TRAIN_LIMITS } from './training_settings.js';

/** Held-out samples scored after each request: enough for a stable percentage, cheap next to a step. */
const EVAL_SAMPLES = 500;
const MHA_KEYS = ['wq', 'wk', 'wv', 'wo', 'bq', 'bk', 'bv', 'bo'];

/** n steps in calls the engine accepts; post(progress) between them (it keeps the watchdog fed). */
function stepMany(trainer, n, post) {
  const loss = [], accuracy = [];
  for (let done = 0; done < n;) {
    const r = trainer.step(Math.min(trainer.max_steps_per_call, n - done));
    for (let i = 0; i < r.loss.length; i++) { loss.push(r.loss[i]); accuracy.push(r.accuracy[i]); }
    done += r.loss.length;
    post?.({ done, total: n, phase: `training step ${done.toLocaleString('en-US')} of ${n.toLocaleString('en-US')}` });
  }
  return { loss, accuracy };
}

/** One sample through a trainer, as the lab's heatmaps and a task-input run need it. */
function sampleOf(trainer, n) {
  const m = trainer.attentionMaps({ sample: n });
  return { input: m.input, labels: m.labels, tokens: m.tokens, targets: m.targets, predictions: m.predictions, attention: m.weights };
}

export function createTrainingSide() {
  /** The owner's live trainer for these settings (a new one when the settings changed or on reset). */
  function live(attn, mine, settings, reset) {
    const key = trainingKey(settings);
    if (reset || mine.lab?.key !== key) {
      mine.lab?.trainer.delete();
      mine.lab = null;
      mine.lab = { key, trainer: attn.createTrainer(trainerArguments(settings)), steps: 0 };
    }
    return mine.lab;
  }

  return {
    /**
     * The lab panel's request: the trainer for `settings` (made on first use, remade with `reset`),
     * `steps` more steps (0: just look), then the held-out score and sample number `sample`.
     */
    request(attn, mine, { settings, steps = 0, sample = 0, reset = false }, post) {
      if (!(Number.isInteger(steps) && steps >= 0 && steps <= TRAIN_LIMITS.steps)) throw new Error(`steps must be a whole number from 0 to ${TRAIN_LIMITS.steps}`);
      const lab = live(attn, mine, settings, reset);
      const { trainer } = lab;
      const report = stepMany(trainer, steps, post);
      lab.steps += steps;
      return {
        steps: lab.steps, config: trainer.config, dims: trainer.dims, shape: trainer.shape, report,
        evaluation: trainer.evaluate({ samples: EVAL_SAMPLES }), sample: sampleOf(trainer, sample),
      };
    },

    /**
     * The trained model of a run's config ({ settings, steps } in config.train, or the lab's settings
     * for a task input): the owner's live trainer when it is at exactly those steps, else one trained
     * again from the seed (kept for the next run). { weights(), sample(n) }.
     */
    trained(attn, mine, config, post) {
      const { settings, steps } = config.train;
      const key = JSON.stringify([trainingKey(settings), steps]);
      if (mine.lab?.key === trainingKey(settings) && mine.lab.steps === steps) {
        const { trainer } = mine.lab;
        // Copied now: the live trainer may train on before the next run asks.
        const all = trainer.weights();
        mine.frozen?.trainer?.delete();
        mine.frozen = { key, params: Object.fromEntries(MHA_KEYS.map((k) => [k, all[k]])), samples: new Map(), trainer: null };
        const frozen = mine.frozen;
        frozen.samples.set(config.input_seed, sampleOf(trainer, config.input_seed));
      }
      if (mine.frozen?.key !== key) {
        mine.frozen?.trainer?.delete();
        mine.frozen = null;
        const trainer = attn.createTrainer(trainerArguments(settings));
        stepMany(trainer, steps, post);
        const all = trainer.weights();
        mine.frozen = { key, params: Object.fromEntries(MHA_KEYS.map((k) => [k, all[k]])), samples: new Map(), trainer };
      }
      const frozen = mine.frozen;
      return {
        weights: () => frozen.params, // W, for setWeights (model/job.js)
        sample: (n) => {
          if (!frozen.samples.has(n)) {
            if (frozen.samples.size >= 64) frozen.samples.clear(); // a learner stepping through samples: keep a few
            // A sample the copy does not hold: from a trainer at these steps, the lab's while it is still
            // there (the page counted no training for it), else one trained again (the page counts that
            // training again as soon as the lab steps on or resets: playground.js, heldModelMoves).
            const live = mine.lab?.key === trainingKey(settings) && mine.lab.steps === steps ? mine.lab.trainer : null;
            const from = live ?? (frozen.trainer ??= (() => { const t = attn.createTrainer(trainerArguments(settings)); stepMany(t, steps, post); return t; })());
            frozen.samples.set(n, sampleOf(from, n));
          }
          return frozen.samples.get(n);
        },
      };
    },

    /** Frees an owner's trainers. */
    release(mine) {
      mine.lab?.trainer.delete();
      mine.frozen?.trainer?.delete();
      mine.lab = mine.frozen = null;
    },
  };
}
