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
//                needs from the compute, see worker/compute_side.js); found by name (features/compute.js).
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

/**
 * { name, title, about, area: 'side' | 'main' | 'left' | 'right' | 'after', lazy, panel, service? }, in the page's order.
 * `panel` (the module of panel.js) is here for the first view's features only; a lazy feature's comes
 * from lazy.js, a bundle of its own (dist/panels.js) loaded when the first lazy panel is built.
 */
export const FEATURES = Object.freeze([
  { name: 'controls', title: 'Inputs', about: 'the form: sizes, sentences, mask, scale, dropout, presets', area: 'side', lazy: false, panel: controls },
  { name: 'heatmaps', title: 'Attention weights, one map per head', about: 'every head’s weights, one enlarged with the words on its axes, and the output', area: 'main', lazy: false, panel: heatmaps },
  { name: 'query', title: 'Follow one query', about: 'one cell explained: q, k, the dot product, the softmax row, the weighted values, Concat and Wᴼ, with the engine’s numbers', area: 'main', lazy: true },
  { name: 'patterns', title: 'Constructed heads', about: 'a pattern per head (previous token, same word, first token, uniform, random) and why its weights make it', area: 'left', lazy: true },
  { name: 'compare', title: 'Compare heads', about: 'per head entropy, distance and largest weight, the heads’ similarity, and the output change when one is switched off', area: 'left', lazy: true },
  { name: 'shapes', title: 'Shape trace', about: 'every tensor of one forward pass with its shape and bytes', area: 'left', lazy: true },
  { name: 'cost', title: 'Cost: parameters, FLOPs, memory', about: 'parameters per matrix, FLOPs per stage, memory against the tab’s budget, the last run', area: 'left', lazy: true },
  { name: 'performance', title: 'Performance', about: 'each run against this browser’s SIMD peak and the workers it ran on, and time against n', area: 'left', lazy: true },
  { name: 'training', title: 'Training lab: watch heads learn', about: 'a tiny attention model trained step by step: loss and accuracy curves, every head’s map, the learnt layer loaded into the playground', area: 'main', lazy: true },
  { name: 'exercises', title: 'Predict, then reveal', about: 'the chapter’s exercises: predict a number, a shape, a choice or the cell a query attends to most, then see the engine’s answer and why', area: 'after', lazy: true, service: exercisesService },
  { name: 'sqrtdk', title: 'Why divide by √dₖ?', about: 'variance of q·k and softmax sharpness with and without the scale', area: 'left', lazy: true },
  { name: 'gradients', title: '√d_k and the gradients', about: 'the gradient reaching the scores, measured with the backward pass, as d_k grows, with and without the scale', area: 'left', lazy: true },
  { name: 'positional', title: 'Positions: sinusoidal encoding, RoPE, ALiBi', about: 'the encoding the sentences use and its measured properties; RoPE and ALiBi on a head’s map, ALiBi’s slopes, RoPE’s logits against i − j', area: 'left', lazy: true },
  { name: 'examples', title: 'The lesson’s worked examples, recomputed', about: 'E1, E2, E3, P1, P4 computed live and checked against the lesson', area: 'right', lazy: true },
  { name: 'models', title: 'Real models', about: 'published model sizes analysed, and which fit in a tab', area: 'right', lazy: true },
  { name: 'gqa', title: 'MHA, GQA, MQA', about: 'the layer with one, a few shared or a single key/value head: parameters, FLOPs, memory, K/V cache, here and for the model table', area: 'right', lazy: true },
  { name: 'kvmap', title: 'Query heads → key/value heads', about: 'which key/value head each query head reads at the current n_heads and n_kv_heads, as the engine resolves it', area: 'right', lazy: true },
  { name: 'flash', title: 'FlashAttention, one tile at a time', about: 'one query row through the key blocks: running max m, sum ℓ and output o, the rescaling exp(m_old − m_new), block sizes, and slow-memory traffic against standard attention for an on-chip memory M', area: 'main', lazy: true },
  { name: 'linear', title: 'Linear attention', about: 'φ(x) = elu(x) + 1 attention beside softmax attention on the same inputs, and their FLOPs with the n where linear attention wins', area: 'right', lazy: true },
  { name: 'kvcache', title: 'Generation and the KV cache', about: 'the sentence decoded token by token by the core: the cache growing per key/value head, each new row of weights, cache bytes for this layer and whole models, FLOPs of a step against recomputing the prefix', area: 'main', lazy: true },
  { name: 'sparse', title: 'Sparse attention patterns', about: 'full, sliding-window and strided masks side by side, with the pairs and FLOPs each computes here and at a long sequence', area: 'right', lazy: true },
  { name: 'equations', title: 'The equations', about: 'the lesson’s formulas typeset, with the current sizes filled in', area: 'right', lazy: true },
  { name: 'export', title: 'Export and import', about: 'the run’s tensors as .npy with view.json and a PyTorch reproduce.py, in a zip', area: 'right', lazy: true, service: exportService },
].map((row) => Object.freeze(row)));

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
