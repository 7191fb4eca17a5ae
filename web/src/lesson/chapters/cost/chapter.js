// The chapter “cost”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

export const TEXT = {
  'chapter.cost.title': 'What attention costs',
  'chapter.cost.short': 'Cost',
  'chapter.cost.p1':
    'Each of the four projections costs about n·d² multiply-adds, Q·Kᵀ and A·V about n²·d each: the projections dominate while n < d, the n × n matrix once n > d. The head count changes neither the FLOPs nor the 4·d² weights (+4·d with biases).',
  'chapter.cost.p2':
    'Memory: batch·h matrices of n_q × n_k weights, 4 bytes each. The presets load the worked examples (E2, E3, P1, P4) and real models.',
};

export const CHAPTER = {
  name: 'cost',
  fields: ['d_model', 'n_heads', 'd_k', 'd_v', 'bias', 'n_q', 'n_k', 'preset'],
  panels: ['controls', 'cost', 'examples', 'models', 'performance'],
  open: ['cost'],
  // One step today (a step: an idea in a few sentences and the panels that show it).
  steps: [{ id: 'cost.1', text: ['chapter.cost.p1', 'chapter.cost.p2'], panels: ['cost'] }],
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
