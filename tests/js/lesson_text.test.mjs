// The lesson's words live in the lesson's data (web/src/lesson/), looked up by id (lesson/text.js):
// (a) no code file of web/src/features or web/src/lesson holds a learner's sentence as a string or template literal (acorn
// finds them: three or more words of letters; tests/js/lesson_text_exempt.mjs lists the few that are
// not learner text); (b) every id the code looks up is in the English table; (c) every id in the table
// is used by the code or by a chapter's data; and the lookup itself: overrides, placeholders, errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { jsFiles, ROOT } from './source_files.mjs';
import { learnerLiterals, usedIds, read, parse, walk } from './lesson_text.mjs';
import { isExempt } from './lesson_text_exempt.mjs';
import { text, textIds, useText, addText } from '../../web/src/lesson/text.js';
import { CHAPTERS } from '../../web/src/lesson/chapters.js';

const SRC = join(ROOT, 'web/src');
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
  const found = [];
  for (const { path, source } of code.filter((f) => f.path.startsWith('web/src/features/') || (f.path.startsWith('web/src/lesson/') && !DATA.test(f.path)))) {
    for (const { line, text: t } of learnerLiterals(source, isExempt)) found.push(`${path}:${line}: ${JSON.stringify(t.slice(0, 90))}`);
  }
  assert.deepEqual(found, [], `learner text in a feature's code (move it to web/src/lesson/panels/<feature>.js and call text(id)):\n${found.join('\n')}`);
});

test('(a) the check finds a planted sentence, and leaves class names, ids and selectors alone', () => {
  const planted = "h('p', { class: 'note lead wide', id: 'one-two-three' }, 'Each head scores its queries.'); el.querySelector('.a .b .c');";
  assert.deepEqual(learnerLiterals(planted).map((l) => l.text), ['Each head scores its queries.']);
  assert.deepEqual(learnerLiterals('const s = `Head ${i} of ${n} heads`;').map((l) => l.line), [1]);
  assert.deepEqual(learnerLiterals("throw new Error(`the feature “${name}” asks for nothing`);"), [], 'a thrown error is for the developer');
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
