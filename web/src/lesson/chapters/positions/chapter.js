// The chapter “positions”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

// The chapter's title and short name, with the first view (the chapter list names every chapter); its
// other words (TEXT) come with the lazy panels for every chapter but the first (chapters/words.js).
export const TITLE = {
  'chapter.positions.title': 'Where a token is',
  'chapter.positions.short': 'Positions',
};

export const TEXT = {
  'chapter.positions.order_title': 'Attention cannot see order',
  'chapter.positions.order':
    'Attention by itself cannot see order. A query scores each key by its content alone, so shuffling the keys (with their values) only shuffles the weights, and every output stays the same: “dog bites man” and “man bites dog” would look alike.',
  'chapter.positions.order_do':
    'The panel’s small head reads the same token at every position, so nothing but position could tell the keys apart. With “none” chosen under “positions on the logits” (the logits are the scores before the softmax), its large map shows what the head makes of that.',
  'chapter.positions.sinusoidal_title': 'The sinusoidal encoding',
  'chapter.positions.sinusoidal':
    'The original Transformer adds a position signal to each token’s input: the sinusoidal encoding. Position pos gets, for each frequency pair f, the sine and the cosine of ω·pos, where ω = 10000^(−2f/d_model) is that pair’s speed: fast waves in the first columns of the picture, slower and slower ones further right. No two positions get the same pattern.',
  'chapter.positions.sinusoidal_do':
    'Point at the picture to read single values, and change d_model to see more or fewer waves. Moving k positions on turns every pair by the same angle ω·k, whatever the start: the exercises ask what that means.',
  'chapter.positions.logits_title': 'Position on the scores: RoPE and ALiBi',
  'chapter.positions.logits':
    'Newer models put position on the scores (the logits) instead. RoPE turns each pair of numbers of a query and a key by an angle that grows with their position, so their score depends only on how far apart they are, i − j. ALiBi subtracts a slope m_h (one per head) times that distance from each score, so far keys lose weight.',
  'chapter.positions.logits_do':
    'Switch “positions on the logits” between none, RoPE and ALiBi: the large map follows your choice. Before you switch to ALiBi, sketch the row you expect in the exercise.',
};

export const CHAPTER = {
  name: 'positions',
  fields: ['d_model', 'n_heads', 'positional', 'rope_base'],
  panels: ['controls', 'positional'],
  open: ['positional'],
  // Steps: order is invisible, the sinusoidal encoding, position on the scores (RoPE, ALiBi).
  steps: [
    { id: 'positions.order', title: 'chapter.positions.order_title', text: ['chapter.positions.order', 'chapter.positions.order_do'], panels: ['positional'],
      fields: ['positional'] },
    { id: 'positions.sinusoidal', title: 'chapter.positions.sinusoidal_title', text: ['chapter.positions.sinusoidal', 'chapter.positions.sinusoidal_do'], panels: ['positional'],
      fields: ['d_model'], exercises: ['positions.range', 'positions.zero', 'positions.shift'] },
    { id: 'positions.logits', title: 'chapter.positions.logits_title', text: ['chapter.positions.logits', 'chapter.positions.logits_do'], panels: ['positional'],
      fields: ['n_heads', 'positional', 'rope_base'], exercises: ['positions.sketch-alibi'] },
  ],
  exercises: {
    'positions.range': 'choice',
    'positions.zero': 'number',
    'positions.shift': 'choice',
    'positions.sketch-alibi': 'sketch',
  },
};
