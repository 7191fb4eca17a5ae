// Issue 36's `sketch` kind: a drawn attention row, normalised by the session and graded by total-variation
// distance against the engine's row. Checked against a float64 TV distance computed here, at the stated
// threshold's edges, with the answers that cannot be read (an error naming the problem, no attempt).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/src/engine/attention.js';
import { validate } from '../../web/src/model/validate.js';
import { defaults, withChanges } from '../../web/src/model/schema.js';
import { handlers } from '../../web/src/features/exercises/handler.js';
import { createExerciseSession } from '../../web/src/lesson/exercises/session.js';
import { EXERCISES } from '../../web/src/lesson/exercises/catalogue.js';
import { parseSketch } from '../../web/src/lesson/exercises/sketch_answer.js';

const attn = await loadAttention();

/** ½·Σ|p/Σp − q/Σq| in float64. */
function tv64(p, q) {
  const sp = p.reduce((s, x) => s + x, 0), sq = q.reduce((s, x) => s + x, 0);
  return p.reduce((s, x, j) => s + Math.abs(x / sp - q[j] / sq), 0) / 2;
}

function session(events = []) {
  const state = { ...withChanges(defaults(), {}), exercises: 'attention.sketch-same-word,heads.sketch-previous' };
  const check = validate(state, { resolveView: attn.resolveView, analyze: attn.analyze, budget: attn.defaultMemoryBudget });
  return createExerciseSession({ catalogue: EXERCISES, solve: async (p) => handlers.solve(p, { attn }), state: () => state, check: () => check, emit: (type, detail) => events.push({ type, detail }) });
}

test('a sketch is read as n non-negative heights and normalised to sum 1; anything else is an error naming the problem', () => {
  assert.deepEqual(parseSketch([1, 3, 0, 0], 4, 'x'), [0.25, 0.75, 0, 0]);
  assert.deepEqual(parseSketch('0, 2; 2 0', 4, 'x'), [0, 0.5, 0.5, 0]);
  assert.throws(() => parseSketch([1, 2], 4, 'x'), /x expects 4 weights \(one per key\), got 2/);
  assert.throws(() => parseSketch([1, -1, 0, 0], 4, 'x'), /x: weight 1 is not a non-negative number/);
  assert.throws(() => parseSketch([1, NaN, 0, 0], 4, 'x'), /weight 1 is not a non-negative number/);
  assert.throws(() => parseSketch([0, 0, 0, 0], 4, 'x'), /the weights are all 0; draw at least one bar/);
  assert.throws(() => parseSketch('a, b', 2, 'x'), /weight 0 is not a non-negative number/);
});

test('a sketch is graded by total-variation distance to the engine\'s row (float64 here), the stated threshold included', async () => {
  const events = [];
  const s = session(events);
  for (const id of ['attention.sketch-same-word', 'heads.sketch-previous']) {
    const item = s.view().items.find((i) => i.id === id);
    assert.equal(item.kind, 'sketch');
    assert.match(item.prompt, /within a distance of 0\.3 counts/, 'the prompt states the threshold');
    const n = item.sketch.keys.length;
    // A flat row first (a hint, no answer: issue 36's rules), then the engine's row shown (reveal) and
    // every further answer graded against it.
    const first = await s.answer(id, Array(n).fill(1));
    const row = (await s.reveal(id)).expected;
    assert.equal(row.length, n);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, 'the engine\'s row sums to 1');
    // Flat: far from a one-key row, wrong; TV as computed here decides.
    assert.equal(first.correct, tv64(Array(n).fill(1), row) <= item.threshold);
    assert.ok(first.hint && !('expected' in first), 'a first miss gives a hint, not the row');
    assert.equal(first.correct, false, `${id}: a flat row is not the head's`);
    assert.equal((await s.answer(id, row)).correct, true);
    // Mixtures of the engine's row and the flat one at TV just under and just over the threshold.
    const top = row.indexOf(Math.max(...row));
    const away = (top + 1) % n;
    for (const [t, want] of [[item.threshold - 0.01, true], [item.threshold + 0.01, false]]) {
      const sketch = row.slice();
      // Move weight t from the top key to another: TV = t exactly (both rows sum to 1).
      sketch[top] -= t;
      sketch[away] += t;
      const tv = tv64(sketch, row);
      assert.ok(Math.abs(tv - t) < 1e-6, `TV of the moved row is ${tv}`); // the row is float32: its sum is 1 to ~1e-7
      const r = await s.answer(id, sketch.map((w) => w * 7)); // any scale: normalised by the session
      assert.equal(r.correct, want, `${id}: TV ${tv.toFixed(3)} against ${item.threshold}`);
    }
  }
  const attempt = events.find((e) => e.type === 'attempt').detail;
  assert.ok(Array.isArray(attempt.answer) && Math.abs(attempt.answer.reduce((a, b) => a + b, 0) - 1) < 1e-12, 'the attempt carries the normalised row');
  await assert.rejects(s.answer('heads.sketch-previous', [1, 2]), /heads\.sketch-previous expects 9 weights/);
});

/** Softmax((a + b·j)/√2) over keys k_j = (1, j), j = 0…5, in float64: a naive attention loop. */
function naiveRow(a, b) {
  const s = [0, 1, 2, 3, 4, 5].map((j) => (a + b * j) / Math.SQRT2), top = Math.max(...s);
  const e = s.map((x) => Math.exp(x - top)), sum = e.reduce((x, y) => x + y, 0);
  return e.map((x) => x / sum);
}

test('a design is graded by the engine on the learner\'s record: every allowed q = (a, b) against a naive float64 attention loop', async () => {
  const jobs = {
    'attention.design-last': (w) => w[5] >= 0.9,
    'attention.design-first': (w) => w[0] >= 0.9,
    'attention.design-even': (w) => w.every((x) => Math.abs(x - 1 / 6) <= 0.01),
  };
  const state = { ...withChanges(defaults(), {}), exercises: Object.keys(jobs).join(',') };
  const check = validate(state, { resolveView: attn.resolveView, analyze: attn.analyze, budget: attn.defaultMemoryBudget });
  let asked = 0;
  const s = createExerciseSession({ catalogue: EXERCISES, solve: async (p) => { asked++; return handlers.solve(p, { attn }); }, state: () => state, check: () => check });
  const differ = [];
  for (const [id, job] of Object.entries(jobs)) {
    let right = 0;
    for (let a = -4; a <= 4; a++) {
      for (let b = -4; b <= 4; b++) {
        const want = job(naiveRow(a, b));
        const r = await s.answer(id, { a, b });
        if (r.correct !== want) differ.push(`${id} (${a}, ${b}): engine ${r.correct}, naive ${want}`);
        right += want;
      }
    }
    assert.ok(right >= 1 && right < 81, `${id}: some records do the job, not all (${right})`);
  }
  assert.deepEqual(differ, []);
  assert.equal(asked, 3, 'one engine call per design: every allowed record at once');
  // The forms a host may give, and what cannot be read.
  assert.equal((await s.answer('attention.design-last', '0, 4')).correct, true);
  assert.equal((await s.answer('attention.design-last', [2, 4])).correct, true);
  await assert.rejects(s.answer('attention.design-last', { a: 0, b: 5 }), /attention\.design-last: b must be a whole number from -4 to 4, got “5”/);
  await assert.rejects(s.answer('attention.design-last', { a: 0.5, b: 1 }), /a must be a whole number/);
  await assert.rejects(s.answer('attention.design-last', '4'), /expects a and b/);
});
