// The one way the API calls into the wasm module: the JavaScript half of the binding pattern
// described at the top of cpp/bindings/embind.cpp.
//
//   native.call((c) => {
//     c.stageAttentionOptions(options);           // mask, scale, dropout, ... (checked values)
//     const q = c.input('query', query);          // a copy in the call's inputs: its address
//     const r = c.run('mhaForward', record(c, { layer: id, query: q, ... }));  // record.js; { value, arrays } out, or throws
//     return { ...r.value, ...c.arrays(r, { output: into.output, weights: null }) };
//   });
//
// Every option must already be read and checked (checks.js) before call() starts: inside it
// only this file's code and the engine's run, never the caller's (no getter, valueOf, Proxy
// trap or overridden method), so no JavaScript exception can unwind through a C++ frame. What
// can still throw here (an allocation of a result array failing, an error the engine
// reported) throws in JavaScript after C++ has returned, and the finally block frees every
// buffer of the call and puts the wasm stack pointer back where it was.
import {
  Float32ArrayOf, Float64ArrayOf, Int32ArrayOf, Uint8ArrayOf, copyInto, lengthOf, parseJson, sliceOf, typedArrayName,
} from './intrinsics.js';
import { recordBytes } from './record.js';

// The element types a binding can read (current_call().input<T> in C++).
const INPUT_TYPES = {
  Float32Array: Float32ArrayOf, Float64Array: Float64ArrayOf, Int32Array: Int32ArrayOf, Uint8Array: Uint8ArrayOf,
};

// JSON has no NaN or infinity; the bindings write them as {"$number": "NaN"} (json.h).
const reviveNumbers = (key, value) =>
  (value !== null && typeof value === 'object' && typeof value.$number === 'string' ? Number(value.$number) : value);

export function makeNative(raw) {
  /** The wasm memory as it is now (it is replaced whenever the memory grows). */
  const heap = () => raw.HEAPU8.buffer;

  /** `bytes` bytes of the call's own, or an Error naming `name` when memory is short. */
  function allocate(name, bytes) {
    const address = raw.callInput(bytes);
    if (address === 0) throw new Error(`the engine could not allocate ${bytes.toLocaleString('en-US')} bytes for ${name}`);
    return address;
  }

  /** Copies a typed array (Float32Array, Float64Array, Int32Array, Uint8Array) into a new input of the call (0 for null or undefined). */
  function input(name, array) {
    if (array === null || array === undefined) return 0;
    const Type = INPUT_TYPES[typedArrayName(array)];
    if (!Type) throw new Error(`internal error: ${name} is not a typed array the engine reads (${typedArrayName(array)})`);
    const n = lengthOf(array);
    const address = allocate(name, n * Type.BYTES_PER_ELEMENT);
    copyInto(new Type(heap(), address, n), array, 0); // the view is made after the allocation grew the memory
    return address;
  }

  /** Runs a binding and opens its envelope: { value, arrays } or a thrown Error. */
  function run(binding, ...args) {
    const text = raw[binding](...args);
    if (text === '') throw new Error('the engine ran out of memory');
    const envelope = text.includes('"$number"') ? parseJson(text, reviveNumbers) : parseJson(text);
    if (envelope.error !== undefined) throw new Error(envelope.error);
    return envelope;
  }

  /**
   * The result arrays named in `wanted` ({ name: destination or null }), copied out of the
   * heap: into the destination when one is given, else into a new Float32Array. The new arrays
   * are made first (allocating can fail); the destinations, whose lengths were checked, are
   * written last, so a call that throws writes nothing into the caller's arrays.
   */
  function arrays(envelope, wanted) {
    const out = {};
    const view = (name) => {
      const [address, n] = envelope.arrays[name];
      return new Float32ArrayOf(heap(), address, n);
    };
    for (const name of Object.keys(wanted)) {
      if (!envelope.arrays[name]) throw new Error(`internal error: the engine returned no ${name}`);
      const dest = wanted[name];
      if (dest && lengthOf(dest) !== envelope.arrays[name][1]) {
        throw new Error(`internal error: ${name} has ${envelope.arrays[name][1]} values, its destination ${lengthOf(dest)}`);
      }
    }
    for (const name of Object.keys(wanted)) if (!wanted[name]) out[name] = sliceOf(view(name));
    for (const name of Object.keys(wanted)) {
      const dest = wanted[name];
      if (dest) {
        copyInto(dest, view(name), 0);
        out[name] = dest;
      }
    }
    return out;
  }

  const callApi = {
    /** A checked typed array → the address of its copy in the call's inputs (0 for null). */
    input,
    /** Stages the attention options of checks.js's shape: { mask: { causal, padding, matrix }, scale, dropout, training, seed }. */
    stageAttentionOptions(o) {
      let padding = 0;
      if (o.mask.padding) {
        const lengths = new Int32ArrayOf(o.mask.padding.length); // whole numbers in [0, 2^31), checked
        for (let b = 0; b < lengths.length; b++) lengths[b] = o.mask.padding[b];
        padding = input('mask.padding', lengths);
      }
      const matrix = input('the mask matrix', o.mask.matrix);
      run('stageAttentionOptions', input('options', recordBytes({ causal: o.mask.causal, padding, matrix, scale: o.scale,
        dropout: o.dropout, training: o.training, seed: o.seed, window: o.mask.window, stride: o.mask.stride,
        positional: o.positional, rope_base: o.rope_base, head_offset: o.head_offset, layer_heads: o.layer_heads })));
    },
    run,
    arrays,
  };

  return {
    heap,
    /**
     * Runs body(c) as one call into the engine: c's inputs and results live until body
     * returns or throws, then everything is freed and the wasm stack pointer restored.
     */
    call(body) {
      if (!raw.callOpen()) {
        throw new Error('the engine is already running a call; an API call cannot be made from inside another one');
      }
      const stack = raw.stackSave();
      try {
        return body(callApi);
      } finally {
        raw.callClose();
        raw.stackRestore(stack);
      }
    },
  };
}
