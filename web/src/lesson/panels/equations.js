// The words of the equations panel (features/equations/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'equations.scaled_dot_product_attention': 'Scaled dot-product attention',
  'equations.operatorname_q_k_v':
    '\\operatorname{Attention}(Q,K,V)=\\operatorname{softmax}\\!\\left(\\frac{QK^{\\top}}{\\sqrt{d_k}}+M\\right)V',
  'equations.mask_m_0_where':
    'The mask M is 0 where a query may look and −∞ where it may not, so masked keys get weight exactly 0.',
  'equations.begin_mathrm_i_operatorname':
    '\\begin{gathered}\\mathrm{head}_i=\\operatorname{Attention}\\!\\left(X_q W_i^{Q},\\; X_k W_i^{K},\\; X_v W_i^{V}\\right)\\\\ W_i^{Q},\\,W_i^{K}\\in\\mathbb{R}^{d_{\\text{model}}\\times d_k},\\quad W_i^{V}\\in\\mathbb{R}^{d_{\\text{model}}\\times d_v}\\end{gathered}',
  'equations.self_attention_q_k':
    'In self-attention X_q = X_k = X_v; in cross-attention the queries come from the decoder and the keys and values from the encoder.',
  'equations.begin_operatorname_operatorname_mathrm':
    '\\begin{gathered}\\operatorname{MultiHead}=\\operatorname{Concat}(\\mathrm{head}_1,\\dots,\\mathrm{head}_h)\\,W^{O}\\\\ W^{O}\\in\\mathbb{R}^{h d_v\\times d_{\\text{model}}}\\end{gathered}',
  'equations.every_head_sees_whole':
    'Every head sees the whole sequence through its own small projections; Wᴼ mixes what they found.',
  'equations.sinusoidal_positional_encoding': 'Sinusoidal positional encoding',
  'equations.begin_pe_sin_left':
    '\\begin{gathered}PE_{(pos,\\,2i)}=\\sin\\!\\left(\\frac{pos}{10000^{2i/d_{\\text{model}}}}\\right)\\\\ PE_{(pos,\\,2i+1)}=\\cos\\!\\left(\\frac{pos}{10000^{2i/d_{\\text{model}}}}\\right)\\end{gathered}',
  'equations.added_each_word_s':
    'Added to each word’s embedding, so the same word at two positions gives two different tokens.',
  'equations.formulas_are_shown_tex':
    'The formulas are shown as TeX source: the typesetter could not load ({message}).',
  'equations.underbrace_times_underbrace_times':
    '\\underbrace{Q}_{{n_q}\\times {d_k}}\\;\\underbrace{K^{\\top}}_{{d_k}\\times {n_k}}',
  'equations.text': '\\;(\\text{not scaled})',
  'equations.underbrace_times_underbrace_times_2':
    '\\;\\to\\;\\underbrace{A}_{{n_q}\\times {n_k}}\\;\\underbrace{V}_{{n_k}\\times {d_v}}\\;=\\;{n_q}\\times {d_v}',
  'equations.w_i_times_quad':
    'W_i^{Q}: {d_model}\\times {d_k},\\quad W_i^{V}: {d_model}\\times {d_v},\\quad i=1,\\dots,{n_heads}',
  'equations.operatorname_times_quad_w':
    '\\operatorname{Concat}: {n_q}\\times {n_heads_d_v},\\quad W^{O}: {n_heads_d_v}\\times {d_model},\\quad \\text{output}: {n_q}\\times {d_model}',
  'equations.text_2_pi_dots':
    '\\text{wavelengths } 2\\pi \\;\\dots\\; 2\\pi\\cdot 10000^{{value}/{d_model}}\\approx {value2}',
  'equations.one_head': 'One head',
  'equations.multi_head_attention': 'Multi-head attention',
  'equations.now': '\\text{now: }', // before each formula with the current sizes (TeX)
});
