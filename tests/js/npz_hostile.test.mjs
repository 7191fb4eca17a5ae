// Hostile .npz files against the importer's zip reader (web/src/import/zip.js through export/npy.js and
// import/files.js): a flipped bit (the zip's CRC-32), a zip64 end record declaring 4,294,967,295
// entries, 65,535 entries of 1 GiB, 50 of 4 GiB, zip bombs (declared sizes beyond the view, and sizes
// that lie), and two folders holding the same tensor name. Each is refused quickly, before any large
// allocation, with a message naming the file, the entry and the limit (issue 35, items 2, 5, 6, 15).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { inflateSync } from 'fflate';
import { writeNpy, writeNpz, readNpz } from '../../web/src/export/npy.js';
import * as files from '../../web/src/import/files.js';
import { craftZip } from './zip_craft.mjs';
import { loadAttention } from '../../web/src/engine/attention.js';

const { readImportFile } = files;
const importLimits = files.importLimits ?? (() => undefined); // (absent before issue 35: the tests then show how the old reader fails)
// The view's sizes with the core's shape of each tensor (resolveView's tensors), as validate gives them.
const attn = await loadAttention({});
const sizes = { batch: 1, n_q: 8, n_k: 8, d_model: 16, n_heads: 4, n_kv_heads: 4, d_k: 4, d_v: 4 };
const config = { ...sizes, bias: false, cross: false, tensors: attn.resolveView(sizes).dims.tensors };
const query = { shape: [1, 8, 16], data: Float32Array.from({ length: 128 }, (_, i) => Math.sin(i) * 0.78) };

/**
 * Runs f, which must throw within `ms` milliseconds a message matching every pattern. The bounds are
 * generous (the machine may be shared): the old reader took 0.7–1.5 s on these files, and a refusal
 * before inflating takes ~1 ms.
 */
function refusedQuickly(f, patterns, ms, what, tries = 3) {
  let took = Infinity;
  for (let i = 0; i < tries; i++) { // the fastest of the tries: a collection of the test's own 65 MiB arrays, or the host's other work, can land in one
    const t0 = performance.now();
    let message = null;
    try {
      f();
    } catch (err) {
      message = err.message;
    }
    const once = performance.now() - t0;
    assert.ok(message !== null, `${what}: accepted (took ${once.toFixed(0)} ms)`);
    for (const p of patterns) assert.match(message, p, `${what}: the message “${message}” misses ${p}`);
    took = Math.min(took, once);
  }
  assert.ok(took < ms, `${what}: refused after ${took.toFixed(0)} ms, more than ${ms} ms`);
}

test('a .npz whose data has one flipped bit is refused by its CRC-32, naming file and entry', () => {
  const good = writeNpz({ query });
  assert.equal(readNpz(good, 'q.npz').query.data[5], query.data[5], 'the untouched file reads');
  const bad = good.slice();
  const at = bad.length - 200; // inside query.npy's data (the central directory and end record are ~100 bytes)
  bad[at] ^= 0x01;
  refusedQuickly(() => readNpz(bad, 'q.npz'), [/q\.npz/, /query\.npy/, /CRC-32/], 250, 'flipped bit');
  refusedQuickly(() => readImportFile('q.npz', bad, importLimits(config)), [/q\.npz: query\.npy/, /CRC-32/], 250, 'flipped bit, imported');
  // the CRC of a deflated entry too (np.savez_compressed)
  const npy = writeNpy(query);
  const wrong = craftZip([{ name: 'query.npy', data: npy, deflate: true, crc: 0x12345678 }]);
  refusedQuickly(() => readNpz(wrong, 'c.npz'), [/c\.npz: query\.npy/, /CRC-32/, /0x12345678/], 250, 'deflated, wrong CRC');
  assert.equal(readNpz(craftZip([{ name: 'query.npy', data: npy, deflate: true }]), 'c.npz').query.data[7], query.data[7], 'a right CRC reads');
});

test('zip64 and huge declared counts and sizes are refused before any large allocation or loop', () => {
  const npy = writeNpy(query);
  // 2.4 KB declaring 4,294,967,295 entries in a zip64 end record
  const many = craftZip([{ name: 'query.npy', data: npy }], { count: 0xffffffff, zip64: true });
  refusedQuickly(() => readNpz(many, 'many.npz'), [/many\.npz/, /4294967295 entries/, /at most \d+/], 250, 'zip64 count');
  // 65,535 entries each declaring 1 GiB (all pointing at small stored data)
  const entries = Array.from({ length: 65535 }, (_, i) => ({ name: `e${i}.npy`, data: new Uint8Array(4), size: 2 ** 30, deflate: false }));
  const wide = craftZip(entries);
  refusedQuickly(() => readNpz(wide, 'wide.npz'), [/wide\.npz/, /65535 entries/, /at most \d+/], 250, '65,535 entries');
  // 50 entries each declaring 4 GiB uncompressed (deflated): the first is refused by its size
  const huge = craftZip(Array.from({ length: 50 }, (_, i) => ({ name: `${i ? `x${i}` : 'query'}.npy`, data: new Uint8Array(8), deflate: true, size: 0xffffffff })));
  refusedQuickly(() => readNpz(huge, 'huge.npz'), [/huge\.npz: query\.npy/, /4294967295 bytes/, /limit/], 250, '50 × 4 GiB');
});

