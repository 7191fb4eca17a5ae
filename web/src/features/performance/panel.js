// The performance panel: each run's time, GFLOP/s and share of this browser's measured f32x4 peak,
// how many pool workers ran it (and the `workers` setting), and a chart of time against n for the
// current d_model, measured in the worker on request (on the same workers).

import * as fmt from '../../model/format.js';
import { estimateRun, parseWorkers } from '../../model/validate.js';
import { Cancelled, WorkerLost } from '../../model/errors.js';
export { requests } from './requests.js';
import { chartButtons } from '../../export/figure_button.js';
import { followWidth, chartWidth } from '../../render/follow_width.js'; // what this panel may ask the compute for (its ctx.actions)
import { logLogAxes } from '../../render/log_axes.js';
import { text } from '../../lesson/panels/performance.js';

const SWEEP_SECONDS_PER_POINT = 0.25; // keeps the whole sweep to a few seconds
const MAX_SWEEP_N = 4096;

export function create(body, { dom, host, actions }) {
  const { h, fill } = dom;
  let view = null;
  const peakLine = h('p', { id: 'peak' }, text('performance.measuring_this_browser_s'));
  const runs = dom.tableWrap({ label: text('performance.runs_label') });
  const button = h('button', { type: 'button', class: 'secondary', id: 'sweep' }, text('performance.measure_time_against_n'));
  const cancel = h('button', { type: 'button', hidden: true }, text('performance.cancel'));
  const sweepStatus = h('p', { class: 'note', 'aria-live': 'polite' });
  const chartBox = h('div', { class: 'chart', id: 'sweep-chart' });
  const cores = Math.max(1, globalThis.navigator?.hardwareConcurrency ?? 1);
  const workersInput = h('input', { id: 'f-workers', name: 'workers', type: 'text', inputmode: 'numeric', spellcheck: 'false' });
  const workersLine = h('p', { id: 'workers-used', 'aria-live': 'polite' }, text('performance.no_run_yet'));
  const shareLine = h('p', { id: 'workers-share', class: 'note', hidden: true });
  fill(body,
    h('p', { class: 'lead' }, text('performance.core_runs_web_worker')),
    h('div', { class: 'field inline', dataset: { field: 'workers' } },
      h('label', { for: 'f-workers' }, [h('code', {}, text('performance.workers_key')), ' ', h('span', { class: 'what' }, text('performance.pool_workers_large_passes', { cores }))]),
      workersInput),
    workersLine, shareLine,
    peakLine, runs,
    h('h3', {}, text('performance.time_against_sequence_length')),
    h('p', { class: 'note' }, text('performance.self_attention_current_d')),
    h('div', { class: 'button-row' }, button, cancel), sweepStatus, chartBox,
    chartButtons({ dom, host, id: 'sweep-figure', plot: () => plot,
      title: () => text('performance.time_against_n_self', { dModel: chartBox.dataset.dModel, nHeads: chartBox.dataset.nHeads }) }));
  let plot = null;
  // The chart follows its box's width (a resize, a rotated phone, a host page's column).
  const stopFollowing = followWidth(chartBox, () => plot?.setSize({ width: chartWidth(chartBox), height: 260 }));

  button.addEventListener('click', measure);
  workersInput.addEventListener('change', () => actions.edit({ workers: workersInput.value.trim() }, 'workers'));
  cancel.addEventListener('click', () => actions.cancel());

  function lengths(engine, layer) {
    const out = [];
    for (let n = 16; n <= MAX_SWEEP_N; n *= 2) {
      const a = engine.analyze({ ...layer, n });
      if (a.memory.total > engine.defaultMemoryBudget) break;
      if (estimateRun(a, { isa: engine.isa }).seconds > SWEEP_SECONDS_PER_POINT && out.length >= 3) break;
      out.push(n);
    }
    return out;
  }

  async function measure() {
    const c = view?.check?.config, engine = view?.engine;
    if (!c || !engine) return;
    // The layer is fixed here: the chart is labelled with what was measured, even if the inputs change meanwhile.
    const layer = { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, bias: c.bias };
    const ns = lengths(engine, layer);
    button.disabled = true;
    cancel.hidden = false;
    sweepStatus.textContent = text('performance.measuring_n', { ns: ns.map(fmt.int).join(', ') });
    try {
      const reply = await actions.sweep({ layer, ns, workers: c.workers }, (p) => { sweepStatus.textContent = text('performance.measuring_phase', { phase: p.phase, done: p.done + 1, total: p.total }); });
      const { points, isa } = reply;
      const measured = reply.layer ?? layer;
      // Each point says how many workers ran it: the pool splits only the lengths where that pays.
      sweepStatus.textContent = text('performance.d_model_n_heads', { d_model: fmt.int(measured.d_model), n_heads: measured.n_heads, part: isa === 'scalar' ? text('performance.baseline') : text('performance.simd') }) +
        points.map((p) => text('performance.point', { n: fmt.int(p.n), time: fmt.duration(p.ms), part: p.workers > 1 ? text('performance.point_workers', { workers: p.workers }) : '' })).join(' · ');
      chartBox.dataset.points = JSON.stringify(points);
      await drawChart(points, measured);
    } catch (err) {
      sweepStatus.textContent = err instanceof Cancelled ? text('performance.cancelled') : text('performance.measurement_failed', { message: err.message });
    } finally {
      button.disabled = false;
      cancel.hidden = true;
    }
  }

  async function drawChart(points, layer) {
    const [{ default: uPlot }] = await Promise.all([host.importVendor('vendor/uplot/uPlot.esm.js'), host.loadStyle('vendor/uplot/uPlot.min.css')]);
    const xs = points.map((p) => p.n);
    const last = points[points.length - 1];
    // Guides through the last point: what time ∝ n and time ∝ n² would look like.
    const linear = xs.map((n) => last.ms * (n / last.n));
    const quadratic = xs.map((n) => last.ms * (n / last.n) ** 2);
    const fg = host.cssVar('--fg'), muted = host.cssVar('--muted'), accent = host.cssVar('--accent'), grid = host.cssVar('--grid');
    const width = chartWidth(chartBox);
    // Log axes: n in powers of two (the measured lengths), time labelled at powers of ten only.
    const opts = {
      width, height: 260,
      ...logLogAxes(xs, { colours: { muted, grid }, x: { label: text('performance.n_tokens'), format: fmt.int },
        y: { label: text('performance.ms_per_forward_pass'), size: 60, format: (v) => fmt.num(v, 3) } }),
      series: [
        { label: 'n' },
        { label: text('performance.measured'), stroke: accent, width: 2, points: { size: 7, fill: accent }, value: (u, v) => (v == null ? '' : fmt.duration(v)) },
        { label: '∝ n', stroke: muted, dash: [4, 4], width: 1, points: { show: false }, value: (u, v) => (v == null ? '' : fmt.duration(v)) },
        { label: '∝ n²', stroke: fg, dash: [8, 4], width: 1, points: { show: false }, value: (u, v) => (v == null ? '' : fmt.duration(v)) },
      ],
      legend: { live: false },
    };
    plot?.destroy();
    chartBox.replaceChildren();
    plot = new uPlot(opts, [xs, points.map((p) => p.ms), linear, quadratic], chartBox);
    chartBox.dataset.dModel = String(layer.d_model);
    chartBox.dataset.nHeads = String(layer.n_heads);
  }

  // This browser's peak, asked by this panel alone (its measure takes ~0.2 s of a core: no other view pays
  // for it), once a result is on screen: undefined until it comes, null where there is no wasm SIMD.
  let peak, peakAsked = false;
  function askPeak() {
    peakAsked = true;
    actions.browserPeak().then((reply) => { peak = reply.peak; }, (err) => {
      // Cancelled or lost with the worker: ask again after the next result. Any other failure: no peak.
      if (err instanceof Cancelled || err instanceof WorkerLost) peakAsked = false;
      else peak = null;
    }).then(() => update(view, 'perf'));
  }

  function update(v, reason) {
    view = v;
    const { runs: history } = v;
    if (!peakAsked && v.result) askPeak();
    // The learner's half-typed count is left alone while the field has the focus.
    if (workersInput.getRootNode().activeElement !== workersInput) {
      workersInput.value = v.state.workers;
      workersInput.placeholder = text('performance.default_workers', { value: parseWorkers('', cores).value });
      // Wide enough for its placeholder: the field's usual 5em would cut "8 (default)" to "8 (defa".
      workersInput.style.width = `${workersInput.placeholder.length + 3}ch`;
    }
    workersLine.textContent = workersText(v.result);
    shareLine.textContent = shareText(v.result);
    shareLine.hidden = shareLine.textContent === '';
    if (v.result?.workers) workersLine.dataset.used = String(Math.max(1, v.result.workers.used));
    if (peak === null) peakLine.textContent = text('performance.this_browser_has_no');
    else if (peak) {
      peakLine.textContent = text('performance.this_browser_s_f32x4', { gflops: fmt.num(peak.gflops, 1) });
      peakLine.dataset.gflops = String(peak.gflops);
    }
    if (reason !== 'result' && reason !== 'perf' && runs.childElementCount) return;
    if (!history.length) {
      fill(runs, h('p', { class: 'placeholder' }, text('performance.no_runs_yet')));
      return;
    }
    fill(runs, h('table', { class: 'cost', id: 'runs-table' },
      h('thead', {}, h('tr', {}, [text('performance.run'), text('performance.time'), text('performance.speed'), text('performance.of_peak'), text('performance.module'),
        text('performance.workers')].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, history.map((r) => h('tr', {},
        h('th', { scope: 'row' }, r.label), h('td', {}, fmt.duration(r.ms)), h('td', {}, fmt.rate(r.gflops)),
        h('td', {}, peak ? fmt.percentOfPeak(r.gflops / peak.gflops) : '—'), h('td', {}, r.isa === 'scalar' ? text('performance.baseline') : text('performance.simd')),
        h('td', { class: 'workers' }, String(Math.max(1, r.workers?.used ?? 0))))))));
  }

  return { update, destroy: () => { stopFollowing(); plot?.destroy(); } };
}

/** What the last run ran on, and why one worker when the setting allows more. */
function workersText(result) {
  const w = result?.workers;
  if (!w) return text('performance.no_run_yet');
  if (w.used > 1) return text('performance.last_run_workers', { used: w.used });
  if (!(w.setting > 1)) return text('performance.last_run_1_worker');
  if (w.splitFlops === null) return text('performance.last_run_1_worker_2');
  if (result.config.dropout > 0) return text('performance.last_run_1_worker_3');
  return text('performance.last_run_1_worker_4', { value: fmt.num(w.splitFlops / 1e6, 0) });
}

/**
 * The pool workers' engine times in the last split pass and how long that pass waited for the
 * slowest beyond their mean (the compute side measures both; empty when no pool ran the pass).
 * The page is not cross-origin isolated, so its clock is coarse: waits under 0.1 ms are not given.
 */
function shareText(result) {
  const w = result?.workers, each = w?.engine_ms;
  if (!(w?.used > 1) || !Array.isArray(each) || each.length !== w.used) return '';
  const times = each.map((ms) => fmt.duration(ms));
  const list = `${times.slice(0, -1).join(', ')} and ${times[times.length - 1]}`;
  const wait = w.wait_ms >= 0.1 ? fmt.duration(w.wait_ms) : text('performance.less_than_0_1');
  return text('performance.last_pass_workers_engines', { list }) +
    text('performance.after_their_average_messages', { wait });
}
