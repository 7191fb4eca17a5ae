// The table of features: one row per feature, in the page's order. Everything that lists features is
// derived from it: the names accepted by `panels=` (hash, attribute, widget key), the sections a
// playground builds, their order and columns, the panel table of web/EMBED.md (scripts/panel_table.mjs),
// the lazy-load map (lazy.js) and what each panel may ask the compute for (its actions, the worker
// client's requests, the worker's dispatch and whitelist). tests/js/features.test.mjs guards this.
//
// A feature is the folder web/src/features/<name>/, found by its name:
//   panel.js     create(body, ctx) → { update(view, reason), destroy?() }; ctx is narrow: { dom, host,
//                actions } (see playground/actions.js), never the playground's mutable state. A panel
//                that asks the compute for something re-exports `requests` from requests.js.
//   requests.js  `requests`: what it asks the compute for, one entry per request (see playground/asks.js);
//                each becomes actions.<request>(payload, onProgress) in its panel's ctx.
//   handler.js   `handlers`: the compute side of those requests, importing nothing (it gets what it
//                needs from the compute, see worker/compute_side.js); found by name (features/handlers_of.js).
//   service.js   (optional, the row's `service`) what the feature adds to the playground besides its panel:
//                events, API members of the playground and the element, its own part of the view, work
//                after the first view (see playground/feature_services.js and features/services.js); first-view code.
// Adding a feature = that folder + one row here. Only a first-view feature (lazy: false) also imports its
// panel here, because the first view is built without waiting for a download; such a feature adds to
// every page's first view, so there are few.
//
// `lazy` panels are built only once the first result is on screen (they never delay it: the first
// view draws the inputs, the run bar and the maps), and only when shown: what they load (KaTeX,
// uPlot), and their own code (dist/panels.js, see lazy.js), are fetched only by a playground that shows them.

import * as controls from './controls/panel.js';
import * as heatmaps from './heatmaps/panel.js';
import * as exercisesService from './exercises/service.js';
import * as exportService from './export/service.js';
import { chapterPanels, EXERCISES_FEATURE } from '../lesson/chapters.js';
import { text } from '../lesson/panels/features.js';
import { hasText } from '../lesson/text.js';
import '../lesson/chapters/words.js'; // the abouts (feature_about.js): here under Node and in panels.js, with the chapters' words elsewhere

/**
 * { name, title, about, area: 'side' | 'main' | 'left' | 'right' | 'after', lazy, panel, service? }, in the page's order.
 * `panel` (the module of panel.js) is here for the first view's features only; a lazy feature's comes
 * from lazy.js, a bundle of its own (dist/panels.js) loaded when the first lazy panel is built.
 */
export const FEATURES = Object.freeze([
  { name: 'controls', area: 'side', lazy: false, panel: controls },
  { name: 'heatmaps', area: 'main', lazy: false, panel: heatmaps },
  { name: 'derive', area: 'main', lazy: true },
  { name: 'subspace', area: 'main', lazy: true },
  { name: 'query', area: 'main', lazy: true },
  { name: 'patterns', area: 'left', lazy: true },
  { name: 'compare', area: 'left', lazy: true },
  { name: 'shapes', area: 'left', lazy: true },
  { name: 'cost', area: 'left', lazy: true },
  { name: 'cost_n', area: 'left', lazy: true },
  { name: 'cost_heads', area: 'left', lazy: true },
  { name: 'performance', area: 'left', lazy: true },
  { name: 'training', area: 'main', lazy: true },
  { name: 'exercises', area: 'after', lazy: true, service: exercisesService },
  { name: 'sqrtdk', area: 'left', lazy: true },
  { name: 'gradients', area: 'left', lazy: true },
  { name: 'positional', area: 'left', lazy: true },
  { name: 'examples', area: 'right', lazy: true },
  { name: 'models', area: 'right', lazy: true },
  { name: 'gqa', area: 'right', lazy: true },
  { name: 'kvmap', area: 'right', lazy: true },
  { name: 'flash', area: 'main', lazy: true },
  { name: 'linear', area: 'right', lazy: true },
  { name: 'kvcache', area: 'main', lazy: true },
  { name: 'sparse', area: 'right', lazy: true },
  { name: 'equations', area: 'right', lazy: true },
  { name: 'export', area: 'right', lazy: true, service: exportService },
].map((row) => Object.freeze({
  ...row,
  // The words, looked up when read (lesson/panels/features.js, feature_about.js), so an author's or a translator's table applies.
  get title() { return text(`feature.${row.name}.title`); },
  // null in the first view's bundles until the other chapters' words have come (feature_about.js travels with them)
  get about() { return hasText(`feature.${row.name}.about`) ? text(`feature.${row.name}.about`) : null; },
})));

export const FEATURE_NAMES = Object.freeze(FEATURES.map((f) => f.name));

/**
 * The panels a state shows, in the table’s order: the ones `panels` names when it names any (unknown
 * names are ignored: an author's choice wins over the chapter), else the chapter's (lesson/chapters.js;
 * `reference`: every panel but the exercises); `controls=0` (read-only) drops the inputs panel whatever
 * `panels` says, and so does a chapter whose form would have no field.
 */
export function visiblePanels(state) {
  const wanted = String(state.panels ?? '').split(',').map((s) => s.trim()).filter((s) => FEATURE_NAMES.includes(s));
  const chapter = wanted.length ? null : chapterPanels(state, FEATURE_NAMES);
  const shown = wanted.length ? FEATURE_NAMES.filter((name) => wanted.includes(name))
    : chapter ? FEATURE_NAMES.filter((name) => chapter.includes(name)) : FEATURE_NAMES.filter((name) => name !== EXERCISES_FEATURE);
  return state.controls === '0' ? shown.filter((name) => name !== 'controls') : shown;
}

/** Names in `panels` that are not panels (to tell the author). */
export function unknownPanels(state) {
  return String(state.panels ?? '').split(',').map((s) => s.trim()).filter((s) => s && !FEATURE_NAMES.includes(s));
}
