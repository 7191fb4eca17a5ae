// The chapter list of a playground: a named nav landmark with one button per chapter (the current one
// marked aria-current, each with the learner's progress in its exercises), the chapter's title and its
// current step (step_nav.js: the step's text, Back/Next, the step list) above the panels, and
// previous/next chapter at the end. Choosing a chapter is a learner's edit of `chapter`
// (so the page's URL follows it); focus then moves to the new chapter's title, so a keyboard or
// screen-reader user starts reading where the new content begins. Hidden when the author chose
// panels alone (`panels=` with no chapter) or hid the key (`hide=chapter`); `nav=none` hides the list
// and the pager only. On a narrow
// playground the list is one row that scrolls sideways (styles.css), kept scrolled to the current chapter.

import { CHAPTERS, chapterWordsHere, chapterOf, neighbours, lockedKeys } from './chapters.js';
import { chapterFrame } from './compose.js';
import { FEATURE_NAMES } from '../features/index.js';
import { text } from './panels/nav.js';
import { createStepNav } from './step_nav.js';

/**
 * dom: the playground's dom helpers; go(changes): changes the chapter and its step (a learner's edit;
 * true when it did). Returns { top: [elements above the layout], bottom: [elements below it], update(view, progress), focusTitle() }.
 * progress: { [chapter]: { done, total } } or null (nothing known yet: each chapter shows 0/its count).
 */
