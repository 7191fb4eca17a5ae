// The strings of web/src/features that read as words but are no learner's text (lesson_text.test.mjs):
// kept short and explicit; a learner's sentence belongs in the lesson's data (web/src/lesson/).
const EXEMPT = [
  'previous,same_word,first_token', // the lesson's start: a value of the heads key (lesson/chapters.js)
  'causal+padding', // a value of the mask key (schema.js)
  /^color-mix\(in \w+, /,
  /^var\(--[\w-]+, #[0-9a-f]+\)$/, // a theme colour with its fallback // a colour computed for a style property
  /^\d+px \d+ var\(--/, // a border written as a style property
  /^var\(--[\w-]+\)$/, // a theme colour or size for a style property
  /^minmax\(/, // a grid track for a style property
  /^\(prefers-[\w-]+: \w+\)$/, // a media query
  /^[\w-]+\.(csv|npz|npy|json|svg|png)$/, // a file name offered for a download
  /^[a-z_]+\.[a-z0-9_.-]+$/, // a lesson-text id or a dotted data key ('training.start-loss')
  /^attention-playground:[a-z:-]+$/, // a key of the page's localStorage (lesson/exercises/index.js)
  /^(query|key|value) input$/, // the start of a name of the core's shape trace (analyze().shapes), matched, not shown
];

/** True when `text` is one of the exempt strings. */
export const isExempt = (text) => EXEMPT.some((e) => (e instanceof RegExp ? e.test(text) : e === text));
