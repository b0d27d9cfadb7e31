// The threshold-protocol API (js/protocols.js) end to end, all parties in this process but
// each an independent instance exchanging only bytes:
//   - Pulsar custody: Pedersen DKG, key ceremony, signing with each ML-DSA set (3-of-5 and
//     5-of-7), signatures verified by us and by @noble/post-quantum; reshare to (5, 9) with
//     the activation certificate verifying under the unchanged key, and signing again;
//   - Lens (FROST) on each curve: DKG (LSS, Feldman mode), signing, standard verification
//     (Ed25519 also under node:crypto), reshare to (5, 9) with the activation certificate;
//   - cheating parties named by the protocols' own checks (blame lists and err.culprits);
//   - decoders given truncated and extended messages throw QuasarErrors, never crash;
//   - argument checks, calls out of order, sealed share snapshots.

import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { before, describe, test } from 'node:test';

import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';

import {
  LensCoordinator,
  LensParty,
  PulsarCombiner,
  PulsarParty,
  decodeActivationCertificate,
  init,
  lens,
  pulsar,
  trustModels,
  verifyPulsar,
} from '../index.js';
import { bytes } from '../support/bytes.mjs';

const NOBLE = { 44: ml_dsa44, 65: ml_dsa65, 87: ml_dsa87 };
const PULSAR_ACTIVATION_CONTEXT = new TextEncoder().encode('QUASAR-PULSAR-ACTIVATE-v1');
const COMBINER = 1000;
const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const enc = (s) => new TextEncoder().encode(s);

before(async () => {
  await init();
});

// ---------------------------------------------------------------------------------------
// A tiny in-process network: it routes bytes exactly as the demo's coordinator does.

/** The inbox of `id`: every broadcast, and the direct messages addressed to it. */
function route(outputs, id) {
  const broadcasts = [];
  const direct = [];
  for (const [from, o] of outputs) {
    if (o.broadcast) broadcasts.push({ from, bytes: o.broadcast });
    for (const d of o.direct) if (d.to === id) direct.push({ from, bytes: d.bytes });
  }
  return { broadcasts, direct };
}

/** Runs `method` at every party of `parties` (Map id → party) on the routed `outputs`. */
function step(parties, outputs, method) {
  return new Map([...parties].map(([id, p]) => [id, p[method](route(outputs, id))]));
}

/** As `step`, but collects errors per party instead of throwing. */
function stepSettled(parties, outputs, method) {
  const out = new Map();
  for (const [id, p] of parties) {
    try {
      out.set(id, { ok: true, value: p[method](route(outputs, id)) });
    } catch (error) {
      out.set(id, { ok: false, error });
    }
  }
  return out;
}

const seed = (label, id) => bytes(`${label}/${id}`, 32);

/** Assert `fn` throws a QuasarError with `code` (when given) and `culprits`. */
function assertQuasar(fn, { code, culprits, why }) {
  assert.throws(fn, (e) => {
    assert.equal(e.name, 'QuasarError', `${why}: name (${e?.stack ?? e})`);
    assert.equal(typeof e.code, 'string', `${why}: code`);
    assert.match(e.code, /^[A-Z_]+$/, `${why}: code shape`);
    if (code !== undefined) assert.equal(e.code, code, `${why}: code`);
    assert.equal(typeof e.module, 'string', `${why}: module`);
    assert.ok(Array.isArray(e.culprits), `${why}: culprits`);
    if (culprits !== undefined) assert.deepEqual(e.culprits, culprits, `${why}: culprits`);
    return true;
  }, why);
}

/** An Ed25519 public key object for node:crypto from the 32 raw bytes. */
function ed25519Key(raw) {
  const prefix = Buffer.from('302a300506032b6570032100', 'hex');
  return crypto.createPublicKey({ key: Buffer.concat([prefix, Buffer.from(raw)]), format: 'der', type: 'spki' });
}

// ---------------------------------------------------------------------------------------
// Pulsar drivers

function pulsarDkg(label, ids, t) {
  const parties = new Map(ids.map((id) => [id, new PulsarParty({ id, seed: seed(label, id) })]));
  const params = { session: bytes(`${label}/dkg`, 32), threshold: t, parties: ids };
  let out = new Map([...parties].map(([id, p]) => [id, p.dkgRound1(params)]));
  out = step(parties, out, 'dkgRound2');
  out = step(parties, out, 'dkgRound3');
  const results = step(parties, out, 'dkgFinish');
  return { parties, results };
}

/** A custody session of `signers` (round 1 via `start`), combined by `finish`. */
function custody(parties, signers, start) {
  const r1 = signers.map((id) => ({ from: id, bytes: start(parties.get(id)) }));
  const r2 = signers.map((id) => {
    const env = parties.get(id).signRound2(r1);
    assert.equal(env.to, COMBINER);
    return { from: id, bytes: env.bytes };
  });
  return { round1: r1, round2: r2 };
}

