// Writes SCORM packages of one chapter: a SCORM 1.2 zip and a SCORM 2004 (4th edition) zip, each an
// imsmanifest.xml (one organization, one item, one SCO resource listing every file) and the static
// page from dist/ (no source maps, docs or examples), opened through scorm.html at the chapter with the
// author's options. In the LMS the page reports to it (web/src/lms/); nothing is fetched from elsewhere.
// With --lesson, an author's lesson file (web/EMBED.md) goes into the package as lesson.json and the page
// opens with it: its words, and its exercises among those graded.
// Usage: npm run scorm -- --chapter cost [--exercises id,id] [--lock d_model,n_heads] [--hide dropout]
//          [--label "…"] [--theme light] [--title "…"] [--mastery 80] [--lesson my-lesson.json] [--out build/scorm] [--dist dist]
import { readFileSync } from 'node:fs';
import { readdir, readFile, mkdir, writeFile, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { zipSync, strToU8 } from 'fflate';
import { manifest12, manifest2004, launchPage } from './scorm_manifest.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const load = (path) => import(pathToFileURL(join(root, path)).href);
const { CHAPTER_NAMES } = await load('web/src/lesson/chapter_names.js');
const { selectExercises } = await load('web/src/lesson/exercises/index.js');
const { parseHash, isField } = await load('web/src/model/schema.js');
const { readLesson } = await load('web/src/author/lesson.js');

/** The package's name for the author's lesson file, beside index.html (the page reads it from ?lesson=). */
export const LESSON_IN_PACKAGE = 'lesson.json';

/** dist/ entries the page inside a package never asks for. */
const LEFT_OUT = [/\.map$/, /^examples\//, /^EMBED\.md$/, /^MANIFEST\.txt$/, /^attention-playground\.js$/, /^embed\.js$/, /^xapi\.js$/];

function fail(message) {
  console.error(`scorm: ${message}`);
  process.exit(1);
}

/** An author's lesson file read and checked as the page checks it: { text (the file's JSON text), authored }. */
function lessonOf(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`--lesson ${path} could not be read (${err.code ?? err.message})`);
  }
  try {
    return { text, authored: readLesson(text).authored };
  } catch (err) {
    throw new Error(`--lesson ${path}: ${err.message}`);
  }
}

/** The command line read and checked: { chapter, hash, ids, mastery, title, out, dist, lesson (null or { text, authored }) }. */
export function readOptions(argv) {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: Object.fromEntries(['chapter', 'exercises', 'lock', 'hide', 'label', 'theme', 'title', 'mastery', 'lesson', 'out', 'dist'].map((k) => [k, { type: 'string' }])) }));
  } catch (err) {
    throw new Error(err.message);
  }
  const { chapter } = values;
  if (!chapter) throw new Error(`--chapter is required: one of ${CHAPTER_NAMES.join(', ')}`);
  if (!CHAPTER_NAMES.includes(chapter)) throw new Error(`--chapter ${chapter} is not a chapter; the chapters are ${CHAPTER_NAMES.join(', ')}`);
  const view = { embed: '1', chapter, exercises: values.exercises, lock: values.lock, hide: values.hide, label: values.label, theme: values.theme };
  const hash = Object.entries(view).filter(([, v]) => v != null && v !== '').map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  const { state, ignored } = parseHash(hash);
  if (ignored.length) throw new Error(`the view is not valid: ${ignored.join('; ')}`);
  for (const key of ['lock', 'hide']) {
    const bad = String(values[key] ?? '').split(',').map((s) => s.trim()).filter((k) => k && !isField(k));
    if (bad.length) throw new Error(`--${key} names ${bad.join(', ')}, which ${bad.length > 1 ? 'are not settings' : 'is not a setting'} of the playground`);
  }
  const lesson = values.lesson ? lessonOf(resolve(values.lesson)) : null;
  const { ids, unknown } = selectExercises(state, lesson?.authored ?? []);
  if (unknown.length) throw new Error(`--exercises names no exercise ${unknown.join(', ')} (the ids are listed in EMBED.md${lesson ? ', and the lesson file\'s own' : '; an author\'s own come with --lesson'})`);
  if (!ids.length) throw new Error(`chapter ${chapter} with these options shows no exercise, so there would be nothing to grade: name some with --exercises`);
  // A plain decimal only: Number('') is 0 (an unset shell variable would make every learner pass at
  // launch) and Number('0x50') is 80; at most two decimals, so the manifests' values stay plain decimals.
  const masteryText = values.mastery == null ? '80' : String(values.mastery).trim();
  const mastery = /^\d{1,3}(\.\d{1,2})?$/.test(masteryText) ? Number(masteryText) : NaN;
  if (!(mastery >= 0 && mastery <= 100)) throw new Error(`--mastery ${JSON.stringify(values.mastery)} is not a score from 0 to 100 (a plain number, at most two decimals: 80, 72.5)`);
  return {
    chapter, hash, ids, mastery, lesson,
    title: values.title || values.label || `Attention Playground: ${chapter}`,
    out: resolve(values.out ?? join(root, 'build/scorm')),
    dist: resolve(values.dist ?? join(root, 'dist')),
  };
}

