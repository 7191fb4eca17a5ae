// What the compute side does for the playgrounds: forward passes and batch items of a result (the
// heatmaps of the first view), the kernels' warm-up, and every feature's own requests, answered by the
// feature's handler.js (found by the feature's name, see features/handlers_of.js): no feature is named here. One engine serves every playground of a page; each
// playground is an `owner` with its own layer, result arrays and last result, freed by `release`. Runs
// in the Web Worker (worker.js) or, where no worker can start, on the main thread (client.js), with the
// same code. With a pool factory (the Web Worker's), a config's `workers` ≥ 2 runs its passes and the
// n-sweep on a worker pool of that size (engine/pool.js), which splits a pass over the heads when it is
// large enough to pay and runs it here otherwise.

import { LayerCache, ResultBuffers, runForward, prepareRun, forwardArguments, timeAtLength } from '../model/job.js';
import { configKey } from '../model/validate.js';
import { downsampleHeads } from '../model/downsample.js';
import { forwardResultSizes } from '../engine/result_sizes.js';
import { maskArgument, sparseArguments } from '../model/inputs.js';

/**
 * The request handlers over an engine loaded by `load(simd)`; `post(message)` sends progress.
 * pools(simd): the pools of workers (pools.js's createPools over a startPool; simd() says which module
 * they load), or absent where no pool can run (the page's own thread): every pass then runs on the engine
 * here, and the first view's bundle holds no pool code (worker/handlers.js adds it from a startPool).
 * featureHandlers(feature): a promise of that feature's `handlers` (features/handlers_of.js's loadHandlers,
 * or the same function from panels.js on the page's thread); without it no feature's request is answered.
 * measurePeak(): a promise of the f32x4 peak (perf/peak.js's; on the page's thread from panels.js, so the
 * first view's bundle holds none of it), for a feature's side.peak(); without it that throws.
 * importReader(): a promise of import/files.js's functions (readImportFiles, importLimits), for the
 * export's import: the files a learner brings are parsed here, off the page's thread.
 * trainingSide(): training_side.js's createTrainingSide() (or a promise of it), made on a lab's or a
 * feature's first request (handlers.js passes it; on the page's thread it comes from panels.js, so the
 * first view's bundle holds none of it); without it no lab runs.
 */
