// The words of the chapter “attention”'s exercises (exercises.js beside this file), by id: lesson/text.js
// serves them (text(id, values) fills each {name}), and an author's or a translator's table may replace
// any of them. Loaded with the exercises (the lazy panels' bundle), not with the first view.
import { addText } from '../../text.js';

export { text } from '../../text.js';

addText({
  'exercise.attention.with_causal_mask_this':
    'With a causal mask on this layer ({n_q} queries, {n_k} keys), how many keys can query {labels} give a non-zero weight to?',
  'exercise.attention.causal_mask_lets_query':
    'A causal mask lets query {i} see keys 0…{i}: {length} keys, its own position included. The core sets the later keys\' scores to −∞ before the softmax, ',
  'exercise.attention.head_1_their_weights':
    'so in head 1 their weights are exactly 0 and the visible ones ({value}) still add up to 1. ',
  'exercise.attention.usual_mistakes_leaving_out':
    'Usual mistakes: leaving out the query itself (j ≤ i, not j < i), or thinking the mask zeroes weights after the softmax, which would leave a row summing to less than 1.',
  'exercise.attention.strongest_sentence': 'the cat saw a dog and the cat ran',
  'exercise.attention.strongest_sentence_2': 'a dog saw the bird and a dog sang',
  'exercise.attention.strongest_narrow':
    'This layer is too narrow for the head’s job: at d_k = {d_k} the core could give the words {word_dims} of the {matchable} directions it needed to tell them apart, so the row follows what the head can see. ',
  'exercise.attention.strongest_prompt':
    'Head {value} of this layer is {part}. Give it another sentence, “{sentence}”: which key will query {word} attend to most? Pick the cell in its row.',
  'exercise.attention.strongest_prompt_any':
    'A head {part} reads “{sentence}”. Which key will query {word} attend to most? Pick the cell in its row.',
  'exercise.attention.strongest_row':
    'The core built the same head for this sentence; in its row for query {word} the largest weight, {value}, is on key {key}',
  'exercise.attention.whose_scaled_score_q':
    '{part}, whose scaled score q·k/√d_k = {value} is the row\'s highest. ',
  'exercise.attention.usual_mistake_expecting_query':
    'Usual mistake: picking the query itself or a word whose meaning seems related; the weight follows q·k, and a built head\'s Wᴽ and Wᴷ were solved to make q·k peak where its job says, whatever the words mean.',
  'exercise.attention.head_whose_w_all':
    'A head whose Wᴽ is all zeros gives every score of a row the same value, 0. With {n} keys and no mask, what weight does each key get?',
  'exercise.attention.core_s_row_every':
    'The core\'s row: every one of the {n} weights is {value}. A score of 0 becomes e⁰ = 1 before the normalisation, so equal scores share the weight equally. ',
  'exercise.attention.usual_mistake_reading_score':
    'Usual mistake: reading a score of 0 as a weight of 0; only a score of −∞ (a mask) gives a weight of 0.',
  'exercise.attention.cross_attention_decoder_tokens':
    'In cross-attention (a decoder of {n_q} tokens reading an encoder\'s output of {n_k} tokens), where do Q, K and V come from?',
  'exercise.attention.q_from_decoder_k': 'Q from the decoder; K and V from the encoder',
  'exercise.attention.q_from_encoder_k': 'Q from the encoder; K and V from the decoder',
  'exercise.attention.q_k_v_all': 'Q, K and V all from the decoder',
  'exercise.attention.q_k_from_encoder': 'Q and K from the encoder; V from the decoder',
  'exercise.attention.core_s_shapes_this':
    'The core\'s shapes for this cross-attention: the query input has {q} rows (the decoder\'s tokens), the key and value inputs {k} and {v} rows (the encoder\'s), ',
  'exercise.attention.weights_are_each_decoder':
    'so the weights are {n_q}×{n_k}: each decoder position asks the whole source. ',
  'exercise.attention.usual_mistake_taking_k':
    'Usual mistake: taking K from the decoder because K and Q are multiplied together; K and V always come from the sequence being read.',
  // The hints after a first wrong answer (exercise.hint.<id>): what to look at or the usual mistake, never the answer.
  'exercise.hint.attention.causal-row':
    'Under a causal mask query {i} may look at itself and at every key before it, and at nothing after it. Count the positions from 0 up to and including the query\'s own.',
  'exercise.hint.attention.strongest-key':
    'Follow the head\'s job, not the words\' meaning: a built head looks where it was built to look (a position back, an earlier copy of the same word, the first token), whatever the sentence. Find that place in this sentence.',
  'exercise.hint.attention.uniform':
    'Equal scores do not mean zero weights: the softmax turns each score into e^score and then divides by the row\'s sum, and the row must add up to 1.',
  'exercise.hint.attention.cross-qkv':
    'Ask which sequence is doing the asking (it makes the queries) and which one is being read (it supplies what is matched and what is mixed).',
  'exercise.attention.tied_with': ' (tied with {keys})',
});
