// "Share or embed this view": the page's builder for course authors. From the view on the page and the
// panels, theme and read-only flag chosen here, it writes the permalink and the snippets (snippets.js),
// each with a Copy button, and shows a live preview: a second playground sharing the page's engine.
// Built when first opened; the preview is removed when the builder is closed.

import { createPlayground } from '../playground/playground.js';
import { createDom } from '../ui/dom.js';
import { FEATURES as PANELS } from '../features/index.js';
import { embedState, snippets } from './snippets.js';

const ROUTES = [
  ['permalink', 'Link to this view', 'The full page, as you see it now.'],
  ['iframe', 'iframe (Canvas, Moodle, any page)', 'Platforms that strip scripts keep the iframe at its height; where scripts are allowed, the second line makes it exactly as tall as its content.'],
  ['element', 'Element (plain HTML, MkDocs, Jekyll, Hugo)', 'The script once per page, then the element wherever the figure goes.'],
  ['quarto', 'Quarto', 'A raw HTML block in a .qmd file.'],
  ['myst', 'MyST, Jupyter Book 2', 'The {anywidget} directive: runs in the built book, no kernel needed.'],
  ['python', 'Jupyter, JupyterLab, Colab, VS Code, marimo (Python)', 'An anywidget class; the learner’s edits come back into these traits.'],
];

/**
 * Fills `container` with the builder. playground: the page's playground (its state and `change`
 * events); base(): the URL of the folder the page was served from.
 */
export function mountShare(container, { playground, base }) {
  const doc = container.ownerDocument;
  const { h } = createDom(doc);
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
    const panelBoxes = PANELS.map((p) => h('label', { class: 'choice' },
      h('input', { type: 'checkbox', name: 'share-panel', value: p.name, checked: true }), ` ${p.name}`));
    const themeSelect = h('select', { name: 'share-theme' },
      h('option', { value: 'light' }, 'light (fits most course pages)'), h('option', { value: 'dark' }, 'dark'),
      h('option', { value: 'auto' }, 'the reader’s system setting'));
    const readOnly = h('input', { type: 'checkbox', name: 'share-readonly' });
    const height = h('input', { type: 'number', name: 'share-height', value: 900, min: 200, max: 5000, step: 50 });
    const outputs = Object.fromEntries(ROUTES.map(([key]) => [key, h(key === 'permalink' ? 'input' : 'textarea',
      { readonly: true, spellcheck: 'false', 'aria-label': ROUTES.find(([k]) => k === key)[1], dataset: { snippet: key }, rows: key === 'python' ? 8 : 3, type: key === 'permalink' ? 'text' : undefined })]));
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
      h('div', { class: 'share-options' },
        h('fieldset', {}, h('legend', {}, 'Panels to embed'), h('div', { class: 'choices' }, panelBoxes)),
        h('div', { class: 'share-row' }, h('label', {}, 'Theme ', themeSelect)),
        h('div', { class: 'share-row' }, h('label', {}, readOnly, ' read-only (no inputs: readers explore, not edit)')),
        h('div', { class: 'share-row' }, h('label', {}, 'iframe height without embed.js ', height, ' px'))),
      h('div', { class: 'share-snippets' },
        ROUTES.map(([key, title, note]) => h('section', { class: 'snippet' },
          h('h3', {}, title), h('p', { class: 'note' }, note), outputs[key],
          h('button', { type: 'button', onclick: copy(key), dataset: { copy: key } }, 'Copy'))),
        copyStatus),
      h('div', { class: 'share-preview' }, h('h3', {}, 'Preview of the embedded view'), previewBox)));

    let preview = null;
    const options = () => ({
      panels: panelBoxes.map((l) => l.firstChild).filter((box) => box.checked).map((box) => box.value),
      theme: themeSelect.value, readOnly: readOnly.checked,
    });
    function refresh() {
      const state = embedState(playground.getState(), options());
      const texts = snippets(state, { base: base(), height: Math.max(200, Number(height.value) || 900) });
      for (const [key, field] of Object.entries(outputs)) field.value = texts[key];
      if (!preview) preview = createPlayground(previewBox, { state, theme: 'light', layout: 'embedded' });
      else preview.setState(state, { replace: true });
    }
    for (const el of [...panelBoxes.map((l) => l.firstChild), themeSelect, readOnly, height]) {
      el.addEventListener('input', refresh);
      el.addEventListener('change', refresh);
    }
    playground.on('change', () => { if (details.open) refresh(); });
    return {
      refresh,
      closePreview() {
        preview?.destroy();
        preview = null;
      },
    };
  }

  /** Call when the page's view changed by other means than an edit (the address, Back, Forward). */
  return { refresh };
}