function pulsarKeyCeremony(label, parties, signers, level, combiner) {
  const kc = { session: bytes(`${label}/kc`, 32), level, signers, combinerKey: combiner.newSessionKey() };
  const sharing = parties.get(signers[0]).publicInfo().sharing;
  const { round1, round2 } = custody(parties, signers, (p) => p.keyCeremonyRound1(kc));
  const done = combiner.finishKeyCeremony({ ...kc, sharing, round1, round2 });
  assert.deepEqual(done.blame, []);
  for (const p of parties.values()) {
    const k = p.keyCeremonyFinish({ announcement: done.announcement });
    assert.deepEqual(k.groupKey, done.groupKey);
    assert.equal(k.level, level);
  }
  return done;
}

function pulsarSign(parties, signers, combiner, message, { context, deterministic } = {}) {
  const info = parties.get(signers[0]).publicInfo();
  const s = {
    session: crypto.getRandomValues(new Uint8Array(32)),
    signers,
    combinerKey: combiner.newSessionKey(),
    message,
    context,
  };
  const { round1, round2 } = custody(parties, signers, (p) => p.signRound1(s));
  return combiner.sign({ ...s, keyRecord: info.keyRecord, sharing: info.sharing, round1, round2, deterministic });
}

function pulsarActivate(parties, signers, combiner) {
  const info = parties.get(signers[0]).publicInfo();
  const a = { session: crypto.getRandomValues(new Uint8Array(32)), signers, combinerKey: combiner.newSessionKey() };
  const { round1, round2 } = custody(parties, signers, (p) => p.activationRound1(a));
  return combiner.activate({ ...a, keyRecord: info.keyRecord, sharing: info.sharing, round1, round2 });
}

// ---------------------------------------------------------------------------------------
// Pulsar

