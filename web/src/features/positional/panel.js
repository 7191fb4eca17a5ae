// The positional encoding panel: the encoding the sentence inputs use, drawn position by dimension,
// with its properties measured by the core (bounded, distinct, a shift is a fixed rotation); then the
// methods that act on the logits instead (methods.js): RoPE and ALiBi on a layer's maps, ALiBi's
// slopes and RoPE's logits against the offset i − j, all computed by the engine.

import { Heatmap } from '../../render/heatmap.js';
import { downsampleHeads } from '../../model/downsample.js';
import * as fmt from '../../model/format.js';
import { createMethods } from './methods.js';
import { text } from '../../lesson/panels/positional.js';
import { termList } from '../../ui/term_list.js';
import { stepOf } from '../../lesson/chapters.js';
import { stillAsked } from '../../lesson/covered.js';

const MAX_POSITIONS = 64;
const OFFSET = 3; // the k of "PE(pos + k) is a fixed linear function of PE(pos)"
const MAX_D_MODEL = 16384; // beyond this the table alone is tens of megabytes: not worth freezing the tab
// The part of the panel a step of the chapter is about (data-part on the body: in a step the stylesheet shows
// that part alone, so the step fits one screen; Reference and an author's panels keep the whole panel).
const PART_OF_STEP = { 'positions.order': 'logits', 'positions.sinusoidal': 'encoding', 'positions.logits': 'logits' };
/** The exercise on the encoding's range: the colour scale's ends and the largest |PE| answer it, so they wait for it. */
const RANGE_ASKED = 'positions.range';

export { requests } from './requests.js';

/** The terms of one part of the panel (a step shows its part's list alone: style.css; Reference shows both). */
function partTerms(dom, part, keys) {
  const list = termList(dom, keys);
  list.classList.add(`pe-${part}-terms`);
  return list;
}

export function create(body, { dom, host, actions }) {
  const { h, fill } = dom;
  const canvas = h('canvas', { 'aria-label': text('positional.positional_encoding_positions_down') });
  const readout = h('p', { class: 'readout pe-readout', 'aria-live': 'polite' }, text('positional.point_cell_read_pe'));
  const facts = h('ul', { class: 'facts-list', id: 'pe-facts' });
  const caption = h('figcaption');
  const error = h('p', { class: 'placeholder', hidden: true });
  const figure = h('figure', { class: 'pe-figure' }, caption, canvas);
  const shown = (ok) => { figure.hidden = readout.hidden = facts.hidden = !ok; error.hidden = ok; };
  fill(body,
    h('p', { class: 'lead pe-encoding-lead' }, text('positional.shuffled_tokens_get_same')),
    partTerms(dom, 'encoding', ['pos', 'omega']),
    figure, readout, facts, error);
  const methods = createMethods(dom, host);
  body.append(partTerms(dom, 'logits', ['theta', 'slope', 'offset']), methods.element);
  let data = null, lastKey = '';
  const map = new Heatmap(canvas, { maxHeight: 320, onCursor: (cell) => {
    if (!cell || !data) { readout.textContent = text('positional.point_cell_read_pe'); return; }
    const v = data.grid.data[cell.r * data.grid.cols + cell.c];
    readout.textContent = data.grid.colStep > 1
      ? text('positional.pos_dimensions_mean', { r: cell.r, c_colStep: cell.c * data.grid.colStep, value: Math.min(data.d_model, (cell.c + 1) * data.grid.colStep) - 1, v: fmt.fixed(v, 4) })
      : text('positional.pe_pos_dimension', { r: cell.r, c: cell.c, v: fmt.fixed(v, 4), part: cell.c % 2 ? 'cos' : 'sin' });
  } });

  let measured = null; // { n, d_model, colStep, p }: the encoding's properties for the drawn sizes
  let described = null; // the measurement and the asked state the caption and facts were written for
  /** The caption and the facts, with the range left out while the exercise on it is asked (written when either changes). */
  function describe(view) {
    if (!measured) return;
    const { n, d_model, colStep, p } = measured;
    const asked = stillAsked(view, RANGE_ASKED);
    if (described?.measured === measured && described.asked === asked) return; // a keystroke elsewhere: nothing to rewrite
    described = { measured, asked };
    const sizes = { n, d_model: fmt.int(d_model), part: colStep > 1 ? text('positional.columns_averaged_blocks', { colStep }) : '' };
    caption.textContent = asked ? text('positional.pe_positions_asked', sizes) : text('positional.pe_positions_d_model', sizes);
    fill(facts,
      h('li', {}, asked ? text('positional.largest_after_you_answer') : text('positional.every_value_lies_1', { max_abs: fmt.fixed(p.max_abs, 4) })),
      h('li', {}, text('positional.each_position_distinct_closest', { value: p.closest[0], value2: p.closest[1], min_distance: fmt.num(p.min_distance, 3) })),
      h('li', {}, text('positional.pe_pos_pe_pos', { offset_k: p.offset_k, value: p.rotation_max_error.toExponential(1) })));
  }

  function update(view) {
    const { check, engine, state } = view;
    body.dataset.part = PART_OF_STEP[stepOf(state ?? {}).step?.id] ?? 'all';
    const c = check?.config;
    if (!engine || !c) return;
    methods.update(actions, c);
    const n = Math.min(MAX_POSITIONS, Math.max(16, c.n_q));
    const key = JSON.stringify([n, c.d_model]);
    if (key === lastKey) { describe(view); return; }
    lastKey = key;
    measured = null;
    if (c.d_model > MAX_D_MODEL) {
      shown(false);
      error.textContent = text('positional.d_model_too_wide', { d_model: fmt.int(c.d_model), MAX_D_MODEL: fmt.int(MAX_D_MODEL) });
      return;
    }
    try {
      const pe = engine.positionalEncoding({ n, d_model: c.d_model });
      const cells = downsampleHeads(pe, 1, n, c.d_model);
      data = { d_model: c.d_model, grid: { rows: cells.rows, cols: cells.cols, colStep: cells.colStep, data: cells.data, masked: null, min: -1, max: 1, colors: { text: host.cssVar('--fg') } } };
      map.setData(data.grid);
      measured = { n, d_model: c.d_model, colStep: cells.colStep, p: engine.positionalProperties({ n, d_model: c.d_model, k: OFFSET }) };
      describe(view);
      shown(true);
    } catch (err) {
      shown(false);
      error.textContent = text('positional.no_encoding_these_sizes', { message: err.message });
    }
  }

  // The labels are drawn in the theme's text colour: redraw when the theme changes.
  const offScheme = host.onSchemeChange(() => {
    if (!data) return;
    data.grid.colors = { text: host.cssVar('--fg') };
    map.setData(data.grid);
  });

  return { update, destroy: () => { offScheme(); methods.destroy(); } };
}
