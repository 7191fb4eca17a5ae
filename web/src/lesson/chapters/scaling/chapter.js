// The chapter “scaling”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

// The chapter's title and short name, with the first view (the chapter list names every chapter); its
// other words (TEXT) come with the lazy panels for every chapter but the first (chapters/words.js).
export const TITLE = {
  'chapter.scaling.title': 'Why divide by √dₖ',
  'chapter.scaling.short': 'Why √dₖ',
};

export const TEXT = {
  'chapter.scaling.spread_title': 'Wider heads, wider scores',
  'chapter.scaling.spread':
    'A query q and a key k are lists of d_k numbers each (d_k: the length of one head’s queries and keys). Their score q·k adds up d_k products. Draw every number at random with mean 0 and variance 1 (variance: how widely numbers spread, the mean of their squared distance from the mean). Each product then has variance 1, and a sum of d_k independent ones has variance d_k: the wider the head, the wider the scores spread.',
  'chapter.scaling.spread_do':
    'The table below measures it on the engine’s random draws. Raise d_k in the inputs and watch the unscaled variance follow it.',
  'chapter.scaling.row_title': 'A wide spread makes a row one-hot',
  'chapter.scaling.row':
    'Why a wide spread hurts: the softmax turns a row of scores into weights, each score s becoming e^s divided by the sum over the row. A score 3 above another gets e³ ≈ 20 times its weight, so widely spread scores hand almost the whole row to one key: the row is nearly one-hot and the query looks at a single key.',
  'chapter.scaling.row_do':
    'Predict first: the sketch exercise gives you a row of scores; draw the weights you expect. Then untick “divide the scores by √d_k” in the inputs and watch the lab’s bars sharpen (dashed: the other setting).',
  'chapter.scaling.fix_title': 'The cure: divide by √dₖ',
  'chapter.scaling.fix':
    'Divide every score by √d_k before the softmax. Dividing a number by c divides its variance by c², so the variance d_k becomes d_k / d_k = 1 at every width. The scores keep their order, but no longer their explosive spread.',
  'chapter.scaling.fix_do':
    'Tick the box again and raise d_k: the scaled column of the table stays near 1.',
  'chapter.scaling.gradients_title': 'One-hot rows stop learning',
  'chapter.scaling.gradients':
    'It matters for learning. Training measures the model’s error (the loss) and nudges every number by its gradient: how much the loss changes when that number moves. The gradient that reaches the scores is a ⊙ (g − Σ a·g), where a is the row of weights, g how the loss changes with each weight, and ⊙ multiplies entry by entry. In a one-hot row every entry of that is nearly 0, so the layer barely learns.',
  'chapter.scaling.gradients_do':
    'Predict first: at a large d_k without the scale, what happens to that gradient? Then the plot measures it at initialisation for d_k from 4 to 1,024, with and without the scale.',
};

export const CHAPTER = {
  name: 'scaling',
  fields: ['d_model', 'n_heads', 'd_k', 'scale', 'input_seed'],
  panels: ['controls', 'sqrtdk', 'gradients'],
  open: ['sqrtdk'], // the gradients open at their step
  // Steps: one idea each (the spread of q·k, what it does to one row, the cure, the gradients).
  steps: [
    { id: 'scaling.spread', title: 'chapter.scaling.spread_title', text: ['chapter.scaling.spread', 'chapter.scaling.spread_do'], panels: ['sqrtdk'],
      fields: ['d_model', 'n_heads', 'd_k', 'scale', 'input_seed'], exercises: ['scaling.variance-unscaled', 'scaling.variance-wide'] },
    { id: 'scaling.row', title: 'chapter.scaling.row_title', text: ['chapter.scaling.row', 'chapter.scaling.row_do'], panels: ['sqrtdk'],
      fields: ['d_k', 'scale'], exercises: ['scaling.sketch-unscaled'] },
    { id: 'scaling.fix', title: 'chapter.scaling.fix_title', text: ['chapter.scaling.fix', 'chapter.scaling.fix_do'], panels: ['sqrtdk'],
      fields: ['d_model', 'n_heads', 'd_k', 'scale'], exercises: ['scaling.variance-scaled'] },
    { id: 'scaling.gradients', title: 'chapter.scaling.gradients_title', text: ['chapter.scaling.gradients', 'chapter.scaling.gradients_do'], panels: ['gradients'],
      fields: [], exercises: ['scaling.gradient'] },
  ],
  exercises: {
    'scaling.variance-unscaled': 'number',
    'scaling.variance-scaled': 'number',
    'scaling.gradient': 'choice',
    'scaling.variance-wide': 'number',
    'scaling.sketch-unscaled': 'sketch',
  },
};