describe('Pulsar custody', () => {
  test('3-of-5 ML-DSA-44: DKG, key ceremony, sign, reshare to (5, 9) with a cheating dealer, activation, sign again', () => {
    const ids = range(1, 5);
    const { parties, results } = pulsarDkg('p44', ids, 3);
    for (const r of results.values()) {
      assert.equal(r.hasShare, true);
      assert.equal(r.threshold, 3);
      assert.deepEqual(r.parties, ids);
      assert.equal(r.generation, 0);
      assert.deepEqual(r.blame, []);
      assert.deepEqual(r.qualified, ids);
      assert.deepEqual(r.sharing, results.get(1).sharing, 'every party has the same sharing');
    }
    assert.equal(parties.get(1).phase, 'ready');
    const combiner = new PulsarCombiner({ id: COMBINER, seed: seed('p44', 'combiner') });
    const key = pulsarKeyCeremony('p44', parties, [1, 2, 3], 44, combiner);
    assert.equal(key.groupKey.length, 1312);
    assert.deepEqual(key.signers, [1, 2, 3]);

    const msg = enc('block 42');
    const context = enc('chain-7');
    const signed = pulsarSign(parties, [2, 4, 5], combiner, msg, { context });
    assert.deepEqual(signed.signers, [2, 4, 5]);
    assert.deepEqual(signed.blame, []);
    assert.equal(verifyPulsar(key.groupKey, msg, signed.signature, { context }), true);
    assert.equal(pulsar.verify(key.groupKey, msg, signed.signature), false, 'wrong context');
    assert.equal(ml_dsa44.verify(signed.signature, msg, key.groupKey, { context }), true, 'noble verifies');

    // Reshare 3-of-5 → 5-of-9: old parties 1..5 deal (3 needed), 1..9 receive; party 2 cheats.
    const receivers = range(1, 9);
    const all = new Map(parties);
    const info = parties.get(1).publicInfo();
    for (const id of range(6, 9)) all.set(id, new PulsarParty({ id, seed: seed('p44-new', id) }));
    all.get(2).setMisbehaviour({ dealing: true });
    const rs = { session: bytes('p44/reshare', 32), dealers: ids, receivers, threshold: 5 };
    let out = new Map(
      [...all].map(([id, p]) => [
        id,
        p.reshareRound1(id > 5 ? { ...rs, sharing: info.sharing, keyRecord: info.keyRecord } : rs),
      ]),
    );
    assert.equal(all.get(6).phase, 'reshare-1');
    out = step(all, out, 'reshareRound2');
    out = step(all, out, 'reshareRound3');
    const done = stepSettled(all, out, 'reshareFinish');
    const honest = receivers.filter((id) => id !== 2);
    for (const id of honest) {
      const r = done.get(id);
      assert.ok(r.ok, `party ${id}: ${r.error?.stack}`);
      const v = r.value;
      assert.equal(v.generation, 1);
      assert.equal(v.threshold, 5);
      assert.deepEqual(v.parties, receivers);
      assert.deepEqual(v.qualified, [1, 3, 4, 5], 'the cheater is disqualified');
      assert.ok(v.blame.length > 0);
      assert.ok(v.blame.every((b) => b.party === 2 && b.code === 'INVALID_OPENING'), JSON.stringify(v.blame));
      assert.deepEqual(v.groupKey, key.groupKey, 'the group key is unchanged');
      assert.deepEqual(v.transcriptHash, done.get(1).value.transcriptHash);
    }

    // The new set (without the cheater) signs the activation certificate.
    const newSigners = [5, 6, 7, 8, 9];
    const act = pulsarActivate(all, newSigners, combiner);
    assert.equal(pulsar.verifyActivation(key.groupKey, act.certificate), true);
    assert.equal(pulsar.verifyActivation(key.keyRecord, act.certificate), true, 'keyRecord accepted too');
    const cert = decodeActivationCertificate(act.certificate);
    assert.equal(cert.kind, 'pulsar');
    assert.equal(cert.generation, 1);
    assert.deepEqual(cert.transcriptHash, done.get(5).value.transcriptHash);
    assert.equal(ml_dsa44.verify(cert.signature, cert.message, key.groupKey, { context: PULSAR_ACTIVATION_CONTEXT }), true);
    const otherKey = ml_dsa44.keygen(new Uint8Array(32)).publicKey;
    assert.equal(pulsar.verifyActivation(otherKey, act.certificate), false, 'another key');

    // And signs again under the unchanged key.
    const again = pulsarSign(all, [1, 3, 6, 8, 9], combiner, enc('after reshare'));
    assert.equal(ml_dsa44.verify(again.signature, enc('after reshare'), key.groupKey), true);
    // The old threshold no longer suffices in the new generation.
    assertQuasar(() => pulsarSign(all, [1, 3, 6], combiner, enc('x')), { code: 'NOT_ENOUGH_SIGNERS', why: '3 of new (5, 9)' });
    for (const p of all.values()) p.free();
    combiner.free();
  });

  test('5-of-7 ML-DSA-65: a cheating signer is excluded and named, or fails the session cleanly', () => {
    const ids = range(1, 7);
    const { parties } = pulsarDkg('p65', ids, 5);
    const combiner = new PulsarCombiner({ id: COMBINER });
    const key = pulsarKeyCeremony('p65', parties, [3, 4, 5, 6, 7], 65, combiner);
    const msg = enc('typed message');
    const ok = pulsarSign(parties, [1, 2, 3, 4, 5], combiner, msg, { deterministic: true });
    assert.equal(ml_dsa65.verify(ok.signature, msg, key.groupKey), true);
    const again = pulsarSign(parties, [2, 3, 4, 5, 6], combiner, msg, { deterministic: true });
    assert.deepEqual(again.signature, ok.signature, 'deterministic FIPS 204 under one key');

    parties.get(3).setMisbehaviour({ signing: true });
    const robust = pulsarSign(parties, [1, 2, 3, 4, 5, 6], combiner, msg);
    assert.deepEqual(robust.signers, [1, 2, 4, 5, 6]);
    assert.deepEqual(robust.blame.map((b) => [b.party, b.code]), [[3, 'INVALID_SHARE']]);
    assert.equal(ml_dsa65.verify(robust.signature, msg, key.groupKey), true);
    assertQuasar(() => pulsarSign(parties, [1, 2, 3, 4, 5], combiner, msg), {
      code: 'NOT_ENOUGH_VALID_SHARES',
      culprits: [3],
      why: 'exactly t signers with a cheater',
    });
    parties.get(3).setMisbehaviour({ signing: false });
    assert.equal(verifyPulsar(key.groupKey, msg, pulsarSign(parties, [1, 2, 3, 4, 5], combiner, msg).signature), true);
  });

  test('3-of-5 ML-DSA-87 with a cheating DKG dealer', () => {
    const ids = range(1, 5);
    const label = 'p87';
    const parties = new Map(ids.map((id) => [id, new PulsarParty({ id, seed: seed(label, id) })]));
    parties.get(4).setMisbehaviour({ dealing: true });
    const params = { session: bytes(`${label}/dkg`, 32), threshold: 3, parties: ids };
    let out = new Map([...parties].map(([id, p]) => [id, p.dkgRound1(params)]));
    out = step(parties, out, 'dkgRound2');
    for (const id of [1, 2, 3, 5]) assert.ok(out.get(id).broadcast, 'receivers complain');
    out = step(parties, out, 'dkgRound3');
    const res = stepSettled(parties, out, 'dkgFinish');
    for (const id of [1, 2, 3, 5]) {
      const r = res.get(id);
      assert.ok(r.ok, r.error?.stack);
      assert.deepEqual(r.value.qualified, [1, 2, 3, 5]);
      assert.deepEqual([...new Set(r.value.blame.map((b) => b.party))], [4]);
      assert.ok(r.value.blame.every((b) => b.code === 'INVALID_OPENING' && typeof b.related === 'number'));
    }
    const honest = new Map([...parties].filter(([id]) => id !== 4));
    const combiner = new PulsarCombiner({ id: COMBINER });
    const key = pulsarKeyCeremony(label, honest, [1, 2, 5], 87, combiner);
    const msg = enc('ML-DSA-87');
    const s = pulsarSign(honest, [2, 3, 5], combiner, msg);
    assert.equal(ml_dsa87.verify(s.signature, msg, key.groupKey), true);
    assert.equal(NOBLE[87].verify(s.signature, enc('other'), key.groupKey), false);
  });

  test('too many cheating dealers: the DKG fails cleanly, naming them', () => {
    const ids = range(1, 4);
    const parties = new Map(ids.map((id) => [id, new PulsarParty({ id })]));
    parties.get(2).setMisbehaviour({ dealing: true });
    parties.get(3).setMisbehaviour({ dealing: true });
    let out = new Map([...parties].map(([id, p]) => [id, p.dkgRound1({ session: bytes('fail', 32), threshold: 3, parties: ids })]));
    out = step(parties, out, 'dkgRound2');
    out = step(parties, out, 'dkgRound3');
    assertQuasar(() => parties.get(1).dkgFinish(route(out, 1)), {
      code: 'NOT_ENOUGH_QUALIFIED',
      culprits: [2, 3],
      why: '2 of 4 dealers qualify, 3 needed',
    });
    assert.equal(parties.get(1).hasShare, false);
    assert.equal(parties.get(1).phase, 'idle');
  });
});

