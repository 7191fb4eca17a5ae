// The exercises: predict, then reveal. Each is made from the lesson's worked examples, practice problems
// and quiz, with its numbers taken from the live layer where they can be (a learner who changes the layer
// gets a new exercise). Nothing here computes an answer: an exercise names the core calls that give it
// (`calls`, run by features/exercises/handler.js in the compute worker) and reads the answer out of their
// results; its reveal explains with those numbers and names the usual misconception.
//
// An exercise: { id, chapter, kind, setup({ state, config }) → { params, prompt, calls, choices?, grid?,
// tolerance? }, reveal(params, results) → { expected, accept?, explanation } }. `accept` (cells only): every
// key that carries the row's largest weight. Ids are stable (web/EMBED.md lists them): never rename one.

import * as fmt from '../../model/format.js';
import { labelsFor } from '../../model/inputs.js';

const shape = (list) => list.join('×');
const word = (labels, i) => (labels ? `“${labels[i]}” (${i})` : `${i}`);
const list = (xs, digits = 3) => xs.map((x) => fmt.num(x, digits)).join(', ');

/** The words of batch item `item` of the live layer (null for random or task inputs). */
function wordsOf(config, which = 'q', item = 0) {
  const tokens = which === 'q' ? config.tokens_q : (config.cross ? config.tokens_kv : config.tokens_q);
  return tokens?.[item] ? labelsFor(tokens[item], which === 'q' ? config.n_q : config.n_k) : null;
}

/** Words for a layer built for an exercise: the live sentence, else neutral placeholders. */
function sentenceOf(config, n) {
  const words = wordsOf(config, 'q');
  return words && words.length === n ? words : Array.from({ length: n }, (_, i) => `w${i}`);
}

/** attn.analyze's arguments for the live layer's sizes. */
function analyzeArgs(c, extra = {}) {
  const base = { d_model: c.d_model, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads, d_k: c.d_k, d_v: c.d_v, bias: c.bias, batch: c.batch };
  return { ...base, ...(c.cross ? { attention: 'cross', n_q: c.n_q, n_k: c.n_k } : { n_q: c.n_q }), need_weights: true, ...extra };
}

/** The keys of a weight row that carry its largest weight (ties within 1e-6 all count). */
function strongest(weights) {
  let best = -Infinity;
  for (const w of weights) if (w > best) best = w;
  return weights.map((w, j) => (w >= best - 1e-6 ? j : -1)).filter((j) => j >= 0);
}

/** The keys a row of the core's mask grid leaves visible (0 = visible). */
function visible(grid, row, cols) {
  const out = [];
  for (let j = 0; j < cols; j++) if (!grid[row * cols + j]) out.push(j);
  return out;
}

/** The head shown enlarged (the learner's choice) and what it was built to do. */
function shownHead(state, config) {
  const head = Math.min(Number(state.head) || 0, config.n_heads - 1);
  return { head, pattern: config.heads?.[head] ?? 'random' };
}

const PATTERN_WORDS = {
  previous: 'built to look at the previous token', same_word: 'built to look at other occurrences of the same word',
  first_token: 'built to look at the first token', uniform: 'built to spread its weight evenly', random: 'random (seeded), not built for anything',
};

/** The lab's settings of the live state, or the lab's defaults where a field is not a usable number. */
function labSettings(state, task) {
  const pick = (key, def, lo, hi) => {
    const n = Number(state[key]);
    return Number.isInteger(n) && n >= lo && n <= hi ? n : def;
  };
  return { task, d_model: pick('train_d_model', 32, 4, 64), n_heads: pick('train_n_heads', 2, 1, 8), seq_len: pick('train_seq_len', 8, 4, 16), seed: pick('train_seed', 1, 0, 2 ** 31 - 1) };
}

