// A polluted realm: code that runs beside the package may add properties to
// Object.prototype and Array.prototype, or replace built-ins such as Object.entries, after the
// package loaded. None of that may change what the package does: options and nested bags are
// read from the caller's own data properties only (never inherited, never a getter), verdicts
// carry their own `ok` (null-prototype objects), name tables see only their own names, a list's
// length is read once and bounded, and no error repeats more than a few dozen characters of what
// the caller passed. Every pollution is undone in a `finally`, and results are checked after it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import * as full from '../index.js';
import * as light from '../verify.js';
import * as demo from '../support/demo.mjs';
import { loader } from '../full.js';
import * as fullGlue from '../../pkg/full/quasar_pq.js';
import * as lightGlue from '../../pkg/light/quasar_pq.js';
import { label32, pulsarGroup, run } from '../support/run.mjs';
import { bytes as labelled } from '../support/bytes.mjs';

const { lens, pulsar, magnetar, mlDsa44, slhDsaShake128f, bls, LensKeyShare } = full;
const BUILDS = [['full', full], ['light', light]];
const enc = (s) => new TextEncoder().encode(s);
const hex = (h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
const equal = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const tampered = (b) => {
  const t = Uint8Array.from(b);
  t[t.length - 1] ^= 1;
  return t;
};
const own = Object.hasOwn;

// ------------------------------------------------------------------ pollution, always undone

/**
 * Runs `fn` with each `[target, key, value]` defined on `target` (a data property, or an
 * accessor when `value` is `{ get }` marked by `getter()`), then restores every property as it
 * was, whatever `fn` did. Descriptors are null-prototype so the pollution cannot reach them.
 */
function polluted(props, fn) {
  // Index loops only: a pollution may replace the array iterator.
  const saved = props.map(([t, k]) => {
    const d = Object.getOwnPropertyDescriptor(t, k);
    return { t, k, d: d && Object.assign(Object.create(null), d) };
  });
  try {
    for (let i = 0; i < props.length; i++) {
      const p = props[i];
      const v = p[2];
      const d = v instanceof Getter ? { __proto__: null, get: v.get, configurable: true } : { __proto__: null, value: v, writable: true, configurable: true };
      Object.defineProperty(p[0], p[1], d);
    }
    return fn();
  } finally {
    for (let i = saved.length - 1; i >= 0; i--) {
      const { t, k, d } = saved[i];
      if (d) Object.defineProperty(t, k, d);
      else delete t[k];
    }
  }
}
class Getter {
  constructor(get) {
    this.get = get;
  }
}
const getter = (get) => new Getter(get);
const OP = Object.prototype;
const AP = Array.prototype;

/** What `fn` threw (inside the polluted window, so the error object is made there), or undefined. */
function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return { name: e.name, code: own(e, 'code') ? e.code : undefined, message: e.message, type: e.constructor };
  }
  return undefined;
}

/** `{ ok, code, ownOk }` of a verdict, read inside the polluted window. */
const verdictOf = (v) => ({ ok: v.ok, code: v.code, ownOk: own(v, 'ok'), proto: Object.getPrototypeOf(v) });

// ------------------------------------------------------------------ fixtures

