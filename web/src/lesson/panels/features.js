// The features' titles (each panel's heading) and one line on what each shows (the folded panels, the
// panel table of web/EMBED.md), by id: lesson/text.js serves them, an author's or a translator's table
// may replace any of them. features/index.js reads them as feature.<name>.title and feature.<name>.about.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'feature.controls.title': 'Inputs',
  'feature.controls.about':
    'the form: sizes, sentences, mask, scale, dropout, presets',
  'feature.heatmaps.title': 'Attention weights, one map per head',
  'feature.heatmaps.about':
    'every head’s weights, one enlarged with the words on its axes, and the output',
  'feature.query.title': 'Follow one query',
  'feature.query.about':
    'one cell explained: q, k, the dot product, the softmax row, the weighted values, Concat and Wᴼ, with the engine’s numbers',
  'feature.patterns.title': 'Constructed heads',
  'feature.patterns.about':
    'a pattern per head (previous token, same word, first token, uniform, random) and why its weights make it',
  'feature.compare.title': 'Compare heads',
  'feature.compare.about':
    'per head entropy, distance and largest weight, the heads’ similarity, and the output change when one is switched off',
  'feature.shapes.title': 'Shape trace',
  'feature.shapes.about':
    'every tensor of one forward pass with its shape and bytes',
  'feature.cost.title': 'Cost: parameters, FLOPs, memory',
  'feature.cost.about':
    'parameters per matrix, FLOPs per stage, memory against the tab’s budget, the last run',
  'feature.cost_n.title': 'Cost against the sequence length',
  'feature.cost_n.about':
    'n from 8 to 8192 tokens: which of n·d² and n²·d dominates, and both plotted against n',
  'feature.cost_heads.title': 'One head or eight: the same cost',
  'feature.cost_heads.about':
    'h = 1 and h = 8 at the same d_model: parameters, multiply-adds, softmax and maps, counted by the core',
  'feature.performance.title': 'Performance',
  'feature.performance.about':
    'each run against this browser’s SIMD peak and the workers it ran on, and time against n',
  'feature.training.title': 'Training lab: watch heads learn',
  'feature.training.about':
    'a tiny attention model trained step by step: loss and accuracy curves, every head’s map, the learnt layer loaded into the playground',
  'feature.exercises.title': 'Predict, then reveal',
  'feature.exercises.about':
    'the chapter’s exercises: predict a number, a shape, a choice or the cell a query attends to most, then see the engine’s answer and why',
  'feature.sqrtdk.title': 'Why divide by √dₖ?',
  'feature.sqrtdk.about':
    'variance of q·k and softmax sharpness with and without the scale',
  'feature.gradients.title': '√d_k and the gradients',
  'feature.gradients.about':
    'the gradient reaching the scores, measured with the backward pass, as d_k grows, with and without the scale',
  'feature.positional.title': 'Positions: sinusoidal encoding, RoPE, ALiBi',
  'feature.positional.about':
    'the encoding the sentences use and its measured properties; RoPE and ALiBi on a head’s map, ALiBi’s slopes, RoPE’s logits against i − j',
  'feature.examples.title': 'The lesson’s worked examples, recomputed',
  'feature.examples.about':
    'E1, E2, E3, P1, P4 computed live and checked against the lesson',
  'feature.models.title': 'Real models',
  'feature.models.about':
    'published model sizes analysed, and which fit in a tab',
  'feature.gqa.title': 'MHA, GQA, MQA',
  'feature.gqa.about':
    'the layer with one, a few shared or a single key/value head: parameters, FLOPs, memory, K/V cache, here and for the model table',
  'feature.kvmap.title': 'Query heads → key/value heads',
  'feature.kvmap.about':
    'which key/value head each query head reads at the current n_heads and n_kv_heads, as the engine resolves it',
  'feature.flash.title': 'FlashAttention, one tile at a time',
  'feature.flash.about':
    'one query row through the key blocks: running max m, sum ℓ and output o, the rescaling exp(m_old − m_new), block sizes, and slow-memory traffic against standard attention for an on-chip memory M',
  'feature.linear.title': 'Linear attention',
  'feature.linear.about':
    'φ(x) = elu(x) + 1 attention beside softmax attention on the same inputs, and their FLOPs with the n where linear attention wins',
  'feature.kvcache.title': 'Generation and the KV cache',
  'feature.kvcache.about':
    'the sentence decoded token by token by the core: the cache growing per key/value head, each new row of weights, cache bytes for this layer and whole models, FLOPs of a step against recomputing the prefix',
  'feature.sparse.title': 'Sparse attention patterns',
  'feature.sparse.about':
    'full, sliding-window and strided masks side by side, with the pairs and FLOPs each computes here and at a long sequence',
  'feature.derive.title': 'From one head to multi-head attention',
  'feature.derive.about':
    'one head’s projections, h heads side by side with their maps, Concat and Wᴼ, each equation typeset with the current sizes and its tensors drawn to scale',
  'feature.subspace.title': 'Why several heads?',
  'feature.subspace.about':
    'each head compares queries and keys in its own subspace: one head against two on a task that needs two places at once, trained by the engine',
  'feature.equations.title': 'The equations',
  'feature.equations.about':
    'the lesson’s formulas typeset, with the current sizes filled in',
  'feature.export.title': 'Export and import',
  'feature.export.about':
    'the run’s tensors as .npy with view.json and a PyTorch reproduce.py, in a zip',
});
