// The words of the term lists (ui/term_list.js), by id: each symbol a panel uses, `term.<key>` as it is
// written and `term.<key>.means` what it means, in plain words. lesson/text.js serves them; an author's
// or a translator's table may replace any of them.
import { addText } from '../text.js';

export { text } from '../text.js';

addText({
  'terms.label': 'Symbols used here (hover, tap or focus one to read what it means)',
  'terms.heading': 'Symbols:',
  // The √d_k chapter.
  'term.d_k': 'd_k',
  'term.d_k.means': 'How many numbers each query and each key holds (their length). The score q·k adds up d_k products.',
  'term.variance': 'variance',
  'term.variance.means': 'How far numbers spread around their mean: the average squared distance from it. Spread twice as wide means four times the variance.',
  'term.softmax': 'softmax',
  'term.softmax.means': 'Turns a row of scores into weights: each score s becomes e^s divided by the sum of all of them, so the weights are positive and add up to 1.',
  'term.one_hot': 'one-hot',
  'term.one_hot.means': 'A row where one weight is (nearly) 1 and every other is (nearly) 0: the query looks at a single key.',
  'term.entropy': 'entropy',
  'term.entropy.means': 'How spread out a row of weights is, in nats: 0 for a one-hot row, ln(n_k) when every key gets the same weight.',
  // The positions chapter.
  'term.pos': 'pos',
  'term.pos.means': 'The position of a token in the sentence, counted from 0.',
  'term.omega': 'ω',
  'term.omega.means': 'The speed of a frequency pair of the sinusoidal encoding: pair f turns by 10000^(−2f/d_model) radians per position. Pair 0 turns one radian per position; later pairs turn more and more slowly.',
  'term.theta': 'θ',
  'term.theta.means': 'RoPE’s angle per position for a pair of numbers of a query or key: base^(−2t/d_k) for pair t. A token at position p has that pair turned by p·θ.',
  'term.slope': 'm_h',
  'term.slope.means': 'ALiBi’s slope for head h: the score of a key i − j tokens back loses m_h·(i − j). A steep slope makes the head look near; a gentle one lets it look far.',
  'term.offset': 'i − j',
  'term.offset.means': 'How far back key j is from query i (0 for the query’s own token).',
  // The efficient chapter (FlashAttention).
  'term.B_r': 'B_r',
  'term.B_r.means': 'Rows per block: how many queries are loaded onto the chip together. K and V are read once per such block.',
  'term.B_c': 'B_c',
  'term.B_c.means': 'Columns per block: how many keys (and their values) are loaded onto the chip at a time.',
  'term.run_max': 'm',
  'term.run_max.means': 'The running maximum: the largest score of the row seen so far. It keeps every e^(score − m) at most 1, so nothing overflows.',
  'term.run_sum': 'ℓ',
  'term.run_sum.means': 'The running sum of e^(score − m) over the keys seen so far: the softmax’s denominator, built block by block.',
  'term.run_out': 'o',
  'term.run_out.means': 'The running output: the weighted mean of the values seen so far. After the last block it is the row’s attention output.',
  'term.sram': 'M',
  'term.sram.means': 'The fast on-chip memory, in numbers (elements). The blocks of Q, K, V and the output must fit in it; everything else lives in the slow memory.',
  // The constructed heads (the heads chapter's patterns panel).
  'term.beta': 'β',
  'term.beta.means': 'The strength of a constructed head: every one of its scores is multiplied by β, so a larger β makes the softmax pick the best key more surely.',
  'term.a_f': 'a_f',
  'term.a_f.means': 'How much frequency pair f counts in a positional match: the engine fits these weights so that the match peaks at the wanted position.',
});
