// web/EMBED.md against the code it documents: its panel table is the features' table (names, titles,
// what they show, in order) and its key table is the state schema (every key, its default), so the
// docs cannot drift from the playground. Node only: no browser needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { FEATURES } from '../../web/src/features/index.js';
import { FIELDS, ELEMENT_KEYS } from '../../web/src/model/schema.js';

const doc = await readFile(new URL('../../web/EMBED.md', import.meta.url), 'utf8');

/** The rows of the table between <!-- name:start … --> and <!-- name:end -->, as arrays of cells. */
function table(name) {
  const start = doc.indexOf(`<!-- ${name}:start`), end = doc.indexOf(`<!-- ${name}:end -->`);
  assert.ok(start >= 0 && end > start, `EMBED.md has the ${name} table between its markers`);
  return doc.slice(start, end).split('\n').filter((line) => line.startsWith('|')).slice(2)
    .map((line) => line.slice(1, -1).split(' | ').map((cell) => cell.trim()));
}

test('EMBED.md lists every feature of the table, in order, with its title and what it shows', () => {
  const rows = table('panels');
  assert.deepEqual(rows.map(([name]) => name), FEATURES.map((p) => `\`${p.name}\``));
  for (const [[, title, about], panel] of rows.map((row, i) => [row, FEATURES[i]])) {
    assert.equal(title, panel.title, `${panel.name}: title`);
    assert.equal(about, panel.about, `${panel.name}: what it shows`);
  }
});

test('EMBED.md lists every key of the schema with its default; the element\'s attributes are the hash keys + theme, controls', () => {
  const rows = table('keys');
  assert.deepEqual(rows.map(([key]) => key), FIELDS.map((f) => `\`${f.key}\``));
  for (const [[, def], field] of rows.map((row, i) => [row, FIELDS[i]])) {
    assert.equal(def, field.def === '' ? '(empty)' : `\`${field.def}\``, `${field.key}: default`);
  }
  // The element's attributes: the list of hash keys, plus theme and controls.
  const hashKeys = ['d_model', 'n_heads', 'd_k', 'd_v', 'attention', 'source', 'text', 'text_kv', 'n_q', 'n_k', 'batch', 'bias', 'seed',
    'input_seed', 'mask', 'padding', 'scale', 'dropout', 'dropout_seed', 'n_kv_heads', 'heads', 'panels', 'head', 'item', 'colors', 'simd',
    'workers', // issue 14: the worker pool
    'q_item', 'q_head', 'q_query', 'q_key',
    // the training lab (issue 13): its settings, and the layer's weights learnt there
    'weights', 'train_task', 'train_d_model', 'train_n_heads', 'train_seq_len', 'train_lr', 'train_seed', 'train_steps'];
  // (element.js observes ELEMENT_KEYS; element.test.mjs checks the defined element in a browser.)
  assert.deepEqual([...ELEMENT_KEYS].sort(), [...hashKeys, 'theme', 'controls'].sort());
});
