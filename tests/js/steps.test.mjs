// A chapter told in steps (issue 37): the `step` key in the link (beside `chapter=`), read as a 1-based
// number with a note naming the chapter's step count when it names no step; what a step shows (its
// panels expanded, the form with its fields, the exercises placed at it, the chapter's other panels
// hidden or, when no step shows them, collapsed); and every chapter's steps as data the page can show.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHash, toHash, defaults, withChanges, NEUTRAL_KEYS, VIEW_ONLY, ELEMENT_KEYS } from '../../web/src/model/schema.js';
import { readStep } from '../../web/src/model/step.js';
import { validate } from '../../web/src/model/validate.js';
import { CHAPTERS, stepOf, chapterPanels, foldedPanels, formShows, stepExercises, startState, hasSteps, EXERCISES_FEATURE } from '../../web/src/lesson/chapters.js';
import { visiblePanels, FEATURE_NAMES } from '../../web/src/features/index.js';
import { hasText } from '../../web/src/lesson/text.js';

const state = (changes) => withChanges(defaults(), changes);
const byName = (name) => CHAPTERS.find((c) => c.name === name);

test('the link: step= beside chapter=, 1 by default and left out, a neutral key every host takes', () => {
  const { state: s, ignored } = parseHash('#chapter=gqa&step=2');
  assert.deepEqual(ignored, []);
  assert.equal(s.chapter, 'gqa');
  assert.equal(s.step, '2');
  assert.equal(toHash(s), '#chapter=gqa&step=2');
  assert.equal(toHash(state({ chapter: 'gqa', step: 1 })), '#chapter=gqa', 'step 1 is the default: not written');
  // (No chapter named is '' since issue 38; the page names the chapter shown, as main.js pageHash does.)
  assert.equal(toHash({ ...state({ step: 3 }), chapter: stepOf(state({ step: 3 })).step.id.split('.')[0] }, { keep: ['chapter'] }), '#chapter=attention&step=3', 'the page always names the chapter, before the step');
  assert.equal(defaults().step, '1');
  assert.ok(NEUTRAL_KEYS.includes('step'), 'a step alone keeps the lesson’s start (constructed heads)');
  assert.ok(VIEW_ONLY.has('step'), 'a read-only learner may still move between steps');
  assert.ok(ELEMENT_KEYS.includes('step'), 'an attribute of the element and a key of the widget');
  assert.deepEqual(startState(state({ step: 2 }), ['chapter', 'step']).heads, 'previous,same_word,first_token');
});

test('a step the chapter does not have: a note naming its step count, never an error', () => {
  const count = byName('attention').steps.length;
  assert.ok(count >= 3, `attention has ${count} steps`);
  assert.deepEqual(readStep(state({ chapter: 'attention', step: 2 })), { chapter: 'attention', number: 2, count, note: null });
  assert.deepEqual(readStep(state({ chapter: 'attention', step: '' })), { chapter: 'attention', number: 1, count, note: null });
  const past = readStep(state({ chapter: 'attention', step: 99 }));
  assert.equal(past.number, count, 'a step past the last shows the last');
  assert.equal(past.note, `step=99 is not a step of the chapter “attention”, which has ${count} steps, 1 to ${count}: showing step ${count}.`);
  for (const bad of ['0', '-1', 'two', '1.5']) {
    const r = readStep(state({ chapter: 'attention', step: bad }));
    assert.equal(r.number, 1, `step=${bad}`);
    assert.match(r.note, new RegExp(`^step=${bad.replace('.', '\\.')} is not a step \\(step must .*; the chapter “attention” has ${count} steps, 1 to ${count}\\): showing step 1\\.$`), r.note);
  }
  // Reference is one step: the note says so in the singular.
  assert.match(readStep(state({ chapter: 'reference', step: 2 })).note, /the chapter “reference”, which has 1 step: showing step 1\./);
  // An unknown chapter shows the first chapter, and its steps.
  assert.equal(readStep({ chapter: 'nope', step: '2' }).chapter, 'attention');
  // validate() carries the note (a view field: the run goes on), and no error.
  const checked = validate(state({ chapter: 'gqa', step: 40 }));
  assert.deepEqual(checked.errors, {});
  assert.deepEqual(checked.notes.filter((n) => n.field === 'step').map((n) => n.text),
    [`step=40 is not a step of the chapter “gqa”, which has ${byName('gqa').steps.length} steps, 1 to ${byName('gqa').steps.length}: showing step ${byName('gqa').steps.length}.`]);
  assert.deepEqual(validate(state({ chapter: 'gqa', step: 2 })).notes.filter((n) => n.field === 'step'), []);
});

