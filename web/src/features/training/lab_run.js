// The training lab's run: the panel owns time (playing, one request at a time), the worker owns the
// model. The lab's history (loss, accuracy, held-out accuracy per step) and the requests that extend
// it; the panel (panel.js) draws it after each reply.

import { trainingKey, TRAIN_LIMITS } from '../../model/training_settings.js';
import { Cancelled, WorkerLost } from '../../model/errors.js';
import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/training.js';

// Steps per request while playing: up to 10 (a few tens of ms at the default sizes), fewer when steps
// are slow (large settings), so the curves move and Pause answers within about REQUEST_MS.
const MAX_STEPS_PER_REQUEST = 10;
const REQUEST_MS = 150;

/**
 * settingsNow() → the lab's settings or null; draw() redraws the panel; showBusy(busy) says whether a
 * request is out (so a reader of the page knows when the step count has stopped moving). Returns the
 * run: { lab, playing, busy, destroyed, sample, msPerStep, clearHistory(), request(steps, { reset }), loop() }.
 */
export function createLabRun({ host, actions, settingsNow, draw, showBusy = () => {} }) {
  const run = { playing: false, busy: false, destroyed: false, sample: 0, msPerStep: 0 }; // msPerStep: measured over the last request that stepped
  const lab = { key: null, steps: 0, history: { step: [], loss: [], accuracy: [] }, evals: { step: [], accuracy: [] }, reply: null };


  function clearHistory() {
    lab.steps = 0;
    for (const list of [...Object.values(lab.history), ...Object.values(lab.evals)]) list.length = 0;
    lab.reply = null;
  }

  /** One request: `steps` more steps (0: just look again); with reset, a new model from the seed. */
  async function request(steps, { reset: fresh = false } = {}) {
    const settings = settingsNow();
    if (!settings || run.busy) return false;
    run.busy = true;
    showBusy(true);
    const key = trainingKey(settings);
    try {
      const t0 = host.win.performance.now();
      const reply = await actions.train({ settings, steps, sample: run.sample, reset: fresh });
      if (steps > 0) run.msPerStep = (host.win.performance.now() - t0) / steps;
      if (key !== lab.key) return false; // the settings changed meanwhile: that reply is of another model
      if (reply.steps !== (fresh ? 0 : lab.steps) + steps) {
        // The worker was restarted (cancelled, or it stopped answering) and trained a new model from step 0.
        clearHistory();
        lab.restarted = true;
      }
      const first = reply.steps - steps;
      reply.report.loss.forEach((loss, i) => {
        lab.history.step.push(first + i + 1);
        lab.history.loss.push(loss);
        lab.history.accuracy.push(reply.report.accuracy[i]);
      });
      lab.steps = reply.steps;
      lab.evals.step.push(reply.steps);
      lab.evals.accuracy.push(reply.evaluation.accuracy);
      lab.reply = reply;
      lab.error = null;
      draw();
      return true;
    } catch (err) {
      run.playing = false;
      if (!(err instanceof Cancelled)) lab.error = err instanceof WorkerLost ? text('training.press_train_go', { message: err.message }) : err.message;
      draw();
      return false;
    } finally {
      run.busy = false;
      showBusy(false);
      // The settings changed while this request was out: the new model's first request found the lab busy.
      if (key !== lab.key && lab.key && !lab.reply && !run.destroyed) request(0, { reset: true });
    }
  }

  async function loop() {
    while (run.playing && !run.destroyed) {
      if (lab.steps >= TRAIN_LIMITS.steps) {
        run.playing = false;
        lab.note = text('training.paused_steps_lab_s', { steps: fmt.int(TRAIN_LIMITS.steps) });
        break;
      }
      const fit = run.msPerStep > 0 ? Math.floor(REQUEST_MS / run.msPerStep) : 1; // the first request measures
      const ok = await request(Math.max(1, Math.min(MAX_STEPS_PER_REQUEST, fit, TRAIN_LIMITS.steps - lab.steps)));
      if (!ok) break;
      await new Promise((resolve) => host.win.setTimeout(resolve, 0)); // let the page paint and take clicks
    }
    draw();
  }

  return Object.assign(run, { lab, clearHistory, request, loop });
}
