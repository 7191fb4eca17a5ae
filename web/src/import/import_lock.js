// The author's lock applied to imports: a dropped file or importTensors() replaces inputs, parameters or
// the maps the page shows, so a lock on the fields that say where those come from (or on `imported`
// itself) refuses the import, as it refuses the reader's edits of those fields.

// Which locked fields an imported tensor would override (labels go with the inputs they name).
const INPUT_SOURCES = ['source', 'input_seed', 'text', 'text_kv'];
const PARAM_SOURCES = ['weights', 'seed', 'heads'];
const OVERRIDES = {
  query: INPUT_SOURCES, key: INPUT_SOURCES, value: INPUT_SOURCES, labels_q: INPUT_SOURCES, labels_k: INPUT_SOURCES,
  wq: PARAM_SOURCES, wk: PARAM_SOURCES, wv: PARAM_SOURCES, wo: PARAM_SOURCES, bq: PARAM_SOURCES, bk: PARAM_SOURCES, bv: PARAM_SOURCES, bo: PARAM_SOURCES,
  attention: [...INPUT_SOURCES, ...PARAM_SOURCES], // the maps drawn in place of the layer's on its inputs
};

/**
 * Throws an Error saying what the lock keeps when `locked` (the lock's keys) covers the import `given`
 * ({ name: tensor }): `imported` locks every import; otherwise a tensor is refused when a field it
 * would override is locked. Names it does not know are left to the import's own check.
 */
export function refuseLockedImport(given, locked) {
  if (!locked.size) return;
  if (locked.has('imported')) {
    throw new Error('importing tensors is locked on this page (lock includes imported): the view keeps its own inputs and layer');
  }
  const names = given !== null && typeof given === 'object' ? Object.keys(given) : [];
  for (const name of names) {
    const field = (Object.hasOwn(OVERRIDES, name) ? OVERRIDES[name] : []).find((f) => locked.has(f));
    if (field) {
      throw new Error(`${name} cannot be imported on this page: it would replace what the locked field ${field} sets (lock includes ${field})`);
    }
  }
}
