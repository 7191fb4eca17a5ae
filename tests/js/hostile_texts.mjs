// Texts a hostile (or unlucky) view may hold, for the snippet tests (tests/js/snippets.test.mjs and
// tests/browser/hostile_links.test.mjs): fences, blank lines, quotes, closing tags, a script, emoji,
// line separators, Markdown syntax and controls; the last one holds all of them at once. (No NUL: HTML
// cannot carry it, a browser reads it as U+FFFD; tests/js/snippets.test.mjs checks it in MyST and Python.)
export const HOSTILE = [
  'before\n```\nafter',
  '```',
  'one\n\ntwo (a blank line)',
  'it\'s "quoted" and \'single\'',
  '</attention-playground><script>alert(1)</script>',
  'emoji 😀 and 👩‍👩‍👧 and é',
  'separators\u2028line\u2029paragraph\u0085next',
  'back\\slash `tick` [link](javascript:x) *em* _u_',
  'crlf\r\ntab\there\u0001soh\u007fdel\ufeffbom\u0080pad',
  ':::\n:::{note}\n~~~',
];
HOSTILE.push(HOSTILE.join('\n\n'));
