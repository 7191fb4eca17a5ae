// The page's pure modules in Node (no browser): state ⇄ URL hash, validation messages, seeded
// inputs, downsampling, colour scales and the viridis palette. The browser tests build on these.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaults, fromHash, parseHash, toHash, withChanges, FIELDS, ELEMENT_KEYS } from '../../web/src/model/schema.js';
import { visiblePanels } from '../../web/src/features/index.js';
import { validate, parseInteger, parseWorkers, MAX_DEFAULT_WORKERS } from '../../web/src/model/validate.js';
import { tokenize, sentences, buildInputs, PAD } from '../../web/src/model/inputs.js';
import { downsampleHeads } from '../../web/src/model/downsample.js';
import { colorPositions } from '../../web/src/model/colorscale.js';
import { exampleChanges, modelChanges, presetList, activePreset } from '../../web/src/model/presets.js';
import { lessonTerms, formula } from '../../web/src/features/cost/panel.js';
import { sqrtDkSample, sharpness } from '../../web/src/features/sqrtdk/panel.js';
import * as fmt from '../../web/src/model/format.js';
import { viridis } from '../../web/src/render/viridis.js';
import { peakModuleBytes } from '../../web/src/perf/peak.js';
import { LayerCache, ResultBuffers, runForward } from '../../web/src/model/job.js';
import { engine, expectedFor } from './reference.mjs';

test('the hash round-trips every field, and the default view has an empty hash', () => {
  assert.equal(toHash(defaults()), '');
  const state = withChanges(defaults(), { d_model: 512, n_heads: 8, mask: 'causal+padding', padding: '8,5', text: 'a b\nc d', bias: false });
  const hash = toHash(state);
  assert.match(hash, /d_model=512&n_heads=8/);
  assert.match(hash, /padding=8,5/);
  assert.deepEqual(fromHash(hash), state);
  // A literal '+' in a hand-written link means the same as %2B.
  assert.equal(fromHash('#mask=causal+padding').mask, 'causal+padding');
  // Unknown keys, bad escapes and values outside a choice fall back, never throw.
  const odd = fromHash('#nonsense=1&mask=sideways&d_model=%E0%A4&n_heads=3');
  assert.equal(odd.mask, 'none');
  assert.equal(odd.d_model, '64');
  assert.equal(odd.n_heads, '3');
  assert.deepEqual(visiblePanels(fromHash('#panels=shapes,nope,heatmaps')), ['heatmaps', 'shapes'], 'known names only, in the page’s order');
  assert.equal(new Set(FIELDS.map((f) => f.key)).size, FIELDS.length);
});

test('validation names the field and the problem in plain words', async () => {
  const attn = await engine();
  const env = { resolveView: attn.resolveView, analyze: attn.analyze, budget: attn.defaultMemoryBudget, isa: attn.isa };
  const check = (changes, lastEdited) => validate(withChanges(defaults(), changes), { ...env, lastEdited });
  assert.ok(check({}).ok);
  assert.match(check({ d_model: '510', n_heads: '8' }, 'd_model').errors.d_model, /not divisible by n_heads \(8\).*Try n_heads = 6 or 10/);
  assert.match(check({ d_model: '510', n_heads: '8' }).errors.n_heads, /not divisible/);
  assert.ok(check({ d_model: '510', n_heads: '8', d_k: '64', d_v: '60' }).ok, 'explicit head sizes need no divisibility');
  assert.match(check({ d_model: '0' }).errors.d_model, /d_model must be a positive integer \(got 0\)/);
  // The engine's limits, not the page's own: 2^20 is accepted by the rules (the budget decides), 2^20 + 1 is not.
  assert.match(check({ d_model: '1048577', n_heads: '1' }, 'd_model').errors.d_model, /d_model \(1,048,577\) is larger than the 1,048,576 this engine accepts/);
  assert.match(check({ source: 'random', n_q: '1048577' }, 'n_q').errors.n_q, /n_q \(1,048,577\) is larger than the 1,048,576/);
  assert.match(check({ source: 'random', mask: 'padding', batch: '2', n_q: '4', padding: '4,5' }).errors.padding,
    /key length of batch item 1 is 5, outside 0\.\.4 \(n_k\)/);
  assert.deepEqual(check({ n_heads: '4', n_kv_heads: '2' }).config.kv_head_of, [0, 0, 1, 1], 'each query head\'s key/value head, from the engine');
  // Without the engine (before it is loaded) only the form is read; the rules wait for it.
  const early = validate(withChanges(defaults(), { d_model: '510', n_heads: '8' }), {});
  assert.ok(early.ok && early.config.d_k === null && early.config.kv_head_of === null);
  assert.match(check({ d_model: 'twelve' }).errors.d_model, /whole number/);
  assert.match(check({ dropout: '1' }).errors.dropout, /below 1/);
  assert.match(check({ attention: 'cross', text_kv: 'one line\ntwo lines' }).errors.text_kv, /one line per query line/);
  assert.equal(parseInteger('1,024', { name: 'x' }).value, 1024);
  const big = check({ source: 'random', n_q: '100000' }, 'n_q');
  assert.ok(big.ok && big.blocked && big.blocked.field === 'n_q');
  assert.match(big.blocked.message, /over the budget of 1,073,741,824 B/);
  assert.ok(check({}).auto, 'the default view re-runs as you type');
});

