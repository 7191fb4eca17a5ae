// The sentences of the first chapter's steps 2–6: the first view shows step 1 only, so these come with the
// lazy panels (chapters/words.js), as the other chapters' words do, and a playground asks for them before it
// shows one of these steps (lesson/chapters.js chapterWordsHere).

export const LATER_TEXT = {
  // Step 2: softmax
  'chapter.attention.softmax.p1':
    'A softmax takes one row of scores, raises e to each of them and divides by the row’s sum. Every weight is then positive and the row adds up to 1.',
  'chapter.attention.softmax.p2':
    'Only the differences between scores matter: adding the same number to every score of a row leaves its weights as they were, and equal scores share the weight equally.',
  'chapter.attention.softmax.do':
    'Try: choose a query i (7 “it”, say), a key j and a head in the menus below, then follow that row from the scores to the weights.',
  // Step 3: output
  'chapter.attention.output.p1':
    'Token i’s output is the weighted mean of all the value vectors, with row i’s weights: a key with weight 0.9 passes on most of its value, a key with weight 0 passes on nothing.',
  'chapter.attention.output.p2':
    'So the output has one row per query and d_v numbers per row (d_v: the length of a value vector), whatever the number of keys.',
  'chapter.attention.output.do':
    'Try: choose a query in the menus below and see its output row. Predict: with one head (then d_v = d_model), n tokens and d_model numbers per token, what shape is the whole output?',
  // Step 4: heads
  'chapter.attention.heads.p1':
    'Each map is one head, with its own query and key matrices. Heads 1 to 3 were built for a job (the previous word, the same word elsewhere, the first word); head 4 is random, as a head is before training.',
  'chapter.attention.heads.do':
    'Try: change the sentence and see whether each built head still does its job. Predict the same-word head’s row for a new sentence below.',
  // Step 5: masks
  'chapter.attention.mask.p1':
    'A causal mask stops query i from seeing any key after i: those scores become −∞ before the softmax, so their weights are exactly 0 and the rest of the row still adds up to 1.',
  'chapter.attention.mask.p2':
    'A padding mask hides the filler tokens at the end of a short sentence the same way (choosing it adds a short second sentence). Dropout, used while training, sets random weights to 0 after the softmax instead.',
  'chapter.attention.mask.do':
    'Try: choose the causal mask. Predict how many keys the fourth word can see, then count the coloured cells in its row.',
  // Step 6: cross-attention
  'chapter.attention.cross.p1':
    'In cross-attention the queries come from one sequence (in translation, the sentence being written) and the keys and values from another (the sentence being translated). The two can have different lengths, n_q and n_k.',
  'chapter.attention.cross.p2':
    'The weights then have n_q rows and n_k columns: each word being written asks the whole source sentence.',
  'chapter.attention.cross.do':
    'Try: choose cross-attention and give the second sentence another length. Predict the shape of the map first.',
};
