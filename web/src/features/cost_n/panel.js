// The cost chapter's n control: a what-if sequence length from 8 to 8192 tokens (lengths.js) for the
// current layer, the core's verdict on which of the lesson's terms dominates there (n·d² or n²·d,
// flipping at n = d), and a log-log plot of both terms against n with the chosen n marked. Every count
// is the core's (attn.analyze at each n); the run keeps its own sentence.

import * as fmt from '../../model/format.js';
import { followWidth, chartWidth } from '../../render/follow_width.js';
import { logLogAxes } from '../../render/log_axes.js';
import { lessonTerms, formula } from '../cost/terms.js';
import { N_STEPS, nearestStep } from './lengths.js';
import { text } from '../../lesson/panels/cost_n.js';

const CHART_HEIGHT = 240;

export function create(body, { dom, host }) {
  const { h, fill, math } = dom;
  const slider = h('input', { type: 'range', id: 'cost-n', min: '0', max: String(N_STEPS.length - 1), step: '1', value: '0' });
  const shown = h('output', { for: 'cost-n', id: 'cost-n-value', class: 'cost-n-value' });
  const verdict = h('p', { class: 'verdict', id: 'n-verdict', 'aria-live': 'polite' });
  const terms = h('ul', { class: 'cost-n-terms', id: 'n-terms' });
  const chartBox = h('div', { class: 'chart', id: 'n-chart' });
  const caption = h('p', { class: 'note', id: 'n-chart-note' });
  fill(body,
    h('div', { class: 'cost-n-control' }, h('label', { for: 'cost-n' }, text('cost_n.label')), slider, shown),
    verdict, terms, chartBox, caption);
  let view = null, layerKey = '', curve = null, plot = null, moved = false, uPlot = null;
  const stopFollowing = followWidth(chartBox, () => plot?.setSize({ width: chartWidth(chartBox), height: CHART_HEIGHT }));
  slider.addEventListener('input', () => { moved = true; render(); });

  /** The layer the counts are for: the run's sizes, at any n (self-attention, one batch item). */
  const layerOf = (c) => ({ d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, bias: c.bias, n_kv_heads: c.n_kv_heads });

  function update(v) {
    view = v;
    const c = v.check?.config, engine = v.engine;
    if (!c || !engine) {
      if (!curve) fill(verdict, text('cost_n.waiting'));
      return;
    }
    const layer = layerOf(c);
    const key = JSON.stringify(layer);
    if (key === layerKey) return;
    layerKey = key;
    // Until the learner moves it, the control starts at the run's own length.
    if (!moved) slider.value = String(nearestStep(c.n_q));
    curve = N_STEPS.map((n) => {
      try {
        const f = engine.analyze({ ...layer, n }).flops;
        return { n, projections: f.lesson.projections, attention: f.lesson.scores };
      } catch { return { n, projections: null, attention: null }; } // a length the core cannot count exactly
    });
    render();
  }

  function render() {
    const c = view?.check?.config, engine = view?.engine;
    if (!c || !engine) return;
    const n = N_STEPS[Number(slider.value)];
    shown.textContent = `n = ${fmt.int(n)}`;
    slider.setAttribute('aria-valuetext', `n = ${fmt.int(n)}`);
    let a;
    try {
      a = engine.analyze({ ...layerOf(c), n });
    } catch (err) {
      fill(verdict, err.message);
      fill(terms);
      return;
    }
    const f = a.flops, d = a.dims;
    const dominant = f.lesson.projections === f.lesson.scores ? 'equal' : f.projections_dominate_lesson ? 'projections' : 'attention';
    Object.assign(verdict.dataset, { n: String(n), d: String(a.derived.qk_width), dominant });
    fill(verdict, math(text('cost_n.verdict', { reason: f.dominant_reason })), dominant === 'equal' ? text('cost_n.lines_cross') : null);
    const t = lessonTerms(d, a.derived);
    fill(terms,
      h('li', { dataset: { nTerm: 'projections', value: f.lesson.projections } }, math(text('cost_n.projections', { formula: formula(t.projections), value: fmt.short(f.lesson.projections) }))),
      h('li', { dataset: { nTerm: 'attention', value: f.lesson.scores } }, math(text('cost_n.attention', { formula: formula(t.scores), value: fmt.short(f.lesson.scores) }))));
    caption.textContent = text('cost_n.chart_note', { d: fmt.int(a.derived.qk_width) });
    draw(n);
  }

  async function draw(n) {
    if (!uPlot) {
      const [{ default: loaded }] = await Promise.all([host.importVendor('vendor/uplot/uPlot.esm.js'), host.loadStyle('vendor/uplot/uPlot.min.css')]);
      uPlot = loaded;
    }
    const points = curve.filter((p) => p.projections !== null);
    if (!points.length) return;
    const xs = points.map((p) => p.n);
    const mark = (key) => points.map((p) => (p.n === n ? p[key] : null));
    const data = [xs, points.map((p) => p.projections), points.map((p) => p.attention), mark('projections'), mark('attention')];
    if (plot && plot.key === layerKey) {
      plot.setData(data, false);
      chartBox.dataset.n = String(n);
      return;
    }
    const fg = host.cssVar('--fg'), muted = host.cssVar('--muted'), accent = host.cssVar('--accent'), grid = host.cssVar('--grid');
    const octaves = xs.filter((x) => Math.log2(x) % 2 === 1 || x === xs[0] || x === xs[xs.length - 1]); // 8, 32, 128, … 8192
    const axes = logLogAxes(octaves, { colours: { muted, grid }, x: { label: text('cost_n.axis_n'), format: fmt.int },
      y: { label: text('cost_n.axis_ops'), size: 56, format: fmt.short } });
    const value = (u, v) => (v == null ? '' : fmt.short(v));
    plot?.destroy();
    chartBox.replaceChildren();
    plot = new uPlot({
      width: chartWidth(chartBox), height: CHART_HEIGHT, ...axes,
      scales: { ...axes.scales, x: { ...axes.scales.x, range: [xs[0] / 1.2, xs[xs.length - 1] * 1.2] } },
      series: [
        { label: 'n' },
        { label: text('cost_n.series_projections'), stroke: accent, width: 2, points: { show: false }, value },
        { label: text('cost_n.series_attention'), stroke: fg, width: 2, dash: [8, 4], points: { show: false }, value },
        { label: text('cost_n.series_here_projections'), stroke: accent, width: 0, points: { size: 10, fill: accent }, value },
        { label: text('cost_n.series_here_attention'), stroke: fg, width: 0, points: { size: 10, fill: fg }, value },
      ],
      legend: { live: false },
    }, data, chartBox);
    plot.key = layerKey;
    chartBox.dataset.n = String(n);
  }

  return { update, destroy: () => { stopFollowing(); plot?.destroy(); } };
}
