// EMBED.md's table of panels, written from the table of features (web/src/features/index.js), so adding
// a feature never means editing the docs: scripts/make_dist.mjs fills it into dist/EMBED.md, and
// tests/browser/embed_docs.test.mjs checks the result.

const START = /<!-- panels:start[^>]*-->\n/;
const END = '<!-- panels:end -->';

/** The markdown rows: name, title and what the panel shows, in the table's order. */
export function panelRows(features) {
  const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');
  return ['| name | title | shows |', '|---|---|---|', ...features.map((f) => `| \`${f.name}\` | ${cell(f.title)} | ${cell(f.about)} |`)].join('\n');
}

/** `markdown` with whatever stands between its panels markers replaced by the rows of `features`. */
export function fillPanelTable(markdown, features) {
  const start = markdown.match(START);
  const end = markdown.indexOf(END);
  if (!start || end < start.index) throw new Error('EMBED.md has no <!-- panels:start … --> … <!-- panels:end --> markers to fill');
  const from = start.index + start[0].length;
  return `${markdown.slice(0, from)}${panelRows(features)}\n${markdown.slice(end)}`;
}

// `node scripts/panel_table.mjs` writes the rows into web/EMBED.md itself, so the file readers open in
// the repository lists the panels too; tests/browser/embed_docs.test.mjs fails when it is out of date.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { readFile, writeFile } = await import('node:fs/promises');
  const { FEATURES } = await import('../web/src/features/index.js');
  const file = new URL('../web/EMBED.md', import.meta.url);
  const before = await readFile(file, 'utf8');
  const after = fillPanelTable(before, FEATURES);
  if (after !== before) await writeFile(file, after);
  console.log(after === before ? 'web/EMBED.md: panel table already current' : 'web/EMBED.md: panel table rewritten');
}
