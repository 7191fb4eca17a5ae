// Validation of the state as typed (pure, no DOM): turns the strings of the form into a run
// config, one clear message per bad field, and decides whether a run fits this tab. Only the
// form is checked here (is it a whole number, a choice, a line per batch item); the rules of
// the sizes (limits, divisibility, n_kv_heads, padding lengths) are the engine's, asked through
// env.resolveView, and the key/value head of each query head comes from its answer.

import { sentences } from './inputs.js';
import { readStep } from './step.js';
import { FIELDS, VIEW_FIELDS, SIZE_FIELDS, LAYER_FIELDS, field as fieldOf, optional, cutText } from './schema.js';
import { parseTraining, trainerArguments } from './training_settings.js';
import { parseDecimal, parseInteger } from './parse.js';
import * as fmt from './format.js';
import { text } from '../lesson/panels/validation.js'; // the messages' words (the core's own messages stay the core's)

export { parseInteger }; // read from here by older callers; it lives in parse.js

/** Caps of the page's own inputs (sentences, seeds); the sizes' limits are the engine's (resolveView). */
export const LIMITS = { tokens: 256, lines: 64, seed: fieldOf('seed').max };

/** Throughput assumed before anything was measured: deliberately low, so the estimate errs long. */
export const ASSUMED_FLOPS_PER_SECOND = { 'wasm-simd128': 8e9, scalar: 2e9 };
/** Creating a layer costs about this much per weight (seeded generation in wasm; measured 15–35 ns). */
const SECONDS_PER_PARAMETER = 30e-9;
/** Runs estimated longer than this are refused; shorter than AUTO_SECONDS re-run as you type. */
export const MAX_RUN_SECONDS = 5;
export const AUTO_SECONDS = 0.25;


/** The default number of pool workers never goes above this: beyond it the messages cost more than the heads save. */
export const MAX_DEFAULT_WORKERS = 8;

/**
 * The pool workers a run may use (`workers`), given the browser's logical cores (hardwareConcurrency):
 * { value, note }. Default: every core but one (left to the page), at least 1, at most
 * MAX_DEFAULT_WORKERS. Allowed: 1 to every core (the compute worker only waits while the pool computes,
 * so on a 2-core machine 2 workers use both). A value outside that range is a note, never a blocked run
 * (a link made on a larger machine must still run): the nearest allowed count, or the default, is used.
 */
export function parseWorkers(raw, cores) {
  const most = Math.max(1, Math.floor(cores) || 1);
  const def = Math.min(MAX_DEFAULT_WORKERS, Math.max(1, most - 1));
  const typed = String(raw ?? '').trim();
  if (typed === '') return { value: def, note: null };
  const r = parseInteger(typed, { min: 1, max: most, name: 'workers' });
  if (!r.error) return { value: r.value, note: null };
  const range = text('validation.workers_range', { most, cores: most > 1 ? text('validation.core_many') : text('validation.core_one') });
  const number = Number(typed);
  const value = Number.isInteger(number) && number > most ? most : def;
  return { value, note: text('validation.workers_note', { range, typed: cutText(typed, 20), value }) };
}

/** The largest float32 below 1: the engine holds p in float32, where anything closer to 1 is 1. */
const LARGEST_DROPOUT = Math.fround(1 - 2 ** -24);

/**
 * Validates `state` (strings, see schema.js). `env`: { resolveView, analyze, budget, isa, lastEdited, rate,
 * cores, trainingCost, trainingHeld } (resolveView, analyze: the engine's; before it is loaded the sizes
 * are only read, and their rules checked when it is; cores: navigator.hardwareConcurrency, for
 * `workers`; absent = 1; trainingCost and trainingHeld: see trainingWork).
 * Returns { ok, errors: { field: message }, notes: [{ field, text }], config, analysis, estimate, blocked, auto }:
 * `notes` = view fields (head, item) that named nothing and were replaced;
 * `ok` = no field error; `blocked` = a reason not to run although every field is valid
 * (too large for the tab): { field, kind, short (beside the field), message (the banner) }; `auto` = small enough to
 * re-run as the inputs change.
 */
