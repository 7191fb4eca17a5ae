// The sparse-patterns panel (chapter `efficient`): which keys each query sees under full causal
// attention, a sliding window and the strided pattern (Child et al.'s local and strided heads merged),
// drawn from the engine's masks, with the pairs each computes and their FLOPs as the engine counts
// them, here and at a long sequence. The window and stride are the form's (mask=sliding / strided).

import { Heatmap } from '../../render/heatmap.js';
import * as fmt from '../../model/format.js';

export { requests } from './requests.js';

const TITLES = {
  full: 'full (causal)',
  sliding: (r) => `sliding window ${r.window}`,
  strided: (r) => `strided, stride ${r.stride}`,
};
const DEFAULT_SPAN = 4; // window and stride shown when the form's mask is neither

export function create(body, { dom, host, actions }) {
  const { h, fill, table } = dom;
  const lead = h('p', { class: 'lead' }, 'Attention’s cost grows with the number of (query, key) pairs computed: n² for full attention. ',
    'A sparse pattern computes only some of them. A sliding window keeps the last w keys of each query (n·w pairs); ',
    'the strided pattern adds to the s − 1 nearest keys every s-th key before them, so any key is reached in two steps of attention ',
    'with about n·2√n pairs when s ≈ √n.');
  const maps = h('div', { class: 'sparse-maps' });
  const costs = h('div', { id: 'sparse-costs' });
  const note = h('p', { class: 'note', 'aria-live': 'polite' });
  fill(body, lead, maps, costs, note);
  const heatmaps = new Map();
  let last = null, lastKey = '', pending = null;

  function draw() {
    if (!last) return;
    for (const p of last.patterns) {
      let entry = heatmaps.get(p.name);
      if (!entry) {
        const canvas = h('canvas', { 'aria-label': `${p.name} mask: queries down, keys across; dark cells are computed` });
        const caption = h('figcaption');
        maps.append(h('figure', { class: 'sparse-map', dataset: { pattern: p.name } }, caption, canvas));
        entry = { canvas, caption, map: new Heatmap(canvas, { maxHeight: 200 }) };
        heatmaps.set(p.name, entry);
      }
      const cells = Float32Array.from(p.grid, (m) => 1 - m);
      entry.map.setData({ rows: last.shown, cols: last.shown, data: cells, masked: p.grid, min: 0, max: 1, rowLabels: null,
        colLabels: null, colors: { text: host.cssVar('--fg') } });
      const title = typeof TITLES[p.name] === 'function' ? TITLES[p.name](last) : TITLES[p.name];
      fill(entry.caption, h('strong', {}, title), `: ${fmt.percent(p.cost.fraction)} of the pairs`);
    }
  }

  function show(r) {
    last = r;
    draw();
    const row = (p, c) => ({ attrs: { dataset: { pattern: p.name, pairs: c.visible_pairs } },
      cells: [p.name, fmt.int(c.visible_pairs), fmt.percent(c.fraction), fmt.short(c.score_flops + c.weighted_sum_flops)] });
    fill(costs,
      h('p', {}, `At this layer’s sizes (n = ${fmt.int(r.n)}${r.n > r.shown ? `, maps of the first ${r.shown} positions` : ''}), `,
        'the pairs each pattern computes per head and batch item, and the FLOPs of Q·Kᵀ and weights·V over them, as the engine counts them:'),
      h('div', { class: 'table-wrap', tabindex: '0' }, table(['pattern', 'pairs', 'of n²', 'Q·Kᵀ + A·V FLOPs'],
        r.patterns.map((p) => row(p, p.cost)), { class: 'cost sparse-cost' })),
      h('p', {}, `At n = ${fmt.int(r.long_n)} with the same window and stride (one batch item):`),
      h('div', { class: 'table-wrap', tabindex: '0' }, table(['pattern', 'pairs', 'of n²', 'Q·Kᵀ + A·V FLOPs'],
        r.patterns.map((p) => row(p, p.long)), { class: 'cost sparse-cost-long' })));
    fill(note, `Causal attention already skips the keys ahead: it computes ${fmt.percent(r.patterns[0].cost.fraction)} of the n² pairs. `,
      'These counts are what a sparse kernel does; the engine’s dense kernels still form every logit and set the hidden ones to −∞, with the same result.');
  }

  function update({ check }) {
    const c = check?.config;
    if (!c || !actions?.sparsePatterns) return;
    const window = c.mask === 'sliding' && c.window ? c.window : DEFAULT_SPAN;
    const stride = c.mask === 'strided' && c.stride ? c.stride : DEFAULT_SPAN;
    const args = { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, n: c.n_q, batch: c.batch, window, stride };
    const key = JSON.stringify(args);
    if (key === lastKey) return;
    lastKey = key;
    const asked = pending = actions.sparsePatterns(args);
    asked.then((r) => { if (asked === pending) show(r); }, (err) => { if (asked === pending) fill(note, `Not computed: ${err.message}`); });
  }

  const offScheme = host.onSchemeChange(draw);
  return { update, destroy: offScheme };
}
