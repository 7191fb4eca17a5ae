// Linear attention beside softmax attention: the same seeded q, k, v through the core's linear attention
// (φ = elu + 1, attn.linearAttention) and its softmax attention, their first output rows side by side and
// how far apart they are, and the core's FLOP counts of both (attn.linearAttentionCost) with the n at
// which linear attention starts to cost less. Every number shown is the engine's.

import * as fmt from '../../model/format.js';
import { Cancelled, WorkerLost } from '../../model/errors.js';
export { requests } from './requests.js'; // what this panel may ask the compute for (its ctx.actions)

const MAX_N = 256, MAX_D = 64;
const SHOWN = 6; // components of a row drawn

export function create(body, { dom, actions }) {
  const { h, fill } = dom;
  let causal = null, asked = '', pending = null, sizes = null;
  const causalBox = h('input', { type: 'checkbox', id: 'linear-causal', onchange: () => { causal = causalBox.checked; ask(); } });
  const status = h('p', { class: 'placeholder', id: 'linear-status' }, 'Waiting for the engine…');
  // The rows may scroll sideways: tabindex lets a keyboard reach and scroll them.
  const outBox = h('div', { class: 'table-wrap', id: 'linear-out-box', tabindex: '0', role: 'region', 'aria-label': 'Softmax and linear attention output rows' });
  const costBox = h('div', { id: 'linear-cost-box' });
  fill(body,
    h('p', { class: 'lead' }, 'Linear attention (Katharopoulos et al., 2020) replaces exp(q·k/√d_k) by φ(q)·φ(k) with φ(x) = elu(x) + 1 > 0. ',
      'Then the sums over keys can be taken once, S = Σ_j φ(k_j)·v_jᵀ (d_k × d_v) and z = Σ_j φ(k_j), and each row costs φ(q_i)ᵀ·S / φ(q_i)ᵀ·z: ',
      'O(n·d_k·d_v) instead of O(n²·d). It is another attention, not an approximation of the softmax: compare the rows below.'),
    h('p', {}, causalBox, ' ', h('label', { for: 'linear-causal' }, 'causal (sums over j ≤ i: prefix sums of S and z)')),
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
      status.textContent = `The engine refused these sizes: ${err.message}`;
    }
  }

  function draw(r, p) {
    const row = (v) => `[${v.slice(0, SHOWN).map((x) => fmt.fixed(x, 4)).join(', ')}${v.length > SHOWN ? ', …' : ''}]`;
    fill(outBox,
      h('h3', {}, `Output rows, n = ${fmt.int(p.n)}, d_k = ${fmt.int(p.d_k)}, d_v = ${fmt.int(p.d_v)}`),
      dom.table(['row', 'softmax attention', 'linear attention'], r.softmax.map((s, i) => [String(i), row(s), row(r.linear[i])]),
        { class: 'cost', id: 'linear-rows', dataset: { maxDifference: String(r.max_difference), args: JSON.stringify(p) } }),
      h('p', { class: 'note', id: 'linear-difference' }, `Largest difference over all ${fmt.int(p.n)} rows: ${fmt.num(r.max_difference, 4)} `,
        `(the largest softmax output is ${fmt.num(r.max_softmax, 4)}). `,
        p.causal ? 'Row 0 sees only key 0 in both, so both give v_0 there; later rows weigh the keys differently. '
          : 'Each output is a weighted mean of the values in both, with other weights: φ(q)·φ(k) instead of exp(q·k/√d_k).'));
    const c = r.cost;
    const terms = (name, side) => [
      ...side.terms.map((t) => [`${name}: ${t.what}`, t.formula, fmt.int(t.flops)]),
      [`${name}: total, ${side.order}`, '', fmt.int(side.total)],
    ];
    fill(costBox,
      h('h3', {}, `FLOPs of one head at n = ${fmt.int(p.n)} (${c.pairs})`),
      h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'FLOPs of one head by step' }, dom.table(['step', 'formula', 'FLOPs'], [...terms('softmax', c.softmax), ...terms('linear', c.linear)],
        { class: 'cost', id: 'linear-cost', dataset: { crossover: String(c.crossover_n), softmax: String(c.softmax.total), linear: String(c.linear.total) } })),
      h('p', { class: 'note', id: 'linear-crossover' }, `Linear attention costs less from n = ${fmt.int(c.crossover_n)} on `,
        `(softmax attention grows as n²·(d_k + d_v), linear attention as n·d_k·d_v: they meet near n ≈ ${p.causal ? '2·d, the causal mask halving the pairs' : 'd'}). `,
        `At n = ${fmt.int(p.n)} softmax attention takes `,
        c.ratio >= 1 ? `${fmt.num(c.ratio, 2)}× the FLOPs of linear attention.` : `${fmt.num(1 / c.ratio, 2)}× fewer FLOPs than linear attention.`),
      dom.table(['n', 'softmax FLOPs', 'linear FLOPs', 'cheaper'], r.sweep.map((s) => [fmt.int(s.n), fmt.int(s.softmax), fmt.int(s.linear),
        s.linear < s.softmax ? 'linear' : 'softmax']), { class: 'cost', id: 'linear-sweep' }));
  }

  function update({ check, engine }) {
    const c = check?.config;
    if (!engine || !c) {
      status.hidden = false;
      status.textContent = !engine ? 'Waiting for the engine…' : 'The comparison appears once the inputs are valid.';
      return;
    }
    if (causal === null) {
      causal = String(c.mask ?? '').startsWith('causal');
      causalBox.checked = causal;
    }
    sizes = { n: Math.min(c.n_q, MAX_N), d_k: Math.min(c.d_k, MAX_D), d_v: Math.min(c.d_v, MAX_D), seed: c.input_seed ?? 1 };
    ask();
  }

  return { update };
}