export function createChapterNav({ dom, go, loadWords = () => Promise.resolve() }) {
  const { h } = dom;
  let locked = false;
  const choose = (name) => {
    if (locked) return;
    if (go({ chapter: name, step: 1 })) focusTitle();
  };
  const buttons = new Map();
  const list = h('ol', { class: 'chapter-list' }, CHAPTERS.map((c, i) => {
    // The count is seen as "1/2" and heard as ", 1 of 2 exercises done" after the chapter's name.
    const count = h('span', { class: 'chapter-progress', dataset: { chapter: c.name }, 'aria-hidden': 'true' });
    const spoken = h('span', { class: 'sr-only' });
    const button = h('button', { type: 'button', class: 'chapter-link', dataset: { chapter: c.name }, title: c.title, onclick: () => choose(c.name) },
      h('span', { class: 'chapter-num', 'aria-hidden': 'true' }, `${i + 1}`), h('span', { class: 'chapter-name' }, c.short), spoken, count);
    buttons.set(c.name, { button, count, spoken });
    return h('li', {}, button);
  }));
  const nav = h('nav', { class: 'chapters', dataset: { landmark: text('nav.chapters') }, 'aria-label': text('nav.chapters') }, list);

  const kicker = h('p', { class: 'chapter-kicker' });
  const title = h('h2', { class: 'chapter-title', id: 'chapter-title', tabindex: '-1' });
  const steps = createStepNav({ dom, go, focusChapter: () => focusTitle() }); // the step's heading, its text, Back/Next and the step list
  const intro = h('div', { class: 'chapter-intro', id: 'chapter-intro' }, kicker, title, steps.element);

  const previous = h('button', { type: 'button', class: 'chapter-prev', id: 'chapter-prev', onclick: () => choose(previous.dataset.chapter) });
  const next = h('button', { type: 'button', class: 'chapter-next primary', id: 'chapter-next', onclick: () => choose(next.dataset.chapter) });
  const pager = h('nav', { class: 'chapter-pager', dataset: { landmark: text('nav.pager') }, 'aria-label': text('nav.pager') }, previous, next);

  let shownChapter = null;
  let listFor = null; // what the chapter list was last written for: every keystroke and result re-renders, few change it
  function update(view, progress) {
    const { state } = view;
    const frame = chapterFrame(state, FEATURE_NAMES); // nav=none keeps the title and text (compose.js)
    for (const [el, shown] of [[nav, frame.list], [intro, frame.intro], [pager, frame.list]]) el.hidden = !shown;
    // .stepped on the playground while a chapter's step is shown with its bar: the stylesheet fits it to one screen.
    const stepped = (on) => intro.closest('.ap')?.classList.toggle('stepped', on);
    if (!frame.intro) return stepped(false);
    locked = lockedKeys(state).has('chapter');
    const chapter = chapterOf(state);
    const listKey = JSON.stringify([chapter.name, locked, progress]);
    if (listKey !== listFor) CHAPTERS.forEach((c) => {
      const { button, count, spoken } = buttons.get(c.name);
      if (c.name === chapter.name) button.setAttribute('aria-current', 'page');
      else button.removeAttribute('aria-current');
      button.disabled = locked && c.name !== chapter.name;
      const p = progress?.[c.name];
      const total = p?.total ?? 0;
      count.hidden = !total;
      const done = p?.done ?? 0;
      // done: exercises answered right or whose answer was shown (lesson/exercises/index.js); complete (✓) once every one is.
      const complete = !!total && done >= total;
      count.textContent = total ? `${done}/${total}` : '';
      spoken.textContent = !total ? '' : complete ? text('nav.progress_complete', { total }) : text('nav.progress_spoken', { done, total });
      count.classList.toggle('complete', complete);
    });
    listFor = listKey;
    previous.disabled = next.disabled = locked;
    // With no chapter list (nav=none) the steps' Back and Next stay within the chapter too.
    // Another chapter's words come with panels.js (chapters/words.js): its title shows at once, its steps once loaded.
    if (!chapterWordsHere(state)) {
      title.textContent = chapter.title;
      steps.element.hidden = true;
      stepped(false);
      waitForWords(view, progress);
      return;
    }
    steps.element.hidden = false;
    steps.update(state, { chapterLocked: locked || !frame.list, stepLocked: lockedKeys(state).has('step') });
    stepped(steps.shown());
    if (shownChapter === chapter.name) return;
    shownChapter = chapter.name;
    revealCurrent(buttons.get(chapter.name).button);
    const i = CHAPTERS.indexOf(chapter);
    kicker.textContent = text('nav.kicker', { number: i + 1, count: CHAPTERS.length });
    title.textContent = chapter.title;
    const { previous: before, next: after } = neighbours(chapter.name);
    // The chapter's title, or its short name on a narrow playground (styles.css shows one of the two):
    // both buttons then share a row. The accessible name is the shown text.
    for (const [button, target, word] of [[previous, before, text('nav.previous')], [next, after, text('nav.next')]]) {
      button.hidden = !target;
      if (!target) continue;
      button.dataset.chapter = target.name;
      const long = h('span', { class: 'pager-long' }, text('nav.to_chapter', { word, title: target.title }));
      const short = h('span', { class: 'pager-short' }, h('span', { class: 'sr-only' }, `${word}: `), target.short);
      button.replaceChildren(...(button === next ? [long, short, ' →'] : ['← ', long, short]));
    }
  }

  let waiting = null;
  let latest = null;
  /** Loads the chapters' words once, then shows the latest view asked for (a failed load leaves the title alone, and is tried again on the next update). */
  function waitForWords(view, progress) {
    latest = [view, progress];
    waiting ??= Promise.resolve().then(loadWords).then(() => { waiting = null; update(...latest); }, () => { waiting = null; }); // a loader that throws (no asset folder) is a failed load too
  }

  /** Scrolls the list (a sideways row on a narrow playground) so the current chapter is in sight, after layout. */
  function revealCurrent(button) {
    const win = list.ownerDocument?.defaultView;
    win?.requestAnimationFrame(() => {
      if (list.scrollWidth <= list.clientWidth) return; // a grid that shows every chapter: nothing to scroll
      const l = list.getBoundingClientRect();
      const b = button.getBoundingClientRect();
      list.scrollLeft += b.left - l.left - (l.width - b.width) / 2;
    });
  }

  /** Moves focus to the chapter's title and brings it into view. */
  function focusTitle() {
    title.focus({ preventScroll: true });
    intro.scrollIntoView?.({ block: 'start' });
  }

  return { top: [nav, intro], bottom: [pager], update, focusTitle };
}
