// The cost chapter opened up (issue 37): the n control's lengths (8 to 8192 in log steps) and the core's
// verdict flipping at n = d along them; the lesson's start on layers of one and two heads (the constructed
// heads take as many patterns as fit, and a note says so); the h = 1 against h = 8 comparison against a
// float64 count written here, independently of the core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modules } from './modules.mjs';
import { N_STEPS, N_MIN, N_MAX, nearestStep } from '../../web/src/features/cost_n/lengths.js';
import { compareHeads, HEAD_COUNTS } from '../../web/src/features/cost_heads/compare.js';
import { validate } from '../../web/src/model/validate.js';
import { fromHash } from '../../web/src/model/schema.js';
import { LayerCache, prepareRun } from '../../web/src/model/job.js';
import { LESSON_START } from '../../web/src/lesson/chapters.js';

const attn = modules.simd;

test('the n control: 8 to 8192, ascending, whole, every step at most a quarter octave, the lesson\'s d values on it', () => {
  assert.equal(N_STEPS[0], 8);
  assert.equal(N_STEPS[N_STEPS.length - 1], 8192);
  assert.deepEqual([N_MIN, N_MAX], [8, 8192]);
  for (let i = 1; i < N_STEPS.length; i++) {
    assert.ok(Number.isInteger(N_STEPS[i]) && N_STEPS[i] > N_STEPS[i - 1], `step ${i}: ${N_STEPS[i - 1]} → ${N_STEPS[i]}`);
    // A quarter octave is ×1.189; rounded to whole tokens the first steps stretch to ×1.25 (8 → 10).
    assert.ok(N_STEPS[i] / N_STEPS[i - 1] <= 1.25, `step ${i}: ${N_STEPS[i - 1]} → ${N_STEPS[i]} is more than a quarter octave`);
  }
  for (const d of [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192]) assert.ok(N_STEPS.includes(d), `${d} is a step`);
  // The run's own length starts the control at the nearest step; outside the range, the nearest end.
  assert.equal(N_STEPS[nearestStep(10)], 10);
  assert.equal(N_STEPS[nearestStep(2048)], 2048);
  assert.equal(nearestStep(1), 0);
  assert.equal(nearestStep(100000), N_STEPS.length - 1);
  assert.equal(nearestStep(NaN), 0);
});

test('along the control the core\'s verdict flips at n = d: projections below, the attention matrix above, equal at d', () => {
  for (const [d_model, n_heads] of [[64, 4], [512, 8], [96, 1]]) {
    const flips = [];
    for (const n of N_STEPS) {
      const f = attn.analyze({ d_model, n_heads, n }).flops;
      // float64, written here: one projection n·d², the scores n²·d.
      assert.equal(f.lesson.projections, n * d_model * d_model, `d_model ${d_model}, n ${n}: n·d²`);
      assert.equal(f.lesson.scores, n * n * d_model, `d_model ${d_model}, n ${n}: n²·d`);
      assert.equal(f.projections_dominate_lesson, n < d_model, `d_model ${d_model}, n ${n}: ${f.dominant_reason}`);
      if (n === d_model) assert.match(f.dominant_reason, /cost the same/);
      else assert.match(f.dominant_reason, n < d_model ? /projections \(n·d²\) dominate/ : /attention matrix \(n²·d\) dominates/);
      flips.push(f.projections_dominate_lesson);
    }
    // One flip only, between the last step below d and the first at or above it.
    const changes = flips.filter((v, i) => i > 0 && v !== flips[i - 1]).length;
    assert.equal(changes, 1, `d_model ${d_model}: the verdict changes once along 8…8192`);
  }
  // The far end is countable for the models' widths too.
  assert.ok(attn.analyze({ d_model: 4096, n_heads: 32, n: 8192 }).flops.lesson.scores === 8192 * 8192 * 4096);
});

