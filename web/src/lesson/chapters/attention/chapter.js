// The chapter “attention”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

// The chapter's title and short name, with the first view (the chapter list names every chapter); its
// other words (TEXT) come with the lazy panels for every chapter but the first (chapters/words.js).
export const TITLE = {
  'chapter.attention.title': 'Scaled dot-product attention',
  'chapter.attention.short': 'Attention',
};

export const TEXT = {
  // Step 1: scores
  'chapter.attention.scores.title': 'A query scores every key',
  'chapter.attention.scores.p1':
    'Every token of the sentence gets three vectors, made from its embedding by three weight matrices: a query q (what it looks for), a key k (what it offers) and a value v (what it passes on).',
  'chapter.attention.scores.p2':
    'Query i gives key j the score q_i·k_j / √d_k: the better the key matches the query, the higher the score. The large map has one row per query and one column per key.',
  'chapter.attention.scores.do':
    'Try: before you look, guess which word “it” looks at most in head 1. Then find the row of “it” in the large map.',
  // Step 2: softmax
  'chapter.attention.softmax.title': 'Softmax turns a row of scores into weights',
  'chapter.attention.softmax.p1':
    'A softmax takes one row of scores, raises e to each of them and divides by the row’s sum. Every weight is then positive and the row adds up to 1.',
  'chapter.attention.softmax.p2':
    'Only the differences between scores matter: adding the same number to every score of a row leaves its weights as they were, and equal scores share the weight equally.',
  'chapter.attention.softmax.do':
    'Try: pick a query and a key below and follow its row from the scores to the weights.',
  // Step 3: output
  'chapter.attention.output.title': 'The output mixes the values',
  'chapter.attention.output.p1':
    'Token i’s output is the weighted mean of all the value vectors, with row i’s weights: a key with weight 0.9 passes on most of its value, a key with weight 0 passes on nothing.',
  'chapter.attention.output.p2':
    'So the output has one row per query and d_v numbers per row, whatever the number of keys.',
  'chapter.attention.output.do':
    'Try: pick a query below and see its output row. Predict: with one head, n tokens and d_model numbers per token, what shape is the whole output?',
  // Step 4: heads
  'chapter.attention.heads.title': 'Different weights, different jobs',
  'chapter.attention.heads.p1':
    'Each map is one head, with its own query and key matrices. Heads 1 to 3 were built for a job (the previous word, the same word elsewhere, the first word); head 4 is random, as a head is before training.',
  'chapter.attention.heads.do':
    'Try: change the sentence and see whether each built head still does its job. Predict the same-word head’s row for a new sentence below.',
  // Step 5: masks
  'chapter.attention.mask.title': 'Hiding keys: masks',
  'chapter.attention.mask.p1':
    'A causal mask stops query i from seeing any key after i: those scores become −∞ before the softmax, so their weights are exactly 0 and the rest of the row still adds up to 1.',
  'chapter.attention.mask.p2':
    'A padding mask hides the filler tokens at the end of a short sentence the same way (choosing it adds a short second sentence). Dropout, used while training, sets random weights to 0 after the softmax instead.',
  'chapter.attention.mask.do':
    'Try: choose the causal mask. Predict how many keys the fourth word can see, then count the coloured cells in its row.',
  // Step 6: cross-attention
  'chapter.attention.cross.title': 'Cross-attention: reading another sentence',
  'chapter.attention.cross.p1':
    'In cross-attention the queries come from one sequence (a decoder’s) and the keys and values from another (the encoder’s output). The two can have different lengths, n_q and n_k.',
  'chapter.attention.cross.p2':
    'The weights then have n_q rows and n_k columns: each word being written asks the whole source sentence.',
  'chapter.attention.cross.do':
    'Try: choose cross-attention and give the second sentence another length. Predict the shape of the map first.',
};

export const CHAPTER = {
  name: 'attention',
  fields: ['text', 'attention', 'text_kv', 'mask', 'padding', 'dropout', 'dropout_seed'],
  panels: ['controls', 'heatmaps', 'query'],
  open: ['heatmaps', 'query'],
  // The story in steps: one idea each, the panels that show it, the fields it needs and its exercises.
  steps: [
    { id: 'attention.scores', title: 'chapter.attention.scores.title', text: ['chapter.attention.scores.p1', 'chapter.attention.scores.p2', 'chapter.attention.scores.do'],
      panels: ['heatmaps'], fields: ['text'], exercises: ['attention.strongest-key'] },
    { id: 'attention.softmax', title: 'chapter.attention.softmax.title', text: ['chapter.attention.softmax.p1', 'chapter.attention.softmax.p2', 'chapter.attention.softmax.do'],
      panels: ['query'], fields: ['text'], exercises: ['attention.uniform', 'attention.design-last', 'attention.design-first', 'attention.design-even'] },
    { id: 'attention.output', title: 'chapter.attention.output.title', text: ['chapter.attention.output.p1', 'chapter.attention.output.p2', 'chapter.attention.output.do'],
      panels: ['query'], fields: ['text'], exercises: ['attention.single-head-shape', 'attention.follow-step'] },
    { id: 'attention.heads', title: 'chapter.attention.heads.title', text: ['chapter.attention.heads.p1', 'chapter.attention.heads.do'],
      panels: ['heatmaps'], fields: ['text'], exercises: ['attention.sketch-same-word'] },
    { id: 'attention.mask', title: 'chapter.attention.mask.title', text: ['chapter.attention.mask.p1', 'chapter.attention.mask.p2', 'chapter.attention.mask.do'],
      panels: ['heatmaps'], fields: ['text', 'mask', 'padding', 'dropout', 'dropout_seed'], exercises: ['attention.causal-row'] },
    { id: 'attention.cross', title: 'chapter.attention.cross.title', text: ['chapter.attention.cross.p1', 'chapter.attention.cross.p2', 'chapter.attention.cross.do'],
      panels: ['heatmaps'], fields: ['attention', 'text', 'text_kv'], exercises: ['attention.cross-qkv', 'attention.weights-shape'] },
  ],
  exercises: {
    'attention.causal-row': 'number',
    'attention.strongest-key': 'cell',
    'attention.uniform': 'number',
    'attention.cross-qkv': 'choice',
    'attention.weights-shape': 'shape',
    'attention.single-head-shape': 'shape',
    'attention.sketch-same-word': 'sketch',
    'attention.design-last': 'design',
    'attention.design-first': 'design',
    'attention.design-even': 'design',
    'attention.follow-step': 'step',
  },
};
