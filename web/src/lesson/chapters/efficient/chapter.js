// The chapter “efficient”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

export const TEXT = {
  'chapter.efficient.title': 'Attention that scales',
  'chapter.efficient.short': 'Efficient attention',
  'chapter.efficient.p1':
    'Exact attention holds an n × n matrix; FlashAttention gets the same result tile by tile with a running maximum and sum (online softmax), never storing it. A KV cache makes a new token cost O(t·d), not a recomputed prefix; sparse patterns show each query fewer keys; linear attention swaps the softmax for a feature map: cost grows with n, not n², but it computes something else.',
};

export const CHAPTER = {
  name: 'efficient',
  fields: ['d_model', 'n_heads', 'n_kv_heads', 'mask', 'window', 'stride'],
  panels: ['controls', 'flash', 'linear', 'kvcache', 'sparse'],
  open: ['flash'],
  // One step today (a step: an idea in a few sentences and the panels that show it).
  steps: [{ id: 'efficient.1', text: ['chapter.efficient.p1'], panels: ['flash'] }],
  exercises: {
    'efficient.memory-double': 'number',
    'efficient.weights-off': 'number',
    'efficient.flash-same': 'choice',
    'efficient.linear-crossover': 'choice',
    'efficient.kv-step': 'number',
  },
};
