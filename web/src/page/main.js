// The full page: one playground bound to the URL hash. The hash is the view, so a link reproduces it;
// presets and edits push history entries, so Back and Forward step through views; with embed=1 the page
// tells the frame that holds it how tall it is (dist/embed.js on the host page resizes the frame).
// This is the only module that reads location, history or the document's own elements.

import '../engine/bundled_loader.js'; // the SIMD loader inside this bundle: no separate request for it
import { createPlayground } from '../playground/playground.js';
import { parseHash, toHash } from '../model/schema.js';
import { startState, chapterOf } from '../lesson/chapters.js';
import { mountShare } from './share.js';
import { HOST_EVENTS } from '../features/services.js';
import { openLms } from '../lms/launch.js';
import { lessonOfAddress } from './lesson_file.js';
import { frameId } from '../embed/frame_id.js';

const EDIT_SESSION_MS = 1500; // keystrokes in one field this close together are one step of history
performance.mark('attention-page-start'); // also index.html's sign that page.js started (else it says so on the page)

const initial = opening(location.hash);
const embed = initial.state.embed === '1';
const root = document.getElementById('playground');
const lms = openLms(window); // inside a SCORM package (scripts/scorm.mjs): the LMS's session, else null
// ?lesson=file.json: an author's words and exercises (read before the first view). Awaited only when
// named: a top-level await ends this module's first task there, and Chromium then queues writing this
// module's code cache (tens of ms on a second visit) ahead of the engine's start (see index.html).
const named = lessonOfAddress(window);
const lesson = named === null ? null : await named;
/**
 * A hash read as the view: with no hash at all (a first visit, or Back to it) the lesson's start (its
 * constructed heads, chapters.js LESSON_START); a link that gives keys keeps exactly what it says.
 */
