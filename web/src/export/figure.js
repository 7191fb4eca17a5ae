// Figures for papers and slides: an attention map as a standalone SVG (cells as rectangles in the
// page's colour scale, the title, the axes named and labelled with the tokens, and the colour bar with
// its ends), and any SVG as a PNG at 2× (drawn on a canvas). Tables as CSV. The numbers are the
// compute's result (the heatmaps' item); this only lays them out, with the page's own colour mapping
// (model/colorscale.js and render/viridis_lut.js) so the file shows what the page shows.

import { colorPositions, legendEnds } from '../model/colorscale.js';
import { VIRIDIS_LUT } from '../render/viridis_lut.js';
import { esc, clipText } from './xml.js';

export const THEMES = Object.freeze({
  light: { background: '#ffffff', text: '#1b2230', masked: '#c9c9c9' },
  dark: { background: '#0f1217', text: '#e5e8ee', masked: '#5c5c5c' },
});

const hex = (t) => {
  const i = Math.round(Math.min(1, Math.max(0, t)) * 255) * 3;
  return `#${[0, 1, 2].map((k) => VIRIDIS_LUT[i + k].toString(16).padStart(2, '0')).join('')}`;
};
const fixed = (v) => (v < 0.001 ? v.toFixed(6) : v.toFixed(3));
const MAX_LABELLED = 48; // as the page: more tokens than this and labels would overlap
const LABEL_CHARS = 16;   // a label's room (110 px at ~7 px a character), as the page clips them

/**
 * One head's map as SVG: { title, data (rows × cols weights), rows, cols, masked (Uint8Array or null),
 * rowLabels, colLabels (or null), scale: 'linear' | 'log' | 'row', max (the page's scale maximum),
 * axes: [y name, x name], theme: THEMES entry, cell: px }. Returns { svg, width, height, cellAt(r, c) → { x, y, size, fill } }.
 */