export function validate(state, env = {}) {
  const errors = {};
  const put = (field, message) => { if (!errors[field]) errors[field] = message; };
  const int = (key, opts = {}) => {
    const r = parseInteger(state[key], { name: key, max: LIMITS[key], ...opts });
    if (r.error) put(key, r.error);
    return r.value;
  };
  // A size is read as any whole number that fits 32 bits: its range is the engine's rule.
  const size = (key) => int(key, { min: -(2 ** 31) });
  const optionalSize = (key) => (String(state[key] ?? '').trim() === '' ? undefined : size(key));
  const lastOf = (fields, fallback) => (fields.includes(env.lastEdited) ? env.lastEdited : fallback);

  const d_model = size('d_model');
  const n_heads = size('n_heads');
  const given_d_k = optionalSize('d_k');
  const given_d_v = optionalSize('d_v');
  const cross = state.attention === 'cross';
  const source = ['random', 'task'].includes(state.source) ? state.source : 'text';
  // The trained weights (and a task sample as input) come from the training lab's fields, checked
  // only then: a half-typed lab setting never blocks a run of the seeded layer.
  const weights = state.weights === 'trained' ? 'trained' : 'seeded';
  const training = weights === 'trained' || source === 'task' ? parseTraining(state, { resolveView: env.resolveView }) : null;
  for (const [field, message] of Object.entries(training?.errors ?? {})) put(field, message);
  const trained = training?.settings;
  const seed = int('seed', { min: 0, max: LIMITS.seed });
  const input_seed = int('input_seed', { min: 0, max: LIMITS.seed });
  const dropout_seed = int('dropout_seed', { min: 0, max: LIMITS.seed });
  const dropout = parseDecimal(state.dropout, { min: 0, maxExclusive: 1, name: 'dropout' });
  if (dropout.error) put('dropout', dropout.error);
  else if (Math.fround(dropout.value) >= 1) {
    put('dropout', text('validation.dropout_rounds_to_1', { typed: String(state.dropout).trim(), largest: LARGEST_DROPOUT.toPrecision(8) }));
  }
  // A value outside a field's choices (an attribute or setState; links fall back to the default): an
  // error for the problem's fields, a note for the fields that only change how it is shown.
  const notes = [];
  for (const field of FIELDS) {
    const value = String(state[field.key] ?? '');
    if (!field.choices || field.choices.includes(value)) continue;
    const problem = text('validation.not_a_choice', { key: field.key, choices: field.choices.filter(Boolean).join(', '), value: cutText(value, 40) });
    if (VIEW_FIELDS.has(field.key)) notes.push({ field: field.key, text: text('validation.using_instead', { problem, value: field.def || text('validation.the_default') }) });
    else put(field.key, problem);
  }

  // Sequence lengths and batch: typed for random inputs, counted from the sentences otherwise.
  const { n_q, n_k, batch, tokens_q, tokens_kv } = readTokens(state, { source, cross, trained, size, put });
  if (source === 'task' && weights !== 'trained') {
    put('source', text('validation.task_needs_trained'));
  }
  if (weights === 'trained' && trained) {
    // The layer is the lab's: its sizes must be the lab's, said on the field that differs (never overridden).
    const back = text('validation.or_seeded');
    if (d_model && d_model !== trained.d_model) put('d_model', text('validation.trained_d_model', { d_model: trained.d_model, back }));
    if (n_heads && n_heads !== trained.n_heads) put('n_heads', text('validation.trained_n_heads', { n_heads: trained.n_heads, back }));
    // The trained heads' d_k and d_v are the core's derived ones (the lab gives none): ask it, once it is loaded.
    const per = env.resolveView?.({ d_model: trained.d_model, n_heads: trained.n_heads, n_q: 1 }).dims;
    if (per && given_d_k && given_d_k !== per.d_k) put('d_k', text('validation.trained_d_k', { d_k: per.d_k, back }));
    if (per && given_d_v && given_d_v !== per.d_v) put('d_v', text('validation.trained_d_v', { d_v: per.d_v, back }));
    if (state.bias === '0') put('bias', text('validation.trained_bias', { back }));
    if (cross) put('attention', text('validation.trained_self', { back }));
  }

  // Padding: key lengths, one per batch item (counted from the sentences for text inputs).
  const mask = ['none', 'causal', 'padding', 'causal+padding', 'sliding', 'strided'].includes(state.mask) ? state.mask : 'none';
  // The sparse masks' window or stride, and the positional method on the logits (read only when used).
  const window = mask === 'sliding' ? int('window', { min: 1 }) : null;
  const stride = mask === 'strided' ? int('stride', { min: 1 }) : null;
  const positional = ['rope', 'alibi'].includes(state.positional) ? state.positional : 'none';
  // RoPE's base: left out when not typed (the core's default is the only one); the core checks it is above 1.
  let rope_base;
  if (positional === 'rope' && optional(state, 'rope_base') !== undefined) {
    const base = parseDecimal(state.rope_base, { name: 'rope_base' });
    if (base.error) put('rope_base', base.error);
    else rope_base = base.value;
  }
  let padding = null;
  if (mask.includes('padding')) {
    if (source === 'text') {
      padding = (cross ? tokens_kv : tokens_q)?.map((t) => t.length) ?? null;
    } else if (batch && n_k) {
      padding = parsePadding(state.padding, batch, n_k, (m) => put('padding', m));
    }
  }

  const { item, head } = readShown(state, { batch, n_heads, notes });
  const step = readStep(state); // a step the chapter does not have: a note naming its step count
  if (step.note) notes.push({ field: 'step', text: step.note });
  const workers = parseWorkers(state.workers, env.cores);
  if (workers.note) notes.push({ field: 'workers', text: workers.note });
  // Grouped-query attention: key/value heads shared by the query heads; '' = not given (n_heads).
  const n_kv_heads = optionalSize('n_kv_heads');

  // The engine's rules of the sizes, once every size reads as a number: the first bad field and
  // why, or the resolved dims (d_k and d_v derived where not given, each query head's key/value head).
  let view = null;
  const sizes = [d_model, n_heads, n_q, n_k, batch];
  if (env.resolveView && !Object.keys(errors).length && sizes.every(Number.isInteger)) {
    // With RoPE the core checks its rules too (an even d_k, a base above 1), and says the base it uses.
    const asked = env.resolveView({ d_model, n_heads, d_k: given_d_k, d_v: given_d_v, n_kv_heads, n_q, n_k, batch,
      mask: padding ? { padding } : 'none', ...(positional === 'rope' ? { positional, rope_base } : {}) });
    if (asked.ok) view = asked.dims;
    else put(viewField(asked.field, { source, cross, lastOf }), asked.message);
  }
  const heads = parseHeads(state.heads, n_heads, source, put, (n) => notes.push(n));
  if (weights === 'trained') {
    // The trained layer is used as learnt: no key/value heads shared, no W_Q rebuilt from patterns.
    const back = text('validation.or_seeded');
    if (n_kv_heads !== undefined && n_kv_heads !== n_heads) put('n_kv_heads', text('validation.trained_kv', { back }));
    if (heads) put('heads', text('validation.trained_heads', { back }));
  }

  const ok = Object.keys(errors).length === 0;
  // Before the engine is loaded (no view) the derived sizes are unknown: nothing runs until it is,
  // and validation runs again then.
  const config = ok ? {
    d_model, n_heads, d_k: view?.d_k ?? given_d_k ?? null, d_v: view?.d_v ?? given_d_v ?? null, bias: state.bias !== '0',
    seed, cross, n_q, n_k, batch, source, input_seed, tokens_q, tokens_kv, mask, padding, scale: state.scale !== '0',
    dropout: dropout.value, dropout_seed, item, head, n_kv_heads: view?.n_kv_heads ?? n_kv_heads, window, stride,
    positional, rope_base, rope_base_used: view?.rope_base ?? null, // rope_base: as typed (absent: the core's); _used: the core's answer
    kv_head_of: view?.kv_head_of ?? null, tensors: view?.tensors ?? null, heads, weights, // tensors: the core's shape of each tensor (export, import)
    train: weights === 'trained' ? { settings: trained, steps: training.steps } : null, workers: workers.value,
  } : null;

  let analysis = null, estimate = null, blocked = null;
  if (ok && env.analyze) {
    let training = null;
    try {
      analysis = env.analyze({ d_model, n_heads, d_k: config.d_k ?? undefined, d_v: config.d_v ?? undefined, bias: config.bias,
        batch, n_q, n_k, need_weights: true, scale: config.scale, attention: cross ? 'cross' : 'self', n_kv_heads,
        // The visible pairs of the mask (analysis.sparse); padding is not among them.
        ...(mask === 'sliding' ? { mask, window } : mask === 'strided' ? { mask, stride } : mask.startsWith('causal') ? { mask: 'causal' } : {}) });
      training = trainingWork(config.train, env);
    } catch (err) {
      put(analysis ? 'train_steps' : lastOf(SIZE_FIELDS, 'd_model'), err.message);
      return { ok: false, errors, notes, config: null, analysis: null, estimate: null, blocked: null, auto: false };
    }
    estimate = estimateRun(analysis, env, training);
    const field = lastOf(SIZE_FIELDS, source === 'text' ? 'text' : 'n_q');
    blocked = tooLarge(analysis, estimate, { budget: env.budget ?? 2 ** 30, field, lastOf });
  }
  const auto = ok && !blocked && !!estimate && estimate.seconds < AUTO_SECONDS;
  return { ok, errors, notes, config, analysis, estimate, blocked, auto };
}

