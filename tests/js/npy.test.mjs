// The .npy/.npz writer and reader of the export and the import (web/src/export/npy.js): round trips of
// float32 and float64 tensors of edge shapes (a scalar, an empty axis, one element, 3-D and 4-D), the
// header layout NumPy requires (magic, version, data aligned to 64 bytes, a dict numpy can parse), files
// as NumPy writes them (version 2, int32 and int64, compressed .npz), and refusals that name the problem.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { zipSync } from 'fflate';
import { writeNpy, readNpy, writeNpz, readNpz } from '../../web/src/export/npy.js';

const header = (bytes) => new TextDecoder().decode(bytes.subarray(10, 10 + (bytes[8] | (bytes[9] << 8))));

/** A .npy file written by hand as NumPy would: any version, dtype and header. */
function handmade(dict, data, { major = 1 } = {}) {
  let text = dict;
  const pre = major >= 2 ? 12 : 10;
  text += ' '.repeat((64 - ((pre + text.length + 1) % 64)) % 64) + '\n';
  const out = new Uint8Array(pre + text.length + data.byteLength);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, major, 0]);
  new DataView(out.buffer).setUint16(8, major >= 2 ? text.length & 0xffff : text.length, true);
  if (major >= 2) new DataView(out.buffer).setUint32(8, text.length, true);
  for (let i = 0; i < text.length; i++) out[pre + i] = text.charCodeAt(i);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), pre + text.length);
  return out;
}

test('float32 and float64 tensors of edge shapes round-trip exactly, with NumPy\'s header layout', () => {
  const cases = [
    { shape: [], data: new Float64Array([Math.PI]) },
    { shape: [0], data: new Float32Array(0) },
    { shape: [3, 0, 2], data: new Float64Array(0) },
    { shape: [1], data: new Float32Array([-0]) },
    { shape: [2, 3], data: Float32Array.from([1, -2, 3.5, 1e-30, 3e38, -7]) },
    { shape: [2, 2, 2, 3], data: Float64Array.from({ length: 24 }, (_, i) => Math.sin(i) * 1e10) },
  ];
  for (const t of cases) {
    const bytes = writeNpy(t);
    const start = 10 + (bytes[8] | (bytes[9] << 8));
    assert.equal(start % 64, 0, `the data of shape [${t.shape}] starts on a multiple of 64 (${start})`);
    assert.equal(bytes.length, start + t.data.byteLength);
    assert.ok(header(bytes).endsWith('\n'));
    const shapeText = t.shape.length === 1 ? `(${t.shape[0]},)` : `(${t.shape.join(', ')})`;
    assert.match(header(bytes), new RegExp(`'descr': '<f${t.data.BYTES_PER_ELEMENT}', 'fortran_order': False, 'shape': ${shapeText.replace(/[()]/g, '\\$&')}`));
    const back = readNpy(bytes);
    assert.deepEqual(back.shape, t.shape);
    assert.equal(back.data.constructor, t.data.constructor);
    assert.deepEqual(Array.from(back.data), Array.from(t.data));
    assert.ok(Object.is(readNpy(writeNpy({ shape: [1], data: new Float32Array([-0]) })).data[0], -0), 'the sign of zero is kept');
  }
  // a subarray is written from its own bytes, not its buffer's start
  const whole = Float32Array.from([9, 8, 7, 6]);
  assert.deepEqual(Array.from(readNpy(writeNpy({ shape: [2], data: whole.subarray(2) })).data), [7, 6]);
});

test('a .npz holds every tensor by name; NumPy\'s own files (version 2, integers, compressed zip) are read', () => {
  const tensors = { query: { shape: [1, 2, 2], data: Float32Array.from([1, 2, 3, 4]) }, bo: { shape: [2], data: Float64Array.from([0.5, -0.5]) } };
  const back = readNpz(writeNpz(tensors));
  assert.deepEqual(Object.keys(back).sort(), ['bo', 'query']);
  assert.deepEqual(Array.from(back.query.data), [1, 2, 3, 4]);
  assert.deepEqual(back.bo.shape, [2]);
  const v2 = handmade("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", Float32Array.from([1.5, 2.5]), { major: 2 });
  assert.deepEqual(Array.from(readNpy(v2).data), [1.5, 2.5]);
  const ints = handmade("{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", BigInt64Array.from([1n, -2n, 3n]));
  assert.deepEqual(readNpy(ints), { shape: [3], data: Float64Array.from([1, -2, 3]) });
  const compressed = zipSync({ 'attention.npy': writeNpy({ shape: [1, 1], data: new Float32Array([1]) }), 'README': new Uint8Array(3) }, { level: 9 });
  assert.deepEqual(Object.keys(readNpz(compressed)), ['attention'], 'files that are not .npy are skipped');
});

