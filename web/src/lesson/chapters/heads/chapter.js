// The chapter “heads”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

export const TEXT = {
  'chapter.heads.title': 'Multi-head attention',
  'chapter.heads.short': 'Multi-head',
  'chapter.heads.p1':
    'h heads project the input h times (W_iᴽ, W_iᴷ: d_model × d_k, W_iⱽ: d_model × d_v), attend separately, and Wᴼ maps their concatenated outputs (n × h·d_v) back to d_model. With d_k = d_v = d_model / h they cost what one wide head would; one d_model × h·d_k matrix projects them all, reshaped to (h, n, d_k).',
  'chapter.heads.p2':
    'Give each head a job, compare them and trace every shape; the lesson’s E1 (d_model 768, 12 heads, n = 128) is a preset.',
};

export const CHAPTER = {
  name: 'heads',
  fields: ['d_model', 'n_heads', 'd_k', 'seed', 'text', 'preset'],
  panels: ['controls', 'heatmaps', 'patterns', 'compare', 'shapes'],
  open: ['heatmaps'],
  // One step today (a step: an idea in a few sentences and the panels that show it).
  steps: [{ id: 'heads.1', text: ['chapter.heads.p1', 'chapter.heads.p2'], panels: ['heatmaps'] }],
  exercises: {
    'heads.d_k': 'number',
    'heads.concat-shape': 'shape',
    'heads.previous-token': 'cell',
    'heads.head-shape': 'shape',
    'heads.per-head-params': 'number',
    'heads.wo-shape': 'number',
    'heads.subspace': 'choice',
    'heads.sketch-previous': 'sketch',
  },
};
