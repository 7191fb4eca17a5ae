// The header of a .npy file read as NumPy reads it: a Python dict literal with exactly the keys descr
// (a string), fortran_order (True or False) and shape (a tuple of whole numbers), each given once. A
// small parser, not a set of regular expressions, so a key given twice, an unknown key, a float or hex
// shape entry, or a shape written (8) (an int in Python, not a tuple) is refused with what is wrong.

export const NPY_MAX_HEADER = 10000; // NumPy's own default max_header_size (numpy.lib.format)
const KEYS = ['descr', 'fortran_order', 'shape'];

/** Reads the dict text: { descr, fortran, shape }, or throws naming `file` and the problem. */
export function parseNpyHeader(text, file) {
  let i = 0;
  const fail = (what) => {
    throw new Error(`${file}: ${what}`);
  };
  const notDict = () => fail(`the .npy header is not a Python dict of descr, fortran_order and shape: ${JSON.stringify(text.slice(0, 80))}`);
  const space = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const eat = (c) => {
    space();
    if (text[i] !== c) return false;
    i++;
    return true;
  };
  const string = () => {
    space();
    const quote = text[i];
    if (quote !== "'" && quote !== '"') return null;
    const end = text.indexOf(quote, i + 1);
    if (end < 0) notDict();
    const s = text.slice(i + 1, end);
    i = end + 1;
    return s;
  };
  /** A tuple's raw text and entries; null when the value is not a parenthesised list. */
  const tuple = () => {
    space();
    if (text[i] !== '(') return null;
    const end = text.indexOf(')', i);
    if (end < 0) notDict();
    const raw = text.slice(i + 1, end);
    i = end + 1;
    const parts = raw.split(',').map((s) => s.trim());
    const trailing = parts.length > 1 && parts.at(-1) === '';
    if (trailing) parts.pop();
    if (parts.length === 1 && parts[0] === '') parts.pop(); // ()
    if (parts.length === 1 && !trailing) fail(`the .npy shape (${raw}) is not a tuple (one axis is written (${parts[0]},))`);
    if (!parts.every((p) => /^\d+$/.test(p))) fail(`the .npy shape (${raw}) is not a list of whole numbers`);
    return parts.map(Number);
  };
  const fields = {};
  if (!eat('{')) notDict();
  while (!eat('}')) {
    const key = string();
    if (key === null || !eat(':')) notDict();
    if (!KEYS.includes(key)) fail(`the .npy header has a key '${key}' NumPy does not write (only ${KEYS.join(', ')})`);
    if (Object.hasOwn(fields, key)) fail(`the .npy header gives ${key} twice`);
    if (key === 'descr') fields.descr = string() ?? fail(`the .npy header's descr must be a string such as '<f4'`);
    else if (key === 'shape') fields.shape = tuple() ?? fail('the .npy shape is not a tuple of whole numbers');
    else {
      space();
      const word = /^(True|False)\b/.exec(text.slice(i, i + 6))?.[1];
      if (!word) fail(`the .npy header's fortran_order must be True or False`);
      i += word.length;
      fields.fortran = word === 'True';
    }
    if (!eat(',')) {
      if (!eat('}')) notDict();
      break;
    }
  }
  if (text.slice(i).trim() !== '') notDict();
  if (fields.descr === undefined || fields.fortran === undefined || fields.shape === undefined) fail('the .npy header has no descr, fortran_order or shape');
  return fields;
}