test('zip bombs: declared sizes beyond the view are refused before inflating; sizes that lie stop the inflation', () => {
  const limits = importLimits(config);
  // a real bomb: 65 MiB of one value deflated to ~65 KB, named query.npy, with its true size declared
  const raw = new Uint8Array(65 * 2 ** 20);
  const packed = new Uint8Array(deflateRawSync(raw));
  const bomb = craftZip([{ name: 'query.npy', data: raw, compressedData: packed }]);
  refusedQuickly(() => readImportFile('bomb.npz', bomb, limits), [/bomb\.npz: query\.npy/, /68157440 bytes/, /limit .*\d+ bytes/], 250, 'declared bomb');
  // the same bomb declaring 4 KB (and any CRC): inflation stops past the declared size, not at the end,
  // so it takes a small part of inflating the whole (measured here, on the same machine, after a warm-up)
  const liar = craftZip([{ name: 'query.npy', data: raw, compressedData: packed, size: 4096 }]);
  // The warm-up: a 4 MiB bomb of the same zeros runs the same inflation loops hot (the whole 65 MiB once more
  // was ~0.6 CPU-s; the fastest of the three timed inflations below is the reference either way).
  assert.equal(inflateSync(deflateRawSync(raw.subarray(0, 4 * 2 ** 20))).length, 4 * 2 ** 20);
  let whole = Infinity; // the fastest of three whole inflations, against the fastest of three refusals: a shared machine's pauses cancel out
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    assert.equal(inflateSync(packed).length, raw.length);
    whole = Math.min(whole, performance.now() - t0);
  }
  refusedQuickly(() => readImportFile('liar.npz', liar, limits), [/liar\.npz: query\.npy/, /more than the 4096 bytes it declares/], whole / 4, `lying bomb (inflating it all: ${whole.toFixed(0)} ms)`, 3);
  // without a view the reader's own bound applies
  refusedQuickly(() => readNpz(bomb, 'bomb.npz'), [/bomb\.npz: query\.npy/, /limit/], 250, 'bomb, no view');
  // entries the view does not take are skipped by name, never inflated
  const skipped = craftZip([{ name: 'query.npy', data: writeNpy(query) }, { name: 'output.npy', data: raw, compressedData: packed }]);
  let read = Infinity; // the fastest of three reads, as above
  for (let i = 0; i < 3; i++) {
    const t1 = performance.now();
    const r = readImportFile('run.npz', skipped, limits);
    read = Math.min(read, performance.now() - t1);
    assert.deepEqual([Object.keys(r.tensors), r.skipped], [['query'], ['output']]);
  }
  assert.ok(read < whole / 4, `the skipped entry was not inflated (read in ${read.toFixed(1)} ms, inflating it ${whole.toFixed(0)} ms)`);
});

test('zip64 extra fields (as np.savez writes with force_zip64) read, from a Node Buffer with an offset too', () => {
  const npy = writeNpy(query);
  for (const deflate of [false, true]) {
    const zip = craftZip([{ name: 'query.npy', data: npy, deflate, zip64: true }, { name: 'wq.npy', data: writeNpy({ shape: [2], data: Float32Array.from([1, 2]) }), deflate, zip64: true }]);
    const inBuffer = Buffer.concat([Buffer.alloc(13), Buffer.from(zip)]).subarray(13); // a view at an offset of a larger buffer
    for (const bytes of [zip, inBuffer]) {
      const r = readNpz(bytes, 'z.npz');
      assert.deepEqual(Array.from(r.query.data), Array.from(query.data), `deflate ${deflate}, ${bytes.constructor.name}`);
      assert.deepEqual(Array.from(r.wq.data), [1, 2]);
    }
  }
});

test('a/query.npy and b/query.npy in one .npz are refused as ambiguous; a name given twice too', () => {
  const npy = writeNpy(query);
  const two = craftZip([{ name: 'a/query.npy', data: npy }, { name: 'b/query.npy', data: npy }]);
  assert.throws(() => readNpz(two, 'two.npz'), /two\.npz: a\/query\.npy and b\/query\.npy both hold “query”/);
  assert.throws(() => readImportFile('two.npz', two, importLimits(config)), /both hold “query”/);
  const twice = craftZip([{ name: 'query.npy', data: npy }, { name: 'query.npy', data: npy }]);
  assert.throws(() => readNpz(twice, 'twice.npz'), /twice\.npz: query\.npy and query\.npy both hold “query”/);
});