export function createComputeSide(load, { pools: poolsOf = null, featureHandlers = null, measurePeak = null, importReader = null, trainingSide = null } = {}) {
  let attn = null;
  let lab = null; // the engine with its labs' functions synchronous (attn.labs()), once a lab needed them
  const warmth = kernelWarmth(() => attn, measurePeak); // the kernels' warm-up and the f32x4 peak, each once
  const owners = new Map(); // owner id → { cache, buffers, last: { key, config, result }, pooled, lab, frozen (training.js), imported (features/export/handler.js) }
  const training = lazyTraining(trainingSide); // the trainers' side (training_side.js), once a lab or a feature asked
  const pools = poolsOf?.(() => attn.isa === 'wasm-simd128') ?? NO_POOLS; // at most one pool of workers (pools.js)
  const { poolOf, pooledFor, closePools } = pools;

  const ownerState = (owner) => {
    if (!owners.has(owner)) owners.set(owner, { cache: new LayerCache(), buffers: new ResultBuffers(), last: null, pooled: null });
    return owners.get(owner);
  };

  /** The engine with the labs loaded (their module is fetched on the first call, never for a first view), and the training side. */
  const labs = () => training.load().then(async () => (lab ??= await attn.labs()));
  /** The training lab's model of a config with weights=trained or a task input (model/training_side.js; usesLab loaded the labs). */
  const trainedFor = (mine, post) => (c) => training.current.trained(lab, mine, c, post);
  /** An owner's layer for config and its inputs (the lab's model where the config says so). */
  const prepared = (owner, config, post) => {
    const mine = ownerState(owner);
    return prepareRun(attn, config, mine.cache, trainedFor(mine, post), mine.imported);
  };

  /**
   * What a feature's handler gets: the engine, the owner's state, its layer, inputs and forward
   * arguments for a config, the pool of a number of workers, the trainers (model/training_side.js), and
   * the timing helpers. (Handlers import nothing themselves: the bundles load them on first use, and
   * what they imported would be loaded that way too.) labs(): the engine with the labs' functions synchronous.
   */
  const sideOf = (owner) => Object.freeze({
    attn, labs, mine: ownerState(owner), training: training.current, poolOf, timeAtLength,
    prepared: (config, post) => {
      const { layer, inputs, imported } = prepared(owner, config, post);
      return { layer, inputs, imported, args: forwardArguments(config, inputs) };
    },
    newLayerCache: () => new LayerCache(),
    /** This browser's f32x4 peak (measured once, the kernels warmed first), or null without wasm SIMD. */
    peak: warmth.peak,
    /** Files ([{ name, bytes }]) read into importTensors' object, bounded by config's sizes (import/files.js). */
    readFiles: (files, config) => readFiles(importReader, files, config),
  });

  async function forward(owner, config, post, { timed = true, expectMs } = {}) {
    const mine = ownerState(owner);
    mine.last = null;
    // Starting a pool (its workers load the engine and warm up) is news for the progress bar and the watchdog.
    if (poolsOf && config.workers >= 2 && !pools.has(config.workers)) post({ done: 0, total: config.batch, phase: `starting ${config.workers} workers` });
    if (usesLab(config)) await labs();
    const pooled = await pooledFor(mine, config.workers);
    const result = await runForward(attn, config, { cache: mine.cache, buffers: mine.buffers, onProgress: post, trained: trainedFor(mine, post), pooled, imported: mine.imported, timed, expectMs: Number(expectMs ?? Infinity) });
    mine.last = { key: configKey(config), config, result, splitFlops: pooled?.splitFlops ?? null };
    return mine.last;
  }

  return {
    async init({ simd }) {
      attn = await load(simd);
      lab = null;
      // One tiny pass first, so the first timing a learner sees is not V8 compiling the kernels.
      const warm = new attn.MultiHeadAttention({ d_model: 16, n_heads: 2, seed: 1 });
      warm.forward({ query: new Float32Array(8 * 16).fill(0.5), batch: 1, n_q: 8, need_weights: true });
      warm.delete();
      return { isa: attn.isa, kernelIsa: attn.kernelIsa() };
    },

    /** timed false: a quick pass is timed by a `time` request afterwards (timings.untimed); expectMs: see runForward. */
    async run({ owner, config, timed = true, expectMs }, post) {
      const t0 = performance.now();
      const last = await forward(owner, config, post, { timed, expectMs });
      const { result, splitFlops } = last;
      let sum = 0;
      for (let k = 0; k < result.output.length; k++) sum += result.output[k];
      const item = itemView(attn, last, Math.min(config.item, config.batch - 1));
      // worker_ms: the whole request (inputs, weights, forward, summaries), for the load-time budget.
      // workers: how many pool workers ran the pass (0 = this engine alone), the setting, and the pool's
      // split threshold (null when no pool ran: workers = 1, or the page's thread, which has none), and
      // each pool worker's time in its engine during the last pass with the pass's wait for the slowest
      // (engine_ms, wait_ms: see runForward; [] and 0 when no pool ran it).
      return { isa: attn.isa, timings: { ...result.timings, worker_ms: performance.now() - t0 }, output_sum: sum, masked_rows: result.masked_rows.length, item,
        patterns: result.patterns, workers: { used: result.workers, setting: config.workers ?? 1, splitFlops, engine_ms: result.engine_ms, wait_ms: result.wait_ms } };
    },

    /**
     * The time of one pass of `config`, timed in blocks (runForward): asked once an untimed run's result
     * is drawn. { timings: null } when this owner's last result is of other inputs (a newer run went first:
     * timing this one again would overwrite that one's arrays).
     */
    async time({ owner, config, expectMs }, post) {
      const mine = ownerState(owner);
      if (mine.last?.key !== configKey(config)) return { timings: null };
      const { result } = await forward(owner, config, post, { expectMs });
      return { timings: result.timings };
    },

    /** Batch item b of `config`'s result: recomputed first if this owner's last result is another (or was lost with a restarted worker). */
    async item({ owner, config, b }, post) {
      if (!(b >= 0 && b < config.batch)) throw new Error(`batch item ${b} is outside 0..${config.batch - 1}`);
      const mine = ownerState(owner);
      const last = mine.last?.key === configKey(config) ? mine.last : await forward(owner, config, post);
      return { item: itemView(attn, last, b) };
    },

    /** After the first result: a few medium passes (once), so later timings are the kernels' and not V8's compiler's (kernelWarmth). */
    async warm() {
      warmth.warm();
      return {};
    },

    /**
     * A feature's request: `request` of features/<feature>/, with its payload. Only a function of the
     * feature's own `handlers` answers (the ones its requests.js declares: tests/js/features.test.mjs
     * holds the two to each other); it gets the owner's side of the compute.
     */
    async ask({ owner, feature, request, payload }, post) {
      if (!featureHandlers) throw new Error('this compute answers no feature requests');
      const handlers = await featureHandlers(feature);
      await training.load(); // side.training (the training lab's handler reads it before its labs() resolves)
      if (!Object.hasOwn(handlers, request) || typeof handlers[request] !== 'function') throw new Error(`the feature “${feature}” has no request '${request}'`);
      if (payload?.config && usesLab(payload.config)) await labs(); // side.prepared's layer needs the lab's model
      return handlers[request](payload ?? {}, sideOf(owner), post);
    },

    /**
     * Frees everything an owner held (its layer's wasm memory, its result arrays, its trainers, its pool
     * layer); the last owner's release stops the pools' workers too.
     */
    async release({ owner }) {
      const mine = owners.get(owner);
      mine?.cache.clear();
      mine?.pooled?.layer.delete();
      if (mine) training.current?.release(mine); // no training side yet: no trainer either
      owners.delete(owner);
      if (owners.size === 0) await closePools();
      return {};
    },

    /** For leak checks: bytes malloc'd in the engine, how many owners hold state, how many pools run. */
    stats() {
      return { heapAllocated: attn ? attn.heapAllocated() : 0, labsHeapAllocated: lab ? lab.labs.heapAllocated() : 0,
        labsLoaded: !!attn?.labsLoaded, owners: owners.size, pools: pools.size };
    },

    get loaded() {
      return !!attn;
    },
  };
}

