// attn.resolveView, the one call the page's validation asks, in both modules: the resolved
// dims and each query head's key/value head against the lesson's rules written out here
// independently, and every bad field (0, negative, fractional, NaN, huge, absent, not a
// number, n_kv_heads above or not dividing n_heads, padding) named with the engine's limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';

const MAX_DIM = 1048576; // the engine's largest size of any one dimension (kMaxDim)

/** The lesson's rules, independent of the engine: the dims, or null when a rule is broken. */
function lessonDims({ d_model, n_heads, n_kv_heads = n_heads, d_k, d_v, n_q, n_k = n_q, batch = 1, mask = 'none' }) {
  const whole = (x) => Number.isInteger(x) && x >= 1 && x <= MAX_DIM;
  if (![d_model, n_heads, n_kv_heads, n_q, n_k, batch].every(whole)) return null;
  if ([d_k, d_v].some((x) => x !== undefined && !whole(x))) return null;
  if (mask !== 'none' && mask !== 'causal') {
    if (typeof mask !== 'object' || !mask) return null;
    const lengths = mask.padding;
    // Padding: one key length per batch item, each a whole number from 0 to n_k.
    if (lengths && (lengths.length !== batch || !lengths.every((x) => Number.isInteger(x) && x >= 0 && x <= n_k))) return null;
  }
  if ((d_k === undefined || d_v === undefined) && d_model % n_heads !== 0) return null;
  if (n_kv_heads > n_heads || n_heads % n_kv_heads !== 0) return null;
  const dk = d_k ?? d_model / n_heads, dv = d_v ?? d_model / n_heads;
  const group = n_heads / n_kv_heads;
  return { d_model, n_heads, n_kv_heads, d_k: dk, d_v: dv, n_q, n_k, batch,
    kv_head_of: Array.from({ length: n_heads }, (_, h) => Math.floor(h / group)),
    tensors: lessonShapes({ d_model, n_heads, n_kv_heads, d_k: dk, d_v: dv, n_q, n_k, batch }) };
}

/** Each tensor's shape as the lesson writes it (y = x·W + b with W [in, out]; heads split as [batch, heads, n, d]). */
function lessonShapes({ d_model: D, n_heads: H, n_kv_heads: G, d_k, d_v, n_q, n_k, batch: B }) {
  return {
    query: [B, n_q, D], key: [B, n_k, D], value: [B, n_k, D],
    wq: [D, H * d_k], wk: [D, G * d_k], wv: [D, G * d_v], wo: [H * d_v, D], bq: [H * d_k], bk: [G * d_k], bv: [G * d_v], bo: [D],
    q: [B, H, n_q, d_k], k: [B, G, n_k, d_k], v: [B, G, n_k, d_v], attention: [B, H, n_q, n_k], head_outputs: [B, H, n_q, d_v],
    output: [B, n_q, D],
  };
}

