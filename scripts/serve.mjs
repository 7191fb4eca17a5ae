// A small static file server for dist/ (node:http, no dependencies), bound to 127.0.0.1.
// Usage: node scripts/serve.mjs [dir] [--port N]   (PORT env also works; default 8080; 0 = any free port)
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  const base = resolve(dir);
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost');
      let path = normalize(join(base, decodeURIComponent(url.pathname)));
      // Never serve anything outside the folder, whatever the request path says.
      if (path !== base && !path.startsWith(base + sep)) return send(res, 403, 'forbidden');
      let info = await stat(path).catch(() => null);
      if (info?.isDirectory()) {
        path = join(path, 'index.html');
        info = await stat(path).catch(() => null);
      }
      if (!info?.isFile()) return send(res, 404, `not found: ${url.pathname}`);
      // Revalidate every time (a rebuilt dist/ shows at once), but answer an unchanged file with
      // 304: the page and its worker ask for the same engine files, the second ask is then free.
      const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
      const headers = { 'Content-Type': mimeType(path), 'Cache-Control': 'no-cache', ETag: etag, 'Access-Control-Allow-Origin': '*' };
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, headers);
        return res.end();
      }
      res.writeHead(200, { ...headers, 'Content-Length': info.size });
      if (req.method === 'HEAD') return res.end();
      createReadStream(path).pipe(res);
      if (!quiet) console.log(`${req.method} ${url.pathname}`);
    } catch (err) {
      send(res, 500, String(err?.message ?? err));
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
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

function send(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text + '\n');
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