test('inputs are reproducible from their seed, and sentences embed word + position', async () => {
  assert.deepEqual(tokenize('Hello, world!'), ['Hello', ',', 'world', '!']);
  assert.deepEqual(sentences('a b\n\n c '), [['a', 'b'], ['c']]);
  const attn = await engine();
  const random = (seed) => buildInputs({ source: 'random', batch: 1, n_q: 5, n_k: 5, d_model: 4, cross: false, input_seed: seed }, attn).query;
  assert.deepEqual(random(3), random(3));
  assert.notDeepEqual(random(3), random(4));
  const pe = attn.positionalEncoding({ n: 4, d_model: 8 });
  const x = buildInputs({ source: 'text', tokens_q: [['the', 'cat', 'the']], batch: 1, n_q: 4, n_k: 4, d_model: 8, cross: false,
    input_seed: 1 }, attn).query;
  // The same word at positions 0 and 2 differs by exactly PE(0) − PE(2).
  for (let c = 0; c < 8; c++) assert.ok(Math.abs((x[c] - x[16 + c]) - (pe[c] - pe[16 + c])) < 1e-6);
  const config = validate(withChanges(defaults(), { text: 'a b c\nd' }), { resolveView: attn.resolveView, analyze: attn.analyze }).config;
  const inputs = buildInputs(config, attn);
  assert.deepEqual(inputs.labels_q[1], ['d', PAD, PAD]);
  assert.equal(inputs.query.length, 2 * 3 * 64);
});

test('downsampling averages blocks and keeps masked blocks masked', async () => {
  const n = 6, w = new Float32Array(n * n).map((_, k) => k);
  const pooled = downsampleHeads(w, 1, n, n, 3);
  assert.equal(pooled.rows, 3);
  assert.equal(pooled.data[0], (0 + 1 + 6 + 7) / 4);
  assert.equal(downsampleHeads(w, 1, n, n, 8).data, w, 'small maps are not copied or changed');
  const grid = (await engine()).maskGrid({ mask: 'causal', n_q: n, n_k: n, row_step: 2, col_step: 2 });
  assert.deepEqual([...grid], [0, 1, 1, 0, 0, 1, 0, 0, 0]);
  assert.throws(() => downsampleHeads(w, 2, n, n), /expected heads×n_q×n_k/);
});

test('colour scales, viridis and number formats', () => {
  const w = new Float32Array([0.5, 0.25, 0.001, 0]);
  assert.deepEqual([...colorPositions(w, 2, 2, 'linear', 0.5)], [...new Float32Array([1, 0.5, 0.002, 0])]);
  assert.deepEqual([...colorPositions(w, 2, 2, 'row', 0.5)], [1, 0.5, 1, 0]);
  const log = colorPositions(w, 2, 2, 'log', 0.5);
  assert.equal(log[0], 1);
  assert.ok(log[2] > 0 && log[2] < 0.2 && log[3] === 0);
  assert.deepEqual(viridis(0), [68, 1, 84]);
  assert.deepEqual(viridis(1), [253, 231, 37]);
  // Lightness rises monotonically: the property that makes viridis readable in grey.
  const luma = (rgb) => 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
  for (let t = 0.05; t <= 1; t += 0.05) assert.ok(luma(viridis(t)) > luma(viridis(t - 0.05)));
  assert.equal(fmt.int(1048576), '1,048,576');
  assert.equal(fmt.bytes(16777216), '16,777,216 B (16.8 MB)');
  assert.equal(fmt.bytesBinary(2 ** 30), '1 GiB');
  assert.equal(fmt.short(34359738368), '34.4B');
  assert.equal(fmt.dims([1, 12, 128, 64]), '1 × 12 × 128 × 64');
});

