// The derivation of multi-head attention from one head, as data (no DOM): four stages (one head, h heads,
// Concat, Wᴼ), each a list of equations; an equation names its tensors, and every tensor's size comes from
// the core's analysis (analyze's shapes, dims and derived widths), never from arithmetic here; the TeX
// templates are the lesson's data (lesson/panels/derive.js). The panel (panel.js) typesets and draws what
// this returns; tests/js/derive.test.mjs holds it to the analysis.

import { text } from '../../lesson/panels/derive.js';

/**
 * The tensors the derivation names, in order of appearance. Each has, in the lesson's data
 * (lesson/panels/derive.js), its TeX symbol (derive.tex.<name>), its sizes in the lesson's letters
 * (derive.letters.<name>) and its name as the page writes it (derive.label.<name>).
 */
export const TENSORS = Object.freeze(['Q', 'K', 'V', 'WQ', 'WK', 'WV', 'Qi', 'Ki', 'Vi', 'Ai', 'head', 'concat', 'WO', 'out']);

/** The stages in order; each step of the chapter whose id ends in a stage's name shows that stage. */
export const STAGES = Object.freeze(['one-head', 'side-by-side', 'concat', 'output']);

/** The last two sizes of the analysis's tensor whose name starts with `prefix` (batch and head come first). */
function lastTwo(shapes, prefix) {
  const s = shapes.find((x) => x.name.startsWith(prefix));
  if (!s) throw new Error(`derive: the analysis has no tensor “${prefix}…”`);
  return s.dims.slice(-2);
}

/**
 * Every tensor's [rows, cols] for analysis `a` (attn.analyze's answer): the activations from its shape
 * trace, the weights from its dims (W_iᴽ: d_model × d_k …) and derived widths (Wᴼ: h·d_v × d_model).
 */
export function tensorSizes(a) {
  const { shapes, dims, derived } = a;
  return {
    Q: lastTwo(shapes, 'query input'), K: lastTwo(shapes, 'key input'), V: lastTwo(shapes, 'value input'),
    WQ: [dims.d_model, dims.d_k], WK: [dims.d_model, dims.d_k], WV: [dims.d_model, dims.d_v],
    Qi: lastTwo(shapes, 'Q_i'), Ki: lastTwo(shapes, 'K_i'), Vi: lastTwo(shapes, 'V_i'), Ai: lastTwo(shapes, 'A_i'),
    head: lastTwo(shapes, 'head_i'), concat: lastTwo(shapes, 'Concat'),
    WO: [derived.v_width, dims.d_model], out: lastTwo(shapes, 'output'),
  };
}

/**
 * The equations of each stage: { [stage]: [{ id, result, terms, form }] }: `result` = the tensor made,
 * `terms` the tensors multiplied (in order), `form` how they combine ('product', 'attention': softmax of
 * the scaled scores times V_i, 'concat': h copies laid side by side).
 */
export const EQUATIONS = Object.freeze({
  'one-head': [
    { id: 'q', result: 'Qi', terms: ['Q', 'WQ'], form: 'product' },
    { id: 'k', result: 'Ki', terms: ['K', 'WK'], form: 'product' },
    { id: 'v', result: 'Vi', terms: ['V', 'WV'], form: 'product' },
    { id: 'a', result: 'Ai', terms: ['Qi', 'Ki'], form: 'scores' },
    { id: 'head', result: 'head', terms: ['Ai', 'Vi'], form: 'product' },
  ],
  'side-by-side': [{ id: 'heads', result: 'head', terms: ['Ai', 'Vi'], form: 'each' }],
  concat: [{ id: 'concat', result: 'concat', terms: ['head'], form: 'concat' }],
  output: [{ id: 'out', result: 'out', terms: ['concat', 'WO'], form: 'product' }],
});

/** The tensors stage `stage` names (its equations' terms and results), each once, in order of appearance. */
export function stageTensors(stage) {
  const names = EQUATIONS[stage].flatMap((e) => [...e.terms, e.result]);
  return names.filter((n, i) => names.indexOf(n) === i);
}

/** A tensor's symbol wrapped for highlighting: the panel's CSS colours `.t-<name>` (KaTeX's htmlClass). */
export const symbol = (name, tex = text(`derive.tex.${name}`)) => text('derive.tex.class', { name, symbol: tex });

/**
 * The TeX of one equation, one line: every tensor with its current size under it, and the result's space in
 * the lesson's letters (Q_i = Q·W_iᴽ ∈ ℝ^{n_q×d_k}, with 10×64 under Q …). `sizes` from tensorSizes, `h`
 * the head count, `int` formats a whole number for TeX, `scale` false leaves out the division by √d_k. The templates are the lesson's (lesson/panels/derive.js).
 */
export function equationTex(eq, sizes, { h, int, scale = true }) {
  const size = ([r, c]) => text('derive.tex.times', { r: int(r), c: int(c) });
  const under = (name, dims = sizes[name], tex = symbol(name)) => text('derive.tex.under', { symbol: tex, size: size(dims) });
  const inLetters = (name) => text('derive.tex.in', { size: text(`derive.letters.${name}`) });
  const res = under(eq.result);
  switch (eq.form) {
    case 'scores': {
      const kT = symbol('Ki', text('derive.tex.transpose', { symbol: text('derive.tex.Ki') }));
      const parts = { res, q: under('Qi'), k: under('Ki', [...sizes.Ki].reverse(), kT), in: inLetters('Ai') };
      return scale ? text('derive.eq.scores', parts) : text('derive.eq.scores_unscaled', parts);
    }
    case 'each':
      return text('derive.eq.each', { res, a: under('Ai'), v: under('Vi'), count: int(h) });
    case 'concat': // head_1, …, head_h, coloured as head_i, with their count and size under them
      return text('derive.eq.concat', { res, heads: symbol('head', text('derive.tex.heads')), count: int(h), size: size(sizes.head), in: inLetters('concat') });
    default: // a product of two tensors
      return text('derive.eq.product', { res, terms: eq.terms.map((n) => under(n)).join('\\,'), in: inLetters(eq.result) });
  }
}

/** The stage a chapter step shows: its id's last part when that is a stage ('heads.concat' → 'concat'), else null (all). */
export function stageOfStep(stepId) {
  const name = String(stepId ?? '').split('.').pop();
  return STAGES.includes(name) ? name : null;
}
