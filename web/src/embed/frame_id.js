// The id a playground frame gives itself in every message it posts to its host page: the iframe's
// `name` when the author gave one (<iframe name="intro" …>: stable across reloads), else an id made for
// this load ("frame-" and 8 hex digits). With the `label`, it tells two frames on one page apart.

/** This window's frame id. */
export function frameId(win) {
  let name = '';
  try { name = String(win.name ?? '').trim(); } catch { name = ''; }
  if (name) return name.slice(0, 100);
  const bytes = new Uint8Array(4);
  win.crypto.getRandomValues(bytes);
  return `frame-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}
