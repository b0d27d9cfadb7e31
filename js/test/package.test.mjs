// The packed npm package, as a user gets it: `npm pack` this repository (the WASM build must
// exist: `node scripts/build-wasm.mjs`), install the tarball into a fresh temporary project
// (offline: the package has no runtime dependencies), and there, in a child `node` process
// running an ES module:
//   - an ML-DSA verify through `quasar-pq/verify` (the light build),
//   - a 3-of-5 Pulsar custody ceremony with the full build (`quasar-pq`), every party and
//     the combiner in its own worker_thread with its own WASM instance, messages passed
//     as transferable ArrayBuffers through a tiny coordinator: DKG, key ceremony, signing,
//     verification with the light build;
//   - every example the package ships (examples/*.mjs), run as shipped from the installed
//     package, each printing the verdicts asserted here, and examples/browser.html in headless
//     Chromium, served from the installed package over a local HTTP server.
// Also checks what `files` ships (the sample chain the build wrote, the examples) and the
// `exports` map. The tarball is packed and installed once.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium.mjs';
import { patience } from '../support/patience.mjs';
import { BASELINE, BUILDS } from '../../scripts/build-wasm.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let work;
let tarball;
let packed;

function npm(args, cwd) {
  return execFileSync(NPM, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
  });
}

before(() => {
  for (const b of ['full', 'light']) {
    assert.ok(
      existsSync(join(ROOT, 'pkg', b, 'quasar_pq_bg.wasm')),
      `pkg/${b} is missing: run \`node scripts/build-wasm.mjs\` first`,
    );
  }
  assert.ok(existsSync(join(ROOT, 'sample', 'chain.json')), 'sample/ is missing: `node scripts/build-wasm.mjs` writes it after the full build');
  work = mkdtempSync(join(tmpdir(), 'quasar-pq-package-'));
  const out = JSON.parse(npm(['pack', '--json', '--pack-destination', work], ROOT));
  packed = out[0];
  tarball = join(work, packed.filename);
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The modules the package ships (every build but the demo's). */
const SHIPPED = Object.keys(BUILDS).filter((m) => m !== 'demo');

test('`files` ships the entry points, types and WASM, and nothing else', () => {
  const paths = packed.files.map((f) => f.path).sort();
  // Exactly the entry points, their types, the shared modules and the two WASM builds (the
  // generated glue and the .wasm), the examples and the sample chain, the license texts the
  // declared `Apache-2.0 OR MIT` needs, plus what npm always adds (package.json, README.md).
  assert.deepEqual(paths, [
    'LICENSE-APACHE',
    'LICENSE-MIT',
    'README.md',
    ...readdirSync(join(ROOT, 'examples')).filter((f) => !f.endsWith('.rs')).map((f) => `examples/${f}`),
    'js/bls.js',
    'js/cert.js',
    'js/common.js',
    'js/corona.js',
    'js/devnet.js',
    ...readdirSync(join(ROOT, 'js', 'entry')).map((f) => `js/entry/${f}`),
    'js/full.js',
    'js/index.d.ts',
    'js/index.js',
    'js/keyfmt.js',
    'js/lens.js',
    'js/magnetar.js',
    'js/mldsa.js',
    'js/party.js',
    'js/protocols.d.ts',
    'js/protocols.js',
    'js/pulsar.js',
    'js/run.js',
    'js/slhdsa.js',
    'js/verify.d.ts',
    'js/verify.js',
    'package.json',
    ...SHIPPED.flatMap((m) => [`pkg/${m}/quasar_pq.js`, `pkg/${m}/quasar_pq_bg.wasm`, ...(BUILDS[m].baseline ? [`pkg/${m}/${BASELINE}`] : [])]),
    ...readdirSync(join(ROOT, 'sample')).map((f) => `sample/${f}`),
  ].sort());
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const entries = [
    ['.', 'index'],
    ['./verify', 'verify'],
    ['./verify/mldsa', 'entry/mldsa-verify'],
    ['./verify/slhdsa', 'entry/slhdsa-verify'],
    ...['ed25519', 'secp256k1', 'ristretto255'].map((c) => [`./lens/${c}`, `entry/lens-${c}`]),
    ...['sign', 'cert', 'pulsar', 'committee', 'corona'].map((m) => [`./${m}`, `entry/${m}`]),
  ];
  for (const [entry, file] of entries) {
    assert.deepEqual(pkg.exports[entry], { types: `./js/${file}.d.ts`, default: `./js/${file}.js` }, `exports["${entry}"]`);
  }
  assert.equal(pkg.exports['./sample/*'], './sample/*', 'the sample chain resolves by name (quasar-pq/sample/chain.json)');
  assert.equal(pkg.type, 'module');
  assert.equal(pkg.license, '(Apache-2.0 OR MIT)');
  for (const f of ['LICENSE-APACHE', 'LICENSE-MIT']) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    assert.ok(text.includes(f === 'LICENSE-MIT' ? 'Permission is hereby granted' : 'Apache License'), f);
  }
  assert.deepEqual(pkg.dependencies ?? {}, {}, 'no runtime dependencies');
});

test('the packed package has no misbehaviour hooks: no `cheat` option, no hazmat export', () => {
  const dir = join(work, 'unpacked');
  mkdirSync(dir);
  execFileSync('tar', ['-xzf', tarball, '-C', dir]);
  const root = join(dir, 'package');
  for (const path of packed.files.map((f) => f.path)) {
    if (!/\.(js|ts)$/.test(path)) continue;
    const text = readFileSync(join(root, path), 'utf8');
    assert.doesNotMatch(text, /cheat|hazmat/i, `${path} mentions a misbehaviour hook`);
  }
  for (const b of SHIPPED) {
    const exports = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(join(root, 'pkg', b, 'quasar_pq_bg.wasm'))));
    if (b === 'full') assert.ok(exports.some((e) => e.name === 'lensKeygen'), 'the export names are the bindings\' own');
    const hooks = exports.filter((e) => /cheat|hazmat/i.test(e.name));
    assert.deepEqual(hooks, [], `pkg/${b} exports no misbehaviour hook`);
  }
});