/** The sequences: n_q, n_k and batch typed (random inputs), counted from the sentences, or the lab's (a task sample). */
function readTokens(state, { source, cross, trained, size, put }) {
  let n_q, n_k, batch, tokens_q = null, tokens_kv = null;
  if (source === 'text') {
    tokens_q = sentences(state.text);
    if (!tokens_q.length) put('text', text('validation.text_empty'));
    if (tokens_q.length > LIMITS.lines) put('text', text('validation.text_lines', { most: LIMITS.lines, lines: tokens_q.length }));
    if (tokens_q.some((t) => t.length > LIMITS.tokens)) put('text', text('validation.tokens_per_line', { most: LIMITS.tokens }));
    batch = tokens_q.length || undefined;
    n_q = tokens_q.length ? Math.max(...tokens_q.map((t) => t.length)) : undefined;
    if (cross) {
      tokens_kv = sentences(state.text_kv);
      if (!tokens_kv.length) put('text_kv', text('validation.text_kv_empty'));
      else if (tokens_q.length && tokens_kv.length !== tokens_q.length) {
        const line_word = tokens_q.length > 1 ? text('validation.line_many') : text('validation.line_one');
        put('text_kv', text('validation.text_kv_lines', { lines: tokens_q.length, line_word, here: tokens_kv.length }));
      }
      if (tokens_kv.some((t) => t.length > LIMITS.tokens)) put('text_kv', text('validation.tokens_per_line', { most: LIMITS.tokens }));
      n_k = tokens_kv.length ? Math.max(...tokens_kv.map((t) => t.length)) : undefined;
    } else {
      n_k = n_q;
    }
  } else if (source === 'task') {
    // One sample of the lab's task (input_seed picks which): its length is the lab's.
    batch = 1;
    n_q = n_k = trained?.seq_len;
  } else {
    batch = size('batch');
    n_q = size('n_q');
    n_k = cross ? size('n_k') : n_q; // self-attention: keys are the queries' own tokens
  }
  return { n_q, n_k, batch, tokens_q, tokens_kv };
}

