// Finds each system's WebAssembly.Memory without touching the libraries: while a system loads,
// WebAssembly.instantiate* are wrapped and every Memory they import or export is recorded for it.

const captured = new Map(); // system label -> Set<WebAssembly.Memory>
let currentOwner = null;

function noteMemories(obj) {
  if (!currentOwner || obj == null || typeof obj !== 'object') return;
  for (const v of Object.values(obj)) {
    if (v instanceof WebAssembly.Memory) captured.get(currentOwner).add(v);
  }
}

/** Memory can be imported (importObject.<module>.<name>) or exported (instance.exports.<name>). */
function noteInstantiation(importObject, result) {
  if (importObject) for (const ns of Object.values(importObject)) noteMemories(ns);
  const instance = result instanceof WebAssembly.Instance ? result : result?.instance;
  if (instance) noteMemories(instance.exports);
}

let installed = false;
function install() {
  if (installed) return;
  installed = true;
  const { instantiate, instantiateStreaming } = WebAssembly;
  // Wrapping (not replacing the classes) keeps instanceof checks inside the libraries intact.
  WebAssembly.instantiate = async function (source, importObject) {
    const result = await instantiate.call(this, source, importObject);
    noteInstantiation(importObject, result);
    return result;
  };
  if (instantiateStreaming) {
    WebAssembly.instantiateStreaming = async function (source, importObject) {
      const result = await instantiateStreaming.call(this, source, importObject);
      noteInstantiation(importObject, result);
      return result;
    };
  }
}

/** Runs load() and records the wasm memories it creates under `label`; returns load()'s result. */
export async function loadWithMemoryCapture(label, load) {
  install();
  if (!captured.has(label)) captured.set(label, new Set());
  const previous = currentOwner;
  currentOwner = label;
  try {
    return await load();
  } finally {
    currentOwner = previous;
  }
}

/**
 * Current byteLength of the system's memories (summed if it made several). Wasm memory never
 * shrinks, so this is the high-water mark so far. null when nothing was captured.
 */
export function wasmMemoryBytes(label) {
  const set = captured.get(label);
  if (!set || set.size === 0) return null;
  let total = 0;
  for (const m of set) total += m.buffer.byteLength;
  return total;
}
