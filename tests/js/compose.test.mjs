// Attributes that compose (issue 38), pure: `panels` beside a named chapter keeps the chapter's text,
// form and constructed heads while `panels` alone replaces the chapter; a view key keeps the constructed
// heads where they fit unless `heads` is given; a locked key outside the chapter's form is in the form
// (read-only); `nav=none` hides the list and the pager but not the title and text. And the share
// builder's view (share_view.js): what the page shows, plus the author's options, reproduced exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaults, withChanges, parseHash } from '../../web/src/model/schema.js';
import { CHAPTERS, LESSON_START, startState, formShows, foldedPanels, authorPanels, stepOf, keyList } from '../../web/src/lesson/chapters.js';
import { chapterFrame } from '../../web/src/lesson/compose.js';
import { FEATURE_NAMES, visiblePanels } from '../../web/src/features/index.js';
import { idsOfChapter } from '../../web/src/lesson/exercises/index.js';
import { builderState, shownOf, scormCommand } from '../../web/src/page/share_view.js';
import { attributesOf } from '../../web/src/page/snippets.js';

/** A view as the element reads its attributes: the defaults, the keys given, then the lesson's start. */
const opened = (given) => startState(withChanges(defaults(), given), Object.keys(given));
const chapter = (name) => CHAPTERS.find((c) => c.name === name);

test('the constructed heads: kept by a view key in a chapter, unless heads is given or they cannot fit', () => {
  const cases = [
    [{}, LESSON_START.heads, 'nothing given: the lesson start'],
    [{ chapter: 'cost', lock: 'd_model' }, LESSON_START.heads, 'neutral keys only'],
    [{ mask: 'causal' }, LESSON_START.heads, 'a view key, no chapter named: the first chapter, its heads'],
    [{ chapter: 'attention', lock: 'd_model,n_heads', hide: 'dropout', mask: 'causal' }, LESSON_START.heads, 'EMBED.md’s author profile'],
    [{ chapter: 'attention', panels: 'heatmaps,patterns' }, LESSON_START.heads, 'panels inside a chapter'],
    [{ mask: 'causal', heads: 'random' }, 'random', 'heads=random says so'],
    [{ heads: '' }, '', 'heads given empty: random, as written'],
    [{ mask: 'causal', source: 'random' }, '', 'random inputs: no sentence to build heads on'],
    [{ d_model: '32', n_heads: '2' }, '', 'two heads: three patterns do not fit'],
    [{ weights: 'trained', train_steps: '100' }, '', 'the lab’s trained layer'],
    [{ panels: 'heatmaps', mask: 'causal' }, '', 'the author’s panels alone (no chapter): the view as written'],
    [{ chapter: 'reference', mask: 'causal' }, '', 'reference, the dashboard: the view as written'],
  ];
  for (const [given, heads, why] of cases) assert.equal(opened(given).heads, heads, `${why}: ${JSON.stringify(given)}`);
  // The page reads a hash the same way (main.js opening()).
  const read = parseHash('#mask=causal');
  assert.equal(startState(read.state, ['mask']).heads, LESSON_START.heads);
});

test('panels beside a named chapter choose the panels and keep the chapter; panels alone replace it', () => {
  const inChapter = withChanges(defaults(), { chapter: 'attention', panels: 'heatmaps,patterns' });
  assert.deepEqual(visiblePanels(inChapter), ['heatmaps', 'patterns']);
  assert.equal(authorPanels(inChapter, FEATURE_NAMES), false);
  assert.deepEqual(chapterFrame(inChapter, FEATURE_NAMES), { intro: true, list: true }, 'title, text and list stay');
  assert.deepEqual([...foldedPanels(inChapter, FEATURE_NAMES)], [], 'every panel chosen is expanded');
  const form = formShows(inChapter, FEATURE_NAMES);
  const stepFields = stepOf(inChapter).step.fields ?? chapter('attention').fields;
  assert.deepEqual(['d_model', 'text', 'mask'].map(form), ['d_model', 'text', 'mask'].map((k) => stepFields.includes(k)), 'the chapter’s (its step’s) form');
  assert.ok(form('text') && !form('d_model'), 'the sentence, not the layer’s sizes');

  const alone = withChanges(defaults(), { panels: 'heatmaps,shapes' });
  assert.deepEqual(visiblePanels(alone), ['heatmaps', 'shapes']);
  assert.equal(authorPanels(alone, FEATURE_NAMES), true);
  assert.deepEqual(chapterFrame(alone, FEATURE_NAMES), { intro: false, list: false });
  assert.ok(['d_model', 'dropout', 'train_lr'].every(formShows(alone, FEATURE_NAMES)), 'the whole form');
  // Unknown panel names are no choice: the chapter as it is.
  assert.equal(authorPanels(withChanges(defaults(), { panels: 'nothing' }), FEATURE_NAMES), false);
});

test('a locked key outside the chapter’s form is in the form (read-only); hide wins over lock', () => {
  assert.ok(!chapter('attention').fields.includes('d_model') && !chapter('attention').fields.includes('n_heads'), 'attention’s form has no layer sizes');
  const state = withChanges(defaults(), { chapter: 'attention', lock: 'd_model,n_heads', hide: 'dropout' });
  const shows = formShows(state, FEATURE_NAMES);
  assert.deepEqual(['d_model', 'n_heads', 'dropout', 'seed'].map(shows), [true, true, false, false]);
  assert.equal(formShows(withChanges(state, { hide: 'd_model,dropout' }), FEATURE_NAMES)('d_model'), false);
});

