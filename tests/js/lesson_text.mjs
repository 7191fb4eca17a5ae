// Test helper: the learner-text literals of a source file and the lesson-text ids its code uses, found
// with acorn (a devDependency; before `npm install` has added it, the Debian package node-acorn).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const acorn = (() => {
  try {
    return require('acorn');
  } catch {
    return require('/usr/share/nodejs/acorn/dist/acorn.js');
  }
})();

// One tree per source text: the tests read every file of web/src three or four times (literals, ids, placeholders),
// and parsing was half of their time. Nothing here changes a tree.
const trees = new Map();
export const parse = (source) => {
  if (!trees.has(source)) trees.set(source, acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true }));
  return trees.get(source);
};

// Each tree's nodes in walk order, with their parent and key, listed on its first walk: the tests walk each tree of
// web/src six or seven times (textsOf ids, shown nodes, errors, literals, ids, placeholders), and going through
// every node's Object.entries each time was most of their time. Nothing here changes a tree.
const orders = new WeakMap();

/** Calls fn(node, parent, key) on every node of an ESTree, depth first. */
export function walk(node, fn) {
  if (!node || typeof node.type !== 'string') return;
  let order = orders.get(node);
  if (!order) orders.set(node, (order = listNodes(node, [])));
  for (let i = 0; i < order.length; i += 3) fn(order[i], order[i + 1], order[i + 2]);
}

/** Appends node, parent, key of `node` and of every node under it to `out`, depth first. */
function listNodes(node, out, parent = null, key = null) {
  if (!node || typeof node.type !== 'string') return out;
  out.push(node, parent, key);
  for (const [k, value] of Object.entries(node)) {
    if (k === 'loc') continue;
    if (Array.isArray(value)) for (const child of value) listNodes(child, out, node, k);
    else if (value && typeof value.type === 'string') listNodes(value, out, node, k);
  }
  return out;
}

