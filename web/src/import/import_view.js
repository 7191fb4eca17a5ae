// A view with imported tensors: the shapes a view takes, and the view's check with its imports named in
// the config, or the reason they no longer fit. In the lazy panels' bundle (dist/panels.js), with the
// checks of the tensors themselves (import/tensors.js): a playground takes it from there once a learner
// or a host imports (playground/imports.js); the first view's bundle holds only link_note.js.

import { withoutImports } from './link_note.js';

/** A shape as text: [1, 8, 64]. */
export const show = (shape) => `[${shape.join(', ')}]`;

/** What the axes of each tensor the view takes are, in the lesson's words (kv: 'n_heads' or 'n_kv_heads'). */
const AXES = {
  query: () => 'batch, n_q, d_model', key: () => 'batch, n_k, d_model', value: () => 'batch, n_k, d_model',
  wq: () => 'd_model, n_heads·d_k', wk: (kv) => `d_model, ${kv}·d_k`, wv: (kv) => `d_model, ${kv}·d_v`, wo: () => 'n_heads·d_v, d_model',
  bq: () => 'n_heads·d_k', bk: (kv) => `${kv}·d_k`, bv: (kv) => `${kv}·d_v`, bo: () => 'd_model',
  attention: () => 'batch, n_heads, n_q, n_k',
};

/**
 * { name: [what the axes are, shape] } the view takes (config: a validated config; its `tensors` are the core's
 * shapes of the view's tensors, resolveView's, so no size is multiplied here).
 */
export function expectedShapes(config) {
  if (!config.tensors) throw new Error('the shapes of the view\'s tensors come from the engine (resolveView), which has not resolved this view');
  const kv = config.n_kv_heads === config.n_heads ? 'n_heads' : 'n_kv_heads';
  return Object.fromEntries(Object.entries(AXES).map(([name, axes]) => [name, [axes(kv), config.tensors[name]]]));
}

/**
 * The check of a view with its imports: the config gains `imported: { id, kind }` while the imports fit
 * it; when the sizes changed since, the view cannot run and says why (field `imported`); a state that
 * says imported=… with nothing imported (a link, which carries no tensors) gets a note.
 */
export function withImports(check, imported, state) {
  if (!check) return check;
  if (!imported) return withoutImports(check, state);
  if (!check.config?.tensors) return check; // no config, or the engine has not resolved the view yet (nothing runs until it has)
  const expected = expectedShapes(check.config);
  for (const [name, shape] of Object.entries(imported.shapes)) {
    if (show(expected[name][1]) !== show(shape)) {
      const message = `the imported ${name} is ${show(shape)} but the view now needs [${expected[name][0]}] = ${show(expected[name][1])}: ` +
        'go back to those sizes, import again, or set imported to none';
      return { ...check, ok: false, config: null, auto: false, errors: { ...check.errors, imported: message } };
    }
  }
  const config = { ...check.config, imported: { id: imported.id, kind: imported.kind, names: Object.keys(imported.shapes) } };
  if (imported.kind !== 'attention') return { ...check, config };
  // Maps without the layer that made them: say which panels show them and which still show the seeded layer.
  const text = 'Imported attention maps: the heatmaps, their figures, follow one query (the weights row), compare heads (entropy, ' +
    'distance, largest weight, similarity) and the export show them; the panels that compute from the layer (the q, k, v steps, ' +
    'switching a head off, shapes, gradients…) need that layer and show this view’s seeded layer, not the model the maps came from.';
  return { ...check, config, notes: [...(check.notes ?? []), { field: 'imported', text }] };
}
