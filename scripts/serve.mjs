#!/usr/bin/env node
// Tiny static server for the quasar-pq demo. Node's `http` module only, no dependencies.
//
//   node scripts/serve.mjs            # http://127.0.0.1:8080/  (PORT env overrides; PORT=0 = any free port)
//   node scripts/serve.mjs --live DIR # also serves a devnet's chain directory (`quasar … --chain DIR`)
//
// Routes: `/` -> www/index.html; `/www/*`, `/js/*`, `/pkg/*`, `/kats/*` (the light-client tab's golden chain) from the repository root.
// The demo (www/) loads the package's API from /js/support/demo.mjs, over the demo build
// (pkg/demo: `hazmat`, the cheating-party toggle), which the npm package never ships.
// `/live/index.json` says whether it follows a devnet; with a live directory it lists the epochs of its validator sets and the
// (epoch, height) of its certificates, read afresh on every request, and `/live/set-E.qvst`,
// `/live/cert-E-H.qcrt` are those files (no other name is served from it); the light-client
// tab follows the chain as it grows.
// With `cluster: { dir, process }` (scripts/mixed.mjs, never the command line), `/cluster/roster.json`
// and `/cluster/process.json` are a `quasar node` roster and the key file of its browser process
// `process` (loopback only: the page of www/node/ plays that process; a real browser party makes
// its own keys), and `/cluster/index.json` says which process that is.
// Everything else is 404. Paths containing `..` (raw or percent-encoded) are rejected.
// The same module exports `startServer({ port, live, cluster })` so tests can run it in-process.

import http from 'node:http';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const DEFAULT_PORT = 8080;
const ALLOWED_PREFIXES = ['www', 'js', 'pkg', 'kats'];

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.d.ts': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

function mimeFor(file) {
  if (file.endsWith('.d.ts')) return MIME['.d.ts'];
  return MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Map a request path to an absolute file path under ROOT, or null if not servable. */
function resolveRequest(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null; // malformed percent-encoding
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) return null;
  if (segments.length === 0) return path.join(ROOT, 'www', 'index.html');
  if (!ALLOWED_PREFIXES.includes(segments[0])) return null;
  const file = path.join(ROOT, ...segments);
  // Belt and braces: the result must stay inside the allowed top-level folder.
  const base = path.join(ROOT, segments[0]);
  if (file !== base && !file.startsWith(base + path.sep)) return null;
  return file;
}

const SET_FILE = /^set-(\d{1,10})\.qvst$/;
const CERT_FILE = /^cert-(\d{1,10})-(\d{1,15})\.qcrt$/;

/** The chain in `dir` so far: set epochs and certificate (epoch, height), in order. */
async function liveIndex(dir) {
  let names = [];
  try {
    names = await readdir(dir);
  } catch {
    // Not there yet: an empty chain (the devnet creates it with its first set).
  }
  const sets = [];
  const certs = [];
  for (const n of names) {
    const s = SET_FILE.exec(n);
    if (s) sets.push(Number(s[1]));
    const c = CERT_FILE.exec(n);
    if (c) certs.push([Number(c[1]), Number(c[2])]);
  }
  sets.sort((a, b) => a - b);
  certs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { sets, certs };
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(body);
}

async function handle(req, res, live, cluster) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'method not allowed\n', { allow: 'GET, HEAD' });
    return;
  }
  const rawPath = (req.url ?? '/').split('?')[0].split('#')[0];
  let file = resolveRequest(rawPath);
  const liveName = rawPath.startsWith('/live/') ? rawPath.slice('/live/'.length) : null;
  // Answered with or without a live directory (`live: false`: nothing to follow), so a page
  // asking whether there is one meets no error.
  if (liveName === 'index.json') {
    const body = Buffer.from(JSON.stringify(live ? { live: true, ...(await liveIndex(live)) } : { live: false, sets: [], certs: [] }));
    res.writeHead(200, { 'content-type': MIME['.json'], 'content-length': body.length, 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  if (rawPath.startsWith('/cluster/')) {
    const name = rawPath.slice('/cluster/'.length);
    const files = cluster ? { 'roster.json': 'roster.json', 'process.json': `process-${cluster.process}.key` } : {};
    if (name === 'index.json') {
      const body = Buffer.from(JSON.stringify(cluster ? { cluster: true, process: cluster.process } : { cluster: false }));
      res.writeHead(200, { 'content-type': MIME['.json'], 'content-length': body.length, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    file = Object.hasOwn(files, name) ? path.join(cluster.dir, files[name]) : null;
  }
  // Only the names a devnet writes, and only from its directory.
  if (liveName !== null && live) file = SET_FILE.test(liveName) || CERT_FILE.test(liveName) ? path.join(live, liveName) : null;
  if (file === null) {
    send(res, rawPath.includes('..') || /%2e%2e/i.test(rawPath) ? 400 : 404, 'not found\n');
    return;
  }
  try {
    let info = await stat(file);
    if (info.isDirectory()) {
      file = path.join(file, 'index.html');
      info = await stat(file);
    }
    if (!info.isFile()) throw new Error('not a file');
    const body = await readFile(file);
    res.writeHead(200, {
      'content-type': mimeFor(file),
      'content-length': body.length,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // Cross-origin isolation: finer performance.now() for the timings shown, and
      // SharedArrayBuffer for worker pools. Everything is same-origin, so nothing breaks.
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch {
    send(res, 404, 'not found\n');
  }
}

/**
 * Start the server on 127.0.0.1.
 * @param {{ port?: number, live?: string, cluster?: { dir: string, process: number } }} [options]
 *   port 0 picks a free port; `live`, a devnet's chain directory to serve under /live/;
 *   `cluster`, a `quasar node` roster directory and its browser process, under /cluster/.
 * @returns {Promise<{ url: string, port: number, close: () => Promise<void> }>}
 */
export function startServer({ port = DEFAULT_PORT, live = null, cluster = null } = {}) {
  const liveDir = live ? path.resolve(live) : null;
  const clusterAt = cluster ? { dir: path.resolve(cluster.dir), process: cluster.process } : null;
  return new Promise((resolve, reject) => {
    const server = http.createServer((req, res) => {
      handle(req, res, liveDir, clusterAt).catch(() => {
        if (!res.headersSent) send(res, 500, 'internal error\n');
        else res.destroy();
      });
    });
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      const actual = server.address().port;
      resolve({
        url: `http://${HOST}:${actual}/`,
        port: actual,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections?.();
          }),
      });
    });
  });
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const envPort = process.env.PORT;
  const port = envPort === undefined || envPort === '' ? DEFAULT_PORT : Number(envPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`quasar-pq demo: invalid PORT ${JSON.stringify(envPort)}`);
    process.exit(1);
  }
  const li = process.argv.indexOf('--live');
  const live = li > 0 ? process.argv[li + 1] : null;
  if (li > 0 && !live) {
    console.error('quasar-pq demo: --live needs a directory (the --chain DIR of a quasar devnet)');
    process.exit(1);
  }
  try {
    const { url } = await startServer({ port, live });
    console.log(`quasar-pq demo: ${url}${live ? ` (following the devnet chain in ${live} under /live/)` : ''}`);
  } catch (err) {
    if (err && err.code === 'EADDRINUSE') {
      console.error(`quasar-pq demo: port ${port} on ${HOST} is busy; set PORT=<n> (or PORT=0 for any free port)`);
    } else {
      console.error(`quasar-pq demo: cannot start server: ${err?.message ?? err}`);
    }
    process.exit(1);
  }
}
