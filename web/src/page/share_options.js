// The share builder's options, drawn from what the page shows (share_view.js shownOf): the chapter and
// step named, its panels, its exercises listed with their prompts and ids (the learner's view shows no
// ids; the author needs them), the form's fields and the view's other keys each with lock and hide, the
// chapter list, the label, the theme and read-only. read() gives the choices builderState takes.

import { attributesOf } from './snippets.js';
import { FEATURES } from '../features/index.js';
import { CHAPTERS } from '../lesson/chapters.js';
import { KIND_OF } from '../lesson/exercises/index.js';
import { CONTROL_FIELDS } from '../model/schema.js';

const TITLE = new Map(FEATURES.map((f) => [f.name, f]));

/**
 * dom: the page's element helpers (h, and math for the prompts' notation). Returns { element, show(shown, state, prompts), read(), inputs() }:
 * show() redraws the lists for what the page shows (the choices start as the page's view has them);
 * prompts: Map id → prompt (the page's exercises, once their texts have arrived).
 */
export function createShareOptions({ h, math }) {
  const where = h('p', { class: 'share-where', dataset: { shareWhere: '' } });
  const panelBox = h('div', { class: 'choices' });
  const exerciseBox = h('ul', { class: 'share-exercises' });
  const fieldBody = h('tbody');
  const label = h('input', { type: 'text', name: 'share-label', placeholder: 'e.g. Causal mask demo' });
  const theme = h('select', { name: 'share-theme' },
    h('option', { value: 'light' }, 'light (fits most course pages)'), h('option', { value: 'dark' }, 'dark'),
    h('option', { value: 'auto' }, 'the reader’s system setting'));
  const nav = h('input', { type: 'checkbox', name: 'share-nav' });
  const readOnly = h('input', { type: 'checkbox', name: 'share-readonly' });
  const height = h('input', { type: 'number', name: 'share-height', value: 900, min: 200, max: 5000, step: 50 });
  const exercisesSet = h('fieldset', {}, h('legend', {}, 'Exercises'), exerciseBox);
  const navRow = h('div', { class: 'share-row' }, h('label', {}, nav, ' hide the chapter list (', h('code', {}, 'nav=none'), '; the chapter’s title and text stay)'));
  const element = h('div', { class: 'share-options' },
    where,
    h('fieldset', {}, h('legend', {}, 'Panels'), panelBox),
    exercisesSet,
    h('fieldset', {}, h('legend', {}, 'Fields: lock (shown read-only) or hide'),
      h('table', { class: 'share-fields' }, h('thead', {}, h('tr', {}, h('th', {}, 'key'), h('th', {}, 'value'), h('th', {}, 'lock'), h('th', {}, 'hide'))), fieldBody)),
    navRow,
    h('div', { class: 'share-row' }, h('label', {}, 'Label (names its landmarks; one per playground on a page) ', label)),
    h('div', { class: 'share-row' }, h('label', {}, 'Theme ', theme)),
    h('div', { class: 'share-row' }, h('label', {}, readOnly, ' read-only (no inputs: readers explore, not edit)')),
    h('div', { class: 'share-row' }, h('label', {}, 'iframe height without embed.js ', height, ' px')));

  const box = (name, value, checked, label) => h('input', { type: 'checkbox', name, value, checked, 'aria-label': label });
  const ticked = (name) => [...element.querySelectorAll(`input[name="${name}"]`)].filter((b) => b.checked).map((b) => b.value);
  let drawn = null;

  function show(shown, state, prompts) {
    const c = shown.chapter && CHAPTERS.find((x) => x.name === shown.chapter);
    where.replaceChildren(h('span', {}, c ? `Chapter: ${c.title} ` : 'The panels chosen in the link (no chapter) ', c && h('code', {}, `chapter=${c.name}`),
      shown.step && [` · step ${shown.step.number} of ${shown.step.count} `, h('code', {}, `step=${shown.step.number}`)]));
    navRow.hidden = !c;
    const rows = [...shown.fields, ...Object.keys(attributesOf(state)).filter((k) => CONTROL_FIELDS.has(k) && !shown.fields.includes(k))];
    const key = JSON.stringify([shown.chapter, shown.step, shown.panels, shown.offered, rows]);
    if (key !== drawn) {
      drawn = key;
      drawLists(shown, rows);
    }
    for (const cell of fieldBody.querySelectorAll('[data-value]')) {
      const value = String(state[cell.dataset.value] ?? '');
      cell.textContent = value === '' ? '(empty)' : value.length > 40 ? `${value.slice(0, 39)}…` : value;
    }
    // The prompts arrive with the exercises' texts (and change with the layer): refreshed in place.
    for (const span of exerciseBox.querySelectorAll('[data-prompt]')) {
      const prompt = prompts.get(span.dataset.prompt);
      span.replaceChildren(prompt ? math(prompt) : '(its prompt shows once the exercises have loaded)');
    }
  }

  function drawLists(shown, rows) {
    const { choices } = shown;
    panelBox.replaceChildren(...shown.panels.filter((name) => name !== 'exercises').map((name) => h('label', { class: 'choice' },
      box('share-panel', name, choices.panels.includes(name)), ` ${TITLE.get(name)?.title ?? name} `, h('code', {}, name))));
    exercisesSet.hidden = !shown.offered.length;
    exerciseBox.replaceChildren(...shown.offered.map((id) => h('li', {}, h('label', {},
      box('share-exercise', id, choices.exercises.includes(id)), ' ', h('span', { class: 'prompt', dataset: { prompt: id } }),
      ' ', h('code', { class: 'exercise-id' }, id), h('span', { class: 'kind' }, ` (${KIND_OF[id] ?? ''})`)))));
    // The form's fields, then the view's other keys an author may want to lock (shown read-only then).
    fieldBody.replaceChildren(...rows.map((k) => h('tr', {},
      h('td', {}, h('code', {}, k)), h('td', { class: 'value', dataset: { value: k } }),
      h('td', {}, box('share-lock', k, choices.lock.includes(k), `lock ${k}`)), h('td', {}, box('share-hide', k, choices.hide.includes(k), `hide ${k}`)))));
    label.value = choices.label;
    theme.value = choices.theme;
    nav.checked = choices.nav;
    readOnly.checked = choices.readOnly;
  }

  const read = () => ({
    panels: ticked('share-panel'), exercises: ticked('share-exercise'), lock: ticked('share-lock'), hide: ticked('share-hide'),
    label: label.value, theme: theme.value, nav: nav.checked, readOnly: readOnly.checked,
  });
  return { element, show, read, height: () => Math.max(200, Number(height.value) || 900) };
}
