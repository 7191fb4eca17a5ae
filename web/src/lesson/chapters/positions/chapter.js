// The chapter “positions”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

export const TEXT = {
  'chapter.positions.title': 'Where a token is',
  'chapter.positions.short': 'Positions',
  'chapter.positions.p1':
    'Attention ignores order: shuffle the keys and every query’s output is the same. The sinusoidal encoding adds sines and cosines of the position at d_model / 2 frequencies, distinct per position; k positions on is a fixed rotation of each pair.',
  'chapter.positions.p2':
    'RoPE rotates q and k by their positions (q_i·k_j depends on i − j only); ALiBi subtracts a per-head slope times the distance from the scores.',
};

export const CHAPTER = {
  name: 'positions',
  fields: ['d_model', 'n_heads', 'text', 'positional', 'rope_base'],
  panels: ['controls', 'positional'],
  open: ['positional'],
  // One step today (a step: an idea in a few sentences and the panels that show it).
  steps: [{ id: 'positions.1', text: ['chapter.positions.p1', 'chapter.positions.p2'], panels: ['positional'] }],
  exercises: {
    'positions.range': 'choice',
    'positions.zero': 'number',
    'positions.shift': 'choice',
  },
};