const F = {};
let lightMemory;
before(async () => {
  await full.init();
  await light.init();
  await demo.init();
  lightMemory = (await lightGlue.default()).memory;
  const seed = (l) => label32(`realm/${l}`);
  const complete = (parties) => {
    const r = run(parties);
    parties.forEach((p) => p.free());
    assert.equal(r.errors.size, 0, [...r.errors.values()].map((e) => e.message).join('; '));
    return r.outcomes;
  };

  // ML-DSA-44 and SLH-DSA-128f keys; a signature under a context.
  F.msg = enc('realm message');
  F.ctx = enc('realm context');
  F.ml = mlDsa44.keygen(seed('ml'));
  F.mlSigCtx = mlDsa44.sign(F.msg, F.ml.secretKey, { context: F.ctx, extraEntropy: false });
  F.slh = slhDsaShake128f.keygen(labelled('realm/slh', slhDsaShake128f.lengths.seed));

  // Magnetar: three validators of weights 1, 2, 3; a certificate signed by the lightest only.
  const mode = 'shake192f';
  // No context (an empty one): so a call without options can verify the certificate.
  const M = (F.magnetar = { mode, msg: enc('realm block'), ctx: new Uint8Array(0) });
  M.seed = labelled('realm/magnetar/seed', magnetar.lengths[mode].seed);
  const keys = [0, 1, 2].map((i) => magnetar.keygen(mode, { seed: labelled(`realm/magnetar/${i}`, magnetar.lengths[mode].seed) }));
  M.keys = keys;
  M.validators = keys.map((k, i) => ({ id: labelled(`realm/magnetar/id/${i}`, 32), publicKey: k.publicKey, weight: i + 1 }));
  M.vote = { id: M.validators[0].id, signature: magnetar.sign(mode, M.msg, keys[0].secretKey, { context: M.ctx, extraEntropy: false }) };
  M.oneOfThree = magnetar.aggregate(mode, [M.vote]);
  M.item = { publicKey: keys[0].publicKey, message: M.msg, signature: M.vote.signature };

  // Finality certificates: the golden set and its `bls-only` certificate (final under pq-off).
  const golden = JSON.parse(readFileSync(new URL('../../kats/cert.json', import.meta.url), 'utf8'));
  F.cert = {
    set: hex(golden.sets.find((x) => x.name === 'epoch-0').bytes),
    certificate: hex(golden.certificates.find((x) => x.name === 'bls-only').bytes),
  };

  // BLS: a signature.
  const bk = bls.keygen(labelled('realm/bls', 32));
  F.bls = { ...bk, sig: bls.sign(F.msg, bk.secretKey) };

  // Lens: a 2-of-3 key, refreshed once (its activation certificate); a signature.
  const L = (F.lens = { ids: [1, 2, 3], message: enc('realm lens') });
  const kg = complete(L.ids.map((id) => lens.keygen({ curve: 'ed25519', session: seed('lens/kg'), parties: L.ids, threshold: 2, id, seed: seed(`lens/kg/${id}`) })));
  L.shares = L.ids.map((id) => kg.get(id).keyShare);
  L.publicPackage = kg.get(1).publicPackage;
  L.groupKey = kg.get(1).groupKey;
  const signed = complete([lens.coordinate({ publicPackage: L.publicPackage, id: 100, message: L.message }), ...L.shares.slice(0, 2).map((s) => lens.sign({ share: s, coordinator: 100, message: L.message, seed: seed(`lens/sign/${s.id}`) }))]);
  L.signature = signed.get(100).signature;
  const rf = complete(L.shares.map((s) => lens.refresh({ share: s, session: seed('lens/rf'), dealers: L.ids, seed: seed(`lens/rf/${s.id}`) })));
  const r1 = rf.get(1);
  L.activation = [r1.publicPackage, r1.generation, r1.transcriptHash, r1.activation.certificate];
  L.ids.forEach((id) => rf.get(id).keyShare.free());

  // Pulsar: a 2-of-2 ML-DSA-44 key made by the custody lifecycle, reshared once to the same
  // set (its activation certificate).
  const ids = [1, 2];
  const g = pulsarGroup(pulsar, { label: 'realm/p', members: ids, threshold: 2 });
  const rp = { session: seed('p/rs'), dealers: ids, receivers: ids, threshold: 2 };
  const rs = complete(ids.map((id) => pulsar.lifecycle.member.reshare({ ...rp, id, keyring: g.members.get(id).keyring, seed: seed(`p/rs/${id}`) })));
  const p1 = rs.get(1);
  F.pulsar = { activation: [p1.sharing, p1.keyRecord, p1.generation, p1.transcriptHash, p1.activation.certificate] };
  ids.forEach((id) => [g.members.get(id).keyring, rs.get(id).keyring].forEach((k) => k.free()));
});

// ------------------------------------------------------------------ 1. options

