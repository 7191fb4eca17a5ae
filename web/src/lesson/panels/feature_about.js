// One line per feature on what its panel shows, by id (feature.<name>.about; features/index.js reads them):
// under a folded panel's title (playground/folds.js), in the share builder's panel list and web/EMBED.md's
// panel table. No panel of the first chapter is folded, so these travel with the other chapters' words
// (lesson/chapters/words.js: in panels.js, not in the first view's bundles), which a playground loads
// before it shows another chapter; an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

addText({
  'feature.controls.about':
    'the form: sizes, sentences, mask, scale, dropout, presets',
  'feature.heatmaps.about':
    'every head’s weights, one enlarged with the words on its axes, and the output',
  'feature.query.about':
    'one cell explained: q, k, the dot product, the softmax row, the weighted values, Concat and Wᴼ, with the engine’s numbers',
  'feature.patterns.about':
    'a pattern per head (previous token, same word, first token, uniform, random) and why its weights make it',
  'feature.compare.about':
    'per head entropy, distance and largest weight, the heads’ similarity, and the output change when one is switched off',
  'feature.shapes.about':
    'every tensor of one forward pass with its shape and bytes',
  'feature.cost.about':
    'parameters per matrix, FLOPs per stage, memory against the tab’s budget, the last run',
  'feature.cost_n.about':
    'n from 8 to 8192 tokens: which of n·d² and n²·d dominates, and both plotted against n',
  'feature.cost_heads.about':
    'h = 1 and h = 8 at the same d_model: parameters, multiply-adds, softmax and maps, counted by the core',
  'feature.performance.about':
    'each run against this browser’s SIMD peak and the workers it ran on, and time against n',
  'feature.training.about':
    'a tiny attention model trained step by step: loss and accuracy curves, every head’s map, the learnt layer loaded into the playground',
  'feature.exercises.about':
    'the chapter’s exercises: predict a number, a shape, a choice or the cell a query attends to most, then see the engine’s answer and why',
  'feature.sqrtdk.about':
    'variance of q·k and softmax sharpness with and without the scale',
  'feature.gradients.about':
    'the gradient reaching the scores, measured with the backward pass, as d_k grows, with and without the scale',
  'feature.positional.about':
    'the encoding the sentences use and its measured properties; RoPE and ALiBi on a head’s map, ALiBi’s slopes, RoPE’s logits against i − j',
  'feature.examples.about':
    'E1, E2, E3, P1, P4 computed live and checked against the lesson',
  'feature.models.about':
    'published model sizes analysed, and which fit in a tab',
  'feature.gqa.about':
    'the layer with one, a few shared or a single key/value head: parameters, FLOPs, memory, K/V cache, here and for the model table',
  'feature.kvmap.about':
    'which key/value head each query head reads at the current n_heads and n_kv_heads, as the engine resolves it',
  'feature.flash.about':
    'one query row through the key blocks: running max m, sum ℓ and output o, the rescaling exp(m_old − m_new), block sizes, and slow-memory traffic against standard attention for an on-chip memory M',
  'feature.linear.about':
    'φ(x) = elu(x) + 1 attention beside softmax attention on the same inputs, and their FLOPs with the n where linear attention wins',
  'feature.kvcache.about':
    'the sentence decoded token by token by the core: the cache growing per key/value head, each new row of weights, cache bytes for this layer and whole models, FLOPs of a step against recomputing the prefix',
  'feature.sparse.about':
    'full, sliding-window and strided masks side by side, with the pairs and FLOPs each computes here and at a long sequence',
  'feature.derive.about':
    'one head’s projections, h heads side by side with their maps, Concat and Wᴼ, each equation typeset with the current sizes and its tensors drawn to scale',
  'feature.subspace.about':
    'each head compares queries and keys in its own subspace: one head against two on a task that needs two places at once, trained by the engine',
  'feature.equations.about':
    'the lesson’s formulas typeset, with the current sizes filled in',
  'feature.export.about':
    'the run’s tensors as .npy with view.json and a PyTorch reproduce.py, in a zip',
});
