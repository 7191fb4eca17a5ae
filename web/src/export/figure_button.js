// The "Save figure" row a panel puts under a figure: PNG (drawn at 2× for print) and SVG buttons, a
// "light" box for a light figure on a dark page, and a status line. The panel gives a function that
// lays the figure out as SVG for a theme (export/figure.js heatmapSvg, export/chart_svg.js uplotSvg);
// the PNG is that SVG drawn on a canvas at twice its size, so both files carry the same title, axes,
// labels and scale.

import { svgToPng, THEMES } from './figure.js';
import { uplotSvg } from './chart_svg.js';
import { download } from './host.js';

/** The page's theme as shown (its CSS variables), or the light one. */
export function shownTheme(host, light = false) {
  if (light) return THEMES.light;
  return { background: host.cssVar('--bg') || THEMES.light.background, text: host.cssVar('--fg') || THEMES.light.text,
    masked: host.cssVar('--masked') || THEMES.light.masked };
}

/**
 * A row of figure buttons: { dom: the panel's dom helpers, host, id (a prefix for the elements' ids and
 * the file name), make(theme) → { svg, width, height } or null when there is nothing to save yet }.
 * Returns the row's element (to put under the figure).
 */
export function figureButtons({ dom, host, id, make, label = 'Save figure:' }) {
  const { h, fill } = dom;
  const light = h('input', { type: 'checkbox', id: `${id}-light` });
  const status = h('span', { class: 'note', id: `${id}-status`, 'aria-live': 'polite' });
  const save = async (kind, doc) => {
    const win = doc.defaultView;
    const made = make(shownTheme(host, light.checked));
    if (!made) {
      fill(status, ' Nothing to save yet.');
      return;
    }
    const name = `${id}.${kind}`;
    try {
      const blob = kind === 'svg' ? new win.Blob([made.svg], { type: 'image/svg+xml' }) : await svgToPng(made.svg, made.width, made.height, win, 2);
      download(doc, blob, name);
      fill(status, ` Saved ${name} (${kind === 'png' ? `${made.width * 2} × ${made.height * 2} px` : `${made.width} × ${made.height}`}).`);
    } catch (err) {
      fill(status, ` The figure could not be made: ${err.message}`);
    }
  };
  const button = (kind, text) => h('button', { type: 'button', class: 'secondary figure-save', id: `${id}-${kind}`,
    onclick: (e) => save(kind, e.currentTarget.ownerDocument) }, text);
  return h('p', { class: 'figure-buttons', dataset: { figure: id } }, `${label} `, button('png', 'PNG (2×)'), ' ', button('svg', 'SVG'), ' ',
    h('label', {}, light, ' light'), status);
}

/** figureButtons for a uPlot chart: plot() → the chart (or null before it is drawn). */
export function chartButtons({ dom, host, id, title, plot }) {
  return figureButtons({ dom, host, id, make: (theme) => { const u = plot(); return u ? uplotSvg(u, { title: typeof title === 'function' ? title() : title, theme }) : null; } });
}
