// importTensors' checks, on the page's side: the tensors a learner brings (query, key, value, the
// parameters, or attention maps alone) against the view they go into. Each is { shape, data } or a bare
// array whose shape the view implies; shapes are compared after dropping leading axes of 1 (a single
// sentence's [n_q, d_model] is [1, n_q, d_model]), and a refusal names the tensor, its shape and the
// shape the view needs. Non-finite numbers are refused, and so are attention rows that are negative or
// do not sum to 1 (a row of zeros is a fully masked query, as the engine returns it).

import { INPUT_NAMES, WEIGHT_NAMES } from './run.js';
import { expectedShapes, show } from './import_view.js';
import { fromNested, fromFlat } from './nested.js';

export { expectedShapes, withImports } from './import_view.js';

export const IMPORT_NAMES = Object.freeze([...INPUT_NAMES, ...WEIGHT_NAMES, 'attention']);
export const ROW_TOLERANCE = 1e-3; // float32 maps from a real model sum to 1 within ~1e-6; a hand-made CSV rounds more

const strip = (shape) => {
  let i = 0;
  while (i < shape.length - 1 && shape[i] === 1) i++;
  return shape.slice(i);
};
const count = (shape) => shape.reduce((a, b) => a * b, 1);

/** One given tensor as { shape, data: Float32Array } in the view's shape, or an Error naming the problem. */
function oneTensor(name, given, [axes, want]) {
  let shape = null, data = given;
  if (given && typeof given === 'object' && !ArrayBuffer.isView(given) && !Array.isArray(given)) {
    ({ shape, data } = given);
    if (!Array.isArray(shape) || !shape.every((n) => Number.isInteger(n) && n >= 0)) throw new Error(`${name}: shape must be a list of whole numbers, got ${JSON.stringify(shape)}`);
  }
  if (Array.isArray(data) && Array.isArray(data[0])) {
    const nested = fromNested(name, data);
    data = nested.data;
    shape ??= nested.shape;
  }
  if (Array.isArray(data)) data = fromFlat(name, data);
  if (!ArrayBuffer.isView(data) || data instanceof DataView || typeof data[0] === 'bigint') {
    throw new Error(`${name}: the data must be numbers (a typed array, or { shape, data }), got ${data?.constructor?.name ?? typeof data}`);
  }
  shape ??= want; // a bare array: the shape the view implies
  if (data.length !== count(shape)) {
    throw new Error(shape === want
      ? `${name} holds ${data.length} numbers; the view needs [${axes}] = ${show(want)}, ${count(want)} numbers`
      : `${name}: shape ${show(shape)} holds ${count(shape)} numbers, its data ${data.length}`);
  }
  if (show(strip(shape)) !== show(strip(want))) throw new Error(`${name} has shape ${show(shape)}; the view needs [${axes}] = ${show(want)}`);
  const out = new Float32Array(data); // from a typed array: a copy in one step (a big import stays quick here)
  for (let i = 0; i < out.length; i++) {
    if (!Number.isFinite(out[i])) throw new Error(`${name} holds ${Number.isNaN(data[i]) ? 'NaN' : Number.isFinite(data[i]) ? `${data[i]}, beyond float32` : data[i]} at index ${i}: every number must be finite`);
  }
  return out;
}

/** Refuses attention maps whose rows are not probability rows (≥ 0, summing to 1, or all 0 where masked). */
function checkRows(maps, { batch, n_heads, n_q, n_k }) {
  let at = 0; // the row's first weight: rows follow each other, item by item, head by head, query by query
  for (let b = 0; b < batch; b++) {
    for (let h = 0; h < n_heads; h++) {
      for (let i = 0; i < n_q; i++, at += n_k) {
        let sum = 0, min = Infinity;
        for (let j = 0; j < n_k; j++) {
          sum += maps[at + j];
          min = Math.min(min, maps[at + j]);
        }
        const where = `(batch ${b}, head ${h}, query ${i})`;
        if (min < 0) throw new Error(`attention row ${where} holds a negative weight (${min}): attention weights are ≥ 0`);
        if (sum !== 0 && Math.abs(sum - 1) > ROW_TOLERANCE) throw new Error(`attention row ${where} sums to ${sum.toPrecision(6)}, not 1 (tolerance ${ROW_TOLERANCE}): pass the softmax weights, not the scores`);
      }
    }
  }
}

/** Token labels: one list per batch item (a single list for batch 1), each n long. */
function labelsOf(name, value, batch, n) {
  if (value === undefined || value === null) return null;
  const rows = Array.isArray(value) && value.every((x) => typeof x === 'string') ? [value] : value;
  if (!Array.isArray(rows) || rows.length !== batch || !rows.every((row) => Array.isArray(row) && row.length === n)) {
    throw new Error(`${name} must be ${batch === 1 ? 'a list of' : `${batch} lists (one per batch item) of`} ${n} tokens`);
  }
  return rows.map((row) => row.map(String));
}

/**
 * Checks `given` ({ query?, …, attention?, labels_q?, labels_k? }) against a validated config.
 * Returns { kind: 'tensors' | 'attention', tensors: { name: Float32Array }, shapes: { name: shape },
 * labels_q, labels_k }, or throws an Error naming the problem.
 */
export function checkImport(given, config) {
  if (!given || typeof given !== 'object') throw new Error(`importTensors takes an object of tensors (${IMPORT_NAMES.join(', ')}), got ${given === null ? 'null' : typeof given}`);
  const names = Object.keys(given).filter((k) => k !== 'labels_q' && k !== 'labels_k' && given[k] !== undefined);
  const unknown = names.filter((k) => !IMPORT_NAMES.includes(k));
  if (unknown.length) throw new Error(`${unknown.map((u) => `“${u}”`).join(', ')} ${unknown.length > 1 ? 'are not tensors' : 'is not a tensor'} the view takes: ${IMPORT_NAMES.join(', ')}`);
  if (!names.length) throw new Error(`no tensor to import: give any of ${IMPORT_NAMES.join(', ')}`);
  if (names.includes('attention') && names.length > 1) throw new Error('attention maps are imported alone: with inputs or parameters the layer computes its own weights');
  if (!config.cross && (names.includes('key') || names.includes('value'))) throw new Error('self-attention takes its key and value from the query: import query, or set attention to cross to import key and value');
  if (!config.bias && names.some((n) => n[0] === 'b')) throw new Error(`${names.find((n) => n[0] === 'b')} was given but the layer has bias off (bias=0)`);
  const expected = expectedShapes(config);
  const tensors = {}, shapes = {};
  for (const name of names) {
    tensors[name] = oneTensor(name, given[name], expected[name]);
    shapes[name] = expected[name][1];
  }
  if (tensors.attention) checkRows(tensors.attention, config);
  return {
    kind: tensors.attention ? 'attention' : 'tensors', tensors, shapes,
    labels_q: labelsOf('labels_q', given.labels_q, config.batch, config.n_q),
    labels_k: labelsOf('labels_k', given.labels_k, config.batch, config.n_k),
  };
}
