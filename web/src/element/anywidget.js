// The notebook widget: the anywidget contract, export default { render({ model, el }) }, for Jupyter,
// JupyterLab, Colab, VS Code, marimo and MyST's {anywidget} directive. The model's keys are the hash's
// keys; a change:key event updates the view, and the learner's edits go back with model.set and
// model.save_changes(), in the type the model already holds (a number stays a number).

import { createPlayground } from '../playground/playground.js';
import { ELEMENT_KEYS } from '../model/schema.js';
import { HOST_EVENTS, WIDGET_TRAITS, WIDGET_INPUTS } from '../features/services.js';

/** A state value ('64', '1') in the type of the model's current value; undefined when it cannot be (a half-typed number). */
export function modelValue(current, value) {
  if (typeof current === 'number') {
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) ? n : undefined;
  }
  if (typeof current === 'boolean') return value === '1';
  return value;
}

export function render({ model, el }) {
  const read = (key) => model.get(key);
  const state = {};
  for (const key of ELEMENT_KEYS) {
    const value = read(key);
    if (value !== undefined && value !== null) state[key] = value;
  }
  // A child of el, so that a second render into the same el gets a fresh shadow root.
  const box = el.ownerDocument.createElement('div');
  el.append(box);
  // The `lesson` key: an author's words and exercises (a dict, or its JSON text; web/src/author/), read once at render.
  const playground = createPlayground(box, { state, theme: 'light', layout: 'embedded', assets: read('assets') || undefined, lesson: read('lesson') ?? null });

  const follow = ELEMENT_KEYS.map((key) => {
    const handler = () => playground.setState({ [key]: read(key) });
    model.on(`change:${key}`, handler);
    return [key, handler];
  });
  const stopWriting = playground.on('change', ({ state: now }) => {
    let changed = false;
    for (const key of ELEMENT_KEYS) {
      const current = read(key);
      if (current === undefined) continue; // a key the notebook did not declare
      const value = modelValue(current, now[key]);
      if (value === undefined || value === current) continue;
      model.set(key, value);
      changed = true;
    }
    if (changed) model.save_changes();
  });

  // A feature's event a notebook declares as a trait of the same name (features/services.js), e.g. the
  // exercises' `progress` (a dict): { chapter, done, total, score }.
  const stopTraits = WIDGET_TRAITS.map((type) => playground.on(type, (detail) => {
    if (read(type) === undefined) return;
    const { statement, ...value } = HOST_EVENTS[type](detail); // a trait holds the state; the xAPI statement is the event's own
    model.set(type, value);
    model.save_changes();
  }));

  // The traits a feature takes in (features/services.js), e.g. the export's trait of tensors (the bytes of an .npz
  // with optional `tokens`): handed over at once and again on each change (an import waits for the engine and
  // fails if it cannot start); a refusal is
  // shown under the view.
  const problem = el.ownerDocument.createElement('p');
  problem.className = 'import-error';
  problem.setAttribute('role', 'alert');
  problem.hidden = true;
  box.after(problem);
  const inputs = Object.entries(WIDGET_INPUTS).map(([key, { take, refused }]) => {
    const handler = async () => {
      try {
        if (await take({ value: read(key), read, playground })) problem.hidden = true;
      } catch (err) {
        problem.hidden = false;
        problem.textContent = refused(err);
      }
    };
    model.on(`change:${key}`, handler);
    handler();
    return [key, handler];
  });

  return () => {
    for (const [key, handler] of inputs) model.off(`change:${key}`, handler);
    problem.remove();
    for (const [key, handler] of follow) model.off(`change:${key}`, handler);
    stopWriting();
    for (const stop of stopTraits) stop();
    playground.destroy();
    box.remove();
  };
}

export default { render };