// The worker: one entity (a member or the combiner), its own WASM instance. It holds at most
// one running Party and its keyring; calls arrive as `{ call, op, ... }`.
const WORKER = `
import { parentPort } from 'node:worker_threads';
import { init, lens, pulsar } from 'quasar-pq';
await init();
let party = null;
let keyring = null;
const factory = (name) => name.split('.').reduce((o, k) => o[k], { lens, pulsar });
function buffers(v, out = new Set()) {
  if (v instanceof Uint8Array) out.add(v.buffer);
  else if (Array.isArray(v)) v.forEach((x) => buffers(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => buffers(x, out));
  return out;
}
function handle(m) {
  if (m.op === 'start') {
    party?.free();
    party = factory(m.factory)({ ...m.params, ...(m.params.keyring ? { keyring } : {}) });
    return { outgoing: party.start.outgoing };
  }
  const r = party.step(m.inbox);
  if (r.done) {
    const next = r.outcome.keyring;
    delete r.outcome.keyring;
    if (next) { keyring?.free(); keyring = next; }
    party.free();
    party = null;
  }
  return r;
}
parentPort.on('message', (m) => {
  try {
    const result = handle(m);
    parentPort.postMessage({ call: m.call, result }, [...buffers(result)]);
  } catch (e) {
    parentPort.postMessage({ call: m.call, error: { name: e.name, message: e.message, code: e.code, module: e.module, culprits: e.culprits } });
  }
});
parentPort.postMessage({ ready: true });
`;

