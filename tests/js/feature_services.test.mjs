// Exercises are an ordinary feature (issue 34): what a feature adds to the playground besides its panel
// (its service.js: events, API members, its part of the view) reaches the playground, the element, the
// widget and the page's frame through one derived list (features/services.js), so no code outside the
// exercises' folder, the table of features and the lesson's data names them. Node only: the source is
// read as tokens (a comment may still give them as an example); tests/browser/feature_services.test.mjs
// holds the element's members out of a document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { tokenizer, tokTypes } from 'acorn';
import { ROOT, jsFiles } from './source_files.mjs';
import { FEATURES } from '../../web/src/features/index.js';
import { HOST_EVENTS, WIDGET_TRAITS, WIDGET_INPUTS, ELEMENT_API } from '../../web/src/features/services.js';

/** Where the exercises may be named in code: their feature's folder, the table, the lesson's data, and the schema's `exercises` key. */
// (web/src/lms/, the SCORM adapter, reports the exercises' record to an LMS: it arrived with its own wiring,
// left for the lead to move onto the services' events.)
// (web/src/author/ reads an author's lesson file, whose exercises are part of its form: issue 38. The share
// builder, page/share.js, share_options.js and share_view.js, lists the chapter's exercises with their prompts and ids
// for an author to choose from: issue 38.)
const ALLOWED = [/^web\/src\/features\/exercises\//, /^web\/src\/features\/index\.js$/, /^web\/src\/lesson\//, /^web\/src\/model\/schema\.js$/, /^web\/src\/lms\//, /^web\/src\/author\//, /^web\/src\/page\/share(_options|_view)?\.js$/];

test('no code outside the exercises\' folder, the table and the lesson names them (identifiers and strings)', () => {
  const named = [];
  for (const path of jsFiles(`${ROOT}web/src`)) {
    const name = relative(ROOT, path);
    if (ALLOWED.some((re) => re.test(name))) continue;
    const text = readFileSync(path, 'utf8');
    for (const token of tokenizer(text, { ecmaVersion: 'latest', sourceType: 'module', locations: true })) {
      const word = token.type === tokTypes.name || token.type === tokTypes.string || token.type === tokTypes.template ? String(token.value) : '';
      if (/exercis/i.test(word)) named.push(`${name}:${token.loc.start.line}: ${word.slice(0, 60)}`);
    }
  }
  assert.deepEqual(named, [], `derive these from the feature's service (features/services.js):\n${named.join('\n')}`);
});

test('the services\' lists come from the table: the exercises\' events, trait and element members', () => {
  const withService = FEATURES.filter((f) => f.service);
  assert.deepEqual(withService.map((f) => f.name), ['exercises', 'export']);
  assert.deepEqual(Object.keys(HOST_EVENTS).sort(), ['attempt', 'exercises', 'progress']);
  assert.deepEqual(WIDGET_TRAITS, ['progress']);
  assert.deepEqual(Object.keys(WIDGET_INPUTS), ['tensors']);
  assert.match(WIDGET_INPUTS.tensors.refused(new Error('x')), /^The notebook's tensors were not imported: x$/);
  assert.deepEqual(Object.keys(ELEMENT_API).sort(), ['answer', 'clearProgress', 'exercises', 'exportBundle', 'exportTensors', 'reveal']);
  // What a host passes on: the attempt as it is, the progress without the per-chapter counts.
  const attempt = { id: 'cost.dominant', chapter: 'cost', correct: true, answer: 'x', expected: 'x', attempts: 2, first_try: false, revealed: false };
  assert.deepEqual(HOST_EVENTS.attempt(attempt), attempt);
  assert.deepEqual(HOST_EVENTS.progress({ chapter: 'cost', done: 1, total: 5, score: 0.2, first_try: 0.2, chapters: { cost: { done: 1, total: 5 } } }),
    { chapter: 'cost', done: 1, total: 5, score: 0.2, first_try: 0.2 });
  const listed = { chapter: 'cost', exercises: [{ id: 'cost.dominant', chapter: 'cost', kind: 'choice', prompt: 'p' }] };
  assert.deepEqual(HOST_EVENTS.exercises(listed), listed);
  for (const f of withService) {
    for (const [name, spec] of Object.entries(f.service.api)) {
      assert.ok(!(name in FEATURES[0]) && !['state', 'run', 'on', 'destroy', 'result', 'ready'].includes(name), `${f.name}: ${name} would hide the playground's own`);
      if (spec.element) assert.equal(typeof spec.element.detached, 'function', `${f.name}: ${name} says what the element does out of a document`);
    }
  }
});
