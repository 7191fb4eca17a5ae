// Starts a module Web Worker from a script that may live on another origin. A worker's script must
// come from its starter's own origin, and course pages load the playground from another host: for such
// a script the worker starts from a same-origin blob: URL whose only line imports the real script by
// its absolute URL (a cross-origin module import, which CORS allows). Used for the compute worker (from
// the page) and for the pool's workers (from inside the compute worker, whose origin is the page's).

/** A module Worker running `workerUrl`; `ownerOrigin` is the origin of the page or worker starting it. */
export function startModuleWorker(workerUrl, ownerOrigin, name = 'attention-playground') {
  const url = new URL(workerUrl);
  if (url.origin === ownerOrigin) return new Worker(url, { type: 'module', name });
  const source = `import ${JSON.stringify(url.href)};\n`;
  const blob = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  try {
    return new Worker(blob, { type: 'module', name });
  } finally {
    // The worker has its URL; revoking after it fetched it is safe, and nothing leaks per worker.
    setTimeout(() => URL.revokeObjectURL(blob), 10000);
  }
}
