// A playground's author lesson (the `lesson` option: author/lesson.js): opened before anything
// is drawn, so the first view already shows the author's words and exercises. A refused lesson is an
// `error` event (field `lesson`) and a visible note naming every problem; the playground goes on with
// the lesson's own words. The words' ids are checked once every lazy panel's words are loaded.

import { openLesson } from '../author/lesson.js';
import { text } from '../lesson/text.js';
import { FEATURES } from '../features/index.js';

/** m: the model; p: the playground's parts. Returns the opened lesson ({ exercises, release() }). */
export function openAuthorLesson(m, p) {
  const lesson = openLesson(p.options.lesson);
  const refuse = (err) => {
    if (m.destroyed) return;
    m.linkNotes = [...m.linkNotes, text('author.lesson_refused', { message: err.message })];
    p.events.emit('error', { message: err.message, field: 'lesson' });
    p.redraw?.render('state');
  };
  // After the hosts' listeners are on (the page adds them once createPlayground returns).
  if (lesson.error) queueMicrotask(() => refuse(lesson.error));
  else if (p.options.lesson) {
    p.ready.then(() => Promise.all(FEATURES.filter((f) => f.lazy).map((f) => p.panels.lazyPanel(f.name))))
      .then(() => { if (!m.destroyed) lesson.checkText(); })
      .catch(refuse);
  }
  return lesson;
}
