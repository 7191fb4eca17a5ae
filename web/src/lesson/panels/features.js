// The features' titles (each panel's heading), by id: lesson/text.js serves them, an author's or a
// translator's table may replace any of them. features/index.js reads them as feature.<name>.title (and
// feature.<name>.about from feature_about.js, which travels with the other chapters' words).
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'feature.controls.title': 'Inputs',
  'feature.heatmaps.title': 'Attention weights, one map per head',
  'feature.query.title': 'Follow one query',
  'feature.patterns.title': 'Constructed heads',
  'feature.compare.title': 'Compare heads',
  'feature.shapes.title': 'Shape trace',
  'feature.cost.title': 'Cost: parameters, FLOPs, memory',
  'feature.cost_n.title': 'Cost against the sequence length',
  'feature.cost_heads.title': 'One head or eight: the same cost',
  'feature.performance.title': 'Performance',
  'feature.training.title': 'Training lab: watch heads learn',
  'feature.exercises.title': 'Predict, then reveal',
  'feature.sqrtdk.title': 'Why divide by √dₖ?',
  'feature.gradients.title': '√d_k and the gradients',
  'feature.positional.title': 'Positions: sinusoidal encoding, RoPE, ALiBi',
  'feature.examples.title': 'The lesson’s worked examples, recomputed',
  'feature.models.title': 'Real models',
  'feature.gqa.title': 'MHA, GQA, MQA',
  'feature.kvmap.title': 'Query heads → key/value heads',
  'feature.flash.title': 'FlashAttention, one tile at a time',
  'feature.linear.title': 'Linear attention',
  'feature.kvcache.title': 'Generation and the KV cache',
  'feature.sparse.title': 'Sparse attention patterns',
  'feature.derive.title': 'From one head to multi-head attention',
  'feature.subspace.title': 'Why several heads?',
  'feature.equations.title': 'The equations',
  'feature.export.title': 'Export and import',
});
