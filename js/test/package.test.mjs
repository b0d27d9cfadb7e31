// The packed npm package, as a user gets it: `npm pack` this repository (the WASM build must
// exist: `node scripts/build-wasm.mjs`), install the tarball into a fresh temporary project
// (offline: the package has no runtime dependencies), and there, in a child `node` process
// running an ES module:
//   - an ML-DSA verify through `quasar-pq/verify` (the light build),
//   - a 3-of-5 Pulsar custody ceremony with the full build (`quasar-pq`), every party and
//     the combiner in its own worker_thread with its own WASM instance, messages passed
//     as transferable ArrayBuffers through a tiny coordinator: DKG, key ceremony, signing,
//     verification with the light build.
// Also checks what `files` ships and the `exports` map.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

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
  work = mkdtempSync(join(tmpdir(), 'quasar-pq-package-'));
  const out = JSON.parse(npm(['pack', '--json', '--pack-destination', work], ROOT));
  packed = out[0];
  tarball = join(work, packed.filename);
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('`files` ships the entry points, types and WASM, and nothing else', () => {
  const paths = packed.files.map((f) => f.path).sort();
  for (const p of [
    'package.json',
    'js/index.js',
    'js/index.d.ts',
    'js/verify.js',
    'js/verify.d.ts',
    'js/common.js',
    'js/full.js',
    'js/protocols.js',
    'js/protocols.d.ts',
    'pkg/full/quasar_pq.js',
    'pkg/full/quasar_pq_bg.wasm',
    'pkg/light/quasar_pq.js',
    'pkg/light/quasar_pq_bg.wasm',
  ]) {
    assert.ok(paths.includes(p), `${p} is shipped`);
  }
  for (const p of paths) {
    assert.ok(!/^(js\/(test|support|bench)\/|www\/|crate\/|tests\/|benches\/|kats\/|scripts\/|target\/|docs\/)/.test(p), `${p} must not be shipped`);
    assert.ok(!/^Cargo\.|\.rs$/.test(p), `${p} must not be shipped`);
  }
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  for (const [entry, file] of [['.', 'index'], ['./verify', 'verify']]) {
    assert.deepEqual(pkg.exports[entry], { types: `./js/${file}.d.ts`, default: `./js/${file}.js` }, `exports["${entry}"]`);
  }
  assert.equal(pkg.type, 'module');
  assert.deepEqual(pkg.dependencies ?? {}, {}, 'no runtime dependencies');
});

// The worker: one party (or the combiner), its own WASM instance. Calls arrive as
// `{ call, method, args }`; results go back with their byte buffers transferred.
const WORKER = `
import { parentPort, workerData } from 'node:worker_threads';
import { init, PulsarParty, PulsarCombiner } from 'quasar-pq';
await init();
const self = workerData.role === 'combiner'
  ? new PulsarCombiner({ id: workerData.id })
  : new PulsarParty({ id: workerData.id });
function buffers(v, out = new Set()) {
  if (v instanceof Uint8Array) out.add(v.buffer);
  else if (Array.isArray(v)) v.forEach((x) => buffers(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => buffers(x, out));
  return out;
}
parentPort.on('message', ({ call, method, args }) => {
  try {
    const result = self[method](...args);
    parentPort.postMessage({ call, result }, [...buffers(result)]);
  } catch (e) {
    parentPort.postMessage({ call, error: { name: e.name, message: e.message, code: e.code, culprits: e.culprits } });
  }
});
parentPort.postMessage({ ready: true });
`;

