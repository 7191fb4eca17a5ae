// The words of the shapes panel (features/shapes/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'shapes.shapes_appear_once_inputs': 'Shapes appear once the inputs are valid.',
  'shapes.waiting_engine': 'Waiting for the engine…',
  'shapes.one_big_matrix_product':
    'One big matrix product makes Q for all heads at once ({n_q} × {n_heads_d_k}); ',
  'shapes.splitting_into_heads_only':
    'splitting it into heads is only a reshape, (n, h·d_k) → (h, n, d_k), so no data moves. ',
  'shapes.not_divided_d_k': ' (not divided by √d_k: the scale is off)',
  'shapes.each_head_then_scores': 'Each head then scores its {n_q} queries against {n_k} keys{part}.',
  'shapes.shapes_list_batch_first':
    'Shapes list batch first. With batch = {batch}, h = {n_heads}, d_k = {d_k}, d_v = {d_v}.',
  'shapes.tensor': 'tensor',
  'shapes.shape': 'shape',
  'shapes.bytes_float32': 'bytes (float32)',
});
