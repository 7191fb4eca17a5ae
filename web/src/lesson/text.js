// Every sentence a learner reads, looked up by its id: text(id, lang). The lesson's own words (English)
// are registered by the data files that hold them (lesson/chapters/<chapter>/, lesson/panels/<feature>.js);
// a translation or an author's own version is one more table keyed by the same ids, registered with
// useText(), never an edit of code. An id no table knows throws, naming it: a typo fails loudly.

const BASE = 'en';
// One store per page, shared by every bundle's copy of this module (the first view's, and panels.js with
// the lazy panels' words): an author's words registered by one are the words the other shows.
const SHARED = Symbol.for('attention-playground:lesson-text');
const store = (globalThis[SHARED] ??= { tables: new Map(), overrides: [] });
const tables = store.tables; // lang → Map(id → text): the lesson's own words under 'en'
const overrides = store.overrides; // [{ lang, table: Map }], the latest first: an author's version wins over the lesson's

function tableOf(lang) {
  if (!tables.has(lang)) tables.set(lang, new Map());
  return tables.get(lang);
}

/**
 * Adds the lesson's own sentences for `lang` (an object id → text). A data file calls this once; an id
 * given twice with different words is a mistake in the data, refused with its name.
 */
export function addText(entries, lang = BASE) {
  const table = tableOf(lang);
  for (const [id, value] of Object.entries(entries)) {
    if (typeof value !== 'string') throw new TypeError(`lesson text “${id}” must be a string, not ${typeof value}`);
    if (table.has(id) && table.get(id) !== value) throw new Error(`lesson text “${id}” is defined twice with different words`);
    table.set(id, value);
  }
  return entries;
}

/**
 * Registers an override table (a translation, or an author's version of some sentences): its ids must
 * be ids of the lesson (unknown ones are refused, naming them; `check: false` leaves that to the caller,
 * for a table registered before every panel's words are loaded). Returns a function that removes it.
 */
export function useText(entries, lang = BASE, { check = true } = {}) {
  const known = tableOf(BASE);
  const unknown = check ? Object.keys(entries).filter((id) => !known.has(id)) : [];
  if (unknown.length) throw new Error(`unknown lesson text id${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 8).join(', ')}${unknown.length > 8 ? ', …' : ''}`);
  for (const [id, value] of Object.entries(entries)) {
    if (typeof value !== 'string') throw new TypeError(`lesson text “${id}” must be a string, not ${typeof value}`);
  }
  const entry = { lang, table: new Map(Object.entries(entries)) };
  overrides.unshift(entry);
  return () => {
    const i = overrides.indexOf(entry);
    if (i >= 0) overrides.splice(i, 1);
  };
}

/**
 * The sentence `id` in `lang` (an override first, then the lesson's table for that language, then
 * English), with each {name} whose name `values` gives replaced by that value (other braces, as in a
 * formula's TeX, stay as written). Throws for an id no table holds.
 */
export function text(id, values, lang = BASE) {
  if (typeof values === 'string') [values, lang] = [undefined, values]; // text(id, lang)
  let found;
  for (const o of overrides) {
    if (o.lang === lang && o.table.has(id)) { found = o.table.get(id); break; }
  }
  found ??= tables.get(lang)?.get(id) ?? tables.get(BASE)?.get(id);
  if (found === undefined) throw new Error(`unknown lesson text id “${id}”`);
  return values ? fill(found, values) : found;
}

/** The names of a sentence's {name} placeholders, in order (an author's text is checked against them). */
export const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** `words` with each {name} that `values` gives replaced by it (other braces, as in TeX, stay as written). */
export const fill = (words, values) => words.replace(PLACEHOLDER, (whole, name) => (Object.hasOwn(values, name) ? String(values[name]) : whole));

/** The lesson's own English sentence `id` (no author's or translator's table), or undefined. */
export const lessonText = (id) => tables.get(BASE)?.get(id);

/** True when `id` is a known sentence (for data that may name an optional one). */
export const hasText = (id) => tables.get(BASE)?.has(id) ?? false;

/** Every id of the lesson's English table (the tests check that each is used and each use exists). */
export const textIds = () => [...(tables.get(BASE)?.keys() ?? [])];

/**
 * An object whose properties are sentences looked up when read (`ids`: name → text id), beside the
 * `plain` values given as they are: a table of sentences a module builds once at load still shows an
 * author's or a translator's version registered later (useText), since each read asks text() again.
 */
export function textsOf(ids, plain = {}) {
  const out = { ...plain };
  for (const [name, id] of Object.entries(ids)) Object.defineProperty(out, name, { enumerable: true, get: () => text(id) });
  return Object.freeze(out);
}
