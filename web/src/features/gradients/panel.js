// The √d_k lab with gradients: the core's backward pass measures, at initialisation, how large the
// gradient reaching the scores is with and without the 1/√d_k scale as d_k grows (a uPlot chart and a
// table), and the text is built from those numbers, so it says what they show and nothing else.

import * as fmt from '../../model/format.js';
import { Cancelled, WorkerLost } from '../../model/errors.js';
export { requests } from './requests.js';
import { chartButtons } from '../../export/figure_button.js';
import { followWidth, chartWidth } from '../../render/follow_width.js'; // what this panel may ask the compute for (its ctx.actions)
import { logLogAxes } from '../../render/log_axes.js';
import { text } from '../../lesson/panels/gradients.js';
import { stillAsked } from '../../lesson/covered.js';
import { stepFold } from '../../ui/fold_in_step.js';

/** The exercise this figure answers (what happens to the gradient without the scale): covered until it is done. */
const ASKED = 'scaling.gradient';

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
  const span = text('gradients.from_d_k_d', { u0: sci(u0), d_k: fmt.int(first.d_k), u1: sci(u1), d_k2: fmt.int(last.d_k) });
  if (fall >= 100) {
    out.push(text('gradients.without_scale_typical_row', { samples: fmt.int(g.samples), span }) +
      text('gradients.times_smaller_orders_magnitude', { fall: times(fall), fall2: Math.floor(Math.log10(fall)) }));
  } else if (fall >= 2) {
    out.push(text('gradients.without_scale_typical_row_2', { span, fall: times(fall) }));
  } else {
    out.push(text('gradients.without_scale_typical_row_3', { span }));
  }
  const scaled = g.rows.map((r) => r.scaled.score_grad_median);
  out.push(text('gradients.with_scale_stays_between', { value: sci(Math.min(...scaled)), value2: sci(Math.max(...scaled)) }) +
    text('gradients.spread_because_scores_keep', { part: g.scaled_spread < 1.5 ? 'level: ' : '', scaled_spread: fmt.num(g.scaled_spread, 2) }));
  const satScaled = Math.max(...g.rows.map((r) => r.scaled.saturated_share));
  out.push(text('gradients.without_rows_d_k', { saturated_share: fmt.percent(last.unscaled.saturated_share), d_k: fmt.int(last.d_k) }) +
    text('gradients.largest_weight_above_0', { saturated_share: fmt.percent(first.unscaled.saturated_share), d_k: fmt.int(first.d_k) }) +
    text('gradients.nats_with', { entropy: fmt.num(first.unscaled.entropy, 2), entropy2: fmt.num(last.unscaled.entropy, 2) }) +
    text('gradients.entropy_stays_near', { part: satScaled === 0 ? text('gradients.no_row_saturates') : text('gradients.most_rows_saturate', { satScaled: fmt.percent(satScaled) }) }) +
    text('gradients.entropy_uniform', { entropy: fmt.num(last.scaled.entropy, 2), n_k: fmt.int(g.n_k), max_entropy: fmt.num(g.max_entropy, 2) }));
  const meanFall = first.unscaled.score_grad_mean / last.unscaled.score_grad_mean;
  if (fall >= 10 && meanFall < fall / 10) {
    out.push(text('gradients.mean_over_rows_falls', { meanFall: times(meanFall) }) +
      text('gradients.few_rows_still_learn'));
  }
  return out;
}

export function create(body, { dom, host, actions }) {
  const { h, fill } = dom;
  const status = h('p', { class: 'placeholder', id: 'grad-status' }, text('gradients.waiting_engine'));
  const cover = h('p', { class: 'note', id: 'grad-cover', hidden: true }, text('gradients.after_you_answer'));
  const chartBox = h('div', { class: 'chart', id: 'grad-chart' });
  const story = h('div', { id: 'grad-story' });
  const tableBox = dom.tableWrap({ label: text('gradients.table_label') });
  // In a lesson's step the numbers behind the plot are folded (one step, one screen); the dashboard shows them.
  const numbers = stepFold(dom, body, { name: 'grad-numbers', summary: text('gradients.numbers_fold') }, tableBox);
  // The plot and the sentences about it: side by side on a wide panel (style.css), covered while asked.
  const figure = h('div', { class: 'grad-figure' },
    h('div', { class: 'grad-plot' }, chartBox,
      chartButtons({ dom, host, id: 'grad-figure', title: text('gradients.gradient_reaching_scores_against'), plot: () => plot })),
    story);
  fill(body,
    h('p', { class: 'lead' }, text('gradients.backward_pass_initialisation_q', { n_k: SWEEP.n_k }),
      text('gradients.loss_that_random_linear'),
      text('gradients.s_softmax_s_input')),
    status, cover, figure, numbers.element);
  let plot = null, asked = false;
  // The chart follows its box's width (a resize, a rotated phone, a host page's column).
  const stopFollowing = followWidth(chartBox, () => plot?.setSize({ width: chartWidth(chartBox), height: 260 }));

  async function measure() {
    asked = true;
    status.textContent = text('gradients.measuring_d_k_with', { value: SWEEP.d_k_values.map(fmt.int).join(', ') });
    try {
      const { gradients: g } = await actions.gradients(SWEEP);
      status.hidden = true;
      chartBox.dataset.rows = JSON.stringify(g.rows);
      fill(story, gradientStory(g).map((line) => h('p', {}, line)));
      fill(tableBox, dom.table(['d_k', text('gradients.median_l_s_scaled'), 'unscaled', text('gradients.rows_near_one_hot'), text('gradients.entropy_unscaled_nats')],
        g.rows.map((r) => [fmt.int(r.d_k), sci(r.scaled.score_grad_median), sci(r.unscaled.score_grad_median),
          fmt.percent(r.unscaled.saturated_share), fmt.num(r.unscaled.entropy, 2)]), { class: 'cost', id: 'grad-table' }));
      await draw(g);
    } catch (err) {
      asked = !(err instanceof Cancelled || err instanceof WorkerLost); // ask again after a restart
      status.hidden = false;
      status.textContent = text('gradients.measurement_did_not_finish', { message: err.message });
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
        y: { label: text('gradients.l_s_per_row'), size: 76, format: decadeLabel } }),
      series: [{ label: 'd_k' }, line(text('gradients.scaled_median'), accent), line(text('gradients.unscaled_median'), warn),
        line(text('gradients.scaled_mean'), accent, [4, 4]), line(text('gradients.unscaled_mean'), warn, [4, 4])],
      legend: { live: false },
    };
    plot?.destroy();
    chartBox.replaceChildren();
    plot = new uPlot(opts, [xs, ...['scaled', 'unscaled'].map((s) => g.rows.map((r) => r[s].score_grad_median)),
      ...['scaled', 'unscaled'].map((s) => g.rows.map((r) => r[s].score_grad_mean))], chartBox);
  }

  function update(view) {
    numbers.sync();
    // The plot answers "what happens to the gradient without the scale": shown once that question is done.
    const covered = stillAsked(view, ASKED);
    figure.hidden = numbers.element.hidden = covered;
    cover.hidden = !covered;
    if (view.engine && !asked) measure();
  }

  return { update, destroy: () => { stopFollowing(); numbers.destroy(); plot?.destroy(); } };
}
