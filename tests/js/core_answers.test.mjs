// The numbers the page asks the core for instead of computing them (issue 34), in both modules: the
// analysis's derived widths and encoding wavelength against the lesson's formulas written out here, RoPE's
// rules in resolveView, and the defaults the core alone holds (rope_base, FlashAttention's sram) used when
// the option is left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { TRAIN_LIMITS } from '../../web/src/model/training_settings.js';
import { field as schemaField } from '../../web/src/model/schema.js';

for (const [isa, attn] of Object.entries(modules)) {
  test(`${isa}: analyze's derived sizes are the lesson's`, () => {
    for (const [d_model, n_heads, n_kv_heads, d_k, d_v, batch] of [[64, 4, 4, undefined, undefined, 1], [48, 6, 2, 8, 5, 3], [10, 1, 1, 3, 3, 2], [1, 1, 1, undefined, undefined, 1]]) {
      const a = attn.analyze({ d_model, n_heads, n_kv_heads, d_k, d_v, batch, n: 5 });
      const dk = d_k ?? d_model / n_heads, dv = d_v ?? d_model / n_heads;
      const slowest = Math.max(0, Math.floor(d_model / 2) - 1);
      const want = { qk_width: n_heads * dk, v_width: n_heads * dv, kv_k_width: n_kv_heads * dk, kv_v_width: n_kv_heads * dv,
        group: n_heads / n_kv_heads, attention_maps: batch * n_heads, square: n_heads * dk === d_model && dv === dk && n_kv_heads === n_heads,
        encoding_slowest_pair: slowest };
      const { encoding_wavelength, ...rest } = a.derived;
      assert.deepEqual(rest, want, `d_model ${d_model}, n_heads ${n_heads}`);
      const wavelength = 2 * Math.PI * 10000 ** ((2 * slowest) / d_model);
      assert.ok(Math.abs(encoding_wavelength - wavelength) <= 1e-12 * wavelength, `wavelength ${encoding_wavelength} vs ${wavelength}`);
      // Square matrices hold 4·d_model² weights and 4·d_model biases: the cost panel's sentence reads these counts.
      if (want.square) {
        assert.equal(a.params.w_q + a.params.w_k + a.params.w_v + a.params.w_o, 4 * d_model ** 2);
        assert.equal(a.params.biases, 4 * d_model);
      }
    }
  });

  test(`${isa}: resolveView checks RoPE's rules and says the base it uses`, () => {
    const view = { d_model: 12, n_heads: 4, n_q: 3 }; // d_k = 3, odd
    assert.equal(attn.resolveView(view).ok, true, 'no positional method: an odd d_k is fine');
    const odd = attn.resolveView({ ...view, positional: 'rope' });
    assert.equal(odd.field, 'positional');
    assert.match(odd.message, /d_k must be even \(got d_k 3\)/);
    assert.equal(attn.resolveView({ ...view, positional: 'alibi' }).ok, true);
    const low = attn.resolveView({ ...view, d_k: 4, positional: 'rope', rope_base: 1 });
    assert.equal(low.field, 'rope_base');
    assert.match(low.message, /rope_base must be a finite number above 1/);
    assert.equal(attn.resolveView({ ...view, positional: 'rope', rope_base: 'big' }).field, 'rope_base');
    const given = attn.resolveView({ ...view, d_k: 4, positional: 'rope', rope_base: 500 });
    assert.equal(given.dims.rope_base, 500);
    assert.equal('rope_base' in attn.resolveView({ ...view, d_k: 4 }).dims, false, 'no base without RoPE');
    // Left out, the base is the core's default: a forward pass without one equals a pass given that number.
    const base = attn.resolveView({ ...view, d_k: 4, positional: 'rope' }).dims.rope_base;
    assert.ok(base > 1, `the default base ${base}`);
    const mha = new attn.MultiHeadAttention({ d_model: 8, n_heads: 2, seed: 3 });
    try {
      const query = attn.randomNormal({ seed: 5, count: 6 * 8 });
      const left = mha.forward({ query, n_q: 6, positional: 'rope' }).output;
      const named = mha.forward({ query, n_q: 6, positional: 'rope', rope_base: base }).output;
      const other = mha.forward({ query, n_q: 6, positional: 'rope', rope_base: base * 2 }).output;
      assert.deepEqual(Array.from(left), Array.from(named));
      assert.notDeepEqual(Array.from(left), Array.from(other));
      const q = attn.randomNormal({ seed: 6, count: 8 }), k = attn.randomNormal({ seed: 7, count: 8 });
      assert.deepEqual(attn.ropeLogits({ q, k, positions: [0, 3] }), attn.ropeLogits({ q, k, positions: [0, 3], rope_base: base }));
    } finally {
      mha.delete?.();
    }
  });

  test(`${isa}: FlashAttention's sram, left out, is the core's default, which io.sram reports`, () => {
    const n_q = 16, n_k = 16, d_k = 8;
    const query = attn.randomNormal({ seed: 1, count: n_q * d_k }), key = attn.randomNormal({ seed: 2, count: n_k * d_k });
    const value = attn.randomNormal({ seed: 3, count: n_k * d_k });
    const left = attn.flashAttention({ query, key, value, n_q, n_k, d_k });
    const named = attn.flashAttention({ query, key, value, n_q, n_k, d_k, sram: left.io.sram });
    assert.ok(Number.isInteger(left.io.sram) && left.io.sram > 0);
    assert.deepEqual(left.io, named.io);
    assert.notDeepEqual(attn.flashAttention({ query, key, value, n_q, n_k, d_k, sram: 64 }).io, left.io);
  });

  test(`${isa}: each model preset says whether its d_k is the derived one`, () => {
    for (const m of attn.modelPresets()) {
      assert.equal(typeof m.d_k_derived, 'boolean', m.name);
      assert.equal(m.d_k_derived, m.d_model % m.n_heads === 0 && m.d_k === m.d_model / m.n_heads, m.name);
    }
  });

  test(`${isa}: the lab's limits in the schema are the core's`, () => {
    for (const [option, least] of [['d_model', 1], ['n_heads', 1], ['seq_len', 2]]) {
      const most = TRAIN_LIMITS[option];
      assert.equal(schemaField(`train_${option}`).min, least, `train_${option}'s least`);
      // The largest the schema allows is made (n_heads divides the largest d_model); one more is refused.
      const sizes = { task: 'copy_previous', d_model: 256, n_heads: 16, seq_len: 8, vocab: 64 };
      const made = attn.createTrainer({ ...sizes, [option]: most });
      made.delete();
      assert.throws(() => attn.createTrainer({ ...sizes, [option]: most + (option === 'n_heads' ? 16 : 1) }), new RegExp(`${option} must be an integer in ${least}\\.\\.${most} `), option);
    }
  });
}
