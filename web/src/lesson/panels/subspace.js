// The words of the "why several heads" panel (features/subspace/), by id: lesson/text.js serves them
// (text(id, values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'subspace.argument_1':
    'One head gives each query one row of weights: one mixture of the values. A query that needs two things at once, say the word just before it and the first word, has to split that one row between them, and each answer comes out blurred by the other.',
  'subspace.argument_2':
    'Split d_model into h heads instead and every head gets its own W_iᴽ and W_iᴷ: it compares queries and keys in its own d_k-dimensional slice of the space, so its row can go somewhere else than the other heads’. Wᴼ then reads all of them. The split adds no parameter and no FLOP: the same d_model columns, cut differently.',
  'subspace.task':
    'The test: the training lab’s two-relation task (each position must output the token before it and the first token), learnt by the engine twice at d_model = {d_model}, with one head and with two, {steps} steps each, same seed; accuracy on {samples} new samples.',
  'subspace.recorded': 'Figures recorded from the engine ({isa}); train both here to compute them again in this tab.',
  'subspace.measured': 'Figures just computed by the engine in this tab ({isa}).',
  'subspace.train': 'Train both here (about {seconds} s)',
  'subspace.starting': 'Training…',
  'subspace.training': 'Training… {n_heads} head(s): {done} of {total} steps in all',
  'subspace.failed': 'Could not train: {message}',
  'subspace.col_model': 'model',
  'subspace.col_accuracy': 'outputs right',
  'subspace.col_previous': 'token before: right',
  'subspace.col_first': 'first token: right',
  'subspace.model': '{n_heads} head{part}, d_k = {d_k}',
  'subspace.one_head':
    'One head: {accuracy} right. Its single row settles on the first token ({first} of its weight), so the first-token outputs are {first_right} right and the token-before outputs only {previous_right}: the row cannot be in both places.',
  'subspace.two_heads':
    'Two heads at the same d_model: {accuracy} right. Head {a} puts {a_weight} of its weight on the token before, head {b} {b_weight} on the first token: each found its own job in its own subspace.',
  'subspace.two_heads_mixed':
    'Two heads at the same d_model: {accuracy} right, without one head per relation in this run.',
});
