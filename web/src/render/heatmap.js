// Canvas heatmap of one attention matrix (rows = queries, columns = keys) in viridis, with masked
// cells in grey, optional word labels, and a cursor driven by pointer or keyboard. It draws, nothing else.

import { VIRIDIS_LUT } from './viridis_lut.js'; // the table alone: viridis.js's arithmetic is not run in the first view
import { followWidth } from './follow_width.js';
import { fitLabel } from './fit_label.js';

const LABEL_FONT = '12px system-ui, sans-serif';
const LABEL_ROOM = 110; // px a label may take (left of the rows, above the columns)
const UPRIGHT_TOP = 18; // px above the cells for upright column labels (one line)
const MAX_LABELLED = 48; // beyond this many tokens per axis, labels would overlap: the readout names them

/** Checks a heatmap's input and throws a message naming the mismatch (renderers trust nothing). */
export function checkGrid({ rows, cols, data, masked }) {
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 1 || cols < 1) {
    throw new Error(`heatmap: rows and cols must be whole numbers ≥ 1, got ${rows}×${cols}`);
  }
  if (!(data instanceof Float32Array) || data.length !== rows * cols) {
    throw new Error(`heatmap: expected ${rows}×${cols} = ${rows * cols} values, got ${data?.length}`);
  }
  if (masked && masked.length !== rows * cols) throw new Error(`heatmap: mask has ${masked.length} cells, expected ${rows * cols}`);
}

let captions = 0; // ids given to captions that name a map

