// The schema owns every fact of a field (issue 34): the key lists the page used to write out in six places
// (VIEW_ONLY, VIEW_FIELDS, NEUTRAL_KEYS, CONTROL_FIELDS, INT_KEYS, SIZE_FIELDS) derive from the field
// records, a field added to the schema lands in the lists its record names, no list is declared anywhere
// else, and an option the learner did not set is left out of what is sent to the core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'acorn';
import { full } from 'acorn-walk';
import * as schema from '../../web/src/model/schema.js';
import { jsFiles, ROOT } from './source_files.mjs';
import { validate } from '../../web/src/model/validate.js';
import { forwardArguments } from '../../web/src/model/job.js';
import { parseTraining, TRAIN_LIMITS } from '../../web/src/model/training_settings.js';
import { modelChanges } from '../../web/src/model/presets.js';
import { pythonTrait } from '../../web/src/page/snippets.js';
import { recordBytes } from '../../web/src/engine/record.js';

const LISTS = ['VIEW_FIELDS', 'VIEW_ONLY', 'SIZE_FIELDS', 'LAYER_FIELDS', 'CONTROL_FIELDS', 'NEUTRAL_KEYS', 'INT_KEYS', 'DECIMAL_KEYS'];
const keys = (list) => [...list];

test('every list is the keys whose records say so, in schema order', () => {
  const of = (test) => schema.FIELDS.filter(test).map((f) => f.key);
  assert.deepEqual(keys(schema.VIEW_FIELDS), of((f) => f.view));
  assert.deepEqual(keys(schema.VIEW_ONLY), of((f) => f.view && !f.author));
  assert.deepEqual(keys(schema.SIZE_FIELDS), of((f) => f.size));
  assert.deepEqual(keys(schema.CONTROL_FIELDS), of((f) => f.control));
  assert.deepEqual(keys(schema.NEUTRAL_KEYS), of((f) => f.neutral));
  assert.deepEqual(keys(schema.INT_KEYS), of((f) => f.kind === 'int' || f.kind === 'flag'));
  // Every record has a kind the page knows, and flags are '1'/'0' choices.
  for (const f of schema.FIELDS) {
    assert.ok(['int', 'decimal', 'flag', 'choice', 'text', 'list'].includes(f.kind), `${f.key} has kind ${f.kind}`);
    if (f.kind === 'flag' || f.kind === 'choice') assert.ok(f.choices?.includes(f.def), `${f.key}: its default is one of its choices`);
    if (f.min !== undefined && f.def !== '') assert.ok(Number(f.def) >= f.min && Number(f.def) <= (f.max ?? Infinity), `${f.key}: default in range`);
  }
});

test('a field added to the schema appears in the lists its record names, and only there', () => {
  const added = (record) => schema.listsOf([...schema.FIELDS, { def: '', ...record }]);
  const where = (lists, key) => LISTS.filter((name) => keys(lists[name]).includes(key));
  assert.deepEqual(where(added({ key: 'n_experts', kind: 'int', size: 'layer', control: true }), 'n_experts'),
    ['SIZE_FIELDS', 'LAYER_FIELDS', 'CONTROL_FIELDS', 'INT_KEYS']);
  assert.deepEqual(where(added({ key: 'zoom', kind: 'decimal', view: true }), 'zoom'), ['VIEW_FIELDS', 'VIEW_ONLY', 'DECIMAL_KEYS']);
  assert.deepEqual(where(added({ key: 'badge', kind: 'text', view: true, author: true, neutral: true }), 'badge'), ['VIEW_FIELDS', 'NEUTRAL_KEYS']);
  assert.deepEqual(where(added({ key: 'note', kind: 'text' }), 'note'), []);
  // The lists of the schema itself are those of listsOf(FIELDS).
  const own = schema.listsOf(schema.FIELDS);
  for (const name of LISTS) assert.deepEqual(keys(schema[name]), keys(own[name]), name);
});

