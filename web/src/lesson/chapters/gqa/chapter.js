// The chapter “gqa”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

export const TEXT = {
  'chapter.gqa.title': 'MHA, GQA, MQA and the KV cache',
  'chapter.gqa.short': 'GQA & KV cache',
  'chapter.gqa.p1':
    'A generating model caches every earlier token’s keys and values: 2·n_kv_heads·d_k numbers per token and layer. Multi-head attention has one key/value head per query head, MQA one for all, GQA n_kv_heads, each shared by a consecutive group of query heads.',
  'chapter.gqa.p2':
    'LLaMA-70B: 8 key/value heads for 64 query heads, 8 times less cache. Set n_kv_heads and compare.',
};

export const CHAPTER = {
  name: 'gqa',
  fields: ['d_model', 'n_heads', 'n_kv_heads', 'd_k', 'preset'],
  panels: ['controls', 'gqa', 'kvmap', 'heatmaps'],
  open: ['gqa', 'kvmap'],
  // One step today (a step: an idea in a few sentences and the panels that show it).
  steps: [{ id: 'gqa.1', text: ['chapter.gqa.p1', 'chapter.gqa.p2'], panels: ['gqa', 'kvmap'] }],
  exercises: {
    'gqa.kv-head-of': 'number',
    'gqa.cache-per-token': 'number',
    'gqa.preset-saving': 'number',
    'gqa.wk-params': 'number',
  },
};