describe('options and nested bags are read from their own data properties only', () => {
  test('an inherited quorum does not lower MagnetarRegistry#verifyAggregate to 1 signer of 3 (both builds)', () => {
    const M = F.magnetar;
    for (const [name, b] of BUILDS) {
      const registry = new b.MagnetarRegistry(M.mode, M.validators);
      try {
        // The rule does matter: 0/1 accepts the lightest signer alone, the default 2/3 does not.
        assert.equal(registry.verifyAggregate(M.oneOfThree, M.msg, { context: M.ctx, quorum: { numerator: 0, denominator: 1 } }).ok, true, name);
        const r = polluted([[OP, 'quorum', { numerator: 0, denominator: 1 }]], () => [
          verdictOf(registry.verifyAggregate(M.oneOfThree, M.msg)),
          thrown(() => registry.verifyAggregate(M.oneOfThree, M.msg, { context: M.ctx })) ?? verdictOf(registry.verifyAggregate(M.oneOfThree, M.msg, { context: M.ctx })),
        ]);
        assert.deepEqual([r[0].ok, r[0].code], [false, 'QUORUM_NOT_MET'], `${name}: quorum inherited, no options`);
        assert.deepEqual([r[1].ok, r[1].code], [false, 'QUORUM_NOT_MET'], `${name}: quorum inherited by an options object`);
      } finally {
        registry.free();
      }
    }
  });

  test('nested bags (a quorum, list entries, inbox entries) read no inherited field (both builds)', () => {
    const M = F.magnetar;
    for (const [name, b] of BUILDS) {
      const registry = new b.MagnetarRegistry(M.mode, M.validators);
      try {
        const r = polluted([[OP, 'numerator', 0], [OP, 'denominator', 1]], () => thrown(() => registry.verifyAggregate(M.oneOfThree, M.msg, { context: M.ctx, quorum: {} })));
        assert.equal(r?.type, TypeError, `${name}: an empty quorum with inherited fields`);
        // A quorum inheriting from its own prototype is refused, not read (nor dropped).
        const q = thrown(() => registry.verifyAggregate(M.oneOfThree, M.msg, { context: M.ctx, quorum: Object.create({ numerator: 0, denominator: 1 }) }));
        assert.equal(q?.type, TypeError, `${name}: a quorum whose fields are inherited`);
      } finally {
        registry.free();
      }
      // A validator without a weight does not take Object.prototype's.
      const v = polluted([[OP, 'weight', 1000]], () => thrown(() => new b.MagnetarRegistry(M.mode, [{ id: M.validators[0].id, publicKey: M.validators[0].publicKey }]).free()));
      assert.equal(v?.type, TypeError, `${name}: a validator's inherited weight`);
      // A batch item without a signature does not take Object.prototype's.
      const it = polluted([[OP, 'signature', M.vote.signature]], () => thrown(() => b.magnetar.verifyBatch([{ publicKey: M.item.publicKey, message: M.msg }], { context: M.ctx })));
      assert.equal(it?.type, TypeError, `${name}: an item's inherited signature`);
    }
    // An inbox entry without a sender does not take Object.prototype's `from`.
    const p = lens.keygen({ curve: 'ed25519', session: label32('realm/inbox'), parties: [1, 2, 3], threshold: 2, id: 1, seed: label32('realm/inbox/1') });
    const peer = lens.keygen({ curve: 'ed25519', session: label32('realm/inbox'), parties: [1, 2, 3], threshold: 2, id: 2, seed: label32('realm/inbox/2') });
    try {
      const e = polluted([[OP, 'from', 2]], () => thrown(() => p.step([{ bytes: peer.start.outgoing.broadcast }])));
      assert.equal(e?.type, TypeError, 'an inbox entry with an inherited sender');
      assert.deepEqual({ ...p.round }, { number: 1, name: p.round.name }, 'the party did not move');
    } finally {
      p.free();
      peer.free();
    }
  });

  test('an inherited seed or referenceSeed does not choose the key of magnetar.keygen', () => {
    const M = F.magnetar;
    const attacker = magnetar.keygen(M.mode, { seed: M.seed });
    const got = polluted([[OP, 'seed', M.seed]], () => magnetar.keygen(M.mode));
    assert.ok(!equal(got.publicKey, attacker.publicKey), 'a fresh key, not the one of the inherited seed');
    const ref = labelled('realm/magnetar/ref', magnetar.lengths[M.mode].referenceSeed);
    const attackerRef = magnetar.keygen(M.mode, { referenceSeed: ref });
    const got2 = polluted([[OP, 'referenceSeed', ref]], () => magnetar.keygen(M.mode));
    assert.ok(!equal(got2.publicKey, attackerRef.publicKey), 'a fresh key, not the one of the inherited referenceSeed');
  });

  test('an inherited seed or cheat does not reach a protocol factory (cheat: the demo build)', () => {
    const S = label32('realm/seed');
    const attacker = lens.deal({ curve: 'ed25519', parties: [1, 2, 3], threshold: 2, seed: S });
    const dealt = polluted([[OP, 'seed', S]], () => lens.deal({ curve: 'ed25519', parties: [1, 2, 3], threshold: 2 }));
    assert.ok(!equal(dealt.publicPackage, attacker.publicPackage), 'lens.deal drew fresh randomness');
    const opts = { curve: 'ed25519', session: label32('realm/cheat'), parties: [1, 2, 3], threshold: 2, id: 1, seed: S };
    const honest = demo.lens.keygen(opts);
    const p = polluted([[OP, 'cheat', 'garbage']], () => demo.lens.keygen({ ...opts }));
    try {
      assert.ok(equal(p.start.outgoing.broadcast, honest.start.outgoing.broadcast), 'the party is honest');
    } finally {
      p.free();
      honest.free();
    }
  });

  test('an inherited extraEntropy = false does not make hedged signing deterministic', () => {
    const M = F.magnetar;
    const sigs = polluted([[OP, 'extraEntropy', false]], () => ({
      ml: [mlDsa44.sign(F.msg, F.ml.secretKey), mlDsa44.sign(F.msg, F.ml.secretKey, {})],
      slh: [slhDsaShake128f.sign(F.msg, F.slh.secretKey), slhDsaShake128f.sign(F.msg, F.slh.secretKey)],
      mag: [magnetar.sign(M.mode, M.msg, M.keys[0].secretKey), magnetar.sign(M.mode, M.msg, M.keys[0].secretKey)],
    }));
    assert.ok(!equal(sigs.ml[0], sigs.ml[1]), 'ML-DSA');
    assert.ok(!equal(sigs.slh[0], sigs.slh[1]), 'SLH-DSA');
    assert.ok(!equal(sigs.mag[0], sigs.mag[1]), 'Magnetar');
  });

  test('an inherited context is not injected into sign or verify (both builds)', () => {
    const sig = polluted([[OP, 'context', F.ctx]], () => mlDsa44.sign(F.msg, F.ml.secretKey));
    assert.equal(mlDsa44.verify(sig, F.msg, F.ml.publicKey), true, 'signed under the empty context');
    assert.equal(mlDsa44.verify(sig, F.msg, F.ml.publicKey, { context: F.ctx }), false);
    for (const [name, b] of BUILDS) {
      const v = polluted([[OP, 'context', F.ctx]], () => [b.mlDsa44.verify(F.mlSigCtx, F.msg, F.ml.publicKey), b.mlDsa44.verify(F.mlSigCtx, F.msg, F.ml.publicKey, {})]);
      assert.deepEqual(v, [false, false], `${name}: verify without a context does not use the inherited one`);
    }
  });

  test('an options getter is refused without being run; a plain value in a frozen or null-prototype bag is read', () => {
    let runs = 0;
    const bag = {
      get context() {
        runs += 1;
        return F.ctx;
      },
    };
    for (const [name, b] of BUILDS) {
      assert.throws(() => b.mlDsa44.verify(F.mlSigCtx, F.msg, F.ml.publicKey, bag), TypeError, name);
    }
    assert.throws(() => mlDsa44.sign(F.msg, F.ml.secretKey, bag), TypeError);
    assert.equal(runs, 0, 'the getter never ran');
    assert.equal(mlDsa44.verify(F.mlSigCtx, F.msg, F.ml.publicKey, Object.freeze({ __proto__: null, context: F.ctx })), true);
  });

  test('a replaced array iterator chooses no key pair, skips no accessor check, reads no quorum (both builds)', () => {
    const attacker = mlDsa44.keygen(label32('realm/attacker'));
    const M = F.magnetar;
    const registry = new light.MagnetarRegistry(M.mode, M.validators);
    const lying = new Uint8Array(F.msg.length);
    lying.set(F.msg);
    Object.defineProperty(lying, 'length', { get: () => 1 });
    try {
      const r = polluted(
        [[AP, Symbol.iterator, function* () { yield attacker.publicKey; yield attacker.secretKey; }]],
        () => ({
          ml: mlDsa44.keygen(label32('realm/honest')).publicKey,
          slh: slhDsaShake128f.keygen(labelled('realm/slh', slhDsaShake128f.lengths.seed)).publicKey,
          mag: magnetar.keygen(M.mode, { seed: M.seed }).publicKey,
          bls: bls.keygen(labelled('realm/bls', 32)).publicKey,
          lying: BUILDS.map(([, b]) => thrown(() => b.mlDsa44.verify(F.mlSigCtx, lying, F.ml.publicKey))?.type),
          quorum: verdictOf(registry.verifyAggregate(M.oneOfThree, M.msg, { quorum: { numerator: 0, denominator: 1 } })),
        }),
      );
      assert.ok(equal(r.ml, mlDsa44.keygen(label32('realm/honest')).publicKey), 'ML-DSA keygen');
      assert.ok(equal(r.slh, F.slh.publicKey), 'SLH-DSA keygen');
      assert.ok(equal(r.mag, magnetar.keygen(M.mode, { seed: M.seed }).publicKey), 'Magnetar keygen');
      assert.ok(equal(r.bls, F.bls.publicKey), 'BLS keygen');
      assert.deepEqual(r.lying, [TypeError, TypeError], 'an array with an overridden length is still refused');
      assert.equal(r.quorum.ok, true, 'the quorum given is the one read');
    } finally {
      registry.free();
    }
  });

  test('built-ins replaced after load (Object.entries, Object.hasOwn, Object.keys, Array.prototype.includes/forEach/map/find/join) change nothing', () => {
    const boom = () => {
      throw new Error('a replaced built-in was called');
    };
    const M = F.magnetar;
    const registry = new light.MagnetarRegistry(M.mode, M.validators);
    try {
      const out = polluted(
        [[Object, 'entries', boom], [Object, 'hasOwn', boom], [Object, 'keys', boom], [AP, 'includes', boom], [AP, 'forEach', boom], [AP, 'map', boom], [AP, 'find', boom], [AP, 'join', boom]],
        () => {
          const res = [];
          const at = (what, fn) => {
            try {
              res.push([what, fn()]);
            } catch (e) {
              res.push([what, `${e.name}: ${e.message}`]);
            }
          };
          at('mlDsa44.verify', () => mlDsa44.verify(F.mlSigCtx, F.msg, F.ml.publicKey, { context: F.ctx }));
          at('light mlDsa44.verify', () => light.mlDsa44.verify(F.mlSigCtx, F.msg, F.ml.publicKey, { context: F.ctx }));
          at('magnetar.verifyBatch', () => light.magnetar.verifyBatch([M.item], { context: M.ctx })[0]);
          at('verifyAggregate', () => registry.verifyAggregate(M.oneOfThree, M.msg, { context: M.ctx, quorum: { numerator: 0, denominator: 1 } }).ok);
          at('verifyCertificate', () => light.verifyCertificate(F.cert.certificate, F.cert.set, 'pq-off').ok);
          at('lens.verify', () => lens.verify('ed25519', F.lens.groupKey, F.lens.message, F.lens.signature));
          at('bls.fastAggregateVerify', () => bls.fastAggregateVerify(F.bls.sig, F.msg, [F.bls.publicKey]));
          at('unknown curve', () => thrown(() => lens.verify('toString', F.lens.groupKey, F.lens.message, F.lens.signature))?.type === RangeError);
          at('unknown level', () => thrown(() => pulsar.keyCeremony.combiner({ id: 9, level: 45 }))?.type === RangeError);
          at('unknown cheat (demo build)', () => thrown(() => demo.lens.keygen({ curve: 'ed25519', session: label32('s'), parties: [1, 2], threshold: 2, id: 1, cheat: 'evil' }))?.type === RangeError);
          at('unknown mode', () => thrown(() => new light.MagnetarRegistry('toString', M.validators))?.type === TypeError);
          return res;
        },
      );
      for (const [what, v] of out) assert.equal(v, true, what);
    } finally {
      registry.free();
    }
  });
});

