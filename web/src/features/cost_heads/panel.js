// The cost chapter's comparison of one head with eight at the current d_model and sentence length:
// the core's counts side by side (compare.js), and in words what is equal and what grows with h.

import * as fmt from '../../model/format.js';
import { compareHeads } from './compare.js';
import { text } from '../../lesson/panels/cost_heads.js';

export function create(body, { dom }) {
  const { h, fill, table, math } = dom;
  fill(body, h('p', { class: 'placeholder' }, text('cost_heads.waiting')));
  let lastKey = '';

  function update({ check, engine }) {
    const c = check?.config;
    if (!c || !engine) return;
    const layer = { d_model: c.d_model, bias: c.bias, n: c.n_q };
    const key = JSON.stringify({ ...layer, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v });
    if (key === lastKey) return;
    lastKey = key;
    const [one, many] = compareHeads(engine.analyze, layer);
    const lead = h('p', { class: 'lead' }, math(text('cost_heads.lead', { d_model: fmt.int(c.d_model), n: fmt.int(c.n_q), h: many.h })),
      ' ', yourLayer(engine.analyze, c));
    if (one.error || many.error) {
      fill(body, lead, h('p', { class: 'note', id: 'heads-compare-error' }, (one.error || many.error)));
      return;
    }
    const cell = (k, format) => (v) => h('span', { dataset: { value: v[k] } }, format(v[k]));
    const row = (label, k, format = fmt.int) => ({ attrs: { dataset: { row: k } },
      cells: [math(label), cell(k, format)(one), cell(k, format)(many)] });
    // Folded until the learner has predicted (exercises cost.heads-params and cost.heads-flops ask it).
    fill(body, lead, h('details', { class: 'fold-details', id: 'heads-compare-fold' },
      h('summary', {}, text('cost_heads.open')),
      dom.tableWrap({}, table(['', `h = ${one.h}`, `h = ${many.h}`], [
        row(text('cost_heads.row_d_k'), 'd_k'),
        row(text('cost_heads.row_params'), 'params'),
        row(text('cost_heads.row_macs'), 'macs'),
        row(text('cost_heads.row_lesson'), 'lesson'),
        row(text('cost_heads.row_softmax'), 'softmax_flops'),
        row(text('cost_heads.row_flops'), 'flops'),
        row(text('cost_heads.row_maps'), 'maps'),
      ], { class: 'cost heads-compare', id: 'heads-compare' })),
      h('p', { class: 'note', id: 'heads-compare-verdict' }, math(one.params === many.params && one.macs === many.macs
        ? text('cost_heads.equal', { h: many.h, params: fmt.int(one.params), macs: fmt.int(one.macs) })
        : text('cost_heads.not_equal'))),
      h('p', { class: 'note' }, math(text('cost_heads.grows', { extra: fmt.int(many.flops - one.flops), maps: many.maps, maps1: one.maps })))));
  }

  /** The form's own layer, as the core splits it: n_heads heads of d_k, each with its map (a span; the error if refused). */
  function yourLayer(analyze, c) {
    let a;
    try {
      a = analyze({ d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, bias: c.bias, n: c.n_q });
    } catch (err) {
      return h('span', { id: 'heads-yours' }, err.message);
    }
    const { dims, derived } = a;
    return h('span', { id: 'heads-yours', dataset: { h: dims.n_heads, d_k: dims.d_k } }, math(text('cost_heads.yours', {
      h: dims.n_heads, d_k: fmt.int(dims.d_k), n: fmt.int(dims.n_q), n_k: fmt.int(dims.n_k), qk_width: fmt.int(derived.qk_width),
      maps: fmt.int(derived.attention_maps) })));
  }

  return { update };
}
