// Files a learner drops or picks, read into importTensors' object: a .npy (named by its file: wq.npy is
// wq), a .npz (np.savez, or an exported bundle: the tensors it holds that the view takes), a .json
// ({ name: { shape, data } or nested lists, labels_q?, labels_k? }) or a .csv (one matrix, named by its
// file; a first row of words labels the keys and a first column of words the queries). Each refusal
// names the file and what is wrong.

import { readNpy, readNpz } from '../export/npy.js';
import { IMPORT_NAMES } from './tensors.js';

const stem = (file) => file.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');

/** Numbers of a CSV (comma, semicolon or tab separated); words in the first row/column become labels. */
function readCsv(text, file) {
  const rows = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).map((l) => l.split(/[,;\t]/).map((c) => c.trim().replace(/^"(.*)"$/, '$1')));
  if (!rows.length) throw new Error(`${file} is empty`);
  const isNumber = (c) => c !== '' && Number.isFinite(Number(c));
  const header = rows[0].slice(1).every((c) => !isNumber(c)) && !rows[0].slice(1).every(isNumber) ? rows.shift() : null;
  const rowLabels = rows.every((r) => !isNumber(r[0])) ? rows.map((r) => r.shift()) : null;
  if (header && rowLabels) header.shift();
  const width = rows[0]?.length ?? 0;
  rows.forEach((r, i) => {
    if (r.length !== width) throw new Error(`${file}: row ${i + 1} has ${r.length} numbers, the first ${width}`);
    r.forEach((c, j) => { if (!isNumber(c)) throw new Error(`${file}: “${c}” (row ${i + 1}, column ${j + 1}) is not a number`); });
  });
  return { tensor: { shape: [rows.length, width], data: Float64Array.from(rows.flat(), Number) }, labels_q: rowLabels, labels_k: header };
}

/** Reads one file ({ name, bytes }) into { tensors: { name: tensor }, labels_q?, labels_k?, skipped: [names] }. */
export function readImportFile(name, bytes) {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const named = (what) => {
    if (!IMPORT_NAMES.includes(what)) throw new Error(`${name}: name the file after the tensor it holds (${IMPORT_NAMES.map((n) => `${n}.${ext}`).join(', ')})`);
    return what;
  };
  if (ext === 'npy') return { tensors: { [named(stem(name))]: readNpy(u8, name) }, skipped: [] };
  if (ext === 'npz' || ext === 'zip') {
    const all = readNpz(u8, name);
    const tensors = {}, skipped = [];
    for (const [key, t] of Object.entries(all)) (IMPORT_NAMES.includes(key) ? (tensors[key] = t) : skipped.push(key));
    if (!Object.keys(tensors).length) throw new Error(`${name} holds none of the tensors the view takes (${IMPORT_NAMES.join(', ')}); it holds ${Object.keys(all).join(', ')}`);
    // an exported bundle holds its inputs and parameters and the maps they make: the run makes the maps again
    if (tensors.attention && Object.keys(tensors).length > 1) {
      delete tensors.attention;
      skipped.push('attention');
    }
    return { tensors, skipped };
  }
  const text = new TextDecoder().decode(u8);
  if (ext === 'json') {
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new Error(`${name} is not JSON: ${err.message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${name} must hold an object { name: { shape, data } or nested lists }`);
    const { labels_q, labels_k, ...tensors } = parsed;
    return { tensors, labels_q, labels_k, skipped: [] };
  }
  if (ext === 'csv') {
    const { tensor, labels_q, labels_k } = readCsv(text, name);
    return { tensors: { [named(stem(name))]: tensor }, labels_q: labels_q ?? undefined, labels_k: labels_k ?? undefined, skipped: [] };
  }
  throw new Error(`${name}: .${ext ?? '(no extension)'} files are not read; give .npy, .npz, .json or .csv`);
}

/** Several files into one importTensors object (a later file's tensor of the same name replaces the earlier). */
export function readImportFiles(files) {
  const out = {}, skipped = [];
  for (const { name, bytes } of files) {
    const r = readImportFile(name, bytes);
    Object.assign(out, r.tensors);
    if (r.labels_q) out.labels_q = r.labels_q;
    if (r.labels_k) out.labels_k = r.labels_k;
    skipped.push(...r.skipped);
  }
  return { given: out, skipped };
}
