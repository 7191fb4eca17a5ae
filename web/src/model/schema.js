// A playground's whole view as one flat schema of named fields (pure, no DOM): the same keys are the
// URL hash of the page, the attributes of <attention-playground> and the keys of the notebook widget.
// Values stay the strings a learner typed, so a link reproduces even a half-typed, invalid view.

import { CHAPTER_NAMES } from '../lesson/chapter_names.js';

const SEED_MAX = 2 ** 32 - 1; // seeds are unsigned 32-bit in the engine

/**
 * Every field with every fact of it, in one place (the key lists below derive from these records):
 * - key: the lesson's name (d_model, n_heads, n_kv_heads, d_k, d_v, n_q, n_k, batch), identical in inputs,
 *   hash and attributes; def: the default as typed ('' = not set: the record sent to the core leaves the
 *   option out, so the core's default is the only one); choices: the allowed values.
 * - kind: 'int' (a whole number), 'decimal', 'flag' ('1'/'0'), 'choice', 'text' or 'list' (comma separated);
 *   min, max: the range the page checks itself (the sizes' ranges are the core's, asked through resolveView).
 * - view: changes how a result is shown, not the problem (a bad value is a note, never a blocked run);
 *   author: a setting of the author's profile, which a learner of a read-only playground cannot change;
 *   size: 'layer' or 'tokens', a size of the problem (a size message goes to the one edited last);
 *   control: the inputs panel has an input for it; neutral: giving only neutral keys keeps the lesson's start;
 *   page: a flag of the full page only (not an element attribute).
 */