test('every chapter’s steps are data the page can show', () => {
  for (const chapter of CHAPTERS) {
    const where = (step) => `${chapter.name}, step ${step.id}`;
    if (!hasSteps(chapter)) {
      assert.equal(chapter.name, 'reference');
      continue;
    }
    assert.ok(chapter.steps.length >= 1 && chapter.steps.length <= 7, `${chapter.name}: ${chapter.steps.length} steps`);
    const ids = chapter.steps.map((s) => s.id);
    assert.equal(new Set(ids).size, ids.length, `${chapter.name}: step ids are unique (${ids})`);
    const placed = [];
    for (const step of chapter.steps) {
      assert.ok(step.id.startsWith(`${chapter.name}.`), `${where(step)}: its id names its chapter`);
      assert.ok(step.text.length >= 1, `${where(step)}: some text`);
      for (const id of step.text) assert.ok(hasText(id), `${where(step)}: text “${id}” is in the lesson's table`);
      if (step.title) assert.ok(hasText(step.title), `${where(step)}: title “${step.title}”`);
      assert.ok(step.panels.length >= 1 && step.panels.length <= 2, `${where(step)}: ${step.panels.length} panels`);
      for (const name of step.panels) assert.ok(FEATURE_NAMES.includes(name) && name !== 'controls' && name !== EXERCISES_FEATURE, `${where(step)}: “${name}” is a panel of its own`);
      for (const key of step.fields ?? []) assert.ok(chapter.fields.includes(key), `${where(step)}: field ${key} is one of the chapter's`);
      for (const id of step.exercises ?? []) {
        assert.ok(Object.hasOwn(chapter.exercises, id), `${where(step)}: exercise ${id} is the chapter's`);
        placed.push(id);
      }
    }
    assert.equal(new Set(placed).size, placed.length, `${chapter.name}: an exercise is placed at one step only (${placed})`);
    // A chapter that places exercises places every one of them: none is left where no step shows it.
    if (placed.length) assert.deepEqual([...placed].sort(), Object.keys(chapter.exercises).sort(), `${chapter.name}: every exercise placed`);
  }
  // The three chapters told in steps by this change: 3 to 7 steps each.
  for (const name of ['attention', 'gqa', 'training']) {
    const n = byName(name).steps.length;
    assert.ok(n >= 3 && n <= 7, `${name}: ${n} steps`);
  }
});

test('what a step shows: its panels, the form with its fields, the exercises placed at it; the other steps’ panels wait', () => {
  // gqa step 2 shows the map of key/value heads, not the table of step 1, nor the maps of step 3.
  const s2 = state({ chapter: 'gqa', step: 2 });
  assert.equal(stepOf(s2).step.id, 'gqa.share');
  assert.deepEqual(chapterPanels(s2, FEATURE_NAMES), ['controls', 'kvmap', 'exercises']);
  assert.deepEqual(visiblePanels(s2), ['controls', 'exercises', 'kvmap'], 'in the table’s order');
  assert.deepEqual([...foldedPanels(s2, FEATURE_NAMES)], [], 'every panel of gqa is some step’s');
  const shows = formShows(s2, FEATURE_NAMES);
  assert.deepEqual(['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'preset'].filter(shows), ['n_heads', 'n_kv_heads'], 'the step’s fields only');
  assert.deepEqual(stepExercises(s2), ['gqa.kv-head-of']);
  // Step 3 shows its maps and the sketch placed at it.
  const s3 = state({ chapter: 'gqa', step: 3 });
  assert.deepEqual(stepExercises(s3), ['gqa.sketch-shared-keys']);
  assert.deepEqual(chapterPanels(s3, FEATURE_NAMES), ['controls', 'heatmaps', 'exercises'], 'the maps of step 3 and its exercise');
  // A step that places no exercise shows no exercises panel (every step of gqa places one now: efficient's last).
  const none = state({ chapter: 'efficient', step: 5 });
  assert.deepEqual(stepExercises(none), []);
  assert.deepEqual(chapterPanels(none, FEATURE_NAMES), ['controls', 'linear'], 'the linear-attention step\'s panel only');
  // A step past the last is the last; the note says so (above).
  assert.equal(stepOf(state({ chapter: 'gqa', step: 77 })).step.id, 'gqa.llama');
  // Training has no form: no inputs panel in any step.
  for (let i = 1; i <= byName('training').steps.length; i++) assert.ok(!chapterPanels(state({ chapter: 'training', step: i }), FEATURE_NAMES).includes('controls'));
  // The author's exercises= list wins over the step's placement; panels= wins over the chapter.
  assert.equal(stepExercises(state({ chapter: 'gqa', step: 3, exercises: 'gqa.wk-params' })), null);
  assert.ok(chapterPanels(state({ chapter: 'gqa', step: 3, exercises: 'gqa.wk-params' }), FEATURE_NAMES).includes('exercises'));
  assert.deepEqual(visiblePanels(state({ chapter: 'gqa', step: 2, panels: 'cost' })), ['cost']);
  // A chapter whose steps place no exercise (one told in one step) shows all its exercises at every step.
  const oneStep = CHAPTERS.find((c) => hasSteps(c) && !c.steps.some((s) => s.exercises));
  if (oneStep) assert.equal(stepExercises(state({ chapter: oneStep.name })), null);
  // Reference: every panel, every field, no steps.
  const ref = state({ chapter: 'reference', step: 1 });
  assert.equal(chapterPanels(ref, FEATURE_NAMES), null);
  assert.ok(formShows(ref, FEATURE_NAMES)('d_model') && formShows(ref, FEATURE_NAMES)('text'));
});

test('a chapter told in one step keeps its former view (its secondary panels collapsed)', () => {
  for (const chapter of CHAPTERS.filter((c) => hasSteps(c) && c.steps.length === 1)) {
    const s = state({ chapter: chapter.name });
    const expected = chapter.panels.filter((name) => name !== 'controls' && !chapter.steps[0].panels.includes(name));
    assert.deepEqual([...foldedPanels(s, FEATURE_NAMES)].sort(), expected.sort(), chapter.name);
  }
});
