// The words of the patterns panel (features/patterns/), by id: lesson/text.js serves them (text(id,
// values) fills each {name}), and an author's or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'patterns.give_head_job_w':
    'Give a head a job: its W_Q and W_K are then built by the engine so that its queries match keys by position (the previous token, the first token) ',
  'patterns.or_content_same_word':
    'or by content (the same word), instead of drawn at random. The rest of the layer stays as it was. Heads left random show what an untrained layer does.',
  'patterns.every_head_random_here':
    'Every head is random here: choose a pattern for a head above to see how its weights are built.',
  'patterns.why_these_weights_make': 'Why these weights make the pattern',
  'patterns.words_get_random_embeddings':
    'The words get random embeddings and overlap every frequency of the positional encoding, so Wᴽ and Wᴷ are solved (least squares) ',
  'patterns.exact_here_because_distinct':
    ': exact here, because the distinct words and the positions are fewer than d_model and linearly independent',
  'patterns.send_each_word_sentences':
    'to send each word of the sentences and each position to the part the pattern needs{part}.',
  'patterns.k_v_head': ' (K/V head {value})',
  'patterns.fit_not_exact_here':
    ' The fit is not exact here (error {fit_error}), so the pattern may be weaker.',
  'patterns.key_token_j_carries':
    '{who}the key of token j carries its position as {pairs} frequency pair{part} of the encoding (ω = {freqs}); ',
  'patterns.query_token_i_carries':
    'the query of token i carries position i − {k}, rotated back by M_{k}. Their product is β·Σ a_f·cos(ω_f·(i − {k} − j)), largest at j = i − {k}, ',
  'patterns.where_beats_every_other':
    'where it beats every other key by β × {kernel_margin} = {strength_kernel_margin} in the logits, so the softmax puts nearly all of the row there.{fit}',
  'patterns.every_query_same_vector':
    '{who}every query is the same vector that matches position 0 through {pairs} frequency pair{part} (ω = {freqs}): the logit β·Σ a_f·cos(ω_f·j) is largest at j = 0, ',
  'patterns.over_next_best_key':
    'by β × {kernel_margin} = {strength_kernel_margin} over the next best key.{fit}',
  'patterns.queries_keys_carry_their':
    '{who}queries and keys carry their word as a unit direction ({matchable_words} word{part} repeat here, {word_dims} direction{part2}), ',
  'patterns.same_word_scores_1':
    'so the same word scores β·1 and any other 0; a penalty of {self_penalty} on its own position pushes a row to the other occurrences. A row whose word does not repeat stays spread out.{fit}',
  'patterns.w_0_every_query':
    '{who}Wᴽ = 0, so every query is the bias alone and scores every key the same: each row is 1/n_k = {value} everywhere it is not masked.',
  'patterns.layer_s_seeded_random': '{who}the layer\'s seeded random projection.',
  'patterns.the_formula': 'The formula, with the engine’s numbers',
  'patterns.how_engine_builds': 'How the engine builds these weights',
  'patterns.words_previous':
    'Head {head} ({label}): every key announces its token’s position, and every query asks for the position one step before its own. The best answer is the previous token, ahead of every other key by {margin} in the scores, so the softmax puts nearly the whole row there.',
  'patterns.words_first_token':
    'Head {head} ({label}): every query asks for position 0, whatever its own position. The first token answers best, ahead of the next key by {margin} in the scores, so each row puts nearly all its weight on it.',
  'patterns.words_same_word':
    'Head {head} ({label}): queries and keys carry their word, so a key with the same word as the query scores high and any other word scores nothing; a small penalty on the query’s own token sends the row to the word’s other occurrences. A word that does not repeat gets a spread-out row.',
  'patterns.words_uniform':
    'Head {head} ({label}): its queries carry nothing, so every key scores the same and each row is even: {value} per visible key.',
  'patterns.words_random': 'Head {head} ({label}): the layer’s seeded random weights, as before training.',
  'patterns.label_random': 'random (untrained)',
  'patterns.label_previous': 'previous token',
  'patterns.label_same_word': 'same word',
  'patterns.label_first_token': 'first token',
  'patterns.label_uniform': 'uniform',
  'patterns.head_n': 'head {n}',
  'patterns.who': 'Head {head}{part}, {label}, β = {strength}: ',
});
