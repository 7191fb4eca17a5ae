// The part of the positions panel about methods that act on the logits rather than the inputs: the
// maps of one head fed the same token at every position with no method, RoPE and ALiBi; ALiBi's
// slopes for the playground's heads; RoPE's logits of one q and k at several positions, equal along
// each offset i − j. The compute worker runs the engine (handler.js); this file only lays out its numbers.

import { Heatmap } from '../../render/heatmap.js';
import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/positional.js';
import { textsOf } from '../../lesson/text.js';

const NAMES = textsOf({ none: 'positional.name_none', rope: 'positional.name_rope', alibi: 'positional.name_alibi' }); // looked up when shown
const CAPTIONS = textsOf({ // looked up when shown (an author's words registered later still show)
  none: 'positional.identical_tokens_no_position',
  rope: 'positional.q_k_turned_their',
  alibi: 'positional.penalty_slope_i_j',
});

/** A slope as 2^−e when it is one (the paper's are for a power-of-two head count), else as a number. */
function slopeText(m) {
  const e = -Math.log2(m);
  return Number.isInteger(e) ? `2^−${e} = ${fmt.num(m, 4)}` : `${fmt.num(m, 4)} (2^−${fmt.num(e, 3)})`;
}

export function createMethods(dom, host) {
  const { h, fill, table } = dom;
  const maps = {}, heatmaps = {};
  const figures = Object.keys(NAMES).map((name) => {
    const canvas = h('canvas', { 'aria-label': text('positional.attention_weights_head_1', { value: NAMES[name] }) });
    maps[name] = canvas;
    return h('figure', { class: 'pe-method', dataset: { method: name } }, h('figcaption', {}, h('strong', {}, NAMES[name]), ': ', CAPTIONS[name]), canvas);
  });
  // The method the inputs choose (`positional`), drawn large with its last row in words: the map the control changes.
  const chosenCanvas = h('canvas', { id: 'pe-chosen-map' });
  const chosenCaption = h('figcaption', { id: 'pe-chosen-caption' });
  const chosenRow = h('p', { class: 'note', id: 'pe-chosen-row', 'aria-live': 'polite' });
  const chosenSlopes = h('p', { class: 'note', id: 'pe-chosen-slopes' });
  const chosen = h('figure', { class: 'pe-chosen', id: 'pe-chosen' }, chosenCaption, chosenCanvas, chosenRow, chosenSlopes);
  const status = h('p', { class: 'note', 'aria-live': 'polite' }, text('positional.computing_with_engine'));
  const slopes = h('div', { id: 'alibi-slopes' });
  const rope = h('div', { id: 'rope-offsets' });
  const element = h('section', { class: 'pe-methods', id: 'pe-methods' },
    h('h3', {}, text('positional.positions_logits_rope_alibi')),
    h('p', { class: 'lead' }, text('positional.rope_turns_each_pair'),
      text('positional.alibi_adds_m_i')),
    chosen,
    // The three side by side, folded: the large map above already follows the inputs' choice.
    h('details', { class: 'fold-details', id: 'pe-all-three' }, h('summary', {}, h('h4', {}, text('positional.all_three_side_by_side'))),
      h('div', { class: 'pe-method-maps' }, figures), status),
    // The two tables folded under one heading (a details element), so the chapter fits in two screens.
    h('details', { class: 'fold-details', id: 'pe-tables' }, h('summary', {}, h('h4', {}, text('positional.alibi_s_slope_per'))), slopes, rope));
  for (const name of Object.keys(NAMES)) heatmaps[name] = new Heatmap(maps[name], { maxHeight: 180 });
  const chosenMap = new Heatmap(chosenCanvas, { maxHeight: 200 });

  let lastKey = '', pending = null, data = null, method = 'none';

  /** The chosen method's map, caption and last row (the words follow the engine's weights). */
  function drawChosen() {
    if (!data) return;
    const w = data.maps[method], n = data.n;
    const last = Array.from(w.slice(n * (n - 1), n * n));
    chosenMap.setData({ rows: n, cols: n, data: Float32Array.from(w), masked: null, min: 0, max: Math.max(...w) || 1,
      rowLabels: null, colLabels: null, colors: { text: host.cssVar('--fg') } });
    chosen.dataset.method = method;
    chosenCanvas.setAttribute('aria-label', text('positional.attention_weights_head_1', { value: NAMES[method] }));
    fill(chosenCaption, h('strong', {}, text('positional.chosen_title', { value: NAMES[method] })), ' ', CAPTIONS[method]);
    fill(chosenRow, text(`positional.chosen_row_${method}`, { query: n - 1, own: fmt.percent(last[n - 1]), first: fmt.percent(last[0]),
      low: fmt.percent(Math.min(...last)), high: fmt.percent(Math.max(...last)) }));
    const s = data.slopes;
    fill(chosenSlopes, text('positional.chosen_slopes', { heads: data.heads, n_heads: fmt.int(s.length), first: slopeText(s[0]), last: slopeText(s[s.length - 1]) }));
  }

  function draw() {
    if (!data) return;
    drawChosen();
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
    fill(status, text('positional.last_row_query_without', { value: r.n - 1, value2: fmt.percent(1 / r.n) }),
      text('positional.first_with_rope_weights', { value: fmt.percent(alibi0[r.n - 1]), value2: fmt.percent(alibi0[0]), value3: fmt.percent(Math.min(...row0)) }),
      text('positional.set_distance_alone_head', { value: fmt.percent(Math.max(...row0)), value2: slopeText(r.demo_slopes[0]), heads: r.heads }));
    fill(slopes, h('p', {}, text('positional.alibi_s_slopes_this', { n_heads: fmt.int(n_heads) }),
      text('positional.otherwise_slopes_power_two')),
    dom.tableWrap({}, table([text('positional.head'), text('positional.slope_m'), text('positional.penalty_10_tokens_back')],
      r.slopes.slice(0, 64).map((m, h0) => ({ attrs: { dataset: { head: h0, slope: m } }, cells: [String(h0 + 1), slopeText(m), fmt.num(-10 * m, 3)] })),
      { class: 'cost alibi-slopes' })),
    r.slopes.length > 64 ? h('p', { class: 'note' }, text('positional.first_64_heads', { length: fmt.int(r.slopes.length) })) : null);
    fill(rope, h('p', {}, text('positional.rope_s_logit_q', { rope_d_k: r.rope_d_k }),
      text('positional.each_row_holds_one')),
    dom.tableWrap({}, table([text('positional.offset_i_j'), ...r.rope[0].positions.map((_, k) => text('positional.pair_n', { n: k + 1 }))],
      r.rope.map((row) => ({ attrs: { dataset: { offset: row.offset } },
        cells: [String(row.offset), ...row.logits.map((x, k) => `i = ${row.positions[k]}: ${fmt.fixed(x, 5)}`)] })),
      { class: 'cost rope-offsets' })));
  }

  function update(actions, config) {
    if (!actions?.positionMethods) return;
    if (NAMES[config.positional] && config.positional !== method) {
      method = config.positional;
      drawChosen();
    }
    const d_k = config.d_k ?? 8;
    const rope_base = config.rope_base || undefined; // unset: the core's default
    const key = JSON.stringify([config.n_heads, d_k, config.seed, rope_base]);
    if (key === lastKey) return;
    lastKey = key;
    const asked = pending = actions.positionMethods({ n_heads: config.n_heads, d_k, seed: config.seed, rope_base });
    asked.then((r) => { if (asked === pending) show(r, config.n_heads); },
      (err) => { if (asked === pending) fill(status, text('positional.not_computed', { message: err.message })); });
  }

  const offScheme = host.onSchemeChange(draw);
  return { element, update, destroy: offScheme };
}