export const FIELDS = [
  { key: 'd_model', def: '64', kind: 'int', size: 'layer', control: true },
  { key: 'n_heads', def: '4', kind: 'int', size: 'layer', control: true },
  { key: 'd_k', def: '', kind: 'int', size: 'layer', control: true }, // '' = derived by the core: d_model / n_heads
  { key: 'd_v', def: '', kind: 'int', size: 'layer', control: true },
  { key: 'attention', def: 'self', kind: 'choice', choices: ['self', 'cross'], control: true },
  { key: 'n_q', def: '8', kind: 'int', size: 'tokens', control: true },
  { key: 'n_k', def: '8', kind: 'int', size: 'tokens', control: true },
  { key: 'batch', def: '1', kind: 'int', size: 'tokens', control: true },
  { key: 'bias', def: '1', kind: 'flag', choices: ['1', '0'], control: true },
  { key: 'seed', def: '1', kind: 'int', min: 0, max: SEED_MAX, control: true }, // seed of the weight matrices
  { key: 'mask', def: 'none', kind: 'choice', choices: ['none', 'causal', 'padding', 'causal+padding', 'sliding', 'strided'], control: true },
  { key: 'padding', def: '', kind: 'list', control: true }, // key lengths, one per batch item: "8,5"
  { key: 'scale', def: '1', kind: 'flag', choices: ['1', '0'], control: true },
  { key: 'dropout', def: '0', kind: 'decimal', control: true },
  { key: 'dropout_seed', def: '1', kind: 'int', min: 0, max: SEED_MAX, control: true },
  { key: 'source', def: 'text', kind: 'choice', choices: ['text', 'random', 'task'], control: true }, // task: a sample of the training lab's task
  { key: 'text', def: 'the cat sat on the mat because it was warm', kind: 'text', size: 'tokens', control: true },
  { key: 'text_kv', def: 'le chat était assis sur le tapis', kind: 'text', size: 'tokens', control: true },
  { key: 'input_seed', def: '7', kind: 'int', min: 0, max: SEED_MAX, control: true }, // seed of random inputs and of word embeddings
  // grouped-query attention: key/value heads shared by the query heads ('' = n_heads); a size of the layer
  // (K and V are n_kv_heads·d_k wide), so a message about the layer's size may belong to it
  { key: 'n_kv_heads', def: '', kind: 'int', size: 'layer', control: true },
  { key: 'heads', def: '', kind: 'list' },  // a pattern per head: "previous,same_word,,first_token" ('' = random)
  { key: 'weights', def: 'seeded', kind: 'choice', choices: ['seeded', 'trained'] }, // the layer's W: from seed, or learnt in the training lab
  // The training lab (model/training_settings.js reads these fields; the ranges are the lab's, the core has its own)
  { key: 'train_task', def: 'two_relation', kind: 'text' },
  { key: 'train_d_model', def: '32', kind: 'int', min: 1, max: 256 },
  { key: 'train_n_heads', def: '2', kind: 'int', min: 1, max: 16 },
  { key: 'train_seq_len', def: '8', kind: 'int', min: 2, max: 64 },
  { key: 'train_lr', def: '', kind: 'decimal' }, // '' = the task's default
  { key: 'train_seed', def: '1', kind: 'int', min: 0, max: SEED_MAX },
  { key: 'train_steps', def: '0', kind: 'int', min: 0, max: 5000 }, // steps behind the trained weights (weights=trained retrains them from the seed)
  { key: 'item', def: '0', kind: 'int', view: true },   // batch item shown in the heatmaps
  { key: 'head', def: '', kind: 'int', view: true },    // head shown enlarged ('' = the first)
  { key: 'q_item', def: '', kind: 'int', view: true },  // "Follow one query": batch item, head, query and key followed
  { key: 'q_head', def: '', kind: 'int', view: true },  // ('' = none chosen; features/query/panel.js reads them)
  { key: 'q_query', def: '', kind: 'int', view: true },
  { key: 'q_key', def: '', kind: 'int', view: true },
  { key: 'colors', def: 'linear', kind: 'choice', choices: ['linear', 'log', 'row'], view: true }, // how weights map to colours
  { key: 'simd', def: '', kind: 'choice', choices: ['', '1', '0'], view: true }, // '' = pick automatically; 0 forces the baseline (same problem, other kernels)
  { key: 'workers', def: '', kind: 'int', view: true }, // pool workers for large passes ('' = the cores but one; 1 = single-threaded; validate.js)
  { key: 'panels', def: '', kind: 'list', view: true, author: true }, // '' = all; else a comma list of panel names (features/index.js)
  { key: 'theme', def: '', kind: 'choice', choices: ['', 'light', 'dark', 'auto'], view: true, author: true, neutral: true }, // '' = light when embedded, auto on the page
  { key: 'controls', def: '1', kind: 'flag', choices: ['1', '0'], view: true, author: true }, // 0 = read-only: no inputs panel, the problem cannot be edited
  // The lesson's chapter shown (lesson/chapters.js); '' = none named: the first chapter, or, beside `panels`,
  // no chapter (the author's panels alone). Named, it composes with `panels` (lesson/compose.js).
  { key: 'chapter', def: '', kind: 'choice', choices: ['', ...CHAPTER_NAMES], view: true, neutral: true },
  { key: 'nav', def: '', kind: 'choice', choices: ['', 'none'], view: true, author: true, neutral: true }, // none: no chapter list or pager; the chapter's title and text stay
  { key: 'step', def: '1', kind: 'int', min: 1, view: true, neutral: true }, // the step of the chapter shown, 1-based (model/step.js reads it; one past the last is a note)
  { key: 'lock', def: '', kind: 'list', view: true, author: true, neutral: true },      // author profile: comma list of field keys shown disabled in the form
  { key: 'hide', def: '', kind: 'list', view: true, author: true, neutral: true },      // author profile: comma list of field keys not shown in the form
  { key: 'label', def: '', kind: 'text', view: true, author: true, neutral: true },     // the name an author gives this playground's landmarks ('' = "Attention playground", numbered when several)
  { key: 'exercises', def: '', kind: 'list', view: true, author: true, neutral: true }, // '' = every exercise of the chapter, 'none', or a comma list of exercise ids
  { key: 'imported', def: '', kind: 'choice', choices: ['', 'tensors', 'attention'] }, // the view uses tensors imported with importTensors (not in the link: import them again)
  { key: 'window', def: '3', kind: 'int', min: 1, control: true }, // mask=sliding: query i sees keys i − window < j ≤ i
  { key: 'stride', def: '3', kind: 'int', min: 1, control: true }, // mask=strided: j ≤ i and (i − j < stride or a multiple of it)
  { key: 'positional', def: 'none', kind: 'choice', choices: ['none', 'rope', 'alibi'], control: true }, // a positional method on the logits
  { key: 'rope_base', def: '', kind: 'decimal', control: true }, // RoPE's base ('' = the core's default): pair t turns by pos·rope_base^(−2t/d_k)
  { key: 'embed', def: '0', kind: 'flag', choices: ['0', '1'], page: true, view: true, author: true, neutral: true }, // the page without its title and footer, for an iframe
];

