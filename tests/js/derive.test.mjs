// The derivation of multi-head attention (features/derive/stages.js) against the core's analysis and the
// lesson's figures: every tensor's size is the analysis's (and the lesson's E1 by hand), the live TeX
// writes those sizes under the tensors it names, the heads chapter's steps name the stages and place
// every exercise once; the previous-token head's first row (features/heatmaps/first_row.js) on made-up maps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../web/src/engine/attention.js';
import { TENSORS, STAGES, EQUATIONS, tensorSizes, equationTex, stageTensors, stageOfStep } from '../../web/src/features/derive/stages.js';
import { firstRowOfPrevious } from '../../web/src/features/heatmaps/first_row.js';
import { CHAPTER, TEXT } from '../../web/src/lesson/chapters/heads/chapter.js';
import { EXERCISES } from '../../web/src/lesson/chapters/heads/exercises.js';
import { FEATURE_NAMES } from '../../web/src/features/index.js';
import katex from 'katex';

const attn = await loadAttention({ simd: true });
const int = (x) => String(x);

/** The sizes by the lesson's formulas, worked out here (d_k = d_v = d_model / h unless given). */
function expected({ d_model, n_heads, d_k = d_model / n_heads, d_v = d_k, n_q, n_k = n_q }) {
  return {
    Q: [n_q, d_model], K: [n_k, d_model], V: [n_k, d_model], WQ: [d_model, d_k], WK: [d_model, d_k], WV: [d_model, d_v],
    Qi: [n_q, d_k], Ki: [n_k, d_k], Vi: [n_k, d_v], Ai: [n_q, n_k], head: [n_q, d_v], concat: [n_q, n_heads * d_v],
    WO: [n_heads * d_v, d_model], out: [n_q, d_model],
  };
}

const CASES = [
  { d_model: 64, n_heads: 4, n_q: 10 },
  { d_model: 768, n_heads: 12, n_q: 128 }, // the lesson's E1
  { d_model: 64, n_heads: 4, d_k: 8, d_v: 12, n_q: 10, n_k: 7 }, // d_k ≠ d_v, cross-attention
  { d_model: 48, n_heads: 1, n_q: 5 },
];

test('every tensor of the derivation has the analysis\'s size, which is the lesson\'s', () => {
  for (const c of CASES) {
    const args = c.n_k ? { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, n_q: c.n_q, n_k: c.n_k } : { d_model: c.d_model, n_heads: c.n_heads, n: c.n_q };
    const sizes = tensorSizes(attn.analyze(args));
    assert.deepEqual(sizes, expected(c), JSON.stringify(c));
    assert.deepEqual(Object.keys(sizes).sort(), [...TENSORS].sort());
  }
  // E1 as the lesson prints it: Q_i 128×64, A_i 128×128, Concat and output 128×768.
  const e1 = tensorSizes(attn.analyze({ d_model: 768, n_heads: 12, n: 128 }));
  assert.deepEqual([e1.Qi, e1.Ai, e1.head, e1.concat, e1.out], [[128, 64], [128, 128], [128, 64], [128, 768], [128, 768]]);
  assert.throws(() => tensorSizes({ shapes: [], dims: {}, derived: {} }), /no tensor “query input…”/);
});

test('each equation\'s TeX writes the current sizes under the tensors it names, each wrapped for its colour, and typesets', () => {
  const a = attn.analyze({ d_model: 64, n_heads: 4, d_k: 8, d_v: 12, n_q: 10, n_k: 7 });
  const sizes = tensorSizes(a);
  // The panel's KaTeX options; an unfilled template (a Concat symbol that were its equation) shows as a placeholder left.
  const KATEX = { displayMode: true, throwOnError: true, trust: (c) => c.command === '\\htmlClass', strict: (code) => (code === 'htmlExtension' ? 'ignore' : 'error') };
  for (const stage of STAGES) {
    for (const eq of EQUATIONS[stage]) {
      const tex = equationTex(eq, sizes, { h: 4, int });
      assert.doesNotMatch(tex, /\{(res|terms|in|heads|q|k|a|v|size|count|symbol|name|r|c)\}/, `${eq.id}: a placeholder left in ${tex}`);
      const html = katex.renderToString(tex, KATEX);
      for (const name of [...eq.terms, eq.result]) {
        assert.ok(tex.includes(`\\htmlClass{tensor t-${name}}`), `${eq.id}: ${name} highlighted in ${tex}`);
        assert.match(html, new RegExp(`class="enclosing tensor t-${name}"`), `${eq.id}: ${name} in its class`);
        if (eq.form !== 'concat') {
          const dims = eq.form === 'scores' && name === 'Ki' ? [...sizes[name]].reverse() : sizes[name];
          assert.ok(tex.includes(`}_{${dims[0]}\\times ${dims[1]}}`), `${eq.id}: ${name}'s size ${dims} in ${tex}`);
        }
      }
      assert.doesNotMatch(html, /<mi>r<\/mi><mi>e<\/mi><mi>s<\/mi>/, `${eq.id}: “res” typeset`);
    }
  }
  const tex = (id) => equationTex(Object.values(EQUATIONS).flat().find((e) => e.id === id), sizes, { h: 4, int });
  assert.match(tex('q'), /_\{10\\times 8\}=.*_\{10\\times 64\}.*_\{64\\times 8\}\\in\\mathbb\{R\}\^\{n_q\\times d_k\}/, 'Q_i = Q·W_iᴽ ∈ ℝ^{n_q×d_k}, sizes under');
  assert.match(tex('a'), /_\{10\\times 7\}=.*_\{10\\times 8\}.*_\{8\\times 7\}.*\\sqrt\{d_k\}.*\\mathbb\{R\}\^\{n_q\\times n_k\}/, 'A_i = softmax(Q_i K_iᵀ/√d_k): 10×8 · 8×7 → 10×7');
  assert.match(tex('heads'), /_\{10\\times 12\}=.*i=1,\\dots,h=4$/);
  assert.match(tex('concat'), /_\{10\\times 48\}.*_\{4\\times\(10\\times 12\)\}.*\\mathbb\{R\}\^\{n_q\\times h\\,d_v\}/);
  assert.match(tex('out'), /_\{10\\times 64\}=.*_\{10\\times 48\}.*_\{48\\times 64\}/);
  // Large sizes are grouped as the page writes them.
  const big = tensorSizes(attn.analyze({ d_model: 12288, n_heads: 96, n: 2048 }));
  const grouped = (x) => x.toLocaleString('en-US').replace(/,/g, '{,}');
  assert.match(equationTex(EQUATIONS.output[0], big, { h: 96, int: grouped }), /_\{2\{,\}048\\times 12\{,\}288\}/);
  assert.deepEqual(stageTensors('one-head'), ['Q', 'WQ', 'Qi', 'K', 'WK', 'Ki', 'V', 'WV', 'Vi', 'Ai', 'head']);
});

