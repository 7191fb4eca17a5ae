// The page's handle on the compute worker: promise-based requests, progress callbacks, and a
// cancel that terminates the worker and starts a fresh one (a wasm call cannot be interrupted).

export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

export class EngineClient {
  #worker = null;
  #pending = new Map(); // id → { resolve, reject, onProgress }
  #nextId = 1;
  #simd;
  #isReady = false;

  /** simd: undefined = automatic, false = force the baseline module. */
  constructor({ simd } = {}) {
    this.#simd = simd;
    this.ready = this.#start();
  }

  #start() {
    this.#isReady = false;
    this.#worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    this.#worker.onmessage = ({ data }) => this.#receive(data);
    this.#worker.onerror = (e) => {
      e.preventDefault?.();
      this.#failAll(new Error(`the compute worker failed: ${e.message || 'could not load'}`));
    };
    return this.#request('init', { simd: this.#simd }).then((info) => {
      this.#isReady = true;
      this.info = info;
      return info;
    });
  }

  /** Posts at once when the worker is ready (no extra turn of the event loop), else after it is. */
  #whenReady(send) {
    return this.#isReady ? send() : this.ready.then(send);
  }

  #receive(data) {
    const entry = this.#pending.get(data.id);
    if (!entry) return;
    if (data.type === 'progress') return entry.onProgress?.(data);
    this.#pending.delete(data.id);
    if (data.type === 'error') entry.reject(new Error(data.message));
    else entry.resolve(data);
  }

  #failAll(err) {
    for (const entry of this.#pending.values()) entry.reject(err);
    this.#pending.clear();
  }

  #request(type, payload = {}, onProgress) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, onProgress });
      this.#worker.postMessage({ type, id, ...payload });
    });
  }

  /** True while any request is unanswered. */
  get busy() {
    return this.#pending.size > 0;
  }

  run(config, onProgress) {
    return this.#whenReady(() => this.#request('run', { config }, onProgress));
  }

  item(b) {
    return this.#whenReady(() => this.#request('item', { b }));
  }

  peak() {
    return this.#whenReady(() => this.#request('peak'));
  }

  sweep(layer, ns, onProgress) {
    return this.#whenReady(() => this.#request('sweep', { layer, ns }, onProgress));
  }

  /** Stops whatever runs: the worker is terminated, pending requests reject with Cancelled. */
  cancel() {
    this.#worker.terminate();
    this.#failAll(new Cancelled());
    this.ready = this.#start();
    return this.ready;
  }
}
