// The "Compare heads" panel: what mha.compareHeads computes in the core for the current layer and
// inputs (asked of the worker after each result): per head the mean entropy, mean distance and largest
// weight, the head-by-head similarity as a heatmap, and the output change when each head is switched off
// (head_mask), heads sorted by it. This file only asks and draws.

import { Heatmap } from '../../render/heatmap.js';
import { configKey } from '../../model/validate.js';
import * as fmt from '../../model/format.js';
import { figureButtons } from '../../export/figure_button.js';
import { heatmapSvg } from '../../export/figure.js';
import { text } from '../../lesson/panels/compare.js';
import { barCell } from '../../render/bar.js';
import { compareHeadsPasses } from '../../engine/call_costs.js';
export { requests } from './requests.js'; // what this panel may ask the compute for (its ctx.actions)

/** Beyond this many heads the table and matrix become unreadable; the panel says so instead. */
const MAX_HEADS = 64;
/** Comparisons estimated longer than this wait for a click. */
const AUTO_SECONDS = 1;

export function create(body, { dom, host, actions }) {
  const { h, fill, table } = dom;
  const status = h('p', { class: 'placeholder', id: 'compare-status' }, text('compare.comparison_appears_after_run'));
  const metrics = h('div', { id: 'compare-metrics' });
  const canvas = h('canvas', { class: 'compare-similarity', 'aria-label': text('compare.head_by_head_similarity') });
  const matrixCaption = h('figcaption');
  const figure = h('figure', { hidden: true }, matrixCaption, canvas,
    figureButtons({ dom, host, id: 'compare-similarity', make: (theme) => {
      if (!shown) return null;
      const H = shown.config.n_heads, labels = Array.from({ length: H }, (_, k) => String(k + 1));
      return heatmapSvg({ title: shown.compare.imported ? text('compare.similarity_heads_imported') : text('compare.similarity_heads'), data: Float32Array.from(shown.compare.similarity),
        rows: H, cols: H, rowLabels: labels, colLabels: labels, scale: 'linear', max: 1, axes: [text('compare.head'), text('compare.head')], theme });
    } }));
  const ablation = h('div', { id: 'compare-ablation' });
  fill(body,
    h('p', { class: 'lead' }, text('compare.how_heads_differ_measured'),
      text('compare.how_alike_two_heads')),
    status, metrics, figure, ablation);
  const map = new Heatmap(canvas, { labels: true, maxHeight: 320 });
  let asked = null; // the result a comparison was asked for
  let shown = null; // { key, compare, n_heads }

  function update({ result, check }) {
    const current = result && check?.config && result.key === configKey(check.config) ? result : null;
    if (!current || current === asked) return;
    asked = current;
    // Figures of an earlier layer or input must not stand beside this result.
    fill(metrics); fill(ablation);
    figure.hidden = true;
    if (current.config.n_heads > MAX_HEADS) {
      status.textContent = text('compare.heads_are_too_many', { n_heads: current.config.n_heads, MAX_HEADS });
      return;
    }
    // The comparison is n_heads + 1 forward passes (the engine's count): a large layer waits for a click, so typing stays quick.
    const passes = compareHeadsPasses(current.config), seconds = (check.estimate?.seconds ?? 0) * passes;
    if (seconds > AUTO_SECONDS) {
      fill(status, h('button', { type: 'button', class: 'linkish', id: 'compare-run', onclick: () => ask(current) },
        text('compare.compare_heads_forward_passes', { value: passes, seconds: fmt.num(seconds, 1) })));
      return;
    }
    ask(current);
  }

  function ask(current) {
    status.textContent = text('compare.comparing_heads');
    actions.compare({ config: current.config }).then(({ compare }) => {
      if (asked !== current) return;
      status.textContent = compare.imported ? text('compare.measured_engine_imported_attention') : '';
      shown = { key: current.key, compare, config: current.config };
      render();
    }, (err) => {
      if (asked === current) status.textContent = text('compare.could_not_compare_heads', { part: err?.message ?? err });
    });
  }

  function render() {
    const { compare, config } = shown;
    const H = config.n_heads;
    const rows = compare.heads.map((m, k) => ({
      attrs: { dataset: { head: k, entropy: m.entropy, distance: m.distance, maxWeight: m.max_weight } },
      cells: [text('compare.head_k', { k: k + 1 }), fmt.fixed(m.entropy, 3), fmt.percent(m.entropy / compare.max_entropy), fmt.fixed(m.distance, 3), fmt.fixed(m.max_weight, 3),
        compare.ablation ? fmt.fixed(compare.ablation.change[k], 4) : '—'],
    }));
    fill(metrics, h('h3', {}, text('compare.each_head')),
      dom.tableWrap({}, table([text('compare.head'), text('compare.mean_entropy_nats'), text('compare.most_ln_n_k'), text('compare.mean_distance'), text('compare.largest_weight'), text('compare.output_change_if_off')], rows, { class: 'cost compare' })),
      h('p', { class: 'note' }, text('compare.entropy_0_one_hot', { max_entropy: fmt.fixed(compare.max_entropy, 3) })));
    figure.hidden = false;
    canvas.dataset.similarity = JSON.stringify(Array.from(compare.similarity));
    matrixCaption.textContent = text('compare.similarity_heads_row_head');
    const labels = Array.from({ length: H }, (_, k) => String(k + 1));
    map.setData({ rows: H, cols: H, data: Float32Array.from(compare.similarity), masked: new Uint8Array(compare.similarity.length), min: 0, max: 1,
      rowLabels: labels, colLabels: labels, colors: { masked: host.cssVar('--masked'), text: host.cssVar('--fg') } });
    if (!compare.ablation) {
      // imported maps alone: switching a head off changes an output, which only the layer computes
      fill(ablation, h('h3', {}, text('compare.switch_one_head_off')), h('p', { class: 'note', id: 'compare-needs-layer' },
        text('compare.switching_head_off_needs')));
      return;
    }
    const order = compare.ablation.order;
    fill(ablation, h('h3', {}, text('compare.switch_one_head_off')),
      h('p', { class: 'note' }, text('compare.head_switched_off_head', { output_norm: fmt.fixed(compare.ablation.output_norm, 4) })),
      // The value beside its bar (render/bar.js), never under it: a bar drawn behind the words crossed them out.
      h('ol', { class: 'ablation', id: 'ablation-order' }, order.map((k) => h('li', { dataset: { head: k, change: compare.ablation.change[k] } },
        h('span', { class: 'ablation-head' }, text('compare.head_k', { k: k + 1 })),
        barCell(h, fmt.percent(compare.ablation.change[k]), compare.ablation.change[k] / (compare.ablation.change[order[0]] || 1))))));
  }

  return { update };
}
