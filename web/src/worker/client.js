// The playgrounds' handle on the compute worker. One client (one worker, one wasm engine) serves every
// playground of a page that uses the same module; each playground talks through its own session.
// Requests go to the worker one at a time, so the client always knows which one is running: a cancel
// terminates the worker only when the cancelling session's request is the one running (a wasm call
// cannot be interrupted), and the other sessions' requests are sent again to the fresh worker.
// A watchdog restarts a worker that stops answering, so no run can stay "Running…" forever.

// The compute worker starts through the same helper as the pool's workers (engine/module_worker.js).
export { startModuleWorker } from '../engine/module_worker.js';

import { Cancelled, WorkerLost } from '../model/errors.js';

const INIT_DEADLINE_MS = 60000; // downloading and compiling the engine on a slow connection
const DEFAULT_DEADLINE_MS = 30000;
/** Requests an edit waits for: they go ahead of the others in the queue (see #request). */
const URGENT = new Set(['run', 'item']);

/**
 * A stand-in worker that runs the same handlers on the main thread, for pages where no worker can start
 * (a Content-Security-Policy without blob: workers, say). Slower to the eye (the page waits during a
 * run), but every view still computes.
 */
export class InPageWorker {
  #handlers;
  onmessage = null;
  onerror = null;
  constructor(handlersPromise) {
    this.#handlers = handlersPromise;
  }
  postMessage(data) {
    setTimeout(async () => {
      const { handle, handlers } = await this.#handlers;
      await handle(handlers, data, (reply) => this.onmessage?.({ data: reply }));
    });
  }
  terminate() {}
}

export class EngineClient {
  #start;           // () → a worker-like object
  #fallback;        // () → an InPageWorker, or null
  #worker = null;
  #queue = [];      // requests not yet sent: { id, type, payload, session, resolve, reject, onProgress, deadlineMs }
  #inflight = null; // the request the worker is running
  #nextId = 1;
  #nextSession = 1;
  #watchdog = 0;
  #simd;
  #warm = null;
  #closed = false;
  #sessions = new Set();
  inPage = false;

  /**
   * start(): makes the worker; fallback(): an InPageWorker used when the worker cannot start (or null).
   * simd: undefined = automatic, false = the baseline module, true = insist on SIMD.
   */
  constructor({ start, fallback = null, simd } = {}) {
    this.#start = start;
    this.#fallback = fallback;
    this.#simd = simd;
    let settle;
    this.ready = new Promise((resolve, reject) => { settle = { resolve, reject }; });
    this.#settleReady = settle;
    // Neither a worker nor the fallback could start: whatever waits gets the reason.
    this.ready.catch((err) => { for (const r of this.#queue.splice(0)) r.reject(err); });
  }

  #settleReady;
  #started = false;

  /**
   * Starts the worker (once). It is not started by the constructor: a page's first result can come
   * from the page's own engine, and a worker compiling its wasm meanwhile would only compete for the
   * CPU; the first request, or the playground once its first result is on screen, starts it.
   */
  start() {
    if (!this.#started) {
      this.#started = true;
      this.#boot().then(this.#settleReady.resolve, this.#settleReady.reject);
    }
    return this.ready;
  }

  #boot() {
    let started;
    try {
      this.#worker = this.#spawn(this.#start);
      started = this.#init();
    } catch (err) {
      started = Promise.reject(err); // no Worker at all, or one refused at once (a Content-Security-Policy)
    }
    return started.catch((err) => {
      if (!this.#fallback || this.inPage || this.#closed) throw err;
      // The worker could not start at all: compute on this thread instead.
      this.#worker?.terminate();
      this.inPage = true;
      this.#worker = this.#spawn(this.#fallback);
      return this.#init();
    });
  }

  #spawn(make) {
    const worker = make();
    worker.onmessage = ({ data }) => this.#receive(data);
    worker.onerror = (e) => {
      e?.preventDefault?.();
      this.#lose(`the compute worker failed: ${e?.message || 'it could not load'}`, { restart: this.info !== undefined });
    };
    return worker;
  }

  /** Sends `init` ahead of everything queued, and resolves with the engine's info. */
  #init() {
    return new Promise((resolve, reject) => {
      const request = { id: this.#nextId++, type: 'init', payload: { simd: this.#simd }, session: null, deadlineMs: INIT_DEADLINE_MS,
        resolve: (info) => { this.info = info; resolve(info); }, reject };
      this.#queue.unshift(request);
      this.#pump();
    });
  }

  #pump() {
    if (this.#inflight || !this.#queue.length || this.#closed) return;
    // Until init has answered, only init may go.
    if (this.info === undefined && this.#queue[0].type !== 'init') return;
    const request = this.#queue.shift();
    this.#inflight = request;
    this.#arm(request.deadlineMs);
    this.#worker.postMessage({ type: request.type, id: request.id, ...request.payload });
  }

  #arm(ms) {
    clearTimeout(this.#watchdog);
    this.#watchdog = setTimeout(() => {
      const seconds = (ms / 1000).toFixed(ms < 10000 ? 1 : 0);
      this.#lose(`the compute worker stopped answering (nothing for ${seconds} s), so it was restarted`, { restart: true });
    }, ms);
  }

