// Efficient attention through the JavaScript API, both modules: flashAttention's output against a
// float64 softmax written here and against scaledDotProductAttention, every tile of the traced row
// against the softmax of the keys seen so far, causal blocks, odd block sizes, batch > 1, the IO
// model; linearAttention against the direct quadratic float64 sum; linearAttentionCost's crossover;
// every bad input named; no memory left behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { normwiseError, randomArray } from './reference.mjs';

/** Row (b, i)'s scaled logits in float64, −∞ where the causal mask hides key j. */
function logits({ query, key, n_q, n_k, d_k }, b, i, causal, scale = true) {
  const alpha = scale ? 1 / Math.sqrt(d_k) : 1;
  const s = new Float64Array(n_k);
  for (let j = 0; j < n_k; j++) {
    let dot = 0;
    for (let t = 0; t < d_k; t++) dot += query[(b * n_q + i) * d_k + t] * key[(b * n_k + j) * d_k + t];
    s[j] = causal && j > i ? -Infinity : alpha * dot;
  }
  return s;
}

/** m, l and o of row (b, i) over the keys [0, end). */
function prefix(p, b, i, end, causal, scale) {
  const s = logits(p, b, i, causal, scale);
  let m = -Infinity, l = 0;
  for (let j = 0; j < end; j++) m = Math.max(m, s[j]);
  const o = new Float64Array(p.d_v);
  for (let j = 0; j < end && m > -Infinity; j++) {
    const e = Math.exp(s[j] - m);
    l += e;
    for (let t = 0; t < p.d_v; t++) o[t] += e * p.value[(b * p.n_k + j) * p.d_v + t];
  }
  for (let t = 0; t < p.d_v && l > 0; t++) o[t] /= l;
  return { m, l, o };
}

function softmaxReference(p, causal, scale) {
  const out = new Float64Array(p.batch * p.n_q * p.d_v);
  for (let b = 0; b < p.batch; b++) {
    for (let i = 0; i < p.n_q; i++) out.set(prefix(p, b, i, p.n_k, causal, scale).o, (b * p.n_q + i) * p.d_v);
  }
  return out;
}

function problem(batch, n_q, n_k, d_k, d_v, seed) {
  return { batch, n_q, n_k, d_k, d_v, query: randomArray(batch * n_q * d_k, seed, 2), key: randomArray(batch * n_k * d_k, seed + 1, 2),
    value: randomArray(batch * n_k * d_v, seed + 2) };
}

const CASES = [
  { batch: 2, n_q: 7, n_k: 11, d_k: 5, d_v: 3, block_q: 3, block_k: 4, mask: 'none' },
  { batch: 1, n_q: 12, n_k: 12, d_k: 8, d_v: 8, block_q: 1, block_k: 1, mask: 'causal' },
  { batch: 3, n_q: 9, n_k: 9, d_k: 4, d_v: 6, block_q: 50, block_k: 50, mask: 'causal' },
  { batch: 1, n_q: 10, n_k: 10, d_k: 6, d_v: 4, block_q: 4, block_k: 3, mask: 'causal', scale: false },
];

