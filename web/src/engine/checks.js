// Argument checks for the JavaScript API: every wrong type, missing key, unknown key or
// non-integer size becomes an Error that names the problem, before anything reaches wasm
// (where a string passed for an int would silently become 0).
//
// Every value of the caller's is read exactly once (options() copies an options object,
// plainArray() an array) and the copy is what gets checked and used: a getter or a Proxy that
// answers differently on a second read cannot slip a value past a check. Typed arrays are
// recognised by their internal slots (intrinsics.js), not by properties they could fake.
import {
  Float32ArrayOf, bufferOf, byteLengthOf, byteOffsetOf, getPrototypeOf, isArray, lengthOf, objectToString, ownKeys,
  typedArrayName,
} from './intrinsics.js';

/** Describes a value for an error message: "\"512\" (a string)", "a Date object". */
export function describe(value) {
  if (value === null) return 'null';
  const typed = typedArrayName(value);
  if (typed !== undefined) return `${/^Int/.test(typed) ? 'an' : 'a'} ${typed} of length ${lengthOf(value)}`;
  if (typeof value === 'string') return `"${value}" (a string)`;
  if (typeof value === 'function') return 'a function';
  if (typeof value !== 'object') return `${String(value)} (a ${typeof value})`;
  try {
    if (isArray(value)) return `an array of length ${value.length}`;
    if (isPlainObject(value)) return 'an object';
    const tag = objectToString(value).slice(8, -1); // "[object Date]" → "Date"
    return tag === 'Object' ? 'an object that is not a plain { ... } object' : `a ${tag} object`;
  } catch {
    return 'an object'; // a Proxy whose traps throw: the message must not throw too
  }
}

/**
 * True for a plain object: made by { ... }, Object.create(null) or in another realm (an
 * iframe, a worker's message). Its prototype is null or has no prototype itself, which rules
 * out arrays, typed arrays, Dates, boxed numbers and class instances.
 */
export function isPlainObject(value) {
  if (value === null || typeof value !== 'object') return false;
  const proto = getPrototypeOf(value);
  return proto === null || getPrototypeOf(proto) === null;
}

/**
 * Checks that obj is a plain object whose own keys are all in `allowed`, and returns a copy
 * (null prototype) of those keys, each read once. Keys inherited from a prototype are ignored.
 */
export function options(what, obj, allowed) {
  if (!isPlainObject(obj)) throw new Error(`${what} expects an options object, got ${describe(obj)}`);
  const copy = Object.create(null);
  for (const key of ownKeys(obj)) {
    if (!allowed.includes(key)) {
      throw new Error(`${what}: unknown option '${key}' (expected one of: ${allowed.join(', ')})`);
    }
    copy[key] = obj[key];
  }
  return copy;
}

/** For a call that takes no options: nothing, undefined or {} (anything else is refused as options() would). */
export function noOptions(what, args) {
  if (args.length > 1 || (args.length === 1 && args[0] !== undefined)) options(what, args[0], []);
}

