// A uPlot chart as a standalone SVG figure: its series as paths (and dots where the chart draws points),
// its axes with the ticks and labels uPlot chose, a title and a legend. Nothing is recomputed: the data,
// the scales (valToPos), the ticks (each axis's splits and values) and the colours are what the chart
// holds, so the figure shows what the page shows, at any size.

import { esc } from './xml.js';

const r1 = (v) => Math.round(v * 10) / 10;
const resolve = (v, u, i) => (typeof v === 'function' ? v(u, i) : v);

/** Colours of series i (stroke, and the points' fill), as the chart resolved them. */
function colours(u, s, i) {
  const stroke = resolve(s.stroke, u, i) || '#888';
  const fill = resolve(s.points?.fill, u, i) || stroke;
  return { stroke: typeof stroke === 'string' ? stroke : '#888', fill: typeof fill === 'string' ? fill : stroke };
}

/** Whether the chart shows series s's points (uPlot's default shows them when they are few). */
function showsPoints(s, count, plotW) {
  const show = s.points?.show;
  if (typeof show === 'function') return count > 0 && count * 8 < plotW;
  return show !== false;
}

/**
 * uPlot instance → { svg, width, height }. options: { title, theme: { background, text } }. The plot
 * area keeps the chart's own size in CSS pixels; room is added around it for ticks, labels and the legend.
 */
export function uplotSvg(u, { title, theme }) {
  const plotW = u.over.clientWidth || u.bbox.width / (u.pxRatio ?? 1);
  const plotH = u.over.clientHeight || u.bbox.height / (u.pxRatio ?? 1);
  const shown = u.axes.filter((a) => a.show !== false);
  const hasRight = shown.some((a) => a.side === 1);
  const left = 86, right = hasRight ? 80 : 24, top = 40;
  const bottom = 48;
  const series = u.series.map((s, i) => ({ s, i })).filter(({ s, i }) => i > 0 && s.show !== false);
  const legendRows = Math.ceil(series.length / 3);
  const width = Math.round(left + plotW + right), height = Math.round(top + plotH + bottom + legendRows * 18);
  const xKey = u.series[0].scale ?? 'x';
  const X = (v) => left + u.valToPos(v, xKey);
  const Y = (v, key) => top + u.valToPos(v, key);
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`);
  out.push(`<title>${esc(title)}</title>`);
  out.push(`<rect width="${width}" height="${height}" fill="${theme.background}"/>`);
  out.push(`<text x="${left}" y="22" font-size="14" font-weight="600" fill="${theme.text}">${esc(title)}</text>`);
  out.push(`<defs><clipPath id="plot"><rect x="${left}" y="${top}" width="${r1(plotW)}" height="${r1(plotH)}"/></clipPath></defs>`);
  // Axes: grid lines and tick labels at the splits uPlot chose (its filter blanks some labels: kept blank).
  for (const axis of shown) {
    const key = axis.scale ?? (axis.side % 2 === 0 ? xKey : 'y');
    const splits = axis._splits ?? [], values = axis._values ?? [];
    const horizontal = axis.side % 2 === 0; // top or bottom: an x axis
    const grid = axis.grid?.show !== false;
    for (let k = 0; k < splits.length; k++) {
      const v = splits[k];
      if (v == null || !Number.isFinite(v)) continue;
      const label = values[k];
      if (horizontal) {
        const x = r1(X(v));
        if (x < left - 0.5 || x > left + plotW + 0.5) continue;
        if (grid) out.push(`<line x1="${x}" y1="${top}" x2="${x}" y2="${r1(top + plotH)}" stroke="${theme.text}" stroke-opacity="0.15"/>`);
        if (label != null && label !== '') out.push(`<text x="${x}" y="${r1(top + plotH + 16)}" text-anchor="middle" fill="${theme.text}">${esc(label)}</text>`);
      } else {
        const y = r1(Y(v, key));
        if (y < top - 0.5 || y > top + plotH + 0.5) continue;
        if (grid) out.push(`<line x1="${left}" y1="${y}" x2="${r1(left + plotW)}" y2="${y}" stroke="${theme.text}" stroke-opacity="0.15"/>`);
        if (label == null || label === '') continue;
        out.push(axis.side === 1
          ? `<text x="${r1(left + plotW + 6)}" y="${y}" dominant-baseline="middle" fill="${theme.text}">${esc(label)}</text>`
          : `<text x="${left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle" fill="${theme.text}">${esc(label)}</text>`);
      }
    }
    if (!axis.label) continue;
    if (horizontal) out.push(`<text x="${r1(left + plotW / 2)}" y="${r1(top + plotH + 36)}" text-anchor="middle" fill="${theme.text}">${esc(axis.label)}</text>`);
    else {
      const x = axis.side === 1 ? width - 10 : 14, y = r1(top + plotH / 2);
      out.push(`<text x="${x}" y="${y}" transform="rotate(${axis.side === 1 ? 90 : -90} ${x} ${y})" text-anchor="middle" fill="${theme.text}">${esc(axis.label)}</text>`);
    }
  }
  out.push(`<rect x="${left}" y="${top}" width="${r1(plotW)}" height="${r1(plotH)}" fill="none" stroke="${theme.text}" stroke-opacity="0.4"/>`);
  // Series: one path each (a gap where the data has none), then the points the chart shows.
  const xs = u.data[0];
  out.push('<g clip-path="url(#plot)" fill="none">');
  for (const { s, i } of series) {
    const ys = u.data[i] ?? [];
    const { stroke, fill } = colours(u, s, i);
    const key = s.scale ?? 'y';
    let d = '', pen = false, count = 0;
    for (let j = 0; j < xs.length; j++) {
      const v = ys[j];
      if (v == null || !Number.isFinite(v) || xs[j] == null) { pen = false; continue; }
      d += `${pen ? 'L' : 'M'}${r1(X(xs[j]))} ${r1(Y(v, key))}`;
      pen = true;
      count++;
    }
    const dash = s.dash?.length ? ` stroke-dasharray="${s.dash.join(' ')}"` : '';
    out.push(`<path data-series="${esc(s.label ?? i)}" d="${d}" stroke="${stroke}" stroke-width="${s.width ?? 1}"${dash} stroke-linejoin="round"/>`);
    if (showsPoints(s, count, plotW)) {
      const radius = (s.points?.size ?? 5) / 2;
      for (let j = 0; j < xs.length; j++) {
        const v = ys[j];
        if (v == null || !Number.isFinite(v)) continue;
        out.push(`<circle cx="${r1(X(xs[j]))}" cy="${r1(Y(v, key))}" r="${radius}" fill="${fill}"/>`);
      }
    }
  }
  out.push('</g>');
  // Legend: a short line in each series' colour and dash, then its label.
  series.forEach(({ s, i }, k) => {
    const { stroke } = colours(u, s, i);
    const x = left + (k % 3) * Math.max(150, plotW / 3), y = top + plotH + 62 + Math.floor(k / 3) * 18;
    const dash = s.dash?.length ? ` stroke-dasharray="${s.dash.join(' ')}"` : '';
    out.push(`<line x1="${r1(x)}" y1="${y - 4}" x2="${r1(x + 22)}" y2="${y - 4}" stroke="${stroke}" stroke-width="${Math.max(2, s.width ?? 1)}"${dash}/>`);
    out.push(`<text x="${r1(x + 28)}" y="${y}" fill="${theme.text}">${esc(s.label ?? `series ${i}`)}</text>`);
  });
  out.push('</svg>');
  return { svg: out.join('\n'), width, height };
}
