// Zip files made byte by byte for the importer's hostile cases (tests/js/npz_hostile.test.mjs): each
// entry's method, CRC-32 and declared sizes can be set to lie, and the end record can be a zip64 one
// declaring any count. Written from the zip format (local headers, a central directory, the end record),
// not with the reader under test; the CRC-32 is Node's own (zlib.crc32).
import { crc32 } from 'node:zlib';
import { deflateRawSync } from 'node:zlib';

const u16 = (v) => [v & 0xff, (v >>> 8) & 0xff];
const u32 = (v) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];
const u64 = (v) => [...u32(v % 2 ** 32), ...u32(Math.floor(v / 2 ** 32))];

/**
 * entries: [{ name, data: Uint8Array, deflate?: bool, crc?, size?, compressedData? }] (crc and size
 * override the true ones; compressedData replaces the deflated bytes). options: { count, zip64 } make
 * the end record declare `count` entries (zip64: in a zip64 end record, as 0xFFFFFFFF can only be there).
 * An entry's zip64: true writes its sizes and offset in a zip64 extra field (the central header says
 * 0xFFFFFFFF), as Python's zipfile does with force_zip64 (np.savez).
 */
export function craftZip(entries, { count = entries.length, zip64 = false } = {}) {
  const parts = [], central = [];
  let offset = 0;
  for (const e of entries) {
    const name = new TextEncoder().encode(e.name);
    const body = e.compressedData ?? (e.deflate ? new Uint8Array(deflateRawSync(e.data)) : e.data);
    const crc = e.crc ?? crc32(e.data);
    const size = e.size ?? e.data.length;
    const method = e.deflate || e.compressedData ? 8 : 0;
    const local = [...u32(0x04034b50), ...u16(20), ...u16(0), ...u16(method), ...u16(0), ...u16(0), ...u32(crc), ...u32(body.length), ...u32(Math.min(size, 0xffffffff)), ...u16(name.length), ...u16(0)];
    parts.push(Uint8Array.from(local), name, body);
    const extra = e.zip64 ? [...u16(1), ...u16(24), ...u64(size), ...u64(body.length), ...u64(offset)] : [];
    const big = (v) => (e.zip64 ? 0xffffffff : Math.min(v, 0xffffffff));
    central.push(Uint8Array.from([...u32(0x02014b50), ...u16(45), ...u16(45), ...u16(0), ...u16(method), ...u16(0), ...u16(0), ...u32(crc),
      ...u32(big(body.length)), ...u32(big(size)), ...u16(name.length), ...u16(extra.length), ...u16(0), ...u16(0), ...u16(0), ...u32(0), ...u32(big(offset))]), name, Uint8Array.from(extra));
    offset += local.length + name.length + body.length;
  }
  const cdSize = central.reduce((a, p) => a + p.length, 0);
  const tail = [];
  if (zip64) {
    const at = offset + cdSize;
    tail.push(...u32(0x06064b50), ...u64(44), ...u16(45), ...u16(45), ...u32(0), ...u32(0), ...u64(count), ...u64(count), ...u64(cdSize), ...u64(offset));
    tail.push(...u32(0x07064b50), ...u32(0), ...u64(at), ...u32(1));
  }
  tail.push(...u32(0x06054b50), ...u16(0), ...u16(0), ...u16(Math.min(count, 0xffff)), ...u16(Math.min(count, 0xffff)), ...u32(cdSize), ...u32(zip64 ? 0xffffffff : offset), ...u16(0));
  const all = [...parts, ...central, Uint8Array.from(tail)];
  const out = new Uint8Array(all.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