for (const [isa, attn] of Object.entries(modules)) {
  test(`${isa}: resolveView gives the lesson's dims and kv_head_of for every valid head layout`, () => {
    let checked = 0;
    for (const d_model of [12, 64, 96, 768]) {
      for (let n_heads = 1; n_heads <= 24; n_heads++) {
        for (const n_kv_heads of [undefined, 1, 2, 3, 4, 6, 8, 12, 24]) {
          const view = { d_model, n_heads, n_kv_heads, n_q: 5, n_k: 7, batch: 2 };
          const want = lessonDims(view);
          const got = attn.resolveView(view);
          const what = JSON.stringify(view);
          assert.equal(got.ok, want !== null, `${what}: ${got.message}`);
          if (want) {
            assert.deepEqual(got.dims, want, what);
            checked++;
          }
        }
      }
    }
    assert.ok(checked > 100, `${checked} valid layouts`);
    // Given head sizes need no divisibility; n_k defaults to n_q and batch to 1.
    assert.deepEqual(attn.resolveView({ d_model: 10, n_heads: 3, d_k: 5, d_v: 2, n_q: 4 }).dims,
      { d_model: 10, n_heads: 3, n_kv_heads: 3, d_k: 5, d_v: 2, n_q: 4, n_k: 4, batch: 1, kv_head_of: [0, 1, 2],
        tensors: { query: [1, 4, 10], key: [1, 4, 10], value: [1, 4, 10], wq: [10, 15], wk: [10, 15], wv: [10, 6], wo: [6, 10],
          bq: [15], bk: [15], bv: [6], bo: [10], q: [1, 3, 4, 5], k: [1, 3, 4, 5], v: [1, 3, 4, 2], attention: [1, 3, 4, 4],
          head_outputs: [1, 3, 4, 2], output: [1, 4, 10] } });

    // LLaMA-70B's layout: 64 query heads, 8 key/value heads, 8 consecutive query heads each.
    const llama = attn.resolveView({ d_model: 8192, n_heads: 64, n_kv_heads: 8, n_q: 1 }).dims;
    assert.deepEqual(llama.kv_head_of.slice(6, 10), [0, 0, 1, 1]);
    assert.equal(llama.kv_head_of[63], 7);
    assert.deepEqual([llama.tensors.wq, llama.tensors.wk, llama.tensors.k], [[8192, 8192], [8192, 1024], [1, 8, 1, 128]], 'LLaMA-70B\'s shared keys');
  });

  test(`${isa}: resolveView names the bad field and the engine's limit`, () => {
    const base = { d_model: 64, n_heads: 8, n_q: 5, n_k: 7, batch: 2 };
    const cases = [
      [{ d_model: 0 }, 'd_model', /^d_model must be a positive integer \(got 0\)/],
      [{ d_model: -64 }, 'd_model', /^d_model must be a positive integer \(got -64\)/],
      [{ d_model: 64.5 }, 'd_model', /^d_model must be a whole number \(got 64\.5\)/],
      [{ d_model: NaN }, 'd_model', /^d_model must be a whole number \(got nan\)/],
      [{ d_model: Infinity }, 'd_model', /^d_model must be a whole number/],
      [{ d_model: 2 ** 40 }, 'd_model', /^d_model \(1,099,511,627,776\) is larger than the 1,048,576 this engine accepts/],
      [{ d_model: '64' }, 'd_model', /^d_model must be a number, got "64" \(a string\)/],
      [{ d_model: undefined }, 'd_model', /^d_model is required/],
      [{ n_heads: 0 }, 'n_heads', /^n_heads must be a positive integer \(got 0\)/],
      [{ n_heads: 3 }, 'n_heads', /^d_model \(64\) is not divisible by n_heads \(3\).*Try n_heads = 2 or 4/],
      [{ d_model: 4, n_heads: 8 }, 'n_heads', /^n_heads \(8\) is larger than d_model \(4\)/],
      [{ n_kv_heads: 16 }, 'n_kv_heads', /^n_kv_heads \(16\) is larger than n_heads \(8\)/],
      [{ n_kv_heads: 3 }, 'n_kv_heads', /^n_heads \(8\) is not divisible by n_kv_heads \(3\).*choose one of 1, 2, 4, 8/],
      [{ n_kv_heads: 0 }, 'n_kv_heads', /^n_kv_heads must be at least 1 \(got 0\)/],
      [{ n_kv_heads: -2 }, 'n_kv_heads', /^n_kv_heads must be at least 1 \(got -2\)/],
      [{ n_kv_heads: 1.5 }, 'n_kv_heads', /^n_kv_heads must be a whole number \(got 1\.5\)/],
      [{ n_kv_heads: 2 ** 33 }, 'n_kv_heads', /^n_kv_heads \(8,589,934,592\) is larger than the 1,048,576/],
      [{ n_kv_heads: null }, 'n_kv_heads', /^n_kv_heads must be a number, got null/],
      [{ d_k: 0 }, 'd_k', /^d_k must be a positive integer \(got 0\)/],
      [{ d_v: 2.5 }, 'd_v', /^d_v must be a whole number \(got 2\.5\)/],
      [{ batch: 0 }, 'batch', /^batch must be a positive integer \(got 0\)/],
      [{ n_q: undefined }, 'n_q', /^n_q is required/],
      [{ n_q: MAX_DIM + 1 }, 'n_q', /^n_q \(1,048,577\) is larger than the 1,048,576 this engine accepts/],
      [{ n_k: -1 }, 'n_k', /^n_k must be a positive integer \(got -1\)/],
      [{ mask: { padding: [7, 8] } }, 'mask', /key length of batch item 1 is 8, outside 0\.\.7 \(n_k\)/],
      [{ mask: { padding: [7] } }, 'mask', /padding mask has 1 key lengths but batch is 2/],
      [{ mask: { padding: [7, -1] } }, 'mask', /key length of batch item 1 is -1/],
      [{ mask: { padding: [7, 0.5] } }, 'mask', /mask\.padding\[1\] must be a whole number/],
      [{ mask: 'sideways' }, 'mask', /mask must be 'none', 'causal' or/],
    ];
    for (const [change, field, message] of cases) {
      const view = { ...base, ...change };
      for (const key of Object.keys(change)) if (change[key] === undefined) delete view[key];
      const got = attn.resolveView(view);
      const what = `${JSON.stringify(change)} (${String(change[Object.keys(change)[0]])})`;
      assert.equal(got.ok, false, what);
      assert.equal(got.field, field, `${what}: ${got.message}`);
      assert.match(got.message, message, what);
      assert.ok(got.message.includes(field === 'mask' ? 'padding' : field), `${what}: the message names the field`);
      assert.equal(lessonDims(view), null, `${what}: the independent rules refuse it too`);
    }
    // Padding that fits, and causal: ok.
    assert.equal(attn.resolveView({ ...base, mask: { causal: true, padding: [7, 0] } }).ok, true);
    assert.equal(attn.resolveView({ ...base, mask: 'causal' }).ok, true);
    assert.throws(() => attn.resolveView({ ...base, kv_heads: 2 }), /resolveView: unknown option 'kv_heads'/);
  });

  test(`${isa}: maskGrid and randomNormal, the page's mask cells and random inputs`, () => {
    // A cell is masked only when every weight in it is: the rule written out here.
    const lengths = [6, 2];
    for (const causal of [false, true]) {
      for (const [rs, cs] of [[1, 1], [2, 3], [4, 4]]) {
        const grid = attn.maskGrid({ mask: { causal, padding: lengths }, batch: 2, item: 1, n_q: 7, n_k: 6, row_step: rs, col_step: cs });
        const rows = Math.ceil(7 / rs), cols = Math.ceil(6 / cs);
        assert.equal(grid.length, rows * cols);
        for (let r = 0; r < rows; r++) {
          for (let c = 0; c < cols; c++) {
            let all = true;
            for (let i = r * rs; i < Math.min(7, (r + 1) * rs); i++) {
              for (let j = c * cs; j < Math.min(6, (c + 1) * cs); j++) all &&= (causal && j > i) || j >= lengths[1];
            }
            assert.equal(grid[r * cols + c], all ? 1 : 0, `causal ${causal}, steps ${rs}×${cs}, cell ${r},${c}`);
          }
        }
      }
    }
    assert.ok(attn.maskGrid({ mask: 'none', n_q: 3, n_k: 3 }).every((x) => x === 0));
    assert.throws(() => attn.maskGrid({ mask: 'causal', n_q: 3, n_k: 3, item: 1 }), /item 1 is out of range 0…0 \(batch = 1\)/);
    // Random inputs: the former page generator's numbers (see test_heads.cpp), different per seed, N(0, 1).
    assert.deepEqual(Array.from(attn.randomNormal({ seed: 7, count: 5 })),
      [-1.43342400, 2.45445919, 1.07078469, 1.09131765, 0.209967926].map(Math.fround));
    assert.notDeepEqual(attn.randomNormal({ seed: 2 ** 32 + 7, count: 5 }), attn.randomNormal({ seed: 7, count: 5 }));
    const sample = attn.randomNormal({ seed: 9, count: 20000 });
    const mean = sample.reduce((a, b) => a + b, 0) / sample.length;
    const variance = sample.reduce((a, b) => a + (b - mean) ** 2, 0) / sample.length;
    assert.ok(Math.abs(mean) < 0.03 && Math.abs(variance - 1) < 0.05, `N(0, 1): mean ${mean}, variance ${variance}`);
    assert.throws(() => attn.randomNormal({ seed: -1, count: 3 }), /seed must be a whole number from 0 to 2\^53/);
    // A shape instead of a count: as many numbers as the tensor holds, the same stream.
    assert.deepEqual(attn.randomNormal({ seed: 7, shape: [3, 4] }), attn.randomNormal({ seed: 7, count: 12 }));
    assert.equal(attn.randomNormal({ seed: 7, shape: [2, 0, 5] }).length, 0);
    assert.throws(() => attn.randomNormal({ seed: 7, shape: [3, 4], count: 12 }), /randomNormal: give count or shape \(one of them\)/);
    assert.throws(() => attn.randomNormal({ seed: 7 }), /randomNormal: give count or shape \(one of them\)/);
    assert.throws(() => attn.randomNormal({ seed: 7, shape: [3, 1.5] }), /shape\[1\] must be a whole number, got 1.5/);
    assert.throws(() => attn.randomNormal({ seed: 7, shape: 12 }), /shape must be an array of whole numbers, got/);
    assert.throws(() => attn.randomNormal({ seed: 7, shape: [65536, 65536] }), /shape's element count is too large \(4294967296\)/);
  });
}
