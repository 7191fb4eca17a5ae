// The chapter “efficient”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

// The chapter's title and short name, with the first view (the chapter list names every chapter); its
// other words (TEXT) come with the lazy panels for every chapter but the first (chapters/words.js).
export const TITLE = {
  'chapter.efficient.title': 'Attention that scales',
  'chapter.efficient.short': 'Efficient attention',
};

export const TEXT = {
  'chapter.efficient.memory_title': 'The n × n matrix',
  'chapter.efficient.memory':
    'Exact attention builds, for every head, a matrix of weights with one row per query and one column per key: n × n numbers for a sequence of n tokens. Double n and it holds four times as many. At a few thousand tokens this matrix, written to memory and read back, costs more than the arithmetic.',
  'chapter.efficient.memory_do':
    'The exercises ask what doubling n does to its bytes, and whether it must be stored at all. The panel below is the next step’s; its folded “slow-memory traffic” line already counts what the standard way writes and reads.',
  'chapter.efficient.flash_title': 'FlashAttention: the same result, tile by tile',
  'chapter.efficient.flash':
    'FlashAttention gets exactly the same result without ever storing that matrix. It loads a block of queries and a block of keys onto the chip’s small fast memory, scores them, and keeps for each query row three running numbers: the largest score so far (m), the sum of the exponentials so far (ℓ), and the output so far (o). When a new block brings a larger score, what was summed is rescaled.',
  'chapter.efficient.flash_do':
    'Step through the key blocks with “block ▶” and watch m, ℓ and o change; after the last block o equals softmax attention’s row. Open the slow-memory count to see when tiling moves less data, and move B_r (queries per block) to see when it does not.',
  'chapter.efficient.kvcache_title': 'One token at a time: the KV cache',
  'chapter.efficient.kvcache':
    'When a model writes text one token at a time, each new token’s query needs the keys and values of every earlier token. A KV cache keeps them instead of recomputing them: the new token costs work proportional to the tokens so far, not a recomputation of the whole prefix. Fewer key/value heads (n_kv_heads) make the cache smaller.',
  'chapter.efficient.kvcache_do':
    'Step through the tokens with “next token ▶”, then change n_kv_heads to see the cache shrink.',
  'chapter.efficient.sparse_title': 'Sparse patterns: fewer keys per query',
  'chapter.efficient.sparse':
    'Sparse patterns let each query see fewer keys: a sliding window of the last w tokens, or a strided pattern that also keeps every s-th token further back. Fewer pairs mean less work, at the price of what a query can see directly.',
  'chapter.efficient.sparse_do':
    'Choose a mask in the inputs (sliding and strided ones add w or s) and compare the pairs each pattern computes. Then predict, before the next step shows it: at this layer’s size, is linear attention cheaper than softmax attention?',
  'chapter.efficient.linear_title': 'Linear attention: no softmax',
  'chapter.efficient.linear':
    'Linear attention replaces the softmax by a feature map φ applied to q and k, so the keys and values can be summed once into a small d_k × d_v matrix that every query reuses. Its cost grows with n, not n², but it computes something else than softmax attention.',
  'chapter.efficient.linear_do':
    'Compare the two outputs, then the FLOPs: was your prediction of the last step right, and from which n on does linear attention win?',
};

export const CHAPTER = {
  name: 'efficient',
  fields: ['d_model', 'n_heads', 'n_kv_heads', 'mask', 'window', 'stride'],
  panels: ['controls', 'flash', 'linear', 'kvcache', 'sparse'],
  open: ['flash'],
  // Steps: the n × n matrix, FlashAttention's tiles, the KV cache, sparse patterns, linear attention.
  steps: [
    { id: 'efficient.memory', title: 'chapter.efficient.memory_title', text: ['chapter.efficient.memory', 'chapter.efficient.memory_do'], panels: ['flash'],
      fields: ['d_model', 'n_heads'], exercises: ['efficient.memory-double', 'efficient.weights-off'] },
    { id: 'efficient.flash', title: 'chapter.efficient.flash_title', text: ['chapter.efficient.flash', 'chapter.efficient.flash_do'], panels: ['flash'],
      fields: ['d_model', 'n_heads'], exercises: ['efficient.flash-same'] },
    { id: 'efficient.kvcache', title: 'chapter.efficient.kvcache_title', text: ['chapter.efficient.kvcache', 'chapter.efficient.kvcache_do'], panels: ['kvcache'],
      fields: ['d_model', 'n_heads', 'n_kv_heads'], exercises: ['efficient.kv-step'] },
    { id: 'efficient.sparse', title: 'chapter.efficient.sparse_title', text: ['chapter.efficient.sparse', 'chapter.efficient.sparse_do'], panels: ['sparse'],
      fields: ['mask', 'window', 'stride'], exercises: ['efficient.sketch-strided', 'efficient.linear-crossover'] },
    { id: 'efficient.linear', title: 'chapter.efficient.linear_title', text: ['chapter.efficient.linear', 'chapter.efficient.linear_do'], panels: ['linear'],
      fields: ['d_model', 'n_heads'] },
  ],
  exercises: {
    'efficient.memory-double': 'number',
    'efficient.weights-off': 'number',
    'efficient.flash-same': 'choice',
    'efficient.linear-crossover': 'choice',
    'efficient.kv-step': 'number',
    'efficient.sketch-strided': 'sketch',
  },
};
