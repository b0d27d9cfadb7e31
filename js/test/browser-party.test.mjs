// A browser party joins a native ceremony: a `quasar node` cluster of four processes on
// loopback — process 0 (the conductor and node 0), processes 1 and 2 native (`quasar node
// serve`), process 3 a page in headless Chromium (www/node/: js-libp2p over WebSocket with
// Noise and Yamux, the committee member on the npm package). The committee's distributed key
// generation and a 3-of-3 signature run across all of them, the browser member among the
// signers; its direct messages sealed with ML-KEM-768 and its broadcasts signed and echoed as
// a native process's. The conductor must succeed, the page must end holding the same key and
// signature, and @noble/post-quantum (an independent FIPS 204 verifier) must accept it.
//
//   node --test js/test/browser-party.test.mjs
//
// Needs /usr/bin/chromium, the built package and pkg/libp2p.js (`npm run build`), and the
// `quasar` binary (built here with `cargo build -p quasar-cli` if `cargo test` left none).
// Every process is bounded: the native ones by their `--timeout` and `--once`, the test by
// a kill timer.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js';
import { sha3_256 } from '@noble/hashes/sha3.js';

import { init, pulsar } from '../../js/index.js';
import { openChromium, ROOT } from '../support/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { verify as oracleVerify } from './support/corona-oracle.mjs';
import { decodeWire, encodeWire } from '../../www/node/wire.js';
import { patience } from '../support/patience.mjs';

const TIMEOUT = patience(120);
/** Every wait of a mixed run, seconds: the natives' and the conductor's `--timeout`, the page's
 * dials and commands. 10 s once failed in CI (a debug build on 2 busy cores: the page and a
 * native did not answer the hello in time); a stall is found by what is in flight, not by it. */
