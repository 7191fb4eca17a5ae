// What a panel and the run bar draw from: a frozen snapshot of a playground's model (store.js), with what
// is derived for drawing (the problems no visible field shows, the notes of the link and the checks,
// the locked fields) and each feature service's own part under its feature's name (feature_services.js).

import { configKey } from '../model/validate.js';
import { unknownPanels, FEATURE_NAMES } from '../features/index.js';
import { CONTROL_FIELDS } from '../features/controls/panel.js';
import { lockedKeys, formShows } from '../lesson/chapters.js';

/** m: the model; p: the playground's parts (shell, store, features). Returns view() → the snapshot. */
export function createView(m, p) {
  const { sections } = p.shell;
  return function view() {
    const controlsShown = !sections.get('controls').section.hidden;
    const errors = Object.entries(m.check?.errors ?? {});
    const key = m.check?.config ? configKey(m.check.config) : null;
    const unknown = unknownPanels(m.state);
    const inForm = formShows(m.state, FEATURE_NAMES);
    return Object.freeze({
      ...p.features.views(), // first: a feature named as one of the keys below cannot hide it
      state: m.state, check: m.check, result: m.result, running: m.running, runs: m.runs,
      engine: m.engine, engineError: m.engineError, firstResultMs: m.firstResultMs, editing: m.editing,
      readOnly: p.store.readOnly(), lastPreset: m.lastPreset, locked: lockedKeys(m.state), formShows: inForm,
      settled: m.released, // the first result is on screen (or there will be none by itself): time for the rest
      notice: m.notice && (m.notice.key === null || m.notice.key === key) ? m.notice : null,
      // Every problem no visible field shows: the run bar lists them.
      // (A field the chapter or the author's hide= leaves out of the form is not visible either.)
      problems: errors.filter(([field]) => !controlsShown || !CONTROL_FIELDS.has(field) || !inForm(field)).map(([field, message]) => ({ field, message })),
      notes: [
        ...(m.lessonNote ? [`${m.lessonNote}.`] : []),
        ...m.linkNotes.map((text) => `From the link: ${text}.`),
        ...(m.check?.notes ?? []).map((n) => n.text),
        ...(unknown.length ? [`panels: ${unknown.map((u) => `“${u}”`).join(', ')} ${unknown.length > 1 ? 'are not panels' : 'is not a panel'}; the others are shown.`] : []),
      ],
    });
  };
}