test('presets fill in the lesson’s sizes', async () => {
  const attn = await engine();
  const examples = await attn.lessonExamples();
  const e1 = examples.find((e) => e.id === 'E1');
  const c = exampleChanges(e1);
  assert.deepEqual([c.d_model, c.n_heads, c.n_q, c.n_k, c.batch], [768, 12, 128, 128, 1]);
  const e2 = exampleChanges(examples.find((e) => e.id === 'E2'));
  assert.equal(e2.bias, '0', 'E2 counts weights without biases');
  const llama = attn.modelPresets().find((m) => m.name === 'LLaMA-70B');
  assert.equal(modelChanges(llama).n_kv_heads, 8);
  assert.equal(modelChanges(llama).d_k, '', 'd_k = 8192 / 64 = 128 is the derived size');
});

test('the peak module is valid wasm with SIMD, built from bytes', () => {
  const bytes = peakModuleBytes();
  assert.ok(WebAssembly.validate(bytes));
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes));
  assert.ok(Math.abs(exports.peak(100000) - 12) < 0.01, 'each chain converges to 1');
});

test('runForward refills the last result arrays, and its batch slices give the API\'s numbers', async () => {
  const attn = await engine();
  // batch 3 without dropout runs in slices (one forward per slice, each writing its part of the arrays).
  const hash = '#d_model=32&n_heads=4&n_q=5&batch=3&source=random&mask=causal';
  const want = await expectedFor(hash);
  const config = want.config;
  const cache = new LayerCache(), buffers = new ResultBuffers();
  try {
    const first = await runForward(attn, config, { cache, buffers });
    const firstOutput = first.output, firstWeights = first.weights;
    const copies = { output: Float32Array.from(first.output), weights: Float32Array.from(first.weights) };
    const second = await runForward(attn, config, { cache, buffers });
    assert.equal(second.output, firstOutput, 'a run of the same sizes writes into the same output array');
    assert.equal(second.weights, firstWeights, 'and into the same weights array');
    for (const [name, got, expected] of [['output', copies.output, want.output], ['weights', copies.weights, want.weights],
      ['output (second run)', second.output, want.output], ['weights (second run)', second.weights, want.weights]]) {
      assert.equal(got.length, expected.length, `${name}: length`);
      const at = got.findIndex((v, i) => v !== expected[i]);
      assert.equal(at, -1, `${name}: first difference at ${at}: page ${got[at]}, API ${expected[at]}`);
    }
    // Other sizes get new arrays of their own length.
    const other = await runForward(attn, { ...config, batch: 1 }, { cache, buffers });
    assert.notEqual(other.output, firstOutput);
    assert.equal(other.output.length, config.n_q * config.d_model);
  } finally {
    cache.clear();
  }
});

test('runForward: a slow first sample of a pass estimated quick is checked by one more pass, then timed in blocks or kept', async () => {
  const attn = await engine();
  const config = (await expectedFor('#d_model=4&n_heads=1&n_q=1&source=random')).config;
  // A clock whose first pass stalls 25 ms (the host busy, as on a loaded CI machine); every later reading moves 0.5 ms.
  const stalledClock = () => {
    let t = 0, calls = 0;
    return () => { calls++; t += calls === 3 ? 25 : 0.5; return t; };
  };
  const cache = new LayerCache();
  try {
    const estimated = await runForward(attn, config, { cache, now: stalledClock(), expectMs: 0.01 });
    assert.ok(estimated.timings.repeats > 1 && estimated.timings.forward_ms < 1, `timed in blocks: ${JSON.stringify(estimated.timings)}`);
    const untimed = await runForward(attn, config, { cache, now: stalledClock(), expectMs: 0.01, timed: false });
    assert.equal(untimed.timings.untimed, true, 'the page\'s run leaves it to its time request');
    const unknown = await runForward(attn, config, { cache, now: stalledClock() });
    assert.deepEqual([unknown.timings.repeats, unknown.timings.forward_ms], [1, 25], 'no estimate: the one sample stands');
    const slow = await runForward(attn, config, { cache, now: stalledClock(), expectMs: 40, timed: false });
    assert.ok(!slow.timings.untimed && slow.timings.repeats === 1, 'a pass estimated slow is not timed again');
    // Estimated quick but slow every time (each reading 25 ms on): the second sample confirms it, no blocks follow.
    let t = 0;
    const slowEveryTime = await runForward(attn, config, { cache, now: () => (t += 25), expectMs: 0.01 });
    assert.deepEqual([slowEveryTime.timings.repeats, slowEveryTime.timings.forward_ms], [2, 25], 'slow twice: the quicker sample, two passes');
  } finally {
    cache.clear();
  }
});