// The coordinator: routes bytes between workers exactly as a network would. Every message
// is copied into a fresh buffer per recipient and that buffer is transferred.
const MAIN = `
import { Worker } from 'node:worker_threads';
import { init as initLight, mlDsa44 } from 'quasar-pq/verify';
import { init, verifyPulsar, mlDsa44 as full44 } from 'quasar-pq';

const out = {};

// 1. ML-DSA verify with the light build (a signature made by the full build).
await initLight();
await init();
const msg = new TextEncoder().encode('packed');
const kp = full44.keygen(new Uint8Array(32).fill(7));
const sig = full44.sign(msg, kp.secretKey);
out.lightVerify = mlDsa44.verify(sig, msg, kp.publicKey);
out.lightReject = mlDsa44.verify(sig, new TextEncoder().encode('other'), kp.publicKey);

// 2. A 3-of-5 Pulsar custody ceremony, one worker per party.
class Remote {
  constructor(role, id) {
    this.id = id;
    this.worker = new Worker(new URL('./worker.mjs', import.meta.url), { workerData: { role, id } });
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
  call(method, ...args) {
    const call = this.next++;
    const transfer = [];
    const copy = (v) => {
      if (v instanceof Uint8Array) { const c = v.slice(); transfer.push(c.buffer); return c; }
      if (Array.isArray(v)) return v.map(copy);
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)]));
      return v;
    };
    const a = copy(args);
    return new Promise((resolve, reject) => {
      this.pending.set(call, { resolve, reject });
      this.worker.postMessage({ call, method, args: a }, transfer);
    });
  }
}

function route(outputs, id) {
  const broadcasts = [];
  const direct = [];
  for (const [from, o] of outputs) {
    if (o.broadcast) broadcasts.push({ from, bytes: o.broadcast });
    for (const d of o.direct) if (d.to === id) direct.push({ from, bytes: d.bytes });
  }
  return { broadcasts, direct };
}
async function round(parties, outputs, method) {
  const r = await Promise.all(parties.map((p) => p.call(method, route(outputs, p.id))));
  return new Map(parties.map((p, i) => [p.id, r[i]]));
}

const ids = [1, 2, 3, 4, 5];
const parties = ids.map((id) => new Remote('party', id));
const combiner = new Remote('combiner', 1000);
await Promise.all([...parties, combiner].map((p) => p.ready));
const sid = () => crypto.getRandomValues(new Uint8Array(32));

const dkg = { session: sid(), threshold: 3, parties: ids };
let outs = new Map(await Promise.all(parties.map(async (p) => [p.id, await p.call('dkgRound1', dkg)])));
outs = await round(parties, outs, 'dkgRound2');
outs = await round(parties, outs, 'dkgRound3');
const dkgDone = await round(parties, outs, 'dkgFinish');
out.sharingsAgree = [...dkgDone.values()].every((r) => Buffer.from(r.sharing).equals(Buffer.from(dkgDone.get(1).sharing)));

async function custody(signers, start, params) {
  const r1 = await Promise.all(signers.map(async (p) => ({ from: p.id, bytes: await p.call(start, params) })));
  const r2 = await Promise.all(signers.map(async (p) => {
    const env = await p.call('signRound2', r1);
    return { from: p.id, bytes: env.bytes, to: env.to };
  }));
  return { round1: r1, round2: r2.map(({ from, bytes }) => ({ from, bytes })), to: r2.map((e) => e.to) };
}

const kc = { session: sid(), level: 44, signers: [1, 2, 3], combinerKey: await combiner.call('newSessionKey') };
const k = await custody(parties.slice(0, 3), 'keyCeremonyRound1', kc);
out.envelopesToCombiner = k.to.every((t) => t === 1000);
const key = await combiner.call('finishKeyCeremony', { ...kc, sharing: dkgDone.get(1).sharing, round1: k.round1, round2: k.round2 });
const stored = await Promise.all(parties.map((p) => p.call('keyCeremonyFinish', { announcement: key.announcement })));
out.keysAgree = stored.every((s) => Buffer.from(s.groupKey).equals(Buffer.from(key.groupKey)));

const info = await parties[1].call('publicInfo');
const message = new TextEncoder().encode('signed by 2, 4 and 5 in three workers');
const signers = [parties[1], parties[3], parties[4]];
const s = { session: sid(), signers: signers.map((p) => p.id), combinerKey: await combiner.call('newSessionKey'), message };
const c = await custody(signers, 'signRound1', s);
const signed = await combiner.call('sign', { ...s, keyRecord: info.keyRecord, sharing: info.sharing, round1: c.round1, round2: c.round2 });
out.signers = signed.signers;
out.groupKeyLength = key.groupKey.length;
out.verifyLight = mlDsa44.verify(signed.signature, message, key.groupKey);
out.verifyFull = verifyPulsar(key.groupKey, message, signed.signature);
await Promise.all([...parties, combiner].map((p) => p.worker.terminate()));
console.log(JSON.stringify(out));
`;

test('installed from the tarball: ML-DSA verify via ./verify and a 3-of-5 Pulsar ceremony in worker_threads', () => {
  const app = join(work, 'app');
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  npm(['install', '--no-audit', '--no-fund', '--offline', tarball], app);
  const installed = JSON.parse(readFileSync(join(app, 'node_modules', 'quasar-pq', 'package.json'), 'utf8'));
  assert.equal(installed.name, 'quasar-pq');
  writeFileSync(join(app, 'worker.mjs'), WORKER);
  writeFileSync(join(app, 'main.mjs'), MAIN);
  const stdout = execFileSync(process.execPath, ['main.mjs'], { cwd: app, encoding: 'utf8', timeout: 120_000 });
  const out = JSON.parse(stdout.trim().split('\n').pop());
  assert.deepEqual(out, {
    lightVerify: true,
    lightReject: false,
    sharingsAgree: true,
    envelopesToCombiner: true,
    keysAgree: true,
    signers: [2, 4, 5],
    groupKeyLength: 1312,
    verifyLight: true,
    verifyFull: true,
  });
});
