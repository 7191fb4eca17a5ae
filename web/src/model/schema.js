// The page's whole state as one flat schema of named fields, mirrored to the URL hash (pure, no DOM).
// Values stay the strings a learner typed, so a link reproduces even a half-typed, invalid view.

/** Panels that can be shown; `panels=` in the hash picks a subset (for embedding). */
export const PANELS = ['controls', 'heatmaps', 'shapes', 'cost', 'performance', 'sqrtdk', 'positional',
  'examples', 'models', 'equations'];

/**
 * Every field: its URL/`name` key, default, and allowed values for choices. The keys are the
 * lesson's names (d_model, n_heads, d_k, d_v, n_q, n_k, batch), identical in inputs and the hash.
 */
export const FIELDS = [
  { key: 'd_model', def: '64' },
  { key: 'n_heads', def: '4' },
  { key: 'd_k', def: '' },                  // '' = derived: d_model / n_heads
  { key: 'd_v', def: '' },
  { key: 'attention', def: 'self', choices: ['self', 'cross'] },
  { key: 'n_q', def: '8' },
  { key: 'n_k', def: '8' },
  { key: 'batch', def: '1' },
  { key: 'bias', def: '1', choices: ['1', '0'] },
  { key: 'seed', def: '1' },                // seed of the weight matrices
  { key: 'mask', def: 'none', choices: ['none', 'causal', 'padding', 'causal+padding'] },
  { key: 'padding', def: '' },              // key lengths, one per batch item: "8,5"
  { key: 'scale', def: '1', choices: ['1', '0'] },
  { key: 'dropout', def: '0' },
  { key: 'dropout_seed', def: '1' },
  { key: 'source', def: 'text', choices: ['text', 'random'] },
  { key: 'text', def: 'the cat sat on the mat because it was warm' },
  { key: 'text_kv', def: 'le chat était assis sur le tapis' },
  { key: 'input_seed', def: '7' },          // seed of random inputs and of word embeddings
  { key: 'kv_heads', def: '' },             // grouped-query attention, for the analysis only
  { key: 'item', def: '0' },                // batch item shown in the heatmaps
  { key: 'head', def: '' },                 // head shown enlarged ('' = the first)
  { key: 'colors', def: 'linear', choices: ['linear', 'log', 'row'] }, // how weights map to colours
  { key: 'simd', def: '', choices: ['', '1', '0'] }, // '' = pick automatically; 0 forces the baseline
  { key: 'embed', def: '0', choices: ['0', '1'] },
  { key: 'panels', def: '' },               // '' = all; else a comma list of PANELS
];

const BY_KEY = new Map(FIELDS.map((f) => [f.key, f]));
const MAX_VALUE_LENGTH = 2000; // a pasted novel in the hash must not stall the page

/** A fresh state with every default. */
export function defaults() {
  return Object.fromEntries(FIELDS.map((f) => [f.key, f.def]));
}

/** True when `key` is a field of the schema. */
export const isField = (key) => BY_KEY.has(key);

/**
 * Reads a hash ("#d_model=512&n_heads=8") into a full state: unknown keys are ignored and a value
 * outside a field's choices falls back to the default, so no link can put the page in a bad mode.
 */
export function fromHash(hash) {
  const state = defaults();
  const body = String(hash ?? '').replace(/^#/, '');
  if (!body) return state;
  for (const part of body.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '1' : part.slice(eq + 1);
    let key, value;
    try {
      key = decodeURIComponent(rawKey);
      value = decodeURIComponent(rawValue);
    } catch {
      continue; // a malformed escape: skip that pair, keep the rest
    }
    const field = BY_KEY.get(key);
    if (!field) continue;
    value = value.slice(0, MAX_VALUE_LENGTH);
    if (field.choices && !field.choices.includes(value)) continue;
    state[key] = value;
  }
  return state;
}

/** Writes the fields that differ from their defaults, in schema order ("" for the default view). */
export function toHash(state) {
  const parts = [];
  for (const field of FIELDS) {
    const value = state[field.key];
    if (value === undefined || value === field.def) continue;
    // Keep commas and '+' readable in links; everything else is escaped.
    parts.push(`${field.key}=${encodeURIComponent(value).replace(/%2C/g, ',')}`);
  }
  return parts.length ? `#${parts.join('&')}` : '';
}

/** The panels to show: every panel unless `panels=` names some (unknown names are ignored). */
export function visiblePanels(state) {
  if (!state.panels) return PANELS.slice();
  const wanted = state.panels.split(',').map((s) => s.trim()).filter((s) => PANELS.includes(s));
  return wanted.length ? wanted : PANELS.slice();
}

/** A copy of `state` with `changes` applied (values converted to strings). */
export function withChanges(state, changes) {
  const next = { ...state };
  for (const [key, value] of Object.entries(changes)) {
    if (!BY_KEY.has(key)) throw new Error(`unknown state field '${key}'`);
    next[key] = value === true ? '1' : value === false ? '0' : String(value ?? '');
  }
  return next;
}