for (const [name, attn] of Object.entries(modules)) {
  test(`${name}: flashAttention's output is softmax attention's and every tile is the prefix softmax`, () => {
    for (const c of CASES) {
      const p = problem(c.batch, c.n_q, c.n_k, c.d_k, c.d_v, 7 * c.n_q + c.block_k);
      const { batch, n_q, n_k, d_k, d_v, query, key, value } = p;
      const causal = c.mask === 'causal', scale = c.scale ?? true;
      const args = { query, key, value, batch, n_q, n_k, d_k, d_v, mask: c.mask, scale, block_q: c.block_q, block_k: c.block_k };
      const r = attn.flashAttention(args);
      const what = JSON.stringify({ ...c, query: undefined });
      assert.ok(r.output instanceof Float32Array && r.output.length === batch * n_q * d_v, what);
      const ref = normwiseError(r.output, softmaxReference(p, causal, scale));
      assert.ok(ref.error < 1e-6, `${what}: against float64, ${JSON.stringify(ref)}`);
      const sdpa = attn.scaledDotProductAttention({ q: query, k: key, v: value, batch, n_q, n_k, d_k, d_v, mask: c.mask, scale });
      const e = normwiseError(r.output, sdpa.output);
      assert.ok(e.error < 1e-6, `${what}: against scaledDotProductAttention, ${JSON.stringify(e)}`);
      assert.deepEqual(r.tiles, [], 'no trace: no tiles');
      const bk = Math.min(c.block_k, n_k), blocks = Math.ceil(n_k / bk);
      for (let b = 0; b < batch; b++) {
        for (let i = 0; i < n_q; i++) {
          const t = attn.flashAttention({ ...args, trace: { item: b, query_index: i } });
          assert.equal(t.tiles.length, blocks, `${what} row ${b},${i}: one tile per key block`);
          let mBefore = -Infinity;
          t.tiles.forEach((tile, x) => {
            const at = `${what} row ${b},${i} tile ${x}`;
            assert.equal(tile.key_start, x * bk, at);
            assert.equal(tile.key_end, Math.min(n_k, (x + 1) * bk), at);
            const want = prefix(p, b, i, tile.key_end, causal, scale);
            assert.ok(Number.isFinite(tile.m) && Math.abs(tile.m - want.m) <= 1e-12 * Math.max(1, Math.abs(want.m)), `${at}: m ${tile.m} vs ${want.m}`);
            assert.ok(Math.abs(tile.l - want.l) <= 1e-12 * want.l, `${at}: l ${tile.l} vs ${want.l}`);
            assert.equal(tile.o.length, d_v, at);
            tile.o.forEach((v, d) => assert.ok(Math.abs(v - want.o[d]) < 1e-6, `${at}: o[${d}] ${v} vs ${want.o[d]}`));
            assert.equal(tile.m_prev, mBefore, at);
            const rescale = mBefore === -Infinity ? 0 : Math.exp(mBefore - tile.m);
            assert.ok(Math.abs(tile.rescale - rescale) <= 1e-15, `${at}: rescale ${tile.rescale} vs ${rescale}`);
            mBefore = tile.m;
          });
          const row = t.output.subarray((b * n_q + i) * d_v, (b * n_q + i + 1) * d_v);
          assert.deepEqual(t.tiles.at(-1).o, Array.from(row), `${what} row ${b},${i}: the last tile's o is the output row`);
        }
      }
    }
  });

  test(`${name}: flashAttention's defaults, causal blocks past the row, the IO model`, () => {
    const p = problem(1, 40, 40, 8, 8, 3);
    const { query, key, value } = p;
    const d = attn.flashAttention({ query, key, value, n_q: 40, n_k: 40, d_k: 8 });
    assert.equal(d.io.sram, 1024);
    assert.equal(d.io.block_k, 32); // ⌊1024 / (4·8)⌋
    assert.equal(d.io.block_q, 8);  // min(32, d)
    assert.equal(d.io.query_blocks, 5);
    assert.equal(d.io.key_blocks, 2);
    // q, k, v as scaledDotProductAttention names them give the same result.
    const short = attn.flashAttention({ q: query, k: key, v: value, n_q: 40, n_k: 40, d_k: 8 });
    assert.deepEqual(short.output, d.output);
    // Standard: (n_q + n_k)·d_k + 4·n_q·n_k + n_k·d_v + n_q·d_v; tiled: Q and O once, K and V per query block.
    assert.equal(d.io.standard.total, 80 * 8 + 4 * 1600 + 40 * 8 + 40 * 8);
    assert.equal(d.io.tiled.total, 40 * 8 + 5 * 40 * 16 + 40 * 8);
    assert.equal(d.io.tiled.order, 'Θ(n²·d²/M)');
    assert.equal(d.io.standard.order, 'Θ(n·d + n²)');
    assert.ok(Math.abs(d.io.tiled.order_value - 1600 * 64 / 1024) < 1e-9);
    for (const side of [d.io.standard, d.io.tiled]) {
      assert.equal(side.terms.reduce((s, t) => s + t.reads + t.writes, 0), side.total);
      for (const t of side.terms) assert.ok(typeof t.formula === 'string' && t.formula.length > 0);
    }
    const small = attn.flashAttention({ query, key, value, n_q: 40, n_k: 40, d_k: 8, sram: 64 }).io; // ⌊64/32⌋ = 2
    assert.equal(small.block_k, 2);
    assert.ok(small.tiled.total > d.io.tiled.total, 'less on-chip memory, more traffic');

    // Causal, row 2 in query block [0, 4), key blocks of 3: the blocks past it are listed, unchanged, never NaN.
    const c = attn.flashAttention({ query: p.query.subarray(0, 80), key: p.key.subarray(0, 80), value: p.value.subarray(0, 80),
      n_q: 10, n_k: 10, d_k: 8, mask: 'causal', block_q: 4, block_k: 3, trace: { query_index: 2 } });
    assert.equal(c.tiles.length, 4);
    assert.deepEqual(c.tiles.map((t) => [t.visible, t.skipped]), [[3, false], [0, false], [0, true], [0, true]]);
    for (const t of c.tiles.slice(1)) {
      assert.equal(t.m, c.tiles[0].m);
      assert.equal(t.l, c.tiles[0].l);
      assert.deepEqual(t.o, c.tiles[0].o);
      assert.equal(t.rescale, 1);
      assert.equal(t.block_max, -Infinity);
      assert.ok(t.logits.every((x) => x === -Infinity));
    }
  });

  test(`${name}: flashAttention names the bad field`, () => {
    const p = problem(1, 6, 6, 4, 4, 5);
    const base = { query: p.query, key: p.key, value: p.value, n_q: 6, n_k: 6, d_k: 4 };
    const bad = [
      [{ block_q: 0 }, /block_q must be at least 1/],
      [{ block_k: -2 }, /block_k must be at least 1/],
      [{ block_k: 1.5 }, /block_k must be a whole number/],
      [{ trace: { query_index: 6 } }, /trace.query_index 6 is out of range 0…5/],
      [{ trace: { item: 1, query_index: 0 } }, /trace.item 1 is out of range/],
      [{ trace: {} }, /trace.query_index is required/],
      [{ trace: { row: 1 } }, /unknown option 'row'/],
      [{ mask: 'sliding' }, /mask must be 'none' or 'causal'/],
      [{ sram: 15 }, /sram .* must be a whole number from 2·\(d_k \+ d_v\) = 16/],
      [{ query: p.query.subarray(1) }, /query has 23 values but \[batch, n_q, d_k\]/],
      [{ value: new Float64Array(24) }, /value must be a Float32Array/],
      [{ q: p.query }, /give query or q, not both/],
      [{ key: undefined }, /key is required/],
      [{ n_q: 0 }, /n_q must be at least 1/],
      [{ scale: 1 }, /scale must be true or false/],
      [{ query: Float32Array.from(p.query, (x, i) => (i === 3 ? NaN : x)) }, /query contains NaN at index 3/],
    ];
    for (const [change, message] of bad) {
      assert.throws(() => attn.flashAttention({ ...base, ...change }), message, JSON.stringify(change));
    }
    assert.throws(() => attn.flashAttention({ ...base, d_k: undefined }), /d_k is required/);
  });

  test(`${name}: linearAttention is the φ-kernel attention, plain and causal; its cost crosses over`, () => {
    const phi = (x) => (x > 0 ? x + 1 : Math.exp(x));
    for (const [batch, n_q, n_k, d_k, d_v, causal] of [[2, 5, 8, 4, 3, false], [3, 9, 9, 6, 5, true], [1, 1, 1, 1, 1, true]]) {
      const p = problem(batch, n_q, n_k, d_k, d_v, 17 + n_k);
      const r = attn.linearAttention({ query: p.query, key: p.key, value: p.value, batch, n_q, n_k, d_k, d_v, causal });
      const want = new Float64Array(batch * n_q * d_v);
      for (let b = 0; b < batch; b++) {
        for (let i = 0; i < n_q; i++) {
          let den = 0;
          const num = new Float64Array(d_v);
          for (let j = 0; j < (causal ? i + 1 : n_k); j++) {
            let w = 0;
            for (let t = 0; t < d_k; t++) w += phi(p.query[(b * n_q + i) * d_k + t]) * phi(p.key[(b * n_k + j) * d_k + t]);
            den += w;
            for (let t = 0; t < d_v; t++) num[t] += w * p.value[(b * n_k + j) * d_v + t];
          }
          for (let t = 0; t < d_v; t++) want[(b * n_q + i) * d_v + t] = num[t] / den;
        }
      }
      const e = normwiseError(r.output, want);
      assert.ok(e.error < 1e-6, `batch ${batch} n_q ${n_q} causal ${causal}: ${JSON.stringify(e)}`);
    }
    const p = problem(1, 3, 4, 2, 2, 1);
    assert.throws(() => attn.linearAttention({ query: p.query, key: p.key, value: p.value, n_q: 3, n_k: 4, d_k: 2, causal: true }),
      /needs n_q = n_k/);
    assert.throws(() => attn.linearAttention({ query: p.query, key: p.key, value: p.value, n_q: 3, n_k: 4, d_k: 2, causal: 'yes' }),
      /causal must be true or false/);
    assert.throws(() => attn.linearAttention({ query: p.query, key: p.key, n_q: 3, n_k: 4, d_k: 2 }), /value is required/);

    for (const causal of [false, true]) {
      const c = attn.linearAttentionCost({ n: 512, d_k: 64, causal });
      assert.equal(c.softmax.total, (causal ? 512 * 513 / 2 : 512 * 512) * (2 * 64 + 2 * 64 + 4));
      assert.equal(c.linear.total, 512 * (4 * 64 * 64 + 5 * 64 + 64));
      const wins = (n) => { const x = attn.linearAttentionCost({ n, d_k: 64, causal }); return x.linear.total < x.softmax.total; };
      assert.ok(wins(c.crossover_n) && !wins(c.crossover_n - 1), `crossover ${c.crossover_n}`);
      assert.equal(c.linear.order, 'O(n·d_k·d_v)');
    }
    assert.throws(() => attn.linearAttentionCost({ n: 0, d_k: 4 }), /n must be at least 1/);
    assert.throws(() => attn.linearAttentionCost({ n: 4, d_k: 4, d: 4 }), /unknown option 'd'/);
  });

  // Issue 35, item 3: φ(x) = exp(x) for x ≤ 0 underflows in float64 below about −745, and the engine
  // returned zeros. Keys shifted by a constant c (every component ≤ 0) scale every weight by exp(c),
  // which cancels: the answer is the unshifted problem's, computed here the direct float64 way.
  test(`${name}: linearAttention gives the true output when φ underflows (keys or queries far below 0)`, () => {
    const k = new Float32Array(3 * 4).fill(-1000);
    const v = Float32Array.from([1, 2, 3, 5.5, 6.5, 7.5, 10, 11, 12]);
    const r = attn.linearAttention({ query: new Float32Array(4).fill(0.5), key: k, value: v, n_q: 1, n_k: 3, d_k: 4, d_v: 3 });
    assert.deepEqual(Array.from(r.output), [5.5, 6.5, 7.5], `k = −1000 everywhere: every key weighs the same, so mean(v); got ${Array.from(r.output)}`);
    const phi = (x) => (x > 0 ? x + 1 : Math.exp(x));
    for (const [n_q, n_k, d_k, d_v, causal, keyShift, queryShift] of [[4, 6, 5, 3, false, -1000, 0], [5, 5, 4, 2, true, -3000, 0],
      [3, 7, 6, 4, false, 0, -1500], [6, 6, 3, 3, true, -900, -800]]) {
      const q0 = Float32Array.from(randomArray(n_q * d_k, 31 + n_q), (x) => -Math.abs(x) * 3);
      const k0 = Float32Array.from(randomArray(n_k * d_k, 37 + n_k), (x) => -Math.abs(x) * 3);
      const value = randomArray(n_k * d_v, 41);
      const query = Float32Array.from(q0, (x) => x + queryShift), key = Float32Array.from(k0, (x) => x + keyShift);
      const got = attn.linearAttention({ query, key, value, n_q, n_k, d_k, d_v, causal }).output;
      // The reference sees exactly the engine's float32 inputs with the shift taken back (exact in float64).
      const want = new Float64Array(n_q * d_v);
      for (let i = 0; i < n_q; i++) {
        let den = 0;
        const num = new Float64Array(d_v);
        for (let j = 0; j < (causal ? i + 1 : n_k); j++) {
          let w = 0;
          for (let t = 0; t < d_k; t++) w += phi(query[i * d_k + t] - queryShift) * phi(key[j * d_k + t] - keyShift);
          den += w;
          for (let t = 0; t < d_v; t++) num[t] += w * value[j * d_v + t];
        }
        for (let t = 0; t < d_v; t++) want[i * d_v + t] = num[t] / den;
      }
      const e = normwiseError(got, want);
      assert.ok(e.error < 1e-6, `key shift ${keyShift}, query shift ${queryShift}, causal ${causal}: ${JSON.stringify(e)}`);
    }
  });

  test(`${name}: the efficient calls leave no memory behind, even when they fail`, () => {
    const p = problem(1, 16, 16, 8, 8, 9);
    const args = { query: p.query, key: p.key, value: p.value, n_q: 16, n_k: 16, d_k: 8 };
    attn.flashAttention({ ...args, trace: { query_index: 3 } });
    const before = attn.labs.heapAllocated(); // the labs module's heap, where these calls run
    attn.flashAttention({ ...args, trace: { query_index: 3 } });
    attn.linearAttention(args);
    assert.throws(() => attn.flashAttention({ ...args, sram: 3 }));
    assert.equal(attn.labs.heapAllocated(), before);
  });
}
