// Finds the LMS's SCORM API object: `API` (1.2) or `API_1484_11` (2004) on this window or one that
// holds it, as the SCORM run-time says: up the parent frames, then the opener's window and its
// parents, a bounded number of steps (a cross-origin window cannot be read, and is passed over).

const MAX_STEPS = 10; // frames nested deeper than this are not an LMS's

/** The object named `name` on `win`, or null (a window of another origin throws on any read). */
function objectOn(win, name) {
  try {
    const api = win?.[name];
    return api && typeof api === 'object' ? api : null;
  } catch {
    return null;
  }
}

/** `name` on `start` or one of its parents, at most MAX_STEPS up; null when none has it. */
function upFrom(start, name) {
  let win = start;
  for (let step = 0; win && step <= MAX_STEPS; step += 1) {
    const api = objectOn(win, name);
    if (api) return api;
    let parent = null;
    try { parent = win.parent; } catch { parent = null; }
    if (!parent || parent === win) return null;
    win = parent;
  }
  return null;
}

/** The API `name` ('API' or 'API_1484_11') seen from `win`: its frames first, then its opener's. */
export function findApi(win, name) {
  const found = upFrom(win, name);
  if (found) return found;
  let top = null, opener = null;
  try { top = win.top; } catch { top = null; }
  try { opener = top?.opener ?? win.opener; } catch { opener = null; }
  return opener ? upFrom(opener, name) : null;
}
