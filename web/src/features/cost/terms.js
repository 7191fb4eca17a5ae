// The lesson's FLOP terms written as formulas with the live sizes ("n·d² = 10 × 64²"): the cost panel's
// table and the n control of the cost chapter (features/cost_n) name the same products the same way.

import * as fmt from '../../model/format.js';
import { text } from '../../lesson/panels/cost.js';

/**
 * The lesson's four terms as the engine counts them, each a list of [symbol, size] factors: the
 * lesson's n·d² and n²·d when n_q = n_k and h·d_k = d_model, the factors themselves otherwise, so a
 * formula never names a product other than the one whose value stands beside it. `widths`: the
 * analysis's derived { qk_width (h·d_k), v_width (h·d_v) }.
 */
export function lessonTerms(d, { qk_width: qk, v_width: v }) {
  const same = d.n_q === d.n_k;
  const nq = same ? ['n', d.n_q] : ['n_q', d.n_q];
  const nk = same ? ['n', d.n_k] : ['n_k', d.n_k];
  const width = qk === d.d_model ? ['d', d.d_model] : ['d_model', d.d_model];
  const dq = qk === d.d_model ? ['d', qk] : [text('cost.symbol_h_d_k'), qk];
  const dv = v === d.d_model ? ['d', v] : [text('cost.symbol_h_d_v'), v];
  const b = d.batch > 1 ? [['batch', d.batch]] : [];
  return {
    projections: [...b, nq, width, dq],
    scores: [...b, nq, nk, dq],
    weighted_sum: [...b, nq, nk, dv],
    softmax: [...b, ['h', d.n_heads], nq, nk],
  };
}

/** [[n, 8], [d, 64], [d, 64]] → "n·d² = 8 × 64²" (equal neighbours become a square). */
export function formula(factors) {
  const merged = [];
  for (const [sym, value] of factors) {
    const last = merged[merged.length - 1];
    if (last && last.sym === sym && last.power === 1) last.power = 2;
    else merged.push({ sym, value, power: 1 });
  }
  const symbolic = merged.map((f) => (f.power === 2 ? `${f.sym}²` : f.sym)).join('·');
  const numeric = merged.map((f) => (f.power === 2 ? `${fmt.int(f.value)}²` : fmt.int(f.value))).join(' × ');
  return `${symbolic} = ${numeric}`;
}

