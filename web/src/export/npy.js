// NumPy's .npy and .npz formats, written and read: a tensor is { shape, data } with data a Float32Array
// ('<f4') or a Float64Array ('<f8'). A .npy file is the magic "\x93NUMPY", a version, the length of an
// ASCII header (a Python dict literal: descr, fortran_order, shape) padded so the data starts on a
// multiple of 64 bytes, then the data in C order. A .npz is a zip of .npy files (fflate writes it;
// import/zip.js reads it, with its limits and CRC-32 check). Reading refuses what the views cannot use,
// naming the file and the problem.

import { zipSync } from 'fflate';
import { listZip, readEntry } from '../import/zip.js';
import { parseNpyHeader, NPY_MAX_HEADER } from '../import/npy_header.js';

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY
const DTYPES = { '<f4': Float32Array, '<f8': Float64Array };
// Integer files are read as float64 (token ids or masks saved as ints still load); the views use floats.
const INTEGERS = { '<i4': Int32Array, '<i8': BigInt64Array, '|u1': Uint8Array, '|i1': Int8Array, '<u4': Uint32Array };

const count = (shape) => shape.reduce((a, b) => a * b, 1);
/** The bytes as a plain Uint8Array view (a Node Buffer's slice() shares its pool; a Uint8Array's copies). */
const plainBytes = (b) => (ArrayBuffer.isView(b) ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : new Uint8Array(b));

/** Checks a tensor { shape, data } and returns its dtype string. */
function dtypeOf(name, { shape, data }) {
  if (!Array.isArray(shape) || !shape.every((n) => Number.isInteger(n) && n >= 0)) {
    throw new Error(`${name}: the shape must be a list of whole numbers ≥ 0, got ${JSON.stringify(shape)}`);
  }
  const descr = data instanceof Float32Array ? '<f4' : data instanceof Float64Array ? '<f8' : null;
  if (!descr) throw new Error(`${name}: the data must be a Float32Array or a Float64Array, got ${data?.constructor?.name ?? typeof data}`);
  if (data.length !== count(shape)) throw new Error(`${name}: shape [${shape.join(', ')}] holds ${count(shape)} numbers, the data ${data.length}`);
  return descr;
}

/** The bytes of one .npy file (version 1.0) for a tensor { shape, data }. */
export function writeNpy(tensor, name = 'tensor') {
  const descr = dtypeOf(name, tensor);
  const shape = tensor.shape.length === 1 ? `(${tensor.shape[0]},)` : `(${tensor.shape.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const unpadded = MAGIC.length + 2 + 2 + header.length + 1; // + the closing newline
  header += ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const start = MAGIC.length + 4 + header.length;
  const { data } = tensor;
  const out = new Uint8Array(start + data.byteLength);
  out.set(MAGIC);
  out[6] = 1; // version 1.0
  out[7] = 0;
  out[8] = header.length & 0xff;
  out[9] = header.length >> 8;
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), start);
  return out;
}

/**
 * Reads one .npy file: { shape, data } (Float32Array for '<f4', Float64Array for '<f8' and for integer
 * files). Refuses a file that is not .npy, a big-endian or Fortran-ordered one, another dtype, or one
 * whose data is shorter or longer than its shape says.
 */
export function readNpy(bytes, file = 'the .npy file') {
  const u8 = plainBytes(bytes);
  if (MAGIC.some((b, i) => i < u8.length && u8[i] !== b) || !u8.length) throw new Error(`${file} is not a .npy file (it does not start with \\x93NUMPY)`);
  if (u8.length < 10) throw new Error(`${file}: the .npy file is cut short (${u8.length} bytes; its header alone takes at least 10)`);
  const major = u8[6];
  if (major < 1 || major > 3) throw new Error(`${file}: .npy version ${major}.${u8[7]} is not one this reader knows (1, 2 or 3)`);
  const wide = major >= 2;
  if (wide && u8.length < 12) throw new Error(`${file}: the .npy file is cut short (${u8.length} bytes; a version ${major} header takes at least 12)`);
  const view = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
  const headerLength = wide ? view.getUint32(8, true) : view.getUint16(8, true); // unsigned: 2^31 and more stay positive
  if (headerLength > NPY_MAX_HEADER) throw new Error(`${file}: the .npy header declares ${headerLength} bytes; headers over ${NPY_MAX_HEADER} bytes are refused (NumPy's own limit)`);
  const headerStart = wide ? 12 : 10, start = headerStart + headerLength;
  if (start > u8.length) throw new Error(`${file}: the .npy header is cut short`);
  const { descr, fortran, shape } = parseNpyHeader(new TextDecoder().decode(u8.subarray(headerStart, start)), file);
  if (fortran) throw new Error(`${file}: Fortran-ordered arrays are not read; save with np.ascontiguousarray(x)`);
  const Type = DTYPES[descr] ?? INTEGERS[descr];
  if (!Type) throw new Error(`${file}: dtype ${descr} is not read; save float32 or float64 (x.astype(np.float32))`);
  const n = count(shape), bytesNeeded = n * Type.BYTES_PER_ELEMENT;
  if (u8.length - start !== bytesNeeded) throw new Error(`${file}: shape (${shape.join(', ')}) needs ${bytesNeeded} bytes of data, the file holds ${u8.length - start}`);
  const raw = new Type(u8.slice(start).buffer); // a copy: aligned, and not tied to the file's buffer
  if (DTYPES[descr]) return { shape, data: raw };
  return { shape, data: Float64Array.from(raw, Number) };
}

/** The bytes of a .npz (an uncompressed zip of .npy files, as np.savez writes) of { name: tensor }. */
export function writeNpz(tensors) {
  const files = {};
  for (const [name, tensor] of Object.entries(tensors)) files[`${name}.npy`] = writeNpy(tensor, name);
  return zipSync(files, { level: 0 });
}

/** The bound on one entry of a .npz read without a view's sizes (the import's own file bound). */
export const NPZ_ENTRY_LIMIT = 64 * 2 ** 20;

/**
 * Reads a .npz (np.savez or np.savez_compressed): { name: { shape, data } }, named by its files.
 * options: names (read only these tensors; the others are listed in `skipped`, never inflated),
 * limit and limitText (the largest entry read, in bytes, and what it is: the view's largest tensor).
 * Two entries of one name (a/query.npy and b/query.npy) are refused as ambiguous.
 */
export function readNpz(bytes, file = 'the .npz file', { names = null, limit = NPZ_ENTRY_LIMIT, limitText = 'the bound on one tensor of an import', skipped = [] } = {}) {
  const u8 = plainBytes(bytes);
  const entries = listZip(u8, file).filter((e) => e.name.endsWith('.npy'));
  const seen = new Map();
  for (const e of entries) {
    const name = e.name.replace(/^.*\//, '').slice(0, -4);
    if (seen.has(name)) throw new Error(`${file}: ${seen.get(name)} and ${e.name} both hold “${name}”: keep one`);
    seen.set(name, e.name);
  }
  if (!entries.length) throw new Error(`${file} holds no .npy files`);
  const out = {};
  for (const e of entries) {
    const name = e.name.replace(/^.*\//, '').slice(0, -4);
    if (names && !names.includes(name)) {
      skipped.push(name);
      continue;
    }
    out[name] = readNpy(readEntry(u8, file, e, limit, limitText), `${file}: ${e.name}`);
  }
  return out;
}
