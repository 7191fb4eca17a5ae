// The chapter “heads”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

// The chapter's title and short name, with the first view (the chapter list names every chapter); its
// other words (TEXT) come with the lazy panels for every chapter but the first (chapters/words.js).
export const TITLE = {
  'chapter.heads.title': 'Multi-head attention',
  'chapter.heads.short': 'Multi-head',
};

export const TEXT = {
  // Step 1: one head
  'chapter.heads.one-head.title': 'One head, with its shapes',
  'chapter.heads.one-head.p1':
    'Start from one head: single-head attention, but on its own projections. W_iᴽ and W_iᴷ (d_model × d_k) and W_iⱽ (d_model × d_v) shrink every token from d_model numbers to d_k or d_v, and the head attends on those.',
  'chapter.heads.one-head.do':
    'Try: change d_model or n_heads and watch every size follow. Then predict, before the next step shows the maps: where does a head built to look at the previous token put its weight? Sketch it below.',
  // Step 2: h heads side by side
  'chapter.heads.side-by-side.title': 'h heads side by side',
  'chapter.heads.side-by-side.p1':
    'Now h such heads run on the same tokens, each with its own weights, so each can draw a different map. Here three heads were built for a job (the token before, the same word, the first token) and the fourth is random.',
  'chapter.heads.side-by-side.do':
    'Try: change the sentence or the weight seed. The built heads keep their job; the random one draws a new map.',
  // Step 3: Concat
  'chapter.heads.concat.title': 'Concat: one row per token again',
  'chapter.heads.concat.p1':
    'Each head hands back n_q rows of d_v numbers. Concat lays them next to each other, row by row: still one row per token, now h·d_v wide. With d_k = d_v = d_model / h that is d_model again, so h heads cost what one wide head would; one d_model × h·d_k matrix projects them all, reshaped to (h, n_q, d_k).',
  'chapter.heads.concat.do': 'Predict: for a whole batch of sentences, what shape is Concat?',
  // Step 4: Wᴼ
  'chapter.heads.output.title': 'Wᴼ mixes the heads back together',
  'chapter.heads.output.p1':
    'Last, Wᴼ (h·d_v × d_model) mixes the heads’ columns and maps every token back to d_model numbers, so the output has its input’s shape and layers can be stacked.',
  'chapter.heads.output.do':
    'Try: pick the lesson’s E1 preset (d_model 768, 12 heads, n = 128) and follow every size from Q to the output.',
  // Step 6: why several heads (the chapter ends on it)
  'chapter.heads.why.title': 'Why several heads?',
  'chapter.heads.why.p1':
    'Why not one big head? Because one head has one row of weights per query. The argument, and a task the engine trains twice to show it, are below.',
  'chapter.heads.why.do': 'Predict before you read the table below: can one head of d_k = 32 learn two relations at once? Then train both here to see it happen.',
  // Step 5: how the heads differ
  'chapter.heads.differ.title': 'Do the heads really differ?',
  'chapter.heads.differ.p1':
    'The engine measures each head on this sentence: how spread its rows are, how far it looks, and how much the output moves without it.',
  'chapter.heads.differ.do': 'Predict which head matters most, then read the bars.',
};

export const CHAPTER = {
  name: 'heads',
  fields: ['d_model', 'n_heads', 'd_k', 'd_v', 'seed', 'text', 'preset'],
  panels: ['controls', 'heatmaps', 'derive', 'subspace', 'patterns', 'compare', 'shapes'],
  open: ['derive', 'subspace'],
  // The derivation of multi-head attention from one head (the derive panel shows the stage its step's id
  // names), then why several heads (the subspace panel) and how this layer's heads differ (the compare panel,
  // a step of its own so each fits one screen); each step's exercises are the ones it prepares. The
  // previous-token predictions come at step 1, before step 2 draws the maps that answer them.
  // The heatmaps (chapter 1's view) and the constructed heads' workings are offered collapsed under every step.
  steps: [
    { id: 'heads.one-head', title: 'chapter.heads.one-head.title', text: ['chapter.heads.one-head.p1', 'chapter.heads.one-head.do'],
      panels: ['derive'], fields: ['d_model', 'n_heads', 'd_k', 'preset'], exercises: ['heads.d_k', 'heads.per-head-params', 'heads.sketch-previous', 'heads.previous-token'] },
    { id: 'heads.side-by-side', title: 'chapter.heads.side-by-side.title', text: ['chapter.heads.side-by-side.p1', 'chapter.heads.side-by-side.do'],
      panels: ['derive'], fields: ['n_heads', 'seed', 'text'], exercises: ['heads.head-shape'] },
    { id: 'heads.concat', title: 'chapter.heads.concat.title', text: ['chapter.heads.concat.p1', 'chapter.heads.concat.do'],
      panels: ['derive'], fields: ['d_model', 'n_heads', 'd_v'], exercises: ['heads.concat-shape'] },
    { id: 'heads.output', title: 'chapter.heads.output.title', text: ['chapter.heads.output.p1', 'chapter.heads.output.do'],
      panels: ['derive', 'shapes'], fields: ['d_model', 'n_heads', 'preset'], exercises: ['heads.wo-shape'] },
    { id: 'heads.differ', title: 'chapter.heads.differ.title', text: ['chapter.heads.differ.p1', 'chapter.heads.differ.do'],
      panels: ['compare'], fields: [] },
    { id: 'heads.why', title: 'chapter.heads.why.title', text: ['chapter.heads.why.p1', 'chapter.heads.why.do'],
      panels: ['subspace'], fields: [], exercises: ['heads.subspace'] },
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
