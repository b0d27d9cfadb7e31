// Corona (the two-round t-of-n threshold lattice signature) through the WASM bindings:
//
// - kats/corona.json replayed byte for byte through the package's build (native == WASM): a
//   dealer's key from `dealer_seed` (its CORG and every CORK's SHA-256), each signer started with
//   its recorded seed and routed by the package's `run()`, every message hashed as genkat's
//   `MessageLog` does, and the CORS every signer combines;
// - `corona.verify` on the recorded signatures, and its refusals;
// - a sealed share restored; bad options, hostile Uint8Arrays, truncated CORK / CORG, a key
//   package of another group (GROUP_MISMATCH), each a typed error;
// - the demo build's cheats: a wrong response (`bad-contribution`) ends every signer with
//   UNATTRIBUTABLE_ABORT and no signature; a garbage sender is named by the signers it stalls.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';

import { init, corona, CoronaShare, Rng, run, trustModels, constants } from '../index.js';
import { loader } from '../full.js';
import * as demo from '../support/demo.mjs';
import { label32 } from '../support/run.mjs';

const hex = (s) => Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16));
const toHex = (u) => Buffer.from(u).toString('hex');
const utf8 = (s) => new TextEncoder().encode(s);
const u32be = (n) => Uint8Array.of(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
const sha256 = (b) => createHash('sha256').update(b).digest('hex');
const KATS = JSON.parse(readFileSync(new URL('../../kats/corona.json', import.meta.url), 'utf8'));

const GROUP_KEY_BYTES = 4654;
const SIGNATURE_BYTES = 15666;
const commitBytes = (signers) => 614666 + 36 * signers;
const RESPONSE_BYTES = 11048;

/** A QuasarError with `code` from module `module` (and the usual fields). */
function quasar(code, module = 'corona') {
  return (e) => {
    assert.equal(e.name, 'QuasarError', `${e}`);
    assert.equal(e.code, code, `${e.message}`);
    assert.equal(e.module, module, `module of ${e.code}`);
    assert.ok(Array.isArray(e.culprits));
    return true;
  };
}

/** Shares of `dealt`, loaded from its key packages. */
const load = (dealt, Share = CoronaShare) => new Map(dealt.shares.map((s) => [s.id, Share.fromDealer(s.keyPackage, dealt.groupKey)]));
const freeAll = (m) => m.forEach((x) => x.free());

before(async () => {
  await init();
  await demo.init();
});

// ---------------------------------------------------------------------------------------
// (a) the known answers, byte for byte

test('kats/corona.json: the WASM dealer and signers replay every case byte for byte (native == WASM)', () => {
  assert.deepEqual(KATS.cases.map((c) => [c.threshold, c.parties.length]), [[2, 3], [3, 5], [4, 7]]);
  for (const c of KATS.cases) {
    const where = `corona ${c.threshold} of ${c.parties.length}`;
    const n = c.parties.length;
    assert.deepEqual(c.parties, Array.from({ length: n }, (_, i) => i + 1), `${where}: parties 1..n`);
    const dealt = corona.deal({ threshold: c.threshold, parties: n, seed: hex(c.dealer_seed) });
    assert.deepEqual([dealt.threshold, dealt.parties], [c.threshold, n]);
    assert.equal(toHex(dealt.groupKey), c.group_key, `${where}: CORG`);
    assert.equal(dealt.groupKey.length, GROUP_KEY_BYTES);
    assert.deepEqual(dealt.shares.map((s) => s.id), c.parties);
    assert.deepEqual(
      dealt.shares.map((s) => ({ party: s.id, sha256: sha256(s.keyPackage) })),
      c.packages,
      `${where}: every CORK`,
    );
    assert.ok(dealt.shares.every((s) => s.keyPackage.length === 11054 + 66 * (n - 1)), `${where}: CORK length`);
    const shares = load(dealt);
    const rngs = new Map(c.seeds.map((s) => [s.party, Rng.fromSeed(hex(s.seed))]));
    const sp = { session: hex(c.session), signers: c.signers, message: hex(c.message), context: hex(c.context) };
    const parties = c.signers.map((id) => corona.signer({ ...sp, share: shares.get(id), rng: rngs.get(id) }));
    const all = createHash('sha256');
    let count = 0;
    const push = (b) => {
      all.update(u32be(b.length)).update(b);
      count++;
    };
    try {
      for (const [id, sh] of shares) {
        const info = sh.publicInfo();
        assert.deepEqual([info.id, info.threshold, info.parties], [id, c.threshold, n]);
        assert.equal(toHex(info.groupKey), c.group_key);
        assert.equal(info.digest.length, 64);
      }
      assert.ok(parties.every((p) => p.protocol === 'corona-signer'));
      assert.equal(parties[0].maxInboxBytes >= (c.signers.length - 1) * (6 + commitBytes(c.signers.length)), true, `${where}: the inbox bound admits the round-1 messages`);
      const r = run(parties, {
        onSent(_, out) {
          if (out.broadcast) push(out.broadcast);
          for (const d of out.direct) push(d.bytes);
        },
      });
      for (const [id, e] of r.errors) assert.fail(`${where}: signer ${id} failed: ${e.code} ${e.message}`);
      assert.deepEqual(r.waiting, []);
      assert.deepEqual(r.blame, [], `${where}: nobody dropped anything`);
      assert.equal(r.outcomes.size, c.signers.length);
      for (const [id, o] of r.outcomes) {
        assert.equal(toHex(o.signature), c.signature, `${where}: signer ${id} CORS`);
        assert.equal(o.bytesSent, commitBytes(c.signers.length) + RESPONSE_BYTES, `${where}: signer ${id} bytes sent`);
        assert.deepEqual(o.dropped, []);
      }
      assert.equal(count, c.messages, `${where}: message count`);
      const digest = all.digest('hex');
      assert.equal(digest, c.messages_sha256, `${where}: messages_sha256`);
      assert.deepEqual(c.phases, [{ phase: 'sign', messages: count, sha256: digest }]);
      assert.equal(corona.verify(dealt.groupKey, hex(c.message), hex(c.context), hex(c.signature)), true);
    } finally {
      parties.forEach((p) => p.free());
      freeAll(rngs);
      freeAll(shares);
    }
  }
});

// ---------------------------------------------------------------------------------------
// (b) verification

test('corona.verify accepts every recorded signature and refuses another message, context or any flipped byte', () => {
  assert.ok(KATS.signatures.length >= 3);
  for (const s of KATS.signatures) {
    const [gk, m, ctx, sig] = [hex(s.group_key), hex(s.message), hex(s.context), hex(s.signature)];
    assert.equal(sig.length, SIGNATURE_BYTES);
    assert.equal(corona.verify(gk, m, ctx, sig), true, s.name);
    assert.equal(demo.corona.verify(gk, m, ctx, sig), true, `${s.name}: the demo build agrees`);
    assert.equal(corona.verify(gk, utf8('another message'), ctx, sig), false, `${s.name}: message`);
    assert.equal(corona.verify(gk, m, utf8('other'), sig), false, `${s.name}: context`);
    assert.equal(corona.verify(gk, m, new Uint8Array(0), sig), false, `${s.name}: no context`);
    // The challenge, z, Δ, and the frame's header and lengths.
    for (const at of [0, 5, 14, 40, 50, 5000, 10790, 15000, sig.length - 1]) {
      const bad = sig.slice();
      bad[at] ^= 1;
      assert.equal(corona.verify(gk, m, ctx, bad), false, `${s.name}: byte ${at} flipped`);
    }
    assert.equal(corona.verify(gk, m, ctx, sig.subarray(0, sig.length - 1)), false, `${s.name}: truncated`);
    assert.equal(corona.verify(gk, m, ctx, new Uint8Array(0)), false, `${s.name}: empty`);
    // b̃ (every 18-bit pattern decodes): another key, not a malformed one.
    const otherKey = gk.slice();
    otherKey[100] ^= 1;
    assert.equal(corona.verify(otherKey, m, ctx, sig), false, `${s.name}: another group key`);
    assert.throws(() => corona.verify(gk.subarray(0, 4653), m, ctx, sig), (e) => e.name === 'QuasarError' && e.module === 'corona', 'a truncated CORG throws');
    assert.throws(() => corona.verify(gk, m, new Uint8Array(256), sig), quasar('CONTEXT_TOO_LONG'));
  }
  // Signatures are bound to their own key.
  const [a, b] = KATS.signatures;
  assert.equal(corona.verify(hex(b.group_key), hex(a.message), hex(a.context), hex(a.signature)), false);
});

// ---------------------------------------------------------------------------------------
// (c) bad input

test('a share seals and restores; a wrong snapshot key, a truncated CORK or CORG, another group are refused', () => {
  const dealt = corona.deal({ threshold: 2, parties: 3, seed: label32('corona/seal') });
  const other = corona.deal({ threshold: 2, parties: 3, seed: label32('corona/other') });
  const shares = load(dealt);
  try {
    const key = label32('corona/snapshot-key');
    const sealed = shares.get(2).seal(key);
    const back = CoronaShare.restore(sealed, key);
    try {
      assert.deepEqual(back.publicInfo(), shares.get(2).publicInfo());
      assert.equal(back.id, 2);
    } finally {
      back.free();
    }
    const wrong = key.slice();
    wrong[0] ^= 1;
    assert.throws(() => CoronaShare.restore(sealed, wrong), (e) => e.name === 'QuasarError' && e.module === 'keystore');
    assert.throws(() => CoronaShare.restore(sealed, key.subarray(1)), RangeError);

    const [pkg, gk] = [dealt.shares[0].keyPackage, dealt.groupKey];
    assert.throws(() => CoronaShare.fromDealer(other.shares[0].keyPackage, gk), quasar('GROUP_MISMATCH'));
    assert.throws(() => CoronaShare.fromDealer(pkg, other.groupKey), quasar('GROUP_MISMATCH'));
    for (const cut of [0, 1, 6, 100, pkg.length - 1]) {
      assert.throws(() => CoronaShare.fromDealer(pkg.subarray(0, cut), gk), (e) => e.name === 'QuasarError' && e.module === 'corona', `CORK cut at ${cut}`);
    }
    assert.throws(() => CoronaShare.fromDealer(Uint8Array.of(...pkg, 0), gk), (e) => e.module === 'corona', 'a trailing byte');
    for (const cut of [0, 4, 100, gk.length - 1]) {
      assert.throws(() => CoronaShare.fromDealer(pkg, gk.subarray(0, cut)), (e) => e.name === 'QuasarError' && e.module === 'corona', `CORG cut at ${cut}`);
    }
    assert.throws(() => CoronaShare.fromDealer(pkg, Uint8Array.of(...gk, 0)), (e) => e.module === 'corona', 'a trailing byte');
    const badId = pkg.slice();
    badId[11] = 9; // u16 id at offset 10: party 9 of 3
    assert.throws(() => CoronaShare.fromDealer(badId, gk), (e) => e.module === 'corona');
  } finally {
    freeAll(shares);
  }
});

test('bad options and arguments are refused with typed errors, before any WASM call', () => {
  const base = { threshold: 2, parties: 3, seed: label32('corona/bad') };
  assert.throws(() => corona.deal({ ...base, threshold: 1 }), quasar('INVALID_THRESHOLD'));
  assert.throws(() => corona.deal({ ...base, threshold: 4 }), quasar('INVALID_THRESHOLD'));
  assert.throws(() => corona.deal({ ...base, parties: 1025 }), quasar('INVALID_THRESHOLD'));
  assert.throws(() => corona.deal({ ...base, threshold: 65, parties: 100 }), RangeError);
  assert.throws(() => corona.deal({ ...base, threshold: 0 }), RangeError);
  assert.throws(() => corona.deal({ ...base, threshold: 2.5 }), TypeError);
  assert.throws(() => corona.deal({ ...base, parties: '3' }), TypeError);
  assert.throws(() => corona.deal({ parties: 3 }), /missing "threshold"/);
  assert.throws(() => corona.deal({ ...base, members: [1, 2, 3] }), TypeError);
  assert.throws(() => corona.deal({ ...base, seed: new Uint8Array(31) }), RangeError);
  assert.throws(() => corona.deal({ ...base, rng: {} }), TypeError);
  assert.throws(() => corona.deal(null), TypeError);
  assert.equal(corona.maxSigners, 64);
  assert.equal(corona.maxParties, 1024);

  const dealt = corona.deal(base);
  const shares = load(dealt);
  const share = shares.get(1);
  try {
    const s = { share, session: label32('s'), signers: [1, 2], message: utf8('m'), seed: label32('x') };
    assert.throws(() => corona.signer({ ...s, signers: [1] }), quasar('WRONG_SIGNER_COUNT'));
    assert.throws(() => corona.signer({ ...s, signers: [2, 3] }), quasar('NOT_A_SIGNER'));
    assert.throws(() => corona.signer({ ...s, signers: [1, 9] }), quasar('UNKNOWN_PARTY'));
    assert.throws(() => corona.signer({ ...s, signers: [1, 2, 2] }), quasar('DUPLICATE_PARTY'));
    assert.throws(() => corona.signer({ ...s, signers: [1, 0] }), RangeError);
    assert.throws(() => corona.signer({ ...s, signers: Array.from({ length: 65 }, (_, i) => i + 1) }), /at most 64 signers/);
    assert.throws(() => corona.signer({ ...s, context: new Uint8Array(256) }), quasar('CONTEXT_TOO_LONG'));
    assert.throws(() => corona.signer({ ...s, session: new Uint8Array(31) }), RangeError);
    assert.throws(() => corona.signer({ ...s, share: {} }), /share must be a CoronaShare/);
    assert.throws(() => corona.signer({ ...s, message: 'm' }), TypeError);
    assert.throws(() => corona.signer({ ...s, signers: '12' }), TypeError);
    assert.throws(() => corona.signer({ ...s, cheat: 'garbage' }), /unexpected option "cheat"/, 'the package has no misbehaviour hooks');
    assert.throws(() => corona.signer({ ...s, maxRuns: 2 }), TypeError);
    const ok = corona.signer({ ...s, context: new Uint8Array(255) });
    assert.equal(ok.round.number, 1);
    // A step's inbox: over the bound is a RangeError and the party keeps its state; junk is dropped and named.
    assert.throws(() => ok.step([{ from: 2, bytes: new Uint8Array(ok.maxInboxBytes) }]), RangeError);
    assert.throws(() => ok.step([{ from: 0, bytes: new Uint8Array(1) }]), RangeError);
    const r = ok.step([{ from: 2, bytes: utf8('COR1 but not really') }]);
    assert.equal(r.waiting, true);
    assert.deepEqual(r.dropped.map((b) => [b.party, b.code]), [[2, 'MALFORMED_MESSAGE']]);
    ok.free();
    assert.throws(() => ok.step([]), (e) => e.code === 'USE_AFTER_FREE');

    const sig = hex(KATS.signatures[0].signature);
    const gk = hex(KATS.signatures[0].group_key);
    assert.throws(() => corona.verify('gk', utf8('m'), new Uint8Array(0), sig), TypeError);
    assert.throws(() => corona.verify(gk, [1, 2], new Uint8Array(0), sig), TypeError);
    assert.throws(() => corona.verify(gk, utf8('m'), undefined, sig), TypeError);
    assert.throws(() => corona.verify(gk, utf8('m'), new Uint8Array(0), Array.from(sig)), TypeError);
    assert.throws(() => CoronaShare.fromDealer('pkg', dealt.groupKey), TypeError);
    assert.throws(() => CoronaShare.fromDealer(new Uint8Array(80000), dealt.groupKey), RangeError);
    assert.throws(() => share.seal(new Uint8Array(16)), RangeError);
    assert.throws(() => new CoronaShare(), TypeError);
  } finally {
    freeAll(shares);
  }
  assert.throws(() => share.publicInfo(), (e) => e.code === 'USE_AFTER_FREE');
  assert.match(trustModels.corona, /trusted dealer/);
  assert.match(trustModels.corona, /cannot be attributed/);
  assert.equal(constants.maxMessageBytes, 1 << 24);
});

// The four hostile-caller reproductions of js/test/boundary.test.mjs, for every Corona byte argument.
class Liar extends Uint8Array {
  get length() {
    return 1;
  }
}
class Huge extends Uint8Array {
  get length() {
    return 0x7fffffff;
  }
}
function ownLength(n, value) {
  const a = new Uint8Array(n);
  Object.defineProperty(a, 'length', { get: () => value });
  return a;
}
function detached(n) {
  const a = new Uint8Array(n);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
}
const HOSTILE = {
  'lying subclass': () => new Liar(4096),
  'own lying length': () => ownLength(4096, 1),
  'claimed length 0x7fffffff': () => new Huge(16),
  'proxy with length -1': () => new Proxy(new Uint8Array(64), { get: (t, k) => (k === 'length' ? -1 : Reflect.get(t, k)) }),
  'detached buffer': () => detached(64),
};

test('lying and detached Uint8Arrays give typed errors for every Corona byte argument; memory does not grow', () => {
  const dealt = corona.deal({ threshold: 2, parties: 3, seed: label32('corona/hostile') });
  const shares = load(dealt);
  const { group_key: g, message: m, context: c, signature: s } = KATS.signatures[0];
  const [gk, msg, ctx, sig] = [hex(g), hex(m), hex(c), hex(s)];
  const sp = { share: shares.get(1), session: label32('h'), signers: [1, 2], message: msg, seed: label32('h1') };
  const calls = {
    'corona.verify(groupKey)': (b) => corona.verify(b, msg, ctx, sig),
    'corona.verify(message)': (b) => corona.verify(gk, b, ctx, sig),
    'corona.verify(context)': (b) => corona.verify(gk, msg, b, sig),
    'corona.verify(signature)': (b) => corona.verify(gk, msg, ctx, b),
    'corona.deal(seed)': (b) => corona.deal({ threshold: 2, parties: 3, seed: b }),
    'corona.signer(session)': (b) => corona.signer({ ...sp, session: b }),
    'corona.signer(message)': (b) => corona.signer({ ...sp, message: b }),
    'corona.signer(context)': (b) => corona.signer({ ...sp, context: b }),
    'corona.signer(seed)': (b) => corona.signer({ ...sp, seed: b }),
    'CoronaShare.fromDealer(keyPackage)': (b) => CoronaShare.fromDealer(b, dealt.groupKey),
    'CoronaShare.fromDealer(groupKey)': (b) => CoronaShare.fromDealer(dealt.shares[0].keyPackage, b),
    'CoronaShare.restore(snapshot)': (b) => CoronaShare.restore(b, new Uint8Array(32)),
    'CoronaShare.restore(snapshotKey)': (b) => CoronaShare.restore(new Uint8Array(64), b),
    'share.seal(snapshotKey)': (b) => shares.get(1).seal(b),
  };
  try {
    const before = loader.memoryBytes();
    for (const [kind, make] of Object.entries(HOSTILE)) {
      for (const [name, call] of Object.entries(calls)) {
        assert.throws(
          () => call(make()),
          (e) => {
            assert.ok(e instanceof TypeError || e instanceof RangeError || e.name === 'QuasarError', `${kind} → ${name}: ${e?.name}: ${e?.message}`);
            assert.ok(!(e instanceof WebAssembly.RuntimeError), `${kind} → ${name}: a trap`);
            return true;
          },
          `${kind} → ${name}`,
        );
      }
      if (kind === 'detached buffer') assert.throws(() => corona.verify(gk, msg, ctx, make()), (e) => e.code === 'DETACHED_BUFFER' && e.argument === 'signature');
    }
    assert.equal(corona.verify(gk, msg, ctx, sig), true, 'the instance still verifies');
    assert.equal(loader.memoryBytes(), before, 'WebAssembly.Memory did not grow');
  } finally {
    freeAll(shares);
  }
});

// ---------------------------------------------------------------------------------------
// (d) misbehaviour (the demo build)

function signDemo(shares, signers, label, cheats) {
  const session = label32(`${label}/sign`);
  const message = utf8(label);
  const parties = signers.map((id) =>
    demo.corona.signer({ share: shares.get(id), session, signers, message, seed: label32(`${label}/${id}`), ...(cheats[id] ? { cheat: cheats[id] } : {}) }),
  );
  try {
    return demo.run(parties);
  } finally {
    parties.forEach((p) => p.free());
  }
}

test('a wrong response (bad-contribution) ends every signer with UNATTRIBUTABLE_ABORT and no signature; garbage is named', () => {
  const dealt = demo.corona.deal({ threshold: 2, parties: 3, seed: label32('corona/cheat') });
  const shares = load(dealt, demo.CoronaShare);
  try {
    const r = signDemo(shares, [1, 2, 3], 'corona/cheat', { 2: 'bad-contribution' });
    assert.equal(r.outcomes.size, 0, 'no signature');
    assert.deepEqual(r.waiting, []);
    for (const id of [1, 2, 3]) {
      const e = r.errors.get(id);
      assert.ok(e, `signer ${id} failed`);
      assert.equal(e.name, 'QuasarError');
      assert.equal(e.code, 'UNATTRIBUTABLE_ABORT', `${id}: ${e.message}`);
      assert.equal(e.module, 'corona');
      assert.deepEqual([...e.culprits], [], 'nobody can be named');
    }
    assert.deepEqual(r.blame, [], 'no message was dropped: the wrong response is well formed');

    const g = signDemo(shares, [1, 3], 'corona/garbage', { 3: 'garbage' });
    assert.equal(g.outcomes.size, 0, 'no signature');
    assert.deepEqual(g.waiting, [1, 3], 'the honest signer waits for a valid commitment, the cheater for one it can use');
    const named = g.blame.filter((b) => b.party === 3);
    assert.ok(named.length >= 1, JSON.stringify(g.blame));
    assert.ok(named.every((b) => b.by === 1 && b.code === 'MALFORMED_MESSAGE'), JSON.stringify(named));
    assert.ok(g.blame.every((b) => b.party === 3), 'nobody honest is named');

    // An honest session of the same shares afterwards signs.
    const ok = signDemo(shares, [2, 3], 'corona/honest', {});
    assert.equal(ok.errors.size, 0);
    const sigs = new Set([...ok.outcomes.values()].map((o) => toHex(o.signature)));
    assert.equal(sigs.size, 1, 'every signer combines the same signature');
    assert.equal(demo.corona.verify(dealt.groupKey, utf8('corona/honest'), new Uint8Array(0), hex([...sigs][0])), true);
    assert.equal(corona.verify(dealt.groupKey, utf8('corona/honest'), new Uint8Array(0), hex([...sigs][0])), true, 'the package verifies it');
  } finally {
    freeAll(shares);
  }
});

test('a replayed round-1 message is dropped and named while the session still signs; a bad MAC is named and stalls it', () => {
  const dealt = corona.deal({ threshold: 2, parties: 3, seed: label32('corona/tamper') });
  const shares = load(dealt);
  const signers = [1, 2, 3];
  const session = (label) => ({ session: label32(label), signers, message: utf8(label), context: utf8('ctx') });
  const start = (label) => signers.map((id) => corona.signer({ ...session(label), share: shares.get(id), seed: label32(`${label}/${id}`) }));
  try {
    // Signer 2's COR1 reaches signer 1 twice in the same round: |T| = 3 > t = 2 still signs.
    let parties = start('corona/replay');
    let r;
    try {
      r = run(parties, { tamper: (e) => (e.round === 0 && e.from === 2 && e.to === 1 ? [e, { ...e }] : undefined) });
    } finally {
      parties.forEach((p) => p.free());
    }
    assert.equal(r.errors.size, 0, [...r.errors.values()].map((e) => e.message).join('; '));
    assert.equal(r.outcomes.size, 3);
    assert.deepEqual(r.outcomes.get(1).dropped.map((b) => [b.party, b.code]), [[2, 'DUPLICATE_MESSAGE']]);
    assert.deepEqual(r.blame.map((b) => [b.by, b.party, b.code]), [[1, 2, 'DUPLICATE_MESSAGE']]);
    const sig = r.outcomes.get(3).signature;
    assert.ok([...r.outcomes.values()].every((o) => toHex(o.signature) === toHex(sig)));
    assert.equal(corona.verify(dealt.groupKey, utf8('corona/replay'), utf8('ctx'), sig), true);

    // Signer 3's MAC for signer 1 (the first of its two MAC entries) is flipped on the way to 1.
    parties = start('corona/mac');
    try {
      r = run(parties, {
        tamper: (e) => {
          if (!(e.round === 0 && e.from === 3 && e.to === 1)) return undefined;
          const bytes = e.bytes.slice();
          bytes[bytes.length - 40] ^= 1;
          return [{ ...e, bytes }];
        },
      });
    } finally {
      parties.forEach((p) => p.free());
    }
    assert.equal(r.outcomes.size, 0, 'no signature: the scheme is not robust');
    assert.deepEqual(r.waiting, [1, 2, 3]);
    assert.deepEqual(r.blame.map((b) => [b.by, b.party, b.code]), [[1, 3, 'INVALID_MAC']]);
  } finally {
    freeAll(shares);
  }
});
