// A playground's run scheduler: when the current inputs run (at once, or once the typing pauses:
// schedule.js), one run at a time with the newest inputs waiting behind it, cancel, the deadlines a
// silent worker is given, the progress shown for long runs, the timing of a quick pass once its maps
// are drawn, the record of runs, and another batch item of the current result.

import { configKey } from '../model/validate.js';
import { trainedKey } from '../model/training_settings.js';
import * as fmt from '../model/format.js';
import { Cancelled, WorkerLost } from '../model/errors.js';
import { waitBeforeRun } from './schedule.js';

const PROGRESS_AFTER_MS = 100; // shorter runs finish before a progress bar would be worth showing
const RUNS_KEPT = 12;

/** Time allowed before a silent worker counts as dead: generous against the estimate (which errs long). */
const deadlineFor = (estimateMs) => Math.max(4000, 20 * estimateMs + 2000);

/** An Error that names the field it is about (the `error` event's detail). */
function fieldError(field, message) {
  return Object.assign(new Error(message), { field });
}

/** m: the model (store.js); p: the playground's parts (win, ready, startedAt, connection, store, redraw, panels, events). */
export function createRuns(m, p) {
  const { win } = p;
  let debounce = 0, progressTimer = 0; // debounce: a run waiting for the typing to pause (schedule.js), 0 when none
  let quietStart = false; // the store's apply() renders the run it starts itself
  let pendingRun = null; // { promise, resolve, reject }: a run asked for while another runs
  const render = (reason) => p.redraw.render(reason);

  function scheduleRun() {
    win.clearTimeout(debounce);
    debounce = 0;
    const { check } = m;
    if (!m.engine || !check?.ok || check.blocked || !check.auto) return;
    const key = configKey(check.config);
    if (m.result?.key === key || m.running?.key === key) return;
    if (m.notice?.key === key) return; // it failed or was cancelled for these inputs: the learner decides
    // Wait only as long as the run's estimated cost requires: a run quicker than a frame starts now.
    const wait = waitBeforeRun(check.estimate?.seconds);
    if (wait === 0) run().catch(() => {});
    else debounce = win.setTimeout(() => { debounce = 0; run().catch(() => {}); }, wait);
  }

  /** Runs the current inputs; resolves with the result's detail, rejects with what stopped it. */
  function run() {
    if (m.destroyed) return Promise.reject(new Error('this playground was removed'));
    win.clearTimeout(debounce);
    debounce = 0;
    // The engine not loaded yet (or loading again after `simd` changed): run once it is, or fail with why not.
    if (!m.engine) return p.connection.untilEngine().then(() => run());
    const { check } = m;
    const [firstError] = Object.entries(check.errors);
    if (firstError) return Promise.reject(fieldError(...firstError));
    if (check.blocked) return Promise.reject(fieldError(check.blocked.field, check.blocked.message));
    const key = configKey(check.config);
    if (m.running) {
      if (m.running.key === key) return m.running.promise;
      if (!pendingRun) {
        pendingRun = {};
        pendingRun.promise = new Promise((resolve, reject) => Object.assign(pendingRun, { resolve, reject }));
        pendingRun.promise.catch(() => {});
      }
      return pendingRun.promise;
    }
    return start(check, key);
  }

  function start(check, key) {
    const config = check.config;
    const stateAtStart = p.store.getState();
    const running = { key, startedAt: win.performance.now(), estimate: check.estimate, progress: null, showProgress: false };
    m.running = running;
    m.notice = null;
    const compute = p.connection.compute();
    // The request is posted before the panels re-render, so the worker starts at once.
    const reply = compute.session.run(config, (progress) => {
      if (m.running !== running) return;
      running.progress = progress;
      if (running.showProgress) render('progress');
    }, { deadlineMs: deadlineFor(check.estimate.seconds * 1000), estimateSeconds: check.estimate.seconds, expectMs: passMs(check), timed: false });
    if (!quietStart) render('running');
    progressTimer = win.setTimeout(() => {
      if (m.running !== running) return;
      running.showProgress = true;
      render('progress');
    }, PROGRESS_AFTER_MS);
    let moved = false;
    /** Once this run has answered: the newer inputs that waited run (or the current ones are scheduled). */
    const moveOn = () => {
      if (moved) return;
      moved = true;
      win.clearTimeout(progressTimer);
      const next = pendingRun;
      pendingRun = null;
      if (next && !m.destroyed) run().then(next.resolve, next.reject);
      else if (!m.destroyed) scheduleRun();
    };
    const describe = (r, timings) => Object.freeze({ state: stateAtStart, shapes: check.analysis.shapes, isa: r.isa, ms: timings.forward_ms });
    running.promise = reply.then((r) => answered(m, p, { r, check, key, describe: (timings) => describe(r, timings), moveOn, waiting: () => pendingRun || debounce }), (err) => {
      m.running = null;
      p.panels.releaseLater();
      m.notice = failureNotice(err, key);
      render('status');
      if (!(err instanceof Cancelled)) p.events.emit('error', { message: m.notice.text, field: null });
      throw err;
    }).finally(moveOn);
    running.promise.catch(() => {});
    return running.promise;
  }

  function cancel() {
    const compute = p.connection.compute();
    if (!compute) return;
    pendingRun?.reject(new Cancelled());
    pendingRun = null;
    compute.session.cancel();
  }

  return {
    run,
    cancel,
    passDeadline: (config, passes) => passDeadline(m, config, passes),
    showItem: (b) => showItem(m, p, b),
    /** Schedules the current inputs from the store's apply(), which renders a run it starts itself. */
    scheduleQuietly() {
      quietStart = true;
      try {
        scheduleRun();
      } finally {
        quietStart = false;
      }
    },
    destroy() {
      win.clearTimeout(debounce);
      win.clearTimeout(progressTimer);
      pendingRun?.reject(new Error('this playground was removed'));
    },
  };
}