/** Every file under `dir` the package carries: { 'path/in/zip': bytes }. */
async function distFiles(dir) {
  const files = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const name = relative(dir, join(entry.parentPath ?? entry.path, entry.name)).split(sep).join('/');
    if (!LEFT_OUT.some((re) => re.test(name))) files[name] = await readFile(join(dir, name));
  }
  return files;
}

/** Writes both zips; returns their paths and sizes. */
export async function writePackages(options) {
  // A whole build, not a folder with a page alone (a package without its code or engine would upload and fail in the LMS).
  for (const file of ['index.html', 'page.js', 'panels.js', 'worker.js', 'wasm/attention_simd.wasm', 'wasm/attention_scalar.wasm']) {
    try {
      await stat(join(options.dist, file));
    } catch {
      throw new Error(`${options.dist} is not a whole build of the page (no ${file}): run \`bash scripts/build.sh dist\` first`);
    }
  }
  const files = await distFiles(options.dist);
  await mkdir(options.out, { recursive: true });
  const written = [];
  for (const [version, makeManifest, tag] of [['1.2', manifest12, 'scorm12'], ['2004', manifest2004, 'scorm2004']]) {
    const launch = launchPage({ title: options.title, version, mastery: options.mastery, hash: options.hash, lesson: options.lesson ? LESSON_IN_PACKAGE : null });
    const own = options.lesson ? { ...files, [LESSON_IN_PACKAGE]: strToU8(options.lesson.text) } : files;
    const names = ['scorm.html', ...Object.keys(own)];
    const zip = zipSync({
      'imsmanifest.xml': strToU8(makeManifest({ ...options, files: names })),
      'scorm.html': strToU8(launch),
      ...own,
    }, { level: 6 });
    const path = join(options.out, `attention-playground-${options.chapter}-${tag}.zip`);
    await writeFile(path, zip);
    written.push({ version, path, bytes: zip.byteLength });
  }
  return written;
}

const USAGE = `usage: npm run scorm -- --chapter NAME [--exercises id,id] [--lock keys] [--hide keys] [--label TEXT]
         [--theme light|dark|auto] [--title TEXT] [--mastery 0-100 (80)] [--lesson FILE] [--out DIR (build/scorm)] [--dist DIR (dist)]
Writes a SCORM 1.2 and a SCORM 2004 4th edition zip of the chapter (run \`bash scripts/build.sh dist\` first).`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(USAGE);
    process.exit(0);
  }
  let options;
  try {
    options = readOptions(process.argv.slice(2));
    for (const { version, path, bytes } of await writePackages(options)) {
      console.log(`SCORM ${version}: ${relative(process.cwd(), path)} (${bytes.toLocaleString('en')} bytes; ${options.ids.length} exercises: ${options.ids.join(', ')}; mastery ${options.mastery})`);
    }
  } catch (err) {
    fail(err.message);
  }
}
