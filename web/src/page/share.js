// "Share or embed this view": the page's builder for course authors. It starts from what the page shows
// (the chapter and its step, its panels and exercises, the view's keys: share_view.js) and the author's
// options (share_options.js: panels, exercises by id, lock, hide, the chapter list, label, theme,
// read-only), writes the link to this view, the snippets (snippets.js) each with a Copy button and the
// `npm run scorm` command for an LMS package, and shows a live preview of exactly the embedded view: a
// second playground sharing the page's engine. Built when first opened; the preview is removed when closed.

import { createPlayground } from '../playground/playground.js';
import { createDom } from '../ui/dom.js';
import { toHash, withChanges } from '../model/schema.js';
import { snippets, pageAddress } from './snippets.js';
import { chapterOf, keyList } from '../lesson/chapters.js';
import { shownOf, builderState, scormCommand } from './share_view.js';
import { createShareOptions } from './share_options.js';

const ROUTES = [
  ['permalink', 'Link to this view', 'The full page, exactly as you see it now (chapter, step, every key).'],
  ['iframe', 'iframe (Canvas, Moodle, any page)', 'Platforms that strip scripts keep the iframe at its height; where scripts are allowed, the second line makes it exactly as tall as its content.'],
  ['element', 'Element (plain HTML, MkDocs, Jekyll, Hugo)', 'The script once per page, then the element wherever the figure goes.'],
  ['quarto', 'Quarto', 'A raw HTML block in a .qmd file.'],
  ['myst', 'MyST, Jupyter Book 2', 'The {anywidget} directive: runs in the built book, no kernel needed.'],
  ['python', 'Jupyter, JupyterLab, Colab, VS Code, marimo (Python)', 'An anywidget class; the learner’s edits come back into these traits.'],
  ['scorm', 'SCORM package (any LMS: Canvas, Moodle, Blackboard)', 'A static page cannot run node: run this in the playground’s folder (after bash scripts/build.sh dist); it writes a SCORM 1.2 and a SCORM 2004 zip to upload.'],
];

/**
 * The page's own link of `state`: every key it holds, the chapter named (as the page's address does), and
 * the author's lesson file when the page has one (lesson: { name }).
 */
export function permalinkOf(state, base, lesson = null) {
  const named = state.chapter || keyList(state.panels).length ? {} : { chapter: chapterOf(state).name };
  const hash = toHash(withChanges(state, { embed: '0', ...named }));
  return `${pageAddress(new URL('./', base).href, lesson)}${hash}`;
}

/**
 * Fills `container` with the builder. playground: the page's playground (its state, its exercises and
 * `change` events); base(): the URL of the folder the page was served from; lesson: the page's author's
 * lesson ({ name: its file, words: its JSON read, or null when it was refused }), or null.
 */
export function mountShare(container, { playground, base, lesson = null }) {
  const doc = container.ownerDocument;
  const dom = createDom(doc);
  const { h } = dom;
  const details = h('details', { class: 'share', id: 'share-builder' }, h('summary', {}, 'Share or embed this view'));
  // A named region: the builder is a landmark of its own, so its content is not loose on the page.
  container.append(h('section', { class: 'share-region', 'aria-label': 'Share or embed this view' }, details));
  let built = null;
  const refresh = () => { if (details.open) built?.refresh(); };

  details.addEventListener('toggle', () => {
    if (details.open && !built) built = build();
    if (details.open) built.refresh();
    else built?.closePreview();
  });

  function build() {
    const options = createShareOptions(dom);
    const outputs = Object.fromEntries(ROUTES.map(([key, title]) => [key, h(key === 'permalink' ? 'input' : 'textarea',
      { readonly: true, spellcheck: 'false', 'aria-label': title, dataset: { snippet: key }, rows: key === 'python' ? 8 : 3, type: key === 'permalink' ? 'text' : undefined })]));
    const scormNote = h('p', { class: 'note', dataset: { scormNote: '' } });
    const copyStatus = h('p', { class: 'copy-status', 'aria-live': 'polite' });
    const copy = (key) => async () => {
      const field = outputs[key];
      try {
        await doc.defaultView.navigator.clipboard.writeText(field.value);
        copyStatus.textContent = 'Copied.';
      } catch {
        field.select(); // the clipboard is refused (an insecure origin, say): leave it selected for Ctrl+C
        copyStatus.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
      }
    };
    const previewBox = h('div', { class: 'share-preview-box' });
    details.append(h('div', { class: 'share-body' },
      options.element,
      h('div', { class: 'share-snippets' },
        ROUTES.map(([key, title, note]) => h('section', { class: 'snippet' },
          h('h3', {}, title), h('p', { class: 'note' }, note), outputs[key], key === 'scorm' && scormNote,
          h('button', { type: 'button', onclick: copy(key), dataset: { copy: key } }, 'Copy'))),
        copyStatus),
      h('div', { class: 'share-preview' }, h('h3', {}, 'Preview of the embedded view'), previewBox)));

    let preview = null;
    /** The page's exercises' prompts by id (they arrive with the exercises' texts). */
    const prompts = () => new Map((playground.exercises ?? []).filter((e) => e.prompt).map((e) => [e.id, e.prompt]));
    function refresh() {
      const pageState = playground.getState();
      options.show(shownOf(pageState), pageState, prompts());
      const state = builderState(pageState, options.read());
      const texts = snippets(state, { base: base(), height: options.height(), lesson });
      texts.permalink = permalinkOf(pageState, base(), lesson);
      const scorm = scormCommand(state, lesson);
      texts.scorm = scorm.refused ? '' : scorm.command;
      scormNote.textContent = scorm.refused ?? (scorm.left.length ? `The package opens the chapter with these options; it does not carry ${scorm.left.join(', ')} (set them in the package's page if you need them).` : '');
      for (const [key, field] of Object.entries(outputs)) field.value = texts[key];
      if (!preview) preview = createPlayground(previewBox, { state, theme: 'light', layout: 'embedded', lesson: lesson?.words ?? null });
      else preview.setState(state, { replace: true });
    }
    // Captured: every input's edit reaches the builder, also an event that does not bubble.
    options.element.addEventListener('input', refresh, true);
    options.element.addEventListener('change', refresh, true);
    playground.on('change', () => { if (details.open) refresh(); });
    playground.on('exercises', () => { if (details.open) refresh(); });
    return {
      refresh,
      /** The preview playground (tests read its state), or null. */
      get preview() { return preview; },
      closePreview() {
        preview?.destroy();
        preview = null;
      },
    };
  }

  /** Call when the page's view changed by other means than an edit (the address, Back, Forward). */
  return { refresh };
}
