// A chapter's steps (issue 37): the current step's heading ("Step k of N" and its title) and text, Back
// and Next, and one small button per step to jump to it (the current one aria-current="step"). Back on a
// chapter's first step goes to the previous chapter's last, Next on its last to the next chapter's first.
// Moving is a learner's edit of `step` (and `chapter`), so the page's URL follows; focus then moves to the
// step's heading, where a keyboard or screen-reader user starts reading. Part of the chapter nav (nav.js).

import { chapterOf, neighbours, stepOf, hasSteps } from './chapters.js';
import { text } from './panels/nav.js';
import { createStepRoom } from './step_room.js';

/**
 * dom: the playground's dom helpers; go(changes): a learner's edit of chapter and step, true when it moved;
 * focusChapter(): focus to the chapter's title (where a chapter told in one step starts). Returns { element, update(state, { chapterLocked, stepLocked }) → true when a new step is shown, focus(), shown() }.
 */
export function createStepNav({ dom, go, focusChapter }) {
  const { h } = dom;
  const count = h('span', { class: 'step-count' });
  const name = h('span', { class: 'step-name' });
  const heading = h('h3', { class: 'step-title', id: 'step-title', tabindex: '-1' }, count, name);
  const textBox = h('div', { class: 'chapter-text step-text' });
  const moveTo = (target) => {
    if (target.changes && go(target.changes)) focus();
  };
  const targets = { back: {}, next: {} };
  const back = h('button', { type: 'button', class: 'step-back', id: 'step-back', onclick: () => moveTo(targets.back) });
  const next = h('button', { type: 'button', class: 'step-next primary', id: 'step-next', onclick: () => moveTo(targets.next) });
  const list = h('ol', { class: 'step-list', 'aria-label': text('nav.steps') });
  const bar = h('nav', { class: 'step-bar', dataset: { landmark: text('nav.steps') }, 'aria-label': text('nav.steps') }, back, list, next);
  const element = h('div', { class: 'chapter-steps', id: 'chapter-steps' }, heading, textBox, bar);

  let shown = null;
  let barFor = null; // the step and locks Back and Next were last written for: every keystroke and result re-renders, few change them
  const room = createStepRoom(() => element.closest('.ap'));
  let resizeHooked = false;
  function update(state, { chapterLocked, stepLocked }) {
    if (!resizeHooked && element.ownerDocument.defaultView) {
      element.ownerDocument.defaultView.addEventListener('resize', () => room.measure());
      resizeHooked = true;
    }
    const { step, number, count: total } = stepOf(state);
    const chapter = chapterOf(state);
    // Reference (every panel at once) and a chapter told in one step have no steps to move between: their text only.
    heading.hidden = bar.hidden = !hasSteps(chapter) || total < 2;
    const { previous, next: after } = neighbours(chapter.name);
    // Where Back and Next lead: a step of this chapter, or across to a neighbour (not when the chapter is locked).
    targets.back = number > 1 ? { changes: { step: number - 1 } }
      : previous && !chapterLocked && hasSteps(previous) ? { changes: { chapter: previous.name, step: previous.steps.length }, chapter: previous } : {};
    targets.next = number < total ? { changes: { step: number + 1 } }
      : after && !chapterLocked ? { changes: { chapter: after.name, step: 1 }, chapter: after } : {};
    const key = `${chapter.name}/${number}`;
    // The bar and the room it leaves the step follow the step and the locks (the targets too), not an edit's
    // keystroke or its result: written only when those change (DOM written on every render costs each edit its
    // style recalculation). The room is measured again then; step_room.js watches the inputs', the layout's and the window's sizes.
    const barKey = `${key}|${chapterLocked}|${stepLocked}`;
    if (barKey === barFor) return false;
    barFor = barKey;
    room.measure();
    for (const [button, target, word] of [[back, targets.back, text('nav.step_back')], [next, targets.next, text('nav.step_next')]]) {
      button.hidden = !target.changes;
      button.disabled = stepLocked;
      // Across chapters the button names the chapter it leads to (its short name: the bar stays one row).
      const label = target.chapter ? text('nav.to_chapter', { word, title: target.chapter.short }) : word;
      button.replaceChildren(...(button === next ? [label, h('span', { 'aria-hidden': 'true' }, ' →')] : [h('span', { 'aria-hidden': 'true' }, '← '), label]));
    }
    const fresh = shown !== key;
    if (fresh) {
      shown = key;
      draw(chapter, step, number, total);
    }
    for (const dot of list.querySelectorAll('button')) dot.disabled = stepLocked;
    return fresh;
  }

  /** The step's heading, its text and the list of the chapter's steps. */
  function draw(chapter, step, number, total) {
    count.textContent = text('nav.step_count', { number, count: total });
    const title = step.title ? text(step.title) : '';
    name.textContent = title;
    name.hidden = !title;
    // Through math(): the texts name W_iᴽ, d_k and d_model as the lesson writes them (sub- and superscripts).
    textBox.replaceChildren(...step.text.map((id) => h('p', {}, dom.math(text(id)))));
    list.replaceChildren(...chapter.steps.map((s, i) => {
      const label = s.title ? text('nav.step_label', { number: i + 1, title: text(s.title) }) : text('nav.step_count', { number: i + 1, count: total });
      const button = h('button', { type: 'button', class: 'step-dot', dataset: { step: String(i + 1) }, title: label, 'aria-label': label,
        onclick: () => { if (go({ step: i + 1 })) focus(); } }, String(i + 1));
      if (i + 1 === number) button.setAttribute('aria-current', 'step');
      return h('li', {}, button);
    }));
  }

  /** Moves focus to the step's heading (the chapter's title when it has no steps) and brings the step into view. */
  function focus() {
    if (heading.hidden) return focusChapter();
    heading.focus({ preventScroll: true });
    element.scrollIntoView?.({ block: 'nearest' });
  }

  /** True when the step's heading and bar are shown (a chapter told in more than one step). */
  const barShown = () => !bar.hidden;

  return { element, update, focus, shown: barShown };
}
