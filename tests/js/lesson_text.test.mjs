// The lesson's words live in the lesson's data (web/src/lesson/), looked up by id (lesson/text.js):
// (a) no code file of web/src/features, web/src/lesson, web/src/playground or the form's validation
// (model/validate.js, parse.js) holds a learner's words as a string or template literal (acorn finds them:
// two or more words of letters, or one word where it is shown, as a textContent, a title or a child of h();
// lesson_text_exempt.mjs lists the few that are not learner text, lesson_text_leftovers.mjs those not moved
// yet); (b) every id the code looks up is in the English table; (c) every id in the table is used by the
// code or by a chapter's data; and the lookup itself: overrides, placeholders, errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { jsFiles, ROOT } from './source_files.mjs';
import { learnerLiterals, usedIds, read, parse, walk } from './lesson_text.mjs';
import { isExempt } from './lesson_text_exempt.mjs';
import { LEFTOVERS } from './lesson_text_leftovers.mjs';
import { text, textIds, useText, addText } from '../../web/src/lesson/text.js';
import { CHAPTERS } from '../../web/src/lesson/chapters.js';

const SRC = join(ROOT, 'web/src');
// The code test (a) reads: the features, the lesson's code, the playground's parts and the form's validation messages.
const CHECKED = (path) => path.startsWith('web/src/features/') || (path.startsWith('web/src/lesson/') && !DATA.test(path)) ||
  path.startsWith('web/src/playground/') || /^web\/src\/model\/(validate|parse)\.js$/.test(path);
// The English table: every data file of the lesson (each registers its words when imported).
for (const name of readdirSync(join(SRC, 'lesson/panels'))) await import(pathToFileURL(join(SRC, 'lesson/panels', name)).href);
// The exercises' words (loaded with the catalogue) and the session's.
await import(pathToFileURL(join(SRC, 'lesson/exercises/catalogue.js')).href);
await import(pathToFileURL(join(SRC, 'lesson/exercises/session.js')).href);
// The words an author's lesson uses when it gives none of its own (web/src/author/).
await import(pathToFileURL(join(SRC, 'lesson/author_text.js')).href);
const TABLE = new Set(textIds());
const code = jsFiles(SRC).map((path) => ({ path: relative(ROOT, path), source: read(path) }));

// The lesson's data files: the tables of words themselves (the one place a sentence may be written).
const DATA = /^web\/src\/lesson\/(text\.js|panels\/|chapters\/[^/]+\/chapter\.js|.*_text\.js)/;

test('(a) no learner text in a feature\'s code nor in the lesson\'s code: each sentence is in the lesson\'s data', () => {
  const found = [], gone = [];
  for (const { path, source } of code.filter((f) => CHECKED(f.path))) {
    const known = LEFTOVERS[path] ?? [];
    const literals = learnerLiterals(source, isExempt);
    for (const { line, text: t } of literals) if (!known.includes(t)) found.push(`${path}:${line}: ${JSON.stringify(t.slice(0, 90))}`);
    for (const t of known) if (!literals.some((l) => l.text === t)) gone.push(`${path}: ${JSON.stringify(t)}`);
  }
  for (const path of Object.keys(LEFTOVERS)) if (!code.some((f) => f.path === path && CHECKED(path))) gone.push(`${path} (no such checked file)`);
  assert.deepEqual(found, [], `learner text in code (move it to web/src/lesson/panels/<feature>.js and call text(id)):\n${found.join('\n')}`);
  assert.deepEqual(gone, [], `listed in tests/js/lesson_text_leftovers.mjs but no longer in the code: delete these lines there:\n${gone.join('\n')}`);
});

test('(a) the check finds a planted sentence, and leaves class names, ids and selectors alone', () => {
  const planted = "h('p', { class: 'note lead wide', id: 'one-two-three' }, 'Each head scores its queries.'); el.querySelector('.a .b .c');";
  assert.deepEqual(learnerLiterals(planted).map((l) => l.text), ['Each head scores its queries.']);
  assert.deepEqual(learnerLiterals('const s = `Head ${i} of ${n} heads`;').map((l) => l.line), [1]);
  assert.deepEqual(learnerLiterals("throw new Error(`the feature “${name}” asks for nothing`);"), [], 'a thrown error is for the developer');
});

