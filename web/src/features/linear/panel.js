// Linear attention beside softmax attention: the same seeded q, k, v through the core's linear attention
// (φ = elu + 1, attn.linearAttention) and its softmax attention, their first output rows side by side and
// how far apart they are, and the core's FLOP counts of both (attn.linearAttentionCost) with the n at
// which linear attention starts to cost less. Every number shown is the engine's.

import * as fmt from '../../model/format.js';
import { Cancelled, WorkerLost } from '../../model/errors.js';
import { text } from '../../lesson/panels/linear.js';
import { stepFold } from '../../ui/fold_in_step.js';
export { requests } from './requests.js'; // what this panel may ask the compute for (its ctx.actions)

const MAX_N = 256, MAX_D = 64;
const SHOWN = 6; // components of a row drawn

export function create(body, { dom, actions }) {
  const { h, fill } = dom;
  let causal = null, fromMask = null, asked = '', pending = null, sizes = null;
  const causalBox = h('input', { type: 'checkbox', id: 'linear-causal', onchange: () => { causal = causalBox.checked; ask(); } });
  const status = h('p', { class: 'placeholder', id: 'linear-status' }, text('linear.waiting_engine'));
  // The rows may scroll sideways: tabindex lets a keyboard reach and scroll them.
  const outBox = h('div', { id: 'linear-out-box' });
  const costBox = h('div', { id: 'linear-cost-box' });
  // In a lesson's step (whose text tells the idea) the explanation and the FLOPs term by term fold: ui/fold_in_step.js.
  const flopsBody = h('div', {});
  const folds = [stepFold(dom, body, { name: 'linear-about', summary: text('linear.how_it_computes') },
    h('p', { class: 'lead' }, text('linear.linear_attention_katharopoulos_et'), text('linear.then_sums_over_keys'), text('linear.o_n_d_k'))),
  stepFold(dom, body, { name: 'linear-flops', summary: text('linear.flops_term_by_term'), heading: 'h4' }, flopsBody)];
  const flops = folds[1].element;
  fill(body,
    folds[0].element,
    h('p', { class: 'linear-causal' }, causalBox, ' ', h('label', { for: 'linear-causal' }, text('linear.causal_sums_over_j'))),
    status, outBox, costBox);

  async function ask() {
    if (!sizes) return;
    const payload = { ...sizes, causal };
    const key = JSON.stringify(payload);
    if (key === asked) return;
    asked = key;
    const mine = pending = actions.linearCompare(payload);
    try {
      const r = await mine;
      if (mine !== pending) return;
      status.hidden = true;
      draw(r, payload);
    } catch (err) {
      if (mine !== pending) return;
      if (err instanceof Cancelled || err instanceof WorkerLost) asked = '';
      status.hidden = false;
      status.textContent = text('linear.engine_refused_these_sizes', { message: err.message });
    }
  }

  function draw(r, p) {
    const row = (v) => `[${v.slice(0, SHOWN).map((x) => fmt.fixed(x, 4)).join(', ')}${v.length > SHOWN ? ', …' : ''}]`;
    fill(outBox,
      h('h3', {}, text('linear.output_rows_n_d', { n: fmt.int(p.n), d_k: fmt.int(p.d_k), d_v: fmt.int(p.d_v) })),
      dom.tableWrap({ label: text('linear.softmax_linear_attention_output') },
        dom.table([text('linear.row'), text('linear.softmax_attention'), text('linear.linear_attention')], r.softmax.map((s, i) => [String(i), row(s), row(r.linear[i])]),
          { class: 'cost', id: 'linear-rows', dataset: { maxDifference: String(r.max_difference), args: JSON.stringify(p) } })),
      h('p', { class: 'note', id: 'linear-difference' }, text('linear.largest_difference_over_all', { n: fmt.int(p.n), max_difference: fmt.num(r.max_difference, 4) }),
        text('linear.largest_softmax_output', { max_softmax: fmt.num(r.max_softmax, 4) }),
        p.causal ? text('linear.row_0_sees_only')
          : text('linear.each_output_weighted_mean')));
    const c = r.cost;
    const terms = (name, side) => [
      ...side.terms.map((t) => [`${name}: ${t.what}`, t.formula, fmt.int(t.flops)]),
      [`${name}: total, ${side.order}`, '', fmt.int(side.total)],
    ];
    fill(flopsBody, dom.tableWrap({ label: text('linear.flops_one_head_step') }, dom.table(['step', 'formula', 'FLOPs'], [...terms('softmax', c.softmax), ...terms('linear', c.linear)],
      { class: 'cost', id: 'linear-cost', dataset: { crossover: String(c.crossover_n), softmax: String(c.softmax.total), linear: String(c.linear.total) } })));
    fill(costBox,
      h('h3', {}, text('linear.flops_one_head_n', { n: fmt.int(p.n), pairs: c.pairs })),
      flops,
      h('p', { class: 'note', id: 'linear-crossover' }, text('linear.linear_attention_costs_less', { crossover_n: fmt.int(c.crossover_n) }),
        text('linear.softmax_attention_grows_n2', { part: p.causal ? text('linear.2_d_causal_mask') : 'd' }),
        text('linear.n_softmax_attention_takes', { n: fmt.int(p.n) }),
        c.ratio >= 1 ? text('linear.flops_linear_attention', { ratio: fmt.num(c.ratio, 2) }) : text('linear.fewer_flops_than_linear', { value: fmt.num(1 / c.ratio, 2) })),
      dom.tableWrap({}, dom.table(['n', text('linear.softmax_flops'), text('linear.linear_flops'), text('linear.cheaper')], r.sweep.map((s) => [fmt.int(s.n), fmt.int(s.softmax), fmt.int(s.linear),
        s.linear < s.softmax ? 'linear' : 'softmax']), { class: 'cost', id: 'linear-sweep' })));
  }

  function update({ check, engine }) {
    for (const fold of folds) fold.sync();
    const c = check?.config;
    if (!engine || !c) {
      status.hidden = false;
      status.textContent = !engine ? text('linear.waiting_engine') : text('linear.comparison_appears_once_inputs');
      return;
    }
    // The box starts from the layer's mask and follows it when the mask changes (a link then opens as
    // shown); between changes of the mask it is the learner's to try.
    const masked = String(c.mask ?? '').startsWith('causal');
    if (masked !== fromMask) {
      fromMask = masked;
      causal = masked;
      causalBox.checked = causal;
    }
    sizes = { n: Math.min(c.n_q, MAX_N), d_k: Math.min(c.d_k, MAX_D), d_v: Math.min(c.d_v, MAX_D), seed: c.input_seed ?? 1 };
    ask();
  }

  return { update, destroy: () => { for (const fold of folds) fold.destroy(); } };
}
