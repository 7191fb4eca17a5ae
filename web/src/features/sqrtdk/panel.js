// The √d_k lab: live statistics from the core showing that q·k has variance d_k, and what the scale does
// to the softmax. The words follow the numbers: the text says "nearly one-hot" only when they say so.

import * as fmt from '../../model/format.js';
import { barCell } from '../../render/bar.js';
import { text } from '../../lesson/panels/sqrtdk.js';
import { createRow } from './row.js';
import { termList } from '../../ui/term_list.js';

const SAMPLES = 200;
const MIN_SAMPLES = 10;
const MAX_KEYS = 512;
const WORK = 4e6; // multiply-adds per update: keeps the lab instant at any d_k (the engine refuses far more)

/**
 * The sample it can afford for d_k: n_k keys (at most the run's, at least 2) and `samples` rows, with
 * d_k·n_k·samples ≤ WORK, fewer keys first being the smaller loss when d_k is huge.
 */
export function sqrtDkSample(d_k, n_k) {
  let keys = Math.min(Math.max(n_k, 2), MAX_KEYS);
  keys = Math.max(2, Math.min(keys, Math.floor(WORK / (d_k * MIN_SAMPLES))));
  const samples = Math.max(MIN_SAMPLES, Math.min(SAMPLES, Math.floor(WORK / (d_k * keys))));
  return { keys, samples };
}

/** What the rows' largest weight means, in words that agree with it (the mean largest weight of a row, uniform = 1/n_k). */
export function sharpness(maxWeight, keys) {
  const uniform = 1 / keys;
  if (maxWeight >= 0.8) return text('sqrtdk.nearly_one_hot_one');
  if (maxWeight >= 0.5) return text('sqrtdk.peaked_one_key_takes');
  if (maxWeight >= 2 * uniform) return text('sqrtdk.somewhat_peaked_largest_weight', { value: fmt.num(maxWeight / uniform, 1), keys });
  return text('sqrtdk.close_uniform_1_each', { keys, uniform: fmt.percent(uniform) });
}

export { requests } from './requests.js';

export function create(body, { dom, actions }) {
  const { h, fill } = dom;
  let lastKey = '';
  // The row the checkbox changes and the symbols, kept across updates; the lab's table fills `lab`.
  const row = createRow(dom);
  const lab = h('div', { class: 'sqrtdk-lab' });
  body.replaceChildren(termList(dom, ['d_k', 'variance', 'softmax', 'one_hot', 'entropy']), row.element, lab);

  function update({ check, engine }) {
    const c = check?.config;
    if (!engine || !c) {
      const key = !engine ? 'waiting' : 'invalid';
      if (key !== lastKey) {
        lastKey = key;
        fill(lab, h('p', { class: 'placeholder' }, !engine ? text('sqrtdk.waiting_engine') : text('sqrtdk.lab_appears_once_inputs')));
      }
      return;
    }
    row.update(actions, c);
    const { keys, samples } = sqrtDkSample(c.d_k, c.n_k);
    const key = JSON.stringify([c.d_k, keys, samples, c.input_seed]);
    if (key === lastKey) return;
    lastKey = key;
    let s;
    try {
      s = engine.sqrtDkStats({ d_k: c.d_k, n_k: keys, samples, seed: c.input_seed });
    } catch (err) {
      fill(lab, h('p', { class: 'placeholder', id: 'sqrtdk-message' }, text('sqrtdk.lab_cannot_sample_d', { d_k: fmt.int(c.d_k), message: err.message })));
      return;
    }
    const bar = (value, max, tone) => barCell(h, fmt.num(value, 3), value / max, tone);
    const fewer = keys < Math.min(Math.max(c.n_k, 2), MAX_KEYS)
      ? text('sqrtdk.keys_rather_than_d', { keys: fmt.int(keys), n_k: fmt.int(c.n_k), d_k: fmt.int(c.d_k) }) : '';
    const unscaled = sharpness(s.max_weight_unscaled, keys), scaled = sharpness(s.max_weight_scaled, keys);
    const verdict = c.d_k === 1
      ? text('sqrtdk.with_d_k_1')
      : text('sqrtdk.over_keys_without_scale', { keys: fmt.int(keys), max_weight_unscaled: fmt.percent(s.max_weight_unscaled), unscaled }) +
        text('sqrtdk.with_it', { max_weight_scaled: fmt.percent(s.max_weight_scaled), scaled });
    fill(lab,
      h('p', { class: 'lead' }, text('sqrtdk.draw_q_k_with', { d_k: fmt.int(c.d_k), d_k2: fmt.num(s.sqrt_d_k, 3) })),
      dom.tableWrap({}, h('table', { class: 'cost', id: 'sqrtdk-table', dataset: { maxUnscaled: s.max_weight_unscaled, keys } },
        h('thead', {}, h('tr', {}, [text('sqrtdk.measure'), text('sqrtdk.unscaled_q_k'), text('sqrtdk.scaled_q_k_d')].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {},
          h('tr', {}, h('th', { scope: 'row' }, text('sqrtdk.variance_samples', { samples, keys })), h('td', {}, fmt.num(s.dot_variance, 2), ` ≈ d_k = ${fmt.int(c.d_k)}`), h('td', {}, fmt.num(s.scaled_variance, 3), ' ≈ 1')),
          h('tr', {}, h('th', { scope: 'row' }, text('sqrtdk.largest_weight_row_mean')), h('td', {}, bar(s.max_weight_unscaled, 1, 'warm')), h('td', {}, bar(s.max_weight_scaled, 1, 'cool'))),
          h('tr', {}, h('th', { scope: 'row' }, text('sqrtdk.softmax_entropy_uniform', { max_entropy: fmt.num(s.max_entropy, 2) })), h('td', {}, bar(s.entropy_unscaled, s.max_entropy, 'warm')), h('td', {}, bar(s.entropy_scaled, s.max_entropy, 'cool')))))),
      h('p', { class: 'note', id: 'sqrtdk-verdict' }, verdict, fewer,
        c.d_k > 1 ? text('sqrtdk.untick_divide_scores_d') : ''));
  }

  return { update };
}