test('nav=none hides the chapter list and the pager, not the title and text; hide=chapter hides all three', () => {
  const state = withChanges(defaults(), { chapter: 'cost' });
  assert.deepEqual(chapterFrame(withChanges(state, { nav: 'none' }), FEATURE_NAMES), { intro: true, list: false });
  assert.deepEqual(chapterFrame(withChanges(state, { hide: 'chapter' }), FEATURE_NAMES), { intro: false, list: false });
  assert.deepEqual(chapterFrame(state, FEATURE_NAMES), { intro: true, list: true });
  assert.equal(parseHash('#nav=sideways').state.nav, '', 'a value outside the choices keeps the default');
});

test('the builder starts from what is shown: the chapter named, its panels, its exercises, the view’s keys', () => {
  const page = withChanges(defaults(), { chapter: 'cost', d_model: '128', heads: LESSON_START.heads });
  const shown = shownOf(page);
  assert.equal(shown.chapter, 'cost');
  assert.deepEqual(shown.panels, visiblePanels(page));
  assert.deepEqual(shown.offered, idsOfChapter('cost'));
  // Nothing changed in the builder: the chapter's own view, named, with every key of the page's.
  const same = builderState(page, {});
  assert.deepEqual(attributesOf(same), { d_model: '128', heads: LESSON_START.heads, chapter: 'cost' });
  assert.deepEqual(visiblePanels(same), visiblePanels(page));
  // Options: panels (the exercises panel follows the exercises chosen), exercises by id, lock, hide, nav, label, theme.
  const chosen = builderState(page, { panels: ['controls', 'cost'], exercises: ['cost.dominant', 'cost.params-bias'], lock: ['d_model'], hide: ['bias'],
    nav: true, label: ' Costs ', theme: 'dark', readOnly: false });
  assert.deepEqual(attributesOf(chosen), { d_model: '128', heads: LESSON_START.heads, panels: 'controls,cost,exercises', theme: 'dark', chapter: 'cost',
    nav: 'none', lock: 'd_model', hide: 'bias', label: 'Costs', exercises: 'cost.params-bias,cost.dominant' });
  assert.deepEqual(visiblePanels(opened(attributesOf(chosen))), ['controls', 'cost', 'exercises']);
  assert.equal(builderState(page, { exercises: [] }).exercises, 'none');
  assert.ok(!visiblePanels(builderState(page, { exercises: [] })).includes('exercises'));
  // The page's random heads stay random where the snippet opens (there a view key would bring the lesson's heads).
  const random = withChanges(defaults(), { chapter: 'attention', mask: 'causal' });
  assert.equal(builderState(random, {}).heads, 'random');
  assert.equal(opened(attributesOf(builderState(random, {}))).heads, 'random');
  // The author's panels alone stay alone: no chapter is added.
  const alone = builderState(withChanges(defaults(), { panels: 'heatmaps,shapes' }), {});
  assert.deepEqual([alone.chapter, alone.panels], ['', 'heatmaps,shapes']);
});

test('in a chapter told in steps: the builder keeps the step, its panels and its exercises, and adds or drops exercises', () => {
  const page = withChanges(defaults(), { chapter: 'attention', step: '5', heads: LESSON_START.heads });
  const { step } = stepOf(page);
  assert.ok(step.exercises?.length, 'a step that places its exercises');
  const shown = shownOf(page);
  assert.deepEqual(shown.step, { number: 5, count: chapter('attention').steps.length });
  assert.deepEqual(shown.choices.exercises, [...step.exercises], 'the step’s exercises start ticked');
  assert.deepEqual(shown.offered, idsOfChapter('attention'), 'every exercise of the chapter may be chosen');
  const same = builderState(page, {});
  assert.deepEqual(attributesOf(same), { heads: LESSON_START.heads, chapter: 'attention', step: '5' }, 'the step as it is: no list');
  assert.deepEqual(visiblePanels(opened(attributesOf(same))), visiblePanels(page));
  const more = builderState(page, { exercises: [...step.exercises, 'attention.uniform'] });
  assert.deepEqual(keyList(more.exercises).sort(), [...step.exercises, 'attention.uniform'].sort());
  assert.equal(more.panels, '', 'an exercise list brings the exercises panel by itself');
  assert.ok(visiblePanels(opened(attributesOf(more))).includes('exercises'));
  const none = builderState(page, { exercises: [] });
  assert.equal(none.exercises, 'none');
  assert.deepEqual(visiblePanels(opened(attributesOf(none))), visiblePanels(page).filter((name) => name !== 'exercises'), 'no exercise: no exercises panel');
});

test('the SCORM command carries the chapter, exercises, lock, hide, label and theme, quoted for a shell', () => {
  const state = builderState(withChanges(defaults(), { chapter: 'cost', d_model: '128' }), { exercises: ['cost.params-bias'], lock: ['d_model'], label: 'It’s mine', theme: 'dark' });
  const { command, left, refused } = scormCommand(state);
  assert.equal(command, `npm run scorm -- --chapter cost --exercises cost.params-bias --lock d_model --label 'It’s mine' --theme dark`);
  assert.equal(scormCommand(withChanges(state, { label: "it's" })).command.includes(`--label 'it'\\''s'`), true);
  assert.deepEqual(left, ['d_model'], 'the package opens the chapter with the options it takes; the builder names the rest');
  assert.equal(refused, null);
  assert.match(scormCommand(builderState(withChanges(defaults(), { chapter: 'cost' }), { exercises: [] })).refused, /choose at least one/);
  assert.match(scormCommand(withChanges(defaults(), { panels: 'heatmaps' })).refused, /open a chapter/);
});
