// The page's controller: reads the state from the URL hash, validates it, asks the worker for runs,
// and hands every panel the same view. Panels own their sections; this file owns time and order.

import { fromHash, toHash, visiblePanels, withChanges } from './model/schema.js';
import { validate, configKey } from './model/validate.js';
import * as fmt from './model/format.js';
import { Cancelled } from './worker/client.js';
import { client, engine as enginePromise } from './worker/early.js';
import { createControls } from './panels/controls.js';
import { createRunbar } from './panels/runbar.js';
import { createHeatmaps } from './panels/heatmaps.js';
import { createShapes } from './panels/shapes.js';
import { createCost } from './panels/cost.js';
import { createPerformance } from './panels/performance.js';
import { createExamples } from './panels/examples.js';
import { createModels } from './panels/models.js';
import { createEquations } from './panels/equations.js';
import { createSqrtDk } from './panels/sqrtdk.js';
import { createPositional } from './panels/positional.js';

const DEBOUNCE_MS = 200;     // typing "512" should run once, not three times
const PROGRESS_AFTER_MS = 100; // shorter runs finish before a progress bar would be worth showing

const started = performance.now();

/** Everything the panels read. Mutated only here. */
const app = {
  state: fromHash(location.hash),
  lastEdited: null,
  engine: null,      // main-thread engine: analysis, examples, encodings (cheap, synchronous)
  client: null,      // worker: forward passes, sweep, peak
  check: null,       // validate() of the state
  result: null,      // last finished run: { key, config, analysis, isa, timings, output_sum, item, ... }
  running: null,     // { key, startedAt, estimate } while a run is in flight
  runs: [],          // history for the performance panel
  peak: undefined,   // { gflops } once measured, null if no SIMD
  firstResultMs: null,
  set, run, cancel, showItem, loadChanges, measureSweep,
};

const panels = [];
// Panels that are not needed to show the first result wait for it, so the main thread is free to
// receive and draw it (they also render if the first view does not run by itself).
const LATER = new Set(['performance', 'examples', 'models', 'equations', 'sqrtdk', 'positional']);
let holdLater = true;
let debounce = 0;
let queued = false;

function setPanelVisibility() {
  const shown = new Set(visiblePanels(app.state));
  for (const el of document.querySelectorAll('[data-panel]')) el.hidden = !shown.has(el.dataset.panel);
  document.body.classList.toggle('embed', app.state.embed === '1');
  document.body.classList.toggle('no-controls', !shown.has('controls'));
}

function revalidate() {
  app.check = validate(app.state, {
    analyze: app.engine?.analyze, budget: app.engine?.defaultMemoryBudget, isa: app.engine?.isa, lastEdited: app.lastEdited,
  });
}

function render(reason) {
  for (const panel of panels) {
    if (holdLater && LATER.has(panel.name)) continue;
    try {
      panel.update(app, reason);
    } catch (err) {
      // One panel failing must not blank the page: say so in that panel and keep the rest alive.
      panel.fail?.(err);
      console.warn(`panel ${panel.name}: ${err.message}`);
    }
  }
}

/** Applies state changes (from a control, a preset or the hash) and re-runs small problems. */
function set(changes, { edited = null, fromHashChange = false } = {}) {
  app.state = withChanges(app.state, changes);
  if (edited) app.lastEdited = edited;
  if (!fromHashChange) {
    const hash = toHash(app.state);
    history.replaceState(null, '', hash || `${location.pathname}${location.search}`);
  }
  setPanelVisibility();
  const before = app.check?.config;
  revalidate();
  const itemChanged = before && app.check.config && before.item !== app.check.config.item;
  render('state');
  if (itemChanged && app.result && app.result.key === configKey(app.check.config)) showItem(app.check.config.item);
  scheduleRun();
}

function loadChanges(changes) {
  app.lastEdited = null;
  set(changes);
}

function scheduleRun() {
  clearTimeout(debounce);
  const { check } = app;
  if (!app.engine || !check?.ok || check.blocked || !check.auto) return;
  if (app.result && app.result.key === configKey(check.config)) return;
  debounce = setTimeout(run, DEBOUNCE_MS);
}

