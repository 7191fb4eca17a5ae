// The training lab's fields of the state (pure, no DOM): the lab panel, the validation of a layer that
// uses the trained weights (weights=trained) and the compute side read them through here, so all three
// agree on what a setting means and on its limits.

import { parseInteger } from './parse.js';
import { cutText, field } from './schema.js';

/** The engine's tasks (attn.trainTasks(); tests/js/train.test.mjs holds this list to it). */
export const TRAIN_TASKS = Object.freeze(['copy_previous', 'copy_first', 'reverse', 'lookup', 'two_relation']);

/** What each task asks, for the lab's menu (short: a phone shows the whole option) and text. */
export const TASK_TEXT = Object.freeze({
  copy_previous: 'copy the previous token',
  copy_first: 'copy the first token',
  reverse: 'reverse the sequence',
  lookup: 'look up a stored value',
  two_relation: 'two outputs: previous and first',
});

/**
 * The lab's limits, from the ranges of the train_* fields of the schema (their one home on the page; the
 * engine checks its own, cpp/labs/train.cpp and tasks.cpp, and tests/js/train.test.mjs holds the two equal).
 */
export const TRAIN_LIMITS = Object.freeze({ d_model: field('train_d_model').max, n_heads: field('train_n_heads').max,
  seq_len: field('train_seq_len').max, seed: field('train_seed').max, steps: field('train_steps').max });
/** The lab's fixed sizes (the engine's defaults): 16 symbols, 32 sequences a step. */
export const TRAIN_VOCAB = 16;
export const TRAIN_BATCH = 32;

/**
 * Reads the train_* fields: { settings: { task, d_model, n_heads, seq_len, lr (null: the task's
 * default), seed } or null, steps (train_steps) or null, errors: { field: message } }. `core`: the
 * engine's { resolveView }, which says whether n_heads divides d_model (without it, the trainer
 * the engine makes says so).
 */
export function parseTraining(state, core = {}) {
  const errors = {};
  const int = (key, name) => {
    const { min, max } = field(key);
    const r = parseInteger(state[key], { name, min, max });
    if (r.error) errors[key] = r.error;
    return r.value;
  };
  const task = String(state.train_task ?? '');
  if (!TRAIN_TASKS.includes(task)) errors.train_task = `the task must be one of ${TRAIN_TASKS.join(', ')}, not “${cutText(task, 40)}”`;
  const d_model = int('train_d_model', 'd_model');
  const n_heads = int('train_n_heads', 'n_heads');
  const seq_len = int('train_seq_len', 'the sequence length');
  const seed = int('train_seed', 'the seed');
  const steps = int('train_steps', 'train_steps');
  let lr = null;
  const lrText = String(state.train_lr ?? '').trim();
  if (lrText !== '') {
    lr = Number(lrText);
    if (!/^(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(lrText) || !(lr > 0 && lr <= 1)) {
      errors.train_lr = `the learning rate must be a number above 0 and at most 1, not “${cutText(lrText, 40)}” (empty: the task’s default)`;
      lr = null;
    }
  }
  if (d_model && n_heads && seq_len && core.resolveView) {
    // The lab's layer is a layer like the playground's: the core's rules of its sizes name what is wrong.
    const view = core.resolveView({ d_model, n_heads, n_q: seq_len, batch: 1 });
    if (!view.ok && ['d_model', 'n_heads'].includes(view.field)) errors[`train_${view.field}`] = view.message;
  }
  if (task === 'lookup' && seq_len && seq_len - 1 > TRAIN_VOCAB) {
    errors.train_seq_len = `lookup stores seq_len − 1 pairs under distinct keys, and there are ${TRAIN_VOCAB}: the sequence length can be at most ${TRAIN_VOCAB + 1}`;
  }
  const settingsOk = !['train_task', 'train_d_model', 'train_n_heads', 'train_seq_len', 'train_lr', 'train_seed'].some((k) => errors[k]);
  return { settings: settingsOk ? { task, d_model, n_heads, seq_len, lr, seed } : null, steps: errors.train_steps ? null : steps, errors };
}

/** A trainer's identity: two equal keys train the same model, step for step. */
export const trainingKey = (settings) =>
  JSON.stringify([settings.task, settings.d_model, settings.n_heads, settings.seq_len, settings.lr, settings.seed]);

/** The arguments of attn.createTrainer for settings. */
export function trainerArguments(settings) {
  const { task, d_model, n_heads, seq_len, lr, seed } = settings;
  return { task, d_model, n_heads, seq_len, vocab: TRAIN_VOCAB, batch: TRAIN_BATCH, seed, ...(lr === null ? {} : { lr }) };
}

/**
 * The identity of a trained model, settings and steps (config.train of a run: { settings, steps }), or
 * null: what the compute side holds after the lab's model was used or a trained run finished, so that
 * running it again is not counted as training it again (validate.js, trainingWork).
 */
export const trainedKey = (train) => (train?.settings ? JSON.stringify([trainingKey(train.settings), train.steps]) : null);

/** trainedKey of the model a state's train_* fields describe (null when they are not valid). */
export function trainedKeyOf(state) {
  const { settings, steps } = parseTraining(state);
  return steps === null ? null : trainedKey({ settings, steps });
}
