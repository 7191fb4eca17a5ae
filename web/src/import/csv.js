// One matrix from a CSV file (tab, semicolon, comma or space separated: the first of these the file
// uses): numbers in decimal notation, as NumPy's savetxt writes them; a first row of words labels the
// keys and a first column of words the queries. A decimal comma, a hexadecimal or binary number, or a
// non-finite word is named as such instead of becoming a label or another number, and the matrix is
// refused before it is allocated when it holds more numbers than the view's largest tensor.

const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const NUMBER_LIKE = /^[-+]?\.?\d/;         // starts as a number does: never a label
const DECIMAL_COMMA = /^[-+]?\d*,\d+$/;
const NON_FINITE = /^[-+]?(nan|inf|infinity)$/i;

const unquote = (c) => {
  const t = c.trim();
  return t.length > 1 && t[0] === '"' && t[t.length - 1] === '"' ? t.slice(1, -1) : t;
};
/** A cell that can only be a label: a non-empty word, not a number written some other way. */
const isWord = (c) => c !== '' && !NUMBER_LIKE.test(c) && !NON_FINITE.test(c);

/** Why a cell is not a number, or null when it is one. */
function whyNot(c) {
  if (DECIMAL.test(c)) return null;
  if (DECIMAL_COMMA.test(c)) return `has a decimal comma: write ${c.replace(',', '.')}`;
  if (NON_FINITE.test(c)) return 'is not a number (non-finite values are refused: every number must be finite)';
  if (NUMBER_LIKE.test(c)) return 'is not a decimal number (hexadecimal, binary, octal and other forms are not read)';
  return 'is not a number';
}

/** The separator the file uses: a tab, a semicolon or a comma if any is there, else runs of spaces. */
function splitterOf(text) {
  for (const sep of ['\t', ';', ',']) {
    if (text.includes(sep)) return { split: (line) => line.split(sep).map(unquote), first: (line) => unquote(line.slice(0, (line.indexOf(sep) + 1 || line.length + 1) - 1)) };
  }
  const split = (line) => line.trim().split(/\s+/).map(unquote);
  return { split, first: (line) => split(line)[0] };
}

/**
 * Reads the text: { tensor: { shape, data: Float64Array }, labels_q, labels_k } (labels null where the
 * file has none). maxValues: the most numbers the view takes in one tensor (Infinity for no bound).
 */
export function readCsv(text, file, maxValues = Infinity) {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (!lines.length) throw new Error(`${file} is empty`);
  const { split, first: firstCell } = splitterOf(text);
  const first = split(lines[0]);
  const header = first.slice(1).every((c) => !DECIMAL.test(c) && !NUMBER_LIKE.test(c)) && first.slice(1).some(isWord) ? first : null;
  const body = header ? lines.slice(1) : lines;
  const firsts = body.map(firstCell);
  const rowLabels = body.length && firsts.every((c) => c === '' || isWord(c)) && firsts.some(isWord) ? firsts : null;
  if (header && rowLabels) header.shift();
  const skip = rowLabels ? 1 : 0;
  const width = body.length ? split(body[0]).length - skip : 0;
  if (body.length * width > maxValues) {
    throw new Error(`${file} holds ${body.length} × ${width} numbers; the view's largest tensor holds ${maxValues}`);
  }
  const data = new Float64Array(body.length * width);
  body.forEach((line, i) => {
    const cells = split(line);
    if (cells.length - skip !== width) throw new Error(`${file}: row ${i + 1} has ${cells.length - skip} numbers, the first ${width}`);
    for (let j = skip; j < cells.length; j++) {
      const why = whyNot(cells[j]);
      if (why) throw new Error(`${file}: “${cells[j]}” (row ${i + 1}, column ${j + 1 - skip}) ${why}`);
      data[i * width + j - skip] = Number(cells[j]);
    }
  });
  return { tensor: { shape: [body.length, width], data }, labels_q: rowLabels, labels_k: header };
}
