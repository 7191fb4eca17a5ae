// The viridis palette, computed here: ten published anchor colours of viridis joined by straight
// lines in OKLab, a perceptual space, so lightness rises evenly (readable in grey and for colour-blind eyes).
// The heatmaps draw from viridis_lut.js, these colours at i / 255 as a table written by scripts/viridis_lut.mjs
// (this file imports nothing, so that script runs even when the table is missing or broken).

// viridis sampled at 0, 1/9, …, 1 (sRGB): the only data; everything else is computed.
const ANCHORS = ['440154', '482878', '3e4989', '31688e', '26828e', '1f9e89', '35b779', '6ece58', 'b5de2b', 'fde725'];

const toLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toGamma = (c) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

/** sRGB (0..1) → OKLab. */
export function srgbToOklab([r, g, b]) {
  const [lr, lg, lb] = [r, g, b].map(toLinear);
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return [
    0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s,
  ];
}

/** OKLab → sRGB (0..1, clamped). */
export function oklabToSrgb([L, a, b]) {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.2914855480 * b) ** 3;
  const rgb = [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s,
  ];
  return rgb.map((c) => Math.min(1, Math.max(0, toGamma(c))));
}

const LAB = ANCHORS.map((hex) => srgbToOklab([0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)));

/** The colour at t in [0, 1] as [r, g, b] bytes. */
export function viridis(t) {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (LAB.length - 1);
  const i = Math.min(LAB.length - 2, Math.floor(x));
  const f = x - i;
  const lab = LAB[i].map((v, k) => v + (LAB[i + 1][k] - v) * f);
  return oklabToSrgb(lab).map((c) => Math.round(c * 255));
}