// ---------------------------------------------------------------------------------------
// Lens

function lensDkg(label, curve, ids, t) {
  const parties = new Map(ids.map((id) => [id, new LensParty({ id, curve, seed: seed(label, id) })]));
  const params = { session: bytes(`${label}/dkg`, 32), threshold: t, parties: ids };
  let out = new Map([...parties].map(([id, p]) => [id, p.dkgRound1(params)]));
  for (const o of out.values()) {
    assert.ok(o.broadcast, 'a deal');
    assert.equal(o.direct.length, ids.length - 1, 'one share per other party');
  }
  out = step(parties, out, 'dkgRound2');
  for (const p of parties.values()) assert.equal(p.phase, 'dkg-2');
  out = step(parties, out, 'dkgRound3');
  const results = step(parties, out, 'dkgFinish');
  for (const r of results.values()) {
    assert.deepEqual(r.blame, []);
    assert.deepEqual(r.qualified, [...ids].sort((a, b) => a - b));
    assert.equal(r.generation, 0);
    assert.equal(r.transcriptHash.length, 32);
  }
  return { parties, results };
}

function lensSign(parties, signers, coordinator, message) {
  const commitments = signers.map((id) => ({ from: id, bytes: parties.get(id).signRound1() }));
  const pkg = coordinator.signingPackage({ commitments, message });
  for (const id of signers) assert.deepEqual(LensParty.packageMessage(coordinator.curve, pkg), message);
  const shares = signers.map((id) => ({ from: id, bytes: parties.get(id).signRound2(pkg) }));
  return coordinator.aggregate({ shares });
}

