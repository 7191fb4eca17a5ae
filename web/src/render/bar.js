// A number with a bar beside it, for table cells: the value and a track that the fraction fills, side by
// side, so the bar never runs under (or over) the digits whatever its length. Styled inline (the
// playground's stylesheet has no rule for it), with the theme's variables.

/** h: the dom helper; text: the number as shown; fraction: 0…1 of the track; tone: 'warm' | 'cool'. */
export function barCell(h, text, fraction, tone = 'cool') {
  const share = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  return h('span', { class: 'bar-cell', style: { display: 'inline-flex', alignItems: 'center', justifyContent: 'flex-end', gap: '6px' } },
    h('span', { class: 'bar-value' }, text),
    h('span', { class: 'bar-track', 'aria-hidden': 'true', style: { display: 'inline-block', flex: '0 0 64px', width: '64px', height: '8px',
      borderRadius: '4px', overflow: 'hidden', background: 'var(--subtle)', outline: '1px solid var(--border)' } },
    h('span', { class: `bar-fill ${tone}`, style: { display: 'block', height: '100%', width: `${(100 * share).toFixed(1)}%`,
      background: tone === 'warm' ? 'var(--warn)' : 'var(--accent)' } })));
}