test('links: kv_heads is read as n_kv_heads, and every ignored part is named', () => {
  assert.equal(fromHash('#kv_heads=8').n_kv_heads, '8', 'an old link still works');
  const { state, ignored } = parseHash('#d_model&n_heads=2&nope=3&mask=sideways&x=%E0%A4');
  assert.equal(state.d_model, '64', 'a bare key keeps its default');
  assert.equal(state.n_heads, '2');
  assert.equal(ignored.length, 4);
  assert.match(ignored[0], /“d_model” has no value/);
  assert.match(ignored.join(' '), /“nope” is not a setting/);
  assert.match(ignored.join(' '), /mask=sideways is not one of none, causal/);
  assert.match(ignored.join(' '), /broken % escape/);
  assert.ok(!ELEMENT_KEYS.includes('embed') && ELEMENT_KEYS.includes('n_kv_heads') && ELEMENT_KEYS.includes('theme'));
});

test('validation: float32 dropout, n_kv_heads, bad choices and out-of-range views', async () => {
  const attn = await engine();
  const check = (changes, lastEdited) => validate(withChanges(defaults(), changes), { resolveView: attn.resolveView, analyze: attn.analyze,
    budget: attn.defaultMemoryBudget, isa: attn.isa, lastEdited });
  assert.match(check({ dropout: '0.99999999' }).errors.dropout, /rounds to 1 in float32/);
  assert.ok(check({ dropout: '0.99999994' }).ok, 'the largest float32 below 1 is accepted');
  assert.equal(Math.fround(0.99999994) < 1, true);
  // The engine's messages (resolveView), on the n_kv_heads field.
  assert.match(check({ n_heads: '4', n_kv_heads: '8' }).errors.n_kv_heads, /n_kv_heads \(8\) is larger than n_heads \(4\)/);
  assert.match(check({ n_heads: '4', n_kv_heads: '3' }).errors.n_kv_heads, /n_heads \(4\) is not divisible by n_kv_heads \(3\).*choose one of 1, 2, 4/);
  assert.match(check({ n_heads: '4', n_kv_heads: '0' }).errors.n_kv_heads, /n_kv_heads must be at least 1 \(got 0\)/);
  assert.ok(check({ n_heads: '4', n_kv_heads: '2' }).analysis.params_gqa > 0);
  assert.match(check({ mask: 'sideways' }).errors.mask, /mask must be one of none, causal, padding, causal\+padding/);
  const colours = check({ colors: 'rainbow' });
  assert.ok(colours.ok, 'a bad view field never blocks a run');
  assert.match(colours.notes[0].text, /colors must be one of/);
  const head = check({ head: '-1' });
  assert.equal(head.config.head, null);
  assert.match(head.notes[0].text, /head=-1 is not a head/);
  assert.match(check({ head: '9' }).notes[0].text, /not a head of this layer \(0 to 3\)/);
  // GPT-3's layer is over the budget at any n: the message goes to d_model, not n_q.
  const gpt3 = check({ d_model: '12288', n_heads: '96', source: 'random', n_q: '1' }, 'n_q');
  assert.equal(gpt3.blocked.field, 'd_model');
  assert.match(gpt3.blocked.message, /at any sequence length/);
});

