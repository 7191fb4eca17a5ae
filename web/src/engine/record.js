// The options of one binding call as one record (cpp/bindings/record.h): a flat JSON object of
// numbers, booleans and null, written as bytes into an input of the call, which the binding
// reads field by field by name. A field misspelt on either side is an error naming it, never a
// value landing in another parameter as with a long positional argument list.
import { Uint8ArrayOf, codePointAt } from './intrinsics.js';

/**
 * The record's bytes. `fields`: { name: number | boolean | null | undefined } built by the API
 * from checked values (undefined is left out: "not given"). NaN and ±Infinity are written as
 * those words, which the engine's reader accepts, so the engine can name them.
 */
export function recordBytes(fields) {
  let text = '{';
  for (const name in fields) {
    const value = fields[name];
    if (value === undefined) continue;
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`internal error: '${name}' is not a record field name`);
    let written;
    if (typeof value === 'number' || typeof value === 'boolean') written = `${value}`;
    else if (value === null) written = 'null';
    else throw new Error(`internal error: record field ${name} is a ${typeof value}`);
    text += `${text.length > 1 ? ',' : ''}"${name}":${written}`;
  }
  text += '}';
  const bytes = new Uint8ArrayOf(text.length); // ASCII only: names and numbers
  for (let i = 0; i < text.length; i++) bytes[i] = codePointAt(text, i);
  return bytes;
}

/** The address of the record in the call `n` (native.js's call API): the binding's one argument. */
export const record = (n, fields) => n.input('options', recordBytes(fields));
