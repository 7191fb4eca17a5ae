// The training lab and the √d_k gradient lab through the JavaScript API, both wasm modules:
// two heads learn two_relation and split it (≥ 99 %, one head per relation) where one head
// cannot; what a trainer reports is consistent with a float64 forward pass of the weights it
// hands out; runs are reproducible; the √d_k sweep shows the vanishing gradient; bad input is
// named; nothing leaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { mhaReference } from './reference.mjs';
import { TRAIN_TASKS, TRAIN_VOCAB, TRAIN_BATCH } from '../../web/src/model/training_settings.js';

const ISAS = ['simd', 'scalar'];

/** Trains `steps` steps in calls of at most 100 (the page's way: a few steps per frame). */
function train(trainer, steps) {
  for (let done = 0; done < steps;) done += trainer.step(Math.min(100, steps - done)).loss.length;
}

/** Sinusoidal positional encoding in float64, from the lesson's formula. */
function positional(n, d) {
  const pe = new Float64Array(n * d);
  for (let pos = 0; pos < n; pos++) {
    for (let c = 0; c < d; c++) {
      const angle = pos / 10000 ** ((2 * Math.floor(c / 2)) / d);
      pe[pos * d + c] = c % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    }
  }
  return pe;
}

for (const isa of ISAS) {
  const attn = modules[isa];

  test(`${isa}: two heads split two_relation and reach ≥ 99 %; one head stays far below`, () => {
    const two = attn.createTrainer({ task: 'two_relation', d_model: 32, n_heads: 2 });
    // The defaults the lab documents.
    assert.deepEqual(two.config, { task: 'two_relation', d_model: 32, n_heads: 2, seq_len: 8, vocab: 16, batch: 32,
      lr: 0.02, seed: 1 });
    assert.deepEqual(two.shape.relations, ['previous', 'first']);
    train(two, 200);
    const e = two.evaluate({ samples: 1000 });
    assert.ok(e.accuracy >= 0.99, `accuracy ${e.accuracy}`);
    assert.equal(e.focus_rows.previous, 6000); // rows t ≥ 2 of 1000 samples
    const prev = e.focus[0].previous > e.focus[1].previous ? 0 : 1;
    assert.ok(e.focus[prev].previous >= 0.8, JSON.stringify(e.focus));
    assert.ok(e.focus[1 - prev].first >= 0.8, JSON.stringify(e.focus));
    two.delete();

    const one = attn.createTrainer({ n_heads: 1 });
    train(one, 1000);
    const e1 = one.evaluate({ samples: 1000 });
    assert.ok(e1.accuracy < 0.9, `one head: accuracy ${e1.accuracy}`);
    one.delete();
  });

  test(`${isa}: the maps, predictions and weights a trainer reports agree with a float64 forward pass of its weights`, () => {
    const t = attn.createTrainer({ task: 'two_relation', seq_len: 6, vocab: 8, d_model: 16, n_heads: 2, seed: 4 });
    train(t, 60);
    const m = t.attentionMaps({ sample: 2 });
    const w = t.weights();
    const { d_model: D, n_heads: H, d_k, d_v } = t.dims;
    const T = 6, S = 2, C = 8;
    assert.equal(m.weights.length, H * T * T);
    assert.equal(m.input.length, T * D);
    assert.deepEqual(m.labels, m.tokens.map(String));
    // The layer's input: the token's embedding row plus the positional encoding.
    const pe = positional(T, D);
    for (let t0 = 0; t0 < T; t0++) {
      for (let c = 0; c < D; c++) {
        const want = w.embedding[m.tokens[t0] * D + c] + pe[t0 * D + c];
        assert.ok(Math.abs(m.input[t0 * D + c] - want) < 1e-5, `input[${t0}, ${c}]`);
      }
    }
    const ref = mhaReference({ query: m.input, key: m.input, value: m.input, batch: 1, n_q: T, n_k: T, d_model: D,
      n_heads: H, d_k, d_v, weights: w });
    let worst = 0;
    for (let i = 0; i < ref.weights.length; i++) worst = Math.max(worst, Math.abs(ref.weights[i] - m.weights[i]));
    assert.ok(worst < 1e-5, `attention weights differ by ${worst}`);
    // Predictions: the largest logit of the read-out, wherever a target exists.
    for (let p = 0; p < T * S; p++) {
      if (m.targets[p] < 0) { assert.equal(m.predictions[p], -1); continue; }
      const row = Math.floor(p / S), slot = p % S;
      const logits = Array.from({ length: C }, (_, c) => {
        let s = w.readout_bias[slot * C + c];
        for (let i = 0; i < D; i++) s += ref.output[row * D + i] * w.readout[i * S * C + slot * C + c];
        return s;
      });
      assert.equal(m.predictions[p], logits.indexOf(Math.max(...logits)), `prediction ${p}`);
    }
    // The trained weights load into a MultiHeadAttention and give the same maps.
    const mha = new attn.MultiHeadAttention({ d_model: D, n_heads: H });
    const { wq, wk, wv, wo, bq, bk, bv, bo } = w;
    mha.setWeights({ wq, wk, wv, wo, bq, bk, bv, bo });
    const f = mha.forward({ query: m.input, n_q: T, need_weights: true });
    assert.deepEqual(Array.from(f.weights), Array.from(m.weights));
    mha.delete();
    t.delete();
  });

  test(`${isa}: runs are reproducible from the seed; held-out scores repeat; lookup labels`, () => {
    const a = attn.createTrainer({ task: 'copy_previous', batch: 8 }), b = attn.createTrainer({ task: 'copy_previous', batch: 8 });
    const ra = a.step(15), rb = b.step(15);
    assert.equal(ra.steps, 15);
    assert.equal(ra.loss.length, 15);
    assert.deepEqual(ra.loss, rb.loss);
    assert.deepEqual(a.evaluate({ samples: 200 }), b.evaluate({ samples: 200 }));
    assert.deepEqual(a.evaluate({ samples: 200 }), a.evaluate({ samples: 200 }));
    const c = attn.createTrainer({ task: 'copy_previous', batch: 8, seed: 2 });
    assert.notDeepEqual(c.step(15).loss, ra.loss);
    for (const t of [a, b, c]) t.delete();

    const lookup = attn.createTrainer({ task: 'lookup', vocab: 8, seq_len: 6 });
    assert.equal(lookup.config.lr, 0.01);
    assert.equal(lookup.shape.n_embeddings, 17); // 8 keys, 8 values, the query mark
    const m = lookup.attentionMaps();
    assert.match(m.labels.at(-1), /^\d\?$/);
    for (const label of m.labels.slice(0, -1)) assert.match(label, /^\d:\d$/);
    const asked = m.labels.at(-1).slice(0, -1);
    const pair = m.labels.find((l) => l.startsWith(`${asked}:`));
    assert.equal(m.targets.at(-1), Number(pair.split(':')[1]));
    lookup.delete();
  });

  test(`${isa}: the √d_k sweep: without the scale the typical gradient vanishes, with it it stays level`, () => {
    const g = attn.sqrtDkGradients({});
    assert.deepEqual(g.rows.map((r) => r.d_k), [4, 8, 16, 32, 64, 128, 256, 512, 1024]);
    assert.equal(g.n_k, 64);
    assert.equal(g.samples, 256);
    const first = g.rows[0], last = g.rows.at(-1);
    assert.ok(last.unscaled.score_grad_median < 1e-3 * first.unscaled.score_grad_median, JSON.stringify(last.unscaled));
    assert.ok(g.scaled_spread < 1.5, `scaled spread ${g.scaled_spread}`);
    assert.ok(last.unscaled.saturated_share > 0.5);
    for (const r of g.rows) assert.equal(r.scaled.saturated_share, 0);
    // The two modules measure the same draws: figures agree to float rounding.
    const other = modules[isa === 'simd' ? 'scalar' : 'simd'].sqrtDkGradients({ d_k_values: [16, 256], n_k: 32, samples: 64 });
    const mine = attn.sqrtDkGradients({ d_k_values: [16, 256], n_k: 32, samples: 64 });
    for (let i = 0; i < 2; i++) {
      for (const side of ['scaled', 'unscaled']) {
        for (const key of ['score_grad_median', 'score_grad_mean', 'query_grad_mean', 'entropy']) {
          const x = mine.rows[i][side][key], y = other.rows[i][side][key];
          assert.ok(Math.abs(x - y) <= 1e-4 * Math.abs(y), `${side} ${key} at d_k ${mine.rows[i].d_k}: ${x} vs ${y}`);
        }
      }
    }
  });

  test(`${isa}: the page's list of tasks and lab sizes are the engine's`, () => {
    assert.deepEqual(attn.trainTasks().map((t) => t.name), [...TRAIN_TASKS]);
    const t = attn.createTrainer({});
    assert.equal(t.config.vocab, TRAIN_VOCAB);
    assert.equal(t.config.batch, TRAIN_BATCH);
    t.delete();
  });

  test(`${isa}: bad input is named`, () => {
    assert.throws(() => attn.createTrainer({ task: 'copy' }), /task must be 'copy_previous' or .* or 'two_relation', got "copy"/);
    assert.throws(() => attn.createTrainer({ heads: 2 }), /createTrainer: unknown option 'heads'/);
    assert.throws(() => attn.createTrainer({ lr: 0 }), /lr must be a number in \(0, 1\], got 0/);
    assert.throws(() => attn.createTrainer({ lr: 2 }), /lr must be a number in \(0, 1\], got 2/);
    assert.throws(() => attn.createTrainer({ lr: '0.1' }), /lr must be a finite number/);
    assert.throws(() => attn.createTrainer({ d_model: 30, n_heads: 4 }), /d_model \(30\) is not divisible by n_heads \(4\)/);
    assert.throws(() => attn.createTrainer({ d_model: 1024 }), /d_model must be an integer in 1..256 \(got 1024\)/);
    assert.throws(() => attn.createTrainer({ vocab: 1.5 }), /vocab must be a whole number/);
    assert.throws(() => attn.createTrainer({ task: 'lookup', vocab: 4, seq_len: 8 }), /seq_len − 1 \(7\) must be at most vocab \(4\)/);
    assert.throws(() => attn.createTrainer({ seed: -1 }), /seed must be a whole number/);
    const t = attn.createTrainer({});
    assert.throws(() => t.step(0), /steps must be at least 1/);
    assert.throws(() => t.step(t.max_steps_per_call + 1), new RegExp(`steps must be an integer in 1..${t.max_steps_per_call} at these sizes`));
    assert.throws(() => t.step('3'), /steps must be a number/);
    assert.throws(() => t.evaluate({ samples: 20000 }), /samples must be an integer in 1..10,000 \(got 20000\)/);
    assert.throws(() => t.evaluate({ n: 3 }), /unknown option 'n'/);
    assert.throws(() => t.attentionMaps({ sample: -2 }), /sample must be a whole number/);
    t.delete();
    t.delete(); // twice is harmless
    assert.throws(() => t.step(1), /this trainer was deleted/);
    assert.throws(() => t.weights(), /this trainer was deleted/);
    assert.throws(() => attn.sqrtDkGradients({ d_k_values: [1024], n_k: 64, samples: 1000 }), /at most 50,000,000/);
    assert.throws(() => attn.sqrtDkGradients({ d_k_values: [] }), /d_k_values must hold 1 to 32 values \(got 0\)/);
    assert.throws(() => attn.sqrtDkGradients({ d_k_values: [4, 'x'] }), /d_k_values\[1\] must be a number/);
    assert.throws(() => attn.sqrtDkGradients({ d_k_values: new Int32Array(2) }), /d_k_values must be an array of whole numbers/);
    assert.throws(() => attn.sqrtDkGradients({ d_k_values: [4, 0] }), /d_k_values\[1\] must be at least 1/);
  });

  test(`${isa}: trainers, their calls and their errors leak nothing`, () => {
    const cycle = () => {
      const t = attn.createTrainer({ seq_len: 6, batch: 4 });
      t.step(2);
      t.evaluate({ samples: 10 });
      t.attentionMaps({ sample: 1 });
      t.weights();
      assert.throws(() => t.step(100000));
      t.delete();
      assert.throws(() => attn.createTrainer({ d_model: 30, n_heads: 4 }));
      attn.sqrtDkGradients({ d_k_values: [4], n_k: 8, samples: 4 });
      // A caller's getter that throws is read before the engine is called.
      assert.throws(() => attn.createTrainer({ get d_model() { throw new Error('boom'); } }), /boom/);
      assert.throws(() => attn.sqrtDkGradients({ d_k_values: new Proxy([4], { get() { throw new Error('trap'); } }) }), /trap/);
    };
    cycle(); // the first one allocates what stays: the trainer table, the task list
    // The trainers and the gradient lab run in the labs module: its heap and stack, and the core's.
    const heap = [attn.heapAllocated(), attn.labs.heapAllocated()], stack = [attn.stackPointer(), attn.labs.stackPointer()];
    for (let i = 0; i < 20; i++) cycle();
    assert.deepEqual([attn.heapAllocated(), attn.labs.heapAllocated()], heap);
    assert.deepEqual([attn.stackPointer(), attn.labs.stackPointer()], stack);
  });
}
