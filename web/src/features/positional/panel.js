// The positional encoding panel: the encoding the sentence inputs use, drawn position by dimension,
// with its properties measured by the core (bounded, distinct, a shift is a fixed rotation); then the
// methods that act on the logits instead (methods.js): RoPE and ALiBi on a layer's maps, ALiBi's
// slopes and RoPE's logits against the offset i − j, all computed by the engine.

import { Heatmap } from '../../render/heatmap.js';
import { downsampleHeads } from '../../model/downsample.js';
import * as fmt from '../../model/format.js';
import { createMethods } from './methods.js';

const MAX_POSITIONS = 64;
const OFFSET = 3; // the k of "PE(pos + k) is a fixed linear function of PE(pos)"
const MAX_D_MODEL = 16384; // beyond this the table alone is tens of megabytes: not worth freezing the tab

export { requests } from './requests.js';

export function create(body, { dom, host, actions }) {
  const { h, fill } = dom;
  const canvas = h('canvas', { 'aria-label': 'positional encoding: positions down, dimensions across' });
  const readout = h('p', { class: 'readout', 'aria-live': 'polite' }, 'Point at a cell to read PE(pos, i).');
  const facts = h('ul', { class: 'facts-list', id: 'pe-facts' });
  const caption = h('figcaption');
  const error = h('p', { class: 'placeholder', hidden: true });
  const figure = h('figure', { class: 'pe-figure' }, caption, canvas);
  const shown = (ok) => { figure.hidden = readout.hidden = facts.hidden = !ok; error.hidden = ok; };
  fill(body,
    h('p', { class: 'lead' }, 'Shuffled tokens get the same weights, just shuffled; so each position adds sines and cosines of different wavelengths, as the sentence inputs do.'),
    figure, readout, facts, error);
  const methods = createMethods(dom, host);
  body.append(methods.element);
  let data = null, lastKey = '';
  const map = new Heatmap(canvas, { maxHeight: 320, onCursor: (cell) => {
    if (!cell || !data) { readout.textContent = 'Point at a cell to read PE(pos, i).'; return; }
    const v = data.grid.data[cell.r * data.grid.cols + cell.c];
    readout.textContent = data.grid.colStep > 1
      ? `pos ${cell.r}, dimensions ${cell.c * data.grid.colStep}–${Math.min(data.d_model, (cell.c + 1) * data.grid.colStep) - 1} (mean): ${fmt.fixed(v, 4)}`
      : `PE(pos ${cell.r}, dimension ${cell.c}) = ${fmt.fixed(v, 4)} (${cell.c % 2 ? 'cos' : 'sin'})`;
  } });

  function update({ check, engine }) {
    const c = check?.config;
    if (!engine || !c) return;
    methods.update(actions, c);
    const n = Math.min(MAX_POSITIONS, Math.max(16, c.n_q));
    const key = JSON.stringify([n, c.d_model]);
    if (key === lastKey) return;
    lastKey = key;
    if (c.d_model > MAX_D_MODEL) {
      shown(false);
      error.textContent = `d_model = ${fmt.int(c.d_model)} is too wide to draw here (up to ${fmt.int(MAX_D_MODEL)}); the encoding is the same formula at any width.`;
      return;
    }
    try {
      const pe = engine.positionalEncoding({ n, d_model: c.d_model });
      const cells = downsampleHeads(pe, 1, n, c.d_model);
      data = { d_model: c.d_model, grid: { rows: cells.rows, cols: cells.cols, colStep: cells.colStep, data: cells.data, masked: null, min: -1, max: 1, colors: { text: host.cssVar('--fg') } } };
      map.setData(data.grid);
      caption.textContent = `PE for ${n} positions × d_model = ${fmt.int(c.d_model)}${cells.colStep > 1 ? ` (columns averaged in blocks of ${cells.colStep})` : ''}; colour from −1 to 1.`;
      const p = engine.positionalProperties({ n, d_model: c.d_model, k: OFFSET });
      fill(facts,
        h('li', {}, `Every value lies in [−1, 1]: the largest |PE| here is ${fmt.fixed(p.max_abs, 4)}.`),
        h('li', {}, `Each position is distinct: the closest two (positions ${p.closest[0]} and ${p.closest[1]}) are still ${fmt.num(p.min_distance, 3)} apart.`),
        h('li', {}, `PE(pos + ${p.offset_k}) is PE(pos) rotated, pair by pair, by a fixed angle: applying that rotation reproduces it to within ${p.rotation_max_error.toExponential(1)}.`));
      shown(true);
    } catch (err) {
      shown(false);
      error.textContent = `No encoding for these sizes: ${err.message}`;
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
