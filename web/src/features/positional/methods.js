// The part of the positions panel about methods that act on the logits rather than the inputs: the
// maps of one head fed the same token at every position with no method, RoPE and ALiBi; ALiBi's
// slopes for the playground's heads; RoPE's logits of one q and k at several positions, equal along
// each offset i − j. The compute worker runs the engine (handler.js); this file only lays out its numbers.

import { Heatmap } from '../../render/heatmap.js';
import * as fmt from '../../model/format.js';

const NAMES = { none: 'no method', rope: 'RoPE', alibi: 'ALiBi' };
const CAPTIONS = {
  none: 'identical tokens, no position: every visible key gets the same weight',
  rope: 'q and k turned by their positions: the weight depends on i − j only',
  alibi: 'a penalty slope × (i − j) on the logits: near keys win',
};

/** A slope as 2^−e when it is one (the paper's are for a power-of-two head count), else as a number. */
function slopeText(m) {
  const e = -Math.log2(m);
  return Number.isInteger(e) ? `2^−${e} = ${fmt.num(m, 4)}` : `${fmt.num(m, 4)} (2^−${fmt.num(e, 3)})`;
}

export function createMethods(dom, host) {
  const { h, fill, table } = dom;
  const maps = {}, heatmaps = {};
  const figures = Object.keys(NAMES).map((name) => {
    const canvas = h('canvas', { 'aria-label': `attention weights of head 1 with ${NAMES[name]}: queries down, keys across` });
    maps[name] = canvas;
    return h('figure', { class: 'pe-method', dataset: { method: name } }, h('figcaption', {}, h('strong', {}, NAMES[name]), ': ', CAPTIONS[name]), canvas);
  });
  const status = h('p', { class: 'note', 'aria-live': 'polite' }, 'Computing with the engine…');
  const slopes = h('div', { id: 'alibi-slopes' });
  const rope = h('div', { id: 'rope-offsets' });
  const element = h('section', { class: 'pe-methods', id: 'pe-methods' },
    h('h3', {}, 'Positions on the logits: RoPE and ALiBi'),
    h('p', { class: 'lead' }, 'RoPE turns each pair (2t, 2t+1) of a head’s q and k by the angle pos·base^(−2t/d_k), so q·k sees only how far apart two tokens are; ',
      'ALiBi adds −m·(i − j) to each head’s scaled logits. Below, a small causal head reads the same token at every position: only position tells the keys apart.'),
    h('div', { class: 'pe-method-maps' }, figures), status,
    // The two tables folded under one heading (a details element), so the chapter fits in two screens.
    h('details', { class: 'fold-details', id: 'pe-tables' }, h('summary', {}, h('h4', {}, 'ALiBi’s slope per head, RoPE’s logit per offset')), slopes, rope));
  for (const name of Object.keys(NAMES)) heatmaps[name] = new Heatmap(maps[name], { maxHeight: 180 });

  let lastKey = '', pending = null, data = null;

  function draw() {
    if (!data) return;
    for (const name of Object.keys(NAMES)) {
      const w = data.maps[name];
      let max = 0;
      for (const x of w) max = Math.max(max, x);
      heatmaps[name].setData({ rows: data.n, cols: data.n, data: Float32Array.from(w), masked: null, min: 0, max: max || 1,
        rowLabels: null, colLabels: null, colors: { text: host.cssVar('--fg') } });
    }
  }

  function show(r, n_heads) {
    data = r;
    draw();
    const row0 = r.maps.rope.slice(r.n * (r.n - 1), r.n * r.n), alibi0 = r.maps.alibi.slice(r.n * (r.n - 1), r.n * r.n);
    fill(status, `Last row (query ${r.n - 1}): without a method every key gets ${fmt.percent(1 / r.n)}; with ALiBi the nearest key gets `,
      `${fmt.percent(alibi0[r.n - 1])} and the first ${fmt.percent(alibi0[0])}; with RoPE the weights run from ${fmt.percent(Math.min(...row0))} `,
      `to ${fmt.percent(Math.max(...row0))}, set by the distance alone. Head 1’s slope here is ${slopeText(r.demo_slopes[0])} (${r.heads} heads).`);
    fill(slopes, h('p', {}, `ALiBi’s slopes for this layer’s ${fmt.int(n_heads)} heads (the paper’s rule: 2^(−8(h+1)/H) for H a power of two; `,
      'otherwise the slopes of the power of two below H, then every other slope of the one above):'),
    h('div', { class: 'table-wrap', tabindex: '0' }, table(['head', 'slope m', 'penalty 10 tokens back'],
      r.slopes.slice(0, 64).map((m, h0) => ({ attrs: { dataset: { head: h0, slope: m } }, cells: [String(h0 + 1), slopeText(m), fmt.num(-10 * m, 3)] })),
      { class: 'cost alibi-slopes' })),
    r.slopes.length > 64 ? h('p', { class: 'note' }, `The first 64 of ${fmt.int(r.slopes.length)} heads.`) : null);
    fill(rope, h('p', {}, `RoPE’s logit q·k/√d_k of one q and one k (d_k = ${r.rope_d_k}), the query at position i and the key at i − offset: `,
      'each row holds one offset, and its numbers agree however far along the sequence the pair sits.'),
    h('div', { class: 'table-wrap', tabindex: '0' }, table(['offset i − j', ...r.rope[0].positions.map((_, k) => `pair ${k + 1}`)],
      r.rope.map((row) => ({ attrs: { dataset: { offset: row.offset } },
        cells: [String(row.offset), ...row.logits.map((x, k) => `i = ${row.positions[k]}: ${fmt.fixed(x, 5)}`)] })),
      { class: 'cost rope-offsets' })));
  }

  function update(actions, config) {
    if (!actions?.positionMethods) return;
    const d_k = config.d_k ?? 8;
    const key = JSON.stringify([config.n_heads, d_k, config.seed]);
    if (key === lastKey) return;
    lastKey = key;
    const asked = pending = actions.positionMethods({ n_heads: config.n_heads, d_k, seed: config.seed });
    asked.then((r) => { if (asked === pending) show(r, config.n_heads); },
      (err) => { if (asked === pending) fill(status, `Not computed: ${err.message}`); });
  }

  const offScheme = host.onSchemeChange(draw);
  return { element, update, destroy: offScheme };
}