test('the lists where the old copies disagreed: what the schema decides', () => {
  // A read-only learner may change the view (head, item, colours, the followed query, the chapter and its step, the
  // module) but not the author's settings; validation treats all of them as view fields (a note, not an error).
  assert.deepEqual(keys(schema.VIEW_ONLY), ['item', 'head', 'q_item', 'q_head', 'q_query', 'q_key', 'colors', 'simd', 'workers', 'chapter', 'step']);
  for (const key of ['controls', 'panels', 'theme', 'embed', 'lock', 'hide', 'label', 'exercises', 'nav']) {
    assert.ok(schema.VIEW_FIELDS.has(key) && !schema.VIEW_ONLY.has(key), `${key}: a view field a read-only learner cannot change`);
  }
  // n_kv_heads is a size of the layer (K and V are n_kv_heads·d_k wide): a size message may belong to it.
  assert.deepEqual(keys(schema.SIZE_FIELDS), ['d_model', 'n_heads', 'd_k', 'd_v', 'n_q', 'n_k', 'batch', 'text', 'text_kv', 'n_kv_heads']);
  assert.deepEqual(keys(schema.LAYER_FIELDS), ['d_model', 'n_heads', 'd_k', 'd_v', 'n_kv_heads']);
  assert.deepEqual(keys(schema.NEUTRAL_KEYS).sort(), ['chapter', 'embed', 'exercises', 'hide', 'label', 'lock', 'nav', 'step', 'theme']);
  // The widget's traits: whole numbers and 1/0 flags are Int, decimals Float (as snippets.js had them).
  assert.equal(pythonTrait('bias', '1'), 'traitlets.Int(1)');
  assert.equal(pythonTrait('n_kv_heads', '2'), 'traitlets.Int(2)');
  assert.equal(pythonTrait('rope_base', '500'), 'traitlets.Float(500.0)');
  assert.equal(pythonTrait('text', '12'), 'traitlets.Unicode("12")');
});

test('no key list is declared outside the schema: each old site imports it', () => {
  const names = new Set(['VIEW_ONLY', 'VIEW_FIELDS', 'NEUTRAL_KEYS', 'CONTROL_FIELDS', 'INT_KEYS', 'FLOAT_KEYS', 'SIZE_FIELDS', 'DECIMAL_KEYS', 'LAYER_FIELDS']);
  const declared = [];
  for (const path of jsFiles(join(ROOT, 'web/src'))) {
    if (path.endsWith('model/schema.js')) continue;
    full(parse(readFileSync(path, 'utf8'), { ecmaVersion: 'latest', sourceType: 'module', locations: true }), (node) => {
      if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && names.has(node.id.name)) {
        declared.push(`${path.slice(ROOT.length)}:${node.loc.start.line} ${node.id.name}`);
      }
    });
  }
  assert.deepEqual(declared, []);
});

test('the inputs panel has an input for every CONTROL_FIELDS key, and for no other field', () => {
  const source = readFileSync(join(ROOT, 'web/src/features/controls/panel.js'), 'utf8');
  const built = new Set();
  // A field is built by the panel's helpers (textField('d_model', …), check, segmented, menu, area) or by hand in a box
  // marked dataset: { field: 'mask' }.
  full(parse(source, { ecmaVersion: 'latest', sourceType: 'module' }), (node) => {
    const [first] = node.arguments ?? [];
    if (node.type === 'CallExpression' && ['text', 'textField', 'check', 'segmented', 'menu', 'area'].includes(node.callee.name) &&
      first?.type === 'Literal' && schema.isField(first.value)) built.add(first.value);
    if (node.type === 'Property' && node.key.name === 'field' && node.value.type === 'Literal' && schema.isField(node.value.value)) {
      built.add(node.value.value);
    }
  });
  assert.deepEqual([...built].sort(), keys(schema.CONTROL_FIELDS).sort());
});

