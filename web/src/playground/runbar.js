// The run bar of a playground: the Run button (enabled only for a valid, runnable state), the status
// line, a progress bar with Cancel for runs longer than ~100 ms, the badge naming the wasm module, and
// under it whatever stops a run: the size refusal, and every problem not shown beside a visible field
// (a read-only embed, a field with no control). One rule: every state shows a result or says what to do.

import * as fmt from '../model/format.js';
import { configKey } from '../model/validate.js';
import { moduleName } from '../ui/module_name.js';
import { setText } from '../ui/dom.js';

/** "Ran in 0.42 ms · 12.3 GFLOP/s · SIMD module". */
export function ranText(result) {
  return `Ran in ${fmt.duration(result.timings.forward_ms)} · ${fmt.rate(result.gflops)} · ${result.isa === 'scalar' ? 'baseline' : 'SIMD'} module`;
}

export function createRunbar({ dom, actions, win }) {
  const { h, fill } = dom;
  const runButton = h('button', { type: 'button', class: 'primary run', id: 'run', disabled: true, onclick: () => actions.run() }, 'Run');
  const cancelButton = h('button', { type: 'button', class: 'cancel', id: 'cancel', hidden: true, onclick: () => actions.cancel() }, 'Cancel');
  const status = h('p', { class: 'status', id: 'status', 'aria-live': 'polite' }, 'Loading…');
  const progress = h('progress', { id: 'progress', max: 1, value: 0, hidden: true });
  const badge = h('p', { class: 'engine-badge', id: 'engine-badge', 'aria-live': 'polite' }, 'Loading the engine…');
  const bar = h('div', { class: 'runbar', role: 'region', 'aria-label': 'run' },
    runButton, cancelButton, h('div', { class: 'run-status' }, status, progress), badge);
  const blocked = h('p', { class: 'blocked', id: 'blocked', role: 'status', hidden: true });
  const problems = h('div', { class: 'problems', id: 'problems', role: 'alert', hidden: true });
  const notes = h('p', { class: 'notes', id: 'notes', hidden: true });
  let tick = 0;
  let lastProblems = '';

  function statusText(v, key) {
    const { check, result, engine, notice, engineError } = v;
    if (engineError) return { kind: 'error', text: `The WebAssembly engine could not start: ${engineError.message}.${engineError.retry ? ' Reload the page to try again.' : ''}` };
    if (!engine) return { text: 'Loading the WebAssembly engine…' };
    if (notice) return notice;
    if (!check?.ok) {
      const fields = Object.keys(check?.errors ?? {});
      return { kind: 'error', text: `Fix ${fields.map((f) => `“${f}”`).join(', ')} to run${v.problems.length ? ' (see below)' : ' (highlighted)'}.` };
    }
    if (check.blocked) return { text: 'Analysed, not run (see why below).' };
    // A quick pass is timed once its maps are drawn (playground.js): the time follows in a moment.
    if (result && result.key === key) return { text: result.timings.untimed ? 'Ran; timing the pass…' : ranText(result) };
    if (check.auto) return { text: 'Running as you type…' };
    return { text: `Press Run (estimated ${fmt.duration(check.estimate.seconds * 1000)}).` };
  }

  function update(v) {
    const { check, running, engine } = v;
    if (engine) {
      setText(badge, `Running on ${moduleName(engine.isa)}${engine.inPage ? ', on this page’s thread' : ''}`);
      badge.dataset.isa = engine.isa;
    }
    // No engine will come: the status line says why, and no "Loading the engine…" stays beside it.
    badge.hidden = !engine && !!v.engineError;
    const runnable = !!engine && !!check?.ok && !check.blocked;
    runButton.disabled = !runnable || !!running;
    runButton.textContent = running ? 'Running…' : 'Run';

    blocked.hidden = !check?.blocked;
    setText(blocked, check?.blocked?.message ?? '');

    // Problems that no visible field shows: listed here, with their field's name.
    const signature = JSON.stringify(v.problems);
    if (signature !== lastProblems) {
      lastProblems = signature;
      problems.hidden = !v.problems.length;
      fill(problems, v.problems.length ? [h('strong', {}, 'This view cannot run:'),
        h('ul', {}, v.problems.map((p) => h('li', { dataset: { field: p.field } }, h('code', {}, p.field), ': ', p.message)))] : []);
    }
    notes.hidden = !v.notes.length;
    setText(notes, v.notes.join(' '));

    const show = !!running?.showProgress;
    progress.hidden = !show;
    cancelButton.hidden = !show;
    win.clearInterval(tick);
    if (running) {
      bar.dataset.state = 'running';
      status.dataset.kind = '';
      const write = () => {
        const elapsed = win.performance.now() - running.startedAt;
        const p = running.progress;
        const est = running.estimate ? running.estimate.seconds * 1000 : 0;
        if (p && p.total > 1) {
          progress.value = p.done / p.total;
          status.textContent = `Running ${p.phase}… ${fmt.duration(elapsed)}`;
        } else {
          // One wasm call cannot report progress: show time against the estimate instead.
          progress.value = est ? Math.min(0.95, elapsed / est) : 0;
          status.textContent = `Running… ${fmt.duration(elapsed)}${est ? ` (estimated ${fmt.duration(est)})` : ''}`;
        }
      };
      write();
      if (show) tick = win.setInterval(write, 100);
      return;
    }
    const { kind = '', text } = statusText(v, check?.config ? configKey(check.config) : '');
    setText(status, text);
    status.dataset.kind = kind;
    bar.dataset.state = kind === 'error' ? 'error' : 'idle';
  }

  return {
    elements: [bar, blocked, problems, notes],
    update,
    destroy: () => win.clearInterval(tick),
  };
}
