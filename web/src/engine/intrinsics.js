// Built-in functions the engine's checks and copies rely on, taken once when the API is first
// imported. Later changes cannot alter what is checked or copied: a page that replaces
// Float32Array.prototype.set or slice, an array with an own `set`, `length` or `buffer`
// property, or a Proxy that claims to be a Float32Array (a Proxy has no typed-array slots, so
// these getters see through it).
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
// callBound(fn, self, a, b) is fn.call(self, a, b) with the original `call`; fixed arities, so
// that no array iterator (which a page can replace too) is involved.
const callBound = Function.prototype.call.bind(Function.prototype.call);
const method0 = (fn) => (self) => callBound(fn, self);
const method1 = (fn) => (self, a) => callBound(fn, self, a);
const method2 = (fn) => (self, a, b) => callBound(fn, self, a, b);
const getter = (key) => method0(Object.getOwnPropertyDescriptor(TypedArrayPrototype, key).get);

/** 'Float32Array', 'Uint8Array', ... for a real typed array; undefined for anything else. */
export const typedArrayName = getter(Symbol.toStringTag);
/** The real length, byteOffset, byteLength and buffer of a typed array (throw for anything else). */
export const lengthOf = getter('length');
export const byteOffsetOf = getter('byteOffset');
export const byteLengthOf = getter('byteLength');
export const bufferOf = getter('buffer');
/** copyInto(target, source, offset) is target.set(source, offset); sliceOf(view) is view.slice(). */
export const copyInto = method2(TypedArrayPrototype.set);
export const sliceOf = method0(TypedArrayPrototype.slice);

export const Float32ArrayOf = Float32Array;
export const Float64ArrayOf = Float64Array;
export const Int32ArrayOf = Int32Array;
export const Uint8ArrayOf = Uint8Array;
export const getPrototypeOf = Object.getPrototypeOf;
export const ownKeys = Object.keys;
export const isArray = Array.isArray;
export const objectToString = method0(Object.prototype.toString);
export const parseJson = JSON.parse;
/** lowerCase(s) is s.toLowerCase(); codePointAt(s, i) is s.codePointAt(i) (strings the API checked). */
export const lowerCase = method0(String.prototype.toLowerCase);
export const codePointAt = method1(String.prototype.codePointAt);
