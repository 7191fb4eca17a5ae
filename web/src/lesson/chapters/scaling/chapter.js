// The chapter “scaling”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

export const TEXT = {
  'chapter.scaling.title': 'Why divide by √dₖ',
  'chapter.scaling.short': 'Why √dₖ',
  'chapter.scaling.p1':
    'With components of mean 0 and variance 1, q·k sums d_k products, so its variance is d_k: at d_k = 64 scores spread 8 times wider than at d_k = 1. The softmax then turns nearly one-hot and its gradient, a ⊙ (g − Σ a·g), nearly zero: the layer barely learns.',
  'chapter.scaling.p2':
    'Dividing by √d_k brings the variance back to 1. Turn the scale off and raise d_k to see both effects.',
};

export const CHAPTER = {
  name: 'scaling',
  fields: ['d_model', 'n_heads', 'd_k', 'scale', 'seed'],
  panels: ['controls', 'sqrtdk', 'gradients'],
  open: ['sqrtdk', 'gradients'],
  // One step today (a step: an idea in a few sentences and the panels that show it).
  steps: [{ id: 'scaling.1', text: ['chapter.scaling.p1', 'chapter.scaling.p2'], panels: ['sqrtdk', 'gradients'] }],
  exercises: {
    'scaling.variance-unscaled': 'number',
    'scaling.variance-scaled': 'number',
    'scaling.gradient': 'choice',
    'scaling.variance-wide': 'number',
  },
};
