// The sparse-patterns panel (chapter `efficient`): which keys each query sees under full causal
// attention, a sliding window and the strided pattern (Child et al.'s local and strided heads merged),
// drawn from the engine's masks, with the pairs each computes and their FLOPs as the engine counts
// them, here and at a long sequence. The window and stride are the form's (mask=sliding / strided).

import { Heatmap } from '../../render/heatmap.js';
import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/sparse.js';
import { maskArgument } from '../../model/inputs.js';

export { requests } from './requests.js';

const TITLES = {
  full: () => text('sparse.pattern_full'),
  sliding: (r) => text('sparse.pattern_sliding', { window: r.window }),
  strided: (r) => text('sparse.pattern_strided', { stride: r.stride }),
};
const DEFAULT_SPAN = 4; // window and stride shown when the form's mask is neither

export function create(body, { dom, host, actions }) {
  const { h, fill, table } = dom;
  const lead = h('p', { class: 'lead' }, text('sparse.attention_s_cost_grows'),
    text('sparse.sparse_pattern_computes_only'),
    text('sparse.strided_pattern_adds_s'),
    text('sparse.with_about_n_2'), ' ', h('span', { class: 'sparse-legend' }, text('sparse.legend'))); // what the maps' colours mean
  const maps = h('div', { class: 'sparse-maps' });
  // The form's own mask beside the three patterns: the layer's map and what it computes.
  const mineCanvas = h('canvas', { 'aria-label': text('sparse.mine_label') });
  const mineCaption = h('figcaption', { id: 'sparse-mine' });
  const mineMap = new Heatmap(mineCanvas, { maxHeight: 200 });
  const mine = h('figure', { class: 'sparse-map', dataset: { pattern: 'mine' } }, mineCaption, mineCanvas);
  const costs = h('div', { id: 'sparse-costs' });
  const note = h('p', { class: 'note', 'aria-live': 'polite' });
  fill(body, lead, maps, costs, note);
  maps.append(mine);
  const heatmaps = new Map();
  let last = null, lastKey = '', pending = null;

  function draw() {
    if (!last) return;
    drawMine(last.mine);
    for (const p of last.patterns) {
      let entry = heatmaps.get(p.name);
      if (!entry) {
        const canvas = h('canvas', { 'aria-label': text('sparse.mask_queries_down_keys', { name: p.name }) });
        const caption = h('figcaption');
        maps.append(h('figure', { class: 'sparse-map', dataset: { pattern: p.name } }, caption, canvas));
        entry = { canvas, caption, map: new Heatmap(canvas, { maxHeight: 200 }) };
        heatmaps.set(p.name, entry);
      }
      const cells = Float32Array.from(p.grid, (m) => 1 - m);
      entry.map.setData({ rows: last.shown, cols: last.shown, data: cells, masked: p.grid, min: 0, max: 1, rowLabels: null,
        colLabels: null, colors: { text: host.cssVar('--fg') } });
      const title = TITLES[p.name](last);
      fill(entry.caption, h('strong', {}, title), text('sparse.pairs', { fraction: fmt.percent(p.cost.fraction) }));
    }
  }

  /** The form's mask: its map (the shown batch item's) and its pairs, or why they are not counted. */
  function drawMine(m) {
    if (!m) return;
    mineCanvas.hidden = !m.grid;
    if (m.grid) {
      mineMap.setData({ rows: last.shown, cols: last.shown, data: Float32Array.from(m.grid, (x) => 1 - x), masked: m.grid, min: 0, max: 1,
        rowLabels: null, colLabels: null, colors: { text: host.cssVar('--fg') } });
    }
    const name = m.mask === 'sliding' || m.mask === 'strided' ? TITLES[m.mask](m) : m.mask;
    fill(mineCaption, h('strong', {}, text('sparse.mine_title', { name })),
      m.cost ? text('sparse.pairs', { fraction: fmt.percent(m.cost.fraction) })
        : text('sparse.mine_padding', { item: m.item }));
  }

  function show(r) {
    last = r;
    draw();
    const row = (p, c) => ({ attrs: { dataset: { pattern: p.name, pairs: c.visible_pairs } },
      cells: [p.name, fmt.int(c.visible_pairs), fmt.percent(c.fraction), fmt.short(c.score_flops + c.weighted_sum_flops)] });
    fill(costs,
      h('p', {}, text('sparse.this_layer_s_sizes', { n: fmt.int(r.n), part: r.n > r.shown ? text('sparse.maps_first_positions', { shown: r.shown }) : '' }),
        text('sparse.pairs_each_pattern_computes')),
      dom.tableWrap({}, table(['pattern', 'pairs', 'of n²', text('sparse.q_k_v_flops')],
        r.patterns.map((p) => row(p, p.cost)), { class: 'cost sparse-cost' })),
      h('p', {}, text('sparse.n_with_same_window', { long_n: fmt.int(r.long_n) })),
      dom.tableWrap({}, table(['pattern', 'pairs', 'of n²', text('sparse.q_k_v_flops')],
        r.patterns.map((p) => row(p, p.long)), { class: 'cost sparse-cost-long' })));
    fill(note, text('sparse.causal_attention_already_skips', { fraction: fmt.percent(r.patterns[0].cost.fraction) }),
      text('sparse.these_counts_are_what'));
  }

  function update({ check }) {
    const c = check?.config;
    if (!c || !actions?.sparsePatterns) return;
    const window = c.mask === 'sliding' && c.window ? c.window : DEFAULT_SPAN;
    const stride = c.mask === 'strided' && c.stride ? c.stride : DEFAULT_SPAN;
    const form = { mask: c.mask, mask_arg: maskArgument(c), window: c.window, stride: c.stride, item: c.item ?? 0 };
    const args = { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, n: c.n_q, batch: c.batch, window, stride, form };
    const key = JSON.stringify(args);
    if (key === lastKey) return;
    lastKey = key;
    const asked = pending = actions.sparsePatterns(args);
    asked.then((r) => { if (asked === pending) show(r); }, (err) => { if (asked === pending) fill(note, text('sparse.not_computed', { message: err.message })); });
  }

  const offScheme = host.onSchemeChange(draw);
  return { update, destroy: offScheme };
}
