// web/EMBED.md against the code it documents: its panel table is written from the features' table
// (names, titles, what they show, in order) by scripts/panel_table.mjs (into web/EMBED.md, and again
// into dist/EMBED.md by make_dist), and its key
// table is the state schema (every key, its default), so the docs cannot drift from the playground.
// Node only: no browser needed (the panel table of dist/EMBED.md is checked when dist/ is built).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fillPanelTable } from '../../scripts/panel_table.mjs';
import { FEATURES } from '../../web/src/features/index.js';
import { FIELDS, ELEMENT_KEYS } from '../../web/src/model/schema.js';

const doc = await readFile(new URL('../../web/EMBED.md', import.meta.url), 'utf8');

/** The rows of the table between <!-- name:start … --> and <!-- name:end --> of `text`, as arrays of cells. */
function table(name, text = doc) {
  const start = text.indexOf(`<!-- ${name}:start`), end = text.indexOf(`<!-- ${name}:end -->`);
  assert.ok(start >= 0 && end > start, `EMBED.md has the ${name} table between its markers`);
  return text.slice(start, end).split('\n').filter((line) => line.startsWith('|')).slice(2)
    .map((line) => line.slice(1, -1).split(' | ').map((cell) => cell.trim()));
}

/** The rows must be the table of features', in order, with each title and what it shows. */
function assertPanels(rows) {
  assert.deepEqual(rows.map(([name]) => name), FEATURES.map((p) => `\`${p.name}\``));
  for (const [[, title, about], panel] of rows.map((row, i) => [row, FEATURES[i]])) {
    assert.equal(title, panel.title, `${panel.name}: title`);
    assert.equal(about, panel.about, `${panel.name}: what it shows`);
  }
}

test('EMBED.md\'s panel table is written from the table of features, in order, with its title and what it shows', async () => {
  assertPanels(table('panels'));
  assert.equal(doc, fillPanelTable(doc, FEATURES), 'web/EMBED.md\'s panel table is stale: run node scripts/panel_table.mjs');
  const built = new URL('../../dist/EMBED.md', import.meta.url);
  if (existsSync(built)) assertPanels(table('panels', await readFile(built, 'utf8')));
  assert.throws(() => fillPanelTable('no markers', FEATURES), /no <!-- panels:start … --> … <!-- panels:end --> markers/);
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
    'weights', 'train_task', 'train_d_model', 'train_n_heads', 'train_seq_len', 'train_lr', 'train_seed', 'train_steps',
    'window', 'stride', 'positional', 'rope_base', // issue 26: sparse masks and positional methods
    'chapter', 'lock', 'hide', 'label', 'exercises', // issue 25: the lesson's chapters, author profiles, landmark names, exercises
    'imported', // issue 27: a view running with imported tensors says so
    'nav', // issue 38: nav=none hides the chapter list and keeps the chapter's text
    'step']; // issue 37: the step of the chapter shown
  // (element.js observes ELEMENT_KEYS; element.test.mjs checks the defined element in a browser.)
  assert.deepEqual([...ELEMENT_KEYS].sort(), [...hashKeys, 'theme', 'controls'].sort());
});