/** A copy of an array's elements, each read once (the array may be a Proxy or have getters). */
export function plainArray(name, value, what) {
  if (!isArray(value)) throw new Error(`${name} must be an array of ${what}, got ${describe(value)}`);
  const length = value.length;
  const copy = new Array(length);
  for (let i = 0; i < length; i++) copy[i] = value[i];
  return copy;
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

/**
 * An index into something of `count` elements (a batch item, a head, a query row), `fallback`
 * when absent: "head 5 is out of range 0…3 (n_heads = 4)".
 */
export function index(name, value, count, countName, fallback) {
  const i = integer(name, value, { min: -(2 ** 31), fallback });
  if (i < 0 || i >= count) throw new Error(`${name} ${i} is out of range 0…${count - 1} (${countName} = ${count})`);
  return i;
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

/** One of `choices` (strings); `fallback` when absent. */
export function choice(name, value, choices, fallback) {
  if (value === undefined) return fallback;
  if (!choices.includes(value)) {
    throw new Error(`${name} must be ${choices.map((c) => `'${c}'`).join(' or ')}, got ${describe(value)}`);
  }
  return value;
}

/**
 * A Float32Array of exactly `length` values (length checked when given). `heap`: the wasm
 * module's memory buffer, which the array must not view: the call may grow that memory and so
 * detach the view, or write over it while reading it.
 */
export function float32(name, value, length, dims, heap) {
  if (typedArrayName(value) !== 'Float32Array') {
    throw new Error(`${name} must be a Float32Array, got ${describe(value)}`);
  }
  const actual = lengthOf(value);
  if (length !== undefined && actual !== length) {
    throw new Error(`${name} has ${actual.toLocaleString('en-US')} values but ${dims} needs ${length.toLocaleString('en-US')}`);
  }
  if (heap !== undefined && bufferOf(value) === heap) {
    throw new Error(`${name} is a view of the wasm module's own memory, which the call may grow and so detach; pass an array of your own`);
  }
  return value;
}

/**
 * Refuses a call whose float32 inputs (checked arrays; null for none) and mask (checked: mask() below; its
 * matrix and key lengths) take more bytes than its memory budget, before anything is copied: the core counts
 * them in that budget (Mask::bytes() for the mask) and would refuse the call, but only once the copies had
 * grown the wasm memory, which never shrinks (a hostile probe held 1 GB after a refusal; an 81 MB mask grew it
 * by 230 MB).
 */
export function inputsWithinBudget(budget, arrays, mask = null) {
  let bytes = 0;
  for (const a of arrays) if (a) bytes += 4 * lengthOf(a);
  const held = mask ? (mask.matrix ? lengthOf(mask.matrix) : 0) + 4 * (mask.padding?.length ?? 0) : 0;
  if (bytes + held > budget) {
    const what = held ? 'the inputs and the mask alone take' : 'the inputs alone take';
    throw new Error(`${what} ${(bytes + held).toLocaleString('en-US')} bytes, over the memory budget of ${budget.toLocaleString('en-US')} bytes`);
  }
}

/**
 * The caller's arrays for a call's results (`into`), checked so that the call can write them
 * whole or not at all. `sizes` maps each key `into` may have to [length, dims] for a result of
 * this call, to a string saying why this call has none ("need_weights is false; ..."), or to a
 * nested map of the same kind (into.grads). Each given array must be a Float32Array of exactly
 * its length and no view of `heap` (the wasm memory: growth during the call would detach it),
 * and no two may share memory. Returns the given arrays by path: { output, 'grads.wq', ... }.
 */
export function resultArrays(into, sizes, heap) {
  const found = Object.create(null);
  collectArrays(into, sizes, heap, 'into', found);
  const names = Object.keys(found);
  const start = byteOffsetOf, end = (a) => byteOffsetOf(a) + byteLengthOf(a);
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const a = found[names[i]], b = found[names[j]], an = `into.${names[i]}`, bn = `into.${names[j]}`;
      if (a === b) throw new Error(`${an} and ${bn} are the same array; give two different arrays`);
      if (bufferOf(a) === bufferOf(b) && start(a) < end(b) && start(b) < end(a)) {
        throw new Error(`${an} (bytes ${start(a)}–${end(a)}) and ${bn} (bytes ${start(b)}–${end(b)}) ` +
          'overlap in one buffer; give arrays that do not share memory');
      }
    }
  }
  return found;
}

function collectArrays(into, sizes, heap, prefix, found) {
  if (into === undefined) return;
  const given = options(prefix, into, Object.keys(sizes));
  for (const key of Object.keys(given)) {
    const dest = given[key], size = sizes[key], name = `${prefix}.${key}`;
    if (dest === undefined || dest === null) continue;
    if (typeof size === 'string') throw new Error(`${name} was given but ${size}`);
    if (isArray(size)) found[name.slice('into.'.length)] = float32(name, dest, ...size, heap);
    else collectArrays(dest, size, heap, name, found);
  }
}

/**
 * The caller's arrays for an attention call's results, `into: { output?, weights? }`
 * (resultArrays): `sizes.output`, `sizes.weights` as [length, dims], weights only with
 * need_weights. Returns { output, weights }, null where omitted.
 */
export function destinations(into, sizes, needWeights, heap) {
  const found = resultArrays(into, {
    output: sizes.output,
    weights: needWeights ? sizes.weights : 'need_weights is false; the weights are only computed with need_weights: true',
  }, heap);
  return { output: found.output ?? null, weights: found.weights ?? null };
}

const MASK_FORMS = "'none', 'causal', { causal, padding, matrix } or a Uint8Array of n_q×n_k";

/**
 * Normalises the mask forms of the API into { causal, padding, matrix, window, stride }:
 * 'none' | 'causal' | 'sliding' (with the call's `window`: query i sees keys i − window < j ≤ i) |
 * 'strided' (with `stride`: j ≤ i and (i − j < stride or (i − j) mod stride = 0)) |
 * { padding: [len per batch item] } | { causal, padding, matrix, window, stride } | Uint8Array (n_q×n_k, 1 = masked).
 * `sparse` holds the call's raw window and stride options (undefined when absent). padding comes
 * back as a checked copy of the caller's array; window and stride are 0 when off.
 */
