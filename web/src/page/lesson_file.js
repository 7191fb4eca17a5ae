// The page's `lesson=` (in the query: index.html?lesson=my-lesson.json#chapter=attention): an author's
// lesson file (web/src/author/), read from the page's own origin only. A file elsewhere is refused
// with a message saying where to put it: the page would otherwise run words and exercises from any
// site a link names. Returns the file's text, null without `lesson=`, or an Error the playground shows.
// A link may also carry it in the hash beside the view's keys (index.html#chapter=attention&lesson=x.json):
// it is moved into the query before the view is read, since the hash is rewritten with every edit and the
// lesson must stay through edits and reloads.

/**
 * The lesson named by `win`'s address: null at once when there is none (so the page's module awaits
 * nothing: see page/main.js), else a promise of its JSON text or of an Error naming the problem.
 */
export function lessonOfAddress(win) {
  moveFromHash(win);
  const name = new URLSearchParams(win.location.search).get('lesson');
  if (name === null || name.trim() === '') return null;
  return readLesson(win, name);
}

async function readLesson(win, name) {
  const own = win.location.origin;
  let url;
  try {
    url = new URL(name, win.location.href);
  } catch {
    return new Error(`lesson=${name.slice(0, 80)} is not an address`);
  }
  if (url.origin !== own) {
    return new Error(`lesson=${name.slice(0, 80)} is on ${url.origin}, not on this page's origin (${own}): a lesson file must be served beside the playground (e.g. lesson=my-lesson.json)`);
  }
  try {
    const response = await win.fetch(url, { credentials: 'same-origin' });
    if (!response.ok) return new Error(`lesson=${name.slice(0, 80)} could not be read (HTTP ${response.status})`);
    const words = await response.text();
    return words.trim() ? words : new Error(`lesson=${name.slice(0, 80)} is an empty file`);
  } catch (err) {
    return new Error(`lesson=${name.slice(0, 80)} could not be read (${err.message})`);
  }
}

/** `lesson=` in the hash goes to the query (the other hash parts stay as they were, in order). */
function moveFromHash(win) {
  const parts = win.location.hash.replace(/^#/, '').split('&');
  const at = parts.findIndex((part) => /^lesson=/.test(part));
  if (at < 0) return;
  const query = new URLSearchParams(win.location.search);
  let name;
  try {
    name = decodeURIComponent(parts[at].slice('lesson='.length));
  } catch {
    name = parts[at].slice('lesson='.length);
  }
  query.set('lesson', name);
  parts.splice(at, 1);
  const rest = parts.filter(Boolean).join('&');
  win.history.replaceState(win.history.state, '', `${win.location.pathname}?${query}${rest ? `#${rest}` : ''}`);
}