/**
 * The key lists of `fields` (FIELDS, or a schema with a field added, as the tests do): each list is the keys
 * whose records say so, in schema order, so a field is in a list because of its own record and nowhere else.
 */
export function listsOf(fields) {
  const keysWhere = (test) => Object.freeze(fields.filter(test).map((f) => f.key));
  return {
    /** Fields that change how a result is shown, not the problem: a bad value there is a note, never a blocked run. */
    VIEW_FIELDS: new Set(keysWhere((f) => f.view)),
    /** What a learner may still change in a read-only playground: the view fields that are not the author's settings. */
    VIEW_ONLY: new Set(keysWhere((f) => f.view && !f.author)),
    /** The sizes of the problem (the layer's and the tokens'); a size message goes to the one edited last. */
    SIZE_FIELDS: keysWhere((f) => f.size),
    /** The layer's sizes: its weights' memory depends on these. */
    LAYER_FIELDS: keysWhere((f) => f.size === 'layer'),
    /** Every field the inputs panel has an input for: a problem with one of these shows beside it. */
    CONTROL_FIELDS: new Set(keysWhere((f) => f.control)),
    /** Keys that do not make a view of their own: an element given only these still gets the lesson's start. */
    NEUTRAL_KEYS: keysWhere((f) => f.neutral),
    /** Keys that hold whole numbers (flags are 1 or 0), and decimals: the widget's Int and Float traits. */
    INT_KEYS: new Set(keysWhere((f) => f.kind === 'int' || f.kind === 'flag')),
    DECIMAL_KEYS: new Set(keysWhere((f) => f.kind === 'decimal')),
  };
}

export const { VIEW_FIELDS, VIEW_ONLY, SIZE_FIELDS, LAYER_FIELDS, CONTROL_FIELDS, NEUTRAL_KEYS, INT_KEYS, DECIMAL_KEYS } = listsOf(FIELDS);

/** The record of field `key` (its facts), or throws naming the key. */
export function field(key) {
  const record = BY_KEY.get(key);
  if (!record) throw new Error(`unknown state field '${key}'`);
  return record;
}

/**
 * The value of an option the learner may leave unset: undefined when the field is empty (the record sent
 * to the core leaves it out, so the core's default applies), else `read(text)`.
 */
export const optional = (state, key, read = (text) => text) => {
  const text = String(state[key] ?? '').trim();
  return text === '' ? undefined : read(text);
};

/** Keys read from older links under another name. */
const ALIASES = { kv_heads: 'n_kv_heads' };

/** The attributes of <attention-playground> and the widget's model keys: every field but the page's own flags. */
export const ELEMENT_KEYS = FIELDS.filter((f) => !f.page).map((f) => f.key);

const BY_KEY = new Map(FIELDS.map((f) => [f.key, f]));
const MAX_VALUE_LENGTH = 2000; // a pasted novel in the hash must not stall the page
// A sentence (a field of size 'tokens') keeps far more: its own limits (64 lines of 256 tokens, validate.js)
// are then what a learner is told, with the true counts; only text past 256 KiB, far beyond them, is cut.
const SENTENCE_LENGTH = 1 << 18;
const longest = (field) => (field?.size === 'tokens' ? SENTENCE_LENGTH : MAX_VALUE_LENGTH);

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
    value = cutText(value, longest(field));
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

/**
 * Writes the fields that differ from their defaults, in schema order ("" for the default view); the keys
 * of `keep` are written even at their default (the page's link always names its chapter).
 */
export function toHash(state, { keep = [] } = {}) {
  const parts = [];
  for (const field of FIELDS) {
    const value = state[field.key];
    if (value === undefined || (value === field.def && !keep.includes(field.key))) continue;
    // Keep commas and '+' readable in links; everything else is escaped.
    parts.push(`${field.key}=${encodeValue(value).replace(/%2C/g, ',')}`);
  }
  return parts.length ? `#${parts.join('&')}` : '';
}

/** A value as the schema holds it: true/false → '1'/'0', null/undefined → the default, numbers → their digits. */
export function fieldValue(key, value) {
  const f = field(key); // an unknown key throws
  if (value === null || value === undefined) return f.def;
  return value === true ? '1' : value === false ? '0' : cutText(String(value), longest(f));
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
