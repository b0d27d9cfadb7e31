// The JS boundary: every byte argument of the package crosses `bytes()` in
// js/common.js. Each of the four hostile-caller reproductions, for every exported function they
// reach, must give a typed error; afterwards the instance keeps working (a keygen/sign/verify
// round trip) and its WebAssembly.Memory does not grow. A party given a detached buffer in an
// inbox throws a typed error, then completes its round with a good inbox, and free() works.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import * as full from '../index.js';
import * as light from '../verify.js';
import * as demo from '../support/demo.mjs';
import { loader } from '../full.js';
import { makeInit } from '../common.js';
import * as glue from '../../pkg/full/quasar_pq.js';
import { label32, pulsarGroup, run } from '../support/run.mjs';

const { lens, pulsar, LensKeyShare, PulsarKeyShare, Rng, mlDsa44, slhDsaShake128f, magnetar, MagnetarRegistry, keys } = full;

// ------------------------------------------------------------------ the hostile arguments

class Liar extends Uint8Array {
  get length() {
    return 1;
  }
}
class Negative extends Uint8Array {
  get length() {
    return -1;
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
function throwingLength(n) {
  const a = new Uint8Array(n);
  Object.defineProperty(a, 'length', {
    get() {
      throw new Error('boom');
    },
  });
  return a;
}
function proxyOf(n, length) {
  return new Proxy(new Uint8Array(n), { get: (t, k) => (k === 'length' ? length : Reflect.get(t, k)) });
}
function detached(n) {
  const a = new Uint8Array(n);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
}

/** The four boundary reproductions (and their variants), each a fresh value per use. */
const HOSTILE = {
  '1. lying subclass (length 1, true 4096)': () => new Liar(4096),
  '1. own lying length property': () => ownLength(4096, 1),
  '2. subclass with length -1': () => new Negative(64),
  '2. proxy with length -1': () => proxyOf(64, -1),
  '3. claimed length 0x7fffffff (subclass)': () => new Huge(16),
  '3. claimed length 0x7fffffff (proxy)': () => proxyOf(16, 0x7fffffff),
  '4. detached buffer': () => detached(64),
  '4. length getter that throws': () => throwingLength(64),
};

function assertTyped(fn, what) {
  assert.throws(fn, (e) => {
    const typed = e instanceof TypeError || e instanceof RangeError || e.name === 'QuasarError';
    assert.ok(typed, `${what}: ${e?.name}: ${e?.message}`);
    assert.ok(!(e instanceof WebAssembly.RuntimeError), `${what}: a trap`);
    if (e.name === 'QuasarError') assert.notEqual(e.code, 'INSTANCE_POISONED', what);
    return true;
  }, what);
}

// ------------------------------------------------------------------ fixtures

let kp;
let sig;
let slhKp;
let slhSig;
let magKey;
let magSig;
let magRegistry;
let magCert;
let lensShare;
let lensOutcome;
let pulsarShare;
let pulsarInfo;
let lensCert;
const msg = new Uint8Array([1, 2, 3]);

function lensKey() {
  const ps = [1, 2, 3].map((id) => lens.keygen({ curve: 'ed25519', session: label32('b'), parties: [1, 2, 3], threshold: 2, id }));
  const r = run(ps);
  ps.forEach((p) => p.free());
  return r.outcomes;
}

/** A 2-of-2 group made by the custody lifecycle: member 1's share. */
function pulsarKey() {
  const g = pulsarGroup(pulsar, { label: 'b', members: [1, 2], threshold: 2, seeded: false });
  const share = g.members.get(1).keyring.current();
  for (const o of g.members.values()) o.keyring.free();
  return share;
}

before(async () => {
  await full.init();
  await light.init();
  await demo.init();
  kp = mlDsa44.keygen(new Uint8Array(32).fill(7));
  sig = mlDsa44.sign(msg, kp.secretKey);
  slhKp = slhDsaShake128f.keygen(new Uint8Array(48).fill(7));
  slhSig = slhDsaShake128f.sign(msg, slhKp.secretKey);
  magKey = magnetar.keygen('shake192f', { seed: new Uint8Array(72).fill(5) });
  magSig = magnetar.sign('shake192f', msg, magKey.secretKey);
  magRegistry = new light.MagnetarRegistry('shake192f', [{ id: new Uint8Array(32).fill(1), publicKey: magKey.publicKey, weight: 1 }]);
  magCert = magnetar.aggregate('shake192f', [{ id: new Uint8Array(32).fill(1), signature: magSig }]);
  lensOutcome = lensKey();
  lensShare = lensOutcome.get(1).keyShare;
  pulsarShare = pulsarKey();
  pulsarInfo = pulsarShare.publicInfo();
  // A Lens activation certificate (refresh of the 2-of-3 key).
  const shares = [1, 2, 3].map((id) => lensOutcome.get(id).keyShare);
  const ps = shares.map((s) => lens.refresh({ share: s, session: label32('rf'), dealers: [1, 2, 3] }));
  const rr = run(ps);
  ps.forEach((p) => p.free());
  lensCert = rr.outcomes.get(1);
});

/** Every exported function with a byte argument, as `(bad) => call` per argument slot. */
function calls() {
  const ctx = (c) => ({ context: c });
  const pub = lensOutcome.get(1).publicPackage;
  const session = label32('s');
  return {
    'mlDsa44.keygen(seed)': (b) => mlDsa44.keygen(b),
    'mlDsa44.sign(message)': (b) => mlDsa44.sign(b, kp.secretKey),
    'mlDsa44.sign(secretKey)': (b) => mlDsa44.sign(msg, b),
    'mlDsa44.sign(context)': (b) => mlDsa44.sign(msg, kp.secretKey, ctx(b)),
    'mlDsa44.sign(extraEntropy)': (b) => mlDsa44.sign(msg, kp.secretKey, { extraEntropy: b }),
    'mlDsa44.verify(signature)': (b) => mlDsa44.verify(b, msg, kp.publicKey),
    'mlDsa44.verify(message)': (b) => mlDsa44.verify(sig, b, kp.publicKey),
    'mlDsa44.verify(publicKey)': (b) => mlDsa44.verify(sig, msg, b),
    'mlDsa44.verify(context)': (b) => mlDsa44.verify(sig, msg, kp.publicKey, ctx(b)),
    'light mlDsa44.verify(message)': (b) => light.mlDsa44.verify(sig, b, kp.publicKey),
    'light mlDsa44.verify(signature)': (b) => light.mlDsa44.verify(b, msg, kp.publicKey),
    'mlDsa44.internal.sign(message)': (b) => mlDsa44.internal.sign(b, kp.secretKey),
    'mlDsa44.internal.verify(message)': (b) => mlDsa44.internal.verify(sig, b, kp.publicKey),
    'mlDsa44.internal.computeMu(message)': (b) => mlDsa44.internal.computeMu(b, kp.publicKey),
    'mlDsa44.prepare(publicKey)': (b) => mlDsa44.prepare(b),
    'prepared.verify(message)': (b) => {
      const p = mlDsa44.prepare(kp.publicKey);
      try {
        return p.verify(sig, b);
      } finally {
        p.free();
      }
    },
    'slhDsaShake128f.keygen(seed)': (b) => slhDsaShake128f.keygen(b),
    'slhDsaShake128f.sign(message)': (b) => slhDsaShake128f.sign(b, slhKp.secretKey),
    'slhDsaShake128f.sign(secretKey)': (b) => slhDsaShake128f.sign(msg, b),
    'slhDsaShake128f.sign(context)': (b) => slhDsaShake128f.sign(msg, slhKp.secretKey, ctx(b)),
    'slhDsaShake128f.sign(extraEntropy)': (b) => slhDsaShake128f.sign(msg, slhKp.secretKey, { extraEntropy: b }),
    'slhDsaShake128f.internal.sign(message)': (b) => slhDsaShake128f.internal.sign(b, slhKp.secretKey),
    'slhDsaShake128f.verify(signature)': (b) => slhDsaShake128f.verify(b, msg, slhKp.publicKey),
    'slhDsaShake128f.verify(message)': (b) => slhDsaShake128f.verify(slhSig, b, slhKp.publicKey),
    'slhDsaShake128f.verify(publicKey)': (b) => slhDsaShake128f.verify(slhSig, msg, b),
    'slhDsaShake128f.verify(context)': (b) => slhDsaShake128f.verify(slhSig, msg, slhKp.publicKey, ctx(b)),
    'light slhDsaShake128f.verify(signature)': (b) => light.slhDsaShake128f.verify(b, msg, slhKp.publicKey),
    'light slhDsaShake128f.verify(message)': (b) => light.slhDsaShake128f.verify(slhSig, b, slhKp.publicKey),
    'light slhDsaShake128f.internal.verify(publicKey)': (b) => light.slhDsaShake128f.internal.verify(slhSig, msg, b),
    'magnetar.keygen(seed)': (b) => magnetar.keygen('shake192f', { seed: b }),
    'magnetar.sign(message)': (b) => magnetar.sign('shake192f', b, magKey.secretKey),
    'magnetar.sign(secretKey)': (b) => magnetar.sign('shake192f', msg, b),
    'magnetar.verify(signature)': (b) => magnetar.verify(b, msg, magKey.publicKey),
    'light magnetar.verify(publicKey)': (b) => light.magnetar.verify(magSig, msg, b),
    'light magnetar.verifyBatch(items[0].signature)': (b) => light.magnetar.verifyBatch([{ publicKey: magKey.publicKey, message: msg, signature: b }]),
    'light magnetar.verifyBatch(items[0].message)': (b) => light.magnetar.verifyBatch([{ publicKey: magKey.publicKey, message: b, signature: magSig }]),
    'MagnetarRegistry(validators[0].id)': (b) => new MagnetarRegistry('shake192f', [{ id: b, publicKey: magKey.publicKey, weight: 1 }]),
    'light MagnetarRegistry(validators[0].publicKey)': (b) => new light.MagnetarRegistry('shake192f', [{ id: new Uint8Array(32), publicKey: b, weight: 1 }]),
    'registry.verifyBatch(contributions[0].signature)': (b) => magRegistry.verifyBatch([{ id: new Uint8Array(32).fill(1), signature: b }], msg),
    'registry.verifyBatch(message)': (b) => magRegistry.verifyBatch([{ id: new Uint8Array(32).fill(1), signature: magSig }], b),
    'registry.verifyAggregate(certificate)': (b) => magRegistry.verifyAggregate(b, msg),
    'registry.verifyAggregate(context)': (b) => magRegistry.verifyAggregate(magCert, msg, ctx(b)),
    'magnetar.aggregate(contributions[0].signature)': (b) => magnetar.aggregate('shake192f', [{ id: new Uint8Array(32), signature: b }]),
    'keys.toSpki(publicKey)': (b) => keys.toSpki('ML-DSA-44', b),
    'keys.fromSpki(der)': (b) => keys.fromSpki(b),
    'keys.toPkcs8(key.seed)': (b) => keys.toPkcs8('ML-DSA-44', { seed: b }),
    'keys.toPkcs8(key.secretKey)': (b) => keys.toPkcs8('ML-DSA-44', { secretKey: b }),
    'keys.toPkcs8(key.publicKey)': (b) => keys.toPkcs8('ML-DSA-44', { seed: new Uint8Array(32).fill(7), publicKey: b }),
    'keys.fromPkcs8(der)': (b) => keys.fromPkcs8(b),
    'keys.toJwk(key.publicKey)': (b) => keys.toJwk('ML-DSA-44', { publicKey: b }),
    'keys.toCoseKey(key.seed)': (b) => keys.toCoseKey('ML-DSA-44', { seed: b }),
    'keys.fromCoseKey(coseKey)': (b) => keys.fromCoseKey(b),
    'keys.jwkThumbprint(publicKey)': (b) => keys.jwkThumbprint('ML-DSA-44', b),
    'keys.coseThumbprint(publicKey)': (b) => keys.coseThumbprint('ML-DSA-44', b),
    'lens.verify(groupKey)': (b) => lens.verify('ed25519', b, msg, new Uint8Array(64)),
    'lens.verify(message)': (b) => lens.verify('ed25519', lensOutcome.get(1).groupKey, b, new Uint8Array(64)),
    'lens.verify(signature)': (b) => lens.verify('ed25519', lensOutcome.get(1).groupKey, msg, b),
    'lens.verifyActivation(publicPackage)': (b) => lens.verifyActivation(b, 1, lensCert.transcriptHash, lensCert.activation.certificate),
    'lens.verifyActivation(transcriptHash)': (b) => lens.verifyActivation(lensCert.publicPackage, 1, b, lensCert.activation.certificate),
    'lens.verifyActivation(certificate)': (b) => lens.verifyActivation(lensCert.publicPackage, 1, lensCert.transcriptHash, b),
    'lens.keygen(session)': (b) => lens.keygen({ curve: 'ed25519', session: b, parties: [1, 2], threshold: 2, id: 1 }),
    'lens.sign(message)': (b) => lens.sign({ share: lensShare, coordinator: 9, message: b }),
    'lens.coordinate(publicPackage)': (b) => lens.coordinate({ publicPackage: b, id: 9, message: msg }),
    'lens.coordinate(message)': (b) => lens.coordinate({ publicPackage: pub, id: 9, message: b }),
    'lens.reshareJoin(publicPackage)': (b) => lens.reshareJoin({ publicPackage: b, session, dealers: [1, 2], receivers: [4, 5], threshold: 2, id: 4 }),
    'LensKeyShare.restore(snapshot)': (b) => LensKeyShare.restore('ed25519', b, new Uint8Array(32)),
    'LensKeyShare.fromDealer(dealerShare)': (b) => LensKeyShare.fromDealer('ed25519', b, pub),
    'LensKeyShare.fromDealer(publicPackage)': (b) => LensKeyShare.fromDealer('ed25519', new Uint8Array(64), b),
    'lens.deal(seed)': (b) => lens.deal({ curve: 'ed25519', parties: [1, 2], threshold: 2, seed: b }),
    'Rng.fromSeed(seed)': (b) => Rng.fromSeed(b),
    'LensKeyShare.seal(snapshotKey)': (b) => lensShare.seal(b),
    'pulsar.verify(groupKey)': (b) => pulsar.verify(b, msg, sig),
    'pulsar.verify(message)': (b) => pulsar.verify(kp.publicKey, b, sig),
    'pulsar.verify(context)': (b) => pulsar.verify(kp.publicKey, msg, sig, { context: b }),
    'pulsar.verifyActivation(sharing)': (b) => pulsar.verifyActivation(b, pulsarInfo.keyRecord, 0, pulsarInfo.transcriptHash, new Uint8Array(8)),
    'pulsar.verifyActivation(groupKey)': (b) => pulsar.verifyActivation(pulsarInfo.sharing, b, 0, pulsarInfo.transcriptHash, new Uint8Array(8)),
    'pulsar.verifyActivation(certificate)': (b) => pulsar.verifyActivation(pulsarInfo.sharing, pulsarInfo.keyRecord, 0, pulsarInfo.transcriptHash, b),
    'pulsar.sign.combiner(keyRecord)': (b) => pulsar.sign.combiner({ id: 9, keyRecord: b, sharing: pulsarInfo.sharing, signers: [1, 2], message: msg, session }),
    'pulsar.sign.combiner(message)': (b) => pulsar.sign.combiner({ id: 9, keyRecord: pulsarInfo.keyRecord, sharing: pulsarInfo.sharing, signers: [1, 2], message: b, session }),
    'pulsar.sign.combiner(context)': (b) => pulsar.sign.combiner({ id: 9, keyRecord: pulsarInfo.keyRecord, sharing: pulsarInfo.sharing, signers: [1, 2], message: msg, context: b, session }),
    'pulsar.sign.signer(session)': (b) => pulsar.sign.signer({ share: pulsarShare, session: b, message: msg }),
    'pulsar.keyCeremony.combiner(sharing)': (b) => pulsar.keyCeremony.combiner({ id: 9, level: 44, sharing: b, signers: [1, 2], session }),
    'pulsar.reshareJoin(keyRecord)': (b) => pulsar.reshareJoin({ keyRecord: b, sharing: pulsarInfo.sharing, session, dealers: [1, 2], receivers: [3], threshold: 1, id: 3 }),
    'PulsarKeyShare.restore(snapshot)': (b) => PulsarKeyShare.restore(b, new Uint8Array(32)),
    'PulsarKeyShare.seal(snapshotKey)': (b) => pulsarShare.seal(b),
  };
}

function roundTrip() {
  const k = mlDsa44.keygen(new Uint8Array(32).fill(3));
  const s = mlDsa44.sign(msg, k.secretKey);
  assert.equal(mlDsa44.verify(s, msg, k.publicKey), true, 'keygen/sign/verify after the bad calls');
  assert.equal(light.slhDsaShake128f.verify(slhSig, msg, slhKp.publicKey), true, 'SLH-DSA verify after the bad calls');
  assert.equal(magRegistry.verifyAggregate(magCert, msg).ok, true, 'Magnetar aggregate after the bad calls');
  const pk = lensOutcome.get(1).publicPackage;
  const c = lens.coordinate({ publicPackage: pk, id: 9, message: msg });
  c.free();
}

describe('the four boundary reproductions, for every exported function they reach', () => {
  for (const [kind, make] of Object.entries(HOSTILE)) {
    test(kind, () => {
      const before = loader.memoryBytes();
      assert.ok(before > 0);
      let n = 0;
      for (const [name, call] of Object.entries(calls())) {
        assertTyped(() => call(make()), `${kind} → ${name}`);
        n += 1;
      }
      assert.ok(n >= 40, `${n} call sites`);
      roundTrip();
      assert.equal(loader.memoryBytes(), before, 'WebAssembly.Memory did not grow');
    });
  }

  test('detached buffers give QuasarError DETACHED_BUFFER naming the argument', () => {
    assert.throws(() => mlDsa44.verify(sig, detached(3), kp.publicKey), (e) => e.name === 'QuasarError' && e.code === 'DETACHED_BUFFER' && e.argument === 'message');
    assert.throws(() => slhDsaShake128f.verify(detached(17088), msg, slhKp.publicKey), (e) => e.code === 'DETACHED_BUFFER' && e.argument === 'signature');
    assert.throws(() => slhDsaShake128f.sign(msg, detached(64)), (e) => e.code === 'DETACHED_BUFFER' && e.argument === 'secretKey');
  });

  test('a Node Buffer (a subclass that keeps the accessors) is accepted, copied', () => {
    assert.equal(mlDsa44.verify(Buffer.from(sig), Buffer.from(msg), Buffer.from(kp.publicKey)), true);
    assert.equal(light.slhDsaShake128f.verify(Buffer.from(slhSig), Buffer.from(msg), Buffer.from(slhKp.publicKey)), true);
  });

  test('variable lengths are bounded: a message over 16 MiB is a RangeError naming it', () => {
    assert.throws(() => mlDsa44.verify(sig, new Uint8Array((1 << 24) + 1), kp.publicKey), (e) => e instanceof RangeError && /message/.test(e.message));
  });
});

describe('a party and its inbox', () => {
  for (const [kind, make] of Object.entries(HOSTILE)) {
    test(`${kind} in an inbox: typed error, then the round completes with a good inbox, free() works`, () => {
      const ps = [1, 2].map((id) => lens.keygen({ curve: 'ed25519', session: label32(kind), parties: [1, 2], threshold: 2, id }));
      const [p1, p2] = ps;
      const good = [{ from: 2, bytes: p2.start.outgoing.broadcast }, { from: 2, bytes: p2.start.outgoing.direct[0].bytes }];
      const before = loader.memoryBytes();
      assertTyped(() => p1.step([good[0], { from: 2, bytes: make() }]), kind);
      assert.deepEqual({ ...p1.round }, { number: 1, name: 'check shares' }, 'the party did not move');
      assert.equal(loader.memoryBytes(), before);
      const r = p1.step(good);
      assert.equal(r.done, false);
      assert.deepEqual(r.dropped, []);
      assert.deepEqual({ ...p1.round }, { number: 2, name: 'answer complaints' });
      p1.free();
      p2.free();
      assert.throws(() => p1.step(good), (e) => e.code === 'USE_AFTER_FREE');
      roundTrip();
    });
  }

  test('an inbox over the party bound is a RangeError naming the inbox; bad entries are TypeErrors', () => {
    const p = lens.keygen({ curve: 'ed25519', session: label32('big'), parties: [1, 2], threshold: 2, id: 1 });
    assert.throws(() => p.step([{ from: 2, bytes: new Uint8Array(p.maxInboxBytes) }]), (e) => e instanceof RangeError && /inbox/.test(e.message));
    assert.throws(() => p.step([{ from: 0, bytes: new Uint8Array(1) }]), RangeError);
    assert.throws(() => p.step([{ from: 2 }]), TypeError);
    assert.throws(() => p.step('x'), TypeError);
    // Garbage from a peer is no error: it is dropped and its sender named.
    const r = p.step([{ from: 2, bytes: new Uint8Array([1, 2, 3]) }]);
    assert.equal(r.done, false);
    p.free();
  });
});

test('a trap poisons the instance: every later call throws INSTANCE_POISONED', async () => {
  const fake = { default: async () => ({ memory: new WebAssembly.Memory({ initial: 1 }) }) };
  const l = makeInit(fake, 'file:///nonexistent.wasm');
  await l.init(new Uint8Array(0));
  assert.equal(l.call(() => 7), 7);
  assert.throws(() => l.call(() => { throw new WebAssembly.RuntimeError('unreachable'); }), (e) => e.code === 'INSTANCE_POISONED');
  assert.throws(() => l.call(() => 7), (e) => e.name === 'QuasarError' && e.code === 'INSTANCE_POISONED');
  assert.equal(l.poisoned, true);
  assert.equal(loader.poisoned, false, 'the real instance is untouched');
});

// ------------------------------------------------------------------ found by js/test/fuzz.test.mjs

describe('defects the fuzz suite found (regressions)', () => {
  const session = label32('fz');
  const isGlueObject = (v) => v !== null && typeof v === 'object' && Object.values(glue).some((C) => typeof C === 'function' && C.prototype && v instanceof C);

  test('no member of the package objects hands out the generated WASM object (whose methods skip the boundary)', () => {
    const party = lens.coordinate({ publicPackage: lensOutcome.get(1).publicPackage, id: 9, message: msg });
    const rng = Rng.fromSeed(label32('r'));
    let n = 0;
    for (const o of [party, lensShare, pulsarShare, rng]) {
      assert.equal('_w' in o, false);
      for (let p = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
        for (const k of Reflect.ownKeys(p)) {
          const d = Object.getOwnPropertyDescriptor(p, k);
          if (k === 'constructor' || (typeof d.value === 'function' && d.value.length > 0)) continue;
          let v;
          try {
            v = d.get ? d.get.call(o) : typeof d.value === 'function' && !['free', 'step'].includes(k) && typeof k === 'string' ? d.value.call(o) : d.value;
          } catch {
            continue;
          }
          assert.ok(!isGlueObject(v), `${o.constructor.name}.${String(k)} returned a ${v?.constructor?.name}`);
          n += 1;
        }
      }
    }
    assert.ok(n >= 10, `${n} members read`);
    party.free();
    rng.free();
  });

  test("a caller's trap that frees the party or share during a call: USE_AFTER_FREE, never a null pointer in Rust", () => {
    const [p1, p2] = [1, 2].map((id) => lens.keygen({ curve: 'ed25519', session, parties: [1, 2], threshold: 2, id }));
    // A getter is refused before it runs: the party it would free is untouched.
    const getter = { from: 2, get bytes() { p1.free(); return p2.start.outgoing.broadcast; } };
    assert.throws(() => p1.step([getter]), TypeError);
    assert.deepEqual({ ...p1.round }, { number: 1, name: p1.round.name }, 'the party is still usable');
    // A Proxy entry's descriptor trap does run (it is how its fields are read): the party is taken
    // at the moment of the call, so it is a USE_AFTER_FREE.
    const trap = new Proxy({ from: 2, bytes: p2.start.outgoing.broadcast }, { getOwnPropertyDescriptor: (t, k) => (p1.free(), Reflect.getOwnPropertyDescriptor(t, k)) });
    assert.throws(() => p1.step([trap]), (e) => e.code === 'USE_AFTER_FREE');
    p2.free();
    const d = lens.deal({ curve: 'ed25519', parties: [1, 2, 3], threshold: 2 });
    const share = LensKeyShare.fromDealer('ed25519', d.shares[0].dealerShare, d.publicPackage);
    const dealers = new Proxy([1, 2], { getOwnPropertyDescriptor: (t, k) => (k === '1' && share.free(), Reflect.getOwnPropertyDescriptor(t, k)) });
    assert.throws(() => lens.reshare({ share, session, dealers, receivers: [1, 2, 3], threshold: 2 }), (e) => e.code === 'USE_AFTER_FREE');
    roundTrip();
  });

  test('an unknown misbehaviour name is refused before it is copied into WASM memory (demo build)', () => {
    const before = demo.loader.memoryBytes();
    const opts = { curve: 'ed25519', session, parties: [1, 2], threshold: 2, id: 1 };
    assert.throws(() => demo.lens.keygen({ ...opts, cheat: 'x'.repeat(8 << 20) }), RangeError);
    assert.throws(() => demo.lens.keygen({ ...opts, cheat: 'bad-share' }), RangeError);
    assert.equal(demo.loader.memoryBytes(), before, 'an 8 MiB name did not grow the memory');
    demo.lens.keygen({ ...opts, cheat: 'garbage' }).free();
  });

  test('the package has no misbehaviour hooks: `cheat` is an unknown option, the module has no hazmatArm', () => {
    const opts = { curve: 'ed25519', session, parties: [1, 2], threshold: 2, id: 1 };
    assert.throws(() => lens.keygen({ ...opts, cheat: 'garbage' }), /unexpected option "cheat"/);
    assert.equal(full.constants.cheats, undefined);
    assert.equal(typeof glue.hazmatArm, 'undefined');
    assert.equal(typeof demo.glue.hazmatArm, 'function');
    for (const k of Object.keys(full)) assert.ok(k in demo, `the demo entry exports ${k} as the package does`);
  });

  test('a party list is read once: a Proxy whose length grows after the check cannot stretch the loop', () => {
    let reads = 0;
    // Looks at indices past the 3 the first length read announced: a loop the later length stretched.
    let beyond = 0;
    const element = (t, k) => {
      if (Number(k) >= 3) beyond += 1;
      return t[k] ?? 1;
    };
    const parties = new Proxy([1, 2, 3], {
      get: (t, k) => (k === 'length' ? (reads++ === 0 ? 3 : 3e7) : typeof k === 'string' && /^\d+$/.test(k) ? element(t, k) : Reflect.get(t, k)),
    });
    const d = lens.deal({ curve: 'ed25519', parties, threshold: 2 });
    assert.equal(beyond, 0, 'no loop over 3e7 entries (no entry past the first read)');
    assert.deepEqual(d.shares.map((s) => s.id), [1, 2, 3]);
  });

  test('options the call would not read are refused, not dropped: a Map, inherited keys, class getters, non-enumerable keys', () => {
    const context = new Uint8Array([1]);
    const signed = mlDsa44.sign(msg, kp.secretKey, { extraEntropy: false });
    class Opts {
      get context() {
        return context;
      }
    }
    const hidden = Object.defineProperty({}, 'context', { value: context, enumerable: false });
    for (const [what, o] of [['a Map', new Map([['context', context]])], ['inherited', Object.create({ context })], ['a class getter', new Opts()], ['non-enumerable', hidden]]) {
      assert.throws(() => mlDsa44.verify(signed, msg, kp.publicKey, o), TypeError, `verify, ${what}`);
      assert.throws(() => light.mlDsa44.verify(signed, msg, kp.publicKey, o), TypeError, `light verify, ${what}`);
      assert.throws(() => mlDsa44.sign(msg, kp.secretKey, o), TypeError, `sign, ${what}`);
    }
    assert.throws(() => lens.coordinate(Object.create({ publicPackage: lensOutcome.get(1).publicPackage, id: 9, message: msg })), TypeError);
    // Plain objects of any origin are still options: null prototype, frozen, a Proxy, a class instance's own fields.
    assert.equal(mlDsa44.verify(signed, msg, kp.publicKey, Object.freeze(Object.assign(Object.create(null), { context: undefined }))), true);
    assert.equal(mlDsa44.verify(signed, msg, kp.publicKey, new Proxy({}, {})), true);
    assert.equal(mlDsa44.verify(signed, msg, kp.publicKey, new (class { context = undefined })()), true);
  });

  test('a freed prepared key throws QuasarError USE_AFTER_FREE, as every freed object does', () => {
    for (const build of [full, light]) {
      const p = build.mlDsa44.prepare(kp.publicKey);
      p.free();
      assert.throws(() => p.verify(sig, msg), (e) => e.name === 'QuasarError' && e.code === 'USE_AFTER_FREE');
    }
  });
});
