// The author's lock applied to imports: a dropped file or importTensors() replaces inputs, parameters or
// the maps the page shows, so a lock on the fields that say where those come from (or on `imported`
// itself) refuses the import, as it refuses the reader's edits of those fields.

// Which locked fields an imported tensor would override (labels go with the inputs they name).
const INPUT_FIELDS = ['source', 'input_seed', 'text', 'text_kv'];
const LAYER_FIELDS = ['weights', 'seed', 'heads'];
const OVERRIDES = {
  query: INPUT_FIELDS, key: INPUT_FIELDS, value: INPUT_FIELDS, labels_q: INPUT_FIELDS, labels_k: INPUT_FIELDS,
  wq: LAYER_FIELDS, wk: LAYER_FIELDS, wv: LAYER_FIELDS, wo: LAYER_FIELDS, bq: LAYER_FIELDS, bk: LAYER_FIELDS, bv: LAYER_FIELDS, bo: LAYER_FIELDS,
  attention: [...INPUT_FIELDS, ...LAYER_FIELDS], // the maps drawn in place of the layer's on its inputs
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