export const EXERCISES = Object.freeze([
  // ---- attention: scaled dot-product attention ----
  {
    id: 'attention.causal-row', chapter: 'attention', kind: 'number',
    setup({ config: c }) {
      const i = Math.min(3, c.n_q - 1), labels = wordsOf(c, 'q');
      return {
        params: { i, n_q: c.n_q, n_k: c.n_k, labels, item: 0 },
        prompt: `With a causal mask on this layer (${c.n_q} queries, ${c.n_k} keys), how many keys can query ${word(labels, i)} give a non-zero weight to?`,
        tolerance: {},
        calls: [{ op: 'maskGrid', args: { mask: 'causal', n_q: c.n_q, n_k: c.n_k } },
          { op: 'trace', args: { config: c, item: 0, head: 0, query_index: i, mask: 'causal' } }],
      };
    },
    reveal({ i, n_k }, [grid, trace]) {
      const seen = visible(grid, i, n_k);
      return {
        expected: seen.length,
        explanation: `A causal mask lets query ${i} see keys 0…${i}: ${seen.length} keys, its own position included. The core sets the later keys' scores to −∞ before the softmax, ` +
          `so in head 1 their weights are exactly 0 and the visible ones (${list(seen.map((j) => trace.weights[j]))}) still add up to 1. ` +
          'Usual mistakes: leaving out the query itself (j ≤ i, not j < i), or thinking the mask zeroes weights after the softmax, which would leave a row summing to less than 1.',
      };
    },
  },
  {
    id: 'attention.strongest-key', chapter: 'attention', kind: 'cell',
    setup({ state, config: c }) {
      const { head, pattern } = shownHead(state, c);
      const item = Math.min(c.item ?? 0, c.batch - 1), i = Math.min(2, c.n_q - 1);
      const labels_q = wordsOf(c, 'q', item), labels_k = wordsOf(c, 'k', item);
      return {
        params: { head, pattern, item, i, labels_k },
        prompt: `Head ${head + 1} of this layer is ${PATTERN_WORDS[pattern] ?? pattern}. Which key will query ${word(labels_q, i)} attend to most? Pick the cell in its row.`,
        grid: { rows: c.n_q, cols: c.n_k, row: i, labels_q, labels_k },
        calls: [{ op: 'trace', args: { config: c, item, head, query_index: i } }],
      };
    },
    reveal({ head, pattern, i, labels_k }, [trace]) {
      const best = strongest(trace.weights);
      return {
        expected: best[0], accept: best, weights: trace.weights,
        explanation: `The core's row for query ${i} in head ${head + 1}: the largest weight, ${fmt.num(trace.weights[best[0]], 3)}, is on key ${word(labels_k, best[0])}` +
          `${best.length > 1 ? ` (tied with ${best.slice(1).map((j) => word(labels_k, j)).join(', ')})` : ''}, whose scaled score q·k/√d_k = ${fmt.num(trace.logits[best[0]], 3)} is the row's highest. ` +
          (pattern === 'random' ? 'This head is random, so no rule predicts it: only the scores do. ' : '') +
          'Usual mistake: expecting a query to attend most to itself or to a word that looks related; the weight follows q·k, which the learnt (or built) Wᴽ and Wᴷ decide.',
      };
    },
  },
  {
    id: 'attention.uniform', chapter: 'attention', kind: 'number',
    setup({ state, config: c }) {
      const n = c.n_k;
      return {
        params: { n },
        prompt: `A head whose Wᴽ is all zeros gives every score of a row the same value, 0. With ${n} keys and no mask, what weight does each key get?`,
        tolerance: { abs: 0.001 },
        calls: [{ op: 'patternTrace', args: { d_model: c.d_model, n_heads: c.n_heads, pattern: 'uniform', words: sentenceOf(c, n), input_seed: Number(state.input_seed) || 1, query_index: 0 } }],
      };
    },
    reveal({ n }, [trace]) {
      return {
        expected: trace.weights[0],
        explanation: `The core's row: every one of the ${n} weights is ${fmt.num(trace.weights[0], 5)}. A score of 0 becomes e⁰ = 1 before the normalisation, so equal scores share the weight equally. ` +
          'Usual mistake: reading a score of 0 as a weight of 0; only a score of −∞ (a mask) gives a weight of 0.',
      };
    },
  },
  {
    id: 'attention.cross-qkv', chapter: 'attention', kind: 'choice',
    setup({ config: c }) {
      const n_q = c.n_q, n_k = c.cross ? c.n_k : c.n_q + 3;
      return {
        params: { n_q, n_k },
        prompt: `In cross-attention (a decoder of ${n_q} tokens reading an encoder's output of ${n_k} tokens), where do Q, K and V come from?`,
        choices: [
          { key: 'q-decoder', label: 'Q from the decoder; K and V from the encoder' },
          { key: 'q-encoder', label: 'Q from the encoder; K and V from the decoder' },
          { key: 'all-decoder', label: 'Q, K and V all from the decoder' },
          { key: 'qk-encoder', label: 'Q and K from the encoder; V from the decoder' },
        ],
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads, d_k: c.d_k, d_v: c.d_v, attention: 'cross', n_q, n_k } }],
      };
    },
    reveal({ n_q, n_k }, [a]) {
      const rows = (name) => a.shapes.find((s) => s.name.startsWith(name)).dims[1];
      const q = rows('query input'), k = rows('key input'), v = rows('value input');
      const fromDecoder = q === n_q && k === n_k && v === n_k;
      return {
        expected: fromDecoder ? 'q-decoder' : 'all-decoder',
        explanation: `The core's shapes for this cross-attention: the query input has ${q} rows (the decoder's tokens), the key and value inputs ${k} and ${v} rows (the encoder's), ` +
          `so the weights are ${n_q}×${n_k}: each decoder position asks the whole source. ` +
          'Usual mistake: taking K from the decoder because K and Q are multiplied together; K and V always come from the sequence being read.',
      };
    },
  },

  // ---- scaling: why √d_k ----
  {
    id: 'scaling.variance-unscaled', chapter: 'scaling', kind: 'number',
    setup({ config: c }) {
      return {
        params: { d_k: c.d_k },
        prompt: `q and k have d_k = ${c.d_k} independent components, each of mean 0 and variance 1. What is the variance of q·k (no scale)?`,
        tolerance: { rel: 0.15 },
        calls: [{ op: 'sqrtDkStats', args: { d_k: c.d_k, n_k: 16, samples: 4000, seed: 1 } }],
      };
    },
    reveal({ d_k }, [s]) {
      return {
        expected: s.dot_variance,
        explanation: `Over ${fmt.int(s.samples)} sampled pairs the core measures a variance of ${fmt.num(s.dot_variance, 2)}: about d_k = ${d_k}, because q·k adds ${d_k} products of variance 1. ` +
          `Rows of such scores are sharp: the largest weight averages ${fmt.num(s.max_weight_unscaled, 2)} unscaled against ${fmt.num(s.max_weight_scaled, 2)} scaled. ` +
          'Usual mistake: answering 1 (the variance of one component) or √d_k (the standard deviation).',
      };
    },
  },
  {
    id: 'scaling.variance-scaled', chapter: 'scaling', kind: 'number',
    setup({ config: c }) {
      return {
        params: { d_k: c.d_k },
        prompt: `The same q·k with d_k = ${c.d_k}, divided by √d_k as attention does: what is its variance now?`,
        tolerance: { abs: 0.15 },
        calls: [{ op: 'sqrtDkStats', args: { d_k: c.d_k, n_k: 16, samples: 4000, seed: 1 } }],
      };
    },
    reveal({ d_k }, [s]) {
      return {
        expected: s.scaled_variance,
        explanation: `The core measures ${fmt.num(s.scaled_variance, 3)} (unscaled: ${fmt.num(s.dot_variance, 1)}). Dividing by √d_k divides the variance by d_k, so it is about 1 whatever d_k is, ` +
          `and the softmax keeps an entropy of ${fmt.num(s.entropy_scaled, 2)} nats (unscaled: ${fmt.num(s.entropy_unscaled, 2)}; uniform: ${fmt.num(s.max_entropy, 2)}). ` +
          `Usual mistake: thinking the scale divides the variance by √d_k (giving √${d_k}); a factor inside a variance counts squared.`,
      };
    },
  },
  {
    id: 'scaling.gradient', chapter: 'scaling', kind: 'choice',
    setup({ config: c }) {
      const small = c.d_k < 512 ? c.d_k : 16;
      return {
        params: { small },
        prompt: 'At d_k = 512, without dividing by √d_k, what happens to the gradient that reaches the scores at initialisation?',
        choices: [
          { key: 'vanishes', label: 'It becomes tiny: most rows saturate and let almost nothing through' },
          { key: 'explodes', label: 'It grows with d_k, as the scores do' },
          { key: 'same', label: 'It stays about as large as with the scale' },
          { key: 'nan', label: 'It becomes NaN' },
        ],
        calls: [{ op: 'sqrtDkGradients', args: { d_k_values: [small, 512], n_k: 64, samples: 64, seed: 1 } }],
      };
    },
    reveal({ small }, [g]) {
      const [lo, hi] = g.rows;
      const u = hi.unscaled.score_grad_median, s = hi.scaled.score_grad_median;
      const expected = !Number.isFinite(u) ? 'nan' : u * 10 < s ? 'vanishes' : u > s * 10 ? 'explodes' : 'same';
      return {
        expected,
        explanation: `The core's backward pass: the typical row's ‖∂L/∂S‖ is ${fmt.num(u, 6)} unscaled at d_k = 512 against ${fmt.num(s, 3)} scaled ` +
          `(at d_k = ${small}: ${fmt.num(lo.unscaled.score_grad_median, 3)} unscaled). ${fmt.percent(hi.unscaled.saturated_share)} of the unscaled rows are nearly one-hot, ` +
          'and a softmax row that is one-hot passes almost no gradient back. Usual mistake: expecting larger scores to give larger gradients; the softmax saturates instead.',
      };
    },
  },

  // ---- heads: multi-head attention ----
  {
    id: 'heads.d_k', chapter: 'heads', kind: 'number',
    setup({ state, config: c }) {
      const live = state.d_k === '' && state.d_v === '';
      const d_model = live ? c.d_model : 1024, n_heads = live ? c.n_heads : 16;
      return {
        params: { d_model, n_heads },
        prompt: `d_model = ${fmt.int(d_model)} and h = ${n_heads} heads, with d_k left to its default. What is d_k?`,
        tolerance: {},
        calls: [{ op: 'resolveView', args: { d_model, n_heads, n_q: 1 } }],
      };
    },
    reveal({ d_model, n_heads }, [view]) {
      const d_k = view.dims.d_k;
      return {
        expected: d_k,
        explanation: `The core resolves d_k = ${d_k}: the ${n_heads} heads split the model's width, and ${n_heads} heads of ${d_k} columns fill d_model = ${fmt.int(d_model)} again when concatenated. ` +
          'Usual mistake: giving each head the full d_model, which would multiply the parameters and FLOPs by h.',
      };
    },
  },
  {
    id: 'heads.concat-shape', chapter: 'heads', kind: 'shape',
    setup({ config: c }) {
      return {
        params: {},
        prompt: `This layer: batch ${c.batch}, n_q = ${c.n_q}, ${c.n_heads} heads of d_v = ${c.d_v}. What is the shape of Concat(head_1, …, head_h), as batch × n_q × width?`,
        calls: [{ op: 'analyze', args: analyzeArgs(c) }],
      };
    },
    reveal(_, [a]) {
      const concat = a.shapes.find((s) => s.name.startsWith('Concat')), heads = a.shapes.find((s) => s.name.startsWith('head_i'));
      return {
        expected: concat.dims,
        explanation: `The core's shape trace: the heads are ${shape(heads.dims)} (batch × h × n_q × d_v) and Concat is ${shape(concat.dims)}: ` +
          'the heads are laid side by side along the feature axis, which Wᴼ then maps back to d_model. Usual mistake: stacking the heads as a new axis of length h.',
      };
    },
  },
  {
    id: 'heads.previous-token', chapter: 'heads', kind: 'cell',
    setup({ state, config: c }) {
      const n = c.n_q, i = Math.min(3, n - 1), words = sentenceOf(c, n);
      return {
        params: { i, words },
        prompt: `A head is built to look at the previous token (on this sentence). Which key will query ${word(words, i)} attend to most?`,
        grid: { rows: n, cols: n, row: i, labels_q: words, labels_k: words },
        calls: [{ op: 'patternTrace', args: { d_model: c.d_model, n_heads: c.n_heads, pattern: 'previous', words, input_seed: Number(state.input_seed) || 1, query_index: i } }],
      };
    },
    reveal({ i, words }, [trace]) {
      const best = strongest(trace.weights);
      return {
        expected: best[0], accept: best, weights: trace.weights,
        explanation: `The core's row for query ${i}: ${fmt.num(trace.weights[best[0]], 3)} of the weight is on key ${word(words, best[0])}. ` +
          'A previous-token head matches each query with the key one position back, whatever the words are. Usual mistakes: picking the query itself, or the next token (attention has no direction of its own; the head was built to look back).',
      };
    },
  },

  // ---- cost: parameters, FLOPs, memory ----
  {
    id: 'cost.params-nobias', chapter: 'cost', kind: 'number',
    setup({ config: c }) {
      return {
        params: { d_model: c.d_model, n_heads: c.n_heads },
        prompt: `How many parameters does this layer have without biases (d_model = ${fmt.int(c.d_model)}, ${c.n_heads} heads, d_k = ${c.d_k}, d_v = ${c.d_v}, one key/value head per query head)?`,
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, bias: false, n: 1 } }],
      };
    },
    reveal({ n_heads }, [a]) {
      const p = a.params;
      return {
        expected: p.total,
        explanation: `The core counts Wᴽ ${fmt.int(p.w_q)}, Wᴷ ${fmt.int(p.w_k)}, Wⱽ ${fmt.int(p.w_v)} and Wᴼ ${fmt.int(p.w_o)}: ${fmt.int(p.total)} in all (4·d_model² when d_k = d_v = d_model/h). ` +
          `Usual mistake: multiplying by the ${n_heads} heads; each head has only a d_model×d_k slice, so the heads share out the same parameters.`,
      };
    },
  },
  {
    id: 'cost.params-bias', chapter: 'cost', kind: 'number',
    setup({ config: c }) {
      return {
        params: {},
        prompt: `The same layer with biases (d_model = ${fmt.int(c.d_model)}, ${c.n_heads} heads, d_k = ${c.d_k}, d_v = ${c.d_v}): how many parameters?`,
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, bias: true, n: 1 } }],
      };
    },
    reveal(_, [a]) {
      const p = a.params;
      return {
        expected: p.total,
        explanation: `The core: ${fmt.int(p.weights)} weights plus ${fmt.int(p.biases)} biases (bᴽ ${fmt.int(p.b_q)}, bᴷ ${fmt.int(p.b_k)}, bⱽ ${fmt.int(p.b_v)}, bᴼ ${fmt.int(p.b_o)}) = ${fmt.int(p.total)}. ` +
          'Usual mistake: counting a bias per weight; a bias is one vector per output, so the biases add 4·d_model, not 4·d_model².',
      };
    },
  },
  {
    id: 'cost.dominant', chapter: 'cost', kind: 'choice',
    setup({ config: c }) {
      return {
        params: { n: c.n_q, d: c.d_model },
        prompt: `For n = ${fmt.int(c.n_q)} tokens and d = ${fmt.int(c.d_model)}, which term dominates the lesson's FLOP count of one attention layer?`,
        choices: [
          { key: 'projections', label: 'The projections (about n·d²)' },
          { key: 'attention', label: 'The attention matrix: scores and weighted sum (about n²·d)' },
          { key: 'softmax', label: 'The softmax (about n²)' },
        ],
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, n: c.n_q } }],
      };
    },
    reveal(_, [a]) {
      const f = a.flops, l = f.lesson;
      return {
        expected: f.projections_dominate_lesson ? 'projections' : 'attention',
        explanation: `The core's count: projections ${fmt.short(l.projections)}, scores ${fmt.short(l.scores)}, weighted sum ${fmt.short(l.weighted_sum)}, softmax ${fmt.short(l.softmax)}. ${f.dominant_reason}. ` +
          'Usual mistake: assuming attention is always the expensive part; it is quadratic in n, but below n = d the projections cost more.',
      };
    },
  },
  {
    id: 'cost.attention-shape', chapter: 'cost', kind: 'shape',
    setup({ config: c }) {
      return {
        params: {},
        prompt: `One pass of this layer with batch ${c.batch}, ${c.n_heads} heads, ${c.n_q} queries and ${c.n_k} keys: what is the shape of all its attention weights A, as batch × heads × n_q × n_k?`,
        calls: [{ op: 'analyze', args: analyzeArgs(c) }],
      };
    },
    reveal(_, [a]) {
      const A = a.shapes.find((s) => s.name.startsWith('A_i')).dims;
      return {
        expected: A,
        explanation: `The core's shape trace: A is ${shape(A)}, one ${A[2]}×${A[3]} matrix for each of the ${A[1]} heads of each of the ${A[0]} batch items. ` +
          'Usual mistake: counting one matrix per layer; every head of every batch item has its own.',
      };
    },
  },
  {
    id: 'cost.attention-bytes', chapter: 'cost', kind: 'number',
    setup({ config: c }) {
      return {
        params: {},
        prompt: `How many bytes do all the attention weights of that pass take in float32 (batch ${c.batch}, ${c.n_heads} heads, ${c.n_q}×${c.n_k} each)?`,
        tolerance: {},
        calls: [{ op: 'analyze', args: analyzeArgs(c) }],
      };
    },
    reveal(_, [a]) {
      const A = a.shapes.find((s) => s.name.startsWith('A_i')).dims;
      return {
        expected: a.attention_weight_bytes,
        explanation: `The core: ${shape(A)} weights of 4 bytes each = ${fmt.bytes(a.attention_weight_bytes)}. (The lesson's P4: 8 heads × 32 items of 128×128 = 16.8 MB.) ` +
          'Usual mistakes: forgetting the batch or the heads, or counting one byte per weight.',
      };
    },
  },

  // ---- gqa: MHA, GQA, MQA and the K/V cache ----
  {
    id: 'gqa.kv-head-of', chapter: 'gqa', kind: 'number',
    setup({ config: c }) {
      const live = c.n_kv_heads > 1 && c.n_kv_heads !== c.n_heads;
      const n_heads = live ? c.n_heads : 8, n_kv_heads = live ? c.n_kv_heads : 2, d_model = live ? c.d_model : 64;
      const head = n_heads - 2; // its key/value head differs from head mod n_kv_heads, the usual wrong rule, for any grouping
      return {
        params: { n_heads, n_kv_heads, head },
        // Heads are counted from 1 here, as on the maps and in the query heads → key/value heads table.
        prompt: `${n_heads} query heads share ${n_kv_heads} key/value heads, heads counted from 1. Which key/value head does query head ${head + 1} read?`,
        tolerance: {},
        calls: [{ op: 'resolveView', args: { d_model, n_heads, n_kv_heads, n_q: 1 } }],
      };
    },
    reveal({ n_kv_heads, head }, [view]) {
      const of = view.dims.kv_head_of.map((g) => g + 1); // the core counts from 0
      return {
        expected: of[head],
        explanation: `The core's mapping: query heads 1, 2, … → key/value heads ${of.join(', ')}. Query head ${head + 1} reads key/value head ${of[head]}: consecutive query heads form a group, ` +
          `${n_kv_heads} groups in all. Usual mistake: dealing the query heads out in turn (head mod n_kv_heads), which is not how the weights are laid out.`,
      };
    },
  },
  {
    id: 'gqa.cache-per-token', chapter: 'gqa', kind: 'number',
    setup({ config: c }) {
      return {
        params: {},
        prompt: `A decoder keeps K and V of every past token. For this layer (n_kv_heads = ${c.n_kv_heads}, d_k = ${c.d_k}, d_v = ${c.d_v}, float32), how many bytes does one token add to the cache?`,
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads, d_k: c.d_k, d_v: c.d_v, n: 1 } }],
      };
    },
    reveal(_, [a]) {
      const kv = a.kv_cache;
      return {
        expected: kv.bytes_per_token,
        explanation: `The core: ${fmt.int(kv.numbers_per_token)} numbers per token (n_kv_heads·(d_k + d_v)), ${fmt.bytes(kv.bytes_per_token)}` +
          `${kv.saved_bytes ? `; with one key/value head per query head it would be ${fmt.bytes(kv.mha_bytes_per_token)}` : ''}. ` +
          'Usual mistakes: caching only K (V is needed too), counting the query heads, or caching the queries, which are never reused.',
      };
    },
  },
  {
    id: 'gqa.preset-saving', chapter: 'gqa', kind: 'number',
    setup() {
      return {
        params: { preset: 'LLaMA-70B' },
        prompt: 'LLaMA-70B lets its 64 query heads share 8 key/value heads. How many times smaller is its K/V cache than the same model with 64 key/value heads?',
        tolerance: {},
        calls: [{ op: 'modelPresets', args: {} }],
      };
    },
    reveal({ preset }, [presets]) {
      const m = presets.find((p) => p.name === preset), kv = m.kv_cache_per_token;
      return {
        expected: kv.ratio,
        explanation: `The core: ${fmt.int(kv.numbers_per_token)} numbers per token over its ${m.n_layers} layers (${fmt.bytes(kv.bytes_per_token)}), against ${fmt.bytes(kv.mha_bytes_per_token)} with multi-head attention: ${kv.ratio}× less. ` +
          'Usual mistake: expecting the FLOPs or the maps to shrink as much; every query head still computes its own scores, only K, V and their cache are shared.',
      };
    },
  },

  // ---- positions: sinusoidal encoding ----
  {
    id: 'positions.range', chapter: 'positions', kind: 'choice',
    setup({ config: c }) {
      const n = Math.max(c.n_q, 16);
      return {
        params: { n, d_model: c.d_model },
        prompt: `The sinusoidal encoding of ${n} positions at d_model = ${fmt.int(c.d_model)}: which range holds every value?`,
        choices: [
          { key: 'unit', label: 'Between −1 and 1' },
          { key: 'grows', label: 'It grows with the position' },
          { key: 'positive', label: 'Between 0 and 1' },
          { key: 'd_model', label: 'Between −d_model and d_model' },
        ],
        calls: [{ op: 'positionalProperties', args: { n, d_model: c.d_model, k: 1 } }],
      };
    },
    reveal({ n }, [p]) {
      return {
        expected: p.max_abs <= 1 + 1e-6 ? 'unit' : 'grows',
        explanation: `The core's table: the largest |value| over ${n} positions is ${fmt.num(p.max_abs, 4)}, and the closest two positions are still ${fmt.num(p.min_distance, 3)} apart. ` +
          'Every value is a sine or a cosine, so it stays in [−1, 1] however long the sequence. Usual mistake: thinking a position is added as a growing number, which would swamp the word embedding.',
      };
    },
  },
  {
    id: 'positions.zero', chapter: 'positions', kind: 'number',
    setup({ config: c }) {
      return {
        params: { d_model: c.d_model },
        prompt: 'What is PE(0, 1): position 0, dimension 1 (a cosine) of the sinusoidal encoding?',
        tolerance: { abs: 0.001 },
        calls: [{ op: 'positionalEncoding', args: { n: 1, d_model: c.d_model } }],
      };
    },
    reveal(_, [pe]) {
      return {
        expected: pe[1],
        explanation: `The core's first row starts ${list(Array.from(pe.slice(0, 4)))}: the sines of position 0 are 0 and its cosines are cos 0 = ${fmt.num(pe[1], 4)}. ` +
          'Usual mistake: expecting position 0 to be the zero vector; only its even (sine) dimensions are 0.',
      };
    },
  },
  {
    id: 'positions.shift', chapter: 'positions', kind: 'choice',
    setup({ config: c }) {
      const n = Math.max(c.n_q, 16);
      return {
        params: { n, k: 2 },
        prompt: 'How is PE(pos + 2) related to PE(pos)?',
        choices: [
          { key: 'rotation', label: 'The same linear map for every pos: a rotation of each sine/cosine pair' },
          { key: 'unrelated', label: 'There is no fixed relation; each position is independent' },
          { key: 'scaled', label: 'It is PE(pos) multiplied by a number' },
          { key: 'depends', label: 'A linear map that changes with pos' },
        ],
        calls: [{ op: 'positionalProperties', args: { n, d_model: c.d_model, k: 2 } }],
      };
    },
    reveal({ n, k }, [p]) {
      return {
        expected: p.rotation_max_error < 1e-4 ? 'rotation' : 'depends',
        explanation: `The core rotates each pair (sin, cos) of PE(pos) by ω·${k} and finds PE(pos + ${k}) within ${fmt.num(p.rotation_max_error, 9)} over ${n} positions: ` +
          'one block-diagonal rotation, the same at every position, which is what lets attention find "k tokens back". Usual mistake: thinking the relation depends on where you are.',
      };
    },
  },

  // ---- training: the training lab ----
  {
    id: 'training.start-loss', chapter: 'training', kind: 'number',
    setup({ state }) {
      const lab = labSettings(state, ['copy_previous', 'copy_first', 'reverse', 'lookup', 'two_relation'].includes(state.train_task) ? state.train_task : 'copy_previous');
      return {
        params: lab,
        prompt: `A fresh lab model (task ${lab.task}, d_model ${lab.d_model}, ${lab.n_heads} heads, 16 possible tokens, no training yet) predicts each token. About what cross-entropy loss (in nats) will it show?`,
        tolerance: { rel: 0.15 },
        calls: [{ op: 'trainEval', args: { ...lab, steps: 0, samples: 200 } }],
      };
    },
    reveal(lab, [t]) {
      return {
        expected: t.before.loss,
        explanation: `The core evaluates the untrained model at ${fmt.num(t.before.loss, 3)} nats with ${fmt.percent(t.before.accuracy)} accuracy: it guesses nearly uniformly among ${t.classes} tokens, ` +
          `whose loss is ln ${t.classes} ≈ 2.77. Usual mistake: expecting a loss of 0 or 1 before training; 0 is a perfect model, and a loss is not a probability.`,
      };
    },
  },
  {
    id: 'training.focus', chapter: 'training', kind: 'choice',
    setup({ state }) {
      const lab = labSettings(state, state.train_task === 'copy_first' ? 'copy_first' : 'copy_previous');
      return {
        params: lab,
        prompt: `Train the lab on ${lab.task} (copy the ${lab.task === 'copy_first' ? 'first' : 'previous'} token) for 150 steps. Where will the heads put most of their weight?`,
        choices: [
          { key: 'previous', label: 'On the previous token' },
          { key: 'first', label: 'On the first token' },
          { key: 'self', label: 'On the token itself' },
          { key: 'uniform', label: 'Spread evenly: one layer cannot learn positions' },
        ],
        calls: [{ op: 'trainEval', args: { ...lab, steps: 150, samples: 200 } }],
      };
    },
    reveal(lab, [t]) {
      const relation = Object.keys(t.after.focus[0])[0];
      const after = t.after.focus.map((f) => f[relation]), before = t.before.focus.map((f) => f[relation]);
      const learnt = after.some((w) => w > 0.5);
      return {
        expected: learnt ? relation : 'uniform',
        explanation: `The core trained 150 steps: the heads' mean weight on the ${relation} token went from ${list(before, 2)} to ${list(after, 2)}, and accuracy from ${fmt.percent(t.before.accuracy)} to ${fmt.percent(t.after.accuracy)}. ` +
          'The task can be solved only by reading that position, and the positional encoding lets a head find it. Usual mistake: expecting attention to need words in common; it learns positions too.',
      };
    },
  },

  // ---- efficient: memory and work as n grows ----
  {
    id: 'efficient.memory-double', chapter: 'efficient', kind: 'number',
    setup({ config: c }) {
      const n = c.n_q;
      return {
        params: { n },
        prompt: `This layer's attention weights (batch ${c.batch}, ${c.n_heads} heads, float32) at n = ${fmt.int(n)} queries and keys. How many bytes do they take at n = ${fmt.int(2 * n)}?`,
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, batch: c.batch, n, need_weights: true } },
          { op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, batch: c.batch, n: 2 * n, need_weights: true } }],
      };
    },
    reveal({ n }, [a, b]) {
      return {
        expected: b.attention_weight_bytes,
        explanation: `The core: ${fmt.bytes(a.attention_weight_bytes)} at n = ${fmt.int(n)}, ${fmt.bytes(b.attention_weight_bytes)} at n = ${fmt.int(2 * n)}. ` +
          'Each matrix is n×n, so doubling n makes it four times larger. Usual mistake: doubling the bytes; that is what K, V and the output do, not the attention matrix.',
      };
    },
  },
  {
    id: 'efficient.weights-off', chapter: 'efficient', kind: 'number',
    setup({ config: c }) {
      const n = Math.max(c.n_q, 1024);
      return {
        params: { n },
        prompt: `At n = ${fmt.int(n)} with need_weights off (the engine streams over keys), how many bytes does one pass of this layer hold for the n×n attention weights?`,
        tolerance: {},
        calls: [{ op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, batch: c.batch, n, need_weights: false } },
          { op: 'analyze', args: { d_model: c.d_model, n_heads: c.n_heads, d_k: c.d_k, d_v: c.d_v, batch: c.batch, n, need_weights: true } }],
      };
    },
    reveal({ n }, [off, on]) {
      return {
        expected: off.memory.weights,
        explanation: `The core's memory plan: ${fmt.bytes(off.memory.weights)} for the weights with need_weights off (pass total ${fmt.bytes(off.memory.total)}), ` +
          `against ${fmt.bytes(on.memory.weights)} with it on (total ${fmt.bytes(on.memory.total)}). It takes a few rows of scores at a time and keeps a running softmax, so no n×n matrix exists. ` +
          'Usual mistake: thinking attention must materialise the whole matrix; only returning it does.',
      };
    },
  },
  {
    id: 'efficient.flash-same', chapter: 'efficient', kind: 'choice',
    setup({ config: c }) {
      const n = Math.min(c.n_q, 256), d_k = Math.min(c.d_k, 256); // the core runs both on random inputs: kept small
      return {
        params: { n, d_k },
        prompt: `FlashAttention never holds the ${n}×${n} matrix: it takes the keys in blocks of 4 and keeps a running softmax (a running maximum, sum and output). Compared with standard attention on the same q, k and v (d_k = ${d_k}), its output is:`,
        choices: [
          { key: 'same', label: 'The same, up to float rounding' },
          { key: 'approx', label: 'An approximation that gets better with larger blocks' },
          { key: 'top', label: 'The output of the largest weights only' },
        ],
        calls: [{ op: 'flashVsStandard', args: { n, d_k, block: 4, seed: 1 } }],
      };
    },
    reveal({ n }, [f]) {
      return {
        expected: f.max_difference < 1e-4 ? 'same' : 'approx',
        explanation: `The core ran both on the same random inputs: ${f.key_blocks} key blocks per query block, and the outputs differ by at most ${fmt.num(f.max_difference, 9)}. ` +
          'Each new block rescales what was summed so far by e^(m_old − m_new), so after the last block the result is exactly softmax(S)·V; only the order of the work changed. ' +
          'Usual mistake: taking FlashAttention for an approximation, like sparse or linear attention; it saves memory traffic, not accuracy.',
      };
    },
  },
  {
    id: 'efficient.linear-crossover', chapter: 'efficient', kind: 'choice',
    setup({ config: c }) {
      return {
        params: { n: c.n_q, d_k: c.d_k, d_v: c.d_v },
        prompt: `Linear attention (φ(q)ᵀ·Σ φ(k)·vᵀ) costs about n·d_k·d_v, softmax attention about n²·d. For n = ${fmt.int(c.n_q)}, d_k = ${c.d_k} and d_v = ${c.d_v}, which needs fewer FLOPs?`,
        choices: [
          { key: 'linear', label: 'Linear attention' },
          { key: 'softmax', label: 'Softmax attention' },
        ],
        calls: [{ op: 'linearAttentionCost', args: { n: c.n_q, d_k: c.d_k, d_v: c.d_v } }],
      };
    },
    reveal({ n }, [cost]) {
      return {
        expected: cost.linear.total < cost.softmax.total ? 'linear' : 'softmax',
        explanation: `The core counts ${fmt.int(cost.softmax.total)} FLOPs for softmax attention and ${fmt.int(cost.linear.total)} for linear attention at n = ${fmt.int(n)}; ` +
          `linear attention wins from n = ${fmt.int(cost.crossover_n)} on. Usual mistake: taking linear attention as always cheaper; below about n = d it is not, and its output is not softmax attention's either.`,
      };
    },
  },
  {
    id: 'efficient.kv-step', chapter: 'efficient', kind: 'number',
    setup({ config: c }) {
      const t = c.n_q;
      return {
        params: { t },
        prompt: `Decoding with a K/V cache: ${t} tokens are cached, and a new token arrives. Its query attends to how many keys?`,
        tolerance: {},
        calls: [{ op: 'maskGrid', args: { mask: 'causal', n_q: t + 1, n_k: t + 1 } },
          { op: 'decodeCost', args: { d_model: c.d_model, n_heads: c.n_heads, n_kv_heads: c.n_kv_heads, d_k: c.d_k, d_v: c.d_v, t: t + 1 } }],
      };
    },
    reveal({ t }, [grid, cost]) {
      const seen = visible(grid, t, t + 1);
      return {
        expected: seen.length,
        explanation: `The new token is row ${t} of a causal mask over ${t + 1} positions; the core's grid leaves ${seen.length} keys visible: the ${t} cached ones and its own. ` +
          `The earlier rows are not computed again: the core counts ${fmt.int(cost.step_flops)} FLOPs for this step against ${fmt.int(cost.recompute_flops)} to recompute the prefix ` +
          `(${fmt.num(cost.speedup, 1)}× less), and the cache holds ${fmt.bytes(cost.cache_bytes)}. Usual mistake: leaving out the new token's own key, or recomputing the whole prefix.`,
      };
    },
  },
]);
