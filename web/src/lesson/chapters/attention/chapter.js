// The chapter “attention”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

export const TEXT = {
  'chapter.attention.title': 'Scaled dot-product attention',
  'chapter.attention.short': 'Attention',
  'chapter.attention.p1':
    'Each token has a query q, a key k and a value v. Query i scores key j with q·k / √d_k; a softmax turns the row into positive weights summing to 1, and token i’s output is the weighted mean of the values.',
  'chapter.attention.p2':
    'Each map is one head’s weights, a row per query: heads 1 to 3 were built for a job, head 4 is random (untrained). Click a cell of the large map to follow that query; a causal mask removes every key after i from row i.',
};

export const CHAPTER = {
  name: 'attention',
  fields: ['text', 'attention', 'text_kv', 'mask', 'padding', 'dropout', 'dropout_seed'],
  panels: ['controls', 'heatmaps', 'query'],
  open: ['heatmaps', 'query'],
  // One step today (a step: an idea in a few sentences and the panels that show it).
  steps: [{ id: 'attention.1', text: ['chapter.attention.p1', 'chapter.attention.p2'], panels: ['heatmaps', 'query'] }],
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
