// The √d_k lab with gradients: the core's backward pass measures, at initialisation, how large the
// gradient reaching the scores is with and without the 1/√d_k scale as d_k grows (a uPlot chart and a
// table), and the text is built from those numbers, so it says what they show and nothing else.

import * as fmt from '../../model/format.js';
import { Cancelled, WorkerLost } from '../../model/errors.js';
export { requests } from './requests.js';
import { chartButtons } from '../../export/figure_button.js';
import { followWidth, chartWidth } from '../../render/follow_width.js'; // what this panel may ask the compute for (its ctx.actions)
import { logLogAxes } from '../../render/log_axes.js';

/** The sweep: d_k from 4 to 1,024, 64 keys, 256 query rows per d_k (the engine's defaults). */
const SWEEP = Object.freeze({ d_k_values: [4, 8, 16, 32, 64, 128, 256, 512, 1024], n_k: 64, samples: 256, seed: 1 });

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
/** 0.171 → "0.171"; 8.01e-5 → "8.0×10⁻⁵". */
export function sci(x) {
  if (x >= 0.01 && x < 1000) return fmt.num(x, 3);
  const [mantissa, exponent] = x.toExponential(1).split('e');
  return `${mantissa}×10${String(Number(exponent)).replace(/./g, (c) => SUPERSCRIPT[c])}`;
}
/** An axis tick at a power of ten, in one format for the whole axis: 0.01 → "10⁻²", 1 → "10⁰" (sci would mix "0.01" and "1.0×10⁻³"). */
export function decadeLabel(x) {
  return `10${String(Math.round(Math.log10(x))).replace(/./g, (c) => SUPERSCRIPT[c])}`;
}
const times = (ratio) => (ratio >= 100 ? fmt.int(ratio) : fmt.num(ratio, 1));

/**
 * Sentences that follow the measured numbers g (attn.sqrtDkGradients): how far the typical row's
 * gradient moves without and with the scale, how many rows saturate, and why the mean moves less.
 */
export function gradientStory(g) {
  const first = g.rows[0], last = g.rows[g.rows.length - 1];
  const out = [];
  const u0 = first.unscaled.score_grad_median, u1 = last.unscaled.score_grad_median;
  const fall = u0 / u1;
  const span = `from ${sci(u0)} at d_k = ${fmt.int(first.d_k)} to ${sci(u1)} at d_k = ${fmt.int(last.d_k)}`;
  if (fall >= 100) {
    out.push(`Without the scale, the typical row’s gradient (the median of ‖∂L/∂S‖ over ${fmt.int(g.samples)} rows) falls ${span}: ` +
      `${times(fall)} times smaller, ${Math.floor(Math.log10(fall))} orders of magnitude.`);
  } else if (fall >= 2) {
    out.push(`Without the scale, the typical row’s gradient falls ${span}: ${times(fall)}× smaller.`);
  } else {
    out.push(`Without the scale, the typical row’s gradient goes ${span}: at these sizes it hardly moves.`);
  }
  const scaled = g.rows.map((r) => r.scaled.score_grad_median);
  out.push(`With the scale it stays between ${sci(Math.min(...scaled))} and ${sci(Math.max(...scaled))} ` +
    `(${g.scaled_spread < 1.5 ? 'level: ' : ''}a spread of ${fmt.num(g.scaled_spread, 2)}×), because the scores keep unit variance at every d_k.`);
  const satScaled = Math.max(...g.rows.map((r) => r.scaled.saturated_share));
  out.push(`Without it, ${fmt.percent(last.unscaled.saturated_share)} of the rows at d_k = ${fmt.int(last.d_k)} are nearly one-hot ` +
    `(largest weight above 0.99; ${fmt.percent(first.unscaled.saturated_share)} at d_k = ${fmt.int(first.d_k)}) and the entropy falls from ` +
    `${fmt.num(first.unscaled.entropy, 2)} to ${fmt.num(last.unscaled.entropy, 2)} nats; with it, ` +
    `${satScaled === 0 ? 'no row saturates' : `at most ${fmt.percent(satScaled)} of rows saturate`} and the entropy stays near ` +
    `${fmt.num(last.scaled.entropy, 2)} (uniform: ln ${fmt.int(g.n_k)} = ${fmt.num(g.max_entropy, 2)}).`);
  const meanFall = first.unscaled.score_grad_mean / last.unscaled.score_grad_mean;
  if (fall >= 10 && meanFall < fall / 10) {
    out.push(`The mean over rows falls far less (${times(meanFall)}×): the rows not yet saturated keep sizeable gradients, ` +
      'so a few rows still learn while the typical row has all but stopped.');
  }
  return out;
}

