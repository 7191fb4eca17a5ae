// The "Compare heads" panel: what mha.compareHeads computes in the core for the current layer and
// inputs (asked of the worker after each result): per head the mean entropy, mean distance and largest
// weight, the head-by-head similarity as a heatmap, and the output change when each head is switched off
// (head_mask), heads sorted by it. This file only asks and draws.

import { Heatmap } from '../../render/heatmap.js';
import { configKey } from '../../model/validate.js';
import * as fmt from '../../model/format.js';
import { figureButtons } from '../../export/figure_button.js';
import { heatmapSvg } from '../../export/figure.js';
export { requests } from './requests.js'; // what this panel may ask the compute for (its ctx.actions)

/** Beyond this many heads the table and matrix become unreadable; the panel says so instead. */
const MAX_HEADS = 64;
/** Comparisons estimated longer than this wait for a click. */
const AUTO_SECONDS = 1;

export function create(body, { dom, host, actions }) {
  const { h, fill, table } = dom;
  const status = h('p', { class: 'placeholder', id: 'compare-status' }, 'The comparison appears after a run.');
  const metrics = h('div', { id: 'compare-metrics' });
  const canvas = h('canvas', { class: 'compare-similarity', 'aria-label': 'head-by-head similarity' });
  const matrixCaption = h('figcaption');
  const figure = h('figure', { hidden: true }, matrixCaption, canvas,
    figureButtons({ dom, host, id: 'compare-similarity', make: (theme) => {
      if (!shown) return null;
      const H = shown.config.n_heads, labels = Array.from({ length: H }, (_, k) => String(k + 1));
      return heatmapSvg({ title: `Similarity of heads${shown.compare.imported ? ' (imported maps)' : ''}`, data: Float32Array.from(shown.compare.similarity),
        rows: H, cols: H, rowLabels: labels, colLabels: labels, scale: 'linear', max: 1, axes: ['head', 'head'], theme });
    } }));
  const ablation = h('div', { id: 'compare-ablation' });
  fill(body,
    h('p', { class: 'lead' }, 'How the heads differ, measured by the engine on these inputs: how spread each head’s rows are (entropy), how far it looks (mean |i − j| weighted by the weights), ',
      'how alike two heads’ maps are (1 − Jensen–Shannon divergence / ln 2: 1 = the same rows), and how much the output moves when one head is switched off.'),
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
      status.textContent = `${current.config.n_heads} heads are too many to compare readably here (at most ${MAX_HEADS}).`;
      return;
    }
    // The comparison is n_heads + 1 forward passes: a large layer waits for a click, so typing stays quick.
    const seconds = (check.estimate?.seconds ?? 0) * (current.config.n_heads + 1);
    if (seconds > AUTO_SECONDS) {
      fill(status, h('button', { type: 'button', class: 'linkish', id: 'compare-run', onclick: () => ask(current) },
        `Compare the heads (${current.config.n_heads + 1} forward passes, about ${fmt.num(seconds, 1)} s)`));
      return;
    }
    ask(current);
  }

  function ask(current) {
    status.textContent = 'Comparing the heads…';
    actions.compare({ config: current.config }).then(({ compare }) => {
      if (asked !== current) return;
      status.textContent = compare.imported ? 'Measured by the engine on the imported attention maps (not on a layer: the import has none).' : '';
      shown = { key: current.key, compare, config: current.config };
      render();
    }, (err) => {
      if (asked === current) status.textContent = `Could not compare the heads: ${err?.message ?? err}`;
    });
  }

  function render() {
    const { compare, config } = shown;
    const H = config.n_heads;
    const rows = compare.heads.map((m, k) => ({
      attrs: { dataset: { head: k, entropy: m.entropy, distance: m.distance, maxWeight: m.max_weight } },
      cells: [`head ${k + 1}`, fmt.fixed(m.entropy, 3), fmt.percent(m.entropy / compare.max_entropy), fmt.fixed(m.distance, 3), fmt.fixed(m.max_weight, 3),
        compare.ablation ? fmt.fixed(compare.ablation.change[k], 4) : '—'],
    }));
    fill(metrics, h('h3', {}, 'Each head'),
      h('div', { class: 'table-wrap', tabindex: '0' }, table(['head', 'mean entropy (nats)', 'of the most (ln n_k)', 'mean distance', 'largest weight', 'output change if off'], rows, { class: 'cost compare' })),
      h('p', { class: 'note' }, `Entropy 0 is a one-hot row; ${fmt.fixed(compare.max_entropy, 3)} nats (ln n_k) is a uniform one.`));
    figure.hidden = false;
    canvas.dataset.similarity = JSON.stringify(Array.from(compare.similarity));
    matrixCaption.textContent = 'Similarity of heads (row head against column head): 1 = the same maps, 0 = no overlap at all';
    const labels = Array.from({ length: H }, (_, k) => String(k + 1));
    map.setData({ rows: H, cols: H, data: Float32Array.from(compare.similarity), masked: new Uint8Array(H * H), min: 0, max: 1,
      rowLabels: labels, colLabels: labels, colors: { masked: host.cssVar('--masked'), text: host.cssVar('--fg') } });
    if (!compare.ablation) {
      // imported maps alone: switching a head off changes an output, which only the layer computes
      fill(ablation, h('h3', {}, 'Switch one head off'), h('p', { class: 'note', id: 'compare-needs-layer' },
        'Switching a head off needs the layer (its values and Wᴼ), which imported attention maps do not carry: import the inputs and parameters to see it.'));
      return;
    }
    const order = compare.ablation.order;
    fill(ablation, h('h3', {}, 'Switch one head off'),
      h('p', { class: 'note' }, `A head switched off (its head_mask entry 0) adds nothing before Wᴼ. The output changes by ‖y − y_without‖ / ‖y‖, largest first (‖y‖ = ${fmt.fixed(compare.ablation.output_norm, 4)}):`),
      h('ol', { class: 'ablation', id: 'ablation-order' }, order.map((k) => h('li', { dataset: { head: k, change: compare.ablation.change[k] } },
        h('span', { class: 'bar', style: { '--w': `${(100 * compare.ablation.change[k] / (compare.ablation.change[order[0]] || 1)).toFixed(1)}%` } },
          `head ${k + 1}: ${fmt.percent(compare.ablation.change[k])}`)))));
  }

  return { update };
}
