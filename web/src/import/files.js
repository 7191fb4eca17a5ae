// Files a learner drops or picks, read into importTensors' object: a .npy (named by its file: wq.npy is
// wq), a .npz (np.savez, or an exported bundle: the tensors it holds that the view takes), a .json
// ({ name: { shape, data } or nested lists, labels_q?, labels_k? }) or a .csv (one matrix, named by its
// file; import/csv.js). It runs in the compute worker (features/export/handler.js readImports), so a big
// file never blocks the page, and every tensor comes out as typed arrays. Bounds: IMPORT_MAX_BYTES a file,
// and with a view's sizes (importLimits) no tensor larger than the view's largest is read or inflated.
// Each refusal names the file (and the entry of a .npz) and the limit.

import { readNpy, readNpz, NPZ_ENTRY_LIMIT } from '../export/npy.js';
import { IMPORT_NAMES, expectedShapes } from './tensors.js';
import { show } from './import_view.js';
import { NPY_MAX_HEADER } from './npy_header.js';
import { readCsv } from './csv.js';
import { checkJsonDepth, fromNested, fromFlat } from './nested.js';

/** The largest file read (bytes): the page refuses bigger ones before reading them (EMBED.md, Importing). */
export const IMPORT_MAX_BYTES = 64 * 2 ** 20;
const mib = (n) => `${(n / 2 ** 20).toFixed(n < 2 ** 20 ? 3 : 1)} MiB`;

const stem = (file) => file.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');

/**
 * The bounds of an import into a view (a validated config): the most numbers one tensor may hold, and
 * the most bytes one .npy may take (that many float64s and NumPy's largest header). Null: no view.
 */
export function importLimits(config) {
  if (!config) return null;
  let maxValues = 0, largest = '';
  for (const [name, [, shape]] of Object.entries(expectedShapes(config))) {
    const n = shape.reduce((a, b) => a * b, 1);
    if (n > maxValues) [maxValues, largest] = [n, `${name} ${show(shape)}`];
  }
  return { maxValues, maxNpyBytes: maxValues * 8 + 12 + NPY_MAX_HEADER, largest };
}

/** A JSON file's tensors as typed arrays: nested lists → { shape, data }, flat lists → Float64Array. */
function jsonTensors(tensors) {
  const out = {};
  for (const [name, value] of Object.entries(tensors)) {
    const numbers = (list) => (list.some(Array.isArray) ? fromNested(name, list) : fromFlat(name, list));
    if (Array.isArray(value)) out[name] = numbers(value);
    else if (value && typeof value === 'object' && Array.isArray(value.data)) {
      const read = numbers(value.data);
      out[name] = { shape: value.shape, data: read.data ?? read };
    } else out[name] = value;
  }
  return out;
}

/**
 * Refuses a file by its size alone, before it is read (the page calls this with a File's size): over
 * IMPORT_MAX_BYTES, or a .npy larger than the view's largest tensor (limits: importLimits(config)).
 */
export function checkFileSize(name, size, limits = null) {
  if (size > IMPORT_MAX_BYTES) throw new Error(`${name} is ${mib(size)}; files over ${mib(IMPORT_MAX_BYTES)} (${IMPORT_MAX_BYTES} bytes) are not imported`);
  const limit = limits?.maxNpyBytes;
  if (limit && /\.npy$/i.test(name) && size > limit) {
    throw new Error(`${name} is ${size} bytes; the limit is ${limit} bytes (the view's largest tensor, ${limits.largest}, as float64 with a .npy header)`);
  }
}

/** Reads one file ({ name, bytes }) into { tensors: { name: tensor }, labels_q?, labels_k?, skipped: [names] }. */
export function readImportFile(name, bytes, limits = null) {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  checkFileSize(name, u8.length, limits);
  const limitText = limits ? `the view's largest tensor, ${limits.largest}, as float64 with a .npy header` : 'the bound on one tensor of an import';
  const named = (what) => {
    if (!IMPORT_NAMES.includes(what)) throw new Error(`${name}: name the file after the tensor it holds (${IMPORT_NAMES.map((n) => `${n}.${ext}`).join(', ')})`);
    return what;
  };
  const limit = limits?.maxNpyBytes ?? NPZ_ENTRY_LIMIT;
  if (ext === 'npy') {
    if (u8.length > limit) throw new Error(`${name} is ${u8.length} bytes; the limit is ${limit} bytes (${limitText})`);
    return { tensors: { [named(stem(name))]: readNpy(u8, name) }, skipped: [] };
  }
  if (ext === 'npz' || ext === 'zip') {
    const skipped = [];
    const tensors = readNpz(u8, name, { names: IMPORT_NAMES, limit, limitText, skipped });
    if (!Object.keys(tensors).length) throw new Error(`${name} holds none of the tensors the view takes (${IMPORT_NAMES.join(', ')}); it holds ${skipped.join(', ')}`);
    // an exported bundle holds its inputs and parameters and the maps they make: the run makes the maps again
    if (tensors.attention && Object.keys(tensors).length > 1) {
      delete tensors.attention;
      skipped.push('attention');
    }
    return { tensors, skipped };
  }
  const text = new TextDecoder().decode(u8);
  if (ext === 'json') {
    checkJsonDepth(text, name);
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new Error(`${name} is not JSON: ${err.message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${name} must hold an object { name: { shape, data } or nested lists }`);
    const { labels_q, labels_k, ...tensors } = parsed;
    return { tensors: jsonTensors(tensors), labels_q, labels_k, skipped: [] };
  }
  if (ext === 'csv') {
    const { tensor, labels_q, labels_k } = readCsv(text, name, limits?.maxValues);
    return { tensors: { [named(stem(name))]: tensor }, labels_q: labels_q ?? undefined, labels_k: labels_k ?? undefined, skipped: [] };
  }
  throw new Error(`${name}: .${ext ?? '(no extension)'} files are not read; give .npy, .npz, .json or .csv`);
}

/** Several files into one importTensors object (a later file's tensor of the same name replaces the earlier). */
export function readImportFiles(files, limits = null) {
  const out = {}, skipped = [];
  for (const { name, bytes } of files) {
    const r = readImportFile(name, bytes, limits);
    Object.assign(out, r.tensors);
    if (r.labels_q) out.labels_q = r.labels_q;
    if (r.labels_k) out.labels_k = r.labels_k;
    skipped.push(...r.skipped);
  }
  return { given: out, skipped };
}
