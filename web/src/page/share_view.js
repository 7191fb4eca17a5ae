// The share builder's choices as a view (pure, no DOM): it starts from what the page shows (the chapter,
// its step, its panels and exercises, the view's keys) and adds the author's options (panels, exercises,
// lock, hide, nav, label, theme, read-only). The snippets (snippets.js) and the preview are written from
// the view returned here; scormCommand writes the `npm run scorm` line for the same choices.

import { withChanges, defaults, FIELDS } from '../model/schema.js';
import { FEATURE_NAMES, visiblePanels } from '../features/index.js';
import { chapterOf, startState, formShows, keyList, stepOf, stepExercises, EXERCISES_FEATURE } from '../lesson/chapters.js';
import { panelsAlone } from '../lesson/compose.js';
import { selectExercises, idsOfChapter } from '../lesson/exercises/index.js';
import { attributesOf } from './snippets.js';

/** The exercises a view shows: its step's (lesson/chapters.js stepExercises), else its `exercises` or its chapter's. */
const shownExercises = (state) => stepExercises(state) ?? selectExercises(state).ids;

/**
 * What the page shows, as the builder's starting point: { chapter (null for the author's panels alone),
 * step ({ number, count } in a chapter told in steps, else null), panels (the names shown), exercises (the ids shown), fields (the form's keys shown), choices }.
 * choices: the options as the page's view already has them (lock, hide, label, theme, nav, exercises).
 */
export function shownOf(state) {
  const alone = panelsAlone(state, FEATURE_NAMES);
  const chapter = alone ? null : chapterOf(state).name;
  const inForm = formShows(state, FEATURE_NAMES);
  const fields = FIELDS.filter((f) => f.control && inForm(f.key)).map((f) => f.key);
  const panels = visiblePanels({ ...state, controls: '1' });
  const ids = panels.includes(EXERCISES_FEATURE) ? shownExercises(state) : [];
  // In a chapter, every exercise of it may be chosen (those shown start ticked); the panels alone offer what they show.
  const offered = chapter ? [...new Set([...idsOfChapter(chapter), ...ids])] : ids;
  const { number, count } = stepOf(state);
  return {
    chapter, step: chapter && count > 1 ? { number, count } : null, panels, fields, offered,
    choices: {
      lock: keyList(state.lock), hide: keyList(state.hide), label: state.label ?? '', theme: state.theme || 'light',
      nav: state.nav === 'none', readOnly: state.controls === '0', exercises: ids,
      panels: visiblePanels(state).filter((name) => name !== 'controls' || state.controls !== '0'),
    },
  };
}

/**
 * The view to embed: the page's `state` with the builder's `options` ({ panels, exercises, lock, hide,
 * label, theme, nav, readOnly }): the chapter named (so chosen panels compose with it), the panels and
 * exercises written only when they differ from the chapter's own, and `heads=random` when the page's
 * random heads would otherwise become the lesson's constructed ones where the snippet is opened.
 */
export function builderState(state, options) {
  const shown = shownOf(state);
  const { panels = shown.panels, exercises = shown.choices.exercises, lock = [], hide = [], label = '', theme = 'light', nav = false, readOnly = false } = options;
  const ids = shown.offered.filter((id) => exercises.includes(id));
  // The exercises the chapter (or its step) shows by itself need no list (compared as sets: the step's order stays).
  const own = shown.chapter ? shownExercises(withChanges(state, { chapter: shown.chapter, exercises: '' })) : [];
  const allIds = shown.chapter && ids.length === own.length && own.every((id) => ids.includes(id));
  // The panels: the exercises panel follows the exercises chosen (the builder lists them, not the panel);
  // none of the others chosen means all of them (a view has panels).
  const others = shown.panels.filter((name) => name !== EXERCISES_FEATURE);
  const picked = others.filter((name) => panels.includes(name));
  const kept = new Set([...(picked.length ? picked : others), ...(ids.length ? [EXERCISES_FEATURE] : [])]);
  const listed = FEATURE_NAMES.filter((name) => kept.has(name));
  const view = withChanges(state, {
    ...(shown.chapter ? { chapter: shown.chapter } : {}),
    exercises: allIds ? '' : ids.length ? ids.join(',') : shown.offered.length ? 'none' : '',
    lock: lock.join(','), hide: hide.join(','), label: label.trim(),
    theme: theme === 'light' ? '' : theme, nav: nav ? 'none' : '', controls: readOnly ? '0' : '1', embed: '0',
  });
  // In a chapter, no list when the chapter (its step) shows exactly these panels by itself (its folds stay).
  const byItself = visiblePanels(withChanges(view, { panels: '', controls: '1' }));
  const same = shown.chapter && byItself.length === listed.length && byItself.every((name) => kept.has(name));
  const next = withChanges(view, { panels: same ? '' : listed.join(',') });
  const opened = startState(withChanges(defaults(), attributesOf(next)), Object.keys(attributesOf(next)));
  return opened.heads !== next.heads && next.heads === '' ? withChanges(next, { heads: 'random' }) : next;
}

/** A shell word: as it is when it holds no character a shell reads, else in single quotes. */
const shellWord = (text) => (/^[\w.,:/@%+=-]+$/.test(text) ? text : `'${String(text).replace(/'/g, `'\\''`)}'`);

/**
 * The `npm run scorm` command that packages the view `state` (builderState's) for an LMS, and the keys
 * of the view the package does not carry (scripts/scorm.mjs takes the chapter, exercises, lock, hide,
 * label and theme): { command, left, refused } (refused: why no package, e.g. the author's panels alone).
 */
export function scormCommand(state, lesson = null) {
  if (!state.chapter) return { command: '', left: [], refused: 'A SCORM package holds one chapter: open a chapter first.' };
  const taken = ['chapter', 'exercises', 'lock', 'hide', 'label', 'theme'];
  const parts = ['npm', 'run', 'scorm', '--'];
  for (const key of taken) if (state[key]) parts.push(`--${key}`, shellWord(state[key]));
  // An author's lesson file in the built page's folder (dist/, where the command packs the page from).
  if (lesson?.file) parts.push('--lesson', shellWord(`dist/${lesson.file}`));
  const left = [...Object.keys(attributesOf(state)).filter((key) => !taken.includes(key) && key !== 'heads'),
    ...(lesson && !lesson.file ? ['the lesson file (it is not in the page\'s folder)'] : [])];
  return { command: parts.join(' '), left, refused: state.exercises === 'none' ? 'A SCORM package grades exercises: choose at least one.' : null };
}
