// The chapter “attention”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

// The chapter's title and short name, with the first view (the chapter list names every chapter); its
// other words (TEXT) come with the lazy panels for every chapter but the first (chapters/words.js); this
// chapter's TEXT holds its step titles and its first step's sentences, the later steps' are later_text.js.
export const TITLE = {
  'chapter.attention.title': 'Scaled dot-product attention',
  'chapter.attention.short': 'Attention',
};

export const TEXT = {
  // Step 1: scores
  'chapter.attention.scores.title': 'A query scores every key',
  'chapter.attention.scores.p1':
    'Every token gets three vectors, made from its embedding (d_model numbers) by three weight matrices Wᴽ, Wᴷ, Wⱽ: a query q (what it looks for), a key k (what it offers) and a value v (what it passes on).',
  'chapter.attention.scores.p2':
    'Query i gives key j the score q_i·k_j / √d_k (d_k: the length of q; chapter 2 says why): the better the key matches the query, the higher the score. Each head has its own three matrices and draws its own map: one row per query, one column per key.',
  'chapter.attention.scores.do':
    'Try: guess which word “it” looks at most in head 1, then find the row of “it” in the large map.',
  // Steps 2–6: their titles (the step list names every step); their sentences: later_text.js.
  'chapter.attention.softmax.title': 'Softmax turns a row of scores into weights',
  'chapter.attention.output.title': 'The output mixes the values',
  'chapter.attention.heads.title': 'Different weights, different jobs',
  'chapter.attention.mask.title': 'Hiding keys: masks',
  'chapter.attention.cross.title': 'Cross-attention: reading another sentence',
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
      panels: ['heatmaps'], fields: ['mask', 'padding', 'dropout', 'dropout_seed'], exercises: ['attention.causal-row'] },
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