test('(a) the net holds short words too: two words anywhere, one word where a learner reads it', () => {
  // What the three-word net let through (the heatmaps' placeholder, legend and scale menu, review of issue 34).
  const planted = [
    "placeholder.textContent = running ? 'Computing…' : text('heatmaps.press_run_compute_maps');",
    "function said(busy) { return busy ? 'Computing…' : text('heatmaps.press_run_compute_maps'); }",
    "fill(legend, h('span', {}, 'weight'), bar);",
    "const scale = h('option', { value: 'log' }, 'log, 3 decades');",
    "const names = { previous: 'previous token' };",
    "button.title = 'Enlarge';",
    "box.append(`Head ${k + 1}`);",
    "h('canvas', { 'aria-label': 'colour scale' });",
  ];
  for (const source of planted) assert.equal(learnerLiterals(source).length, 1, `not found in: ${source}`);
  // Not learner text: ids, keys, classes, selectors, values of a choice, events, a single word kept as data.
  const quiet = [
    "text('heatmaps.computing'); textsOf({ a: 'heatmaps.legend_weight' });",
    "h('div', { class: 'heat-side note', id: 'head-jobs', dataset: { pattern: 'first_token' } });",
    "el.addEventListener('change', f); actions.edit({ colors: 'log' }, 'colors'); el.closest('.ap .stepped');",
    "const mode = state.colors === 'row' ? 'row' : 'linear'; if (kind === 'memory') {}",
    "throw new RangeError(`no such head: ${k}`);",
  ];
  for (const source of quiet) assert.deepEqual(learnerLiterals(source).map((l) => l.text), [], `found in: ${source}`);
});

test('(a) the net would have failed on the heatmaps\' placeholder as it was', () => {
  const before = "function placeholderText(check, engine, running) {\n  if (!engine) return text('heatmaps.loading_engine');\n" +
    "  return running || check.auto ? 'Computing…' : text('heatmaps.press_run_compute_maps');\n}";
  assert.deepEqual(learnerLiterals(before), [{ line: 3, text: 'Computing…' }]);
});

test('(b) every id the code looks up is in the English table', () => {
  const missing = [];
  for (const { path, source } of code) {
    for (const { id, line } of usedIds(source).ids) if (!TABLE.has(id)) missing.push(`${path}:${line}: ${id}`);
  }
  for (const chapter of CHAPTERS) {
    for (const step of chapter.steps) for (const id of [...step.text, ...(step.title ? [step.title] : [])]) if (!TABLE.has(id)) missing.push(`chapter ${chapter.name}, step ${step.id}: ${id}`);
  }
  assert.deepEqual(missing, []);
});

test('(b) the values a call fills are placeholders of its sentence', () => {
  const wrong = [];
  for (const { path, source } of code) {
    walk(parse(source), (node) => {
      if (node.type !== 'CallExpression' || node.callee.name !== 'text') return;
      const [id, values] = node.arguments;
      if (id?.type !== 'Literal' || values?.type !== 'ObjectExpression' || !TABLE.has(id.value)) return;
      for (const p of values.properties) {
        const name = p.key?.name ?? p.key?.value;
        if (p.type === 'Property' && !text(id.value).includes(`{${name}}`)) wrong.push(`${path}:${node.loc.start.line}: ${id.value} has no {${name}}`);
      }
    });
  }
  assert.deepEqual(wrong, []);
});

test('(c) every id in the table is used by the code or a chapter', () => {
  const used = new Set(), patterns = [];
  for (const { source } of code) {
    const u = usedIds(source);
    for (const { id } of u.ids) used.add(id);
    patterns.push(...u.patterns.map((p) => p.pattern));
  }
  for (const chapter of CHAPTERS) for (const step of chapter.steps) for (const id of [...step.text, ...(step.title ? [step.title] : [])]) used.add(id);
  const unused = [...TABLE].filter((id) => !used.has(id) && !patterns.some((p) => p.test(id)));
  assert.deepEqual(unused, [], `ids no code nor chapter uses: ${unused.join(', ')}`);
  assert.ok(TABLE.size > 500, `${TABLE.size} sentences in the table`);
});

test('text(): placeholders, an override table (an author\'s version or a translation), unknown ids', () => {
  addText({ 'test.lookup.greeting': 'Head {n} of {total}, {tex} stays' });
  assert.equal(text('test.lookup.greeting', { n: 2, total: 4 }), 'Head 2 of 4, {tex} stays');
  assert.throws(() => text('test.lookup.nothing'), /unknown lesson text id “test\.lookup\.nothing”/);
  assert.throws(() => useText({ 'test.lookup.nothing': 'x' }), /unknown lesson text id: test\.lookup\.nothing/);
  assert.throws(() => addText({ 'test.lookup.greeting': 'other words' }), /defined twice/);
  const undo = useText({ 'test.lookup.greeting': 'Kopf {n} von {total}' }, 'de');
  assert.equal(text('test.lookup.greeting', { n: 1, total: 2 }, 'de'), 'Kopf 1 von 2');
  assert.equal(text('test.lookup.greeting', { n: 1, total: 2 }), 'Head 1 of 2, {tex} stays', 'English is unchanged');
  const author = useText({ 'chapter.attention.title': 'Attention, my way' });
  assert.equal(CHAPTERS[0].title, 'Attention, my way', 'a chapter\'s title is looked up when read');
  author();
  undo();
  assert.equal(CHAPTERS[0].title, 'Scaled dot-product attention');
  assert.equal(text('test.lookup.greeting', 'de').startsWith('Head'), true, 'a removed translation falls back to English');
});
