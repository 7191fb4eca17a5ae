// A playground's author lesson (the `lesson` option: web/src/author/). Its words are put over the lesson's
// at once, before any panel is built, so the first view shows them; the full check and the exercises
// come with the lazy panels' code (panels.js), and the words' ids are checked once every panel's words
// are loaded. A refused lesson is an `error` event (field `lesson`) and a visible note naming every
// problem, and its words are taken back: the playground goes on with the lesson's own.

import { useText, text } from '../lesson/text.js';
import { FEATURES } from '../features/index.js';
import '../lesson/author_text.js'; // the note of a refused lesson

/** The `text` part of a lesson as far as it reads at a glance (an object of strings), else {}: the full check follows. */
function wordsAtOnce(given) {
  let lesson = given;
  if (typeof given === 'string') {
    try { lesson = JSON.parse(given); } catch { return {}; }
  }
  const words = lesson?.text;
  if (!words || typeof words !== 'object' || Array.isArray(words)) return {};
  return Object.values(words).every((w) => typeof w === 'string') ? words : {};
}

/**
 * m: the model; p: the playground's parts. Returns { authored (the author's exercises, filled once checked), ready (a promise,
 * settled once they are, or the lesson was refused: the exercise session waits for it), release() (takes the words back) }.
 */
export function openAuthorLesson(m, p) {
  const given = p.options.lesson;
  const out = { authored: [], ready: Promise.resolve(), release() {} };
  if (given == null || given === '') return out;
  const words = given instanceof Error ? {} : wordsAtOnce(given);
  let release = Object.keys(words).length ? useText(words, 'en', { check: false }) : () => {};
  out.release = () => { release(); release = () => {}; };
  const refuse = (err) => {
    out.release();
    out.authored.length = 0;
    if (m.destroyed) return;
    m.lessonNote = text('author.lesson_refused', { message: err.message }); // kept after edits (a link's notes are not)
    p.events.emit('error', { message: err.message, field: 'lesson' });
    p.redraw?.render('state');
  };
  const bundle = () => (p.base ? import(new URL('panels.js', p.base).href) : Promise.reject(new Error(p.baseError)));
  const read = Promise.resolve().then(bundle).then((code) => ({ code, lesson: code.readLesson(given) }));
  out.ready = read.then(({ lesson }) => {
    out.authored.push(...lesson.authored);
    if (!m.destroyed) p.redraw.render('state');
  }, refuse);
  // Every lazy panel's words, then the ids (the first view's are known already).
  read.then(async ({ code, lesson }) => {
    await Promise.all(FEATURES.filter((f) => f.lazy).map((f) => p.panels.lazyPanel(f.name)));
    if (!m.destroyed) code.checkTextIds(lesson.text);
  }, () => {}) // a read that failed was refused above
    .catch((err) => { if (err?.name === 'LessonError') refuse(err); }); // a panel's code that fails says so in its panel
  return out;
}
