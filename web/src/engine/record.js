// The options of one binding call as one record (cpp/bindings/record.h): each field's name, a 0
// byte, its kind ('n' number, 'b' boolean, 'z' null) and the value as a little-endian double,
// written into an input of the call, which the binding reads field by field by name. A field
// misspelt on either side is an error naming it, never a value landing in another parameter as
// with a long positional argument list.
import { Float64ArrayOf, Uint8ArrayOf, bufferOf, codePointAt, copyInto, ownKeys } from './intrinsics.js';

const KIND = { number: 110, boolean: 98 }; // 'n', 'b'; null is 'z' (122)

/**
 * The record's bytes. `fields`: { name: number | boolean | null | undefined } built by the API
 * from checked values (undefined is left out: "not given"). NaN and ±Infinity travel as they
 * are, so the engine can name them.
 */
export function recordBytes(fields) {
  const parts = [];
  let length = 0;
  // Own keys only (the captured Object.keys): for-in would also list what a page added to
  // Object.prototype, and the engine would refuse it as an unknown field.
  const names = ownKeys(fields);
  for (let n = 0; n < names.length; n++) {
    const name = names[n], value = fields[name];
    if (value === undefined) continue;
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`internal error: '${name}' is not a record field name`);
    const kind = value === null ? 122 : KIND[typeof value];
    if (kind === undefined) throw new Error(`internal error: record field ${name} is a ${typeof value}`);
    parts[parts.length] = [name, kind, value === null ? null : Number(value)];
    length += name.length + 2 + (value === null ? 0 : 8);
  }
  const bytes = new Uint8ArrayOf(length);
  const number = new Float64ArrayOf(1), numberBytes = new Uint8ArrayOf(bufferOf(number)); // typed arrays: little-endian here, as wasm
  let at = 0;
  for (let p = 0; p < parts.length; p++) { // an index, not an iterator a page could replace
    const name = parts[p][0], kind = parts[p][1], value = parts[p][2];
    for (let i = 0; i < name.length; i++) bytes[at++] = codePointAt(name, i); // ASCII (checked above)
    bytes[at++] = 0;
    bytes[at++] = kind;
    if (value === null) continue;
    number[0] = value;
    copyInto(bytes, numberBytes, at);
    at += 8;
  }
  return bytes;
}

/** The address of the record in the call `n` (native.js's call API): the binding's one argument. */
export const record = (n, fields) => n.input('options', recordBytes(fields));
