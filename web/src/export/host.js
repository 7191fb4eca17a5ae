// The export as a host calls it (the element's exportTensors() and exportBundle(), the page's Export
// action, the notebook widget): over a playground's export actions and its current view. The tensors
// are the compute's (features/export/handler.js); this checks the view can run, asks, and packs.

import { runSizes, viewJson, bundleBytes, reproduceNotes } from './bundle.js';

/** The validated config of a view, or an Error saying why there is none. */
function configOf(view) {
  const check = view.check;
  const [first] = Object.entries(check?.errors ?? {});
  if (first) throw Object.assign(new Error(`nothing to export: “${first[0]}”: ${first[1]}`), { field: first[0] });
  // No config, or one without the core's tensor shapes (the engine has not resolved the view yet).
  if (!check?.config?.tensors) throw new Error('nothing to export yet: the engine is still loading');
  if (check.blocked) throw Object.assign(new Error(`nothing to export: ${check.blocked.message}`), { field: check.blocked.field });
  return check.config;
}

/** The followed query of the state (the query panel's), for the trace; null when none is chosen. */
function traceOf(state, config) {
  if (state.q_query === '' || state.q_query === undefined) return null;
  const pick = (value, n) => Math.min(Math.max(0, Math.trunc(Number(value) || 0)), n - 1);
  return { item: pick(state.q_item, config.batch), head: pick(state.q_head, config.n_heads), query_index: pick(state.q_query, config.n_q) };
}

/** The compute's reply for the view: { tensors, sizes, labels_q, labels_k, masked_rows }. */
async function ask(actions, view) {
  const config = configOf(view);
  const reply = await actions.tensors({ config, trace: traceOf(view.state, config) });
  return { config, reply };
}

/** exportTensors(): { name: { shape, data } } of the current run (Float32Array data). */
export async function exportTensors({ actions, view }) {
  return (await ask(actions, view)).reply.tensors;
}

/** exportBundle(): a Promise of a Blob, the zip of the .npy files, view.json and reproduce.py. */
export async function exportBundle({ actions, view }) {
  const { config, reply } = await ask(actions, view);
  const sizes = runSizes(config, reply.sizes, config.imported?.names.join(', ') ?? null);
  const notes = reply.attentionOnly
    ? ['attention.npy holds the attention maps imported into the playground; no layer made them, so there is nothing for a reproduce.py to recompute']
    : reproduceNotes(sizes);
  const json = viewJson({ state: { ...view.state }, sizes, tensors: reply.tensors, labels_q: reply.labels_q, labels_k: reply.labels_k,
    masked_rows: reply.masked_rows, notes });
  return new Blob([bundleBytes({ tensors: reply.tensors, view: json, script: !reply.attentionOnly })], { type: 'application/zip' });
}

/** Saves a Blob as a file of `name` through a temporary link (the page's and the panel's Export). */
export function download(doc, blob, name) {
  const url = doc.defaultView.URL.createObjectURL(blob);
  const a = doc.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  doc.body.append(a);
  a.click();
  a.remove();
  doc.defaultView.setTimeout(() => doc.defaultView.URL.revokeObjectURL(url), 10000);
}

/** A file name for a bundle of this view: attention-d64-h8-n16.zip. */
export function bundleName(view) {
  const c = view.check?.config;
  return c ? `attention-d${c.d_model}-h${c.n_heads}-n${c.n_q}.zip` : 'attention-export.zip';
}
