// A playground's whole view as one flat schema of named fields (pure, no DOM): the same keys are the
// URL hash of the page, the attributes of <attention-playground> and the keys of the notebook widget.
// Values stay the strings a learner typed, so a link reproduces even a half-typed, invalid view.

import { CHAPTER_NAMES, FIRST_CHAPTER } from '../lesson/chapter_names.js';

/**
 * Every field: its key, default, and allowed values for choices. The keys are the lesson's names
 * (d_model, n_heads, n_kv_heads, d_k, d_v, n_q, n_k, batch), identical in inputs, hash and attributes.
 * `page: true` marks a flag of the full page only (not an element attribute).
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
  { key: 'mask', def: 'none', choices: ['none', 'causal', 'padding', 'causal+padding', 'sliding', 'strided'] },
  { key: 'padding', def: '' },              // key lengths, one per batch item: "8,5"
  { key: 'scale', def: '1', choices: ['1', '0'] },
  { key: 'dropout', def: '0' },
  { key: 'dropout_seed', def: '1' },
  { key: 'source', def: 'text', choices: ['text', 'random', 'task'] }, // task: a sample of the training lab's task
  { key: 'text', def: 'the cat sat on the mat because it was warm' },
  { key: 'text_kv', def: 'le chat était assis sur le tapis' },
  { key: 'input_seed', def: '7' },          // seed of random inputs and of word embeddings
  { key: 'n_kv_heads', def: '' },           // grouped-query attention: key/value heads shared by the query heads ('' = n_heads)
  { key: 'heads', def: '' },                // a pattern per head: "previous,same_word,,first_token" ('' = random)
  { key: 'weights', def: 'seeded', choices: ['seeded', 'trained'] }, // the layer's W: from seed, or learnt in the training lab
  { key: 'train_task', def: 'two_relation' }, // the training lab (model/training.js checks these fields)
  { key: 'train_d_model', def: '32' },
  { key: 'train_n_heads', def: '2' },
  { key: 'train_seq_len', def: '8' },
  { key: 'train_lr', def: '' },             // '' = the task's default
  { key: 'train_seed', def: '1' },
  { key: 'train_steps', def: '0' },         // steps behind the trained weights (weights=trained retrains them from the seed)
  { key: 'item', def: '0' },                // batch item shown in the heatmaps
  { key: 'head', def: '' },                 // head shown enlarged ('' = the first)
  { key: 'q_item', def: '' },              // "Follow one query": batch item, head, query and key followed
  { key: 'q_head', def: '' },               // ('' = none chosen; features/query/panel.js reads them)
  { key: 'q_query', def: '' },
  { key: 'q_key', def: '' },
  { key: 'colors', def: 'linear', choices: ['linear', 'log', 'row'] }, // how weights map to colours
  { key: 'simd', def: '', choices: ['', '1', '0'] }, // '' = pick automatically; 0 forces the baseline
  { key: 'workers', def: '' },              // pool workers for large passes ('' = the cores but one; 1 = single-threaded; validate.js)
  { key: 'panels', def: '' },               // '' = all; else a comma list of panel names (features/index.js)
  { key: 'theme', def: '', choices: ['', 'light', 'dark', 'auto'] }, // '' = light when embedded, auto on the page
  { key: 'controls', def: '1', choices: ['1', '0'] }, // 0 = read-only: no inputs panel, the problem cannot be edited
  { key: 'chapter', def: FIRST_CHAPTER, choices: CHAPTER_NAMES }, // the lesson's chapter shown (lesson/chapters.js); `panels` wins over it
  { key: 'lock', def: '' },                 // author profile: comma list of field keys shown disabled in the form
  { key: 'hide', def: '' },                 // author profile: comma list of field keys not shown in the form
  { key: 'label', def: '' },                // the name an author gives this playground's landmarks ('' = "Attention playground", numbered when several)
  { key: 'exercises', def: '' },            // '' = every exercise of the chapter, 'none', or a comma list of exercise ids
  { key: 'imported', def: '', choices: ['', 'tensors', 'attention'] }, // the view uses tensors imported with importTensors (not in the link: import them again)
  { key: 'window', def: '3' },              // mask=sliding: query i sees keys i − window < j ≤ i
  { key: 'stride', def: '3' },              // mask=strided: j ≤ i and (i − j < stride or a multiple of it)
  { key: 'positional', def: 'none', choices: ['none', 'rope', 'alibi'] }, // a positional method on the logits
  { key: 'rope_base', def: '10000' },       // RoPE's base: pair t turns by pos·rope_base^(−2t/d_k)
  { key: 'embed', def: '0', choices: ['0', '1'], page: true }, // the page without its title and footer, for an iframe
];

/** Keys read from older links under another name. */
const ALIASES = { kv_heads: 'n_kv_heads' };

