// One forward pass of the page, given an engine and a validated config (no DOM: it runs in the
// worker). Splits the batch into single items when that cannot change the numbers, to report progress.
// A pass may run on a layer of the worker pool (engine/pool.js), whose forward is asynchronous: a
// layer's forward is awaited only when it returned a promise, so the engine's own passes are timed
// without a wait between them.

import { forwardResultSizes } from '../engine/result_sizes.js';
import { buildInputs, maskArgument, sparseArguments, labelsFor } from './inputs.js';
import { importedFor, withImportedInputs } from '../import/run.js';

// A browser rounds performance.now() to 0.1 ms (5 µs at best), and V8 compiles a kernel on its first
// use: a pass faster than QUICK_MS is timed again in blocks of passes, each block long enough
// (≥ BLOCK_MS) for the rounding to be a few per cent at most, and the best block's mean per pass is
// reported. The first block counts how many passes fill BLOCK_MS; the others repeat that count.
const QUICK_MS = 20;
const BLOCK_MS = 3;
const BLOCKS = 3;
const MAX_PASSES_PER_BLOCK = 1 << 14;
const MAX_CHUNKS = 64;   // progress steps for a large batch

/** Keeps the last layer so a change of mask or input does not regenerate millions of weights. */
export class LayerCache {
  #key = null;
  #layer = null;
  /** What identifies the layer held (its spec, patterns and trained weights), or null. */
  get key() {
    return this.#key;
  }
  /** What setHeadPatterns returned for the layer's constructed heads (null when every head is random). */
  patterns = null;
  /**
   * trainedWeights(): the training lab's weights, for a config with weights = 'trained'; imported: the
   * parameters imported for this config (import/run.js), which replace the layer's own.
   */
  get(attn, config, trainedWeights, imported = null) {
    const spec = { d_model: config.d_model, n_heads: config.n_heads, d_k: config.d_k, d_v: config.d_v, bias: config.bias, seed: config.seed,
      n_kv_heads: config.n_kv_heads }; // undefined: not given (n_heads)
    const build = imported ? null : patternArguments(config); // imported parameters are used as given
    const key = JSON.stringify([spec, build, config.weights === 'trained' ? config.train : null, imported ? config.imported.id : null]);
    if (key !== this.#key) {
      this.clear();
      this.#layer = new attn.MultiHeadAttention(spec);
      if (config.weights === 'trained') this.#layer.setWeights(trainedWeights());
      if (imported) this.#layer.setWeights({ ...this.#layer.getWeights(), ...imported }); // those not given stay seeded
      this.#key = key;
      if (build) {
        try {
          this.patterns = this.#layer.setHeadPatterns(build);
        } catch (err) {
          this.clear();
          throw err;
        }
      }
    }
    return this.#layer;
  }
  clear() {
    this.#layer?.delete();
    this.#layer = null;
    this.#key = null;
    this.patterns = null;
  }
}

/**
 * The setHeadPatterns arguments of a config's constructed heads (config.heads: one pattern per head,
 * 'random' for the layer's own), built against the words the inputs embed; null when none is constructed.
 * Only the constructed heads are passed: a random head keeps the layer's seeded initialisation.
 */
export function patternArguments(config) {
  const heads = (config.heads ?? []).map((pattern, head) => ({ head, pattern })).filter((s) => s.pattern !== 'random');
  if (!heads.length || !config.tokens_q) return null;
  const rows = (tokens, n) => tokens.map((t) => labelsFor(t, n));
  return {
    heads, input_seed: config.input_seed,
    query_words: rows(config.tokens_q, config.n_q),
    ...(config.cross ? { key_words: rows(config.tokens_kv, config.n_k) } : {}),
  };
}

/**
 * The result arrays of the last run, reused by the next run of the same sizes: forward writes into
 * them (the API's `into`) instead of into new arrays. A new array of tens of MB costs more in page
 * faults than the copy into it, and that cost would land in the forward time the page reports.
 */
