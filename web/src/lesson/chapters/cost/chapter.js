// The chapter “cost”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

// The chapter's title and short name, with the first view (the chapter list names every chapter); its
// other words (TEXT) come with the lazy panels for every chapter but the first (chapters/words.js).
export const TITLE = {
  'chapter.cost.title': 'What attention costs',
  'chapter.cost.short': 'Cost',
};

export const TEXT = {
  'chapter.cost.weights.title': 'Weights: four matrices',
  'chapter.cost.flops.title': 'Operations at this length',
  'chapter.cost.length.title': 'Long sequences: n against d',
  'chapter.cost.heads.title': 'One head or eight',
  'chapter.cost.memory.title': 'Memory grows with n²',
  'chapter.cost.weights':
    'A layer’s weights are four matrices: Wᴽ, Wᴷ and Wⱽ turn each token into a query, a key and a value, and Wᴼ mixes the heads back. With d_k = d_v = d_model / h each is d_model × d_model, 4·d_model² weights (+4·d_model with biases).',
  'chapter.cost.weights_do':
    'Predict: how many weights has a layer twice as wide? The table counts this one.',
  'chapter.cost.flops':
    'Running the layer on n tokens (d: short for d_model): each projection costs about n·d² multiply-adds (n rows times a d × d matrix), and the n × n attention matrix costs n²·d twice, for the scores Q·Kᵀ and for the weights times the values, A·V. The lesson counts one projection and a multiply-add as one operation; the exact count is folded below the table.',
  'chapter.cost.flops_do':
    'Predict which term is larger for the sentence of the run, and for a long document, then open the counts.',
  'chapter.cost.length':
    'The two terms grow differently: n·d² with n, n²·d with n². They are equal where n = d; below, the projections dominate, above, the attention matrix. Here n is a what-if: the core counts the layer at any length from 8 to 8192 tokens while the run keeps its sentence.',
  'chapter.cost.length_do':
    'Drag n past d_model and watch the verdict flip where the two lines cross. Then set d_model to 512: where do they cross now?',
  'chapter.cost.heads':
    'Heads split d_model, they do not add to it: h heads of d_k = d_model / h hold the same 4·d_model² weights and do the same multiply-adds as one head of d_k = d_model. What grows with h is the softmax (one n × n map per head) and the memory of the maps.',
  'chapter.cost.heads_do':
    'Predict, then open the counts. Set n_heads to 1, then 2 and 8: do the weights or the multiply-adds move? (With fewer than three heads, the line under the Run button says which built patterns were left out.)',
  'chapter.cost.memory':
    'Memory: the attention weights are batch·h matrices of n_q × n_k numbers (batch: how many sentences run at once), 4 bytes each, so they grow with n², the reason long contexts are expensive. The presets load the lesson’s worked examples (E2, E3, P1, P4) and real models.',
  'chapter.cost.memory_do':
    'Predict: for a sentence twice as long, how many times more memory do the attention weights take? Then load a real model from the presets (its sequence is 128 tokens) and read its memory.',
  'chapter.cost.examples.title': 'Worked examples, computed',
  'chapter.cost.examples':
    'The lesson works these counts out by hand for real sizes. Here the engine computes every figure again and sets it beside the lesson’s; a figure the lesson does not print is marked as computed.',
  'chapter.cost.examples_do':
    'Try: press “Load … into the inputs” under an example (scroll within the list), then go back a step and read its weights, multiply-adds and memory.',
};

export const CHAPTER = {
  name: 'cost',
  fields: ['d_model', 'n_heads', 'd_k', 'd_v', 'bias', 'n_q', 'n_k', 'preset'],
  panels: ['controls', 'cost', 'cost_n', 'cost_heads', 'examples', 'models', 'performance'],
  open: ['cost', 'cost_n', 'cost_heads'],
  // A step: one idea in a few sentences, the one or two panels that show it, the fields it uses and the
  // exercises that belong to it.
  steps: [
    { id: 'cost.weights', title: 'chapter.cost.weights.title', text: ['chapter.cost.weights', 'chapter.cost.weights_do'], panels: ['cost'],
      fields: ['d_model', 'n_heads', 'd_k', 'd_v', 'bias', 'preset'], exercises: ['cost.params-nobias', 'cost.params-bias'] },
    { id: 'cost.flops', title: 'chapter.cost.flops.title', text: ['chapter.cost.flops', 'chapter.cost.flops_do'], panels: ['cost'],
      fields: ['d_model', 'n_heads', 'n_q', 'n_k', 'preset'], exercises: ['cost.dominant', 'cost.dominant-long', 'cost.projection-macs'] },
    { id: 'cost.length', title: 'chapter.cost.length.title', text: ['chapter.cost.length', 'chapter.cost.length_do'], panels: ['cost_n'],
      fields: ['d_model'] },
    { id: 'cost.heads', title: 'chapter.cost.heads.title', text: ['chapter.cost.heads', 'chapter.cost.heads_do'], panels: ['cost_heads'],
      fields: ['d_model', 'n_heads'], exercises: ['cost.heads-params', 'cost.heads-flops'] },
    { id: 'cost.memory', title: 'chapter.cost.memory.title', text: ['chapter.cost.memory', 'chapter.cost.memory_do'], panels: ['cost'],
      fields: ['d_model', 'n_heads', 'n_q', 'n_k', 'preset'], exercises: ['cost.attention-shape', 'cost.attention-bytes'] },
    { id: 'cost.examples', title: 'chapter.cost.examples.title', text: ['chapter.cost.examples', 'chapter.cost.examples_do'], panels: ['examples'],
      fields: [] },
  ],
  exercises: {
    'cost.params-nobias': 'number',
    'cost.params-bias': 'number',
    'cost.dominant': 'choice',
    'cost.attention-shape': 'shape',
    'cost.attention-bytes': 'number',
    'cost.heads-params': 'choice',
    'cost.heads-flops': 'choice',
    'cost.dominant-long': 'choice',
    'cost.projection-macs': 'number',
  },
};