export function create(body, { dom, host, actions }) {
  const { h, fill } = dom;
  const status = h('p', { class: 'placeholder', id: 'grad-status' }, 'Waiting for the engine…');
  const chartBox = h('div', { class: 'chart', id: 'grad-chart' });
  const story = h('div', { id: 'grad-story' });
  const tableBox = h('div', { class: 'table-wrap', tabindex: '0' });
  fill(body,
    h('p', { class: 'lead' }, `The backward pass at initialisation: q, k and v with independent N(0, 1) components, ${SWEEP.n_k} keys, `,
      'and a loss that is a random linear read-out of the output (scaled so that ∂L/∂A has unit-variance entries at every d_v = d_k). ',
      'S is the softmax’s input (the scores); ‖∂L/∂S‖ is what the softmax lets through to the queries and keys.'),
    status, chartBox,
    chartButtons({ dom, host, id: 'grad-figure', title: 'Gradient reaching the scores against d_k, with and without 1/√d_k', plot: () => plot }),
    story, tableBox);
  let plot = null, asked = false;
  // The chart follows its box's width (a resize, a rotated phone, a host page's column).
  const stopFollowing = followWidth(chartBox, () => plot?.setSize({ width: chartWidth(chartBox), height: 260 }));

  async function measure() {
    asked = true;
    status.textContent = `Measuring d_k = ${SWEEP.d_k_values.map(fmt.int).join(', ')} with and without the scale…`;
    try {
      const { gradients: g } = await actions.gradients(SWEEP);
      status.hidden = true;
      chartBox.dataset.rows = JSON.stringify(g.rows);
      fill(story, gradientStory(g).map((text) => h('p', {}, text)));
      fill(tableBox, dom.table(['d_k', 'median ‖∂L/∂S‖, scaled', 'unscaled', 'rows near one-hot, unscaled', 'entropy, unscaled (nats)'],
        g.rows.map((r) => [fmt.int(r.d_k), sci(r.scaled.score_grad_median), sci(r.unscaled.score_grad_median),
          fmt.percent(r.unscaled.saturated_share), fmt.num(r.unscaled.entropy, 2)]), { class: 'cost', id: 'grad-table' }));
      await draw(g);
    } catch (err) {
      asked = !(err instanceof Cancelled || err instanceof WorkerLost); // ask again after a restart
      status.hidden = false;
      status.textContent = `The measurement did not finish: ${err.message}.`;
    }
  }

  async function draw(g) {
    const [{ default: uPlot }] = await Promise.all([host.importVendor('vendor/uplot/uPlot.esm.js'), host.loadStyle('vendor/uplot/uPlot.min.css')]);
    const xs = g.rows.map((r) => r.d_k);
    const muted = host.cssVar('--muted'), accent = host.cssVar('--accent'), warn = host.cssVar('--warn'), grid = host.cssVar('--grid');
    const line = (label, stroke, dash) => ({ label, stroke, width: dash ? 1 : 2, dash, points: { show: !dash, size: 6, fill: stroke },
      value: (u, v) => (v == null ? '' : sci(v)) });
    const opts = {
      width: chartWidth(chartBox), height: 260,
      ...logLogAxes(xs, { colours: { muted, grid }, x: { label: 'd_k', format: fmt.int },
        y: { label: '‖∂L/∂S‖ per row', size: 76, format: decadeLabel } }),
      series: [{ label: 'd_k' }, line('scaled, median', accent), line('unscaled, median', warn),
        line('scaled, mean', accent, [4, 4]), line('unscaled, mean', warn, [4, 4])],
      legend: { live: false },
    };
    plot?.destroy();
    chartBox.replaceChildren();
    plot = new uPlot(opts, [xs, ...['scaled', 'unscaled'].map((s) => g.rows.map((r) => r[s].score_grad_median)),
      ...['scaled', 'unscaled'].map((s) => g.rows.map((r) => r[s].score_grad_mean))], chartBox);
  }

  function update({ engine }) {
    if (engine && !asked) measure();
  }

  return { update, destroy: () => { stopFollowing(); plot?.destroy(); } };
}