/**
 * The batch item and head shown are views of a result: a value that names none is replaced by the
 * first, and the page says so in `notes` (a link with head=-1 must still show maps).
 */
function readShown(state, { batch, n_heads, notes }) {
  const itemRead = parseInteger(state.item, { min: 0, name: 'item' });
  let item = itemRead.value ?? 0;
  if (itemRead.error && String(state.item ?? '').trim() !== '') notes.push({ field: 'item', text: text('validation.item_unread', { item: cutText(String(state.item), 20), problem: itemRead.error }) });
  if (batch && item > batch - 1) {
    notes.push({ field: 'item', text: text('validation.item_outside', { item, last: batch - 1 }) });
    item = batch - 1;
  }
  let head = null;
  if (String(state.head ?? '').trim() !== '') {
    const headRead = parseInteger(state.head, { min: 0, name: 'head' });
    if (headRead.error) notes.push({ field: 'head', text: text('validation.head_unread', { head: cutText(String(state.head), 20), problem: headRead.error }) });
    else if (n_heads && headRead.value >= n_heads) notes.push({ field: 'head', text: text('validation.head_outside', { head: headRead.value, last: n_heads - 1 }) });
    else head = headRead.value;
  }
  return { item, head };
}

/** Why a valid problem is not run here (too large for the tab's memory, or too slow), or null. */
function tooLarge(analysis, estimate, { budget, field, lastOf }) {
  const room = { budget: fmt.bytesBinary(budget), budget_bytes: fmt.int(budget) };
  const time = { seconds: fmt.num(estimate.seconds, 0), limit: MAX_RUN_SECONDS };
  if (analysis.memory.parameters > budget) {
    // No sequence length can help: the layer itself does not fit, so the message belongs to its width.
    const values = { ...room, bytes: fmt.bytes(analysis.memory.parameters) };
    return { field: lastOf(LAYER_FIELDS, 'd_model'), kind: 'memory',
      short: text('validation.weights_too_large_short', values), message: text('validation.weights_too_large', values) };
  } else if (analysis.memory.total > budget) {
    const values = { ...room, bytes: fmt.bytes(analysis.memory.total) };
    return { field, kind: 'memory', short: text('validation.too_large_short', values), message: text('validation.too_large', values) };
  } else if (estimate.seconds > MAX_RUN_SECONDS && estimate.training) {
    // Most of the time is training the lab's model again from its seed: say so, and the ways round it.
    const t = estimate.training;
    const values = { ...time, steps: fmt.int(t.steps), step_macs: fmt.short(t.step_macs) };
    return { field: 'train_steps', kind: 'time',
      short: text('validation.training_too_slow_short', values), message: text('validation.training_too_slow', values) };
  } else if (estimate.seconds > MAX_RUN_SECONDS) {
    const values = { ...time, flops: fmt.short(analysis.flops.exact_flops) };
    return { field, kind: 'time', short: text('validation.too_slow_short', values), message: text('validation.too_slow', values) };
  }
  return null;
}

