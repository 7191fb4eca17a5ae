// A playground's connection to the compute (playground/compute.js): which module it asked for (the
// `simd` field), the main-thread engine's functions the store validates with, the engine's readiness
// (the first run starts then), the browser's SIMD peak, and what a feature's actions need to ask the
// compute (askHost, for playground/asks.js). Connecting again (another `simd`) lets the old one go.

import { Cancelled, WorkerLost } from '../model/errors.js';
import { acquireCompute } from './compute.js';
import { unavailable } from './asks.js';

/**
 * m: the model (store.js); p: the playground's parts (win, doc, base, baseError, options, store, runs,
 * panels, redraw, events, resolveReady, reportProblems).
 */
export function createConnection(m, p) {
  const { win } = p;
  let compute = null, computeKey = null;
  let raw = { analyze: null, trainingCost: null, resolveView: null };
  let peakRequested = false;

  function connect() {
    if (p.baseError) {
      m.engineError = { message: p.baseError, retry: false };
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
    peakRequested = false;
    const mine = acquireCompute({ simd, base: p.base, doc: p.doc, compiled: p.options.compiled });
    compute = mine;
    mine.engine.then(() => win.performance.mark('attention-main-engine'), () => {});
    mine.client.ready.then(() => win.performance.mark('attention-worker-ready'), () => {});
    mine.engine.then((api) => {
      if (compute !== mine || m.destroyed) return;
      raw = { analyze: api.analyze, resolveView: api.resolveView, trainingCost: api.trainingCost };
      m.engine = Object.freeze({
        isa: api.isa, defaultMemoryBudget: api.defaultMemoryBudget,
        get inPage() { return mine.client.inPage; }, // no worker could start: everything runs on this thread
        analyze: (o) => api.analyze(o),
        lessonExamples: api.lessonExamples, modelPresets: api.modelPresets,
        positionalEncoding: api.positionalEncoding, positionalProperties: api.positionalProperties, sqrtDkStats: api.sqrtDkStats,
      });
      engineReady();
    }, (err) => {
      if (compute !== mine || m.destroyed) return;
      m.engineError = { message: String(err?.message ?? err), retry: true };
      p.panels.releaseLater();
      p.redraw.render('status');
      p.events.emit('error', { message: `The WebAssembly engine could not start: ${m.engineError.message}`, field: 'simd' });
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
    p.reportProblems();
  }

  /** The browser's peak GFLOP/s (asked once, after a result is announced: asking starts the worker). */
  async function measurePeak() {
    if (peakRequested || m.destroyed) return;
    peakRequested = true;
    const mine = compute;
    try {
      const peak = await mine.client.peak();
      if (compute !== mine || m.destroyed) return;
      m.peak = peak;
    } catch (err) {
      if (compute !== mine || m.destroyed) return;
      // Cancelled or lost with the worker: ask again after the next result. Any other failure: no peak.
      if (err instanceof Cancelled || err instanceof WorkerLost) peakRequested = false;
      else m.peak = null;
    }
    p.redraw.render('perf');
  }

  /** What a feature's actions need from this playground (playground/asks.js). */
  const askHost = {
    unavailable: () => unavailable({ destroyed: m.destroyed, assetsError: p.baseError, connected: !!compute }),
    session: () => compute.session,
    passDeadline: (config, passes) => p.runs.passDeadline(config, passes),
  };

  return {
    connect,
    /** The compute connected ({ client, session, engine, release }), or null. */
    compute: () => compute,
    /** The main-thread engine's analyze, resolveView and trainingCost (null until it is loaded). */
    raw: () => raw,
    askHost,
    measurePeak,
    /** The first result is on screen: now the worker may use the CPU. */
    startWorker: () => compute?.client.start(),
    release() {
      compute?.release();
      compute = null;
    },
  };
}