// The main thread: routes bytes between workers exactly as a network would (every message
// copied into a fresh buffer per recipient, and that buffer transferred), driven by the
// package's own \`runAsync\` (the semantics of the Rust simulator).
const MAIN = `
import { Worker } from 'node:worker_threads';
import { init as initLight, mlDsa44 } from 'quasar-pq/verify';
import { init, pulsar, runAsync, mlDsa44 as full44 } from 'quasar-pq';
import { init as initVerifier, mlDsa44 as verifier44 } from 'quasar-pq/verify/mldsa';

const out = {};
await initLight();
await init();
const msg = new TextEncoder().encode('packed');
const kp = full44.keygen(new Uint8Array(32).fill(7));
const sig = full44.sign(msg, kp.secretKey);
out.lightVerify = mlDsa44.verify(sig, msg, kp.publicKey);
out.lightReject = mlDsa44.verify(sig, new TextEncoder().encode('other'), kp.publicKey);
await initVerifier();
out.verifierVerify = verifier44.verify(sig, msg, kp.publicKey);

class Remote {
  constructor(id) {
    this.id = id;
    this.worker = new Worker(new URL('./worker.mjs', import.meta.url));
    this.pending = new Map();
    this.next = 0;
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('error', reject);
      this.worker.on('message', (m) => {
        if (m.ready) return resolve();
        const p = this.pending.get(m.call);
        this.pending.delete(m.call);
        if (m.error) p.reject(Object.assign(new Error(m.error.message), m.error));
        else p.resolve(m.result);
      });
    });
  }
  call(msg) {
    const call = this.next++;
    const transfer = [];
    const copy = (v) => {
      if (v instanceof Uint8Array) { const c = v.slice(); transfer.push(c.buffer); return c; }
      if (Array.isArray(v)) return v.map(copy);
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)]));
      return v;
    };
    return new Promise((resolve, reject) => {
      this.pending.set(call, { resolve, reject });
      this.worker.postMessage({ ...copy(msg), call }, transfer);
    });
  }
}

/** Start \`specs\` ([{ remote, factory, params }]) and run them to the end with the package's
 *  \`runAsync\` (each step a message to a worker; this side only routes bytes): outcomes by id. */
async function run(specs) {
  const stand = [];
  for (const s of specs) {
    const r = await s.remote.call({ op: 'start', factory: s.factory, params: s.params });
    const remote = s.remote;
    stand.push({ id: remote.id, start: { outgoing: r.outgoing }, step: (inbox) => remote.call({ op: 'step', inbox }) });
  }
  const r = await runAsync(stand);
  for (const [, e] of r.errors) throw e;
  if (r.waiting.length) throw new Error(\`still waiting: \${r.waiting.join(', ')}\`);
  return r.outcomes;
}

const ids = [1, 2, 3, 4, 5];
const parties = ids.map((id) => new Remote(id));
const combiner = new Remote(1000);
await Promise.all([...parties, combiner].map((p) => p.ready));
const sid = () => crypto.getRandomValues(new Uint8Array(32));

// The custody lifecycle: DKG → key ceremony by 1, 2, 3 → certification, one run; then a
// signing session. The parties' own messages carry the sharing, the session and the key.
const setup = { session: sid(), level: 44, members: ids, threshold: 3, signers: [1, 2, 3] };
const made = await run([
  ...parties.map((r) => ({ remote: r, factory: 'pulsar.lifecycle.member.setup', params: { ...setup, combiner: 1000, id: r.id } })),
  { remote: combiner, factory: 'pulsar.lifecycle.combiner.setup', params: { ...setup, id: 1000 } },
]);
const key = made.get(1000);
out.sharingsAgree = ids.every((id) => Buffer.from(made.get(id).sharing).equals(Buffer.from(key.sharing)));
out.keysAgree = ids.every((id) => Buffer.from(made.get(id).keyRecord).equals(Buffer.from(key.keyRecord)));

const message = new TextEncoder().encode('signed by 2, 4 and 5 in three workers');
const signers = [parties[1], parties[3], parties[4]];
const sign = { session: sid(), signers: [2, 4, 5], message };
const signed = (await run([
  { remote: combiner, factory: 'pulsar.lifecycle.combiner.sign', params: { ...sign, id: 1000, keyRecord: key.keyRecord, sharing: key.sharing } },
  ...signers.map((r) => ({ remote: r, factory: 'pulsar.lifecycle.member.sign', params: { ...sign, keyring: true, combiner: 1000 } })),
])).get(1000);
out.signers = signed.signers;
out.groupKeyLength = key.groupKey.length;
out.verifyLight = mlDsa44.verify(signed.signature, message, key.groupKey);
out.verifyFull = pulsar.verify(key.groupKey, message, signed.signature);
await Promise.all([...parties, combiner].map((p) => p.worker.terminate()));
console.log(JSON.stringify(out));
`;