describe('Lens (FROST)', () => {
  for (const curve of lens.curves) {
    test(`3-of-5 on ${curve}: DKG, sign, standard verification`, () => {
      const ids = range(1, 5);
      const { parties, results } = lensDkg(`l-${curve}`, curve, ids, 3);
      const r = results.get(1);
      assert.equal(r.curve, curve);
      assert.equal(r.groupKey.length, curve === 'secp256k1' ? 33 : 32);
      for (const x of results.values()) assert.deepEqual(x.groupKey, r.groupKey);
      const coord = new LensCoordinator({ curve, publicPackage: r.publicPackage });
      assert.deepEqual(coord.groupKey, r.groupKey);
      const msg = enc(`hello ${curve}`);
      const sig = lensSign(parties, [1, 3, 5], coord, msg);
      assert.equal(sig.length, 64);
      assert.equal(lens.verify(curve, r.groupKey, msg, sig), true);
      assert.equal(lens.verify(curve, r.groupKey, enc('other'), sig), false);
      if (curve === 'secp256k1') {
        assert.equal(lens.verify(curve, r.groupKey.subarray(1), msg, sig), true, 'BIP-340 x-only key');
      }
      if (curve === 'ed25519') {
        assert.equal(crypto.verify(null, msg, ed25519Key(r.groupKey), sig), true, 'node:crypto Ed25519');
      }
      const sig2 = lensSign(parties, [2, 3, 4], coord, msg);
      assert.equal(lens.verify(curve, r.groupKey, msg, sig2), true);
    });
  }

  test('5-of-7 on Ed25519, reshare to (5, 9), activation certificate under the unchanged key', () => {
    const ids = range(1, 7);
    const { parties, results } = lensDkg('l57', 'ed25519', ids, 5);
    const r = results.get(1);
    const coord = new LensCoordinator({ curve: 'ed25519', publicPackage: r.publicPackage });
    const msg = enc('5-of-7');
    const sig = lensSign(parties, [1, 2, 4, 6, 7], coord, msg);
    assert.equal(crypto.verify(null, msg, ed25519Key(r.groupKey), sig), true);

    // Old parties 3..7 deal (5 needed), receivers 1..9; party 5 cheats while dealing.
    const all = new Map(parties);
    for (const id of [8, 9]) all.set(id, new LensParty({ id, curve: 'ed25519', seed: seed('l57-new', id) }));
    all.get(5).setMisbehaviour({ dealing: true });
    const rs = { session: bytes('l57/reshare', 32), dealers: [2, 3, 4, 5, 6, 7], receivers: range(1, 9), threshold: 5 };
    let out = new Map([...all].map(([id, p]) => [id, p.reshareRound1(id > 7 ? { ...rs, publicPackage: r.publicPackage } : rs)]));
    out = step(all, out, 'reshareRound2');
    out = step(all, out, 'reshareRound3');
    const done = stepSettled(all, out, 'reshareFinish');
    const newSet = new Map();
    for (const id of range(1, 9).filter((x) => x !== 5)) {
      const x = done.get(id);
      assert.ok(x.ok, x.error?.stack);
      assert.equal(x.value.generation, 1);
      assert.deepEqual(x.value.groupKey, r.groupKey, 'unchanged group key');
      assert.deepEqual(x.value.qualified, [2, 3, 4, 6, 7]);
      assert.deepEqual([...new Set(x.value.blame.map((b) => `${b.party}:${b.code}`))], ['5:INVALID_OPENING']);
      newSet.set(id, all.get(id));
    }
    const next = new LensCoordinator({ curve: 'ed25519', publicPackage: done.get(9).value.publicPackage });
    assert.equal(next.generation, 1);
    const actSig = lensSign(newSet, [1, 4, 7, 8, 9], next, next.activationMessage());
    const certificate = next.activationCertificate(actSig);
    assert.equal(lens.verifyActivation('ed25519', r.groupKey, certificate), true);
    const cert = decodeActivationCertificate(certificate);
    assert.equal(cert.kind, 'lens');
    assert.equal(cert.generation, 1);
    assert.equal(crypto.verify(null, cert.message, ed25519Key(r.groupKey), cert.signature), true, 'node:crypto');
    assert.equal(pulsar.verifyActivation(new Uint8Array(1312), certificate), false, 'not a Pulsar certificate');
    const other = lensDkg('other', 'ed25519', [1, 2], 2).results.get(1).groupKey;
    assert.equal(lens.verifyActivation('ed25519', other, certificate), false, 'another key');

    // Sign again with the new set; the old generation's coordinator refuses the new shares.
    const after = lensSign(newSet, [2, 3, 6, 8, 9], next, msg);
    assert.equal(crypto.verify(null, msg, ed25519Key(r.groupKey), after), true);
    const commitments = [2, 3, 6, 8, 9].map((id) => ({ from: id, bytes: newSet.get(id).signRound1() }));
    assertQuasar(() => coord.signingPackage({ commitments, message: msg }), { why: 'old-generation coordinator' });
  });

  test('a cheating signer is named by aggregate; the retry without it succeeds', () => {
    const { parties, results } = lensDkg('lcheat', 'secp256k1', range(1, 5), 3);
    const coord = new LensCoordinator({ curve: 'secp256k1', publicPackage: results.get(1).publicPackage });
    parties.get(2).setMisbehaviour({ signing: true });
    const msg = enc('m');
    assertQuasar(() => lensSign(parties, [1, 2, 3], coord, msg), {
      code: 'INVALID_SIGNATURE_SHARE',
      culprits: [2],
      why: 'bad signature share',
    });
    const sig = lensSign(parties, [1, 3, 4], coord, msg);
    assert.equal(lens.verify('secp256k1', results.get(1).groupKey, msg, sig), true);
  });

  for (const curve of lens.curves) {
    test(`a cheating DKG dealer on ${curve} is excluded and named; the others get a working key`, () => {
      const ids = range(1, 5);
      const parties = new Map(ids.map((id) => [id, new LensParty({ id, curve, seed: seed(`ld-${curve}`, id) })]));
      parties.get(3).setMisbehaviour({ dealing: true });
      let out = new Map([...parties].map(([id, p]) => [id, p.dkgRound1({ session: bytes('ld', 32), threshold: 3, parties: ids })]));
      out = step(parties, out, 'dkgRound2');
      out = step(parties, out, 'dkgRound3');
      const honest = [1, 2, 4, 5];
      const done = stepSettled(parties, out, 'dkgFinish');
      const ref = done.get(1).value;
      for (const id of honest) {
        const x = done.get(id);
        assert.ok(x.ok, x.error?.stack);
        assert.equal(x.value.hasShare, true);
        assert.deepEqual(x.value.qualified, honest, `party ${id}: qualified dealers`);
        assert.deepEqual([...new Set(x.value.blame.map((b) => `${b.party}:${b.code}`))], ['3:INVALID_OPENING']);
        assert.deepEqual(x.value.groupKey, ref.groupKey, `party ${id}: same group key`);
        assert.deepEqual(x.value.transcriptHash, ref.transcriptHash, `party ${id}: same transcript`);
        assert.equal(parties.get(id).phase, 'ready');
      }
      // The honest parties sign (any t of them); the standard verifier accepts.
      const coord = new LensCoordinator({ curve, publicPackage: ref.publicPackage });
      const msg = enc(`after excluding a dealer on ${curve}`);
      const sig = lensSign(parties, [1, 4, 5], coord, msg);
      assert.equal(lens.verify(curve, ref.groupKey, msg, sig), true);
      if (curve === 'secp256k1') assert.equal(lens.verify(curve, ref.groupKey.subarray(1), msg, sig), true, 'x-only key');
      if (curve === 'ed25519') assert.equal(crypto.verify(null, msg, ed25519Key(ref.groupKey), sig), true, 'node:crypto');
      for (const p of parties.values()) p.free();
    });
  }

  test('too many cheating Lens dealers: the DKG fails cleanly, naming them', () => {
    const ids = range(1, 4);
    const parties = new Map(ids.map((id) => [id, new LensParty({ id, curve: 'ristretto255' })]));
    parties.get(2).setMisbehaviour({ dealing: true });
    parties.get(3).setMisbehaviour({ dealing: true });
    let out = new Map([...parties].map(([id, p]) => [id, p.dkgRound1({ session: bytes('lfail', 32), threshold: 3, parties: ids })]));
    out = step(parties, out, 'dkgRound2');
    out = step(parties, out, 'dkgRound3');
    for (const id of [1, 4]) {
      assertQuasar(() => parties.get(id).dkgFinish(route(out, id)), {
        code: 'NOT_ENOUGH_QUALIFIED',
        culprits: [2, 3],
        why: `party ${id}: 2 of 4 dealers qualify, 3 needed`,
      });
      assert.equal(parties.get(id).hasShare, false);
      assert.equal(parties.get(id).phase, 'idle');
    }
  });
});

