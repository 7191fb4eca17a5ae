// Argument checks for the JavaScript API: every wrong type, missing key, unknown key or
// non-integer size becomes an Error that names the problem, before anything reaches wasm
// (where a string passed for an int would silently become 0).

/** Describes a value for an error message: "\"512\" (a string)". */
export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${value.length}`;
  if (typeof value === 'string') return `"${value}" (a string)`;
  if (typeof value === 'object') return 'an object';
  return `${String(value)} (a ${typeof value})`;
}

/** Throws unless obj is a plain object whose keys are all in `allowed`. */
export function checkOptions(what, obj, allowed) {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj) || ArrayBuffer.isView(obj)) {
    throw new Error(`${what} expects an options object, got ${describe(obj)}`);
  }
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      throw new Error(`${what}: unknown option '${key}' (expected one of: ${allowed.join(', ')})`);
    }
  }
  return obj;
}

/** A whole number ≥ min (default 1); `fallback` is used when the key is absent. */
export function integer(name, value, { min = 1, fallback } = {}) {
  if (value === undefined) {
    if (fallback === undefined) throw new Error(`${name} is required`);
    return fallback;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new Error(`${name} must be a number, got ${describe(value)}`);
  }
  if (!Number.isInteger(value)) throw new Error(`${name} must be a whole number, got ${value}`);
  if (value < min) throw new Error(`${name} must be at least ${min}, got ${value}`);
  if (value > 2 ** 31 - 1) throw new Error(`${name} is too large (${value}); the limit is 2,147,483,647`);
  return value;
}

/** A seed: a whole number in [0, 2^53). */
export function seed(name, value, fallback = 1) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new Error(`${name} must be a whole number from 0 to 2^53 − 1, got ${describe(value)}`);
  }
  return value;
}

export function boolean(name, value, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new Error(`${name} must be true or false, got ${describe(value)}`);
  return value;
}

export function number(name, value, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new Error(`${name} must be a finite number, got ${describe(value)}`);
  }
  return value;
}

/** A Float32Array of exactly `length` values (length checked when given). */
export function float32(name, value, length, dims) {
  if (!(value instanceof Float32Array)) {
    throw new Error(`${name} must be a Float32Array, got ${describe(value)}`);
  }
  if (length !== undefined && value.length !== length) {
    throw new Error(`${name} has ${value.length.toLocaleString('en-US')} values but ${dims} needs ${length.toLocaleString('en-US')}`);
  }
  return value;
}

/**
 * The caller's arrays for an attention call's results, `into: { output?, weights? }`, checked
 * so that the call can write them whole or not at all: each a Float32Array of exactly its
 * result's length (`sizes.output`, `sizes.weights`: [length, dims]), weights only with
 * need_weights, the two not sharing memory, and neither a view of `heap` (the wasm memory:
 * growth during the call would detach it). Returns { output, weights }, null where omitted.
 */
export function destinations(into, sizes, needWeights, heap) {
  const out = { output: null, weights: null };
  if (into === undefined) return out;
  checkOptions('into', into, ['output', 'weights']);
  for (const key of ['output', 'weights']) {
    const dest = into[key];
    if (dest === undefined || dest === null) continue;
    const name = `into.${key}`;
    if (key === 'weights' && !needWeights) {
      throw new Error(`${name} was given but need_weights is false; the weights are only computed with need_weights: true`);
    }
    float32(name, dest, ...sizes[key]);
    if (dest.buffer === heap) {
      throw new Error(`${name} is a view of the wasm module's own memory, which the call may grow and so detach; pass an array of your own`);
    }
    out[key] = dest;
  }
  const { output, weights } = out;
  if (output && weights) {
    if (output === weights) throw new Error('into.output and into.weights are the same array; give two different arrays');
    const start = (a) => a.byteOffset, end = (a) => a.byteOffset + a.byteLength;
    if (output.buffer === weights.buffer && start(output) < end(weights) && start(weights) < end(output)) {
      throw new Error(`into.output (bytes ${start(output)}–${end(output)}) and into.weights (bytes ${start(weights)}–${end(weights)}) ` +
        'overlap in one buffer; give arrays that do not share memory');
    }
  }
  return out;
}

/**
 * Normalises the mask forms of the API into { causal, padding, matrix }:
 * 'none' | 'causal' | { padding: [len per batch item] } | { causal, padding, matrix } |
 * Uint8Array (n_q×n_k, 1 = masked).
 */
export function mask(value, { batch, n_q, n_k }) {
  const none = { causal: false, padding: null, matrix: null };
  if (value === undefined || value === 'none' || value === null) return none;
  if (value === 'causal') return { ...none, causal: true };
  if (typeof value === 'string') {
    throw new Error(`unknown mask '${value}' (expected 'none', 'causal', { padding: [...] } or a Uint8Array of n_q×n_k)`);
  }
  if (value instanceof Uint8Array) return { ...none, matrix: checkMatrix(value, n_q, n_k) };
  checkOptions('mask', value, ['causal', 'padding', 'matrix']);
  const out = { ...none, causal: boolean('mask.causal', value.causal, false) };
  if (value.padding !== undefined) {
    if (!Array.isArray(value.padding)) {
      throw new Error(`mask.padding must be an array of key lengths, one per batch item, got ${describe(value.padding)}`);
    }
    if (value.padding.length !== batch) {
      throw new Error(`mask.padding has ${value.padding.length} key lengths but batch is ${batch} (one length per batch item)`);
    }
    value.padding.forEach((len, b) => integer(`mask.padding[${b}]`, len, { min: 0 }));
    out.padding = value.padding.slice();
  }
  if (value.matrix !== undefined) out.matrix = checkMatrix(value.matrix, n_q, n_k);
  return out;
}

function checkMatrix(matrix, n_q, n_k) {
  if (!(matrix instanceof Uint8Array)) {
    throw new Error(`mask matrix must be a Uint8Array of n_q×n_k (1 = masked), got ${describe(matrix)}`);
  }
  if (matrix.length !== n_q * n_k) {
    throw new Error(`mask matrix has ${matrix.length} entries but n_q×n_k = ${n_q}×${n_k} = ${n_q * n_k}`);
  }
  return matrix;
}
