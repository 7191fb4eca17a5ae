// The chapter “training”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

// The chapter's title and short name, with the first view (the chapter list names every chapter); its
// other words (TEXT) come with the lazy panels for every chapter but the first (chapters/words.js).
export const TITLE = {
  'chapter.training.title': 'Watch heads learn',
  'chapter.training.short': 'Training',
};

export const TEXT = {
  // Step 1: before training
  'chapter.training.start.title': 'Before training, a model guesses',
  'chapter.training.start.p1':
    'So far the heads were built by hand or random. Here a tiny model learns its own: one attention layer and a read-out that predicts one of 16 tokens.',
  'chapter.training.start.p2':
    'Its loss is −ln of the probability it gives the right token, so a model that guesses evenly among the 16 tokens has a loss you can work out before it trains.',
  'chapter.training.start.do':
    'Predict the loss before the first step, then read it on the curve.',
  // Step 2: the task
  'chapter.training.task.title': 'A task that needs two positions',
  'chapter.training.task.p1':
    'The lab’s task has two outputs per position: the token just before it and the first token of the sequence. Only attention moves information between positions, so whatever the model learns shows in its maps.',
  'chapter.training.task.do':
    'Predict first: the sketch exercise asks where the head that reads the token just before will put its weight; draw it (the lab covers its maps until you answer). Then press Train and watch the loss fall and the maps sharpen.',
  // Step 3: one relation
  'chapter.training.one-relation.title': 'A head learns a position',
  'chapter.training.one-relation.p1':
    'On a task with one relation (copy the previous token, say), a head learns to put nearly all of a row’s weight on the one position that holds the answer. It needs no words in common: the positional encoding lets it find the place.',
  'chapter.training.one-relation.do':
    'Try: choose the task “copy the previous token”, train, and look at the maps. Predict their shape first.',
  // Step 4: why several heads
  'chapter.training.heads.title': 'Why two heads and not one',
  'chapter.training.heads.p1':
    'A head has one softmax per row, so it can put most of its weight on one place only. With two heads each works in its own d_k-dimensional subspace: one can read the previous token while the other reads the first.',
  'chapter.training.heads.p2':
    'On the two-output task, two heads reach about 100 % held-out accuracy. One head settles on one relation and stalls far below.',
  'chapter.training.heads.do':
    'Try: set the lab to 1 head and train, then to 2. Compare the accuracy and the maps.',
  // Step 5: take it along
  'chapter.training.use.title': 'Take the learnt layer along',
  'chapter.training.use.p1':
    '“Use in the playground” loads the trained layer and a sample of its task as the playground’s input. The other chapters then show the learnt heads instead of the built ones.',
  'chapter.training.use.do':
    'Try: load the layer, then open the first chapter and find the head that reads the previous token.',
};

export const CHAPTER = {
  name: 'training',
  fields: [],
  panels: ['training'],
  open: ['training'],
  // The story in steps: one idea each, the panel that shows it and its exercises (the lab has its own settings).
  steps: [
    { id: 'training.start', title: 'chapter.training.start.title', text: ['chapter.training.start.p1', 'chapter.training.start.p2', 'chapter.training.start.do'],
      panels: ['training'], exercises: ['training.start-loss'] },
    { id: 'training.task', title: 'chapter.training.task.title', text: ['chapter.training.task.p1', 'chapter.training.task.do'], panels: ['training'],
      exercises: ['training.sketch-previous'] },
    { id: 'training.one-relation', title: 'chapter.training.one-relation.title', text: ['chapter.training.one-relation.p1', 'chapter.training.one-relation.do'],
      panels: ['training'], exercises: ['training.focus'] },
    { id: 'training.heads', title: 'chapter.training.heads.title', text: ['chapter.training.heads.p1', 'chapter.training.heads.p2', 'chapter.training.heads.do'], panels: ['training'] },
    { id: 'training.use', title: 'chapter.training.use.title', text: ['chapter.training.use.p1', 'chapter.training.use.do'], panels: ['training'] },
  ],
  exercises: {
    'training.start-loss': 'number',
    'training.focus': 'choice',
    'training.sketch-previous': 'sketch',
  },
};
