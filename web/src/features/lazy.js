// The entry of dist/panels.js: the lazy features' panels, bundled on their own, so the first view
// waits for less code. The element and the page download it only once a lazy panel is shown; a
// playground imports it through its asset folder (never by a relative import, which a module loaded
// from a blob: URL, as in a notebook, could not resolve).
//
// No list of panels here: a panel is found by its feature's name (features/<name>/panel.js). esbuild
// bundles every file that template can name into this one bundle (its glob imports, without code
// splitting, stay inside the bundle: no extra files); under Node the same import loads the file.

export { loadHandlers } from './handlers_of.js'; // for a page computing on its own thread (playground/compute_link.js)
export { measurePeak } from '../perf/peak.js'; // the same page's peak (worker/compute_side.js)
/**
 * Its import reader (worker/compute_side.js readFiles): import/files.js's module, evaluated when a file is
 * first read (or the export panel, which imports it, is built), not when this bundle loads. Its .npz reading
 * brings fflate, whose tables took ~17 ms of every page that loads this bundle (the first chapter does, for
 * its exercises).
 */
export const importReader = () => import('../import/files.js');
export { withImports } from '../import/import_view.js'; // a view's check with imported tensors (playground/imports.js)
export { refuseLockedImport } from '../import/import_lock.js'; // the author's lock on imports (the same)
export { createTrainingSide } from '../model/training_side.js'; // its training lab's side (worker/compute_side.js)
export { WORDS_HERE as chapterWords } from '../lesson/chapters/words.js'; // every chapter's words (the first view holds the first's)
export { readLesson, checkTextIds } from '../author/lesson.js'; // an author's lesson, checked (playground/lesson_host.js)
export * as STATEMENTS from '../lms/event_statements.js'; // the exercises' xAPI statements (features/exercises/service.js)

import { LAZY_CSS, LAZY_SHARED_CSS } from './lazy_css.js';
import { adoptStyle } from '../ui/style.js';

const NAME = /^[a-z][a-z0-9_]*$/;

/**
 * The panel module ({ create, requests? }) of the feature `name`; rejects for a name that has none. A
 * feature with rules of its own (LAZY_CSS) adds them to the panel's shadow root when the panel is built,
 * after the rules the lazy features share (LAZY_SHARED_CSS).
 */
export async function loadPanel(name) {
  if (!NAME.test(name)) throw new Error(`“${name}” is not a feature name`);
  let panel;
  try {
    panel = await import(`./${name}/panel.js`);
  } catch (err) {
    throw new Error(`panels.js has no panel “${name}”: ${err.message}`);
  }
  const sheets = [LAZY_SHARED_CSS, LAZY_CSS[name]].filter(Boolean); // the shared rules first, then its own
  if (!sheets.length) return panel;
  return { ...panel, create: (body, ctx) => { for (const css of sheets) adoptStyle(body, css); return panel.create(body, ctx); } };
}
