// The zip reader of the .npz import, for files nobody vouches for: it reads the central directory
// itself (zip64 included) and refuses, before allocating or looping over anything large, a file that
// declares more entries than a .npz holds or an entry larger than the caller's limit (the view's largest
// tensor). Entries are inflated in small steps (fflate's streaming Inflate) and stopped as soon as they
// pass their declared size, and every entry read is checked against its CRC-32, as NumPy's zipfile does.
// Each refusal names the file, the entry and the limit.

import { Inflate } from 'fflate';

export const MAX_ENTRIES = 256;     // an exported bundle holds ~30; np.savez one per array
const STEP = 1024;                  // compressed bytes per inflation step: at most ~1 MiB out per step
const CENTRAL = 0x02014b50, LOCAL = 0x04034b50, END = 0x06054b50, END64 = 0x06064b50, LOCATOR64 = 0x07064b50;

let table = null;
/** CRC-32 (the zip's polynomial 0xEDB88320), table-driven. */
export function crc32(bytes) {
  if (!table) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let c = -1;
  for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

const hex = (n) => `0x${n.toString(16).padStart(8, '0')}`;

/** Little-endian reads that refuse to run past the file's end. */
function reader(u8, file) {
  const view = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
  const need = (at, n, what) => {
    if (!(at >= 0 && at + n <= u8.length)) throw new Error(`${file} is not a .npz (zip) file: its ${what} lies outside the file's ${u8.length} bytes`);
  };
  return {
    u16: (at, what) => (need(at, 2, what), view.getUint16(at, true)),
    u32: (at, what) => (need(at, 4, what), view.getUint32(at, true)),
    u64: (at, what) => (need(at, 8, what), view.getUint32(at, true) + view.getUint32(at + 4, true) * 2 ** 32),
    need,
  };
}

/** The end record (zip64 when present): { count, cdSize, cdOffset }. */
function endRecord(u8, file, r) {
  let e = u8.length - 22;
  const stop = Math.max(0, u8.length - 22 - 0xffff);
  while (e >= stop && !(u8[e] === 0x50 && u8[e + 1] === 0x4b && r.u32(e, 'end record') === END)) e--;
  if (e < stop) throw new Error(`${file} is not a .npz (zip) file: it has no zip end record`);
  let count = r.u16(e + 10, 'end record'), cdSize = r.u32(e + 12, 'end record'), cdOffset = r.u32(e + 16, 'end record');
  if (e >= 20 && r.u32(e - 20, 'zip64 locator') === LOCATOR64) {
    const at = r.u64(e - 12, 'zip64 locator');
    if (r.u32(at, 'zip64 end record') !== END64) throw new Error(`${file} is not a .npz (zip) file: its zip64 end record is missing`);
    count = r.u64(at + 32, 'zip64 end record');
    cdSize = r.u64(at + 40, 'zip64 end record');
    cdOffset = r.u64(at + 48, 'zip64 end record');
  }
  return { count, cdSize, cdOffset };
}

/** The zip64 extra field's sizes and offset, where the central header says 0xFFFFFFFF. */
function zip64Extra(r, at, length, entry) {
  const out = { ...entry };
  for (let p = at; p + 4 <= at + length; p += 4 + r.u16(p + 2, 'extra field')) {
    if (r.u16(p, 'extra field') !== 1) continue;
    let q = p + 4;
    for (const key of ['size', 'compressed', 'offset']) {
      if (entry[key] !== 0xffffffff) continue;
      out[key] = r.u64(q, 'zip64 extra field');
      q += 8;
    }
  }
  return out;
}

/**
 * The central directory: [{ name, method, crc, compressed, size, offset }]. Refuses more than
 * MAX_ENTRIES entries, or a count the directory has no room for, before reading any.
 */
export function listZip(u8, file) {
  const r = reader(u8, file);
  const { count, cdSize, cdOffset } = endRecord(u8, file, r);
  if (count > MAX_ENTRIES) throw new Error(`${file}: the zip directory declares ${count} entries; a .npz is read with at most ${MAX_ENTRIES}`);
  r.need(cdOffset, cdSize, 'central directory');
  if (count * 46 > cdSize) throw new Error(`${file} is not a .npz (zip) file: its directory of ${cdSize} bytes has no room for the ${count} entries it declares`);
  const entries = [];
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    r.need(at, 46, 'central directory');
    if (r.u32(at, 'central directory') !== CENTRAL) throw new Error(`${file} is not a .npz (zip) file: entry ${i + 1} of its directory is damaged`);
    const nameLength = r.u16(at + 28, 'central directory'), extra = r.u16(at + 30, 'central directory'), comment = r.u16(at + 32, 'central directory');
    r.need(at + 46, nameLength + extra, 'central directory');
    const name = new TextDecoder().decode(u8.subarray(at + 46, at + 46 + nameLength));
    const plain = { method: r.u16(at + 10), crc: r.u32(at + 16), compressed: r.u32(at + 20), size: r.u32(at + 24), offset: r.u32(at + 42) };
    entries.push({ name, ...zip64Extra(r, at + 46 + nameLength, extra, plain) });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

/** Inflates `packed` into exactly `size` bytes, stopping as soon as it passes them. */
function inflateBounded(packed, size, where) {
  const out = new Uint8Array(size);
  let filled = 0;
  const inflater = new Inflate((chunk) => {
    if (filled + chunk.length > size) throw new Error(`${where} inflates to more than the ${size} bytes it declares: the file is damaged or a zip bomb`);
    out.set(chunk, filled);
    filled += chunk.length;
  });
  for (let i = 0; i < packed.length; i += STEP) inflater.push(packed.subarray(i, i + STEP), i + STEP >= packed.length);
  if (!packed.length) inflater.push(packed, true);
  if (filled !== size) throw new Error(`${where} inflates to ${filled} bytes, not the ${size} it declares: the file is damaged`);
  return out;
}

/**
 * The bytes of one entry of listZip's: refused when it declares more than `limit` bytes (limitText says
 * what that limit is), inflated within its declared size, and checked against its CRC-32.
 */
export function readEntry(u8, file, entry, limit, limitText) {
  const where = `${file}: ${entry.name}`;
  if (entry.size > limit) throw new Error(`${where} declares ${entry.size} bytes; the limit is ${limit} bytes (${limitText})`);
  const r = reader(u8, file);
  r.need(entry.offset, 30, `${entry.name}'s header`);
  if (r.u32(entry.offset) !== LOCAL) throw new Error(`${where}: its local header is missing: the file is damaged`);
  const start = entry.offset + 30 + r.u16(entry.offset + 26) + r.u16(entry.offset + 28);
  r.need(start, entry.compressed, `${entry.name}'s data`);
  const packed = u8.subarray(start, start + entry.compressed);
  let bytes;
  if (entry.method === 0) {
    if (entry.compressed !== entry.size) throw new Error(`${where} is stored with ${entry.compressed} bytes but declares ${entry.size}: the file is damaged`);
    bytes = packed.slice();
  } else if (entry.method === 8) {
    try {
      bytes = inflateBounded(packed, entry.size, where);
    } catch (err) {
      throw err.message.startsWith(where) ? err : new Error(`${where} cannot be inflated (${err.message}): the file is damaged`);
    }
  } else {
    throw new Error(`${where} uses zip compression method ${entry.method}; a .npz is stored or deflated (0 or 8)`);
  }
  const crc = crc32(bytes);
  if (crc !== entry.crc) throw new Error(`${where} fails its CRC-32 check (the zip says ${hex(entry.crc)}, the data gives ${hex(crc)}): the file is damaged`);
  return bytes;
}
