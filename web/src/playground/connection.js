// A playground's connection to the compute (playground/compute_link.js): which module it asked for (the
// `simd` field), the main-thread engine's functions the store validates with, the engine's readiness
// (the first run starts then), the worker's warm-up, and what a feature's actions need to ask the
// compute (askHost, for playground/asks.js). Connecting again (another `simd`) lets the old one go.
// untilEngine() is the one wait for the engine (a run, an export, an import asked before it is loaded): it
// settles in every case, ready, failed or the playground removed, and again after a reconnect.

import { acquireCompute } from './compute_link.js';
import { unavailable } from './asks.js';

/**
 * m: the model (store.js); p: the playground's parts (win, doc, base, baseError, options, store, runs,
 * panels, redraw, events, resolveReady, reportProblems).
 */
export function createConnection(m, p) {
  const { win } = p;
  let compute = null, computeKey = null;
  let raw = { analyze: null, trainingCost: null, resolveView: null };
  let waiting = []; // untilEngine()'s promises not settled yet: { resolve, reject }

  const startError = () => new Error(`the WebAssembly engine could not start: ${m.engineError.message}`);
  /** Settles every untilEngine() waiting: fulfilled once the engine is ready, rejected with `err` otherwise. */
  function settle(err) {
    const now = waiting;
    waiting = [];
    for (const { resolve, reject } of now) if (err) reject(err); else resolve();
  }
  /** Fulfils once the engine is ready (at once if it is); rejects when it could not start or the playground is removed. */
  function untilEngine() {
    if (m.destroyed) return Promise.reject(new Error('this playground was removed'));
    if (m.engineError) return Promise.reject(startError());
    if (m.engine) return Promise.resolve();
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  }

  function connect() {
    if (p.baseError) {
      m.engineError = { message: p.baseError, retry: false };
      settle(startError());
      win.setTimeout(() => p.events.emit('error', { message: p.baseError, field: null }));
      return;
    }
    const simd = m.state.simd === '0' ? false : m.state.simd === '1' ? true : undefined;
    if (compute && computeKey === String(simd)) return;
    compute?.release();
    computeKey = String(simd);
    m.engine = null;
    m.engineError = null;
    raw = { analyze: null, trainingCost: null, resolveView: null };
    m.trainedHeld = null;
    m.result = null;
    const mine = acquireCompute({ simd, base: p.base, doc: p.doc, compiled: p.options.compiled });
    compute = mine;
    mine.engine.then(() => win.performance.mark('attention-main-engine'), () => {});
    mine.client.ready.then(() => win.performance.mark('attention-worker-ready'), () => {});
    // A trained link counts its training with the labs module (engine/labs.js): loaded first for such a
    // link only, and otherwise on the first trained config, which is checked again once it is here.
    mine.engine.then((api) => (m.state.weights === 'trained' ? api.labs().then(() => api, () => api) : api)).then((api) => {
      if (compute !== mine || m.destroyed) return;
      const trainingCost = (o) => {
        const lab = api.labsNow();
        if (lab) return lab.trainingCost(o);
        api.labs().then(() => { if (compute === mine && !m.destroyed) { p.store.revalidate(); p.redraw.render('engine'); } }, () => {});
        throw new Error('the training lab is loading; its estimate follows in a moment');
      };
      raw = { analyze: api.analyze, resolveView: api.resolveView, trainingCost };
      let examples = null;
      m.engine = Object.freeze({
        isa: api.isa, defaultMemoryBudget: api.defaultMemoryBudget,
        get inPage() { return mine.client.inPage; }, // no worker could start: everything runs on this thread
        analyze: (o) => api.analyze(o),
        // computed once, in the labs' module (loaded by the first ask): a promise the preset menu and the examples
        // panel share; one that failed is asked again next time
        lessonExamples: () => (examples ??= api.lessonExamples().catch((err) => { examples = null; throw err; })), modelPresets: api.modelPresets,
        positionalEncoding: api.positionalEncoding, positionalProperties: api.positionalProperties, sqrtDkStats: api.sqrtDkStats,
      });
      engineReady();
    }, (err) => {
      if (compute !== mine || m.destroyed) return;
      m.engineError = { message: String(err?.message ?? err), retry: true };
      p.panels.releaseLater();
      p.redraw.render('status');
      p.events.emit('error', { message: `The WebAssembly engine could not start: ${m.engineError.message}`, field: 'simd' });
      settle(startError());
    });
  }

  function engineReady() {
    win.performance.mark('attention-engine-ready');
    p.store.revalidate();
    const first = m.check.ok && !m.check.blocked && m.check.auto;
    if (first) p.runs.run().catch(() => {});
    p.redraw.render('engine');
    if (!first) p.panels.releaseLater();
    p.resolveReady();
    settle();
    p.reportProblems();
  }

  /** What a feature's actions need from this playground (playground/asks.js). */
  const askHost = {
    unavailable: () => unavailable({ destroyed: m.destroyed, assetsError: p.baseError, connected: !!compute }),
    session: () => compute.session,
    passDeadline: (config, passes) => p.runs.passDeadline(config, passes),
  };

  return {
    connect,
    untilEngine,
    /** The compute connected ({ client, session, engine, release }), or null. */
    compute: () => compute,
    /** The main-thread engine's analyze, resolveView and trainingCost (null until it is loaded). */
    raw: () => raw,
    askHost,
    /** After a result is announced (asking starts the worker): the worker's kernels warmed, once. */
    warm: () => compute?.client.warm(),
    /** The first result is on screen: now the worker may use the CPU. */
    startWorker: () => compute?.client.start(),
    release() {
      compute?.release();
      compute = null;
      settle(new Error('this playground was removed'));
    },
  };
}
