#!/usr/bin/env node
// npm run lesson-template: prints every sentence of the lesson as an author's lesson file
// ({ "text": { <id>: <English words> } }, web/EMBED.md): the start of a translation or of an author's own
// version. Every data file of the lesson registers its words when imported; this imports them all.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

if (process.argv.includes('--help')) {
  console.log('usage: npm run lesson-template [> my-lesson.json]\nPrints every lesson text id with its English words as a lesson file (web/EMBED.md, "Your own words and exercises").');
  process.exit(0);
}
const src = fileURLToPath(new URL('../web/src/', import.meta.url));
const load = (path) => import(pathToFileURL(join(src, path)).href);
await load('lesson/chapters.js');
for (const name of readdirSync(join(src, 'lesson/panels')).sort()) await load(`lesson/panels/${name}`);
for (const name of readdirSync(join(src, 'lesson')).filter((n) => n.endsWith('_text.js'))) await load(`lesson/${name}`);
await load('lesson/exercises/catalogue.js'); // every chapter's exercises and their words
await load('lesson/exercises/session.js');
const { text, textIds } = await load('lesson/text.js');
const table = Object.fromEntries(textIds().sort().map((id) => [id, text(id)]));
process.stdout.write(`${JSON.stringify({ text: table }, null, 2)}\n`);
