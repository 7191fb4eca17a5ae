// The √d_k lab: live statistics from the core showing that q·k has variance d_k, and that without
// the scale the softmax saturates into near one-hot rows (low entropy, one dominant weight).

import * as fmt from '../model/format.js';
import { h, fill } from '../ui/dom.js';

const SAMPLES = 200;
const WORK = 4e6; // multiply-adds per update: keeps the lab instant even at d_k = 100,000

export function createSqrtDk(section, app) {
  const body = section.querySelector('.panel-body');
  let lastKey = '';

  function update({ check, engine }) {
    const c = check?.config;
    if (!engine || !c) {
      if (!engine) fill(body, h('p', { class: 'placeholder' }, 'Waiting for the engine…'));
      return;
    }
    const n_k = Math.min(Math.max(c.n_k, 2), 512);
    const key = JSON.stringify([c.d_k, n_k, c.input_seed]);
    if (key === lastKey) return;
    lastKey = key;
    const samples = Math.max(10, Math.min(SAMPLES, Math.floor(WORK / (c.d_k * n_k))));
    const s = engine.sqrtDkStats({ d_k: c.d_k, n_k, samples, seed: c.input_seed });
    const bar = (value, max, cls) => h('span', { class: `bar ${cls}`, style: { '--w': `${Math.min(100, (100 * value) / max).toFixed(1)}%` } }, fmt.num(value, 3));
    fill(body,
      h('p', { class: 'lead' }, `Draw q and k with ${fmt.int(c.d_k)} independent N(0, 1) components each. Their dot product is a sum of ${fmt.int(c.d_k)} terms of variance 1, so its variance is d_k; dividing by √d_k = ${fmt.num(Math.sqrt(c.d_k), 3)} brings it back to 1.`),
      h('div', { class: 'table-wrap' }, h('table', { class: 'cost', id: 'sqrtdk-table' },
        h('thead', {}, h('tr', {}, ['', 'unscaled q·k', 'scaled q·k / √d_k'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {},
          h('tr', {}, h('th', { scope: 'row' }, `variance (${samples} × ${n_k} samples)`), h('td', {}, fmt.num(s.dot_variance, 2), ` ≈ d_k = ${fmt.int(c.d_k)}`), h('td', {}, fmt.num(s.scaled_variance, 3), ' ≈ 1')),
          h('tr', {}, h('th', { scope: 'row' }, 'largest weight in a row (mean)'), h('td', {}, bar(s.max_weight_unscaled, 1, 'warm')), h('td', {}, bar(s.max_weight_scaled, 1, 'cool'))),
          h('tr', {}, h('th', { scope: 'row' }, `softmax entropy (uniform = ${fmt.num(s.max_entropy, 2)})`), h('td', {}, bar(s.entropy_unscaled, s.max_entropy, 'warm')), h('td', {}, bar(s.entropy_scaled, s.max_entropy, 'cool')))))),
      h('p', { class: 'note' }, `Over ${n_k} keys, unscaled logits spread so widely that one key takes ${fmt.percent(s.max_weight_unscaled)} of a row on average: the softmax is nearly one-hot and its gradients nearly vanish. `,
        'Untick “divide the scores by √d_k” in the inputs to see the heatmaps turn into single bright cells.'));
  }

  return { name: 'sqrtdk', update };
}
