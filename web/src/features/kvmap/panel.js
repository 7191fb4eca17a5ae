// The "Query heads → key/value heads" panel: which key/value head each query head reads, for the
// current n_heads and n_kv_heads. The mapping is the core's (the view's validation returns it as
// kv_head_of); this panel only lays it out, one row per key/value head.

import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/kvmap.js';

/** Runs of consecutive query heads (counting from 1) as text: [1, 2, 3, 7] → "1–3, 7". */
function ranges(heads) {
  const parts = [];
  for (let i = 0; i < heads.length;) {
    let j = i;
    while (j + 1 < heads.length && heads[j + 1] === heads[j] + 1) j++;
    parts.push(j > i ? `${heads[i]}–${heads[j]}` : `${heads[i]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

const MAX_ROWS = 64; // a table a learner reads; larger layers are summarised after it

export function create(body, { dom }) {
  const { h, fill, table } = dom;
  const lead = h('p', { class: 'lead' });
  const rows = h('div', { id: 'kvmap-table' });
  fill(body, lead, rows);
  let lastKey = '';

  function update({ check }) {
    const c = check?.config;
    const map = c?.kv_head_of ?? null;
    const key = map ? JSON.stringify(map) : '';
    if (key === lastKey) return;
    lastKey = key;
    body.dataset.kvHeadOf = key;
    if (!map) {
      fill(lead, text('kvmap.mapping_appears_once_inputs'));
      fill(rows);
      return;
    }
    const readers = new Map(); // key/value head → the query heads that read it, counting from 1
    map.forEach((g, k) => readers.set(g, [...(readers.get(g) ?? []), k + 1]));
    const kind = readers.size === map.length ? text('kvmap.multi_head_attention_every')
      : readers.size === 1 ? text('kvmap.multi_query_attention_every')
        : text('kvmap.grouped_query_attention_query');
    fill(lead, text('kvmap.query_heads_key_value', { length: fmt.int(map.length), size: fmt.int(readers.size), kind }));
    const shown = [...readers.entries()].sort(([a], [b]) => a - b).slice(0, MAX_ROWS);
    fill(rows, dom.tableWrap({}, table([text('kvmap.key_value_head'), text('kvmap.query_heads_that_read'), text('kvmap.how_many')],
      shown.map(([g, heads]) => ({ attrs: { dataset: { kvHead: g, heads: heads.join(',') } }, cells: [String(g + 1), ranges(heads), fmt.int(heads.length)] })),
      { class: 'cost kvmap' })),
    readers.size > MAX_ROWS ? h('p', { class: 'note' }, text('kvmap.first_key_value_heads', { MAX_ROWS, size: fmt.int(readers.size) })) : null);
  }

  return { update };
}
