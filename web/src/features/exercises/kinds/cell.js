// The input of a `cell` exercise: a small map of the layer's rows (queries) and columns (keys) where only
// the asked query's row can be picked, plus the key's index to type (the only input for a large layer).
// Every key is written whole: the column headers run upwards (one narrow column per key, so ten keys fit
// a 320-px phone), and a grid wider than its card scrolls sideways with the scroll cue (styles.css).

import { text } from '../../../lesson/panels/exercises.js';

const MAX_GRID_SIDE = 16; // a bigger layer gets the asked row only, and the index typed in
const MAX_ROW_CELLS = 64; // a longer row is not drawn at all: the key's index is typed

/** { field, read() → the key's index typed or picked }; entry.grid keeps the table for paintRow. */
export function cellInput(dom, item, entry) {
  const { h } = dom;
  const { rows, cols, row, labels_q, labels_k } = item.grid;
  const whole = rows <= MAX_GRID_SIDE && cols <= MAX_GRID_SIDE;
  const keyName = (j) => (labels_k ? `${labels_k[j]} (${j})` : `key ${j}`);
  const buttons = [];
  const typed = h('input', { type: 'text', name: 'cell', inputmode: 'numeric', size: 4, autocomplete: 'off' });
  const pick = (j, focus) => {
    entry.selected = j;
    typed.value = String(j);
    buttons.forEach((b, k) => {
      b.setAttribute('aria-pressed', String(k === j));
      b.tabIndex = k === j ? 0 : -1;
    });
    if (focus) buttons[j]?.focus();
  };
  // The asked row's cells are buttons (←/→, Home and End move along it); the other rows are context.
  const cell = (j) => {
    const b = h('button', { type: 'button', 'aria-pressed': 'false', tabindex: j === 0 ? '0' : '-1', 'aria-label': keyName(j), dataset: { key: j },
      onclick: () => pick(j, false),
      onkeydown: (e) => {
        const next = { ArrowRight: j + 1, ArrowLeft: j - 1, Home: 0, End: cols - 1 }[e.key];
        if (next === undefined) return;
        e.preventDefault();
        pick(Math.max(0, Math.min(cols - 1, next)), true);
      } });
    buttons[j] = b;
    return h('td', { dataset: { key: j } }, b);
  };
  const cellRow = (i) => h('tr', { class: i === row ? 'asked' : '' },
    h('th', { scope: 'row' }, labels_q ? labels_q[i] : `${i}`),
    Array.from({ length: cols }, (_, j) => (i === row ? cell(j) : h('td', { 'aria-hidden': 'true' }))));
  const shownRows = whole ? Array.from({ length: rows }, (_, i) => i) : [row];
  // A table of its own (caption and corner header read out, not shown): rows are queries, columns keys.
  const table = h('table', { class: 'ex-grid' },
    h('caption', { class: 'ex-unseen' }, text('exercises.row_query_pick_key', { part: labels_q ? labels_q[row] : row })),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, h('span', { class: 'ex-unseen' }, text('exercises.grid_corner'))),
      Array.from({ length: cols }, (_, j) => h('th', { scope: 'col', class: 'ex-key', title: keyName(j) }, labels_k ? labels_k[j] : `${j}`)))),
    h('tbody', {}, shownRows.map(cellRow)));
  entry.grid = table;
  typed.addEventListener('input', () => {
    const j = Number(typed.value);
    if (Number.isInteger(j) && j >= 0 && j < cols) pick(j, false);
  });
  return { field: [cols <= MAX_ROW_CELLS ? h('div', { class: 'ex-grid-wrap' }, table) : null, h('label', {}, text('exercises.key_index_0', { value: cols - 1 }), typed)], read: () => typed.value };
}

/** After the reveal, the asked row shows the core's weights (darker = larger) and the expected cell. */
export function paintRow(entry, item, r) {
  const max = Math.max(...r.weights) || 1;
  for (const td of entry.grid.querySelectorAll('tr.asked td')) {
    const j = Number(td.dataset.key);
    td.style.background = `color-mix(in srgb, var(--accent) ${Math.round((r.weights[j] / max) * 80)}%, transparent)`;
    td.classList.toggle('expected', j === r.expected);
    td.title = text('exercises.grid_weight', { weight: r.weights[j].toFixed(3) });
  }
}
