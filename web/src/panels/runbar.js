// The run bar: the Run button (enabled only for a valid, runnable state), the status line, a
// progress bar with Cancel for runs longer than ~100 ms, and the badge naming the wasm module.

import * as fmt from '../model/format.js';
import { configKey } from '../model/validate.js';

const MODULE_NAMES = { 'wasm-simd128': 'WebAssembly SIMD (128-bit)', scalar: 'WebAssembly baseline (no SIMD)' };
export const moduleName = (isa) => MODULE_NAMES[isa] ?? isa;

export function createRunbar(bar, blockedEl, badge, app) {
  const runButton = bar.querySelector('#run');
  const cancelButton = bar.querySelector('#cancel');
  const status = bar.querySelector('#status');
  const progress = bar.querySelector('#progress');
  runButton.addEventListener('click', () => app.run());
  cancelButton.addEventListener('click', () => app.cancel());
  let tick = 0;

  function update({ check, running, result, engine, status: note }, reason) {
    if (engine) {
      badge.textContent = `Running on ${moduleName(engine.isa)}`;
      badge.dataset.isa = engine.isa;
    }
    const runnable = !!engine && !!check?.ok && !check.blocked;
    runButton.disabled = !runnable || !!running;
    runButton.textContent = running ? 'Running…' : 'Run';
    bar.dataset.state = running ? 'running' : note?.kind === 'error' ? 'error' : 'idle';

    blockedEl.hidden = !check?.blocked;
    blockedEl.textContent = check?.blocked?.message ?? '';

    const show = !!running?.showProgress;
    progress.hidden = !show;
    cancelButton.hidden = !show;
    clearInterval(tick);
    if (running) {
      const write = () => {
        const elapsed = performance.now() - running.startedAt;
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
      if (show) tick = setInterval(write, 100);
    } else if (reason === 'status' && note) {
      status.textContent = note.text;
    } else if (!engine) {
      status.textContent = note?.text ?? 'Loading the WebAssembly engine…';
    } else if (!check?.ok) {
      status.textContent = 'Fix the highlighted inputs to run.';
    } else if (check.blocked) {
      status.textContent = 'Analysed, not run (see why below).';
    } else if (result && result.key === configKey(check.config)) {
      status.textContent = `Ran in ${fmt.duration(result.timings.forward_ms)} · ${fmt.num(result.gflops, 2)} GFLOP/s · ${result.isa === 'scalar' ? 'baseline' : 'SIMD'} module`;
    } else if (check.auto) {
      status.textContent = 'Running as you type…';
    } else {
      status.textContent = `Press Run (estimated ${fmt.duration(check.estimate.seconds * 1000)}).`;
    }
    status.dataset.kind = note?.kind && reason === 'status' ? note.kind : '';
  }

  return { name: 'runbar', update };
}