export class Heatmap {
  /**
   * canvas: the element to draw on (it gets tabindex and keyboard handling).
   * options: { labels: draw word labels, maxHeight: px, onCursor({ r, c } | null), onPick() }.
   */
  constructor(canvas, { labels = false, maxHeight = 640, onCursor = () => {}, onPick = () => {} } = {}) {
    this.canvas = canvas;
    this.labels = labels;
    this.maxHeight = maxHeight;
    this.onCursor = onCursor;
    this.onPick = onPick;
    this.grid = null;
    this.cursor = null;
    this.layout = null;
    canvas.tabIndex = 0;
    canvas.addEventListener('pointermove', (e) => this.#pointer(e));
    canvas.addEventListener('pointerleave', () => { if (canvas.getRootNode().activeElement !== canvas) this.setCursor(null); });
    canvas.addEventListener('click', (e) => { this.#pointer(e); this.onPick(); });
    canvas.addEventListener('keydown', (e) => this.#key(e));
    canvas.addEventListener('focus', () => {
      // A ring that shows on any map, drawn inline: a panel's own outline (a small map's 1 px border,
      // the selected map's accent) would otherwise hide the page's focus style.
      if (canvas.matches(':focus-visible')) Object.assign(canvas.style, { outline: '3px solid var(--fg, currentColor)', outlineOffset: '3px' });
      if (!this.cursor && this.grid) this.setCursor({ r: 0, c: 0 });
    });
    canvas.addEventListener('blur', () => {
      canvas.style.removeProperty('outline');
      canvas.style.removeProperty('outline-offset');
      this.setCursor(null);
    });
  }

  /** A tab stop needs a name: the canvas's own aria-label, else the caption of the figure it sits in. */
  #name() {
    const { canvas } = this;
    if (canvas.hasAttribute('aria-label') || canvas.hasAttribute('aria-labelledby')) return;
    const caption = canvas.closest('figure')?.querySelector(':scope > figcaption');
    if (!caption) {
      canvas.setAttribute('aria-label', 'attention weights: arrow keys move between cells');
      return;
    }
    if (!caption.id) caption.id = `heat-caption-${++captions}`;
    canvas.setAttribute('aria-labelledby', caption.id);
  }

  /**
   * grid: { rows, cols, data: Float32Array [rows*cols], masked: Uint8Array | null, min, max,
   * rowLabels, colLabels (string arrays or null), colors: { masked, text, cursor, background } }.
   */
  setData(grid, width) {
    checkGrid(grid);
    this.grid = grid;
    this.#name();
    if (this.cursor && (this.cursor.r >= grid.rows || this.cursor.c >= grid.cols)) this.cursor = null;
    const drawnIn = this.draw(width);
    // Redrawn when the space it is drawn in changes width (a resize, a rotated phone, a host's column),
    // starting from the width it was just drawn in, which is that space's.
    const box = this.canvas.parentElement;
    if (!this.following && box) {
      this.box = box;
      this.width = drawnIn;
      this.following = followWidth(box, (width) => { this.width = width; this.draw(width); }, drawnIn);
    }
  }

  /**
   * The width there is to draw in (the parent's): read once, then kept as followWidth reports it, so a
   * redraw with new data costs no layout (each read after another panel's writes was one: ~15 per edit
   * on the every-panel page). A width that changes with the same update is seen by followWidth before
   * the frame is painted, and drawn again. A canvas moved to another box reads that box's.
   */
  available() {
    const box = this.canvas.parentElement;
    return Math.max(40, (box === this.box && this.width) || box?.clientWidth || 200);
  }

  setCursor(cell) {
    const same = cell && this.cursor && cell.r === this.cursor.r && cell.c === this.cursor.c;
    if (same || (!cell && !this.cursor)) return;
    this.cursor = cell;
    this.draw();
    this.onCursor(cell);
  }

  /** Redraws in `available` px of width (default: the parent's width now; call after a resize); returns that width. */
  draw(available = this.available()) {
    const { canvas, grid } = this;
    if (!grid) return;
    const ctx = canvas.getContext('2d');
    const dpr = canvas.ownerDocument.defaultView?.devicePixelRatio || 1;
    // Sized from the parent's width, so a map limited by maxHeight shrinks to its cells
    // (no empty strip beside it) and a resize is measured from the space, not from the last drawing.
    const withLabels = this.labels && grid.rowLabels && grid.colLabels && grid.rows <= MAX_LABELLED && grid.cols <= MAX_LABELLED;
    // The label font only where there are labels: setting a canvas's font makes the browser bring the
    // page's styles up to date, a layout per small map when each drawing has just resized its canvas.
    if (withLabels) ctx.font = LABEL_FONT;
    // Each label fitted once to its 110 px (render/fit_label.js: a few measurements, however long it is).
    const measure = (s) => ctx.measureText(s).width;
    const rowText = withLabels ? grid.rowLabels.map((s) => fitLabel(measure, s, LABEL_ROOM)) : [];
    const colText = withLabels ? grid.colLabels.map((s) => fitLabel(measure, s, LABEL_ROOM)) : [];
    const longest = (list) => Math.min(LABEL_ROOM, Math.max(0, ...list.map(measure)));
    const left = withLabels ? Math.ceil(longest(rowText)) + 8 : 0;
    // Column labels upright when each fits its cell's width (a few heads' numbers), else at 45°.
    const upright = withLabels && longest(colText) + 4 <= Math.min((available - left) / grid.cols, (this.maxHeight - UPRIGHT_TOP) / grid.rows);
    const top = upright ? UPRIGHT_TOP : withLabels ? Math.ceil(longest(colText) * 0.72) + 14 : 0;
    // Room on the right for the last column's label, written at 45° from its cell's middle: its length
    // times cos 45°, and a few pixels for the height of its letters.
    const slant = withLabels && !upright ? Math.ceil(0.72 * longest([colText[grid.cols - 1]])) + 4 : 0;
    const plotW = Math.max(20, available - left - slant);
    const cell = Math.min(plotW / grid.cols, (this.maxHeight - top) / grid.rows);
    const plotH = cell * grid.rows, usedW = cell * grid.cols;
    const width = Math.floor(left + usedW + slant);
    const height = Math.ceil(top + plotH);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    this.layout = { left, top, cell, rows: grid.rows, cols: grid.cols };

    // Cells at one pixel each, then scaled up without smoothing: crisp blocks at any size.
    const image = new ImageData(grid.cols, grid.rows);
    const span = grid.max - grid.min || 1;
    const maskedRgb = parseColor(grid.colors?.masked ?? '#9a9a9a');
    for (let k = 0; k < grid.rows * grid.cols; k++) {
      let r, g, b;
      if (grid.masked && grid.masked[k]) [r, g, b] = maskedRgb;
      else {
        const t = Math.round(Math.min(1, Math.max(0, (grid.data[k] - grid.min) / span)) * 255) * 3;
        r = VIRIDIS_LUT[t]; g = VIRIDIS_LUT[t + 1]; b = VIRIDIS_LUT[t + 2];
      }
      image.data[k * 4] = r; image.data[k * 4 + 1] = g; image.data[k * 4 + 2] = b; image.data[k * 4 + 3] = 255;
    }
    const small = new OffscreenCanvas(grid.cols, grid.rows);
    small.getContext('2d').putImageData(image, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(small, left, top, usedW, plotH);

    if (withLabels) {
      // Again: sizing the canvas above reset its context, font included (to 10px sans-serif, smaller
      // than the labels were measured in).
      ctx.font = LABEL_FONT;
      ctx.fillStyle = grid.colors?.text ?? '#333';
      ctx.textBaseline = 'middle';
      ctx.textAlign = 'right';
      rowText.forEach((s, i) => ctx.fillText(s, left - 5, top + (i + 0.5) * cell));
      ctx.textAlign = upright ? 'center' : 'left';
      colText.forEach((s, j) => {
        ctx.save();
        ctx.translate(left + (j + 0.5) * cell, top - (upright ? 9 : 5));
        if (!upright) ctx.rotate(-Math.PI / 4);
        ctx.fillText(s, 0, 0);
        ctx.restore();
      });
    }
    if (this.cursor) {
      const { r, c } = this.cursor;
      const x = left + c * cell, y = top + r * cell, s = Math.max(cell, 3);
      ctx.lineWidth = 2;
      ctx.strokeStyle = '#000';
      ctx.strokeRect(x - 1, y - 1, s + 2, s + 2);
      ctx.strokeStyle = '#fff';
      ctx.lineWidth = 1.5;
      ctx.strokeRect(x + 0.5, y + 0.5, s - 1, s - 1);
    }
    return available;
  }

  #pointer(e) {
    const L = this.layout;
    if (!L) return;
    const rect = this.canvas.getBoundingClientRect();
    const c = Math.floor((e.clientX - rect.left - L.left) / L.cell);
    const r = Math.floor((e.clientY - rect.top - L.top) / L.cell);
    this.setCursor(r >= 0 && c >= 0 && r < L.rows && c < L.cols ? { r, c } : null);
  }

  #key(e) {
    if (!this.grid) return;
    const { rows, cols } = this.grid;
    const step = e.shiftKey ? Math.max(1, Math.round(Math.min(rows, cols) / 8)) : 1;
    const cur = this.cursor ?? { r: 0, c: 0 };
    const moves = {
      ArrowUp: [-step, 0], ArrowDown: [step, 0], ArrowLeft: [0, -step], ArrowRight: [0, step],
      Home: [0, -cols], End: [0, cols], PageUp: [-rows, 0], PageDown: [rows, 0],
    };
    if (moves[e.key]) {
      e.preventDefault();
      const [dr, dc] = moves[e.key];
      this.setCursor({ r: clamp(cur.r + dr, 0, rows - 1), c: clamp(cur.c + dc, 0, cols - 1) });
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.onPick();
    }
  }
}

const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));

/** '#rrggbb' or 'rgb(r, g, b)' → [r, g, b]. */
export function parseColor(css) {
  const s = String(css).trim();
  if (/^#[0-9a-f]{6}$/i.test(s)) return [1, 3, 5].map((i) => parseInt(s.slice(i, i + 2), 16));
  const m = s.match(/rgba?\(\s*(\d+)[,\s]+(\d+)[,\s]+(\d+)/i);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [154, 154, 154];
}

/** Draws a horizontal colour bar of the palette into `canvas` (for legends). */
export function drawColorbar(canvas) {
  const width = 256;
  canvas.width = width;
  canvas.height = 1;
  const image = new ImageData(width, 1);
  for (let x = 0; x < width; x++) {
    image.data.set([VIRIDIS_LUT[x * 3], VIRIDIS_LUT[x * 3 + 1], VIRIDIS_LUT[x * 3 + 2], 255], x * 4);
  }
  canvas.getContext('2d').putImageData(image, 0, 0);
}
