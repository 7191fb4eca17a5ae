// The words of the cost chapter's one-head-or-eight comparison (features/cost_heads/), by id: lesson/text.js
// serves them (text(id, values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'cost_heads.waiting': 'The comparison appears once the inputs are valid.',
  'cost_heads.lead': 'Two layers with d_model = {d_model} on the run’s n = {n} tokens: one head with d_k = d_model, and {h} heads with d_k = d_model / {h}, counted by the core.',
  'cost_heads.yours':
    'Your layer, n_heads = {h}: {h} heads, each with its own Q_i of n × d_k = {n} × {d_k} and its own {n} × {n_k} map ({maps} maps). Side by side the heads’ Q_i fill one Q of {n} × {qk_width}, its columns cut {h} ways.',
  'cost_heads.open': 'Do 8 heads cost more than one? Predict, then open the counts',
  'cost_heads.row_d_k': 'd_k per head',
  'cost_heads.row_params': 'parameters (4 matrices + biases)',
  'cost_heads.row_macs': 'multiply-adds of the matmuls',
  'cost_heads.row_lesson': 'the lesson’s count (one projection)',
  'cost_heads.row_softmax': 'scale and softmax FLOPs',
  'cost_heads.row_flops': 'all FLOPs',
  'cost_heads.row_maps': 'n × n attention maps',
  'cost_heads.equal':
    'Equal weights ({params}) and equal multiply-adds ({macs}): {h} heads only cut the same matrices into {h} slices, so the lesson’s “h heads cost no more than one” holds.',
  'cost_heads.not_equal': 'These two layers differ in weights or multiply-adds: the core’s counts above say where.',
  'cost_heads.grows':
    'What does grow with h is the number of n × n attention maps, one per head: {maps} instead of {maps1}. Scaling and normalising them costs {extra} more FLOPs, and holding them takes as many more matrices of memory.',
});
