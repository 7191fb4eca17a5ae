// The lesson's chapters by name, in the lesson's order: the values of the `chapter` key (hash, element
// attribute, widget key). Kept apart from chapters.js (which reads the features' table) so that the
// schema can list them without importing any panel.
export const CHAPTER_NAMES = Object.freeze(['attention', 'scaling', 'heads', 'cost', 'gqa', 'positions', 'training', 'efficient', 'reference']);

/** The chapter a playground opens on when none is given. */
export const FIRST_CHAPTER = 'attention';
