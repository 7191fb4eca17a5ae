// The training lab and the √d_k gradient lab in the JavaScript API: createTrainer (a tiny
// model trained step by step with Adam on a seeded task) and sqrtDkGradients. The maths is the
// core's (cpp/labs/train.h, sqrt_dk_lab.h); this file checks arguments and calls the bindings
// of cpp/bindings/training.cpp through native.js, in the pattern embind.cpp describes.
import * as check from './checks.js';
import { record } from './record.js';

const TRAINER_KEYS = ['task', 'd_model', 'n_heads', 'seq_len', 'vocab', 'batch', 'lr', 'seed'];
const MHA_PARAMS = ['wq', 'wk', 'wv', 'wo', 'bq', 'bk', 'bv', 'bo'];
const MODEL_PARAMS = [...MHA_PARAMS, 'embedding', 'readout', 'readout_bias'];
/** The lab's default sweep: d_k from 4 to 1024 in powers of two. */
const DEFAULT_D_K = [4, 8, 16, 32, 64, 128, 256, 512, 1024];

/** The API's training methods over the module `raw` and its call wrapper `native` (native.js). */
export function makeTrainingApi(native, raw) {
  let tasks = null; // [{ name, default_lr }] from the engine, read on first use
  const taskList = () => (tasks ??= native.call((x) => x.run('trainTasks').value));

  /**
   * The task (its index in the engine's list) and the sizes of a trainer's config, checked, with their
   * defaults: createTrainer and trainingCost read them alike, so a cost is always that of the trainer
   * the same config would make.
   */
  function trainingSizes(o) {
    const names = taskList().map((t) => t.name);
    return {
      task: names.indexOf(check.choice('task', o.task, names, 'two_relation')),
      d_model: check.integer('d_model', o.d_model, { fallback: 32 }),
      n_heads: check.integer('n_heads', o.n_heads, { fallback: 2 }),
      seq_len: check.integer('seq_len', o.seq_len, { fallback: 8 }),
      vocab: check.integer('vocab', o.vocab, { fallback: 16 }),
      batch: check.integer('batch', o.batch, { fallback: 32 }),
    };
  }

  /** A tiny model being trained; call delete() when done to free its wasm memory. */
  class Trainer {
    #id; // the engine's id of this trainer, null once deleted
    constructor(made) {
      this.#id = made.trainer;
      /** The configuration in use (lr resolved to the task's default when not given). */
      this.config = made.config;
      /** The attention layer's sizes: { d_model, n_heads, d_k, d_v, bias }. */
      this.dims = made.dims;
      /** { n_embeddings, n_classes, n_slots, slots: [names], relations: [names] }. */
      this.shape = made.shape;
      /** The most steps one step() call may take at these sizes. */
      this.max_steps_per_call = made.max_steps_per_call;
    }

    #live() {
      if (this.#id === null) throw new Error('this trainer was deleted');
      return this.#id;
    }

    /** n Adam steps on fresh batches: { steps (in all), loss: [n], accuracy: [n] } of those batches. */
    step(n = 1) {
      const id = this.#live();
      const steps = check.integer('steps', n);
      return native.call((x) => x.run('trainerStep', id, steps).value);
    }

    /**
     * Scores the model on held-out samples (the same ones on every call, never trained on):
     * { samples, loss, accuracy, sequence_accuracy, slot_accuracy: { slot: share }, focus:
     * [{ relation: mean weight }] per head, focus_rows: { relation: rows averaged } }.
     */
    evaluate(args = {}) {
      const id = this.#live();
      const o = check.options('evaluate', args, ['samples']);
      const samples = check.integer('samples', o.samples, { fallback: 1000 });
      return native.call((x) => x.run('trainerEvaluate', id, samples).value);
    }

    /**
     * Sample number `sample` (its own seeded stream) through the model: { tokens, labels,
     * targets, predictions ([seq_len, n_slots], −1 where nothing is predicted), weights
     * Float32Array [n_heads, seq_len, seq_len], input Float32Array [seq_len, d_model] (the
     * layer's input: embedding + positional encoding) }.
     */
    attentionMaps(args = {}) {
      const id = this.#live();
      const o = check.options('attentionMaps', args, ['sample']);
      const sample = check.seed('sample', o.sample, 0);
      return native.call((x) => {
        const r = x.run('trainerSample', id, sample);
        return { ...r.value, ...x.arrays(r, { weights: null, input: null }) };
      });
    }

    /**
     * The learnt parameters as Float32Array copies: wq … bo in mha.setWeights' layout (so a
     * MultiHeadAttention of the same d_model and n_heads can load them), embedding
     * [n_embeddings, d_model], readout [d_model, n_slots·n_classes], readout_bias.
     */
    weights() {
      const id = this.#live();
      return native.call((x) => x.arrays(x.run('trainerWeights', id), Object.fromEntries(MODEL_PARAMS.map((k) => [k, null]))));
    }

    /** Frees the wasm memory of this trainer. */
    delete() {
      if (this.#id !== null) raw.trainerDelete(this.#id); // cannot fail: no envelope (pattern item 4)
      this.#id = null;
    }
  }

  return {
    /** The task names createTrainer accepts, each with its default learning rate. */
    trainTasks: () => taskList().map((t) => ({ ...t })),

    /**
     * A trainer: { task = 'two_relation', d_model = 32, n_heads = 2, seq_len = 8, vocab = 16,
     * batch = 32, lr = the task's default, seed = 1 }.
     */
    createTrainer(config = {}) {
      const o = check.options('createTrainer', config, TRAINER_KEYS);
      const sizes = trainingSizes(o);
      const lr = check.number('lr', o.lr, undefined);
      // The engine reads 0 as "the task's default"; a caller's 0 is an error, not that.
      if (lr !== undefined && !(lr > 0 && lr <= 1)) throw new Error(`lr must be a number in (0, 1], got ${lr}`);
      const seed = check.seed('seed', o.seed);
      return new Trainer(native.call((x) =>
        x.run('trainerCreate', record(x, { ...sizes, lr: lr ?? 0, seed })).value));
    },

    /**
     * The core's count of the work of training: { step_macs } of one step at these sizes (the same keys
     * and defaults as createTrainer; lr and seed do not change it), so a caller can estimate n steps
     * before it trains. No trainer is made.
     */
    trainingCost(config = {}) {
      const o = check.options('trainingCost', config, TRAINER_KEYS);
      const sizes = trainingSizes(o);
      return native.call((x) => x.run('trainCost', record(x, sizes)).value);
    },

    /**
     * The √d_k lab with gradients: for each d_k, with and without the 1/√d_k scale, the row
     * norms of ∂L/∂S (median and mean), of ∂L/∂q, the share of saturated rows (largest weight
     * > 0.99) and the entropy, at initialisation. Σ d_k·n_k·samples ≤ 50,000,000.
     */
    sqrtDkGradients(args = {}) {
      const o = check.options('sqrtDkGradients', args, ['d_k_values', 'n_k', 'samples', 'seed']);
      const values = o.d_k_values === undefined ? DEFAULT_D_K : check.plainArray('d_k_values', o.d_k_values, 'whole numbers');
      const d_ks = new Int32Array(values.length);
      for (let i = 0; i < values.length; i++) d_ks[i] = check.integer(`d_k_values[${i}]`, values[i]);
      const n_k = check.integer('n_k', o.n_k, { fallback: 64 });
      const samples = check.integer('samples', o.samples, { fallback: 256 });
      const seed = check.seed('seed', o.seed);
      // An empty list goes as no input (0), for the engine's own message.
      return native.call((x) =>
        x.run('sqrtDkGradients', d_ks.length ? x.input('d_k_values', d_ks) : 0, n_k, samples, seed).value);
    },
  };
}
