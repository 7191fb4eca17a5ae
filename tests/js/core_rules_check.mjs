// The guard of issue 34 ("no rule in JavaScript"), read from the syntax tree (acorn), not from the text:
// outside web/src/engine/ no arithmetic may take the lesson's dimension names as operands (the sizes'
// rules are the core's: ask resolveView or analyze), and nowhere may a deleted copy of a core rule come
// back (the word hash, the page's random stream, Box–Muller, the mask grid, the head-count rules).
import { parse } from 'acorn';
import { full } from 'acorn-walk';

/** The lesson's dimension names, as identifiers (d_model) or as properties (view.d_model, d['n_heads']). */
export const DIMENSION_NAMES = Object.freeze(['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'd_v', 'n_q', 'n_k', 'batch']);
const DIMS = new Set(DIMENSION_NAMES);
const ARITHMETIC = new Set(['+', '-', '*', '/', '%', '**']);
const ASSIGNING = new Set(['+=', '-=', '*=', '/=', '%=', '**=']);
const RELATIONAL = new Set(['<', '<=', '>', '>=']);

// The constants of the deleted helpers: an AST literal holds the number whether it was written in hex
// (as the sources had it) or in decimal (as a minifier prints it).
const CONSTANTS = new Map([
  [0x811c9dc5, 'the FNV-1a word hash'], [0x01000193, 'the FNV-1a word hash'],
  [0x6d2b79f5, 'the page stream\'s mixing constants'], [0x27d4eb2d, 'the page stream\'s mixing constants'],
  [0x85ebca6b, 'the page stream\'s mixing constants'],
]);
// Names of deleted helpers: anywhere (divisorsNear, perKv), or as a function of its own (the mask grid's).
const NAMES = new Map([['divisorsNear', 'validate.js\'s head-count rules'], ['perKv', 'the query heads per key/value head']]);
const FUNCTIONS = new Map([['maskGrid', 'the mask grid'], ['isMasked', 'the mask grid']]);
const SENTENCES = [[/must be a multiple of n_kv_heads|can be at most n_heads|is larger than d_model/, 'validate.js\'s head-count rules']];

/** The dimension name `node` stands for (an identifier, a property, or one through -x, a ?? b, c ? a : b, Number(x)), or null. */
export function dimensionOf(node) {
  if (!node) return null;
  switch (node.type) {
    case 'Identifier': return DIMS.has(node.name) ? node.name : null;
    case 'MemberExpression': {
      const key = node.computed ? (node.property.type === 'Literal' ? String(node.property.value) : null) : node.property.name;
      return DIMS.has(key) ? key : null;
    }
    case 'ChainExpression': return dimensionOf(node.expression);
    case 'UnaryExpression': return node.operator === '-' || node.operator === '+' ? dimensionOf(node.argument) : null;
    case 'LogicalExpression': return dimensionOf(node.left) ?? dimensionOf(node.right);
    case 'ConditionalExpression': return dimensionOf(node.consequent) ?? dimensionOf(node.alternate);
    case 'CallExpression': return isMathCall(node) || isNumberCall(node) ? node.arguments.map(dimensionOf).find(Boolean) ?? null : null;
    default: return null;
  }
}

const isMember = (node, object, property) => node?.type === 'MemberExpression' && !node.computed &&
  node.object.type === 'Identifier' && node.object.name === object && (!property || node.property.name === property);
const isMathCall = (node) => node.type === 'CallExpression' && isMember(node.callee, 'Math');
const isNumberCall = (node) => node.type === 'CallExpression' && node.callee.type === 'Identifier' &&
  ['Number', 'parseInt', 'parseFloat'].includes(node.callee.name);
const isText = (node) => node.type === 'TemplateLiteral' || (node.type === 'Literal' && typeof node.value === 'string');

const isNumber = (node) => node.type === 'Literal' && typeof node.value === 'number';
/** Math functions that only bound or round a size (a display cap, Math.min(n_q, 64)): a rule only over two sizes. */
const BOUNDING = new Set(['min', 'max', 'floor', 'ceil', 'round', 'trunc', 'abs']);

/**
 * The local names that hold a dimension as it is (`const kvh = d.n_kv_heads ?? d.n_heads` makes kvh stand for
 * n_kv_heads; a bounded copy such as Math.min(n_q, 64) does not), file-wide: a second pass reads them as that dimension.
 */
function aliasesOf(ast) {
  const aliases = new Map();
  const plain = (node) => ['Identifier', 'MemberExpression', 'ChainExpression', 'LogicalExpression'].includes(node?.type);
  full(ast, (node) => {
    if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && !DIMS.has(node.id.name) && plain(node.init)) {
      const name = dimensionOf(node.init);
      if (name) aliases.set(node.id.name, name);
    }
  });
  return aliases;
}

/** The names a module binds to a number literal (`const FIRST_KEY_TILES = 4`), file-wide: name → value. */
function numberNames(ast) {
  const numbers = new Map();
  full(ast, (node) => {
    if (node.type !== 'VariableDeclaration' || node.kind !== 'const') return;
    for (const d of node.declarations) if (d.id.type === 'Identifier' && d.init && isNumber(d.init)) numbers.set(d.id.name, d.init.value);
  });
  return numbers;
}

/**
 * The arithmetic over the lesson's dimension names in `source` (a module's text): [{ line, column, rule, text }].
 * A size combined with a size (d_model / n_heads, n_heads * d_k, d.n_heads / kvh), with a number other than 0
 * and 1 (d_model / 2, 4 * d_model), by % or ** (d_k % 2), or under Math.sqrt, log, pow… (Math.sqrt(d_k)), and
 * one size held against another (n_heads > d_model): each is a rule of the sizes, which is the core's. Not
 * counted: a size with a loop index or a name of the page (item * n_heads + head, batch - 1), a display cap
 * (Math.min(n_q, MAX_N)), and a + that joins text.
 */
export function dimensionArithmetic(source) {
  const found = [];
  const add = (node, rule) => found.push({ line: node.loc.start.line, column: node.loc.start.column, rule, text: source.slice(node.start, node.end).slice(0, 80) });
  const ast = parseModule(source);
  const aliases = aliasesOf(ast);
  const numbers = numberNames(ast);
  // A number by its name (const FIRST_KEY_TILES = 4) is the number: naming it does not make n_k / 4 a display choice.
  const isCount = (node) => isNumber(node) || (node?.type === 'Identifier' && numbers.has(node.name));
  const named = (node) => dimensionOf(node) ?? (node?.type === 'Identifier' ? aliases.get(node.name) ?? null : null);
  const arithmetic = (node, operator, left, right) => {
    if (operator === '+' && (isText(left) || isText(right))) return;
    const a = named(left), b = named(right);
    const constant = (side, other) => side && isCount(other) && (numbers.get(other.name) ?? other.value) !== 0 && (numbers.get(other.name) ?? other.value) !== 1;
    if ((a && b) || constant(a, right) || constant(b, left) || ((a || b) && (operator === '%' || operator === '**'))) {
      add(node, a && b ? `${a} ${operator} ${b}` : `${operator} over ${a ?? b}`);
    }
  };
  full(ast, (node) => {
    if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'otherCase') {
      for (const bad of computedChanges(node.arguments[1])) add(bad, 'otherCase with a computed change');
    }
    if (node.type === 'BinaryExpression' && ARITHMETIC.has(node.operator)) arithmetic(node, node.operator, node.left, node.right);
    else if (node.type === 'AssignmentExpression' && ASSIGNING.has(node.operator)) arithmetic(node, node.operator.slice(0, -1), node.left, node.right);
    else if (node.type === 'CallExpression' && isMathCall(node)) {
      const names = node.arguments.map(named).filter(Boolean);
      const fn = node.callee.property.name;
      if (names.length >= 2 || (names.length && !BOUNDING.has(fn))) add(node, `Math.${fn} over ${names.join(', ')}`);
    } else if (node.type === 'BinaryExpression' && RELATIONAL.has(node.operator) && named(node.left) && named(node.right)) {
      add(node, `${named(node.left)} ${node.operator} ${named(node.right)}`);
    }
  });
  return found;
}

