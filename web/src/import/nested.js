// Nested lists of numbers (a JSON file's tensors, or importTensors' arrays) read into { shape, data }
// without recursion: every list at one depth must be as long as the first one there, and numbers and
// lists must not mix at one depth; a refusal names the row ([1, 2]) and what it should be. Nesting is
// capped at MAX_AXES (NumPy's limit on axes), and a JSON text is measured for depth before it is parsed,
// so 10,000 levels get a message rather than a stack overflow.

export const MAX_AXES = 32;
const MAX_JSON_DEPTH = MAX_AXES + 2; // the file's object, a { shape, data } object, then the lists

const path = (indices) => `[${indices.join(', ')}]`;
const zeros = (n) => path(Array(n).fill(0));
const describe = (x) => (typeof x === 'number' ? 'a number' : Array.isArray(x) ? 'a list' : x === null ? 'null' : typeof x === 'object' ? 'an object' : JSON.stringify(x));

/** Refuses a JSON text that nests objects and lists deeper than a tensor's axes allow (a linear scan). */
export function checkJsonDepth(text, file) {
  let depth = 0, max = 0, inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // a backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  if (max > MAX_JSON_DEPTH) throw new Error(`${file} nests objects and lists ${max} levels deep; a tensor has at most ${MAX_AXES} axes`);
}

/** A nested array of numbers → { shape, data: Float64Array }, refusing ragged rows and mixed depths. */
export function fromNested(name, value) {
  const shape = [];
  for (let v = value; Array.isArray(v); v = v[0]) {
    if (shape.length === MAX_AXES) throw new Error(`${name}: the nested lists are more than ${MAX_AXES} levels deep; a tensor has at most ${MAX_AXES} axes`);
    shape.push(v.length);
  }
  const depth = shape.length, out = [];
  const lists = [value], at = [0]; // the lists being walked, and the position in each
  while (lists.length) {
    const d = lists.length - 1, list = lists[d], i = at[d];
    if (i === 0 && list.length !== shape[d]) {
      throw new Error(`${name}: row ${path(at.slice(0, d))} has ${list.length} entries, row ${zeros(d)} has ${shape[d]} (the nested lists are ragged)`);
    }
    if (i === list.length) {
      lists.pop();
      at.pop();
      if (at.length) at[at.length - 1]++;
      continue;
    }
    const x = list[i];
    if (d + 1 < depth) {
      if (!Array.isArray(x)) throw new Error(`${name}: ${path(at)} is ${describe(x)} where ${zeros(d + 1)} is a list (the nested lists mix depths)`);
      lists.push(x);
      at.push(0);
      continue;
    }
    if (Array.isArray(x)) throw new Error(`${name}: ${path(at)} is a list where ${zeros(d + 1)} is a number (the nested lists mix depths)`);
    if (typeof x !== 'number') throw new Error(`${name}: entry ${path(at)} is ${JSON.stringify(x)}, not a number${x === null ? ' (JSON writes NaN and Infinity as null)' : ''}`);
    out.push(x);
    at[d]++;
  }
  return { shape, data: Float64Array.from(out) };
}

/** A flat list of numbers as a Float64Array, refusing the first entry that is not a number. */
export function fromFlat(name, list) {
  const bad = list.findIndex((x) => typeof x !== 'number');
  // JSON writes NaN and ±Infinity as null: a null is a non-finite number that lost its name
  if (bad >= 0) throw new Error(`${name}: entry ${bad} is ${JSON.stringify(list[bad])}, not a number${list[bad] === null ? ' (JSON writes NaN and Infinity as null)' : ''}`);
  return Float64Array.from(list);
}
