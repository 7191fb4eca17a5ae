// What a course author pastes (pure, no DOM): from one view and the chosen panels, theme and read-only
// flag, the permalink and the snippets for every route: an iframe (+ embed.js), the element (plain HTML,
// MkDocs), Quarto, MyST's {anywidget} directive and a Python anywidget class. All use the same keys.

import { FIELDS, toHash, withChanges } from '../model/schema.js';
import { FEATURE_NAMES as PANEL_NAMES } from '../features/index.js';

/**
 * The view to embed: `state` with the chosen panels ('' when all are chosen), theme and read-only flag.
 * options: { panels: [names], theme: 'light' | 'dark' | 'auto', readOnly }.
 */
export function embedState(state, { panels = PANEL_NAMES, theme = 'light', readOnly = false } = {}) {
  const chosen = PANEL_NAMES.filter((name) => panels.includes(name));
  return withChanges(state, {
    panels: chosen.length === PANEL_NAMES.length ? '' : chosen.join(','),
    theme: theme === 'light' ? '' : theme, // light is what an embedded playground is anyway
    controls: readOnly ? '0' : '1',
    embed: '0',
  });
}

/** The keys of `state` that differ from their defaults, in schema order, without the page's own flags. */
export function attributesOf(state) {
  return Object.fromEntries(FIELDS.filter((f) => !f.page && state[f.key] !== undefined && state[f.key] !== f.def).map((f) => [f.key, state[f.key]]));
}

const escapeAttribute = (value) => String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** <attention-playground d_model="64" …></attention-playground> */
export function elementTag(state) {
  const attributes = Object.entries(attributesOf(state)).map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`).join('');
  return `<attention-playground${attributes}></attention-playground>`;
}

/** A Python string literal (double quotes; newlines and quotes escaped). */
const pythonString = (value) => JSON.stringify(String(value));

/**
 * Every snippet for the view `state` (see embedState). base: the URL of the folder that holds the built
 * files (index.html, attention-playground.js, embed.js); height: the iframe's height without embed.js.
 */
export function snippets(state, { base, height = 900, title = 'Attention Playground' }) {
  const folder = new URL('./', base).href;
  const module = new URL('attention-playground.js', folder).href;
  const script = `<script type="module" src="${module}"></script>`;
  const element = elementTag(state);
  const attributes = attributesOf(state);
  const frameSrc = `${new URL('index.html', folder).href}${toHash(withChanges(state, { embed: '1' }))}`;
  const traits = Object.entries(attributes).map(([key, value]) => `    ${key} = traitlets.Unicode(${pythonString(value)}).tag(sync=True)`);
  return {
    permalink: `${new URL('index.html', folder).href}${toHash(withChanges(state, { embed: '0', panels: '', controls: '1', theme: '' }))}`,
    iframe: `<iframe src="${escapeAttribute(frameSrc)}" title="${escapeAttribute(title)}" width="100%" height="${height}" style="border: 0" loading="lazy"></iframe>\n` +
      `<script src="${new URL('embed.js', folder).href}"></script>`,
    element: `${script}\n${element}`,
    quarto: `\`\`\`{=html}\n${script}\n${element}\n\`\`\``,
    myst: `:::{anywidget} ${module}\n${JSON.stringify(attributes)}\n:::`,
    python: [
      'import anywidget',
      'import traitlets',
      '',
      'class AttentionPlayground(anywidget.AnyWidget):',
      `    _esm = ${pythonString(module)}`,
      ...(traits.length ? traits : ['    pass']),
      '',
      'AttentionPlayground()',
    ].join('\n'),
  };
}
