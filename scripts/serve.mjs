// A small static file server for dist/ (node:http, no dependencies), bound to 127.0.0.1.
// Usage: node scripts/serve.mjs [dir] [--port N]   (PORT env also works; default 8080; 0 = any free port)
// It serves regular files whose real path (links followed) lies inside the folder's real path,
// to GET and HEAD only (405 otherwise), with Access-Control-Allow-Origin: * so that a course
// page on another origin can load the engine; bad paths get 400, unreadable files 403, and no
// request, file or client can stop it.
import { createServer } from 'node:http';
import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentVersion } from './content_version.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Browsers refuse to compile wasm streamed with another type, and refuse module scripts
// served as anything but JavaScript: these two entries are the reason this table exists.
const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

/** The MIME type sent for a file name. */
export function mimeType(path) {
  return MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Starts serving `dir` on 127.0.0.1:`port` (0 picks a free port).
 * Resolves to { server, port, url, close() }.
 */
export async function serve({ dir = join(root, 'dist'), port = 8080, host = '127.0.0.1', quiet = true } = {}) {
  // The real path of the folder: every file served must resolve (links followed) inside it.
  const base = await realpath(resolve(dir));
  const server = createServer((req, res) => {
    answer(base, req, res, quiet).catch((err) => fail(res, 500, `internal error: ${err?.message ?? err}`));
  });
  // A malformed request or a reset connection must not take the server down.
  server.on('clientError', (err, socket) => {
    if (socket.writable && !socket.destroyed) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise((ok, failed) => {
    server.once('error', failed);
    server.listen(port, host, ok);
  });
  const actual = server.address().port;
  return {
    server,
    port: actual,
    url: `http://${host}:${actual}/`,
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(() => ok()); }),
  };
}

// Sent with every answer: a course page on another origin may load the element module and
// the wasm from here (module scripts and fetch() are CORS requests).
const COMMON_HEADERS = { 'Access-Control-Allow-Origin': '*' };

/** Answers one request: GET or HEAD of a regular file whose real path lies inside `base`. */
async function answer(base, req, res, quiet) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return send(res, 405, `method ${req.method} is not allowed; this server only reads files`, { Allow: 'GET, HEAD' });
  }
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
  } catch {
    return send(res, 400, 'bad request: the path is not valid percent-encoded UTF-8');
  }
  if (pathname.includes('\0')) return send(res, 400, 'bad request: the path contains a NUL byte');
  const path = normalize(join(base, pathname));
  // Never anything outside the folder, whatever the request path says...
  if (!inside(base, path)) return send(res, 403, 'forbidden');
  // ...nor through a link inside it that leads out: only real paths are compared.
  let real = await realpath(path).catch(() => null);
  if (real === null) return send(res, 404, `not found: ${pathname}`);
  if (!inside(base, real)) return send(res, 403, 'forbidden');
  let info = await stat(real);
  if (info.isDirectory()) {
    real = await realpath(join(real, 'index.html')).catch(() => null);
    if (real === null) return send(res, 404, `not found: ${pathname}`);
    if (!inside(base, real)) return send(res, 403, 'forbidden');
    info = await stat(real);
  }
  // Regular files only: opening a FIFO would wait for a writer and hold a thread for good.
  if (!info.isFile()) return send(res, 404, `not found: ${pathname}`);
  let file;
  try {
    file = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    if (err.code === 'EACCES' || err.code === 'EPERM') return send(res, 403, `forbidden: ${pathname} cannot be read`);
    if (err.code === 'ENOENT') return send(res, 404, `not found: ${pathname}`);
    return send(res, 500, `cannot open ${pathname}: ${err.code ?? err.message}`);
  }
  let handedOver = false;
  try {
    // What was opened is what is described: the file may have changed since the stat above.
    info = await file.stat();
    if (!info.isFile()) return send(res, 404, `not found: ${pathname}`);
    // Revalidate every time (a rebuilt dist/ shows at once), but answer an unchanged file with
    // 304: the page and its worker ask for the same engine files, the second ask is then free.
    // A file asked for with its own content version (`?v=`, the wasm: scripts/make_dist.mjs) cannot
    // change under that URL: the browser may keep it for a year without asking again.
    const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
    const asked = new URL(req.url, 'http://localhost').searchParams.get('v');
    const lasting = asked !== null && real.endsWith('.wasm') && asked === await versionOf(real, info, file); // only the wasm is asked for so
    const headers = { ...COMMON_HEADERS, 'Content-Type': mimeType(real), 'Cache-Control': lasting ? 'public, max-age=31536000, immutable' : 'no-cache', ETag: etag };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers);
      return res.end();
    }
    res.writeHead(200, { ...headers, 'Content-Length': info.size });
    if (req.method === 'HEAD') return res.end();
    handedOver = true;
    // pipeline() closes the file when done or when the client goes away, and a read error
    // (after the 200 went out) cuts the connection, so the client sees a short body, instead
    // of an unhandled 'error' event that would stop the server.
    pipeline(file.createReadStream({ start: 0 }), res, (err) => { if (err && !res.destroyed) res.destroy(); });
    if (!quiet) console.log(`${req.method} ${pathname}`);
  } finally {
    if (!handedOver) await file.close().catch(() => {});
  }
}

const versions = new Map(); // real path → { key: size and mtime, version }: each file hashed once while unchanged

/** The content version (scripts/content_version.mjs) of the open file `file` at `real`, described by `info`. */
async function versionOf(real, info, file) {
  const key = `${info.size}:${info.mtimeMs}`;
  const known = versions.get(real);
  if (known?.key === key) return known.version;
  const version = contentVersion(await file.readFile());
  versions.set(real, { key, version });
  return version;
}

/** True when `path` is `base` or lies under it. */
function inside(base, path) {
  return path === base || path.startsWith(base.endsWith(sep) ? base : base + sep);
}

function send(res, status, text, extra = {}) {
  res.writeHead(status, { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...extra });
  res.end(text + '\n');
}

/** An error after the answer may have begun: send it if nothing was sent yet, else cut the connection. */
function fail(res, status, text) {
  try {
    if (!res.headersSent) return send(res, status, text);
  } catch { /* the connection is gone: nothing left to tell */ }
  res.destroy();
}

function parseArgs(argv) {
  const opts = { dir: undefined, port: process.env.PORT !== undefined ? Number(process.env.PORT) : 8080 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--port') opts.port = Number(argv[++i]);
    else if (arg.startsWith('--port=')) opts.port = Number(arg.slice(7));
    else if (arg === '--help' || arg === '-h') opts.help = true;
    else opts.dir = arg;
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    throw new Error(`the port must be a whole number from 0 to 65535, got ${opts.port}`);
  }
  return opts;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const opts = parseArgs(process.argv.slice(2));
    if (opts.help) {
      console.log('usage: node scripts/serve.mjs [dir] [--port N]   (default dir dist/, port 8080 or $PORT)');
    } else {
      const { url } = await serve({ dir: opts.dir, port: opts.port, quiet: false });
      console.log(`Serving ${resolve(opts.dir ?? join(root, 'dist'))} at ${url}  (Ctrl+C to stop)`);
    }
  } catch (err) {
    console.error(`serve: ${err.message}`);
    process.exit(1);
  }
}
