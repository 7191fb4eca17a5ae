// The words of the compare panel (features/compare/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'compare.comparison_appears_after_run': 'The comparison appears after a run.',
  'compare.head_by_head_similarity': 'head-by-head similarity',
  'compare.similarity_heads': 'Similarity of heads',
  'compare.similarity_heads_imported': 'Similarity of heads (imported maps)',
  'compare.each_head': 'Each head',
  'compare.head': 'head',
  'compare.head_k': 'head {k}',
  'compare.mean_distance': 'mean distance',
  'compare.largest_weight': 'largest weight',
  'compare.how_heads_differ_measured':
    'How the heads differ, measured by the engine on these inputs: how spread each head’s rows are (entropy: 0 for a one-hot row, highest for an even one), how far it looks (mean |i − j| weighted by the weights), ',
  'compare.how_alike_two_heads':
    'how alike two heads’ maps are (1 = the same rows, 0 = no key in common; computed as 1 − Jensen–Shannon divergence / ln 2), and how much the output moves when one head is switched off.',
  'compare.heads_are_too_many':
    '{n_heads} heads are too many to compare readably here (at most {MAX_HEADS}).',
  'compare.compare_heads_forward_passes': 'Compare the heads ({value} forward passes, about {seconds} s)',
  'compare.comparing_heads': 'Comparing the heads…',
  'compare.measured_engine_imported_attention':
    'Measured by the engine on the imported attention maps (not on a layer: the import has none).',
  'compare.could_not_compare_heads': 'Could not compare the heads: {part}',
  'compare.mean_entropy_nats': 'mean entropy (nats)',
  'compare.most_ln_n_k': 'of the most (ln n_k)',
  'compare.output_change_if_off': 'output change if off',
  'compare.entropy_0_one_hot': 'Entropy 0 is a one-hot row; {max_entropy} nats (ln n_k) is a uniform one.',
  'compare.similarity_heads_row_head':
    'Similarity of heads (row head against column head): 1 = the same maps, 0 = no overlap at all',
  'compare.switch_one_head_off': 'Switch one head off',
  'compare.switching_head_off_needs':
    'Switching a head off needs the layer (its values and Wᴼ), which imported attention maps do not carry: import the inputs and parameters to see it.',
  'compare.head_switched_off_head':
    'A head switched off adds nothing before Wᴼ. How much the layer’s output y then changes, as a share of its size (‖y − y_without‖ / ‖y‖, with ‖y‖ = {output_norm}), largest first:',
});