test('bad files are refused with a message naming the file and the problem', () => {
  const good = writeNpy({ shape: [2, 2], data: new Float32Array(4) });
  const refusals = [
    [new Uint8Array([1, 2, 3]), /x\.npy is not a \.npy file/],
    [new TextEncoder().encode('query,key\n1,2\n'), /not a \.npy file/],
    [good.subarray(0, good.length - 4), /needs 16 bytes of data, the file holds 12/],
    [Uint8Array.from([...good, 0, 0, 0, 0]), /needs 16 bytes of data, the file holds 20/],
    [handmade("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", new Float32Array(1)), /dtype >f4 is not read/],
    [handmade("{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }", new Float64Array(2)), /dtype <c16 is not read/],
    [handmade("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", new Float32Array(4)), /Fortran-ordered/],
    [handmade("{'descr': '<f4', 'shape': (2, 2), }", new Float32Array(4)), /header has no descr, fortran_order or shape/],
    [handmade("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1), }", new Float32Array(4)), /is not a list of whole numbers/],
    [Uint8Array.from([...good.subarray(0, 6), 9, 0, ...good.subarray(8)]), /version 9\.0/],
  ];
  for (const [bytes, pattern] of refusals) assert.throws(() => readNpy(bytes, 'x.npy'), pattern);
  assert.throws(() => readNpz(new Uint8Array([1, 2, 3, 4]), 'a.npz'), /a\.npz is not a \.npz \(zip\) file/);
  assert.throws(() => readNpz(zipSync({ 'a.txt': new Uint8Array(1) }), 'b.npz'), /b\.npz holds no \.npy files/);
  assert.throws(() => readNpz(zipSync({ 'w.npy': new Uint8Array(4) }), 'c.npz'), /c\.npz: w\.npy is not a \.npy file/);
  // the writer refuses what it cannot write
  assert.throws(() => writeNpy({ shape: [3], data: new Float32Array(2) }, 'wq'), /wq: shape \[3\] holds 3 numbers, the data 2/);
  assert.throws(() => writeNpy({ shape: [2], data: [1, 2] }, 'bo'), /bo: the data must be a Float32Array or a Float64Array, got Array/);
  assert.throws(() => writeNpy({ shape: [1.5], data: new Float32Array(1) }, 'q'), /q: the shape must be a list of whole numbers/);
});

test('issue 35: a truncated .npy is called truncated; a v2/v3 header length of 2^31 or more is read unsigned and refused', () => {
  const good = writeNpy({ shape: [2, 2], data: new Float32Array(4) });
  assert.throws(() => readNpy(good.subarray(0, 7), 'cut.npy'), /cut\.npy: the \.npy file is cut short \(7 bytes/, 'seven bytes that start as a .npy');
  assert.throws(() => readNpy(good.subarray(0, 4), 'cut.npy'), /cut\.npy: the \.npy file is cut short \(4 bytes/);
  assert.throws(() => readNpy(new Uint8Array([1, 2, 3, 4, 5, 6, 7]), 'x.npy'), /x\.npy is not a \.npy file/, 'seven bytes of something else');
  for (const major of [2, 3]) {
    for (const length of [2 ** 31, 2 ** 32 - 1, 10001]) {
      const v = handmade("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", new Float32Array(2), { major });
      new DataView(v.buffer).setUint32(8, length, true);
      assert.throws(() => readNpy(v, 'big.npy'), new RegExp(`big\\.npy: the \\.npy header declares ${length} bytes; headers over 10000 bytes are refused`), `v${major} header length ${length}`);
    }
  }
});

test('issue 35: the header is read as NumPy reads it: whole-number shapes only, each key once, nothing else', () => {
  const data = new Float32Array(8);
  const refusals = [
    ["{'descr': '<f4', 'fortran_order': False, 'shape': (1e0, 8.0, 0x40), }", /x\.npy: the \.npy shape \(1e0, 8\.0, 0x40\) is not a list of whole numbers/],
    ["{'descr': '<f4', 'fortran_order': False, 'shape': (8.0,), }", /shape \(8\.0,\) is not a list of whole numbers/],
    ["{'descr': '<f4', 'descr': '<f8', 'fortran_order': False, 'shape': (8,), }", /x\.npy: the \.npy header gives descr twice/],
    ["{'descr': '<f4', 'fortran_order': False, 'shape': (8,), 'shape': (2, 4), }", /header gives shape twice/],
    ["{'descr': '<f4', 'fortran_order': False, 'shape': (8,), 'extra': 1, }", /header has a key 'extra'/],
    ["{'descr': '<f4', 'fortran_order': False, 'shape': (8), }", /shape \(8\) is not a tuple/],
    ["{'descr': '<f4', 'fortran_order': 0, 'shape': (8,), }", /fortran_order must be True or False/],
    ["{'descr': '<f4', 'fortran_order': False, 'shape': (8,) ", /header is not a Python dict/],
  ];
  for (const [dict, pattern] of refusals) assert.throws(() => readNpy(handmade(dict, data), 'x.npy'), pattern, dict);
  // NumPy's own spellings still read: double quotes, no trailing comma, extra spaces, the shape first
  for (const dict of ['{"descr": "<f4", "fortran_order": False, "shape": (8,)}', "{ 'shape' : ( 2 , 4 ) , 'fortran_order' : False , 'descr' : '<f4' }"]) {
    assert.equal(readNpy(handmade(dict, data), 'x.npy').data.length, 8, dict);
  }
});