  #receive(data) {
    const request = this.#inflight;
    if (!request || data.id !== request.id) return;
    if (data.type === 'progress') {
      this.#arm(request.deadlineMs); // evidence of life
      request.onProgress?.(data);
      return;
    }
    clearTimeout(this.#watchdog);
    this.#inflight = null;
    if (data.type === 'error') request.reject(new Error(data.message));
    else request.resolve(data);
    this.#pump();
  }

  /** The worker is gone or stuck: fail what it was running, start a fresh one, send the queue again. */
  #lose(message, { restart }) {
    clearTimeout(this.#watchdog);
    const request = this.#inflight;
    this.#inflight = null;
    this.#worker.terminate();
    if (request) request.reject(request.type === 'init' ? new Error(message) : new WorkerLost(message));
    if (!restart || this.#closed) return;
    this.#restart();
  }

  #restart() {
    this.info = undefined;
    for (const session of this.#sessions) session.lost = true;
    this.#worker = this.#spawn(this.inPage ? this.#fallback : this.#start);
    this.ready = this.#init();
    this.ready.catch((err) => {
      // A worker that cannot even start again: every waiting request gets the reason.
      for (const r of this.#queue.splice(0)) r.reject(err);
    });
  }

  #request(session, type, payload = {}, { onProgress, deadlineMs = DEFAULT_DEADLINE_MS } = {}) {
    if (this.#closed) return Promise.reject(new Error('this compute engine was shut down'));
    this.start();
    return new Promise((resolve, reject) => {
      const request = { id: this.#nextId++, type, payload, session, resolve, reject, onProgress, deadlineMs };
      // A learner's run (or batch item) goes before the panels' own requests and the peak, which can wait:
      // what an edit shows first is its maps. Among themselves, requests keep their order.
      const behind = URGENT.has(type) ? this.#queue.findIndex((r) => !URGENT.has(r.type) && r.type !== 'init') : -1;
      if (behind >= 0) this.#queue.splice(behind, 0, request);
      else this.#queue.push(request);
      this.#pump();
    });
  }

  /** Warms the worker's kernels (compute_side.js's warm), once per client. */
  warm() {
    return (this.#warm ??= this.#request(null, 'warm').catch(() => {}));
  }

  /** Bytes malloc'd in the worker's engine, how many sessions hold state there, how many pools run (for leak checks). */
  stats() {
    return this.#request(null, 'stats').then(({ heapAllocated, owners, pools }) => ({ heapAllocated, owners, pools }));
  }

  /** A playground's own channel: its requests, its state in the worker, its cancel. */
  session() {
    const client = this;
    const owner = this.#nextSession++;
    const session = {
      owner,
      lost: false,
      // timed false: a quick pass comes back untimed (timings.untimed), and time() times it afterwards.
      // expectMs: the caller's estimate of the forward pass alone, so a slow first sample of a quick pass is timed again.
      run: (config, onProgress, { deadlineMs, timed = true, expectMs } = {}) => client.#request(session, 'run', { owner, config, timed, expectMs }, { onProgress, deadlineMs }),
      time: (config, { deadlineMs = 30000, expectMs } = {}) => client.#request(session, 'time', { owner, config, expectMs }, { deadlineMs }),
      // Requests on one config: the caller may give a deadline from that config's own cost. A silent
      // worker is only noticed when the running request's deadline passes, and every request queued
      // behind it (the learner's next run) waits until then.
      item: (config, b, { deadlineMs = 60000 } = {}) => client.#request(session, 'item', { owner, config, b }, { deadlineMs }),
      /**
       * A feature's request (features/<feature>/requests.js, answered by its handler.js in the worker):
       * the client knows no feature by name; playground/asks.js gives each panel its own as actions.
       */
      ask: (feature, request, payload, { onProgress, deadlineMs = 60000 } = {}) =>
        client.#request(session, 'ask', { owner, feature, request, payload }, { onProgress, deadlineMs }),
      /** Stops this session's requests: queued ones are dropped; the running one ends with its worker. */
      cancel: () => client.#cancel(session),
      /** Frees this session's state in the worker; the session cannot be used afterwards. */
      close: () => {
        client.#cancel(session, { quiet: true });
        client.#sessions.delete(session);
        if (client.#closed || !client.#started) return Promise.resolve(); // nothing of it in a worker
        return client.#request(null, 'release', { owner }).catch(() => {});
      },
    };
    this.#sessions.add(session);
    return session;
  }

  #cancel(session, { quiet = false } = {}) {
    const mine = this.#queue.filter((r) => r.session === session);
    this.#queue = this.#queue.filter((r) => r.session !== session);
    for (const r of mine) r.reject(new Cancelled());
    if (this.#inflight?.session === session) {
      const request = this.#inflight;
      this.#inflight = null;
      clearTimeout(this.#watchdog);
      this.#worker.terminate();
      request.reject(new Cancelled());
      if (!this.#closed) this.#restart();
    }
    if (!quiet) this.#pump();
  }

  /** True while a request is queued or running. */
  get busy() {
    return !!this.#inflight || this.#queue.length > 0;
  }

  /** Ends the worker and fails whatever waits (the last playground using it was removed). */
  close() {
    this.#closed = true;
    clearTimeout(this.#watchdog);
    this.#worker?.terminate();
    const waiting = [...this.#queue.splice(0), ...(this.#inflight ? [this.#inflight] : [])];
    this.#inflight = null;
    for (const r of waiting) r.reject(new Cancelled());
  }
}
