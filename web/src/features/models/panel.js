// Real models from the lesson's table: their attention layer analysed at n = 128, with a clear
// statement of which ones this tab can run and how much memory the others would need.

import { modelChanges, presetValue, DEFAULT_PRESET_N, RUN_WIDTH } from '../../model/presets.js';
import { estimateRun, MAX_RUN_SECONDS } from '../../model/validate.js';
import * as fmt from '../../model/format.js';

export function create(body, { dom, actions }) {
  const { h, fill } = dom;
  fill(body, h('p', { class: 'placeholder' }, 'Waiting for the engine…'));
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
      const verdict = fits && fast ? h('span', { class: 'mark ok' }, '✓ runs in this tab')
        : h('span', { class: 'mark bad' }, fits ? 'too slow for a tab: analysed only'
          : `needs ${fmt.bytesShort(a.memory.total)} for one pass, over the budget: analysed only`);
      const row = h('tr', { dataset: { model: m.name } },
        h('th', { scope: 'row' }, h('button', { type: 'button', class: 'linkish', title: `Load ${m.name} into the inputs`,
          onclick: () => actions.load(modelChanges(m), presetValue('model', m.name)) }, m.name)),
        h('td', {}, String(m.n_heads)), h('td', {}, fmt.int(m.d_model)), h('td', {}, String(m.d_k)),
        h('td', {}, m.parameters), h('td', {}, fmt.short(a.params_gqa ?? a.params.total)));
      const scaled = RUN_WIDTH[m.name]
        ? ` · loads at d_model ${fmt.int(RUN_WIDTH[m.name])} (d_k ${engine.analyze({ d_model: RUN_WIDTH[m.name], n_heads: m.n_heads, n: 1 }).dims.d_k}) with the same ${m.n_heads} query and ${m.n_kv_heads} key/value heads, so its grouped layer runs here` : '';
      return [row, h('tr', { class: 'note-row' }, h('td', { colspan: 6 }, verdict, m.note ? ` · ${m.note}` : '', scaled))];
    });
    fill(body,
      h('p', { class: 'lead' }, `Published sizes. “Model” is the whole model's parameter count; “one layer” counts the four projection matrices and biases of one layer; the whole model stacks dozens of layers and adds embeddings and feed-forward blocks. `,
        `Memory is for one forward pass at n = ${DEFAULT_PRESET_N} against this tab's budget of ${fmt.bytesBinary(budget)}: the large ones are analysed but not run.`),
      h('div', { class: 'table-wrap', tabindex: '0' }, h('table', { class: 'models' },
        h('thead', {}, h('tr', {}, ['model (click to load)', 'h', 'd_model', 'd_k', 'model', 'one layer'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, rows))));
  }

  return { update };
}