/** Runs the current config in the worker (queued behind a run in flight). */
async function run() {
  clearTimeout(debounce);
  const { check } = app;
  if (!check?.ok || check.blocked || !app.client) return;
  if (app.running) {
    queued = true;
    return;
  }
  const config = check.config;
  const key = configKey(config);
  app.running = { key, startedAt: performance.now(), estimate: check.estimate, progress: null, showProgress: false };
  // The request is posted before the panels re-render, so the worker starts at once.
  const reply = app.client.run(config, (p) => {
    if (app.running?.key !== key) return;
    app.running.progress = p;
    if (app.running.showProgress) render('progress');
  });
  render('running');
  const timer = setTimeout(() => {
    if (app.running?.key === key) {
      app.running.showProgress = true;
      render('progress');
    }
  }, PROGRESS_AFTER_MS);
  try {
    const { timings, ...rest } = await reply;
    if (app.firstResultMs === null) performance.mark('attention-first-reply');
    const analysis = check.analysis;
    const ms = timings.forward_ms;
    app.result = { key, config, analysis, timings, ...rest, gflops: fmt.gflops(analysis.flops.exact_flops, ms) };
    app.runs.unshift({
      at: Date.now(), isa: rest.isa, ms, setup_ms: timings.setup_ms, gflops: app.result.gflops,
      label: `d_model ${fmt.int(config.d_model)} · h ${config.n_heads} · n_q ${fmt.int(config.n_q)} · n_k ${fmt.int(config.n_k)} · batch ${config.batch}`,
    });
    app.runs.length = Math.min(app.runs.length, 12);
    app.running = null;
    render('result');
    if (app.firstResultMs === null) {
      app.firstResultMs = performance.now() - started;
      document.body.dataset.firstResultMs = app.firstResultMs.toFixed(1);
      performance.mark('attention-first-result');
      releaseLater();
    }
    if (app.peak === undefined) measurePeak(); // after a result is on screen, so it never delays one
    // The batch item shown may have changed while this ran.
    const now = app.check?.config;
    if (now && configKey(now) === key && now.item !== rest.item.b) showItem(now.item);
  } catch (err) {
    app.running = null;
    releaseLater();
    if (err instanceof Cancelled) app.status = { kind: 'info', text: 'Cancelled. Change the inputs or press Run again.' };
    else app.status = { kind: 'error', text: `The run failed: ${err.message}` };
    render('status');
  } finally {
    clearTimeout(timer);
  }
  if (queued) {
    queued = false;
    if (app.check?.ok && !app.check.blocked && (!app.result || app.result.key !== configKey(app.check.config))) run();
  }
}

function releaseLater() {
  if (!holdLater) return;
  holdLater = false;
  // Next frame: the first result gets painted before the rest of the page is built.
  requestAnimationFrame(() => setTimeout(() => render('engine')));
}

function cancel() {
  if (!app.client) return;
  queued = false;
  app.client.cancel();
}

/** Asks the worker for another batch item of the current result. */
async function showItem(b) {
  try {
    const reply = await app.client.item(b);
    if (app.result) {
      app.result.item = reply.item;
      render('result');
    }
  } catch (err) {
    app.status = { kind: 'error', text: err.message };
    render('status');
  }
}

let peakRequested = false;
async function measurePeak() {
  if (peakRequested) return;
  peakRequested = true;
  try {
    app.peak = (await app.client.peak()).peak;
  } catch (err) {
    // Cancelled with the worker: ask again after the next result. Any other failure: no peak.
    if (err instanceof Cancelled) peakRequested = false;
    else app.peak = null;
  }
  render('perf');
}

/** Times one forward pass per n for the current layer, in the worker (the performance chart). */
async function measureSweep(ns, onProgress) {
  const c = app.check.config;
  return app.client.sweep({ d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, bias: c.bias }, ns, onProgress);
}

async function boot() {
  performance.mark('attention-boot');
  setPanelVisibility();
  const $ = (id) => document.getElementById(id);
  const section = (name) => document.querySelector(`[data-panel="${name}"]`);
  panels.push(
    createControls($('controls'), app),
    createRunbar($('runbar'), $('blocked'), $('engine-badge'), app),
    createHeatmaps(section('heatmaps'), app),
    createShapes(section('shapes'), app),
    createCost(section('cost'), app),
    createPerformance(section('performance'), app),
    createExamples(section('examples'), app),
    createModels(section('models'), app),
    createEquations(section('equations'), app),
    createSqrtDk(section('sqrtdk'), app),
    createPositional(section('positional'), app),
  );
  revalidate();
  render('state');

  // early.js started both engines while this module graph was loading (#simd=0 forces the baseline).
  app.client = client;
  try {
    const [engine] = await Promise.all([enginePromise, client.ready]);
    app.engine = engine;
  } catch (err) {
    releaseLater();
    app.status = { kind: 'error', text: `The WebAssembly engine could not start: ${err.message}` };
    render('status');
    return;
  }
  revalidate();
  const firstRunsItself = app.check.ok && !app.check.blocked && app.check.auto;
  if (firstRunsItself) run();
  render('engine');
  if (!firstRunsItself) releaseLater();
  if (app.check.ok && !app.check.blocked && !app.check.auto) {
    app.status = { kind: 'info', text: `Ready. This one is larger (about ${fmt.duration(app.check.estimate.seconds * 1000)}): press Run.` };
    render('status');
  }
}

window.addEventListener('hashchange', () => {
  app.lastEdited = null;
  const next = fromHash(location.hash);
  const engineChanged = next.simd !== app.state.simd;
  set(next, { fromHashChange: true });
  if (engineChanged) location.reload(); // the module is chosen once per page load
});

window.addEventListener('unhandledrejection', (e) => {
  app.status = { kind: 'error', text: `Something went wrong: ${e.reason?.message ?? e.reason}` };
  render('status');
});

boot();
