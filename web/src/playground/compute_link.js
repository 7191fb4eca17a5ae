// The compute a playground connects to: a worker (forward passes, sweep, peak) and a main-thread
// engine (analysis, examples, encodings: cheap and synchronous). Every playground of a page that uses
// the same module and asset folder shares them; each keeps its own session. When the last one is
// removed, both are let go after a short grace (a playground moved in the page reconnects at once).
//
// The main-thread engine is ready well before the worker's (a worker must start, fetch its script,
// then its wasm): a first run small enough to take a few milliseconds runs on this thread while the
// worker is still starting, so a page's first result does not wait for it. The same handlers serve
// pages where no worker can start at all.

import { EngineClient, InPageWorker, startModuleWorker } from '../worker/client.js';
import { createComputeSide, handle } from '../worker/compute_side.js'; // no pools on this thread

const GRACE_MS = 3000;
/** Runs estimated shorter than this may run on the page's thread while the worker starts. */
const QUICK_SECONDS = 0.005;
const shared = new Map(); // `${base}|${simd}` → { refs, client, engine, inPage, timer }

/**
 * Connects a playground: { client, session, engine (a promise of the main-thread API), release() }.
 * simd: undefined = automatic, false = the baseline module, true = insist on SIMD. base: the asset folder.
 * doc: the playground's document (its origin decides how the worker starts). compiled: wasm compiled
 * early by the page (loadAttention's option), used by the first playground that starts this compute.
 * session.run(config, onProgress, { deadlineMs, estimateSeconds, expectMs }) runs in the worker, or here
 * when the worker is not ready yet and the run (estimateSeconds) is quick; expectMs, the pass alone, is
 * what the pass's timing expects (model/job.js runForward).
 */
export function acquireCompute({ simd, base, doc, compiled }) {
  const key = `${base}|${simd}`;
  let entry = shared.get(key);
  if (!entry) {
    const wasmDir = new URL('wasm/', base).href;
    // Imported when first needed: a module that cannot work (loaded from blob:) still draws and says why.
    const engine = import('../engine/attention.js').then(({ loadAttention }) => loadAttention({ wasmDir, ...(simd === undefined ? {} : { simd }), ...(compiled ? { compiled } : {}) }));
    engine.catch(() => {}); // the playground reports it
    // One set of handlers on this thread, over the main-thread engine: quick first runs and the fallback.
    let inPage = null;
    const inPageHandlers = () => (inPage ??= engine.then(async () => {
      // A feature's handler comes from panels.js, as its panel did (the first view's bundle holds none),
      // and so do the peak's measure (asked once a result is on screen, when the lazy panels load too)
      // and import/files.js's readers (as the export panel has them).
      const panels = () => import(new URL('panels.js', base).href);
      const featureHandlers = (feature) => panels().then((m) => m.loadHandlers(feature));
      const handlers = createComputeSide(() => engine, { featureHandlers, measurePeak: () => panels().then((m) => m.measurePeak()), importReader: () => panels().then((m) => m.importReader()),
        trainingSide: () => panels().then((m) => m.createTrainingSide()) }); // the training lab's side too
      await handlers.init({ simd });
      return handlers;
    }));
    const origin = doc.defaultView?.origin ?? new URL(base).origin;
    const client = new EngineClient({
      simd,
      start: () => startModuleWorker(new URL('worker.js', base).href, origin),
      fallback: () => new InPageWorker(inPageHandlers().then((handlers) => ({ handle, handlers }))),
    });
    entry = { refs: 0, client, engine, inPageHandlers, timer: 0 };
    shared.set(key, entry);
  }
  clearTimeout(entry.timer);
  entry.refs++;
  const { client } = entry;
  const worker = client.session();
  const usedInPage = { value: false };
  let lastInPage = false; // the last run went to this thread's handlers: its time() is taken there too
  const session = {
    ...worker,
    run(config, onProgress, { deadlineMs, estimateSeconds = Infinity, expectMs, timed } = {}) {
      lastInPage = !(client.info !== undefined || client.inPage || !(estimateSeconds < QUICK_SECONDS));
      if (!lastInPage) return worker.run(config, onProgress, { deadlineMs, timed, expectMs });
      usedInPage.value = true;
      return entry.inPageHandlers().then((handlers) => handlers.run({ owner: worker.owner, config, timed, expectMs }, (p) => onProgress?.(p)));
    },
    /**
     * The time of the last run's pass, where that run went. On this thread, after the next painted frame:
     * its ~10 ms of timed passes would otherwise keep the maps just drawn off the screen.
     */
    time(config, options) {
      if (!lastInPage) return worker.time(config, options);
      return afterPaint(doc.defaultView).then(() => entry.inPageHandlers()).then((handlers) => handlers.time({ owner: worker.owner, config, expectMs: options?.expectMs }, () => {}));
    },
  };
  let released = false;
  return {
    client,
    session,
    engine: entry.engine,
    release() {
      if (released) return;
      released = true;
      worker.close();
      if (usedInPage.value) entry.inPageHandlers().then((handlers) => handlers.release({ owner: worker.owner }), () => {});
      entry.refs--;
      if (entry.refs > 0) return;
      entry.timer = setTimeout(() => {
        if (entry.refs > 0) return;
        entry.client.close();
        shared.delete(key);
      }, GRACE_MS);
    },
  };
}

/** Resolves once the next frame is painted (or after 100 ms, in a tab that paints none). */
function afterPaint(win) {
  return new Promise((resolve) => {
    if (!win) return resolve();
    const fallback = win.setTimeout(resolve, 100);
    win.requestAnimationFrame(() => win.setTimeout(() => {
      win.clearTimeout(fallback);
      resolve();
    }));
  });
}

/**
 * What every shared compute holds (for leak checks): playgrounds connected, and for the worker and the
 * page's thread, bytes malloc'd in the engine and how many playgrounds hold state there. The worker's
 * figures come through its queue, so every release sent before is counted.
 */
export async function computeStats() {
  return Promise.all([...shared.values()].map(async (entry) => {
    const api = await entry.engine;
    const inPage = await entry.inPageHandlers();
    return { playgrounds: entry.refs, worker: await entry.client.stats(), page: { ...inPage.stats(), heapAllocated: api.heapAllocated() } };
  }));
}
