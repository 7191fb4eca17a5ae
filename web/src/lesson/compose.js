// How an author's keys compose with a chapter (issue 38), pure and without DOM: `panels` beside a named
// chapter picks the panels and keeps the chapter's title, text, form and constructed heads; `panels`
// with no chapter named is the author's panels alone (no chapter list, no text, the whole form); a view
// key such as `mask` keeps the constructed heads unless `heads` is given; a locked key outside the
// chapter's form is shown read-only; `nav=none` hides the chapter list and the pager, not the text.

import { NEUTRAL_KEYS } from '../model/schema.js';

/** "a, b ,c" → ['a', 'b', 'c'] (the comma lists of lock, hide, panels). */
export const keyList = (text) => String(text ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** True when the view names its chapter (`chapter` given: the hash, an attribute, a widget key). */
export const namesChapter = (state) => String(state?.chapter ?? '') !== '';

/** True when `panels` names any panel (among `featureNames`, the features' table). */
export const choosesPanels = (state, featureNames) => keyList(state?.panels).some((name) => featureNames.includes(name));

/** The author's panels alone: `panels` given and no chapter named. They replace the lesson's chapter. */
export const panelsAlone = (state, featureNames) => choosesPanels(state, featureNames) && !namesChapter(state);

/** What of the chapter's frame shows: { list (the chapter list and the pager), intro (title and text) }. */
export function chapterFrame(state, featureNames) {
  const intro = !panelsAlone(state, featureNames) && !keyList(state?.hide).includes('chapter');
  return { intro, list: intro && state?.nav !== 'none' };
}

/**
 * The heads a fresh playground starts with (the page with no hash, an element with no view attribute):
 * three heads with a recognisable job and one left random to compare with.
 */
export const LESSON_START = Object.freeze({ heads: 'previous,same_word,first_token' });
const START_HEADS = keyList(LESSON_START.heads).length;

/**
 * True when the constructed heads fit the view: built for the sentences' words (source text), for the
 * seeded layer (not the lab's trained one, not imported tensors), one pattern per head at most.
 */
function headsFit(state) {
  const n_heads = Number(state.n_heads);
  return (state.source ?? 'text') === 'text' && state.weights !== 'trained' && !state.imported
    && Number.isInteger(n_heads) && n_heads >= START_HEADS;
}

/**
 * The state a fresh playground starts from (`given`: the keys the link or the attributes set):
 * LESSON_START over `state` when `heads` was not given and either no key but the NEUTRAL_KEYS was, or
 * the view shows a lesson chapter (not the author's panels alone, not reference) whose layer the
 * constructed heads fit (lessonChapter(state): chapters.js knows which). `heads=random` (or any
 * `heads`) keeps what it says.
 */
export function startState(state, given, lessonChapter) {
  const keys = [...given];
  if (keys.includes('heads')) return state;
  const onlyNeutral = keys.every((key) => NEUTRAL_KEYS.includes(key));
  if (onlyNeutral) return { ...state, ...LESSON_START };
  const inChapter = !(keyList(state.panels).length && !namesChapter(state)) && lessonChapter(state);
  return inChapter && headsFit(state) ? { ...state, ...LESSON_START } : state;
}
