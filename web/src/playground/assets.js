// Where a playground finds its files: the worker, the wasm modules and the vendored KaTeX and uPlot sit
// next to the bundle that contains this module (dist/page.js, dist/attention-playground.js), so every
// URL is resolved against import.meta.url: the files work from any folder, site or origin.

/** The folder the bundle was loaded from (a URL ending in '/'), or null when it has none (blob:, data:). */
export const bundleBase = (() => {
  try {
    const base = new URL('./', import.meta.url).href;
    return /^(https?|file):/.test(base) ? base : null;
  } catch {
    return null; // a module loaded from blob: or data: has no folder: new URL('./', it) throws
  }
})();

/**
 * The asset folder to use: `given` (an absolute URL, for a module loaded as text from a blob:) or the
 * bundle's own folder. Throws a message saying what to do when neither can locate the files.
 */
export function assetBase(given) {
  if (!given && !bundleBase) {
    throw new Error(`this module was loaded from ${String(import.meta.url).slice(0, 40)}…, so it cannot find its wasm and worker beside it: ` +
      'load attention-playground.js by its URL, or give the folder that holds it as `assets`');
  }
  try {
    return new URL(given || './', bundleBase ?? undefined).href.replace(/\/?$/, '/');
  } catch {
    throw new Error(`assets must be the URL of the folder that holds attention-playground.js, not “${String(given).slice(0, 80)}”`);
  }
}