/**
 * Expected run time: FLOPs at the measured (or assumed) rate plus setting up the weights, plus the
 * training a run must do first (`training`, see trainingWork: null when none). { flops, seconds,
 * pass_seconds (the forward pass alone, what a run's timing is told to expect), training: { steps,
 * step_macs, seconds } or null }.
 */
export function estimateRun(analysis, { isa = 'wasm-simd128', rate } = {}, training = null) {
  const flopsPerSecond = rate || ASSUMED_FLOPS_PER_SECOND[isa] || ASSUMED_FLOPS_PER_SECOND.scalar;
  const flops = analysis.flops.exact_flops;
  // Training runs at about half the forward's FLOP rate (bench/results.md, "Constants of the source").
  const trainSeconds = training ? (2 * training.steps * training.step_macs) / (flopsPerSecond * TRAINING_RATE_SHARE) : 0;
  return {
    flops, seconds: flops / flopsPerSecond + analysis.params.total * SECONDS_PER_PARAMETER + trainSeconds, pass_seconds: flops / flopsPerSecond,
    training: training ? { ...training, seconds: trainSeconds } : null,
  };
}

/** Training's FLOP rate as a share of the forward pass's (see estimateRun). */
const TRAINING_RATE_SHARE = 0.5;

/**
 * The training a run with weights=trained must do before its pass: { steps, step_macs }, or null when
 * there is none (seeded weights, 0 steps, or env.trainingHeld says the compute side holds that model
 * already, the lab's or the last run's). step_macs is the core's own count (attn.trainingCost, given
 * as env.trainingCost).
 */
export function trainingWork(train, env = {}) {
  if (!train?.settings || !train.steps) return null;
  if (env.trainingHeld?.(train)) return null;
  // Never uncounted: an engine that cannot count the training cannot say how long it takes.
  if (!env.trainingCost) throw new Error('this engine cannot estimate training (attn.trainingCost is missing), so a trained link is not run');
  const { step_macs } = env.trainingCost(trainerArguments(train.settings));
  return { steps: train.steps, step_macs };
}

