// createAttentionPool: multi-head attention on several cores with plain workers (module Web
// Workers in a page, worker_threads in Node; no SharedArrayBuffer, so no COOP/COEP headers).
// Every worker holds a smaller layer with one contiguous group of the heads; a forward pass runs
// the groups at once, and their partial outputs are summed (plus bᴼ) on the calling thread; with
// need_weights, one worker makes the result's attention array and the others' heads are copied in. The
// calling thread keeps the whole layer in its own engine: the parameters' owner, and the fallback for
// passes too small for splitting to pay and for dropout.
import { loadAttention } from './attention.js';
import { coreCount, workerSpawner } from './pool_port.js';
import { PostError, WorkerSlot } from './pool_slot.js';
import { firstNonFinite, groupConfig, groupParams, headGroups, placeAttention, sumPartials } from './pool_split.js';
import { engineOptions, headMaskSlice, readForward, wholeCall } from './pool_input.js';
import { copyInto, lengthOf, ownKeys } from './intrinsics.js';

/**
 * Forward passes with fewer matmul FLOPs than this (layer.forwardFlops: the core's count) run on the
 * calling thread: splitting pays from ~18 MFLOP in Node (bench/results.md, "Constants of the source").
 */
export const SPLIT_FLOPS = 20e6;

/**
 * The threshold the page and the element use (their compute worker's pool, in a browser), where
 * splitting pays from ~84 MFLOP (bench/results.md, "Constants of the source").
 */
export const PAGE_SPLIT_FLOPS = 80e6;

/** Test hooks, not API: pool[poolInternals].worker(i) is worker i's Worker object. */
export const poolInternals = Symbol('attention pool internals');

const POOL_KEYS = ['workers', 'simd', 'splitFlops', 'wasmDir'];

/**
 * Writes a zero to one float per 4 KB page of array[from, to), which must be fresh (all zero): a new
 * array's memory is mapped only when first written, one page fault per page, and taking them while
 * the workers compute saves the time after they reply.
 */
function touchPages(array, from, to) {
  for (let k = from; k < to; k += 1024) array[k] = 0;
}

/** A layer of the pool: the whole layer on the calling thread, a group of its heads in each worker. */
class PoolLayer {
  #pool;      // the pool's context: { slots, splitFlops, defaultBudget, live, forget, shapes, flops }
  #id;
  #local;     // the whole MultiHeadAttention, in the calling thread's engine
  #dims;
  #groups;
  #version = 0;
  #sent;      // per worker: { generation, version } of the parameters it holds
  #bo = null; // bᴼ of the parameters the workers were last sent, added after the partial outputs are summed
  #spares;    // per worker: last call's result and input arrays, handed back for reuse
  /** Workers the last forward pass ran on; 0 when it ran on the calling thread. */
  lastWorkers = 0;
  /**
   * Each worker's time in its engine's forward during the last pass, in ms; empty when that pass ran
   * on the calling thread or failed. The pass waits for the slowest worker: the slowest minus the
   * workers' mean is time lost to uneven shares, from uneven core speeds, from head groups of
   * unequal size, or (need_weights without into.weights) from the worker that makes the result's
   * attention array faulting in its pages (bench/pool_balance.mjs measures it).
   */
  lastWorkerMs = [];

