// The equations of the lesson, typeset by the locally served KaTeX, each followed by the same
// formula with the current sizes filled in, so the symbols always have numbers attached.

import * as fmt from '../../model/format.js';

const EQUATIONS = [
  { title: 'Scaled dot-product attention', tex: String.raw`\operatorname{Attention}(Q,K,V)=\operatorname{softmax}\!\left(\frac{QK^{\top}}{\sqrt{d_k}}+M\right)V`,
    text: 'The mask M is 0 where a query may look and −∞ where it may not, so masked keys get weight exactly 0.' },
  { title: 'One head', tex: String.raw`\begin{gathered}\mathrm{head}_i=\operatorname{Attention}\!\left(X_q W_i^{Q},\; X_k W_i^{K},\; X_v W_i^{V}\right)\\ W_i^{Q},\,W_i^{K}\in\mathbb{R}^{d_{\text{model}}\times d_k},\quad W_i^{V}\in\mathbb{R}^{d_{\text{model}}\times d_v}\end{gathered}`,
    text: 'In self-attention X_q = X_k = X_v; in cross-attention the queries come from the decoder and the keys and values from the encoder.' },
  { title: 'Multi-head attention', tex: String.raw`\begin{gathered}\operatorname{MultiHead}=\operatorname{Concat}(\mathrm{head}_1,\dots,\mathrm{head}_h)\,W^{O}\\ W^{O}\in\mathbb{R}^{h d_v\times d_{\text{model}}}\end{gathered}`,
    text: 'Every head sees the whole sequence through its own small projections; Wᴼ mixes what they found.' },
  { title: 'Sinusoidal positional encoding', tex: String.raw`\begin{gathered}PE_{(pos,\,2i)}=\sin\!\left(\frac{pos}{10000^{2i/d_{\text{model}}}}\right)\\ PE_{(pos,\,2i+1)}=\cos\!\left(\frac{pos}{10000^{2i/d_{\text{model}}}}\right)\end{gathered}`,
    text: 'Added to each word’s embedding, so the same word at two positions gives two different tokens.' },
];

export function create(body, { dom, host }) {
  const { h, fill } = dom;
  let view = null;
  // Focusable boxes: a formula wider than a phone scrolls sideways inside its box, which the keyboard must reach.
  const blocks = EQUATIONS.map((eq) => ({ ...eq,
    math: h('div', { class: 'math', role: 'math', tabindex: '0', 'aria-label': eq.title }), live: h('div', { class: 'math live', tabindex: '0' }) }));
  fill(body, blocks.map((b) => h('div', { class: 'equation' }, h('h3', {}, b.title), b.math, h('p', { class: 'note' }, b.text), b.live)));
  let katex = null;
  let lastLive = '';

  const typeset = (el, tex) => {
    if (katex) katex.render(tex, el, { displayMode: true, throwOnError: false, output: 'htmlAndMathml' });
    else el.textContent = tex;
  };

  for (const b of blocks) b.math.textContent = b.tex; // readable even before (or without) the typesetter
  // KaTeX is the largest script a playground can use: fetched only by one that shows this panel (a
  // lazy panel, built after the first result). Its fonts are declared in the document, because font
  // faces declared inside a shadow root are not used.
  Promise.all([host.importVendor('vendor/katex/katex.mjs'), host.loadStyle('vendor/katex/katex.min.css'), host.loadDocumentStyle('vendor/katex/fonts.css')]).then(([mod]) => {
    katex = mod.default;
    for (const b of blocks) typeset(b.math, b.tex);
    lastLive = '';
    if (view) update(view);
  }, (err) => {
    body.prepend(h('p', { class: 'note' }, `The formulas are shown as TeX source: the typesetter could not load (${err.message}).`));
  });

  function update(v) {
    view = v;
    const { check } = v;
    const c = check?.config, w = check?.analysis?.derived; // w: the widths and the encoding's wavelength, the core's
    const key = c && w ? JSON.stringify([c.d_model, c.n_heads, c.d_k, c.d_v, c.n_q, c.n_k, c.scale]) : '';
    if (key === lastLive || !katex) return;
    lastLive = key;
    if (!c || !w) {
      for (const b of blocks) fill(b.live);
      return;
    }
    const n = (x) => fmt.int(x).replace(/,/g, '{,}');
    const slowest = w.encoding_slowest_pair; // the last sine/cosine pair
    const live = [
      // Without the scale the scores are Q·Kᵀ itself: the live line must not divide.
      String.raw`\underbrace{Q}_{${n(c.n_q)}\times ${n(c.d_k)}}\;\underbrace{K^{\top}}_{${n(c.d_k)}\times ${n(c.n_k)}}` +
      (c.scale ? String.raw`\;/\;\sqrt{${n(c.d_k)}}` : String.raw`\;(\text{not scaled})`) + String.raw`\;\to\;\underbrace{A}_{${n(c.n_q)}\times ${n(c.n_k)}}\;\underbrace{V}_{${n(c.n_k)}\times ${n(c.d_v)}}\;=\;${n(c.n_q)}\times ${n(c.d_v)}`,
      String.raw`W_i^{Q}: ${n(c.d_model)}\times ${n(c.d_k)},\quad W_i^{V}: ${n(c.d_model)}\times ${n(c.d_v)},\quad i=1,\dots,${c.n_heads}`,
      String.raw`\operatorname{Concat}: ${n(c.n_q)}\times ${n(w.v_width)},\quad W^{O}: ${n(w.v_width)}\times ${n(c.d_model)},\quad \text{output}: ${n(c.n_q)}\times ${n(c.d_model)}`,
      String.raw`\text{wavelengths } 2\pi \;\dots\; 2\pi\cdot 10000^{${n(2 * slowest)}/${n(c.d_model)}}\approx ${n(Math.round(w.encoding_wavelength))}`,
    ];
    blocks.forEach((b, i) => typeset(b.live, String.raw`\text{now: }` + live[i]));
  }

  return { update };
}