test('the heads chapter: 3–7 steps, the four stages in order then why several heads, each exercise placed once', () => {
  const steps = CHAPTER.steps;
  assert.ok(steps.length >= 3 && steps.length <= 7, `${steps.length} steps`);
  assert.deepEqual(steps.map((s) => stageOfStep(s.id)).filter(Boolean), STAGES);
  assert.equal(stageOfStep('heads.why'), null);
  assert.equal(stageOfStep(undefined), null);
  for (const s of steps) {
    assert.ok(s.id.startsWith('heads.'), s.id);
    for (const id of s.text) assert.ok(id in TEXT, `${s.id}: text ${id}`);
    assert.ok(s.panels.length >= 1 && s.panels.length <= 2, `${s.id}: panels`);
    for (const p of s.panels) assert.ok(CHAPTER.panels.includes(p) && FEATURE_NAMES.includes(p), `${s.id}: panel ${p}`);
    for (const f of s.fields ?? []) assert.ok(CHAPTER.fields.includes(f), `${s.id}: field ${f}`);
  }
  assert.ok(steps.at(-1).panels.includes('subspace'), 'the last step shows why several heads');
  assert.ok(!steps[0].panels.includes('heatmaps'), 'the first step does not repeat chapter 1\'s map');
  const placed = steps.flatMap((s) => s.exercises ?? []);
  assert.deepEqual([...placed].sort(), Object.keys(CHAPTER.exercises).sort(), 'every exercise at one step');
  assert.equal(new Set(placed).size, placed.length);
  assert.deepEqual(EXERCISES.map((e) => e.id).sort(), Object.keys(CHAPTER.exercises).sort());
  assert.ok(EXERCISES.some((e) => e.kind === 'sketch'), 'the sketch exercise stays');
  // The predictions about the previous-token head come before the step that draws every head's map.
  const maps = steps.findIndex((s) => stageOfStep(s.id) === 'side-by-side');
  for (const id of ['heads.sketch-previous', 'heads.previous-token']) {
    assert.ok(steps.findIndex((s) => s.exercises?.includes(id)) < maps, `${id} is asked before the maps are shown`);
  }
});

/** A made-up result: `maps` per head (rows of weights), 'previous' heads, a mask per cell. */
function made(maps, heads, masked) {
  const rows = maps[0].length, cols = maps[0][0].length;
  const labels = ['the', 'cat', 'sat', 'on'].slice(0, cols);
  return { config: { heads, n_heads: maps.length }, item: { rows, cols, rowStep: 1, colStep: 1, labels_q: labels.slice(0, rows), labels_k: labels,
    data: Float32Array.from(maps.flat(2)), masked: Uint8Array.from(masked ?? new Array(rows * cols).fill(0)) } };
}

test('the previous-token head\'s first row: where its weight goes, only when it has a choice', () => {
  const row0 = [0.1, 0.2, 0.59, 0.11];
  const other = [[0, 0, 0, 1], [1, 0, 0, 0], [0, 1, 0, 0]];
  const r = made([[row0, ...other], [[0.25, 0.25, 0.25, 0.25], ...other]], ['random', 'previous']);
  assert.equal(firstRowOfPrevious(r, 0), null, 'a random head');
  assert.equal(firstRowOfPrevious(r, 1).word, 'the', 'a tie keeps the first key');
  const p = made([[[0.25, 0.25, 0.25, 0.25], ...other], [row0, ...other]], ['random', 'previous']);
  const got = firstRowOfPrevious(p, 1);
  assert.deepEqual({ ...got, weight: Math.round(got.weight * 100) / 100 }, { first: 'the', word: 'sat', weight: 0.59, key: 2 });
  // Causal: the first query sees one key only, and says nothing.
  const causal = [0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0];
  assert.equal(firstRowOfPrevious(made([[[1, 0, 0, 0], ...other]], ['previous'], causal), 0), null);
  // A masked key is never the answer, even with a stale weight in it.
  const padded = [0, 0, 1, 0, ...new Array(12).fill(0)];
  assert.equal(firstRowOfPrevious(made([[row0, ...other]], ['previous'], padded), 0).word, 'cat');
  assert.equal(firstRowOfPrevious({ config: { heads: ['previous'] }, item: { ...made([[row0, ...other]], ['previous']).item, rowStep: 2 } }, 0), null, 'downsampled');
});
