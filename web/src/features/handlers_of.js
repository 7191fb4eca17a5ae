// The compute side of the features, found by a feature's name: features/<name>/handler.js. The compute
// worker's bundle holds every handler (esbuild bundles each file this template can name, and never a
// panel); the page's bundle holds none: where a page computes on its own thread, it takes them from
// panels.js (lazy.js re-exports this), which the panels that ask for them have loaded already.

const NAME = /^[a-z][a-z0-9_]*$/;

/** The `handlers` of feature `feature` ({ [request]: (payload, side, post) → reply }). */
export async function loadHandlers(feature) {
  if (typeof feature !== 'string' || !NAME.test(feature)) throw new Error(`“${feature}” is not a feature name`);
  let module;
  try {
    module = await import(`./${feature}/handler.js`);
  } catch (err) {
    throw new Error(`the feature “${feature}” asks the compute for nothing (${err.message})`);
  }
  return module.handlers;
}
