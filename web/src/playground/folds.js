// Collapsed sections. In a chapter, the panels outside its core (lesson/chapters.js foldedPanels) are
// shown as a disclosure: a heading whose button (aria-expanded="false", aria-controls the section)
// carries the panel's title, with the panel's one-line `about` (features/index.js) under it. The
// section itself stays hidden while collapsed, so the playground neither builds (a lazy panel is built
// only when shown) nor draws it; opening it shows the section, whose own heading then carries the same
// button (aria-expanded="true"), which closes it again. Focus follows to the button that replaced the
// one pressed. An opened section stays open while the learner stays in the chapter; it is not written
// in the link (links keep their keys), so a reload or another chapter starts collapsed again.

/**
 * dom: the playground's dom helpers; sections: the shell's (name → { spec, section }); toggled(): the
 * playground applies visibility again (and builds what was opened). loadWords(): loads the words that hold the
 * panels' abouts (dist/panels.js) where the first view's bundle has none.
 * Returns { apply(shown, folded, chapter) → Set of names whose section stays hidden (collapsed) }.
 */
export function createFolds({ dom, sections, toggled, loadWords = () => Promise.resolve() }) {
  const { h } = dom;
  const folds = new Map(); // name → { fold, openButton, closeButton, heading, spec, shownAsFold }, made when first collapsed
  let opened = new Set();
  let chapter = null;

  /** The fold of a section, made the first time it is shown collapsed (most views collapse none: nothing to build). */
  function foldOf(name) {
    if (folds.has(name)) return folds.get(name);
    const { spec, section } = sections.get(name);
    const toggle = (open) => {
      if (open) opened.add(name);
      else opened.delete(name);
      toggled();
      (open ? f.closeButton : f.openButton).focus(); // the button now in the pressed one's place
    };
    const button = (expanded) => h('button', { type: 'button', class: 'fold-toggle', 'aria-expanded': String(expanded), 'aria-controls': section.id,
      dataset: { fold: name }, onclick: () => toggle(!expanded) }, spec.title);
    const openButton = button(false);
    const about = h('p', { class: 'fold-about', hidden: true });
    const fold = h('div', { class: 'panel-fold', id: `fold-${name}`, dataset: { fold: name }, hidden: true },
      h('h2', { class: 'fold-title' }, openButton), about);
    // The panel's one line on what it shows: in the first view's bundles it comes with the other chapters' words.
    const say = () => {
      const line = spec.about;
      if (line) about.textContent = `${line[0].toUpperCase()}${line.slice(1)}.`;
      about.hidden = !line;
      return !!line;
    };
    if (!say()) Promise.resolve().then(loadWords).then(say, () => {}); // no words (no asset folder): the title alone
    section.before(fold);
    const f = { fold, openButton, closeButton: button(true), heading: section.querySelector(':scope > h2'), spec, shownAsFold: false };
    folds.set(name, f);
    return f;
  }

  /**
   * shown: the names of the panels shown; folded: those the chapter shows collapsed; chapter: its
   * name (a new chapter closes what was opened in the last one).
   */
  function apply(shown, folded, chapterName) {
    if (chapterName !== chapter) {
      opened = new Set();
      chapter = chapterName;
    }
    const closed = new Set();
    for (const name of sections.keys()) {
      const foldable = shown.has(name) && folded.has(name);
      if (!foldable && !folds.has(name)) continue; // never collapsed yet: no fold to hide, its heading is its title
      const f = foldOf(name);
      const open = foldable && opened.has(name);
      f.fold.hidden = !foldable || open;
      if (foldable && !open) closed.add(name);
      // An opened fold's section is headed by the closing button; any other section by its plain title.
      if (open !== f.shownAsFold) {
        f.shownAsFold = open;
        if (open) f.heading.replaceChildren(f.closeButton);
        else f.heading.replaceChildren(f.spec.title);
      }
    }
    return closed;
  }

  return { apply };
}