/** The attributes of <attention-playground> and the widget's model keys: every field but the page's own flags. */
export const ELEMENT_KEYS = FIELDS.filter((f) => !f.page).map((f) => f.key);

const BY_KEY = new Map(FIELDS.map((f) => [f.key, f]));
const MAX_VALUE_LENGTH = 2000; // a pasted novel in the hash must not stall the page

/**
 * `text` cut to at most `max` UTF-16 units without splitting a surrogate pair: half an emoji is a lone
 * surrogate, which encodeURIComponent refuses (URIError), so every later toHash would throw.
 */
export function cutText(text, max = MAX_VALUE_LENGTH) {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max); // a high surrogate is half a pair
}

/**
 * `text` with every lone surrogate replaced by U+FFFD, walked by hand: the built-in that does this
 * is newer (Chrome 111, Safari 16.4) than the browsers the README promises.
 */
export function wellFormed(text) {
  let out = '', from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++; // a whole pair
      continue;
    }
    out += text.slice(from, i) + '\ufffd';
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** encodeURIComponent that cannot throw: a lone surrogate (from an attribute or setState) becomes U+FFFD. */
const encodeValue = (value) => encodeURIComponent(wellFormed(String(value)));

/** A fresh state with every default. */
export function defaults() {
  return Object.fromEntries(FIELDS.map((f) => [f.key, f.def]));
}

/** True when `key` is a field of the schema. */
export const isField = (key) => BY_KEY.has(key);

/**
 * Reads a hash ("#d_model=512&n_heads=8") into { state, ignored }: a full state, and one sentence per
 * part of the link that was not used. Unknown keys, a key without a value (a bare "#d_model") and a
 * value outside a field's choices keep the default, so no link can put the page in a bad mode.
 */
export function parseHash(hash) {
  const state = defaults();
  const ignored = [];
  const body = String(hash ?? '').replace(/^#/, '');
  for (const part of body ? body.split('&') : []) {
    if (!part) continue;
    const eq = part.indexOf('=');
    let key, value;
    try {
      key = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
      value = eq < 0 ? null : decodeURIComponent(part.slice(eq + 1));
    } catch {
      ignored.push(`“${cutText(part, 40)}” is not a valid part of a link (a broken % escape)`);
      continue;
    }
    key = ALIASES[key] ?? key;
    const field = BY_KEY.get(key);
    if (!field) {
      ignored.push(`“${cutText(key, 40)}” is not a setting of the playground`);
      continue;
    }
    if (value === null) {
      ignored.push(`“${key}” has no value (write ${key}=…), so it keeps its default${field.def ? ` ${field.def}` : ''}`);
      continue;
    }
    value = cutText(value);
    if (field.choices && !field.choices.includes(value)) {
      ignored.push(`${key}=${cutText(value, 40)} is not one of ${field.choices.filter(Boolean).join(', ')}, so it keeps its default`);
      continue;
    }
    state[key] = value;
  }
  return { state, ignored };
}

/** The state of a hash (see parseHash). */
export function fromHash(hash) {
  return parseHash(hash).state;
}

/** Writes the fields that differ from their defaults, in schema order ("" for the default view). */
export function toHash(state) {
  const parts = [];
  for (const field of FIELDS) {
    const value = state[field.key];
    if (value === undefined || value === field.def) continue;
    // Keep commas and '+' readable in links; everything else is escaped.
    parts.push(`${field.key}=${encodeValue(value).replace(/%2C/g, ',')}`);
  }
  return parts.length ? `#${parts.join('&')}` : '';
}

/** A value as the schema holds it: true/false → '1'/'0', null/undefined → the default, numbers → their digits. */
export function fieldValue(key, value) {
  const field = BY_KEY.get(key);
  if (!field) throw new Error(`unknown state field '${key}'`);
  if (value === null || value === undefined) return field.def;
  return value === true ? '1' : value === false ? '0' : cutText(String(value));
}

/** A copy of `state` with `changes` applied (values converted by fieldValue). */
export function withChanges(state, changes) {
  const next = { ...state };
  for (const [key, value] of Object.entries(changes)) next[ALIASES[key] ?? key] = fieldValue(ALIASES[key] ?? key, value);
  return next;
}

/** The keys whose values differ between two states. */
export function changedKeys(a, b) {
  return FIELDS.map((f) => f.key).filter((key) => a[key] !== b[key]);
}
