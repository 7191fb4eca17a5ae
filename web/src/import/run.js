// Imported tensors in a run, on the compute side: the owner holds what importTensors sent ({ id, kind,
// tensors, labels_q, labels_k }, features/export/handler.js), and a config whose `imported` names that
// id runs with them: its parameters replace the layer's, its inputs the seeded ones, or (kind
// 'attention') its maps replace the weights the heatmaps draw. Nothing here computes.

export const INPUT_NAMES = Object.freeze(['query', 'key', 'value']);
export const WEIGHT_NAMES = Object.freeze(['wq', 'wk', 'wv', 'wo', 'bq', 'bk', 'bv', 'bo']);

const pick = (tensors, names) => {
  const out = {};
  for (const name of names) if (tensors[name]) out[name] = tensors[name];
  return Object.keys(out).length ? out : null;
};

/**
 * What a config imports, from the owner's `held` import: { id, weights, inputs, attention, labels_q,
 * labels_k } (each null when not given), or null for a config that imports nothing. Throws when the
 * compute no longer holds them (a restarted worker starts empty).
 */
export function importedFor(config, held) {
  if (!config.imported) return null;
  if (!held || held.id !== config.imported.id) {
    throw new Error('the imported tensors are no longer held by the compute (a restarted worker starts without them): import them again');
  }
  const t = held.tensors;
  return { id: held.id, weights: pick(t, WEIGHT_NAMES), inputs: pick(t, INPUT_NAMES), attention: t.attention ?? null,
    labels_q: held.labels_q ?? null, labels_k: held.labels_k ?? null };
}

/**
 * A run's inputs with the imported ones in place: query replaces the seeded query; in cross-attention
 * key and value replace the encoder memory each on its own. Labels: the import's, else none where the
 * words no longer match the numbers (an imported query has no sentence).
 */
export function withImportedInputs(inputs, own) {
  if (!own) return inputs;
  const given = own.inputs ?? {};
  const out = { ...inputs };
  if (given.query) out.query = given.query;
  if (given.key) out.key = given.key;
  if (given.value) out.value = given.value;
  // labels per batch item (import/tensors.js makes them so); an attention-only import keeps the view's words
  out.labels_q = own.labels_q ?? (given.query ? null : inputs.labels_q);
  out.labels_k = own.labels_k ?? (given.key || (given.query && !inputs.memory) ? null : inputs.labels_k);
  return out;
}
