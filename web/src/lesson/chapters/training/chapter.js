// The chapter “training”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

export const TEXT = {
  'chapter.training.title': 'Watch heads learn',
  'chapter.training.short': 'Training',
  'chapter.training.p1':
    'So far the heads were built or random. Here a tiny attention model learns a task needing two relations: watch the loss fall and the heads share the work, then load the learnt layer to inspect it in the other chapters.',
};

export const CHAPTER = {
  name: 'training',
  fields: [],
  panels: ['training'],
  open: ['training'],
  // One step today (a step: an idea in a few sentences and the panels that show it).
  steps: [{ id: 'training.1', text: ['chapter.training.p1'], panels: ['training'] }],
  exercises: {
    'training.start-loss': 'number',
    'training.focus': 'choice',
  },
};
