// The shape trace: every tensor of one forward pass, from inputs through the per-head split to the
// output, with its dims and bytes (the lesson's worked example E1, for whatever sizes are set).

import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/shapes.js';

export function create(body, { dom }) {
  const { h, fill, table, math } = dom;
  let lastKey = '';

  function update({ check, engine }) {
    const a = check?.analysis;
    const scale = check?.config?.scale ?? true;
    const key = a ? JSON.stringify([a.dims, scale]) : `none:${check?.ok}:${!!engine}`;
    if (key === lastKey) return;
    lastKey = key;
    if (!a) {
      fill(body, h('p', { class: 'placeholder' }, check?.ok === false ? text('shapes.shapes_appear_once_inputs') : text('shapes.waiting_engine')));
      return;
    }
    const d = a.dims;
    const rows = a.shapes.map((s) => ({
      attrs: { class: s.note === 'input' ? 'input-row' : /^output/.test(s.name) ? 'output-row' : '' },
      cells: [h('span', {}, math(s.name), h('span', { class: 'sub-note' }, s.note)), h('span', { class: 'dims' }, fmt.dims(s.dims)), fmt.bytes(s.bytes)],
    }));
    fill(body,
      h('p', { class: 'lead' },
        text('shapes.one_big_matrix_product', { n_q: fmt.int(d.n_q), n_heads_d_k: fmt.int(a.derived.qk_width) }),
        text('shapes.splitting_into_heads_only'),
        text('shapes.each_head_then_scores', { n_q: fmt.int(d.n_q), n_k: fmt.int(d.n_k), part: scale ? '' : text('shapes.not_divided_d_k') })),
      dom.tableWrap({}, table([text('shapes.tensor'), text('shapes.shape'), text('shapes.bytes_float32')], rows, { class: 'shapes', id: 'shape-table' })),
      h('p', { class: 'note' }, text('shapes.shapes_list_batch_first', { batch: fmt.int(d.batch), n_heads: d.n_heads, d_k: fmt.int(d.d_k), d_v: fmt.int(d.d_v) })));
  }

  return { update };
}