/**
 * An exercise's other case (lesson/exercises/other_case.js) is data: otherCase(c, { name: { from: 'a size',
 * times: 2, plus: -1 } }) with number literals (or -literals) and a literal `from` naming a dimension, so the
 * one place that multiplies a size by a choice is the helper. Anything else in the changes (c.n_heads, a
 * variable, an expression, a spread) is a rule in disguise: the nodes that are not such data.
 */
function computedChanges(changes) {
  const literal = (v) => isNumber(v) || (v?.type === 'UnaryExpression' && v.operator === '-' && isNumber(v.argument));
  const keyOf = (p) => (p.computed ? null : p.key.type === 'Identifier' ? p.key.name : p.key.value);
  if (changes?.type !== 'ObjectExpression') return [changes ?? { loc: { start: { line: 0, column: 0 } }, start: 0, end: 0 }];
  const bad = [];
  for (const prop of changes.properties) {
    if (prop.type !== 'Property' || prop.computed || prop.value.type !== 'ObjectExpression') { bad.push(prop); continue; }
    for (const p of prop.value.properties) {
      const key = p.type === 'Property' ? keyOf(p) : null;
      const ok = (key === 'times' || key === 'plus') ? literal(p.value)
        : key === 'from' && p.value.type === 'Literal' && DIMS.has(p.value.value);
      if (!ok) bad.push(p);
    }
  }
  return bad;
}