export function heatmapSvg({ title, data, rows, cols, masked = null, rowLabels = null, colLabels = null, scale = 'linear', max = 1,
  axes = ['queries', 'keys'], theme = THEMES.light, cell = null }) {
  const size = cell ?? Math.max(4, Math.min(36, Math.floor(480 / Math.max(rows, cols))));
  const labelled = rowLabels && colLabels && rows <= MAX_LABELLED && cols <= MAX_LABELLED;
  if (labelled) [rowLabels, colLabels] = [rowLabels.map((s) => clipText(s, LABEL_CHARS)), colLabels.map((s) => clipText(s, LABEL_CHARS))];
  const longest = (list) => Math.min(110, 7 * Math.max(1, ...list.map((s) => s.length)));
  const left = 24 + (labelled ? longest(rowLabels) + 8 : 0);
  const top = 34 + (labelled ? Math.ceil(longest(colLabels) * 0.72) + 14 : 0);
  const plotW = cols * size, plotH = rows * size;
  const barX = left + plotW + 28, barW = 14;
  const width = barX + barW + 70, height = top + plotH + 34;
  const t = colorPositions(data, rows, cols, scale, max);
  const out = [];
  const cellAt = (r, c) => ({ x: left + c * size, y: top + r * size, size, fill: masked?.[r * cols + c] ? theme.masked : hex(t[r * cols + c]) });
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`);
  out.push(`<title>${esc(title)}</title>`);
  out.push(`<rect width="${width}" height="${height}" fill="${theme.background}"/>`);
  out.push(`<text x="${left}" y="20" font-size="14" font-weight="600" fill="${theme.text}">${esc(title)}</text>`);
  out.push('<g shape-rendering="crispEdges">');
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const { x, y, fill } = cellAt(r, c);
      out.push(`<rect x="${x}" y="${y}" width="${size}" height="${size}" fill="${fill}"><title>${esc(fixed(data[r * cols + c]))}</title></rect>`);
    }
  }
  out.push('</g>');
  if (labelled) {
    rowLabels.forEach((s, i) => out.push(`<text x="${left - 5}" y="${top + (i + 0.5) * size}" text-anchor="end" dominant-baseline="middle" fill="${theme.text}">${esc(s)}</text>`));
    colLabels.forEach((s, j) => {
      const x = left + (j + 0.5) * size, y = top - 5;
      out.push(`<text x="${x}" y="${y}" transform="rotate(-45 ${x} ${y})" fill="${theme.text}">${esc(s)}</text>`);
    });
  }
  // axis names: queries down, keys across (as the page says)
  out.push(`<text x="${left + plotW / 2}" y="${top + plotH + 22}" text-anchor="middle" fill="${theme.text}">${esc(axes[1])} →</text>`);
  out.push(`<text x="12" y="${top + plotH / 2}" transform="rotate(-90 12 ${top + plotH / 2})" text-anchor="middle" fill="${theme.text}">← ${esc(axes[0])}</text>`);
  // colour bar: the scale's 0..1 from bottom to top, with the page's legend ends
  const stops = Array.from({ length: 11 }, (_, k) => `<stop offset="${k / 10}" stop-color="${hex(1 - k / 10)}"/>`).join('');
  out.push(`<defs><linearGradient id="scale" x1="0" y1="0" x2="0" y2="1">${stops}</linearGradient></defs>`);
  out.push(`<rect x="${barX}" y="${top}" width="${barW}" height="${plotH}" fill="url(#scale)"/>`);
  const [low, high] = legendEnds(scale, max, fixed);
  out.push(`<text x="${barX + barW + 4}" y="${top + 9}" fill="${theme.text}">${esc(high)}</text>`);
  out.push(`<text x="${barX + barW + 4}" y="${top + plotH}" fill="${theme.text}">${esc(low)}</text>`);
  out.push('</svg>');
  return { svg: out.join('\n'), width, height, cellAt };
}

/**
 * Several figures (heatmapSvg results) as one: a grid of nested SVGs under one title, `across` per row
 * (about square by default). → { svg, width, height }.
 */
export function figureGrid({ title, tiles, theme, across = Math.ceil(Math.sqrt(tiles.length)) }) {
  const tileW = Math.max(...tiles.map((t) => t.width)), tileH = Math.max(...tiles.map((t) => t.height));
  const top = 34, width = across * tileW, height = top + Math.ceil(tiles.length / across) * tileH;
  // each tile's colour-bar gradient gets its own id (ids are per document)
  const body = tiles.map((t, k) => t.svg.replace('<svg ', `<svg x="${(k % across) * tileW}" y="${top + Math.floor(k / across) * tileH}" `)
    .replace('id="scale"', `id="scale-${k}"`).replace('url(#scale)', `url(#scale-${k})`));
  return { width, height, svg: [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<title>${esc(title)}</title>`, `<rect width="${width}" height="${height}" fill="${theme.background}"/>`,
    `<text x="12" y="22" font-size="15" font-weight="600" fill="${theme.text}">${esc(title)}</text>`, ...body, '</svg>'].join('\n') };
}

/** An SVG text as a PNG Blob at `scale` × its size (2 for print), drawn by the browser. */
export async function svgToPng(svg, width, height, win, scale = 2) {
  const url = win.URL.createObjectURL(new win.Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new win.Image();
    img.src = url;
    await img.decode();
    const canvas = win.document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const ctx = canvas.getContext('2d');
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be made'))), 'image/png'));
  } finally {
    win.URL.revokeObjectURL(url);
  }
}

/** A table element's cells as CSV (header row first; quotes where a cell needs them). */
export function tableCsv(table) {
  const cell = (s) => {
    const text = String(s).replace(/\s+/g, ' ').trim();
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return `${[...table.querySelectorAll('tr')].map((tr) => [...tr.children].map((td) => cell(td.textContent)).join(',')).join('\n')}\n`;
}