const WAIT_S = 20;
const QUASAR = path.join(process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target'), 'debug', 'quasar');
const MESSAGE = new TextEncoder().encode('quasar demo: block 1, signed by a committee');
const COMMITTEE = ['--scheme', 'committee', '--set', '44', '--parties', '3', '--threshold', '3'];

let browser;
let tmp;
const children = [];

/** Runs `quasar args…`; resolves with `{ code, out }` when it exits (killed after TIMEOUT). */
function quasar(args) {
  return new Promise((resolve) => {
    const child = spawn(QUASAR, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const hex = (b) => Buffer.from(b).toString('hex');

describe('quasar node: a browser process joins a native committee ceremony', { timeout: patience(300) }, () => {
  before(async () => {
    if (!existsSync(QUASAR)) {
      const r = spawnSync('cargo', ['build', '-p', 'quasar-cli'], { cwd: ROOT, stdio: 'inherit' });
      assert.equal(r.status, 0, 'cargo build -p quasar-cli');
    }
    tmp = await mkdtemp(path.join(os.tmpdir(), 'quasar-browser-party-'));
    browser = await openChromium({ needs: ['pkg/full/quasar_pq.js', 'pkg/libp2p.js'], profile: 'node', timeout: TIMEOUT });
    await browser.page.goto(`${browser.server.url}www/node/index.html`, { waitUntil: 'load' });
    await browser.page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: TIMEOUT });
  });

  after(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await browser?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  /**
   * A mixed run in `dir`: keys, natives 1 and 2 (process 1 with `serve1` options), the page as
   * process 3, then the conductor; resolves with every side's result.
   */
  async function mixed(dir, serve1 = [], demo = COMMITTEE, { parties = 3, per = 1, first = false } = {}) {
    // Ports from a random base, so that parallel or leftover runs do not collide.
    const port = 20000 + Math.floor(Math.random() * 20000);
    const keys = await quasar(['node', 'keys', '--dir', dir, '--parties', String(parties), '--per', String(per), '--browser', '1', '--port', String(port)]);
    assert.equal(keys.code, 0, keys.out);
    const roster = JSON.parse(await readFile(path.join(dir, 'roster.json'), 'utf8'));
    // The last process is the page's; the others but 0 are native.
    const last = roster.processes.length - 1;
    if (first) {
      // The roster is configuration: let the page host the lowest parties instead.
      [roster.processes[1].addrs, roster.processes[last].addrs] = [roster.processes[last].addrs, roster.processes[1].addrs];
      await writeFile(path.join(dir, 'roster.json'), JSON.stringify(roster, null, 2));
    }
    const serving = [];
    for (let i = 1; i < last; i++) serving.push(quasar(['node', 'serve', '--dir', dir, '--process', String(i), '--timeout', String(WAIT_S), '--once', ...(i === 1 ? serve1 : [])]));
    // The page's key file is handed to it by the test (a real browser party would make its own and be enrolled).
    const key = JSON.parse(await readFile(path.join(dir, `process-${last}.key`), 'utf8'));
    const page = browser.page.evaluate((a) => window.quasarNode.join(a).catch((e) => ({ error: `${e.code} ${e.message}` })), { roster, key, process: last, timeout: WAIT_S * 1000, idle: 120000 });
    const conductor = await quasar(['node', 'run', '--dir', dir, '--timeout', String(WAIT_S), ...demo]);
    const result = await page;
    const natives = await Promise.all(serving);
    const logText = await browser.page.locator('#log').textContent();
    return { roster, conductor, result, natives, logText };
  }

  test('the page\'s wire codec: a frame and an echo survive it; truncated, extended or unknown bytes decode to nothing, never a throw', () => {
    const run = new Uint8Array(32).fill(7);
    const frame = { kind: 'frame', run, tag: 300, from: 2, to: [1, 3], sealed: true, bytes: new Uint8Array([1, 2, 3]), signature: new Uint8Array(0) };
    const echo = { kind: 'echo', run, tag: 9, from: 3, to: 1, entries: [{ from: 2, digest: new Uint8Array(32).fill(1), signature: new Uint8Array(64).fill(2) }] };
    for (const m of [frame, echo]) {
      const bytes = encodeWire(m);
      assert.deepEqual(decodeWire(bytes), m);
      for (let cut = 0; cut < bytes.length; cut++) assert.equal(decodeWire(bytes.subarray(0, cut)), null, `${m.kind} cut at ${cut}`);
      assert.equal(decodeWire(Uint8Array.from([...bytes, 0])), null, `${m.kind} extended`);
      for (let i = 0; i < bytes.length; i++) {
        const flipped = bytes.slice();
        flipped[i] ^= 0x80;
        decodeWire(flipped); // a value or null, never a throw
      }
    }
    // Messages a browser process never reads (ready, report) and kinds past the last are refused.
    assert.equal(decodeWire(Uint8Array.from([1, ...run, 0])), null);
    assert.equal(decodeWire(Uint8Array.from([7, ...run])), null);
    assert.equal(decodeWire('not bytes'), null);
  });

  test('pulsar.envelope: what the page seals opens only with the recipient process key under the same binding', async () => {
    const dir = path.join(tmp, 'envelope');
    const keys = await quasar(['node', 'keys', '--dir', dir, '--parties', '2']);
    assert.equal(keys.code, 0, keys.out);
    const roster = JSON.parse(await readFile(path.join(dir, 'roster.json'), 'utf8'));
    const unhex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
    const secret = (i) => unhex(JSON.parse(readFileSync(path.join(dir, `process-${i}.key`), 'utf8')).kem);
    await init();
    const message = new TextEncoder().encode('PQD2 a share');
    const aad = new TextEncoder().encode('run, round, sender, recipient');
    const sealed = pulsar.envelope.seal({ recipient: unhex(roster.processes[1].kem), aad, message });
    assert.equal(sealed.length, 1088 + message.length + 16);
    assert.deepEqual(pulsar.envelope.open({ key: secret(1), aad, sealed }), message);
    const refused = (o) => assert.throws(() => pulsar.envelope.open(o), (e) => e.code === 'ENVELOPE_NOT_OPENED');
    refused({ key: secret(2), aad, sealed }); // another process
    refused({ key: secret(1), aad: aad.subarray(1), sealed }); // another binding
    const flipped = sealed.slice();
    flipped[flipped.length - 1] ^= 1;
    refused({ key: secret(1), aad, sealed: flipped });
    refused({ key: secret(1), aad, sealed: sealed.subarray(0, 1000) });
    assert.throws(() => pulsar.envelope.seal({ recipient: new Uint8Array(10), aad, message }), (e) => e.name === 'QuasarError');
    // A key pair made here (a browser party's own) works the same; a message over the bound is refused before anything is sealed.
    const mine = pulsar.envelope.keygen({ id: 7 });
    const back = pulsar.envelope.open({ key: mine.key, aad, sealed: pulsar.envelope.seal({ recipient: mine.encapsulationKey, aad, message }) });
    assert.deepEqual(back, message);
    refused({ key: mine.key, aad, sealed });
    assert.throws(() => pulsar.envelope.seal({ recipient: mine.encapsulationKey, aad, message: new Uint8Array(pulsar.envelope.maxMessage + 1) }), RangeError);
  });

  test('npm run mixed serves the roster and the browser process key under /cluster/, nothing else', async () => {
    const dir = path.join(tmp, 'served');
    const keys = await quasar(['node', 'keys', '--dir', dir, '--parties', '2', '--browser', '1']);
    assert.equal(keys.code, 0, keys.out);
    const server = await startServer({ port: 0, cluster: { dir, process: 2 } });
    const bare = await startServer({ port: 0 });
    try {
      const get = async (base, p) => {
        const r = await fetch(new URL(p, base));
        return { status: r.status, body: await r.text() };
      };
      assert.deepEqual(JSON.parse((await get(server.url, '/cluster/index.json')).body), { cluster: true, process: 2 });
      assert.equal((await get(server.url, '/cluster/roster.json')).body, await readFile(path.join(dir, 'roster.json'), 'utf8'));
      assert.equal((await get(server.url, '/cluster/process.json')).body, await readFile(path.join(dir, 'process-2.key'), 'utf8'));
      for (const p of ['/cluster/process-1.key', '/cluster/process-0.key', '/cluster/', '/cluster/..%2fprocess-1.key']) {
        assert.ok([400, 404].includes((await get(server.url, p)).status), p);
      }
      assert.deepEqual(JSON.parse((await get(bare.url, '/cluster/index.json')).body), { cluster: false });
      assert.equal((await get(bare.url, '/cluster/roster.json')).status, 404);
    } finally {
      await server.close();
      await bare.close();
    }
  });

  test('a process equivocating its broadcasts is named by the browser member and the native one alike', async () => {
    const dir = path.join(tmp, 'equivocate');
    const { conductor, result, logText } = await mixed(dir, ['--equivocate']);
    const t = `${conductor.out}\n--- page ---\n${logText}`;
    // The committee's key generation is not robust: it stalls without party 1's broadcasts,
    // which both honest members dropped after the echo — the browser's echo and the native's.
    // Party 1 drops out only because more than one node named it.
    assert.notEqual(conductor.code, 0, t);
    assert.match(conductor.out, /party 1 drops out of Key generation/, t);
    assert.match(conductor.out, /Key generation failed at party [23]: MISSING_MESSAGE .*it dropped party 1's: EQUIVOCATION.*culprits: 1/, t);
    assert.ok(!result.error, t);
    const browserSteps = result.nodes[0].commands.map((c) => c.status);
    assert.ok(!browserSteps.includes('failed'), t);
  });

  test('a Corona run: the dealer seals the page its key package, the browser party signs 3 of 3, the spec oracle verifies', async () => {
    const dir = path.join(tmp, 'corona');
    const demo = ['--scheme', 'corona', '--parties', '3', '--threshold', '2', '--signers', '3'];
    const { conductor, result, logText } = await mixed(dir, [], demo);
    const t = `${conductor.out}\n--- page ---\n${logText}`;
    assert.equal(conductor.code, 0, t);
    assert.match(conductor.out, /verified by 3 with/, t);
    const [member] = result.nodes;
    assert.equal(result.scheme.name, 'corona');
    assert.equal(member.verified, true, t);
    const groupKey = Uint8Array.from(member.publicKey);
    const signature = Uint8Array.from(member.signature);
    assert.equal(signature.length, 15666);
    const message = new TextEncoder().encode('quasar demo: block 1, signed by Corona');
    const context = new TextEncoder().encode('quasar demo');
    assert.ok(oracleVerify(groupKey, message, context, signature), 'the verifier written from the spec accepts it');
    assert.ok(conductor.out.includes(hex(sha3_256(groupKey)).slice(0, 16)), 'the conductor reports the group key the page holds');
    assert.equal(result.stats.dropped, 0, 'the page dropped nothing');
    // Corona's only direct message is the dealer's key package: it reached the page sealed.
    assert.equal(result.stats.opened, 1, 'the CORK arrived sealed to this process and opened');
    assert.equal(result.stats.sealed, 0);
  });

  test("a Corona party sending garbage to the page's member is named by it, and a new session signs without it", async () => {
    const dir = path.join(tmp, 'garbage');
    // The page hosts party 1 and process 1 party 3, whose garbage goes to the lowest other
    // signer: the page's member.
    const demo = ['--scheme', 'corona', '--parties', '3', '--threshold', '2', '--signers', '3', '--cheat', '3:garbage'];
    const { conductor, result, logText } = await mixed(dir, ['--misbehave'], demo, { first: true });
    const t = `${conductor.out}\n--- page ---\n${logText}`;
    assert.equal(conductor.code, 0, t);
    assert.match(conductor.out, /party 3 named in Sign: [A-Z_]+ .*it dropped party 3's: MALFORMED_MESSAGE.*by party 1/, t);
    assert.match(conductor.out, /2 of 3 signers \(parties 1, 2\)/, t);
    assert.equal(result.nodes[0].addr, 1);
    assert.equal(result.nodes[0].verified, true, t);
  });

  test('a committee of four, the page hosting members 1 and 2: keygen and a 3-of-4 signature with both, every verifier accepts', async () => {
    const dir = path.join(tmp, 'honest');
    const demo = ['--scheme', 'committee', '--set', '44', '--parties', '4', '--threshold', '3'];
    const { roster, conductor, result, natives, logText } = await mixed(dir, [], demo, { parties: 4, per: 2, first: true });
    assert.equal(roster.processes[2].listen, 'browser');
    assert.deepEqual(roster.processes[2].addrs, [1, 2]);
    for (const p of roster.processes.slice(0, 2)) assert.match(p.ws, /^\/ip4\/127\.0\.0\.1\/tcp\/\d+\/ws$/);
    assert.equal(conductor.code, 0, `${conductor.out}\n--- page ---\n${logText}`);
    for (const n of natives) assert.equal(n.code, 0, n.out);
    assert.match(conductor.out, /parties 1-3 each combined and verified the same signature; none held the key/);
    assert.match(conductor.out, /verified by 4 with plain ML-DSA-44/);

    // Members 1 and 2 signed (each combining the signature) and verified it.
    const [m1, m2] = result.nodes;
    assert.deepEqual([m1.addr, m2.addr], [1, 2]);
    assert.ok(m1.verified && m2.verified);
    assert.deepEqual(m1.signature, m2.signature);
    const publicKey = Uint8Array.from(m1.publicKey);
    const signature = Uint8Array.from(m1.signature);
    assert.ok(ml_dsa44.verify(signature, MESSAGE, publicKey), '@noble/post-quantum accepts the committee signature');
    assert.ok(conductor.out.includes(hex(sha3_256(publicKey)).slice(0, 16)), 'the conductor reports the key the browser members hold');
    for (const m of result.nodes) {
      assert.ok(!m.commands.some((c) => c.status === 'failed'), `no command failed in the page: ${JSON.stringify(m.commands)}`);
    }
    assert.equal(result.stats.dropped, 0, 'the page dropped nothing');
    // The key generation's private seeds (each subset of two drawn by its lowest member)
    // left this page sealed to the native process of members 3 and 4, which opened them (the
    // key generation finished there); the Corona run checks the way in.
    assert.ok(result.stats.sealed >= 4, JSON.stringify(result.stats));
    assert.deepEqual(browser.pageErrors, []);
    // A browser process cannot be served natively.
    const refused = await quasar(['node', 'serve', '--dir', dir, '--process', '2', '--once']);
    assert.equal(refused.code, 2, refused.out);
    assert.match(refused.out, /browser process/);
  });
});
