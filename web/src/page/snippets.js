// What a course author pastes (pure, no DOM): from one view (the share builder's, share_view.js), the
// permalink and the snippets for every route: an iframe (+ embed.js), the element (plain HTML,
// MkDocs), Quarto, MyST's {anywidget} directive and a Python anywidget class. All use the same keys.

import { FIELDS, INT_KEYS, DECIMAL_KEYS, toHash, withChanges } from '../model/schema.js';

/** The keys of `state` that differ from their defaults, in schema order, without the page's own flags. */
export function attributesOf(state) {
  return Object.fromEntries(FIELDS.filter((f) => !f.page && state[f.key] !== undefined && state[f.key] !== f.def).map((f) => [f.key, state[f.key]]));
}

// Every value is a learner's text, so a snippet must carry it as data that cannot end the block it sits in
// (a Quarto ```{=html} fence, a Markdown raw HTML block, which a blank line ends, a MyST directive, a
// Python string). Each writer below keeps its value on one line with no character its host reads as syntax.

/** Characters an attribute value never holds raw: markup (& " ' < >), Markdown syntax a processor may read
 * inside inline HTML (` \ [ ]), C0 controls (so no newline, no blank line), DEL and the line/paragraph
 * separators. C1 controls stay raw: HTML reads &#128;–&#159; as Windows-1252 (&#133; is “…”), and no
 * Markdown processor ends a line at them. NUL cannot be carried by HTML at all (it becomes U+FFFD). */
const ATTRIBUTE_UNSAFE = /[&"'<>`\\[\]\u0000-\u001f\u007f\u2028\u2029]/g;
const NAMED = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };

/** A double-quoted attribute value: the browser's parser decodes it back to exactly `value`. */
export const escapeAttribute = (value) => String(value).replace(ATTRIBUTE_UNSAFE, (c) => NAMED[c] ?? `&#${c.codePointAt(0)};`);

/** <attention-playground d_model="64" …></attention-playground> */
export function elementTag(state, lesson = null) {
  const attributes = Object.entries(attributesOf(state)).map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`).join('');
  // An author's lesson travels inside the element (its slot="lesson" script), on one line with no markup.
  const inside = lesson ? `\n  <script type="application/json" slot="lesson">${jsonLine(lesson)}</script>\n` : '';
  return `<attention-playground${attributes}>${inside}</attention-playground>`;
}

/** Characters a Python literal never holds raw: its quote and backslash, controls, line separators
 * (str.splitlines breaks at U+2028, U+2029, U+0085), the BOM, lone surrogates (UTF-8 cannot hold them),
 * and ` and < (no fence or closing tag raw when the class is pasted into a Markdown cell or a page). */
// A whole pair is matched first and kept, so a low surrogate left to match alone is a lone one
// (no lookbehind: Safari before 16.4 cannot parse it, and the whole module would fail to load).
const PYTHON_UNSAFE = /[\ud800-\udbff][\udc00-\udfff]|["\\`<\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ud800-\udfff]/g;
const PYTHON_SHORT = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const hex = (code, digits) => code.toString(16).padStart(digits, '0');

/** A Python string literal in double quotes that evaluates to exactly `value` (ast.literal_eval). */
export const pythonString = (value) => `"${String(value).replace(PYTHON_UNSAFE, (c) => {
  if (c.length === 2) return c; // a surrogate pair: one character, written as it is
  const code = c.charCodeAt(0);
  return PYTHON_SHORT[c] ?? (code < 0x100 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`);
})}"`;

// The widget's keys that hold numbers (INT_KEYS, DECIMAL_KEYS: the schema's kinds) are declared as Int or
// Float traits, so that `w.n_heads = 8` works (the widget takes numbers and strings alike); every other key is text.
const CHOICES = new Map(FIELDS.filter((f) => f.choices && !f.choices.includes('')).map((f) => [f.key, f.choices]));

