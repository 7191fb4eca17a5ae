// The chapter “reference” has no exercises (a look-up page): the catalogue (lesson/exercises/catalogue.js)
// finds this empty list as it finds every chapter's.

export const EXERCISES = [];