  constructor(pool, id, local) {
    this.#pool = pool;
    this.#id = id;
    this.#local = local;
    // The sizes the engine resolved (the caller's config is read once, by the engine): grouped-query
    // attention's slices of Wᴷ and Wⱽ follow its n_kv_heads.
    for (const key of ['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'd_v', 'bias']) this[key] = local[key];
    this.#dims = { d_model: this.d_model, n_heads: this.n_heads, n_kv_heads: this.n_kv_heads, d_k: this.d_k, d_v: this.d_v, bias: this.bias };
    // Which query heads read which key/value head is the core's (resolveView's kv_head_of).
    this.#groups = headGroups({ n_kv_heads: this.n_kv_heads, kv_head_of: pool.kvHeadOf(this.#dims) }, pool.slots.length);
    this.#sent = this.#groups.map(() => null);
    this.#spares = this.#groups.map(() => null);
  }

  #live() {
    this.#pool.live();
    if (!this.#local) throw new Error('this pool layer was deleted');
    return this.#local;
  }

  /**
   * Replaces the parameters (checked by the engine; the public name is setWeights); the workers get
   * their slices on the next split pass. Passes in flight keep the parameters they were started with: each worker takes requests in
   * order (the new slices arrive after their part), and each pass keeps its own bᴼ.
   */
  async setWeights(params) {
    this.#live().setWeights(params);
    this.#version++;
  }

  /**
   * Sends the workers their slices of the current parameters now rather than with the next split pass,
   * so that pass (and its timing) does not wait for them. A worker that cannot take them gets them
   * again with the next split pass, which reports what went wrong.
   */
  async sendWeights() {
    this.#live();
    if (this.#groups.length < 2) return;
    const requests = [];
    this.#syncParams(requests);
    await Promise.allSettled(requests);
  }

  /** The current parameters, as copies (same layout as MultiHeadAttention.getWeights). */
  async getWeights() {
    return this.#live().getWeights();
  }

  /**
   * Matmul FLOPs of a forward pass of this layer (2 per multiply-add: the Q, K, V projections,
   * Q·Kᵀ and weights·V of every head, Concat·Wᴼ), as the core counts them (analyze().flops). The
   * pool splits a pass only from its splitFlops on.
   */
  forwardFlops(batch, n_q, n_k) {
    this.#live();
    return this.#pool.flops(this.#dims, batch, n_q, n_k);
  }

  /** The split of a forward pass (`call`: its checked record), or null to run it on the calling thread. */
  #plan(call) {
    if (this.#groups.length < 2) return null;
    // Whether weight (b, h, i, j) is dropped depends on h, and a worker's heads count from 0: its
    // pattern would differ from the single-threaded one. Until the core takes a first-head offset,
    // passes with dropout run whole.
    if (call.dropout !== 0 && call.training) return null;
    const { batch, n_q, n_k } = call;
    // Each worker checks the budget for its share of the heads, but the attention maps come together
    // here: when they alone are over the budget, the whole pass is refused by the engine here,
    // before anything is allocated, as a single-threaded one would be.
    const attentionBytes = call.need_weights ? 4 * call.into.lengths.weights : 0; // float32s, counted once (result_sizes.js)
    if (attentionBytes > call.memory_budget) return null;
    if (this.#pool.splitFlops > 0) {
      let flops;
      try {
        flops = this.forwardFlops(batch, n_q, n_k);
      } catch {
        return null; // sizes the core cannot count: the calling thread's engine says why
      }
      if (flops < this.#pool.splitFlops) return null;
    }
    return { batch, n_q, n_k, self: call.self };
  }

  /** Sends each worker its heads' parameters unless it holds this version already. */
  #syncParams(requests) {
    let all = null;
    this.#groups.forEach((group, i) => {
      const slot = this.#pool.slots[i], sent = this.#sent[i];
      if (sent && sent.generation === slot.generation && sent.version === this.#version) return;
      all ??= this.#local.getWeights();
      const params = groupParams(all, this.#dims, group);
      const transfer = Object.values(params).map((a) => a.buffer);
      const exists = sent && sent.generation === slot.generation;
      const version = this.#version;
      const reply = exists
        ? slot.request('params', { layer: this.#id, params, version }, transfer)
        : slot.request('create', { layer: this.#id, config: groupConfig(this.#dims, group), params, version }, transfer);
      this.#sent[i] = { generation: slot.generation, version: this.#version };
      requests.push(reply.catch((e) => {
        this.#sent[i] = null;
        throw e;
      }));
    });
    if (all) this.#bo = all.bo;
  }

  /**
   * Runs the layer: the same input and result as MultiHeadAttention.forward. Split over the
   * workers above the pool's splitFlops, otherwise (and with dropout) on the calling thread.
   */
  async forward(input) {
    const local = this.#live();
    // Every option is read once and checked once, here; nothing below reads `input` again.
    const call = readForward(input, this.#dims, this.#pool.defaultBudget);
    const plan = this.#plan(call);
    if (!plan) {
      this.lastWorkers = 0;
      this.lastWorkerMs = [];
      return local.forward(wholeCall(call));
    }
    this.lastWorkerMs = []; // until this pass completes
    const { need_weights } = call;
    // `into` was checked with the record, before anything is sent (the workers never see it).
    const dst = { output: call.into.output, weights: call.into.weights, caller: call.into };
    const requests = [];
    this.#syncParams(requests);
    const paramRequests = requests.length;
    // What this pass was started with: the workers compute with this version of the parameters (they
    // take requests in order, and refuse a pass whose version they do not hold), and the sum gets
    // this bᴼ, whatever setWeights or another pass does before the replies arrive.
    const started = { version: this.#version, bo: this.#bo };
    // Without into.weights, the last group's worker (the smallest group: headGroups gives any
    // extra heads to the first ones) makes the new attention array the call returns: see #assemble.
    const maker = need_weights && !dst.weights ? this.#groups.length - 1 : -1;
    const options = engineOptions(call);
    try {
      this.#groups.forEach((group, i) => {
        // Each worker gets its own copy of the inputs, transferred (not copied again); the
        // caller's arrays stay attached. The copies go into the arrays the worker sent back last
        // time when the lengths fit (no new memory to fault in). key === value stays one array.
        const spare = this.#spares[i];
        this.#spares[i] = null;
        const reusable = spare?.inputs ?? [];
        const copies = new Map();
        const copy = (a) => {
          if (!copies.has(a)) {
            // The checked length (the array's own, from its slots), never a `length` property.
            const length = lengthOf(a);
            const k = reusable.findIndex((r) => r.length === length);
            const c = k < 0 ? new Float32Array(length) : reusable.splice(k, 1)[0];
            copyInto(c, a, 0);
            copies.set(a, c);
          }
          return copies.get(a);
        };
        const sent = { ...options, query: copy(call.query) };
        // Options with one value per head (head_mask) get the worker's heads only.
        if (call.head_mask) sent.head_mask = headMaskSlice(call.head_mask, group.h0, group.h);
        // ALiBi's slopes depend on a head's place in the whole layer: the worker's heads are h0 … of n_heads.
        if (call.positional === 'alibi') Object.assign(sent, { head_offset: group.h0, layer_heads: this.n_heads });
        if (!plan.self) Object.assign(sent, { key: copy(call.key), value: copy(call.value) });
        const results = { output: spare?.output, attention: spare?.attention };
        const transfer = [...copies.values(), results.output, results.attention].filter(Boolean).map((a) => a.buffer);
        const whole = i === maker ? { n_heads: this.n_heads, h0: group.h0 } : undefined;
        const request = this.#pool.slots[i].request('forward',
          { layer: this.#id, input: sent, spare: results, whole, version: started.version }, transfer);
        // A worker without this version (an update that failed or was lost) refused the pass: it
        // gets the parameters again with the next one.
        request.catch((e) => {
          if (e?.code === 'stale-params' && this.#sent[i]?.version === started.version) this.#sent[i] = null;
        });
        requests.push(request);
      });
    } catch (e) {
      if (!(e instanceof PostError)) throw e;
      // Something in the input cannot go into a message: the calling thread's engine runs it
      // (the record holds only checked, plain values, so this is not expected).
      for (const r of requests) r.catch(() => {});
      this.lastWorkers = 0;
      this.lastWorkerMs = [];
      return local.forward(wholeCall(call));
    }
    const fresh = dst.output ? null : this.#freshOutput(plan);
    const arrival = maker < 0 ? null : this.#placeOnArrival(requests.slice(paramRequests), maker, plan);
    let parts;
    try {
      parts = (await Promise.all(requests)).slice(paramRequests);
    } catch (err) {
      if (arrival) arrival.done = true; // the pass failed: replies still on their way place nothing
      throw err;
    }
    return this.#assemble(plan, parts, { ...dst, fresh }, started.bo, call.scale, maker, arrival, need_weights);
  }

  /**
   * The attention weights of a pass without into.weights, assembled as the workers reply: once
   * the maker's array (the result) is here, the heads of workers that replied are copied in, the
   * pages of those still computing are faulted in now (this thread is idle and the maker's core
   * free), and each later reply is copied in as it arrives, so little is left after the last one.
   * (The caller's into.weights is written only after every worker has replied: a call that fails
   * writes nothing into it, and a worker can fail alone, on its own heads' part of a head_mask.)
   * Returns { placed: the workers whose heads are in place, done }; #assemble places any others
   * and sets done, after which nothing here writes (a reply's callbacks run before the await in
   * forward resumes, but a late one must never write into a returned array).
   */
  #placeOnArrival(requests, maker, { batch, n_q, n_k }) {
    const state = { placed: new Set(), done: false }, placed = state.placed, waiting = new Map();
    let whole = null;
    const place = (i, part) => {
      placeAttention([part.attention], [this.#groups[i]], batch, this.n_heads, n_q * n_k, whole);
      placed.add(i);
    };
    requests.forEach((request, i) => request.then((part) => {
      if (state.done) return;
      if (i !== maker) {
        if (whole) place(i, part);
        else waiting.set(i, part);
        return;
      }
      whole = part.attention;
      for (const [j, early] of waiting) place(j, early);
      this.#groups.forEach((g, j) => {
        if (j === maker || placed.has(j)) return;
        for (let b = 0; b < batch; b++) {
          const from = (b * this.n_heads + g.h0) * n_q * n_k;
          touchPages(whole, from, from + g.h * n_q * n_k);
        }
      });
    }).catch(() => {})); // a failed request fails the pass through Promise.all in forward; a part
    // that could not be placed here is not in `placed`, so #assemble places it and reports what fails
    return state;
  }

  /**
   * The new output array a pass without `into.output` returns, made while the workers compute
   * and written once per 4 KB page: a new array's memory is only mapped when first written, one
   * page fault per page, and this thread is otherwise idle until they reply, so the faults are
   * taken now rather than after. One float per page is enough to fault it (the kernel zeroes the
   * page). The attention weights, n² per head, are not made here: a worker makes them
   * (the maker, see forward), so this thread neither faults nor copies that worker's part.
   */
  #freshOutput({ batch, n_q }) {
    const output = new Float32Array(batch * n_q * this.d_model);
    touchPages(output, 0, output.length);
    return output;
  }

  /**
   * Sums the partial outputs (+ the pass's bᴼ) and places the attention weights not yet in place.
   * A sum that overflows float32 is refused with the single-threaded forward's message, before
   * anything is written into the caller's arrays (a call that throws writes nothing into them).
   */
  #assemble({ batch, n_q, n_k }, parts, dst, bo, scale, maker, arrival, need_weights) {
    const n_heads = this.n_heads, d_model = this.d_model;
    if (arrival) arrival.done = true; // from here on only this function writes the attention
    parts.forEach((p, i) => {
      this.#spares[i] = { output: p.output, attention: i === maker ? p.kept : p.attention, inputs: p.inputs };
    });
    // The caller's arrays were checked when the call began; one transferred (or a view of memory
    // that grew) while the workers computed would take no writes at all.
    for (const key of ['output', 'weights']) {
      const array = dst[key];
      if (array && lengthOf(array) !== dst.caller.lengths[key]) {
        throw new Error(`into.${key} was detached while the pass ran (its buffer was transferred or resized); nothing was written`);
      }
    }
    // Into the caller's array the sum goes only once it is known to be finite: it is made in the
    // first worker's output array (this thread's own, reused by that worker next time) and copied.
    const sum = sumPartials(parts.map((p) => p.output), bo, dst.output ? parts[0].output : dst.fresh);
    const bad = firstNonFinite(sum);
    if (bad >= 0) {
      throw new Error(`the output overflowed float32 at batch item ${Math.floor(bad / (n_q * d_model))}, query ` +
        `${Math.floor(bad / d_model) % n_q}: the inputs or weights are too large, scale them down`);
    }
    let output = sum;
    if (dst.output) {
      copyInto(dst.output, sum, 0);
      output = dst.output;
    }
    let attention = null; // the result's `weights` (forward's public name): the attention probabilities
    if (dst.weights) {
      attention = placeAttention(parts.map((p) => p.attention), this.#groups, batch, n_heads, n_q * n_k, dst.weights);
    } else if (need_weights) {
      // The maker's array is the result, its own heads in place; most others are in by now.
      const rest = this.#groups.map((g, i) => i).filter((i) => i !== maker && !arrival.placed.has(i));
      attention = placeAttention(rest.map((i) => parts[i].attention), rest.map((i) => this.#groups[i]), batch, n_heads, n_q * n_k, parts[maker].attention);
    }
    this.lastWorkers = parts.length;
    this.lastWorkerMs = parts.map((p) => p.ms);
    const shapes = this.#pool.shapes(this.#dims, batch, n_q, n_k, need_weights, scale);
    return { output, weights: attention, shapes, masked_rows: parts[0].masked_rows };  // forward's key order and names
  }

  /** Frees the layer here and in every worker. */
  delete() {
    if (!this.#local) return;
    this.#local.delete();
    this.#local = null;
    this.#spares = this.#groups.map(() => null);
    this.#sent.forEach((sent, i) => {
      const slot = this.#pool.slots[i];
      if (sent && sent.generation === slot.generation) slot.request('delete', { layer: this.#id }).catch(() => {});
    });
    this.#pool.forget(this);
  }
}

/** A value for an error message: strings quoted, so "2" and 2 read differently. */
const describe = (value) => (typeof value === 'string' ? `"${value}" (a string)` : String(value));

function checkPoolOptions(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new Error('createAttentionPool expects an options object { workers?, simd?, splitFlops?, wasmDir? }');
  }
  for (const key of ownKeys(options)) {
    if (!POOL_KEYS.includes(key)) {
      throw new Error(`createAttentionPool: unknown option '${key}' (expected one of: ${POOL_KEYS.join(', ')})`);
    }
  }
  const { workers, simd, splitFlops, wasmDir } = options;
  if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1 && workers <= 256)) {
    throw new Error(`workers must be a whole number from 1 to 256, got ${describe(workers)}`);
  }
  if (simd !== undefined && typeof simd !== 'boolean') throw new Error(`simd must be true or false, got ${describe(simd)}`);
  if (splitFlops !== undefined && !(typeof splitFlops === 'number' && splitFlops >= 0)) {
    throw new Error(`splitFlops must be a number ≥ 0, got ${describe(splitFlops)}`);
  }
  if (wasmDir !== undefined && typeof wasmDir !== 'string') throw new Error(`wasmDir must be a URL string, got ${describe(wasmDir)}`);
}

/**
 * Starts `workers` workers (default: every logical core), each loading its own engine, plus the
 * engine of the calling thread. `simd` and `wasmDir` as for loadAttention (every worker loads the
 * module from the same folder; a bundle passes it, as the compute worker of dist/ does). `splitFlops`:
 * passes with fewer matmul FLOPs run on the calling thread (default SPLIT_FLOPS, measured on a
 * 2-core machine).
 */
export async function createAttentionPool(options = {}) {
  checkPoolOptions(options);
  const workers = options.workers ?? await coreCount();
  // Absolute, so that every worker resolves it alike whatever its own script's URL.
  const wasmDir = options.wasmDir === undefined ? undefined : new URL(options.wasmDir, import.meta.url).href;
  const local = await loadAttention(wasmDir === undefined ? { simd: options.simd } : { simd: options.simd, wasmDir });
  const spawn = await workerSpawner();
  // The workers load the module the calling thread got, so every engine computes alike.
  const simd = local.isa === 'wasm-simd128';
  const slots = Array.from({ length: workers }, (_, i) => new WorkerSlot(spawn, { simd, wasmDir }, `pool worker ${i + 1} of ${workers}`));
  try {
    await Promise.all(slots.map((s) => s.ready));
  } catch (e) {
    await Promise.all(slots.map((s) => s.close()));
    throw new Error(`createAttentionPool: a worker could not start: ${e.message}`);
  }

  let closed = false, nextLayer = 1;
  const layers = new Set();
  const analyses = new Map();
  /** The core's analysis of a forward pass of the whole layer (shapes, FLOP counts), kept for reuse. */
  const analysis = (dims, batch, n_q, n_k, need_weights, scale) => {
    const key = `${JSON.stringify(dims)} ${batch} ${n_q} ${n_k} ${need_weights} ${scale}`;
    if (!analyses.has(key)) {
      if (analyses.size > 64) analyses.clear();
      const { d_model, n_heads, n_kv_heads, d_k, d_v, bias } = dims;
      const { shapes, flops } = local.analyze({ d_model, n_heads, n_kv_heads, d_k, d_v, bias, batch, n_q, n_k, need_weights, scale });
      analyses.set(key, { shapes, flops: { exact_macs: flops.exact_macs } });
    }
    return analyses.get(key);
  };
  const context = {
    slots,
    splitFlops: options.splitFlops ?? SPLIT_FLOPS,
    defaultBudget: local.defaultMemoryBudget ?? 2 ** 30,
    live() {
      if (closed) throw new Error('this attention pool was closed');
    },
    forget: (layer) => layers.delete(layer),
    /** The forward pass's tensor list for the whole layer: the engine's own, from analyze. */
    shapes(dims, batch, n_q, n_k, need_weights, scale) {
      return structuredClone(analysis(dims, batch, n_q, n_k, need_weights, scale).shapes);
    },
    /** Matmul FLOPs of a forward pass: 2 per multiply-add the core counts (analyze().flops.exact_macs). */
    flops(dims, batch, n_q, n_k) {
      return 2 * analysis(dims, batch, n_q, n_k, false, true).flops.exact_macs;
    },
    /** kv_head_of of a layer's resolved sizes, from the core (resolveView), which owns the mapping. */
    kvHeadOf({ d_model, n_heads, n_kv_heads, d_k, d_v }) {
      const view = local.resolveView({ d_model, n_heads, n_kv_heads, d_k, d_v, n_q: 1 });
      if (!view.ok) throw new Error(`internal error: the engine refuses the sizes it resolved (${view.message})`);
      return view.dims.kv_head_of;
    },
  };

  return {
    /** The module every engine of the pool runs: 'wasm-simd128' or 'scalar'. */
    isa: local.isa,
    workers,
    splitFlops: context.splitFlops,

    /** A layer, as new MultiHeadAttention(config) (the same options and checks). */
    async layer(config) {
      context.live();
      const layer = new PoolLayer(context, nextLayer++, new local.MultiHeadAttention(config));
      layers.add(layer);
      return layer;
    },

    /** Deletes every layer and stops every worker; calls in flight fail. Resolves when all have stopped. */
    async close() {
      if (closed) return;
      closed = true;
      for (const layer of [...layers]) layer.delete();
      await Promise.all(slots.map((s) => s.close()));
    },

    [poolInternals]: { worker: (i) => slots[i].native() },
  };
}