export function mask(value, { batch, n_q, n_k }, heap, sparse = {}) {
  // 'sliding' and 'strided' are also listed where a form is wrong: MASK_FORMS keeps its old wording.
  const none = { causal: false, padding: null, matrix: null, window: 0, stride: 0 };
  const kind = value === 'sliding' ? 'window' : value === 'strided' ? 'stride' : null;
  for (const field of ['window', 'stride']) {
    if (sparse[field] !== undefined && kind !== field) {
      const wants = field === 'window' ? 'sliding' : 'strided';
      throw new Error(`${field} is only used with mask '${wants}' (mask is ${typeof value === 'string' ? `'${value}'` : describe(value ?? 'none')})`);
    }
  }
  if (kind) {
    if (sparse[kind] === undefined) {
      throw new Error(kind === 'window'
        ? "mask 'sliding' needs window: a whole number ≥ 1 (query i sees keys i − window < j ≤ i)"
        : "mask 'strided' needs stride: a whole number ≥ 1 (query i sees keys j ≤ i with i − j < stride or a multiple of it)");
    }
    return { ...none, [kind]: integer(kind, sparse[kind]) };
  }
  if (value === undefined || value === 'none' || value === null) return none;
  if (value === 'causal') return { ...none, causal: true };
  if (typeof value === 'string') {
    throw new Error(`unknown mask '${value}' (expected 'none', 'causal', 'sliding' with window, 'strided' with stride, { padding: [...] } or a Uint8Array of n_q×n_k)`);
  }
  if (typedArrayName(value) === 'Uint8Array') return { ...none, matrix: checkMatrix(value, n_q, n_k, heap) };
  if (!isPlainObject(value)) throw new Error(`mask must be ${MASK_FORMS}, got ${describe(value)}`);
  const m = options('mask', value, ['causal', 'padding', 'matrix', 'window', 'stride']);
  const out = { ...none, causal: boolean('mask.causal', m.causal, false) };
  // The object form may carry a sliding window or a stride too ({ window: 4, padding: [...] }).
  if (m.window !== undefined) out.window = integer('mask.window', m.window);
  if (m.stride !== undefined) out.stride = integer('mask.stride', m.stride);
  if (out.window && out.stride) throw new Error('mask: give window (sliding) or stride (strided), not both');
  if (m.padding !== undefined) {
    // Copied once, then checked: the copy is what the engine gets.
    const padding = plainArray('mask.padding', m.padding, 'key lengths, one per batch item');
    if (padding.length !== batch) {
      throw new Error(`mask.padding has ${padding.length} key lengths but batch is ${batch} (one length per batch item)`);
    }
    padding.forEach((len, b) => integer(`mask.padding[${b}]`, len, { min: 0 }));
    out.padding = padding;
  }
  if (m.matrix !== undefined) out.matrix = checkMatrix(m.matrix, n_q, n_k, heap);
  return out;
}

function checkMatrix(matrix, n_q, n_k, heap) {
  if (typedArrayName(matrix) !== 'Uint8Array') {
    throw new Error(`mask matrix must be a Uint8Array of n_q×n_k (1 = masked), got ${describe(matrix)}`);
  }
  if (lengthOf(matrix) !== n_q * n_k) {
    throw new Error(`mask matrix has ${lengthOf(matrix)} entries but n_q×n_k = ${n_q}×${n_k} = ${n_q * n_k}`);
  }
  if (heap !== undefined && bufferOf(matrix) === heap) {
    throw new Error('the mask matrix is a view of the wasm module\'s own memory; pass an array of your own');
  }
  return matrix;
}

/**
 * The head_mask of forward: n_heads multipliers of the head outputs, as an array of numbers
 * (copied into a Float32Array) or a Float32Array of length n_heads; null when absent. Whether
 * every value is finite is the engine's check.
 */
export function headMask(value, n_heads, heap) {
  if (value === undefined || value === null) return null;
  if (typedArrayName(value) === 'Float32Array') return float32('head_mask', value, n_heads, `n_heads = ${n_heads}`, heap);
  const values = plainArray('head_mask', value, 'numbers, one per head');
  if (values.length !== n_heads) {
    throw new Error(`head_mask has ${values.length} values; it needs one per head, n_heads = ${n_heads}`);
  }
  const mask = new Float32ArrayOf(n_heads);
  values.forEach((x, h) => {
    if (typeof x !== 'number') throw new Error(`head_mask[${h}] must be a number, got ${describe(x)}`);
    mask[h] = x;
  });
  return mask;
}