export class ResultBuffers {
  #output = null;
  #weights = null;
  get(outputLength, weightsLength) {
    // Old arrays are dropped before new ones are made, so a change of size never holds both.
    if (this.#output?.length !== outputLength) this.#output = null;
    if (this.#weights?.length !== weightsLength) this.#weights = null;
    this.#output ??= new Float32Array(outputLength);
    this.#weights ??= new Float32Array(weightsLength);
    return { output: this.#output, weights: this.#weights };
  }
}

/** The arguments of mha.forward for a config and its inputs (self-attention passes no key/value). */
export function forwardArguments(config, inputs) {
  const args = {
    query: inputs.query, batch: config.batch, n_q: config.n_q, n_k: config.n_k, mask: maskArgument(config),
    ...sparseArguments(config), scale: config.scale, dropout: config.dropout, seed: config.dropout_seed, need_weights: true,
  };
  // Only when on: the pool's and older callers' options stay as they were without them.
  if (config.positional && config.positional !== 'none') args.positional = config.positional;
  // rope_base only with RoPE (the engine refuses an option that does not apply, as window without mask 'sliding'),
  // and only when typed: the core's default is the only one.
  if (config.positional === 'rope' && config.rope_base !== undefined) args.rope_base = config.rope_base;
  if (config.cross) Object.assign(args, { key: inputs.key ?? inputs.memory, value: inputs.value ?? inputs.memory }); // imported key, value
  return args;
}

/**
 * The pool workers' engine times of a layer's last pass, { engine_ms, wait_ms }: wait_ms is the
 * slowest worker's time minus the workers' mean, what the pass lost to uneven shares. A
 * single-threaded layer has neither: [] and 0.
 */
function workerTimes(layer) {
  const engine_ms = layer.lastWorkerMs ?? [];
  const mean = engine_ms.reduce((a, b) => a + b, 0) / Math.max(1, engine_ms.length);
  return { engine_ms: [...engine_ms], wait_ms: engine_ms.length ? Math.max(...engine_ms) - mean : 0 };
}

/** `value` when it is a promise (to await), else null: a synchronous pass is not awaited. */
const settled = (value) => (typeof value?.then === 'function' ? value : null);

/**
 * Runs config on `attn`. onProgress({ done, total, phase }) is called between batch items.
 * trained(config): the training lab's model for weights = 'trained' or source = 'task' (the compute
 * side's, model/training_side.js): { weights(), sample(n) → { input, labels } }.
 * pooled: optional, the worker pool's side: { layer(mha, key) → Promise of a pool layer holding mha's
 * weights, splitFlops }; the passes then run on that layer, which splits those above splitFlops.
 * Resolves to { output, weights, masked_rows, labels_q, labels_k, patterns, timings: { setup_ms,
 * forward_ms, repeats }, workers, engine_ms }: forward_ms is one pass; repeats = how many passes were
 * timed to get it; workers = how many pool workers the pass ran on (0: on this thread's engine);
 * engine_ms = each of those workers' time in its engine during the last pass (empty for none), and
 * wait_ms = how long that pass waited for its slowest worker beyond the workers' mean (0 for none).
 * expectMs: the caller's estimate of the forward pass alone (Infinity: none; it errs long); below
 * QUICK_MS a slow first sample is checked by one more pass (see below).
 */
export async function runForward(attn, config, {
  cache = new LayerCache(), buffers = new ResultBuffers(), onProgress = () => {}, now = () => performance.now(), trained, pooled = null, imported = null,
  timed = true, expectMs = Infinity,
} = {}) {
  const t0 = now();
  onProgress({ done: 0, total: config.batch, phase: 'weights and inputs' });
  const prepared = prepareRun(attn, config, cache, trained, imported);
  const layer = pooled ? await pooled.layer(prepared.layer, cache.key) : prepared.layer;
  const { inputs } = prepared;
  const args = forwardArguments(config, inputs);
  const { batch, n_q, n_k, d_model, n_heads } = config;
  const lengths = forwardResultSizes({ batch, n_q, n_k, d_model, n_heads }); // the engine's one count of them
  const into = buffers.get(lengths.output[0], lengths.weights[0]);
  const t1 = now();
  // Dropout draws depend on the batch index, so only a dropout-free batch may be split. Slices of a
  // pooled pass stay large enough for the pool to split them.
  const split = config.batch > 1 && !(config.dropout > 0);
  const minFlops = pooled ? pooled.splitFlops : 0;
  const pass = () => (split ? forwardInChunks(layer, config, args, into, onProgress, minFlops) : layer.forward({ ...args, into }));
  let result = pass();
  if (settled(result)) result = await result;
  let forward_ms = now() - t1, repeats = 1;
  // A pass the caller's estimate calls quick (expectMs, the pass alone) whose first sample took QUICK_MS or
  // more met a stall (the host busy, a collection, a first compile) or is slower than estimated: one more
  // pass tells which. Quick then: timed in blocks, the best block drops the stall; slow again: the quicker
  // of the two stands. One sample alone would report a tiny layer at 20+ ms.
  const estimatedQuick = expectMs < QUICK_MS;
  // timed false: a pass that may be quick is not timed here (the caller asks for its time once the result
  // is drawn: timings.untimed says so), so an edit's maps wait for one pass, not for ~10 ms of timing.
  const untimed = !timed && (forward_ms < QUICK_MS || estimatedQuick);
  if (!untimed && forward_ms >= QUICK_MS && estimatedQuick) {
    const t2 = now();
    result = pass();
    if (settled(result)) result = await result;
    forward_ms = Math.min(forward_ms, now() - t2);
    repeats = 2;
  }
  if (forward_ms < QUICK_MS && !untimed) {
    // The results are identical each time: only the timing changes.
    const timed = await timeInBlocks(() => {
      const r = pass();
      const waiting = settled(r);
      if (!waiting) result = r;
      return waiting?.then((value) => { result = value; });
    }, now);
    if (timed) ({ ms: forward_ms, passes: repeats } = timed);
  }
  onProgress({ done: config.batch, total: config.batch, phase: 'done' });
  // Imported attention maps (import/run.js) are what the heatmaps draw: they replace the seeded layer's weights.
  if (prepared.imported?.attention) result.weights.set(prepared.imported.attention);
  return {
    output: result.output, weights: result.weights, masked_rows: result.masked_rows,
    labels_q: inputs.labels_q, labels_k: inputs.labels_k, patterns: cache.patterns,
    timings: { setup_ms: t1 - t0, forward_ms, repeats, ...(untimed ? { untimed } : {}) },
    workers: layer.lastWorkers ?? 0,
    ...(result.worker_times ?? workerTimes(layer)),
  };
}

/**
 * The layer of a config (from `cache`) and its inputs, for every job on it (forward, trace, compare):
 * with weights = 'trained' or source = 'task' they come from trained(config), the training lab's
 * model ({ weights(), sample(n) }, see model/training_side.js); else from the seeds.
 */
export function prepareRun(attn, config, cache, trained, held = null) {
  const model = config.weights === 'trained' || config.source === 'task' ? trained(config) : null;
  const imported = importedFor(config, held); // null unless the config imports tensors the owner holds
  const layer = cache.get(attn, config, () => model.weights(), imported?.weights ?? null);
  const inputs = withImportedInputs(config.source === 'task' ? taskInputs(model.sample(config.input_seed)) : buildInputs(config, attn), imported);
  return { layer, inputs, imported };
}

/** The inputs of a run on one sample of the lab's task: the layer's input and the tokens as labels. */
function taskInputs({ input, labels }) {
  return { query: input, memory: null, labels_q: [labels], labels_k: [labels] };
}

/**
 * Times `pass` in blocks of passes (see BLOCK_MS): resolves to { ms per pass (the best block's mean),
 * passes timed }, or null when the clock did not move at all. A pass that returns a promise is awaited.
 */
export async function timeInBlocks(pass, now = () => performance.now()) {
  let per = 0, best = Infinity, passes = 0;
  // Block 1: as many passes as fill BLOCK_MS.
  const t0 = now();
  let elapsed = 0;
  while (elapsed < BLOCK_MS && per < MAX_PASSES_PER_BLOCK) {
    await settled(pass());
    per++;
    elapsed = now() - t0;
  }
  if (elapsed > 0) best = elapsed / per;
  passes += per;
  for (let b = 1; b < BLOCKS; b++) {
    const t = now();
    for (let k = 0; k < per; k++) await settled(pass());
    const e = now() - t;
    if (e > 0) best = Math.min(best, e / per);
    passes += per;
  }
  return Number.isFinite(best) ? { ms: best, passes } : null;
}

/**
 * One pass over the batch in up to MAX_CHUNKS slices of whole batch items: identical numbers, and
 * progress between slices. Slices rather than single items, because each call into wasm has a
 * fixed cost (~50 µs) that would dominate a batch of thousands of short sequences. On a pool layer
 * (async forward) each slice keeps at least `minFlops` where the whole pass has them, so that the
 * slices are split as the whole pass would be; layer.lastWorkers is then the most any slice used.
 * worker_times: as workerTimes, each worker's engine time summed over the slices (empty unless every
 * slice was split alike) and the waits of the slices summed (each slice waits for its own slowest).
 */
async function forwardInChunks(layer, config, args, { output, weights }, onProgress, minFlops = 0) {
  const { batch, n_q, n_k, d_model, n_heads } = config;
  const masked_rows = [];
  const mask = args.mask;
  const itemFlops = minFlops > 0 ? layer.forwardFlops(1, n_q, n_k) : 0;
  const chunks = Math.min(batch, MAX_CHUNKS, minFlops > 0 ? Math.max(1, Math.floor((itemFlops * batch) / minFlops)) : Infinity);
  const per = Math.ceil(batch / chunks);
  let most = 0;
  let engineMs = null; // per worker, summed over the slices; null once a slice was split otherwise
  let waitMs = 0;
  let reported = -Infinity;
  for (let b0 = 0; b0 < batch; b0 += per) {
    const b1 = Math.min(batch, b0 + per), count = b1 - b0;
    const t = performance.now();
    if (t - reported > 50) { // at most ~20 messages a second
      onProgress({ done: b0, total: batch, phase: `batch item ${(b0 + 1).toLocaleString('en-US')} of ${batch.toLocaleString('en-US')}` });
      reported = t;
    }
    const slice = {
      ...args, batch: count,
      query: args.query.subarray(b0 * n_q * d_model, b1 * n_q * d_model),
      mask: typeof mask === 'string' ? mask : { ...mask, padding: mask.padding.slice(b0, b1) },
    };
    if (config.cross) Object.assign(slice, { key: args.key.subarray(b0 * n_k * d_model, b1 * n_k * d_model), value: args.value.subarray(b0 * n_k * d_model, b1 * n_k * d_model) });
    // Each slice writes straight into its part of the whole batch's arrays.
    slice.into = {
      output: output.subarray(b0 * n_q * d_model, b1 * n_q * d_model),
      weights: weights.subarray(b0 * n_heads * n_q * n_k, b1 * n_heads * n_q * n_k),
    };
    const r = layer.forward(slice);
    const waiting = settled(r);
    const { masked_rows: rows } = waiting ? await waiting : r;
    most = Math.max(most, layer.lastWorkers ?? 0);
    const times = workerTimes(layer);
    waitMs += times.wait_ms;
    if (b0 === 0) engineMs = times.engine_ms;
    else if (engineMs?.length === times.engine_ms.length) engineMs = engineMs.map((ms, i) => ms + times.engine_ms[i]);
    else engineMs = null;
    for (const row of rows) masked_rows.push({ batch: b0 + row.batch, query: row.query });
  }
  if (layer.lastWorkers !== undefined) layer.lastWorkers = most;
  return { output, weights, masked_rows, worker_times: { engine_ms: engineMs ?? [], wait_ms: engineMs ? waitMs : 0 } };
}

/**
 * Wall time of one forward pass at length n (self-attention, random inputs), for the n-sweep; resolves
 * to milliseconds. `layer` may be a pool layer (its passes are awaited).
 */
export async function timeAtLength(layer, d_model, n, { repeats = 3, now = () => performance.now() } = {}) {
  const query = new Float32Array(n * d_model);
  for (let i = 0; i < query.length; i++) query[i] = Math.sin(i * 0.37); // any finite values will do
  // The same result arrays every time, as a page re-running a model would: the times are the
  // engine's, not the page faults of new arrays.
  const into = { output: new Float32Array(n * d_model), weights: new Float32Array(layer.n_heads * n * n) };
  await settled(layer.forward({ query, batch: 1, n_q: n, need_weights: true, into })); // warm-up: V8 tiers up, memory grows
  const times = [];
  for (let r = 0; r < repeats; r++) {
    const t0 = now();
    await settled(layer.forward({ query, batch: 1, n_q: n, need_weights: true, into }));
    times.push(now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
