// The words of the chapter “cost”'s exercises (exercises.js beside this file), by id: lesson/text.js
// serves them (text(id, values) fills each {name}), and an author's or a translator's table may replace
// any of them. Loaded with the exercises (the lazy panels' bundle), not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  'exercise.cost.how_many_parameters_does':
    'A layer twice as wide as this one: how many parameters does it have without biases (d_model = {d_model}, {n_heads} heads, d_k = {d_k}, d_v = {d_v}, one key/value head per query head)?',
  'exercise.cost.core_counts_w_w':
    'The core counts Wᴽ {w_q}, Wᴷ {w_k}, Wⱽ {w_v} and Wᴼ {w_o}: {total} in all (4·d_model² when d_k = d_v = d_model/h). ',
  'exercise.cost.usual_mistake_multiplying_heads':
    'Usual mistake: multiplying by the {n_heads} heads; each head has only a d_model×d_k slice, so the heads share out the same parameters.',
  'exercise.cost.same_layer_with_biases':
    'The same twice-as-wide layer with biases (d_model = {d_model}, {n_heads} heads, d_k = {d_k}, d_v = {d_v}): how many parameters?',
  'exercise.cost.core_weights_plus_biases':
    'The core: {weights} weights plus {biases} biases (bᴽ {b_q}, bᴷ {b_k}, bⱽ {b_v}, bᴼ {b_o}) = {total}. ',
  'exercise.cost.usual_mistake_counting_bias':
    'Usual mistake: counting a bias per weight; a bias is one vector per output, so the biases add 4·d_model, not 4·d_model².',
  'exercise.cost.n_tokens_d_which':
    'For n = {n_q} tokens and d = {d_model}, which term dominates the lesson\'s FLOP count of one attention layer?',
  'exercise.cost.projections_about_n_d2': 'The projections (about n·d²)',
  'exercise.cost.attention_matrix_scores_weighted':
    'The attention matrix: scores and weighted sum (about n²·d)',
  'exercise.cost.softmax_about_n2': 'The softmax (about n²)',
  'exercise.cost.core_s_count_projections':
    'The core\'s count: projections {projections}, scores {scores}, weighted sum {weighted_sum}, softmax {softmax}. {dominant_reason}. ',
  'exercise.cost.usual_mistake_assuming_attention':
    'Usual mistake: assuming attention is always the expensive part; it is quadratic in n, but below n = d the projections cost more.',
  'exercise.cost.one_pass_this_layer':
    'One pass of this layer with batch {batch}, {n_heads} heads, {n_q} queries and {n_k} keys: what is the shape of all its attention weights A, as batch × heads × n_q × n_k?',
  'exercise.cost.core_s_shape_trace':
    'The core\'s shape trace: A is {A}, one {value}×{value2} matrix for each of the {value3} heads of each of the {value4} batch items. ',
  'exercise.cost.usual_mistake_counting_one':
    'Usual mistake: counting one matrix per layer; every head of every batch item has its own.',
  'exercise.cost.how_many_bytes_do':
    'With twice the heads, how many bytes would all the attention weights of one pass take in float32 (batch {batch}, {n_heads} heads, {n_q}×{n_k} each)?',
  'exercise.cost.core_weights_4_bytes':
    'The core: {A} weights of 4 bytes each = {attention_weight_bytes}. (The lesson\'s P4: 8 heads × 32 items of 128×128 = 16.8 MB.) ',
  'exercise.cost.usual_mistakes_forgetting_batch':
    'Usual mistakes: forgetting the batch or the heads, or counting one byte per weight.',
  // The hints after a first wrong answer (exercise.hint.<id>): what to look at or the usual mistake, never the answer.
  'exercise.hint.cost.params-nobias':
    'Count four matrices: Wᴽ, Wᴷ and Wⱽ each map d_model to all heads\' columns (h·d_k or h·d_v), and Wᴼ maps the concatenated heads back to d_model. The heads split these matrices; they do not multiply them.',
  'exercise.hint.cost.params-bias':
    'Start from the count without biases, then add one bias per output column of each of the four projections (a vector, not a matrix).',
  'exercise.hint.cost.dominant':
    'Compare n with d: the projections grow like n·d², the score and weighted-sum matrices like n²·d. Which factor is larger here?',
  'exercise.hint.cost.attention-shape':
    'Every head of every batch item has its own weight matrix, one row per query and one column per key; write the axes as batch × heads × n_q × n_k.',
  'exercise.hint.cost.attention-bytes':
    'Count the weights (one per batch item, head, query and key) and give each float32 its 4 bytes.',
});