/** The head patterns the engine builds (mha.setHeadPatterns); 'random' is the layer's own initialisation. */
export const HEAD_PATTERNS = Object.freeze(['random', 'previous', 'same_word', 'first_token', 'uniform']);

/**
 * heads= "previous,same_word,,first_token" → one pattern per head ('' = random), or null when every
 * head is random. Errors name the entry: an unknown pattern, or constructed heads on random inputs
 * (they are built for the words of the sentences); more entries than heads is a `note`: the first
 * n_heads are used.
 */
function parseHeads(raw, n_heads, source, put, note) {
  const typed = String(raw ?? '').trim();
  if (!typed) return null;
  const names = typed.split(',').map((s) => s.trim());
  const bad = names.findIndex((name) => name && !HEAD_PATTERNS.includes(name));
  if (bad >= 0) {
    put('heads', text('validation.heads_unknown', { name: cutText(names[bad], 30), number: bad + 1, patterns: HEAD_PATTERNS.join(', ') }));
    return null;
  }
  // More patterns than heads (the lesson's three constructed heads on a layer of one or two): the heads
  // take as many as fit, in order, and the note says which were left out; never a blocked run.
  if (n_heads && names.length > n_heads) {
    const left = names.slice(n_heads).filter((name) => name && name !== 'random');
    names.length = n_heads;
    if (left.length) {
      const used = names.filter((name) => name && name !== 'random');
      note({ field: 'heads', text: text('validation.heads_left_out', {
        n_heads, heads_word: n_heads > 1 ? text('validation.head_many') : text('validation.head_one'),
        used: used.length ? text('validation.heads_used', { list: used.join(', ') }) : '', left: left.join(', '),
        need: left.length > 1 ? text('validation.need_many') : text('validation.need_one') }) });
    }
  }
  if (!names.some((name) => name && name !== 'random')) return null;
  if (source !== 'text') {
    put('heads', text('validation.heads_need_text'));
    return null;
  }
  return n_heads ? Array.from({ length: n_heads }, (_, i) => names[i] || 'random') : null;
}

/**
 * "8, 5" → [8, 5]: whole numbers, read only; one per batch item, each within 0..n_k, is the
 * engine's rule (resolveView).
 */
function parsePadding(raw, batch, n_k, report) {
  const typed = String(raw ?? '').trim();
  if (!typed) {
    report(text('validation.padding_needed', { batch, example: Array.from({ length: Math.min(batch, 3) }, (_, b) => Math.max(1, n_k - b)).join(',') }));
    return null;
  }
  const lengths = [];
  for (const [b, part] of typed.split(/[\s,;]+/).filter(Boolean).entries()) {
    const r = parseInteger(part, { min: -(2 ** 31), name: text('validation.padding_length_name', { number: b + 1 }) });
    if (r.error) { report(r.error); return null; }
    lengths.push(r.value);
  }
  return lengths;
}

/**
 * The form field that shows a message of the engine about `field` (resolveView's): the sizes of
 * sentences are the text's, a padding length is the text's or the padding field's; d_model and
 * n_heads go to the one edited last (either can make them divide).
 */
function viewField(field, { source, cross, lastOf }) {
  if (field === 'd_model' || field === 'n_heads') return lastOf(['d_model', 'n_heads'], field);
  if (source === 'text' && (field === 'batch' || field === 'n_q')) return 'text';
  if (source === 'text' && field === 'n_k') return cross ? 'text_kv' : 'text';
  if (field === 'mask') return source === 'text' ? (cross ? 'text_kv' : 'text') : 'padding';
  if (source === 'task' && ['batch', 'n_q', 'n_k'].includes(field)) return 'train_seq_len';
  return field;
}

/** A config's identity, to tell whether a result is still current (the batch item and head shown are views of it). */
export const configKey = (config) => JSON.stringify({ ...config, item: 0, head: 0, kv_head_of: 0, tensors: 0 }); // kv_head_of, tensors: from the sizes