test('the training lab\'s limits are the schema\'s ranges', () => {
  assert.deepEqual(TRAIN_LIMITS, { d_model: schema.field('train_d_model').max, n_heads: schema.field('train_n_heads').max,
    seq_len: schema.field('train_seq_len').max, seed: schema.field('train_seed').max, steps: schema.field('train_steps').max });
  const state = { ...schema.defaults(), train_steps: String(TRAIN_LIMITS.steps + 1), train_seq_len: '1' };
  const { errors } = parseTraining(state);
  assert.match(errors.train_steps, new RegExp(`at most ${TRAIN_LIMITS.steps.toLocaleString('en-US')}`));
  assert.match(errors.train_seq_len, /at least 2/);
  // Whether n_heads divides d_model is the core's to say (given as resolveView); without it nothing is guessed.
  const odd = { ...schema.defaults(), train_d_model: '30', train_n_heads: '4' };
  assert.equal(parseTraining(odd).errors.train_n_heads, undefined);
  const core = { resolveView: ({ d_model, n_heads }) => ({ ok: false, field: 'n_heads', message: `the core: ${d_model}, ${n_heads}` }) };
  assert.equal(parseTraining(odd, core).errors.train_n_heads, 'the core: 30, 4');
});

test('an option the learner did not set is left out of the record sent to the core', () => {
  assert.equal(schema.field('rope_base').def, '', 'rope_base has no default of the page\'s own');
  const asked = [];
  // An engine stand-in that records what validation asks and answers as the core would for d_model 64, 4 heads.
  const env = {
    resolveView: (request) => {
      asked.push(request);
      return { ok: true, dims: { d_model: 64, n_heads: 4, n_kv_heads: 4, d_k: 16, d_v: 16, n_q: 8, n_k: 8, batch: 1, kv_head_of: [0, 1, 2, 3], rope_base: 9999 } };
    },
  };
  const rope = validate({ ...schema.defaults(), positional: 'rope', source: 'random' }, env);
  assert.ok(rope.ok, JSON.stringify(rope.errors));
  assert.equal(rope.config.rope_base, undefined, 'not typed: not in the config');
  assert.equal(rope.config.rope_base_used, 9999, 'the base the core says it uses (for the export)');
  assert.equal('rope_base' in asked.at(-1) && asked.at(-1).rope_base !== undefined, false, 'resolveView is not told a base');
  const args = forwardArguments(rope.config, { query: new Float32Array(0) });
  assert.equal('rope_base' in args, false, 'forward is not told a base');
  assert.equal(args.positional, 'rope');
  const typed = validate({ ...schema.defaults(), positional: 'rope', rope_base: '500', source: 'random' }, env);
  assert.equal(typed.config.rope_base, 500);
  assert.equal(asked.at(-1).rope_base, 500);
  assert.equal(forwardArguments(typed.config, { query: new Float32Array(0) }).rope_base, 500);
  // Without a positional method nothing of RoPE is sent.
  const none = validate({ ...schema.defaults(), rope_base: '500', source: 'random' }, env);
  assert.equal(none.config.rope_base, undefined);
  assert.equal('positional' in asked.at(-1), false);
  // The record the engine writes for the core leaves an undefined option out entirely (no field, no value).
  const bytes = recordBytes({ scale: true, rope_base: undefined, sram: undefined });
  const text = String.fromCharCode(...bytes);
  assert.ok(text.startsWith('scale\u0000b') && !text.includes('rope_base') && !text.includes('sram'), 'only the given options travel');
  // The core's rules of RoPE arrive as its answer, on the field it names.
  const odd = validate({ ...schema.defaults(), positional: 'rope', source: 'random' },
    { resolveView: () => ({ ok: false, field: 'positional', message: 'the core: d_k must be even' }) });
  assert.equal(odd.errors.positional, 'the core: d_k must be even');
});

test('a model preset keeps d_k empty exactly when the core says it is the derived one', () => {
  const model = { name: 'M', d_model: 512, n_heads: 8, d_k: 64, n_kv_heads: 8 };
  assert.equal(modelChanges({ ...model, d_k_derived: true }).d_k, '');
  assert.equal(modelChanges({ ...model, d_k_derived: false }).d_k, 64);
});