let app;
/** The empty project the tarball is installed into (installed once, by the first test that needs it). */
function installed() {
  if (app) return app;
  const dir = join(work, 'app');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  npm(['install', '--no-audit', '--no-fund', '--offline', tarball], dir);
  const pkg = JSON.parse(readFileSync(join(dir, 'node_modules', 'quasar-pq', 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'quasar-pq');
  app = dir;
  return app;
}

test('installed from the tarball: ML-DSA verify via ./verify and a 3-of-5 Pulsar ceremony in worker_threads', () => {
  const app = installed();
  writeFileSync(join(app, 'worker.mjs'), WORKER);
  writeFileSync(join(app, 'main.mjs'), MAIN);
  const stdout = execFileSync(process.execPath, ['main.mjs'], { cwd: app, encoding: 'utf8', timeout: patience(600) });
  const out = JSON.parse(stdout.trim().split('\n').pop());
  assert.deepEqual(out, {
    lightVerify: true,
    lightReject: false,
    verifierVerify: true,
    sharingsAgree: true,
    keysAgree: true,
    signers: [2, 4, 5],
    groupKeyLength: 1312,
    verifyLight: true,
    verifyFull: true,
  });
});

// What each shipped example prints, line by line (a string is the exact line; a RegExp must
// match it). A new example needs an entry here: it is run, and its verdicts checked.
const SAMPLE_BLOCKS = [1, 2, 3, 4, 5, 6].map((h) => `block ${h}: final${h === 3 ? ', now at epoch 1' : ''}`);
const EXAMPLES = {
  'mldsa.mjs': ['valid: true', 'light build: true', 'other message: false', 'no context: false'],
  'slhdsa-magnetar.mjs': ['slh-dsa valid: true', 'votes valid: true true true false', 'aggregate: true weight 30 of 40'],
  'light-client.mjs': [...SAMPLE_BLOCKS, 'client at epoch 1, height 6', '  bls: valid, 3 signers', '  pulsar: valid', /^forged: refused [A-Z_]+$/],
  'key-formats.mjs': ['-----BEGIN PUBLIC KEY-----', 'pkcs8 round trip: ML-DSA-65 true', 'spki round trip: true', 'jwk: AKP ML-DSA-65', 'cose round trip: true', /^kid: [A-Za-z0-9_-]{43}$/],
  'pulsar-dkg.mjs': ['qualified: 1 2 3 4 5', 'one sharing: true'],
  'pulsar.mjs': [/^setup: done in \d+ rounds$/, 'signature valid: true', 'pulsar.verify: true'],
  'committee.mjs': ['keygen: done in 3 rounds', 'signed: done true', 'signature valid: true'],
  'corona.mjs': ['signed: done in 2 rounds', 'valid: true', 'other message: false'],
  'verify-mldsa.mjs': ['valid: true', 'other message: false', 'prepared: true'],
};

function assertLines(name, stdout, expected) {
  const lines = stdout.trimEnd().split('\n');
  assert.equal(lines.length, expected.length, `${name} printed:\n${stdout}`);
  expected.forEach((e, i) => {
    if (e instanceof RegExp) assert.match(lines[i], e, `${name}, line ${i + 1}`);
    else assert.equal(lines[i], e, `${name}, line ${i + 1}`);
  });
}

test('every shipped example runs from the installed package and prints its verdicts', () => {
  const app = installed();
  const dir = join(app, 'node_modules', 'quasar-pq', 'examples');
  const shipped = readdirSync(dir).filter((f) => f.endsWith('.mjs')).sort();
  assert.deepEqual(shipped, Object.keys(EXAMPLES).sort(), 'each shipped example has its expected output here');
  for (const name of shipped) {
    const stdout = execFileSync(process.execPath, [join(dir, name)], { cwd: app, encoding: 'utf8', timeout: patience(600) });
    assertLines(name, stdout, EXAMPLES[name]);
  }
});

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json', '.wasm': 'application/wasm' };

/** A static file server for `root` on 127.0.0.1 (an ephemeral port); nothing outside `root`. */
function serve(root) {
  const server = createServer((req, res) => {
    const path = normalize(join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
    if (!path.startsWith(root + sep) || !existsSync(path)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
    res.end(readFileSync(path));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test('examples/browser.html follows the sample chain in headless Chromium, without a bundler', { timeout: patience(600) }, async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: install it with \`node scripts/setup.mjs --browser\``);
  const { chromium } = await import('playwright-core');
  const root = join(installed(), 'node_modules', 'quasar-pq');
  const server = await serve(root);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
    await page.goto(`http://127.0.0.1:${server.address().port}/examples/browser.html`);
    await page.waitForSelector('body[data-done="true"]', { timeout: patience(120) });
    assertLines('browser.html', await page.textContent('#out'), [...SAMPLE_BLOCKS, 'client at epoch 1, height 6']);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
});