// ---------------------------------------------------------------------------------------
// Bad input

/** Every truncation and one extension of `good`, each through `fn`, must throw a QuasarError. */
function eachDamaged(good, fn, why, culprits) {
  for (let len = 0; len < good.length; len += len < 16 ? 1 : Math.max(1, Math.floor(good.length / 40))) {
    assertQuasar(() => fn(good.subarray(0, len)), { why: `${why}: truncated to ${len}`, culprits });
  }
  const longer = new Uint8Array(good.length + 1);
  longer.set(good);
  assertQuasar(() => fn(longer), { code: 'TRAILING_BYTES', why: `${why}: one extra byte`, culprits });
}

describe('decoders reject truncated and extended messages', () => {
  test('Lens messages', () => {
    const curve = 'ed25519';
    const ids = [1, 2, 3];
    const parties = new Map(ids.map((id) => [id, new LensParty({ id, curve })]));
    const params = { session: bytes('bad', 32), threshold: 2, parties: ids };
    // The DKG is robust: a deal that does not decode is dropped, not fatal — its dealer is
    // reported in `dropped`, disqualified ('MISSING_DEAL'), and the others finish.
    {
      const others = new Map(ids.map((id) => [id, new LensParty({ id, curve })]));
      let out = new Map([...others].map(([id, p]) => [id, p.dkgRound1(params)]));
      const good = out.get(2).broadcast;
      for (const len of [0, 10, good.length - 1]) {
        const damaged = new Map(out).set(2, { ...out.get(2), broadcast: good.subarray(0, len) });
        const fresh = new LensParty({ id: 1, curve });
        const probe = new Map([[1, fresh]]);
        fresh.dkgRound1(params);
        const r2 = step(probe, damaged, 'dkgRound2');
        assert.equal(fresh.phase, 'dkg-2', `deal truncated to ${len}`);
        fresh.free();
        assert.ok(r2.get(1).broadcast);
      }
      out.set(2, { ...out.get(2), broadcast: good.subarray(0, good.length - 1) });
      const honest = new Map([1, 3].map((id) => [id, others.get(id)]));
      out = step(others, out, 'dkgRound2');
      out = step(others, out, 'dkgRound3');
      for (const r of step(honest, out, 'dkgFinish').values()) {
        assert.deepEqual(r.dropped, [2]);
        assert.deepEqual(r.qualified, [1, 3]);
        assert.deepEqual(r.blame.map((b) => `${b.party}:${b.code}`), ['2:MISSING_DEAL']);
      }
      for (const p of others.values()) p.free();
    }
    let out = new Map([...parties].map(([id, p]) => [id, p.dkgRound1(params)]));
    out = step(parties, out, 'dkgRound2');
    out = step(parties, out, 'dkgRound3');
    const results = step(parties, out, 'dkgFinish');
    const pkgBytes = results.get(1).publicPackage;
    eachDamaged(pkgBytes, (b) => new LensCoordinator({ curve, publicPackage: b }), 'public package');
    const coord = new LensCoordinator({ curve, publicPackage: pkgBytes });
    const c1 = parties.get(1).signRound1();
    const c2 = parties.get(2).signRound1();
    eachDamaged(
      c2,
      (b) => coord.signingPackage({ commitments: [{ from: 1, bytes: c1 }, { from: 2, bytes: b }], message: enc('m') }),
      'commitments',
      [2],
    );
    const pkg = coord.signingPackage({ commitments: [{ from: 1, bytes: c1 }, { from: 2, bytes: c2 }], message: enc('m') });
    eachDamaged(pkg, (b) => LensParty.packageMessage(curve, b), 'signing package');
    const s1 = parties.get(1).signRound2(pkg);
    const s2 = parties.get(2).signRound2(pkg);
    eachDamaged(s2, (b) => coord.aggregate({ shares: [{ from: 1, bytes: s1 }, { from: 2, bytes: b }] }), 'signature share', [2]);
    const sig = coord.aggregate({ shares: [{ from: 1, bytes: s1 }, { from: 2, bytes: s2 }] });
    assert.equal(lens.verify(curve, results.get(1).groupKey, enc('m'), sig), true);
    // Verifiers never throw for a bad signature.
    assert.equal(lens.verify(curve, results.get(1).groupKey, enc('m'), sig.subarray(0, 63)), false);
    assert.equal(lens.verify(curve, new Uint8Array(32), enc('m'), sig), false, 'not a point');
  });

  test('Pulsar messages', () => {
    const ids = [1, 2, 3];
    const { parties } = pulsarDkg('pbad', ids, 2);
    const combiner = new PulsarCombiner({ id: COMBINER });
    const key = pulsarKeyCeremony('pbad', parties, [1, 2], 44, combiner);
    const info = parties.get(1).publicInfo();
    eachDamaged(info.sharing, (b) => parties.get(1).reshareRound1({ session: bytes('r', 32), dealers: ids, receivers: ids, threshold: 2, sharing: b }), 'sharing');
    eachDamaged(info.keyRecord, (b) => parties.get(1).reshareRound1({ session: bytes('r', 32), dealers: ids, receivers: ids, threshold: 2, keyRecord: b }), 'key record');
    const kc = { session: bytes('kc2', 32), level: 44, signers: [1, 2], combinerKey: combiner.newSessionKey() };
    eachDamaged(kc.combinerKey, (b) => parties.get(1).keyCeremonyRound1({ ...kc, combinerKey: b }), 'combiner key');
    const { round1, round2 } = custody(parties, [1, 2], (p) => p.keyCeremonyRound1(kc));
    const done = combiner.finishKeyCeremony({ ...kc, sharing: info.sharing, round1, round2 });
    eachDamaged(done.announcement, (b) => parties.get(3).keyCeremonyFinish({ announcement: b }), 'announcement');
    assert.deepEqual(parties.get(3).keyCeremonyFinish({ announcement: done.announcement }).groupKey, key.groupKey);

    // A damaged envelope: the combiner excludes and blames its sender, and still signs.
    const s = { session: bytes('s', 32), signers: [1, 2, 3], combinerKey: combiner.newSessionKey(), message: enc('m') };
    const c = custody(parties, [1, 2, 3], (p) => p.signRound1(s));
    const truncated = c.round2.map((m) => (m.from === 3 ? { from: 3, bytes: m.bytes.subarray(0, 100) } : m));
    const signed = combiner.sign({ ...s, keyRecord: info.keyRecord, sharing: info.sharing, round1: c.round1, round2: truncated });
    assert.deepEqual(signed.signers, [1, 2]);
    assert.ok(signed.blame.some((b) => b.party === 3 && b.code === 'TOO_SHORT'), JSON.stringify(signed.blame));
    assert.equal(ml_dsa44.verify(signed.signature, enc('m'), key.groupKey), true);

    // Activation certificates: strict decoding; verifiers return false.
    const act = pulsarActivate(parties, [1, 3], combiner);
    eachDamaged(act.certificate, (b) => decodeActivationCertificate(b), 'certificate');
    assert.equal(pulsar.verifyActivation(key.groupKey, act.certificate.subarray(0, 50)), false);
    assert.equal(lens.verifyActivation('ed25519', new Uint8Array(32), act.certificate), false);
    const flipped = act.certificate.slice();
    flipped[flipped.length - 5] ^= 1;
    assert.equal(pulsar.verifyActivation(key.groupKey, flipped), false, 'flipped signature bit');
    assert.equal(verifyPulsar(key.groupKey, enc('m'), signed.signature.subarray(1)), false);
  });
});