// ------------------------------------------------------------------ 2. verdicts

describe('every verdict carries its own `ok`: an Object.prototype getter cannot turn a refusal into an acceptance', () => {
  const LIES = () => [
    [OP, 'ok', getter(() => true)],
    [OP, 'code', getter(() => 'POLLUTED')],
    [OP, 'reason', getter(() => 'polluted')],
    [OP, 'accepted', getter(() => true)],
    [OP, 'failed', getter(() => [])],
  ];

  test('verifyCertificate, LightClient#update and #verify (both builds)', () => {
    for (const [name, b] of BUILDS) {
      const client = new b.LightClient(F.cert.set, 'pq-off');
      try {
        const r = polluted(LIES(), () => {
          const report = b.verifyCertificate(tampered(F.cert.certificate), F.cert.set, 'pq-off');
          const good = b.verifyCertificate(F.cert.certificate, F.cert.set, 'pq-off');
          return {
            bad: verdictOf(report),
            legs: report.legs.map(verdictOf),
            good: verdictOf(good),
            goodLegs: good.legs.map(verdictOf),
            verify: verdictOf(client.verify(tampered(F.cert.certificate))),
            update: verdictOf(client.update(tampered(F.cert.certificate))),
          };
        });
        for (const k of ['bad', 'verify', 'update']) {
          assert.equal(r[k].ok, false, `${name}: ${k}`);
          assert.ok(r[k].ownOk, `${name}: ${k} has its own ok`);
          assert.notEqual(r[k].code, 'POLLUTED', `${name}: ${k}'s code`);
          assert.equal(r[k].proto, null, `${name}: ${k} is a null-prototype object`);
        }
        assert.ok(r.legs.every((l) => l.ownOk && l.proto === null), `${name}: every leg has its own ok`);
        assert.ok(r.legs.some((l) => l.ok === false), `${name}: the tampered leg says so`);
        assert.deepEqual([r.good.ok, r.good.code], [true, undefined], `${name}: a valid report has no code`);
        assert.ok(r.goodLegs.every((l) => l.code === undefined), `${name}: a valid leg has no code`);
        assert.equal(client.epoch, 0n, `${name}: the client did not move`);
      } finally {
        client.free();
      }
    }
  });

  test('LightClient#update and verifyCertificate refusing bytes too long to copy (both builds)', () => {
    for (const [name, b] of BUILDS) {
      const client = new b.LightClient(F.cert.set, 'pq-off');
      try {
        const long = new Uint8Array((1 << 24) + 1);
        const r = polluted(LIES(), () => [verdictOf(client.update(long)), verdictOf(client.verify(long)), verdictOf(b.verifyCertificate(long, F.cert.set, 'pq-off'))]);
        for (const v of r) assert.deepEqual([v.ok, v.ownOk, v.code, v.proto], [false, true, 'TOO_LONG', null], name);
      } finally {
        client.free();
      }
    }
  });

  test('MagnetarRegistry#verifyAggregate (both builds)', () => {
    const M = F.magnetar;
    for (const [name, b] of BUILDS) {
      const registry = new b.MagnetarRegistry(M.mode, M.validators);
      try {
        const r = polluted(LIES(), () => [
          verdictOf(registry.verifyAggregate(tampered(M.oneOfThree), M.msg, { context: M.ctx })),
          verdictOf(registry.verifyAggregate(M.oneOfThree, M.msg, { context: M.ctx })),
          verdictOf(registry.verifyAggregate(new Uint8Array(1 << 20), M.msg, { context: M.ctx })),
          verdictOf(registry.verifyAggregate(M.oneOfThree, M.msg, { context: M.ctx, quorum: { numerator: 0, denominator: 1 } })),
        ]);
        for (const v of r.slice(0, 3)) assert.deepEqual([v.ok, v.ownOk, v.proto], [false, true, null], name);
        assert.notEqual(r[0].code, 'POLLUTED');
        assert.equal(r[1].code, 'QUORUM_NOT_MET', name);
        assert.deepEqual([r[3].ok, r[3].code], [true, undefined], `${name}: a valid verdict has no code`);
      } finally {
        registry.free();
      }
    }
  });

  test('lens.verifyActivation and pulsar.verifyActivation', () => {
    const [pkg, g, th, cert] = F.lens.activation;
    const [sh, kr, pg, pth, pcert] = F.pulsar.activation;
    const r = polluted(LIES(), () => [
      verdictOf(lens.verifyActivation(pkg, g, th, tampered(cert))),
      verdictOf(pulsar.verifyActivation(sh, kr, pg, pth, tampered(pcert))),
      verdictOf(lens.verifyActivation(pkg, g, th, cert)),
      verdictOf(pulsar.verifyActivation(sh, kr, pg, pth, pcert)),
    ]);
    assert.deepEqual(r.map((v) => [v.ok, v.ownOk, v.proto]), [[false, true, null], [false, true, null], [true, true, null], [true, true, null]]);
    assert.ok(r.slice(0, 2).every((v) => v.code !== 'POLLUTED'));
    assert.ok(r.slice(2).every((v) => v.code === undefined), 'a valid verdict has no code');
  });

  test('a QuasarError keeps its own code, from JS and from Rust, under a polluted Object.prototype.code', () => {
    const r = polluted(LIES(), () => [
      thrown(() => light.verifyCertificate(F.cert.certificate, F.cert.set, 'pq-evil')),
      thrown(() => LensKeyShare.restore('ed25519', new Uint8Array(100), new Uint8Array(32))),
      thrown(() => mlDsa44.sign(F.msg, F.ml.secretKey, { context: new Uint8Array(256) })),
    ]);
    assert.deepEqual(r.map((e) => [e?.name, e?.code]), [['QuasarError', 'UNKNOWN_POLICY'], ['QuasarError', 'SNAPSHOT_MALFORMED'], ['QuasarError', 'CONTEXT_TOO_LONG']]);
  });

  test('protocol results read no inherited field: a step without an outcome, a start without a broadcast', () => {
    const fake = { keyShare: 'forged', groupKey: new Uint8Array(32) };
    const c = polluted([[OP, 'outcome', fake], [OP, 'broadcast', new Uint8Array([1, 2, 3])]], () => {
      const p = lens.coordinate({ publicPackage: F.lens.publicPackage, id: 100, message: F.lens.message });
      try {
        return { outcome: p.start.outcome, broadcast: p.start.outgoing.broadcast, proto: Object.getPrototypeOf(p.start) };
      } finally {
        p.free();
      }
    });
    assert.deepEqual(c, { outcome: undefined, broadcast: undefined, proto: null });
    assert.equal(fake.keyShare, 'forged', 'the polluting object was not written to');
  });
});

