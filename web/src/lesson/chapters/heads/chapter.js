// The chapter “heads”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

export const TEXT = {
  'chapter.heads.title': 'Multi-head attention',
  'chapter.heads.short': 'Multi-head',
  'chapter.heads.one_head':
    'Start from one head: single-head attention, but on its own projections. W_iᴽ and W_iᴷ (d_model × d_k) and W_iⱽ (d_model × d_v) shrink every token from d_model numbers to d_k or d_v, and the head attends on those. Change d_model or n_heads and watch every size below follow.',
  'chapter.heads.one_head_do':
    'Predict before you look: with twice the heads at the same d_model, what happens to d_k?',
  'chapter.heads.side_by_side':
    'Now h such heads run side by side on the same tokens, each with its own weights, so each can draw a different map. Here three heads were built for a job (the token before, the same word, the first token) and the fourth is random.',
  'chapter.heads.side_by_side_do':
    'Before you look at the maps: where should the previous-token head put the weight of a query three words in?',
  'chapter.heads.concat':
    'Each head hands back n_q rows of d_v numbers. Concat lays them next to each other, row by row: still one row per token, now h·d_v wide. With d_k = d_v = d_model / h that is d_model again: h heads cost what one wide head would; one d_model × h·d_k matrix projects them all, reshaped to (h, n, d_k).',
  'chapter.heads.output':
    'Last, Wᴼ (h·d_v × d_model) mixes the heads’ columns and maps every token back to d_model numbers, so a layer’s output has its input’s shape and layers can be stacked. The lesson’s E1 (d_model 768, 12 heads, n = 128) is a preset: pick it and follow the sizes.',
  'chapter.heads.why':
    'Why not one big head? Because one head has one row of weights per query. The panel below states the argument and shows it on a task the engine trains twice.',
};

export const CHAPTER = {
  name: 'heads',
  fields: ['d_model', 'n_heads', 'd_k', 'seed', 'text', 'preset'],
  panels: ['controls', 'heatmaps', 'derive', 'subspace', 'patterns', 'compare', 'shapes'],
  open: ['derive', 'subspace'],
  // The derivation of multi-head attention from one head (the derive panel shows the stage named by the
  // step's id), then why several heads (the subspace panel); each step's exercises are the ones it prepares.
  steps: [
    { id: 'heads.one-head', text: ['chapter.heads.one_head', 'chapter.heads.one_head_do'], panels: ['derive'],
      fields: ['d_model', 'n_heads', 'd_k', 'preset'], exercises: ['heads.d_k', 'heads.per-head-params', 'heads.head-shape'] },
    { id: 'heads.side-by-side', text: ['chapter.heads.side_by_side', 'chapter.heads.side_by_side_do'], panels: ['derive', 'patterns'],
      fields: ['n_heads', 'seed', 'text'], exercises: ['heads.sketch-previous', 'heads.previous-token'] },
    { id: 'heads.concat', text: ['chapter.heads.concat'], panels: ['derive'], fields: ['d_model', 'n_heads', 'd_k'], exercises: ['heads.concat-shape'] },
    { id: 'heads.output', text: ['chapter.heads.output'], panels: ['derive', 'shapes'], fields: ['d_model', 'n_heads', 'preset'], exercises: ['heads.wo-shape'] },
    { id: 'heads.why', text: ['chapter.heads.why'], panels: ['subspace', 'compare'], fields: [], exercises: ['heads.subspace'] },
  ],
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