/** What the status line says of a run that failed (`key`: the inputs it was about). */
function failureNotice(err, key) {
  if (err instanceof Cancelled) return { key, kind: 'info', text: 'Cancelled. Change the inputs or press Run again.' };
  if (err instanceof WorkerLost) return { key, kind: 'error', text: `The run did not finish: ${err.message}. Press Run to try again.` };
  return { key, kind: 'error', text: `The run failed: ${err.message}. Change the inputs, or press Run to try again.` };
}

/** A run's reply: drawn and announced unless newer inputs wait; a quick pass is timed once its maps are drawn. */
async function answered(m, p, { r, check, key, describe, moveOn, waiting }) {
  const render = (reason) => p.redraw.render(reason);
  p.win.performance.mark('attention-run-reply');
  const { config, analysis } = check;
  if (config.train) {
    m.trainedHeld = trainedKey(config.train); // the worker keeps it for the next run
    p.store.revalidate(); // so the estimate of what follows (compare, another input) counts no training
  }
  // Newer inputs wait to run (or will): this result is never drawn, nor announced. The status stops
  // saying "Running…" now: the inputs that waited may no longer be runnable (an edit made them invalid),
  // and then no run follows to redraw it.
  if (waiting()) {
    m.running = null;
    render('status');
    return describe(r.timings);
  }
  m.result = { key, config, analysis, timings: r.timings, isa: r.isa, output_sum: r.output_sum, masked_rows: r.masked_rows,
    item: r.item, patterns: r.patterns ?? null, gflops: fmt.gflops(analysis.flops.exact_flops, r.timings.forward_ms), workers: r.workers ?? null,
    detail: describe(r.timings) };
  if (!r.timings.untimed) record(m, r, config);
  m.running = null;
  render('result');
  if (m.firstResultMs === null) {
    m.firstResultMs = p.win.performance.now() - p.startedAt;
    p.panels.releaseLater();
  }
  p.events.emit('drawn', m.result.detail); // the page's own mark of its first view (page/main.js); not a host event
  // The batch item shown may have changed while this ran.
  const now = m.check?.config;
  if (now && configKey(now) === key && now.item !== r.item.b) showItem(m, p, now.item);
  // The maps are drawn: a quick pass, which the run did not wait to time, is timed now; the status
  // line, the run's record and the `result` event carry that time. An edit that waited runs first.
  if (r.timings.untimed) {
    moveOn();
    const once = { ...r.timings, untimed: undefined }; // one pass's time, if no better one comes
    const compute = p.connection.compute();
    const timings = await compute.session.time(config, { deadlineMs: passDeadline(m, config, 50), expectMs: passMs(check) }).then((t) => t.timings ?? once, () => once);
    if (m.destroyed || m.result?.key !== key) return describe(timings); // replaced meanwhile: not announced
    m.result = { ...m.result, timings, gflops: fmt.gflops(analysis.flops.exact_flops, timings.forward_ms), detail: describe(timings) };
    record(m, r, config);
    render('perf');
    if (!m.check?.config || configKey(m.check.config) !== key) return m.result.detail; // the inputs moved on: not announced
  }
  p.events.emit('result', m.result.detail);
  // After the result is on screen and announced, so it never delays one (asking starts the worker).
  if (!m.destroyed) p.connection.warm(); // (not when a listener removed the playground)
  return m.result.detail;
}

/** The estimate of the forward pass alone, ms (no weights' set-up, no training): what its timing expects (model/job.js). */
const passMs = (check) => (check.estimate?.pass_seconds ?? Infinity) * 1000;

/** The run's line in the record of runs (the performance panel), with its time. */
function record(m, r, config) {
  const { timings, gflops } = m.result;
  m.runs = [{
    at: Date.now(), isa: r.isa, ms: timings.forward_ms, setup_ms: timings.setup_ms, gflops, repeats: timings.repeats, workers: r.workers ?? null,
    label: `d_model ${fmt.int(config.d_model)} · h ${config.n_heads} · n_q ${fmt.int(config.n_q)} · n_k ${fmt.int(config.n_k)} · batch ${config.batch}`,
  }, ...m.runs].slice(0, RUNS_KEPT);
}

/**
 * The deadline of a request that costs about `passes` forward passes of `config` (plus making its
 * layer, should a restarted worker have lost it): from the config's last run when there is one,
 * else from the estimate of one run (weights and pass), which errs long.
 */
function passDeadline(m, config, passes) {
  const last = m.result?.key === configKey(config) ? m.result.timings : null;
  const ms = last ? passes * last.forward_ms + last.setup_ms : passes * (m.check?.estimate?.seconds ?? 30) * 1000;
  return deadlineFor(ms);
}

/** Asks the compute for another batch item of the current result. */
async function showItem(m, p, b) {
  const render = (reason) => p.redraw.render(reason);
  const config = m.check?.config;
  const compute = p.connection.compute();
  if (!config || !compute) return;
  const key = configKey(config);
  try {
    const reply = await compute.session.item(config, b, { deadlineMs: passDeadline(m, config, 1) });
    if (m.result?.key === key && m.check?.config?.item === b) {
      m.result = { ...m.result, item: reply.item };
      render('result');
    }
  } catch (err) {
    if (err instanceof Cancelled || m.destroyed) return;
    m.notice = { key, kind: 'error', text: `Batch item ${b} could not be shown: ${err.message}. Press Run to try again.` };
    render('status');
  }
}
