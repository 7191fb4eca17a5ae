// The chapter “gqa”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

// The chapter's title and short name, with the first view (the chapter list names every chapter); its
// other words (TEXT) come with the lazy panels for every chapter but the first (chapters/words.js).
export const TITLE = {
  'chapter.gqa.title': 'MHA, GQA, MQA and the KV cache',
  'chapter.gqa.short': 'GQA & KV cache',
};

export const TEXT = {
  // Step 1: the cache
  'chapter.gqa.cache.title': 'A generator keeps every key and value',
  'chapter.gqa.cache.p1':
    'A model that writes text makes one token at a time, and each new token’s query reads the keys and values of every token before it. The model keeps them rather than recompute them: the KV cache.',
  'chapter.gqa.cache.p2':
    'Each token adds, per layer, a key and a value of d_k numbers (d_k = d_v) for each head that computes keys and values: 2·n_kv_heads·d_k numbers of 4 bytes each. Here n_kv_heads, the number of key/value heads, equals n_heads; the next step lowers it.',
  'chapter.gqa.cache.do':
    'Predict: how many bytes does one more token add here? Check it in the table.',
  // Step 2: sharing
  'chapter.gqa.share.title': 'Query heads can share key/value heads',
  'chapter.gqa.share.p1':
    'Grouped-query attention (GQA) keeps every query head but gives the layer only n_kv_heads key/value heads. Consecutive query heads form a group of n_heads / n_kv_heads, and each group reads one key/value head.',
  'chapter.gqa.share.p2':
    'So n_kv_heads must divide n_heads, and query head i (counted from 1, as in the table) reads key/value head ⌈i / (n_heads / n_kv_heads)⌉, i divided by the group size and rounded up.',
  'chapter.gqa.share.do':
    'Try: set n_kv_heads to 2, then to 1. Before each change, say which key/value head the last query head will read.',
  // Step 3: maps
  'chapter.gqa.maps.title': 'Shared keys, still different maps',
  'chapter.gqa.maps.p1':
    'Heads of one group read the same keys and values, but each still has its own query matrix, so each still draws its own map of weights.',
  'chapter.gqa.maps.do':
    'Predict first: the sketch exercise gives two query heads of one group and one head’s scores; draw the other’s row. Then try: with n_kv_heads = 1, compare the maps of two heads. Are they the same?',
  // Step 4: one dial
  'chapter.gqa.family.title': 'MHA, GQA and MQA are one dial',
  'chapter.gqa.family.p1':
    'n_kv_heads = n_heads is ordinary multi-head attention (MHA); n_kv_heads = 1, a single key/value head for all, is multi-query attention (MQA); anything between is GQA.',
  'chapter.gqa.family.p2':
    'Turning the dial down shrinks Wᴷ, Wⱽ and the cache. Wᴽ, Wᴼ and the work of the scores do not shrink: every query head still computes its own.',
  'chapter.gqa.family.do':
    'Predict: with n_kv_heads = 1, how many parameters do Wᴷ and its bias hold? Then read the table.',
  // Step 5: a real model
  'chapter.gqa.llama.title': 'A real model: LLaMA-70B',
  'chapter.gqa.llama.p1':
    'LLaMA-70B has 64 query heads of d_k = 128 but 8 key/value heads, in 80 layers: 2·8·128·80 = 163,840 cached numbers per token, 8 times fewer than with 64.',
  'chapter.gqa.llama.do':
    'Try: load the LLaMA-70B preset, then set n_kv_heads to 64, then 1.',
};

export const CHAPTER = {
  name: 'gqa',
  fields: ['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'preset'],
  panels: ['controls', 'gqa', 'kvmap', 'heatmaps'],
  open: ['gqa', 'kvmap'],
  // The story in steps: one idea each, the panels that show it, the fields it needs and its exercises.
  steps: [
    { id: 'gqa.cache', title: 'chapter.gqa.cache.title', text: ['chapter.gqa.cache.p1', 'chapter.gqa.cache.p2', 'chapter.gqa.cache.do'],
      panels: ['gqa'], fields: ['d_model', 'n_heads', 'n_kv_heads', 'd_k'], exercises: ['gqa.cache-per-token'] },
    { id: 'gqa.share', title: 'chapter.gqa.share.title', text: ['chapter.gqa.share.p1', 'chapter.gqa.share.p2', 'chapter.gqa.share.do'],
      panels: ['kvmap'], fields: ['n_heads', 'n_kv_heads'], exercises: ['gqa.kv-head-of'] },
    { id: 'gqa.maps', title: 'chapter.gqa.maps.title', text: ['chapter.gqa.maps.p1', 'chapter.gqa.maps.do'],
      panels: ['heatmaps'], fields: ['n_heads', 'n_kv_heads'], exercises: ['gqa.sketch-shared-keys'] },
    { id: 'gqa.family', title: 'chapter.gqa.family.title', text: ['chapter.gqa.family.p1', 'chapter.gqa.family.p2', 'chapter.gqa.family.do'],
      panels: ['gqa'], fields: ['d_model', 'n_heads', 'n_kv_heads', 'd_k'], exercises: ['gqa.wk-params'] },
    { id: 'gqa.llama', title: 'chapter.gqa.llama.title', text: ['chapter.gqa.llama.p1', 'chapter.gqa.llama.do'],
      panels: ['gqa'], fields: ['preset', 'n_kv_heads'], exercises: ['gqa.preset-saving'] },
  ],
  exercises: {
    'gqa.kv-head-of': 'number',
    'gqa.cache-per-token': 'number',
    'gqa.preset-saving': 'number',
    'gqa.wk-params': 'number',
    'gqa.sketch-shared-keys': 'sketch',
  },
};