// ---------------------------------------------------------------------------------------
// API behaviour

describe('API behaviour', () => {
  test('argument checks', () => {
    assert.throws(() => new PulsarParty({ id: 0 }), RangeError);
    assert.throws(() => new PulsarParty({ id: 1.5 }), TypeError);
    assert.throws(() => new PulsarParty({ id: 1, seed: new Uint8Array(31) }), RangeError);
    assert.throws(() => new PulsarParty({ id: 1, sede: new Uint8Array(32) }), TypeError);
    assert.throws(() => new LensParty({ id: 1, curve: 'p256' }), RangeError);
    assert.throws(() => new LensParty({ id: 1 }), TypeError);
    const p = new LensParty({ id: 1, curve: 'ed25519' });
    assert.throws(() => p.dkgRound1({ session: new Uint8Array(31), threshold: 2, parties: [1, 2] }), RangeError);
    assert.throws(() => p.dkgRound1({ session: new Uint8Array(32), threshold: 2, parties: [1, 'x'] }), TypeError);
    assert.throws(() => p.dkgRound2({ broadcasts: [{ from: 2, bytes: [1, 2] }] }), TypeError);
    assert.throws(() => lens.verify('ed25519', new Uint8Array(33), enc('m'), new Uint8Array(64)), RangeError);
    assert.throws(() => verifyPulsar(new Uint8Array(100), enc('m'), new Uint8Array(10)), RangeError);
    assertQuasar(() => p.dkgRound1({ session: new Uint8Array(32), threshold: 1, parties: [1, 2] }), {
      code: 'INVALID_THRESHOLD',
      why: 'Lens DKG threshold 1',
    });
    assertQuasar(() => p.dkgRound1({ session: new Uint8Array(32), threshold: 2, parties: [2, 3] }), {
      code: 'UNKNOWN_PARTY',
      why: 'not a participant',
    });
    p.free();
    assert.throws(() => p.phase, /after free/);
    for (const s of Object.values(trustModels)) assert.ok(s.length > 40);
  });

  test('calls out of order throw and leave the state unchanged', () => {
    const ids = [1, 2];
    const parties = new Map(ids.map((id) => [id, new PulsarParty({ id })]));
    assert.throws(() => parties.get(1).dkgRound2({}), /expected round 1/);
    let out = new Map([...parties].map(([id, p]) => [id, p.dkgRound1({ session: bytes('o', 32), threshold: 2, parties: ids })]));
    assert.throws(() => parties.get(1).dkgFinish({}), /expected round 3/);
    assert.equal(parties.get(1).phase, 'dkg-1');
    out = step(parties, out, 'dkgRound2');
    out = step(parties, out, 'dkgRound3');
    step(parties, out, 'dkgFinish');
    assert.equal(parties.get(2).phase, 'ready');
    assert.throws(() => parties.get(2).signRound2([]), /expected a custody round 1/);
    const l = new LensParty({ id: 1, curve: 'ed25519' });
    assert.throws(() => l.signRound1(), /no key share/);
    assert.throws(() => l.signRound2(new Uint8Array(10)), /expected signRound1/);
    const c = new PulsarCombiner({ id: COMBINER });
    assert.throws(
      () => c.sign({ session: new Uint8Array(32), signers: [1], combinerKey: new Uint8Array(1), message: enc('m'), keyRecord: new Uint8Array(1), sharing: new Uint8Array(1), round1: [], round2: [] }),
      /pending session key/,
    );
  });

  test('sealed share snapshots', () => {
    const { parties } = pulsarDkg('snap', [1, 2, 3], 2);
    const combiner = new PulsarCombiner({ id: COMBINER });
    const key = pulsarKeyCeremony('snap', parties, [1, 2], 65, combiner);
    const k = bytes('snapshot key', 32);
    const sealed = parties.get(2).sealShare(k);
    const fresh = new PulsarParty({ id: 2 });
    assertQuasar(() => fresh.restoreShare(sealed, bytes('wrong', 32)), { code: 'WRONG_KEY', why: 'wrong key' });
    const damaged = sealed.slice();
    damaged[40] ^= 1;
    assertQuasar(() => fresh.restoreShare(damaged, k), { code: 'SNAPSHOT_CORRUPT', why: 'damaged' });
    assertQuasar(() => new PulsarParty({ id: 3 }).restoreShare(sealed, k), { code: 'OLD_SHARE_MISMATCH', why: 'another party' });
    const info = fresh.restoreShare(sealed, k);
    assert.deepEqual(info.groupKey, key.groupKey);
    const restored = new Map([[1, parties.get(1)], [2, fresh]]);
    const s = pulsarSign(restored, [1, 2], combiner, enc('restored'));
    assert.equal(ml_dsa65.verify(s.signature, enc('restored'), key.groupKey), true);

    const l = lensDkg('lsnap', 'ristretto255', [1, 2], 2);
    const ls = l.parties.get(1).sealShare(k);
    const lf = new LensParty({ id: 1, curve: 'ristretto255' });
    assert.deepEqual(lf.restoreShare(ls, k).groupKey, l.results.get(1).groupKey);
    const coord = new LensCoordinator({ curve: 'ristretto255', publicPackage: l.results.get(1).publicPackage });
    const sig = lensSign(new Map([[1, lf], [2, l.parties.get(2)]]), [1, 2], coord, enc('x'));
    assert.equal(lens.verify('ristretto255', coord.groupKey, enc('x'), sig), true);
  });
});