/**
 * The training side made on first use by trainingSide() (createComputeSide's option; a failed load is asked
 * again next time): { load() → a promise of it, current (it, or null before) }.
 */
function lazyTraining(trainingSide) {
  let side = null, ready = null;
  const make = () => {
    if (!trainingSide) throw new Error('this compute runs no training lab');
    return trainingSide();
  };
  return {
    load: () => (ready ??= Promise.resolve().then(make).then((made) => { side = made; return made; }, (err) => { ready = null; throw err; })),
    get current() { return side; },
  };
}

/** Files ([{ name, bytes }]) read into importTensors' object, bounded by config's sizes (import/files.js). */
async function readFiles(importReader, files, config) {
  if (!importReader) throw new Error('this compute reads no files');
  const { readImportFiles, importLimits } = await importReader();
  return readImportFiles(files, importLimits(config));
}

/**
 * The kernels' warm-up, once per engine: V8 first runs wasm from a quick baseline compiler and optimises a
 * function only once it is hot. And the f32x4 peak, measured once after it (asked by the panel that shows it).
 */
function kernelWarmth(engine, measurePeak) {
  let warmed = false, peak = null;
  const warm = () => {
    warmed ||= warmKernels(engine());
  };
  return {
    warm,
    peak() {
      if (!measurePeak) throw new Error('this compute does not measure the peak');
      warm();
      // A failed measure is not kept: the panel asks again after the next result (as the client once did).
      return (peak ??= measurePeak().catch((err) => { peak = null; throw err; }));
    },
  };
}

/** A few medium passes (at most 150 ms), so V8 has optimised the kernels before the peak and later timings. True once done. */
function warmKernels(attn) {
  const warm = new attn.MultiHeadAttention({ d_model: 128, n_heads: 4, seed: 1 });
  const query = new Float32Array(128 * 128).fill(0.25);
  const until = performance.now() + 150;
  for (let k = 0; k < 20 && performance.now() < until; k++) warm.forward({ query, batch: 1, n_q: 128, need_weights: true });
  warm.delete();
  return true;
}

/** Whether a run of `config` uses the training lab's model (model/job.js, prepareRun): the labs module then. */
const usesLab = (config) => config.weights === 'trained' || config.source === 'task';

/** Where no pool can run: every pass runs on the engine here. */
const NO_POOLS = Object.freeze({ poolOf: () => null, pooledFor: async () => null, closePools: async () => {}, has: () => false, size: 0 });

/** The requests of the compute itself; a feature's go through `ask`. */
const CORE_REQUESTS = Object.freeze(['init', 'run', 'time', 'item', 'warm', 'ask', 'release', 'stats']);
/** Answers one request message with `handlers`: reply(message) for the answer, progress included. */
export async function handle(handlers, data, reply) {
  const { type, id } = data;
  try {
    if (!CORE_REQUESTS.includes(type)) throw new Error(`unknown request '${type}'`);
    if (type !== 'init' && type !== 'release' && type !== 'stats' && !handlers.loaded) throw new Error('the engine is not loaded yet');
    const answer = await handlers[type](data, (p) => reply({ type: 'progress', id, ...p }));
    reply({ type: 'done', id, ...answer });
  } catch (err) {
    reply({ type: 'error', id, message: String(err?.message ?? err) });
  }
}

/** What the heatmaps of batch item b need: its attention (downsampled), mask, labels, the output's first rows. */
function itemView(attn, { config, result }, b) {
  const { n_heads, n_q, n_k, d_model } = config;
  const [per] = forwardResultSizes({ batch: 1, n_q, n_k, d_model, n_heads }).weights; // one item's maps, the engine's count
  const attention = result.weights.subarray(b * per, (b + 1) * per); // the forward result's `weights`: A
  const shown = downsampleHeads(attention, n_heads, n_q, n_k); // the cells drawn (blocks averaged on long sequences)
  const data = shown.data === attention ? attention.slice() : shown.data;
  const rowsShown = Math.min(n_q, 4), colsShown = Math.min(d_model, 8);
  const output_rows = [];
  for (let i = 0; i < rowsShown; i++) {
    const at = (b * n_q + i) * d_model;
    output_rows.push(Array.from(result.output.subarray(at, at + colsShown)));
  }
  let item_sum = 0;
  for (let k = b * n_q * d_model; k < (b + 1) * n_q * d_model; k++) item_sum += result.output[k];
  return {
    b, ...shown, data,
    masked: attn.maskGrid({ mask: maskArgument(config), ...sparseArguments(config), batch: config.batch, item: b, n_q, n_k, row_step: shown.rowStep,
      col_step: shown.colStep }),
    labels_q: result.labels_q?.[b] ?? null, labels_k: result.labels_k?.[b] ?? null,
    output_rows, item_sum,
    masked_rows: result.masked_rows.filter((m) => m.batch === b).map((m) => m.query),
  };
}
