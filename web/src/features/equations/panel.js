// The equations of the lesson, typeset by the locally served KaTeX, each followed by the same
// formula with the current sizes filled in, so the symbols always have numbers attached.

import * as fmt from '../../model/format.js';
import { loadKatex, typeset as typesetWith } from '../../ui/katex.js';
import { text } from '../../lesson/panels/equations.js';
import { textsOf } from '../../lesson/text.js';

// Looked up when drawn (textsOf): an author's or a translator's words registered after this module loaded still show.
const EQUATIONS = [
  textsOf({ title: 'equations.scaled_dot_product_attention', tex: 'equations.operatorname_q_k_v', text: 'equations.mask_m_0_where' }),
  textsOf({ title: 'equations.one_head', tex: 'equations.begin_mathrm_i_operatorname', text: 'equations.self_attention_q_k' }),
  textsOf({ title: 'equations.multi_head_attention', tex: 'equations.begin_operatorname_operatorname_mathrm', text: 'equations.every_head_sees_whole' }),
  textsOf({ title: 'equations.sinusoidal_positional_encoding', tex: 'equations.begin_pe_sin_left', text: 'equations.added_each_word_s' }),
];

const KATEX = { displayMode: true, throwOnError: false, output: 'htmlAndMathml' };

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
    if (katex) typesetWith(katex, el, tex, KATEX);
    else el.textContent = tex;
  };

  for (const b of blocks) b.math.textContent = b.tex; // readable even before (or without) the typesetter
  // KaTeX is the largest script a playground can use: fetched only by one that shows this panel (a
  // lazy panel, built after the first result). Its fonts are declared in the document, because font
  // faces declared inside a shadow root are not used.
  loadKatex(host).then((loaded) => {
    katex = loaded;
    for (const b of blocks) typeset(b.math, b.tex);
    lastLive = '';
    if (view) update(view);
  }, (err) => {
    body.prepend(h('p', { class: 'note' }, text('equations.formulas_are_shown_tex', { message: err.message })));
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
      text('equations.underbrace_times_underbrace_times', { n_q: n(c.n_q), d_k: n(c.d_k), n_k: n(c.n_k) }) +
      (c.scale ? String.raw`\;/\;\sqrt{${n(c.d_k)}}` : text('equations.text')) + text('equations.underbrace_times_underbrace_times_2', { n_q: n(c.n_q), n_k: n(c.n_k), d_v: n(c.d_v) }),
      text('equations.w_i_times_quad', { d_model: n(c.d_model), d_k: n(c.d_k), d_v: n(c.d_v), n_heads: c.n_heads }),
      text('equations.operatorname_times_quad_w', { n_q: n(c.n_q), n_heads_d_v: n(w.v_width), d_model: n(c.d_model) }),
      text('equations.text_2_pi_dots', { value: n(2 * slowest), d_model: n(c.d_model), value2: n(Math.round(w.encoding_wavelength)) }),
    ];
    blocks.forEach((b, i) => typeset(b.live, text('equations.now') + live[i]));
  }

  return { update };
}
