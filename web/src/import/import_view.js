// A view with imported tensors: the shapes a view takes, and the view's check with its imports named in
// the config, or the reason they no longer fit. In the lazy panels' bundle (dist/panels.js), with the
// checks of the tensors themselves (import/tensors.js): a playground takes it from there once a learner
// or a host imports (playground/imports.js); the first view's bundle holds only link_note.js.

import { withoutImports } from './link_note.js';

/** A shape as text: [1, 8, 64]. */
export const show = (shape) => `[${shape.join(', ')}]`;

/** { name: [what the axes are, shape] } the view takes (config: a validated config, sizes as the engine resolved them). */
export function expectedShapes(config) {
  const { batch, n_q, n_k, d_model, n_heads, n_kv_heads, d_k, d_v } = config;
  const kv = n_kv_heads === n_heads ? 'n_heads' : 'n_kv_heads';
  return {
    query: ['batch, n_q, d_model', [batch, n_q, d_model]],
    key: ['batch, n_k, d_model', [batch, n_k, d_model]],
    value: ['batch, n_k, d_model', [batch, n_k, d_model]],
    wq: ['d_model, n_heads·d_k', [d_model, n_heads * d_k]],
    wk: [`d_model, ${kv}·d_k`, [d_model, n_kv_heads * d_k]],
    wv: [`d_model, ${kv}·d_v`, [d_model, n_kv_heads * d_v]],
    wo: ['n_heads·d_v, d_model', [n_heads * d_v, d_model]],
    bq: ['n_heads·d_k', [n_heads * d_k]],
    bk: [`${kv}·d_k`, [n_kv_heads * d_k]],
    bv: [`${kv}·d_v`, [n_kv_heads * d_v]],
    bo: ['d_model', [d_model]],
    attention: ['batch, n_heads, n_q, n_k', [batch, n_heads, n_q, n_k]],
  };
}

/**
 * The check of a view with its imports: the config gains `imported: { id, kind }` while the imports fit
 * it; when the sizes changed since, the view cannot run and says why (field `imported`); a state that
 * says imported=… with nothing imported (a link, which carries no tensors) gets a note.
 */
export function withImports(check, imported, state) {
  if (!check) return check;
  if (!imported) return withoutImports(check, state);
  if (!check.config) return check;
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