// A word of letters (hyphenated and apostrophe'd words count once: 'table-wrap', 'query’s').
const WORD = /\p{L}[\p{L}\p{N}_’'-]*/gu; // an identifier such as train_d_model is one word
/** True when `s` reads as words: three or more words of letters, one of them three letters or more. */
export const readsAsWords = (s, least = 3) => {
  const words = String(s).match(WORD) ?? [];
  return words.length >= least && words.some((w) => w.length >= 3);
};

// Strings that are not learner text by where they stand: a class list, an id, a selector, a module.
const NON_TEXT_KEYS = new Set(['class', 'className', 'id', 'type', 'role', 'name', 'for', 'htmlFor', 'tabindex', 'autocomplete', 'inputmode', 'spellcheck', 'dataset', 'accept', 'style']);
const SELECTOR_CALLS = new Set(['querySelector', 'querySelectorAll', 'closest', 'matches', 'getElementById', 'importVendor', 'loadStyle', 'loadDocumentStyle', 'setProperty']);

/** The text a string or template literal shows (a template's expressions as 0, which is no word). */
export const literalText = (node) => (node.type === 'Literal' ? node.value : node.quasis.map((q) => q.value.cooked ?? q.value.raw).join('0'));

// Where a string is shown as it stands, so that one word is learner text already ('Computing…', 'weight'):
// assigned to a property a learner reads, given as an attribute a learner reads, a child of h() or of an
// element's append/fill, or a branch beside a text() lookup (`busy ? 'Computing…' : text(id)`).
const SHOWN_PROPS = new Set(['textContent', 'innerText', 'title', 'placeholder', 'alt', 'ariaLabel', 'label']);
const SHOWN_KEYS = new Set(['title', 'aria-label', 'placeholder', 'alt', 'label', 'summary']);
const CHILDREN_FROM = { h: 2, fill: 1, append: 0, prepend: 0, replaceChildren: 0, after: 0, before: 0 };
const isTextCall = (e) => e?.type === 'CallExpression' && e.callee.type === 'Identifier' && e.callee.name === 'text';

/** The literal nodes an expression shows: itself, or through ?:, ||, ??, + and arrays. */
function shownIn(expr, out) {
  if (!expr) return out;
  if ((expr.type === 'Literal' && typeof expr.value === 'string') || expr.type === 'TemplateLiteral') out.add(expr);
  else if (expr.type === 'ConditionalExpression') [expr.consequent, expr.alternate].forEach((e) => shownIn(e, out));
  else if (expr.type === 'LogicalExpression' || (expr.type === 'BinaryExpression' && expr.operator === '+')) [expr.left, expr.right].forEach((e) => shownIn(e, out));
  else if (expr.type === 'ArrayExpression') expr.elements.forEach((e) => shownIn(e, out));
  return out;
}

/** The string and template literal nodes of an ESTree that stand where a learner reads them (see SHOWN_PROPS). */
export function shownNodes(ast) {
  const out = new Set();
  walk(ast, (node) => {
    if (node.type === 'AssignmentExpression' && node.left.type === 'MemberExpression' && SHOWN_PROPS.has(node.left.property?.name)) shownIn(node.right, out);
    else if (node.type === 'Property' && SHOWN_KEYS.has(node.key.name ?? node.key.value)) shownIn(node.value, out);
    else if (node.type === 'CallExpression') {
      const name = node.callee.type === 'Identifier' ? node.callee.name : node.callee.property?.name;
      if (Object.hasOwn(CHILDREN_FROM, name)) node.arguments.slice(CHILDREN_FROM[name]).forEach((e) => shownIn(e, out));
      if (name === 'setAttribute' && SHOWN_KEYS.has(node.arguments[0]?.value)) shownIn(node.arguments[1], out);
    } else if (node.type === 'ConditionalExpression') {
      if (isTextCall(node.consequent)) shownIn(node.alternate, out);
      if (isTextCall(node.alternate)) shownIn(node.consequent, out);
    }
  });
  return out;
}

// One word of three letters or more: enough for a string where it is shown ('Run', 'weight', 'Computing…').
const ONE_WORD = /\p{L}{3}/u;

/**
 * The string and template literal nodes of an ESTree that read as learner text, leaving out those in a
 * non-text position (an attribute such as `class` or `id`, a selector, an import, the message of a
 * thrown error, which is for the author or the developer) and those the `exempt` predicate accepts.
 * Learner text: `least` words or more (two, one of them three letters or more) anywhere, or one word
 * where it is shown (shownNodes). A template inside a template counts with its outer one.
 */
export function learnerNodes(ast, exempt = () => false, least = 2) {
  const found = [], errors = [], ids = textsOfIds(ast).nodes, shown = shownNodes(ast);
  walk(ast, (node) => { if (node.type === 'NewExpression' && /Error$/.test(node.callee.name ?? '')) errors.push(node); });
  walk(ast, (node, parent, key) => {
    if (!((node.type === 'Literal' && typeof node.value === 'string') || node.type === 'TemplateLiteral')) return;
    if (parent?.type === 'TemplateLiteral') return;
    if (['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration', 'ImportExpression'].includes(parent?.type)) return;
    if (parent?.type === 'Property' && key === 'value' && NON_TEXT_KEYS.has(parent.key.name ?? parent.key.value)) return;
    if (parent?.type === 'Property' && key === 'key') return;
    if (parent?.type === 'CallExpression' && SELECTOR_CALLS.has(parent.callee.property?.name ?? parent.callee.name)) return;
    if (errors.some((e) => node.start >= e.start && node.end <= e.end)) return;
    if (parent?.type === 'CallExpression' && key === 'arguments' && parent.arguments[0] === node && parent.callee.name === 'text') return; // an id
    if (ids.has(node)) return; // an id of textsOf({ name: id })
    const text = literalText(node);
    if (!(readsAsWords(text, least) || (shown.has(node) && ONE_WORD.test(text))) || exempt(text)) return;
    found.push(node);
  });
  return found;
}

/** The learner-text literals of `source` as [{ line, text }] (see learnerNodes). */
export const learnerLiterals = (source, exempt) =>
  learnerNodes(parse(source), exempt).map((node) => ({ line: node.loc.start.line, text: literalText(node) }));

/** The ids a table of sentences names: the values of the object given to textsOf({ name: id }, …) (lesson/text.js). */
function textsOfIds(ast) {
  const nodes = new Set();
  walk(ast, (node) => {
    if (node.type !== 'CallExpression' || node.callee.name !== 'textsOf' || node.arguments[0]?.type !== 'ObjectExpression') return;
    for (const prop of node.arguments[0].properties) if (prop.value?.type === 'Literal' && typeof prop.value.value === 'string') nodes.add(prop.value);
  });
  return { nodes };
}

/**
 * The lesson-text ids `source` looks up: the first argument of each call of `text(…)`, and the ids of a textsOf table. A literal gives
 * an id; a template gives a pattern (its expressions match any id part), returned as a RegExp.
 */
export function usedIds(source) {
  const ids = [], patterns = [], ast = parse(source);
  for (const node of textsOfIds(ast).nodes) ids.push({ id: node.value, line: node.loc.start.line });
  walk(ast, (node) => {
    if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier' || node.callee.name !== 'text') return;
    const arg = node.arguments[0];
    if (arg?.type === 'Literal' && typeof arg.value === 'string') ids.push({ id: arg.value, line: node.loc.start.line });
    else if (arg?.type === 'TemplateLiteral') {
      const source = arg.quasis.map((q) => q.value.cooked.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^\\s]+');
      patterns.push({ pattern: new RegExp(`^${source}$`), line: node.loc.start.line });
    }
  });
  return { ids, patterns };
}

export const read = (path) => readFileSync(path, 'utf8');
