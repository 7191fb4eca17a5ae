// Real models from the lesson's table: their attention layer analysed at n = 128, with a clear
// statement of which ones this tab can run and how much memory the others would need.

import { modelChanges, presetValue, DEFAULT_PRESET_N, RUN_WIDTH } from '../../model/presets.js';
import { estimateRun, MAX_RUN_SECONDS } from '../../model/validate.js';
import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/models.js';

export function create(body, { dom, actions }) {
  const { h, fill } = dom;
  fill(body, h('p', { class: 'placeholder' }, text('models.waiting_engine')));
  let done = false;

  function update({ engine, readOnly }) {
    for (const button of body.querySelectorAll('button.linkish')) button.disabled = readOnly;
    if (done || !engine) return;
    done = true;
    const budget = engine.defaultMemoryBudget;
    const rows = engine.modelPresets().map((m) => {
      const a = engine.analyze({ d_model: m.d_model, n_heads: m.n_heads, d_k: m.d_k, d_v: m.d_k, bias: true, n: DEFAULT_PRESET_N,
        ...(m.n_kv_heads !== m.n_heads ? { n_kv_heads: m.n_kv_heads } : {}) });
      const fits = a.memory.total <= budget;
      const fast = estimateRun(a, { isa: engine.isa }).seconds <= MAX_RUN_SECONDS;
      const verdict = fits && fast ? h('span', { class: 'mark ok' }, text('models.runs_this_tab'))
        : h('span', { class: 'mark bad' }, fits ? text('models.too_slow_tab_analysed')
          : text('models.needs_one_pass_over', { total: fmt.bytesShort(a.memory.total) }));
      const row = h('tr', { dataset: { model: m.name } },
        h('th', { scope: 'row' }, h('button', { type: 'button', class: 'linkish', title: text('models.load_into_inputs', { name: m.name }),
          onclick: () => actions.load(modelChanges(m), presetValue('model', m.name)) }, m.name)),
        h('td', {}, String(m.n_heads)), h('td', {}, fmt.int(m.d_model)), h('td', {}, String(m.d_k)),
        h('td', {}, m.parameters), h('td', {}, fmt.short(a.params_gqa ?? a.params.total)));
      const scaled = RUN_WIDTH[m.name]
        ? text('models.loads_d_model_d', { value: fmt.int(RUN_WIDTH[m.name]), d_k: engine.analyze({ d_model: RUN_WIDTH[m.name], n_heads: m.n_heads, n: 1 }).dims.d_k, n_heads: m.n_heads, n_kv_heads: m.n_kv_heads }) : '';
      return [row, h('tr', { class: 'note-row' }, h('td', { colspan: 6 }, verdict, m.note ? ` · ${m.note}` : '', scaled))];
    });
    fill(body,
      h('p', { class: 'lead' }, text('models.published_sizes_model_whole'),
        text('models.memory_one_forward_pass', { DEFAULT_PRESET_N, budget: fmt.bytesBinary(budget) })),
      dom.tableWrap({}, h('table', { class: 'models' },
        h('thead', {}, h('tr', {}, [text('models.model_click_load'), 'h', 'd_model', 'd_k', text('models.model'), text('models.one_layer')].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, rows))));
  }

  return { update };
}