test('workers: a hash key and an element attribute; 1 to the cores, default the cores but one (≤ 8); a bad value is a note', async () => {
  assert.ok(ELEMENT_KEYS.includes('workers'), 'an element attribute and a widget key');
  assert.equal(defaults().workers, '', 'empty = automatic');
  assert.equal(toHash(withChanges(defaults(), { workers: 2 })), '#workers=2');
  assert.equal(fromHash('#workers=3').workers, '3');
  // The default leaves one core to the page, and stays within MAX_DEFAULT_WORKERS.
  for (const [cores, want] of [[undefined, 1], [1, 1], [2, 1], [4, 3], [8, 7], [64, MAX_DEFAULT_WORKERS]]) {
    assert.deepEqual(parseWorkers('', cores), { value: want, note: null }, `default with ${cores} cores`);
  }
  assert.equal(MAX_DEFAULT_WORKERS, 8);
  // Every core may be chosen: the compute worker waits while the pool computes.
  assert.deepEqual(parseWorkers('2', 2), { value: 2, note: null });
  assert.deepEqual(parseWorkers(' 1 ', 4), { value: 1, note: null });
  const tooMany = parseWorkers('16', 4);
  assert.equal(tooMany.value, 4, 'a link from a larger machine uses every core here');
  assert.equal(tooMany.note, 'workers must be a whole number from 1 to 4 (this browser reports 4 logical cores), not “16”: using 4.');
  for (const raw of ['0', '-2', '2.5', 'two', '1e3x']) {
    const r = parseWorkers(raw, 4);
    assert.equal(r.value, 3, `${raw}: the default`);
    assert.match(r.note, new RegExp(`^workers must be a whole number from 1 to 4 .*not “${raw.replace('.', '\\.')}”: using 3\\.$`));
  }
  assert.match(parseWorkers('2', 1).note, /from 1 to 1 \(this browser reports 1 logical core\)/);
  // In validate: config.workers, and a bad value is a note beside a run that still goes ahead.
  const attn = await engine();
  const env = { analyze: attn.analyze, budget: attn.defaultMemoryBudget, isa: attn.isa, cores: 4 };
  const check = (changes) => validate(withChanges(defaults(), changes), env);
  assert.equal(check({}).config.workers, 3);
  assert.equal(check({ workers: '2' }).config.workers, 2);
  assert.equal(check({ workers: '1' }).config.workers, 1);
  const bad = check({ workers: 'many' });
  assert.ok(bad.ok && !bad.errors.workers, 'a bad workers value never blocks a run');
  assert.equal(bad.config.workers, 3);
  assert.deepEqual(bad.notes, [{ field: 'workers', text: 'workers must be a whole number from 1 to 4 (this browser reports 4 logical cores), not “many”: using 3.' }]);
  assert.equal(validate(defaults(), { analyze: attn.analyze }).config.workers, 1, 'without cores (Node): one worker');
});

test('figures: formulas name their own product; rates, times and shares never read NaN or 0 for a real value', () => {
  const d = { d_model: 32, n_heads: 2, d_k: 16, d_v: 16, batch: 1, n_q: 4, n_k: 9 };
  const widths = { qk_width: 32, v_width: 32 }; // the analysis's derived h·d_k and h·d_v
  const terms = lessonTerms(d, widths);
  assert.equal(formula(terms.scores), 'n_q·n_k·d = 4 × 9 × 32');
  assert.equal(formula(terms.softmax), 'h·n_q·n_k = 2 × 4 × 9');
  assert.equal(formula(lessonTerms({ ...d, n_k: 4 }, widths).projections), 'n·d² = 4 × 32²');
  assert.equal(formula(lessonTerms({ ...d, n_k: 4, batch: 3 }, widths).scores), 'batch·n²·d = 3 × 4² × 32');
  assert.equal(formula(lessonTerms({ ...d, d_v: 8 }, { ...widths, v_width: 16 }).weighted_sum), 'n_q·n_k·h·d_v = 4 × 9 × 16');
  assert.equal(fmt.duration(0.0032), '3.2 µs');
  assert.equal(fmt.rate(NaN), 'too fast to time');
  assert.equal(fmt.rate(0.0001234), '123 kFLOP/s');
  assert.equal(fmt.rate(43.21), '43.2 GFLOP/s');
  assert.match(fmt.percentOfPeak(1.22), /^122 %: above the peak measured here/);
  assert.equal(fmt.percentOfPeak(0.5), '50 %');
  assert.equal(sharpness(0.9, 64).startsWith('nearly one-hot'), true);
  assert.match(sharpness(0.2, 64), /somewhat peaked/);
  assert.match(sharpness(0.02, 64), /close to uniform/);
  const sample = sqrtDkSample(131072, 512);
  assert.ok(131072 * sample.keys * sample.samples <= 4e6 && sample.keys >= 2 && sample.samples >= 10, JSON.stringify(sample));
});

test('presets: the menu names the preset in view, preferring the one loaded last', async () => {
  const attn = await engine();
  const presets = presetList(await attn.lessonExamples(), attn.modelPresets());
  const e1 = presets.find((p) => p.value === 'example:E1');
  assert.equal(activePreset(withChanges(defaults(), e1.changes), presets), 'example:E1');
  assert.equal(activePreset(defaults(), presets), '');
  const gpt2 = presets.find((p) => p.value === 'model:GPT-2 (small)');
  const state = withChanges(defaults(), gpt2.changes);
  assert.equal(activePreset(state, presets), 'example:E1', 'the same sizes as E1 (and BERT-Base), listed first');
  assert.equal(activePreset(state, presets, 'model:GPT-2 (small)'), 'model:GPT-2 (small)');
});