// ------------------------------------------------------------------ 3. names

describe('name tables see only their own names', () => {
  test('an inherited curve name is not a curve', () => {
    const r = polluted([[OP, 'ed448', 1]], () => [
      thrown(() => lens.verify('ed448', F.lens.groupKey, F.lens.message, F.lens.signature)),
      thrown(() => LensKeyShare.restore('ed448', new Uint8Array(100), new Uint8Array(32))),
      thrown(() => lens.deal({ curve: 'ed448', parties: [1, 2, 3], threshold: 2 })),
    ]);
    for (const e of r) assert.equal(e?.type, RangeError, e?.message ?? 'accepted');
  });

  test("Object.prototype's own names are no curve, mode, policy, level or misbehaviour (both builds)", () => {
    for (const n of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
      assert.throws(() => lens.verify(n, F.lens.groupKey, F.lens.message, F.lens.signature), RangeError, `curve ${n}`);
      assert.throws(() => demo.lens.keygen({ curve: 'ed25519', session: label32('s'), parties: [1, 2], threshold: 2, id: 1, cheat: n }), RangeError, `cheat ${n} (demo build)`);
      for (const [name, b] of BUILDS) {
        assert.throws(() => new b.MagnetarRegistry(n, F.magnetar.validators), TypeError, `${name}: mode ${n}`);
        assert.throws(() => b.verifyCertificate(F.cert.certificate, F.cert.set, n), (e) => e.code === 'UNKNOWN_POLICY', `${name}: policy ${n}`);
      }
    }
    const r = polluted([[OP, 'shake512s', [2, 'SLH-DSA-SHAKE-192f']], [OP, 'pq-evil', ['bls']]], () => [
      thrown(() => magnetar.keygen('shake512s')),
      thrown(() => light.verifyCertificate(F.cert.certificate, F.cert.set, 'pq-evil')),
    ]);
    assert.deepEqual(r.map((e) => e?.type ?? e?.code), [TypeError, Error]);
    assert.equal(r[1].code, 'UNKNOWN_POLICY');
  });
});

