// The words of "Follow one query"'s stages (features/query/stage_bodies.js, stage_folds.js, head_note.js), by id: lesson/text.js
// serves them (text(id, values) fills each {name}), and an author's or a translator's table may replace
// any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  // The stages' titles (a fold each, one open at a time) and the one number each gives for key j.
  'query.stage.dot': '1 · q·k: the score',
  'query.stage.scale': '2 · Scale: × 1/√{d_k}',
  'query.stage.scale_off': '2 · Scale: off (× 1)',
  'query.stage.mask': '3 · Mask',
  'query.stage.max': '4 · The row’s max',
  'query.stage.exp': '5 · exp(logit − max)',
  'query.stage.sum': '6 · Their sum',
  'query.stage.weights': '7 · Weights = exp ÷ sum',
  'query.stage.output': '8 · The output row',
  'query.stage.head': 'The whole head, with and without the scale',
  'query.stage.next': 'Next: {name}',
  'query.stage.stages': 'The stages of this query, one open at a time',
  'query.stage.key_value': 'key {key}: {value}',
  'query.stage.visible_of': '{visible} of {n_k} keys visible',
  'query.stage.tracing': 'Tracing every query of this head…',
  'query.row.scores': 'score q·kⱼ',
  'query.row.bias': 'ALiBi bias',
  'query.row.scaled': 'scaled score',
  'query.row.logits': 'logit',
  'query.row.exp': 'exp(logit − max)',

  'query.dot.scores_row': 'The same dot product for every key: this query’s scores.',
  'query.scale.why':
    'Each score is multiplied by 1/√{d_k} = {alpha}: the sum of {d_k} products grows with d_k, and the division keeps the scores in a range where the softmax still spreads its weight.',
  'query.scale.off': 'This layer runs without the scale: the scores go on unchanged.',
  'query.scale.alibi': 'ALiBi then adds −slope·|i − j| (slope {slope}) to each: ',
  'query.scale.row': 'Every key’s scaled score, before the mask.',
  'query.mask.none': 'No mask here: every key stays visible, and the logits are the scaled scores.',
  'query.mask.some': 'The mask hides {hidden} of the {n_k} keys from this query: their logit becomes −∞, so their weight will be 0.',
  'query.mask.all': 'The mask hides every key from this query.',
  'query.max.value': 'The largest visible logit is {max}, at key {keys}.',
  'query.max.why':
    'It is subtracted from every logit before exp: the largest term becomes exp(0) = 1 and no exponential can overflow. The weights do not change, since the same factor exp(−max) is in every term and in their sum.',
  'query.exp.one': 'exp({logit} − {max}) = exp({diff}) = {value} for key {key}; a masked key gives exp(−∞) = 0.',
  'query.exp.row': 'Every key’s exp(logit − max), each in (0, 1]:',
  'query.sum.value': 'Σⱼ exp(logitⱼ − max) = {terms} = {sum}',
  'query.sum.why': 'The sum is at least 1 (the max’s own term) and is what makes the weights add up to 1.',
  'query.weights.one': 'Key {key}: {exp} ÷ {sum} = {weight}.',
  'query.masked_row': 'Every key is masked for this query, so there is nothing to softmax: the engine gives weights 0 and reports the row.',

  // Why a query vector is mostly 0, and a built head's rows with nothing to find.
  'query.zeros.positions':
    '{zeros} of the {d_k} numbers of q are 0. Head {head} was built, not trained, to look at {job}: it needs only each token’s position, which the construction writes into {used} coordinates ({pairs} frequency pair{s} of the positional encoding, a sine and a cosine each). The other {zeros} coordinates are set to 0 in both q and k, so they add nothing to q·k.',
  'query.zeros.words':
    '{zeros} of the {d_k} numbers of q are 0. Head {head} was built, not trained, to look at other occurrences of the same word: it uses {pairs2} coordinates for the position ({pairs} frequency pair{s}) and {word_dims} for the word; the other {zeros} are set to 0 in both q and k, so they add nothing to q·k.',
  'query.zeros.uniform':
    'Every number of q is 0: head {head} was built to spread its weight evenly, so its Wᴽ is 0. Every score is then 0, and every visible key gets the same weight.',
  'query.zeros.other': '{zeros} of the {d_k} numbers of q are exactly 0.',
  'query.job.previous': 'the token {k} before',
  'query.job.previous_1': 'the previous token',
  'query.job.first': 'the first token',
  'query.none_previous': 'no previous token',
  'query.none_k': 'no token {k} places back',
  'query.first_row':
    'Query {query}{word} has {none}, so head {head} has nothing to find: its query asks for position {pos}, which no key has. The keys still get scores, by how much their positions resemble position {pos} at the head’s frequencies, and the softmax still hands out all the weight: here key {best}{bestWord} gets {weight}. A built head’s row with nothing to match is a leftover, not an answer.',
  'query.first_row_causal':
    'Query {query}{word} has {none}, so head {head} has nothing to find. With the causal mask the only keys it may see are 0…{query}, and the softmax still hands out all the weight: key {best}{bestWord} gets {weight}.',
  'query.scale.formula': '\\frac{{score}}{\\sqrt{{d_k}}}={scaled}', // TeX
  'query.mask.score_logit': 'score {score}, logit {logit}',
  'query.logit_scaled': 'logit = score × 1/√{d_k}',
  'query.weights.masked': 'masked: −∞ → 0',
  'query.weights.dropped': 'dropped → 0',
  'query.weights.kept': 'kept, × {keep_scale}',
  'query.col.logit': 'logit',
  'query.col.weight': 'weight',
  'query.col.note': 'note',
});