test('the lesson\'s start on 1, 2, 3 and 4 heads: as many constructed heads as fit, a note naming the rest, and the run builds them', () => {
  // d_model 48: 1, 2, 3 and 4 heads all divide it.
  const env = { resolveView: attn.resolveView, analyze: attn.analyze, budget: attn.defaultMemoryBudget };
  const cases = [
    [1, ['previous'], /1 head: the constructed heads use the first 1 of the patterns \(previous\); same_word, first_token need more heads/],
    [2, ['previous', 'same_word'], /2 heads: .*\(previous, same_word\); first_token needs more heads/],
    [3, ['previous', 'same_word', 'first_token'], null],
    [4, ['previous', 'same_word', 'first_token', 'random'], null],
  ];
  const cache = new LayerCache();
  for (const [n_heads, heads, note] of cases) {
    const check = validate({ ...fromHash(`#d_model=48&n_heads=${n_heads}`), ...LESSON_START }, env);
    assert.ok(check.ok, `n_heads ${n_heads}: ${JSON.stringify(check.errors)}`);
    assert.deepEqual(check.config.heads, heads, `n_heads ${n_heads}`);
    const notes = check.notes.filter((n) => n.field === 'heads').map((n) => n.text);
    if (note) assert.match(notes.join(' '), note);
    else assert.deepEqual(notes, [], `n_heads ${n_heads}: nothing left out`);
    // The core builds the heads: the layer's patterns are the config's.
    const { layer } = prepareRun(attn, check.config, cache, null);
    assert.deepEqual(layer.getHeadPatterns().map((p) => p.pattern), heads, `n_heads ${n_heads}: built`);
  }
  // Left-out entries that are random say nothing; a random first entry leaves no constructed head.
  const quiet = validate({ ...fromHash('#n_heads=1'), heads: 'previous,,random' }, env);
  assert.deepEqual([quiet.config.heads, quiet.notes.filter((n) => n.field === 'heads')], [['previous'], []]);
  const none = validate({ ...fromHash('#n_heads=1'), heads: 'random,first_token' }, env);
  assert.equal(none.config.heads, null);
  assert.match(none.notes.map((n) => n.text).join(' '), /first_token needs more heads/);
  // A bad pattern is still an error, whatever the head count.
  assert.match(validate({ ...fromHash('#n_heads=1'), heads: 'previous,sideways' }, env).errors.heads, /“sideways” \(head 2\) is not a head pattern/);
});

test('h = 1 against h = 8 at equal d_model: equal weights and multiply-adds, more softmax, against a float64 count', () => {
  assert.deepEqual(HEAD_COUNTS, [1, 8]);
  for (const [d_model, n, bias] of [[64, 10, true], [512, 2048, false], [4096, 100, true], [8, 8192, true]]) {
    const rows = compareHeads(attn.analyze, { d_model, n, bias });
    for (const row of rows) {
      const { h } = row;
      const where = `d_model ${d_model}, n ${n}, bias ${bias}, h ${h}`;
      // Written here in float64, not read from the core: d_k = d_model / h, four d_model² matrices.
      const d_k = d_model / h;
      const macs = 4 * n * d_model * d_model + 2 * n * n * d_model;
      const softmax = h * n * n * (1 + 5); // the 1/√d_k scale (one per logit) and 5 per logit in the softmax
      const biasAdds = bias ? 4 * n * d_model : 0;
      const expected = {
        h, d_k, params: 4 * d_model * d_model + (bias ? 4 * d_model : 0), macs,
        lesson: n * d_model * d_model + 2 * n * n * d_model, softmax_flops: softmax, flops: 2 * macs + biasAdds + softmax, maps: h,
      };
      for (const [key, value] of Object.entries(expected)) assert.equal(row[key], value, `${where}: ${key} is ${row[key]}, float64 says ${value}`);
    }
    assert.equal(rows[0].params, rows[1].params);
    assert.equal(rows[0].macs, rows[1].macs);
    assert.ok(rows[1].flops > rows[0].flops, 'the softmax of 8 maps costs more');
  }
  // d_model = 12: eight heads do not divide it; the core says so, and one head is still counted.
  const [one, eight] = compareHeads(attn.analyze, { d_model: 12, n: 10, bias: true });
  assert.equal(one.params, 4 * 144 + 48);
  assert.match(eight.error, /12/);
  assert.match(eight.error, /n_heads|divis/);
});
