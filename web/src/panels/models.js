// Real models from the lesson's table: their attention layer analysed at n = 128, with a clear
// statement of which ones this tab can run and how much memory the others would need.

import { modelChanges, DEFAULT_PRESET_N } from '../model/presets.js';
import { estimateRun, MAX_RUN_SECONDS } from '../model/validate.js';
import * as fmt from '../model/format.js';
import { h, fill } from '../ui/dom.js';

export function createModels(section, app) {
  const body = section.querySelector('.panel-body');
  fill(body, h('p', { class: 'placeholder' }, 'Waiting for the engine…'));
  let done = false;

  function update({ engine }) {
    if (done || !engine) return;
    done = true;
    const budget = engine.defaultMemoryBudget;
    const rows = engine.modelPresets().map((m) => {
      const a = engine.analyze({ d_model: m.d_model, n_heads: m.n_heads, d_k: m.d_k, d_v: m.d_k, bias: true, n: DEFAULT_PRESET_N,
        ...(m.n_kv_heads !== m.n_heads ? { n_kv_heads: m.n_kv_heads } : {}) });
      const fits = a.memory.total <= budget;
      const fast = estimateRun(a, { isa: engine.isa }).seconds <= MAX_RUN_SECONDS;
      const verdict = fits && fast ? h('span', { class: 'mark ok' }, 'runs here')
        : h('span', { class: 'mark bad', title: fits ? 'too slow for a tab' : `needs ${fmt.bytes(a.memory.total)}` },
          fits ? 'too slow' : `needs ${fmt.bytesShort(a.memory.total)}`);
      return h('tr', { dataset: { model: m.name } },
        h('th', { scope: 'row' }, m.name, m.note ? h('div', { class: 'note' }, m.note) : null),
        h('td', {}, String(m.n_heads)), h('td', {}, fmt.int(m.d_model)), h('td', {}, String(m.d_k)),
        h('td', {}, m.parameters), h('td', {}, fmt.short(a.params_gqa ?? a.params.total)), h('td', {}, verdict),
        h('td', {}, h('button', { type: 'button', class: 'secondary small', onclick: () => app.loadChanges(modelChanges(m)),
          'aria-label': `Load ${m.name}` }, 'Load')));
    });
    fill(body,
      h('p', { class: 'lead' }, `Published sizes. “Attention layer” counts the four projection matrices and biases of one layer; the whole model stacks dozens of layers and adds embeddings and feed-forward blocks. `,
        `Memory is for one forward pass at n = ${DEFAULT_PRESET_N} against this tab's budget of ${fmt.bytesBinary(budget)}: the large ones are analysed but not run.`),
      h('div', { class: 'table-wrap' }, h('table', { class: 'models' },
        h('thead', {}, h('tr', {}, ['model', 'heads', 'd_model', 'd_k', 'whole model', 'attention layer', 'in this tab', ''].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, rows))));
  }

  return { name: 'models', update };
}
