// The shape trace: every tensor of one forward pass, from inputs through the per-head split to the
// output, with its dims and bytes (the lesson's worked example E1, for whatever sizes are set).

import * as fmt from '../../model/format.js';

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
      fill(body, h('p', { class: 'placeholder' }, check?.ok === false ? 'Shapes appear once the inputs are valid.' : 'Waiting for the engine…'));
      return;
    }
    const d = a.dims;
    const rows = a.shapes.map((s) => ({
      attrs: { class: s.note === 'input' ? 'input-row' : /^output/.test(s.name) ? 'output-row' : '' },
      cells: [h('span', {}, math(s.name), h('span', { class: 'sub-note' }, s.note)), h('span', { class: 'dims' }, fmt.dims(s.dims)), fmt.bytes(s.bytes)],
    }));
    fill(body,
      h('p', { class: 'lead' },
        `One big matrix product makes Q for all heads at once (${fmt.int(d.n_q)} × ${fmt.int(a.derived.qk_width)}); `,
        `splitting it into heads is only a reshape, (n, h·d_k) → (h, n, d_k), so no data moves. `,
        `Each head then scores its ${fmt.int(d.n_q)} queries against ${fmt.int(d.n_k)} keys${scale ? '' : ' (not divided by √d_k: the scale is off)'}.`),
      h('div', { class: 'table-wrap', tabindex: '0' }, table(['tensor', 'shape', 'bytes (float32)'], rows, { class: 'shapes', id: 'shape-table' })),
      h('p', { class: 'note' }, `Shapes list batch first. With batch = ${fmt.int(d.batch)}, h = ${d.n_heads}, d_k = ${fmt.int(d.d_k)}, d_v = ${fmt.int(d.d_v)}.`));
  }

  return { update };
}