/**
 * The trait declaring `key` with `value`: traitlets.Int / Float for a number key holding a number,
 * traitlets.Enum for a key with choices (bias, scale, controls are 1/0 numbers), Unicode otherwise,
 * including a number key holding what is not a number (d_k="2.5"), so an invalid view still reproduces.
 */
export function pythonTrait(key, value) {
  const text = String(value);
  if (INT_KEYS.has(key) && /^-?\d{1,15}$/.test(text)) return `traitlets.Int(${Number(text)})`;
  if (DECIMAL_KEYS.has(key) && /^-?(\d+\.?\d*|\.\d+)(e-?\d+)?$/i.test(text) && Number.isFinite(Number(text))) {
    const n = Number(text);
    return `traitlets.Float(${Number.isInteger(n) ? n.toFixed(1) : String(n)})`;
  }
  if (CHOICES.has(key) && CHOICES.get(key).includes(text)) {
    return `traitlets.Enum([${CHOICES.get(key).map(pythonString).join(', ')}], ${pythonString(text)})`;
  }
  return `traitlets.Unicode(${pythonString(text)})`;
}

/** JSON on one line whose text holds no markup or backtick (\u escapes instead): JSON.parse gives `value`. */
export const jsonLine = (value) => JSON.stringify(value).replace(/[<>&`\u2028\u2029]/g, (c) => `\\u${hex(c.charCodeAt(0), 4)}`);

/** The page's address with an author's lesson file named (`?lesson=`, beside the page), or without. */
export const pageAddress = (folder, lesson) => `${new URL('index.html', folder).href}${lesson?.name ? `?${new URLSearchParams({ lesson: lesson.name })}` : ''}`;

/**
 * Every snippet for the view `state` (see embedState). base: the URL of the folder that holds the built
 * files (index.html, attention-playground.js, embed.js); height: the iframe's height without embed.js;
 * lesson: the page's author's lesson, { name (its file, ?lesson=), words (its parsed JSON, when it was read) }
 * or null: the links name the file, the element and the widgets carry the lesson itself.
 */
export function snippets(state, { base, height = 900, title = 'Attention Playground', lesson = null }) {
  const folder = new URL('./', base).href;
  const module = new URL('attention-playground.js', folder).href;
  const script = `<script type="module" src="${escapeAttribute(module)}"></script>`;
  const element = elementTag(state, lesson?.words ?? null);
  const attributes = attributesOf(state);
  const frameSrc = `${pageAddress(folder, lesson)}${toHash(withChanges(state, { embed: '1' }))}`;
  const traits = Object.entries(attributes).map(([key, value]) => `    ${key} = ${pythonTrait(key, value)}.tag(sync=True)`);
  if (lesson?.words) traits.push(`    lesson = traitlets.Unicode(${pythonString(JSON.stringify(lesson.words))}).tag(sync=True)`);
  return {
    permalink: `${pageAddress(folder, lesson)}${toHash(withChanges(state, { embed: '0', panels: '', controls: '1', theme: '' }))}`,
    iframe: `<iframe src="${escapeAttribute(frameSrc)}" title="${escapeAttribute(title)}" width="100%" height="${height}" style="border: 0" loading="lazy"></iframe>\n` +
      `<script src="${escapeAttribute(new URL('embed.js', folder).href)}"></script>`,
    element: `${script}\n${element}`,
    quarto: `\`\`\`{=html}\n${script}\n${element}\n\`\`\``,
    myst: `:::{anywidget} ${module}\n${jsonLine(lesson?.words ? { ...attributes, lesson: lesson.words } : attributes)}\n:::`,
    python: [
      'import anywidget',
      'import traitlets',
      '',
      'class AttentionPlayground(anywidget.AnyWidget):',
      `    _esm = ${pythonString(module)}`,
      ...(traits.length ? traits : ['    pass']),
      '',
      'AttentionPlayground()',
    ].join('\n'),
  };
}