// ------------------------------------------------------------------ 4. lists

/**
 * A Proxy of `[first]` whose `length` is 1 on its first read and `later` after; every index answers
 * `first`, and counts in `tally.beyond` each look at an index past 0 (a loop the later length
 * stretched).
 */
function growing(first, later, tally = { beyond: 0 }) {
  let reads = 0;
  const index = (k) => typeof k === 'string' && /^\d+$/.test(k);
  // Every element the callee looks at past the one the first length read announced.
  const look = (k) => {
    if (k !== '0') tally.beyond += 1;
    return first;
  };
  return new Proxy([first], {
    has: (t, k) => index(k) || Reflect.has(t, k),
    get: (t, k) => {
      if (k === 'length') return reads++ === 0 ? 1 : later;
      if (index(k)) return look(k);
      return Reflect.get(t, k);
    },
    getOwnPropertyDescriptor: (t, k) => (index(k) ? { value: look(k), writable: true, enumerable: true, configurable: true } : Reflect.getOwnPropertyDescriptor(t, k)),
  });
}

describe("a list's length is read once and bounded; elements are copied before they are checked", () => {
  test('magnetar.verifyBatch of a Proxy claiming 100,000 items after the first read (both builds)', () => {
    const M = F.magnetar;
    const item = { publicKey: M.item.publicKey, message: M.msg, signature: new Uint8Array(0) };
    for (const [name, b, memory] of [['full', full, () => loader.memoryBytes()], ['light', light, () => lightMemory.buffer.byteLength]]) {
      const before = memory();
      const tally = { beyond: 0 };
      let out;
      try {
        out = b.magnetar.verifyBatch(growing(item, 100000, tally), { context: M.ctx });
      } catch (e) {
        assert.ok(e instanceof TypeError || e instanceof RangeError, `${name}: ${e.name}: ${e.message}`);
      }
      if (out) assert.deepEqual(out, [false], `${name}: one item, read once`);
      assert.equal(tally.beyond, 0, `${name}: no loop over 100,000 items (no item past the first read)`);
      assert.equal(memory(), before, `${name}: WebAssembly memory did not grow`);
      assert.equal(b.mlDsa44.verify(F.mlSigCtx, F.msg, F.ml.publicKey, { context: F.ctx }), true, `${name}: the instance still works`);
    }
  });

  test('bls.aggregate and bls.fastAggregateVerify of a Proxy claiming more entries after the first read copy nothing more', () => {
    const before = loader.memoryBytes();
    // 5,000 rather than 100,000: before the fix each entry was copied and aggregated, slowly.
    const agg = bls.aggregate(growing(F.bls.sig, 5000));
    assert.ok(equal(agg, F.bls.sig), 'the aggregate of the one signature read');
    assert.equal(bls.fastAggregateVerify(F.bls.sig, F.msg, growing(F.bls.publicKey, 5000)), true);
    assert.equal(loader.memoryBytes(), before, 'WebAssembly memory did not grow');
  });

  test('registries, contributions and aggregates of growing Proxies read one entry (both builds)', () => {
    const M = F.magnetar;
    for (const [name, b] of BUILDS) {
      const registry = new b.MagnetarRegistry(M.mode, growing(M.validators[0], 5000));
      try {
        assert.equal(registry.size, 1, name);
        assert.deepEqual(registry.verifyBatch(growing(M.vote, 5000), M.msg, { context: M.ctx }), [true], name);
      } finally {
        registry.free();
      }
    }
    const cert = magnetar.aggregate(M.mode, growing(M.vote, 5000));
    assert.ok(equal(cert, M.oneOfThree), 'magnetar.aggregate read one contribution');
  });

  test('an inbox is read once: a Proxy whose length grows after the first read', () => {
    const opts = (id) => ({ curve: 'ed25519', session: label32('realm/list'), parties: [1, 2, 3], threshold: 2, id, seed: label32(`realm/list/${id}`) });
    const [p1, p2, p3] = [1, 2, 3].map((id) => lens.keygen(opts(id)));
    try {
      const entry = { from: 2, bytes: p2.start.outgoing.broadcast };
      const tally = { beyond: 0 };
      const e = thrown(() => p1.step(growing(entry, 3e7, tally)));
      assert.equal(tally.beyond, 0, 'no loop over 3e7 entries (no entry past the first read)');
      // One entry was read: the party waits for party 3 (a result) or refused the inbox outright.
      assert.ok(e === undefined || e.type === RangeError, `${e?.name}: ${e?.message}`);
    } finally {
      [p1, p2, p3].forEach((p) => p.free());
    }
  });

  test('a hole is not filled from Array.prototype (lists of ids, items, signatures)', () => {
    const M = F.magnetar;
    const r = polluted([[AP, '0', M.item], [AP, '1', 2], [AP, '2', 3]], () => [
      thrown(() => magnetar.verifyBatch(new Array(1), { context: M.ctx })) ?? magnetar.verifyBatch(new Array(1), { context: M.ctx }),
      thrown(() => light.magnetar.verifyBatch(new Array(1), { context: M.ctx })) ?? 'accepted',
      thrown(() => lens.deal({ curve: 'ed25519', parties: [1, , ,], threshold: 2 })) ?? 'accepted',
    ]);
    for (const e of r) assert.equal(e?.type, TypeError, JSON.stringify(e));
    const s = polluted([[AP, '0', F.bls.sig]], () => thrown(() => bls.aggregate(new Array(1))) ?? 'accepted');
    assert.equal(s?.type, TypeError);
  });

  test('an element getter is refused without being run', () => {
    let runs = 0;
    const ids = [1, 2, 3];
    Object.defineProperty(ids, 0, { get: () => (runs++, 1), enumerable: true });
    assert.throws(() => lens.deal({ curve: 'ed25519', parties: ids, threshold: 2 }), TypeError);
    const items = [];
    Object.defineProperty(items, 0, { get: () => (runs++, F.magnetar.item), enumerable: true });
    for (const [, b] of BUILDS) assert.throws(() => b.magnetar.verifyBatch(items, { context: F.magnetar.ctx }), TypeError);
    assert.equal(runs, 0);
  });
});

