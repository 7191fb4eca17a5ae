// One worker of the attention pool as the calling thread sees it: requests and their replies by
// id, and what happens when the worker dies (its calls fail with a message, a new one replaces it).

const WORKER_URL = new URL('./pool_worker.js', import.meta.url);

/** A posting failure (a value that cannot be cloned into a message), told apart from engine errors. */
export class PostError extends Error {}

/** One worker of the pool: its requests in flight, and its replacement when it dies. */
export class WorkerSlot {
  #spawn;
  #init;                   // the init request's arguments: { simd, wasmDir }
  #name;
  #handle = null;
  #started = false;        // whether the current worker answered its init
  #pending = new Map();    // request id → { resolve, reject }
  #nextId = 1;
  #closed = false;
  generation = 0;          // bumped by every new worker: layers sent to an older one are gone
  ready = null;

  constructor(spawn, init, name) {
    this.#spawn = spawn;
    this.#init = init;
    this.#name = name;
    this.#start();
  }

  #start() {
    const generation = ++this.generation;
    this.#started = false;
    this.#handle = this.#spawn(WORKER_URL, {
      onMessage: (data) => this.#receive(generation, data),
      onDeath: (reason) => this.#died(generation, reason),
    });
    this.ready = this.request('init', this.#init).then((info) => {
      if (generation === this.generation) this.#started = true;
      return info;
    });
    this.ready.catch(() => {}); // whoever awaits ready sees the error; nobody else must
  }

  /** Posts a request now (throws PostError when it cannot be sent); resolves to the reply's value. */
  request(op, args = {}, transfer = []) {
    if (this.#closed) return Promise.reject(new Error('this attention pool was closed'));
    // A worker that died before it ever started is not replaced at once (a script that cannot
    // load would be respawned forever); the next request tries again.
    if (!this.#handle) this.#start();
    const id = this.#nextId++;
    let call;
    const reply = new Promise((resolve, reject) => { call = { resolve, reject }; });
    try {
      this.#handle.post({ id, op, ...args }, transfer);
    } catch (e) {
      throw new PostError(`${op}: the request could not be sent to a pool worker (${e.message})`);
    }
    if (this.#pending.size === 0) this.#handle.ref();
    this.#pending.set(id, call);
    return reply;
  }

  #receive(generation, { id, value, error, fatal, code }) {
    if (generation !== this.generation || !this.#handle) return; // a late reply of a worker already gone
    const call = this.#pending.get(id);
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#handle.unref();
    if (error === undefined) call?.resolve(value);
    else call?.reject(Object.assign(new Error(error), code === undefined ? {} : { code }));
    if (fatal) this.#died(generation, `its engine failed: ${error}`);
  }

  #died(generation, reason) {
    if (generation !== this.generation || this.#closed || !this.#handle) return;
    const error = new Error(`${this.#name} stopped (${reason}); the call was abandoned` +
      (this.#started ? ' and the worker replaced' : ''));
    const calls = [...this.#pending.values()];
    this.#pending.clear();
    const handle = this.#handle;
    this.#handle = null;
    handle.terminate();
    for (const call of calls) call.reject(error);
    if (this.#started) this.#start();
  }

  native() {
    return this.#handle?.native ?? null;
  }

  async close() {
    this.#closed = true;
    const error = new Error('the attention pool was closed before the call finished');
    for (const call of this.#pending.values()) call.reject(error);
    this.#pending.clear();
    const handle = this.#handle;
    this.#handle = null;
    if (handle) await handle.terminate();
  }
}
