// The one list of panels. The names accepted by `panels=` (hash, attribute, widget key), the sections a
// playground builds, their order and columns, and the panel table of EMBED.md all come from here
// (tests/browser/embed_docs.test.mjs holds EMBED.md to it). Adding a panel = one file + one line here
// (+ one line in lazy.js for a lazy panel).
//
// Each panel module exports create(body, ctx) → { update(view, reason), destroy?() }; ctx is narrow:
// { dom, host, actions } (see playground/playground.js), never the playground's mutable state.
// `lazy` panels are built only once the first result is on screen (they never delay it: the first
// view draws the inputs, the run bar and the maps), and only when shown: what they load (KaTeX,
// uPlot), and their own code, are fetched only by a playground that shows them.

import { createControls } from './controls.js';
import { createHeatmaps } from './heatmaps.js';

/**
 * { name, title, about, area: 'side' | 'main' | 'left' | 'right', lazy, create }, in the page's order.
 * The first view's panels have `create` here; a lazy panel's create comes from lazy.js, which is a
 * bundle of its own (dist/panels.js) loaded when the first lazy panel is built.
 */
export const PANELS = Object.freeze([
  { name: 'controls', title: 'Inputs', about: 'the form: sizes, sentences, mask, scale, dropout, presets', area: 'side', lazy: false, create: createControls },
  { name: 'heatmaps', title: 'Attention weights, one map per head', about: 'every head’s weights, one enlarged with the words on its axes, and the output', area: 'main', lazy: false, create: createHeatmaps },
  { name: 'query', title: 'Follow one query', about: 'one cell explained: q, k, the dot product, the softmax row, the weighted values, Concat and Wᴼ, with the engine’s numbers', area: 'main', lazy: true },
  { name: 'patterns', title: 'Constructed heads', about: 'a pattern per head (previous token, same word, first token, uniform, random) and why its weights make it', area: 'left', lazy: true },
  { name: 'compare', title: 'Compare heads', about: 'per head entropy, distance and largest weight, the heads’ similarity, and the output change when one is switched off', area: 'left', lazy: true },
  { name: 'shapes', title: 'Shape trace', about: 'every tensor of one forward pass with its shape and bytes', area: 'left', lazy: true },
  { name: 'cost', title: 'Cost: parameters, FLOPs, memory', about: 'parameters per matrix, FLOPs per stage, memory against the tab’s budget, the last run', area: 'left', lazy: true },
  { name: 'performance', title: 'Performance', about: 'each run against this browser’s SIMD peak and the workers it ran on, and time against n', area: 'left', lazy: true },
  { name: 'training', title: 'Training lab: watch heads learn', about: 'a tiny attention model trained step by step: loss and accuracy curves, every head’s map, the learnt layer loaded into the playground', area: 'main', lazy: true },
  { name: 'sqrtdk', title: 'Why divide by √d_k?', about: 'variance of q·k and softmax sharpness with and without the scale', area: 'left', lazy: true },
  { name: 'gradients', title: '√d_k and the gradients', about: 'the gradient reaching the scores, measured with the backward pass, as d_k grows, with and without the scale', area: 'left', lazy: true },
  { name: 'positional', title: 'Sinusoidal positional encoding', about: 'the encoding the sentences use, and its measured properties', area: 'left', lazy: true },
  { name: 'examples', title: 'The lesson’s worked examples, recomputed', about: 'E1, E2, E3, P1, P4 computed live and checked against the lesson', area: 'right', lazy: true },
  { name: 'models', title: 'Real models', about: 'published model sizes analysed, and which fit in a tab', area: 'right', lazy: true },
  { name: 'gqa', title: 'MHA, GQA, MQA', about: 'the layer with one, a few shared or a single key/value head: parameters, FLOPs, memory, K/V cache, here and for the model table', area: 'right', lazy: true },
  { name: 'equations', title: 'The equations', about: 'the lesson’s formulas typeset, with the current sizes filled in', area: 'right', lazy: true },
]);

export const PANEL_NAMES = Object.freeze(PANELS.map((p) => p.name));

/**
 * The panels a state shows, in registry order: every panel unless `panels` names some (unknown names
 * are ignored); `controls=0` (read-only) drops the inputs panel whatever `panels` says.
 */
export function visiblePanels(state) {
  const wanted = String(state.panels ?? '').split(',').map((s) => s.trim()).filter((s) => PANEL_NAMES.includes(s));
  const shown = wanted.length ? PANEL_NAMES.filter((name) => wanted.includes(name)) : PANEL_NAMES.slice();
  return state.controls === '0' ? shown.filter((name) => name !== 'controls') : shown;
}

/** Names in `panels` that are not panels (to tell the author). */
export function unknownPanels(state) {
  return String(state.panels ?? '').split(',').map((s) => s.trim()).filter((s) => s && !PANEL_NAMES.includes(s));
}