// ------------------------------------------------------------------ 5. error messages

describe("errors repeat at most a few dozen characters of the caller's input", () => {
  const HUGE = 'x'.repeat(1 << 20);
  const short = (e, what) => {
    assert.ok(e, `${what}: accepted`);
    assert.ok(e.message.length < 400, `${what}: a message of ${e.message.length} characters`);
    assert.ok(e.message.includes(String(HUGE.length)), `${what}: the message gives the input's length: ${e.message}`);
  };

  test('names: curve, mode, level, cheat (both builds where present)', () => {
    short(thrown(() => lens.verify(HUGE, F.lens.groupKey, F.lens.message, F.lens.signature)), 'curve');
    short(thrown(() => lens.deal({ curve: HUGE, parties: [1, 2, 3], threshold: 2 })), 'curve option');
    short(thrown(() => pulsar.keyCeremony.combiner({ id: 9, level: HUGE })), 'level');
    short(thrown(() => demo.lens.keygen({ curve: 'ed25519', session: label32('s'), parties: [1, 2], threshold: 2, id: 1, cheat: HUGE })), 'cheat (demo build)');
    short(thrown(() => lens.verifyActivation(F.lens.activation[0], HUGE, F.lens.activation[2], F.lens.activation[3])), 'generation');
    for (const [name, b] of BUILDS) short(thrown(() => new b.MagnetarRegistry(HUGE, F.magnetar.validators)), `${name}: mode`);
    short(thrown(() => magnetar.keygen(HUGE)), 'magnetar.keygen mode');
  });

  test('options: an unknown key, a non-plain bag (both builds)', () => {
    for (const [name, b] of BUILDS) {
      short(thrown(() => b.mlDsa44.verify(F.mlSigCtx, F.msg, F.ml.publicKey, { [HUGE]: 1 })), `${name}: unknown option`);
      const tagged = new (class {
        get [Symbol.toStringTag]() {
          return HUGE;
        }
      })();
      const e = thrown(() => b.mlDsa44.verify(F.mlSigCtx, F.msg, F.ml.publicKey, tagged));
      assert.ok(e && e.message.length < 400, `${name}: a bag whose tag is 1 MiB long: ${e?.message.length}`);
    }
  });

  test('the WebAssembly side caps what it echoes too (a set name the wrappers never pass)', () => {
    for (const [name, glue] of [['full', fullGlue], ['light', lightGlue]]) {
      const e = thrown(() => glue.slhDsaVerify(HUGE, new Uint8Array(32), new Uint8Array(0), new Uint8Array(0), new Uint8Array(0)));
      short(e, name);
    }
  });
});
