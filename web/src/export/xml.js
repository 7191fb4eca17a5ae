// Text for the SVG figures (figure.js, chart_svg.js): markup characters escaped, and the characters XML
// 1.0 cannot carry at all (C0 controls other than tab, newline and carriage return; lone surrogates;
// U+FFFE and U+FFFF) replaced by visible stand-ins, so a token label holding them still makes a
// well-formed SVG and a PNG. Long labels are clipped by code point (a cut never splits a surrogate pair).

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
// A surrogate pair is matched whole (and kept) before a lone surrogate can match (no lookbehind: old Safari).
const ILLEGAL = /[\ud800-\udbff][\udc00-\udfff]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/g;

/** A pair kept; a C0 control as its control picture (NUL → ␀, U+2400 + code); anything else as U+FFFD. */
const standIn = (c) => (c.length === 2 ? c : c.charCodeAt(0) < 0x20 ? String.fromCharCode(0x2400 + c.charCodeAt(0)) : '\ufffd');

/** Text (or an attribute value) safe inside XML. */
export const esc = (s) => String(s).replace(ILLEGAL, standIn).replace(/[&<>"']/g, (c) => ENTITIES[c]);

/** At most `max` code points of s, with … where it was cut. */
export function clipText(s, max) {
  const text = String(s);
  if (text.length <= max) return text;
  const points = Array.from(text.slice(0, 2 * max + 2)); // enough code units for max code points, never the whole of a long label
  return points.length <= max ? points.join('') : `${points.slice(0, max - 1).join('')}…`;
}
