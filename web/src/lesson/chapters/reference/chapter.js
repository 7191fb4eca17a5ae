// The chapter “reference”: its words (TEXT, by id: lesson/text.js serves them, an author's or a translator's
// table may replace any of them) and its data (CHAPTER): the form fields that matter to it, its panels
// (feature names; the ones in `open` are its core, the others start folded), its steps and its
// exercises' ids with their kinds (the exercises themselves: exercises.js beside this file).

// The chapter's title and short name, with the first view (the chapter list names every chapter); its
// other words (TEXT) come with the lazy panels for every chapter but the first (chapters/words.js).
export const TITLE = {
  'chapter.reference.title': 'Everything at once',
  'chapter.reference.short': 'Reference',
};

export const TEXT = {
  'chapter.reference.p1':
    'Every panel of the playground on one page, with the whole form: the reference view for looking things up.',
};

export const CHAPTER = {
  name: 'reference',
  fields: null, // the full form
  panels: null, // every panel
  open: null, // every panel expanded
  // One step today (a step: an idea in a few sentences and the panels that show it).
  steps: [{ id: 'reference.1', text: ['chapter.reference.p1'], panels: null }],
  exercises: {},
};