function opening(hash) {
  const read = parseHash(hash);
  const given = String(hash).replace(/^#/, '').split('&').filter(Boolean).map((part) => part.split('=')[0]);
  return { ...read, state: startState(read.state, given) };
}

/**
 * The state's link: it names the chapter shown, so that any view after the first is a hash of its own
 * (the author's panels alone, `panels=` with no chapter, name none: a chapter there would compose with them).
 */
function pageHash(state) {
  // Panels alone (no chapter named) keep no chapter: one named beside them would compose with them.
  if (!state.chapter && /(^#|&)panels=/.test(toHash(state))) return toHash(state);
  return toHash({ ...state, chapter: chapterOf(state).name }, { keep: ['chapter'] });
}

const playground = createPlayground(root, {
  state: initial.state, notes: initial.ignored, layout: embed ? 'embedded' : 'page',
  theme: embed ? 'light' : 'auto', // a page of its own follows the system; inside a course page, light
  compiled: window.attentionPlaygroundCompiled, // index.html started compiling the wasm while this file loaded
  progress: lms?.scope ?? `${location.pathname}#${initial.state.label || 'page'}`, // what the learner did (the exercises' attempts), in this origin's localStorage (per label)
  lesson,
});
applyPageFlags(initial.state);
lms?.attach(playground);

// The first view ends when the first run's maps are drawn (its pass is timed after they are painted,
// and the `result` event carries that time).
let first = true;
playground.on('drawn', () => {
  if (!first) return;
  first = false;
  performance.mark('attention-first-result');
  document.body.dataset.firstResultMs = performance.now().toFixed(1);
});

// ---- the hash and the history ----
let lastStep = { field: null, at: -Infinity };
playground.on('change', ({ state, field, kind }) => {
  const url = pageHash(state);
  const now = performance.now();
  // A preset, a chapter or a step of it is always a step of history; typing in one field is one step until another field, or a pause.
  const push = kind === 'load' || field === 'chapter' || field === 'step' || field !== lastStep.field || now - lastStep.at > EDIT_SESSION_MS;
  lastStep = { field: kind === 'load' ? null : field, at: now };
  if (push) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
  applyPageFlags(state);
});

// Back, Forward, or the address edited by hand: the hash wins over whatever the form shows.
addEventListener('hashchange', () => {
  const { state, ignored } = opening(location.hash);
  lastStep = { field: null, at: -Infinity };
  playground.setState(state, { replace: true, notes: ignored });
  applyPageFlags(state);
  share?.refresh();
});

/**
 * The lesson file as the share builder names it: name (as ?lesson= gives it, for the links), words (its JSON,
 * for the element and the widgets; null when it is not JSON: the page says why) and file (its path in the
 * page's folder, for `npm run scorm --lesson dist/…`; null for a file elsewhere on the site).
 */
function sharedLesson(name, text) {
  let words = null;
  try {
    const parsed = JSON.parse(text);
    words = parsed && typeof parsed === 'object' ? parsed : null;
  } catch { /* refused by the playground, which says why */ }
  const url = new URL(name, location.href), folder = new URL('./', location.href);
  const inside = url.origin === folder.origin && url.pathname.startsWith(folder.pathname) && !url.search;
  return { name, words, file: inside ? decodeURIComponent(url.pathname.slice(folder.pathname.length)) : null };
}

/** The page's own flags: embed hides the title and footer; theme colours the page around the playground. */
function applyPageFlags(state) {
  const isEmbed = state.embed === '1';
  document.documentElement.classList.toggle('embed', isEmbed);
  // Embedded, the page's landmarks join the course page's (screen readers and axe list a page's frames
  // together, issue 35 item 20): the frame's main and its hidden title's banner carry the playground's name
  // (the author's `label`, which names its panels too; two frames need two labels).
  const name = String(state.label ?? '').trim() || 'Attention playground';
  for (const el of [document.getElementById('playground'), document.querySelector('.masthead')]) {
    if (isEmbed) el?.setAttribute('aria-label', name);
    else el?.removeAttribute('aria-label');
  }
  document.documentElement.dataset.theme = ['light', 'dark', 'auto'].includes(state.theme) ? state.theme : isEmbed ? 'light' : 'auto';
}

// Every message to the host page names this frame: its `label` and its frame id (the iframe's name, else one
// made for this load), so a page holding several frames tells them apart without comparing windows.
const FRAME = frameId(window);
const from = () => ({ label: playground.getState().label ?? '', frame: FRAME });

// ---- inside a frame: report the height ----
if (embed && window.parent !== window) {
  let sent = -1;
  const post = () => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height === sent) return;
    sent = height;
    window.parent.postMessage({ type: 'attention-playground:size', height, ...from() }, '*');
  };
  new ResizeObserver(post).observe(document.body);
  // A browser does not lay out a frame that is off screen on another origin, so no resize is observed
  // there: measuring after each result and edit (a layout on demand) keeps the host's height right anyway.
  playground.on('result', post);
  playground.on('change', post);
  // embed.js asks again when it loads after the frame did (its first message was then missed).
  addEventListener('message', (e) => {
    if (e.source === window.parent && e.data?.type === 'attention-playground:measure') {
      sent = -1;
      post();
    }
  });
}

// ---- inside a frame: tell the host page (a course, an LMS) the features' events (features/services.js) ----
// { type: 'attention-playground:<event>', ...detail, label, frame }: the exercises' attempt { id, chapter, correct,
// answer, expected, attempts, statement } and progress { chapter, done, total, score, statement? }. Addressed to the origin of the
// page that holds the frame when the browser tells it (ancestorOrigins, else the referrer), so a
// learner's answers reach no other origin; '*' only when the host hides its origin (no referrer).
if (window.parent !== window) {
  const target = hostOrigin();
  for (const [type, detail] of Object.entries(HOST_EVENTS)) {
    playground.on(type, (d) => window.parent.postMessage({ type: `attention-playground:${type}`, ...detail(d), ...from() }, target));
  }
}

/** The origin of the page holding this frame, or '*' when the browser does not say. */
function hostOrigin() {
  const named = location.ancestorOrigins?.[0] ?? (document.referrer ? new URL(document.referrer).origin : null);
  return named && named !== 'null' ? named : '*';
}

// The builder for course authors (not inside an embedded view).
// An author's lesson file (?lesson=), once read, goes into the links and snippets the builder makes.
const shared = typeof lesson === 'string' ? sharedLesson(new URLSearchParams(location.search).get('lesson'), lesson) : null;
const share = embed ? null : mountShare(document.getElementById('share'), { playground, base: () => new URL('./', location.href).href, lesson: shared });