/**
 * The deleted copies of core rules in `source` (a module or a built bundle, where names are minified but
 * properties and literals stay): [{ line, column, rule, text }].
 */
export function ruleCopies(source) {
  const found = [];
  const add = (node, rule) => found.push({ line: node.loc.start.line, column: node.loc.start.column, rule, text: source.slice(node.start, node.end).slice(0, 80) });
  const heads = (node) => ['n_heads', 'n_kv_heads'].includes(dimensionOf(node));
  full(parseModule(source), (node) => {
    if (node.type === 'Literal' && typeof node.value === 'number' && CONSTANTS.has(node.value)) add(node, CONSTANTS.get(node.value));
    if (node.type === 'Literal' && typeof node.value === 'string') {
      for (const [pattern, rule] of SENTENCES) if (pattern.test(node.value)) add(node, rule);
    }
    if (node.type === 'TemplateElement') {
      for (const [pattern, rule] of SENTENCES) if (pattern.test(node.value.cooked ?? '')) add(node, rule);
    }
    if (node.type === 'Identifier' && NAMES.has(node.name)) add(node, NAMES.get(node.name));
    if (node.type === 'FunctionDeclaration' && FUNCTIONS.has(node.id?.name)) add(node, FUNCTIONS.get(node.id.name));
    // maskGrid(config, …): the page's own grid called with its config (attn.maskGrid is the engine's).
    if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'maskGrid' &&
      node.arguments[0]?.type === 'Identifier' && node.arguments[0].name === 'config') add(node, 'the mask grid');
    // Box–Muller: Math.sqrt(-2 * Math.log(u)).
    if (node.type === 'CallExpression' && isMember(node.callee, 'Math', 'sqrt')) {
      const [arg] = node.arguments;
      const minusTwo = (n) => (n?.type === 'UnaryExpression' && n.operator === '-' && n.argument.value === 2) || n?.value === -2;
      if (arg?.type === 'BinaryExpression' && arg.operator === '*' && minusTwo(arg.left) &&
        arg.right.type === 'CallExpression' && isMember(arg.right.callee, 'Math', 'log')) add(node, 'Box–Muller');
    }
    if (node.type === 'BinaryExpression') {
      // Which n_kv_heads divide n_heads, and how many query heads share a key/value head: the core's.
      if (node.operator === '%' && (heads(node.left) || dimensionOf(node.right) === 'n_kv_heads')) add(node, 'the n_kv_heads divisor rule');
      if (node.operator === '/' && dimensionOf(node.left) === 'n_heads' && dimensionOf(node.right) === 'n_kv_heads') {
        add(node, 'the query heads per key/value head');
      }
    }
  });
  return found;
}

// The last text's tree: core_rules.test asks dimensionArithmetic and then ruleCopies of each file of web/src in
// turn, so each file is parsed once (parsing is most of its time); keeping one tree only, not every file's,
// spares the collector. Nothing here changes a tree.
let last = { source: null, tree: null };
function parseModule(source) {
  if (last.source !== source) last = { source, tree: parse(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true, allowHashBang: true }) };
  return last.tree;
}
