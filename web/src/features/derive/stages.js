// The derivation of multi-head attention from one head, as data (no DOM): four stages (one head, h heads,
// Concat, Wᴼ), each a list of equations; an equation names its tensors, and every tensor's size comes from
// the core's analysis (analyze's shapes, dims and derived widths), never from arithmetic here. The panel
// (panel.js) typesets and draws what this returns; tests/js/derive.test.mjs holds it to the analysis.

/** The tensors the derivation names: their TeX symbol, their name in words (the page's notation) and their sizes in the lesson's letters. */
export const TENSORS = Object.freeze({
  Q: { tex: 'Q', label: 'Q', letters: ['n_q', 'd_{\\text{model}}'] },
  K: { tex: 'K', label: 'K', letters: ['n_k', 'd_{\\text{model}}'] },
  V: { tex: 'V', label: 'V', letters: ['n_k', 'd_{\\text{model}}'] },
  WQ: { tex: 'W_i^{Q}', label: 'W_iᴽ', letters: ['d_{\\text{model}}', 'd_k'] },
  WK: { tex: 'W_i^{K}', label: 'W_iᴷ', letters: ['d_{\\text{model}}', 'd_k'] },
  WV: { tex: 'W_i^{V}', label: 'W_iⱽ', letters: ['d_{\\text{model}}', 'd_v'] },
  Qi: { tex: 'Q_i', label: 'Q_i', letters: ['n_q', 'd_k'] },
  Ki: { tex: 'K_i', label: 'K_i', letters: ['n_k', 'd_k'] },
  Vi: { tex: 'V_i', label: 'V_i', letters: ['n_k', 'd_v'] },
  Ai: { tex: 'A_i', label: 'A_i', letters: ['n_q', 'n_k'] },
  head: { tex: '\\mathrm{head}_i', label: 'head_i', letters: ['n_q', 'd_v'] },
  concat: { tex: '\\operatorname{Concat}', label: 'Concat', letters: ['n_q', 'h\\,d_v'] },
  WO: { tex: 'W^{O}', label: 'Wᴼ', letters: ['h\\,d_v', 'd_{\\text{model}}'] },
  out: { tex: '\\operatorname{MultiHead}', label: 'MultiHead', letters: ['n_q', 'd_{\\text{model}}'] },
});

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

/** A tensor's symbol wrapped for highlighting: the panel's CSS colours `.t-<name>` (KaTeX \htmlClass). */
export const symbol = (name) => `\\htmlClass{tensor t-${name}}{${TENSORS[name].tex}}`;

/** A size as TeX: "10 \times 64" (thousands grouped as 12{,}288). */
const size = ([r, c], int) => `${int(r)}\\times ${int(c)}`;
const letters = (name) => TENSORS[name].letters.join('\\times ');

/**
 * The TeX of one equation, symbolic (sizes in the lesson's letters) and live (the current sizes under
 * every tensor): { symbolic, live }. `sizes` from tensorSizes, `h` the head count, `int` formats a whole number.
 */
export function equationTex(eq, sizes, { h, int }) {
  const under = (name) => `\\underbrace{${symbol(name)}}_{${size(sizes[name], int)}}`;
  const R = (name) => `\\in\\mathbb{R}^{${letters(name)}}`;
  const live = (name) => `\\in\\mathbb{R}^{${size(sizes[name], int)}}`;
  const res = symbol(eq.result);
  // head_1, …, head_h (or the current count), coloured as head_i.
  const heads = (last) => `\\htmlClass{tensor t-head}{\\mathrm{head}_1,\\dots,\\mathrm{head}_{${last}}}`;
  switch (eq.form) {
    case 'scores': {
      const scores = (a, b) => `\\operatorname{softmax}\\!\\left(\\frac{${a}\\,${b}}{\\sqrt{d_k}}\\right)`;
      const kT = (s) => `${s}^{\\top}`;
      return {
        symbolic: `${res}=${scores(symbol('Qi'), kT(symbol('Ki')))}${R('Ai')}`,
        live: `${res}=\\operatorname{softmax}\\!\\big(${under('Qi')}\\,\\underbrace{${kT(symbol('Ki'))}}_{${size([...sizes.Ki].reverse(), int)}}\\big)${live('Ai')}`,
      };
    }
    case 'each':
      return {
        symbolic: `${res}=${symbol('Ai')}\\,${symbol('Vi')}${R('head')},\\quad i=1,\\dots,h`,
        live: `${heads(int(h))}${live('head')}\\ \\text{each}`,
      };
    case 'concat':
      return {
        symbolic: `${res}(${heads('h')})${R('concat')}`,
        live: `${res}\\big(\\underbrace{${heads(int(h))}}_{${int(h)}\\times(${size(sizes.head, int)})}\\big)${live('concat')}`,
      };
    default: // a product of two tensors
      return {
        symbolic: `${res}=${eq.terms.map(symbol).join('\\,')}${R(eq.result)}`,
        live: `${under(eq.result)}=${eq.terms.map(under).join('\\,')}`,
      };
  }
}

/** The stage a chapter step shows: its id's last part when that is a stage ('heads.concat' → 'concat'), else null (all). */
export function stageOfStep(stepId) {
  const name = String(stepId ?? '').split('.').pop();
  return STAGES.includes(name) ? name : null;
}
