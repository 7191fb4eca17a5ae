// The "h heads side by side" stage's figure: every head's map of the current run, small, each captioned
// with its job and the size of its map (from the analysis), and under them, in words, where the
// previous-token head's first row puts its weight (it has no previous token). Draws only.

import * as fmt from '../../model/format.js';
import { Heatmap } from '../../render/heatmap.js';
import { firstRowOfPrevious } from '../heatmaps/first_row.js';
import { text } from '../../lesson/panels/derive.js';

/** The jobs a head's caption names (a random head has none). */
const JOBS = ['previous', 'same_word', 'first_token', 'uniform', 'trained'];
/** Beyond this many heads the stage shows the first ones and says how many more. */
const MAX_MAPS = 8;

/** The maps' box: { element, update(result, sizes) }; `host` gives the theme's colours. */
export function headMaps({ h, fill, math }, host) {
  const grid = h('div', { class: 'derive-maps', id: 'derive-maps' });
  const note = h('p', { class: 'note', id: 'derive-maps-note' }, text('derive.maps_waiting'));
  const firstRow = h('p', { class: 'note', id: 'derive-first-row', hidden: true });
  const element = h('div', { class: 'derive-maps-box' }, grid, note, firstRow);
  let drawn = null;
  let figures = [];

  function update(result, sizes) {
    if (!result?.item || !sizes || result === drawn) return;
    drawn = result;
    const { item, config } = result;
    const count = Math.min(config.n_heads, MAX_MAPS);
    const palette = { masked: host.cssVar('--masked'), text: host.cssVar('--fg') };
    // The figures are remade only when the head count changes; a map is redrawn in place (its canvas keeps following its box).
    if (figures.length !== count) {
      figures = Array.from({ length: count }, (_, k) => {
        const canvas = h('canvas');
        const caption = h('figcaption');
        return { figure: h('figure', { class: 'derive-map', dataset: { head: k } }, canvas, caption), canvas, caption, map: new Heatmap(canvas, { labels: false, maxHeight: 140 }) };
      });
      fill(grid, figures.map((f) => f.figure));
      grid.style.setProperty('--cols', String(Math.min(4, Math.max(2, count))));
    }
    const cells = item.rows * item.cols;
    figures.forEach(({ canvas, caption, map }, k) => {
      const job = JOBS.includes(config.heads?.[k]) ? ` · ${text(`derive.job.${config.heads[k]}`)}` : '';
      const size = text('derive.map_size', { head: k + 1, rows: fmt.int(sizes.Ai[0]), cols: fmt.int(sizes.Ai[1]) });
      fill(caption, h('span', {}, text('derive.map_caption', { head: k + 1, job })), h('span', { class: 'derive-map-size' }, math(size)));
      canvas.setAttribute('aria-label', `${text('derive.map_caption', { head: k + 1, job })}, ${size}`);
      map.setData({ rows: item.rows, cols: item.cols, data: Float32Array.from(item.data.subarray(k * cells, (k + 1) * cells)), masked: item.masked,
        min: 0, max: 1, rowLabels: null, colLabels: null, colors: palette });
    });
    note.textContent = config.n_heads > count ? text('derive.maps_first', { shown: count, n_heads: fmt.int(config.n_heads) }) : '';
    note.hidden = !note.textContent;
    const previous = (config.heads ?? []).findIndex((p, k) => p === 'previous' && k < count);
    const row = previous >= 0 ? firstRowOfPrevious(result, previous) : null;
    firstRow.hidden = !row;
    firstRow.textContent = row ? text('derive.first_row', { head: previous + 1, first: row.first, word: row.word, weight: fmt.fixed(row.weight, 2) }) : '';
  }

  return { element, update };
}
