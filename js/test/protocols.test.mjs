// The threshold protocols through the package: every party is a `Party` (the library's own
// state machine in WASM), driven here by a tiny in-process network (js/support/run.mjs).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

// The demo build (js/support/demo.mjs): the package's API whose factories also take `cheat`.
import { glue, init, lens, pulsar, constants, trustModels, mlDsa65, Party, LensKeyShare, LensKeyring, PulsarKeyShare, PulsarKeyring, Rng, run as runParties } from '../support/demo.mjs';
import { label32, pulsarGroup, run } from '../support/run.mjs';

const ids = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const enc = (s) => new TextEncoder().encode(s);
const seedFor = (label, id) => label32(`${label}/${id}`);

before(async () => {
  await init();
});

function assertQuasar(fn, code) {
  assert.throws(fn, (e) => {
    assert.equal(e.name, 'QuasarError', `${e.name}: ${e.message}`);
    assert.equal(e.code, code, e.message);
    return true;
  });
}

function must(r, who) {
  for (const [id, e] of r.errors) if (who.includes(id)) throw e;
  return r;
}

// ------------------------------------------------------------------------------ Lens

function lensKeygen(curve, parties, t, cheater) {
  const ps = parties.map((id) =>
    lens.keygen({ curve, session: label32(`kg-${curve}`), parties, threshold: t, id, seed: seedFor('kg', id), cheat: id === cheater ? constants.cheats.dealing : undefined }),
  );
  const r = run(ps);
  ps.forEach((p) => p.free());
  return r;
}

function lensSign(shares, publicPackage, msg, cheater) {
  const hub = 100;
  const c = lens.coordinate({ publicPackage, id: hub, message: msg });
  const signers = shares.map((s) => lens.sign({ share: s, coordinator: hub, message: msg, cheat: s.id === cheater ? constants.cheats.signing : undefined }));
  const r = run([c, ...signers]);
  [c, ...signers].forEach((p) => p.free());
  if (r.errors.has(hub)) throw r.errors.get(hub);
  return r.outcomes.get(hub);
}

describe('Lens', () => {
  for (const curve of ['ed25519', 'secp256k1', 'ristretto255']) {
    test(`${curve}: keygen 2-of-3, sign, verify, reshare to {4,5,6} t=2 with activation, sign under the same key`, () => {
      const r = must(lensKeygen(curve, [1, 2, 3], 2), [1, 2, 3]);
      const o1 = r.outcomes.get(1);
      assert.ok(o1.keyShare instanceof LensKeyShare);
      assert.deepEqual(o1.blame, []);
      const shares = [1, 2, 3].map((id) => r.outcomes.get(id).keyShare);
      const msg = enc(`hello ${curve}`);
      const out = lensSign(shares.slice(0, 2), o1.publicPackage, msg);
      assert.equal(lens.verify(curve, o1.groupKey, msg, out.signature), true);
      assert.equal(lens.verify(curve, o1.groupKey, enc('other'), out.signature), false);
      assert.deepEqual(out.signers, [1, 2]);

      const common = { session: label32(`rs-${curve}`), dealers: [1, 2], receivers: [4, 5, 6], threshold: 2 };
      const parties = [
        lens.reshare({ share: shares[0], ...common }),
        lens.reshare({ share: shares[1], ...common }),
        ...[4, 5, 6].map((id) => lens.reshareJoin({ publicPackage: o1.publicPackage, id, ...common })),
      ];
      const rr = must(run(parties), [1, 2, 4, 5, 6]);
      parties.forEach((p) => p.free());
      for (const id of [1, 2, 4, 5, 6]) {
        const o = rr.outcomes.get(id);
        assert.equal(o.activation.verified, true, `party ${id} verified the activation`);
        assert.equal(o.generation, 1);
        assert.deepEqual(o.groupKey, o1.groupKey, 'the group key is unchanged');
      }
      assert.equal(rr.outcomes.get(1).keyShare, undefined, 'an old party that left gets no share');
      const n4 = rr.outcomes.get(4);
      const v = lens.verifyActivation(n4.publicPackage, 1, n4.transcriptHash, n4.activation.certificate);
      assert.deepEqual({ ...v }, { ok: true });
      const wrongGen = lens.verifyActivation(n4.publicPackage, 2, n4.transcriptHash, n4.activation.certificate);
      assert.equal(wrongGen.ok, false);
      assert.equal(wrongGen.code, 'ACTIVATION_WRONG_GENERATION');
      const wrongTx = lens.verifyActivation(n4.publicPackage, 1, new Uint8Array(32), n4.activation.certificate);
      assert.equal(wrongTx.code, 'ACTIVATION_WRONG_TRANSCRIPT');
      // The chained activation attack: the old set's signature is no certificate.
      assert.equal(lens.verifyActivation(n4.publicPackage, 1, n4.transcriptHash, out.signature).ok, false, 'a signature by the old set');
      const garbage = lens.verifyActivation(n4.publicPackage, 1, n4.transcriptHash, new Uint8Array(10));
      assert.equal(garbage.ok, false, 'a malformed certificate is a verdict, not a throw');
      // Old shares erased only now (the activation was verified).
      shares.forEach((s) => s.free());
      const newShares = [4, 6].map((id) => rr.outcomes.get(id).keyShare);
      const again = lensSign(newShares, n4.publicPackage, enc('after'));
      assert.equal(lens.verify(curve, o1.groupKey, enc('after'), again.signature), true);
      for (const id of [4, 5, 6]) rr.outcomes.get(id).keyShare.free();
    });
  }

  test('a dealer with bad-shares is disqualified by every honest party: INVALID_OPENING', () => {
    const r = must(lensKeygen('ed25519', [1, 2, 3, 4], 3, 2), [1, 3, 4]);
    for (const id of [1, 3, 4]) {
      const o = r.outcomes.get(id);
      assert.ok(o.blame.length >= 1);
      for (const b of o.blame) {
        assert.equal(b.party, 2);
        assert.equal(b.code, 'INVALID_OPENING');
        assert.match(b.reason, /does not match its commitments/);
      }
      assert.ok(!o.qualified.includes(2));
    }
    // The others still sign.
    const shares = [1, 3, 4].map((id) => r.outcomes.get(id).keyShare);
    const out = lensSign(shares, r.outcomes.get(1).publicPackage, enc('x'));
    assert.equal(lens.verify('ed25519', r.outcomes.get(1).groupKey, enc('x'), out.signature), true);
  });

  test('a signer with bad-contribution is named by the coordinator (INVALID_SIGNATURE_SHARE)', () => {
    const r = must(lensKeygen('ed25519', [1, 2, 3], 2), [1, 2, 3]);
    const shares = [1, 2, 3].map((id) => r.outcomes.get(id).keyShare);
    assert.throws(
      () => lensSign(shares.slice(0, 2), r.outcomes.get(1).publicPackage, enc('x'), 2),
      (e) => e.code === 'INVALID_SIGNATURE_SHARE' && e.culprits.includes(2),
    );
  });

  test('reserved activation messages are refused; seal and restore', () => {
    const r = must(lensKeygen('secp256k1', [1, 2, 3], 2), [1, 2, 3]);
    const share = r.outcomes.get(1).keyShare;
    assertQuasar(() => lens.sign({ share, coordinator: 9, message: enc(constants.lensActivationTag) }), 'RESERVED_MESSAGE');
    const key = label32('snapshot');
    const sealed = share.seal(key);
    const back = LensKeyShare.restore('secp256k1', sealed, key);
    assert.deepEqual(back.publicInfo(), share.publicInfo());
    assert.throws(() => LensKeyShare.restore('secp256k1', sealed, label32('wrong')), (e) => e.name === 'QuasarError');
    back.free();
    share.free();
    assert.throws(() => share.publicInfo(), (e) => e.code === 'USE_AFTER_FREE');
  });
  test('a trusted dealer: lens.deal, LensKeyShare.fromDealer on every curve, then t shares sign', () => {
    for (const curve of lens.curves) {
      const d = lens.deal({ curve, parties: [1, 2, 3], threshold: 2, seed: label32(`deal-${curve}`) });
      assert.deepEqual(d.shares.map((s) => s.id), [1, 2, 3]);
      const shares = d.shares.map((s) => LensKeyShare.fromDealer(curve, s.dealerShare, d.publicPackage));
      const info = shares[2].publicInfo();
      assert.equal(info.id, 3);
      assert.equal(info.generation, 0);
      assert.deepEqual(info.publicPackage, d.publicPackage);
      const msg = enc(`dealt ${curve}`);
      const out = lensSign(shares.slice(1), d.publicPackage, msg);
      assert.equal(lens.verify(curve, info.groupKey, msg, out.signature), true);
      // Another dealing's package, another curve: refused.
      const other = lens.deal({ curve, parties: [1, 2, 3], threshold: 2 });
      assert.throws(() => LensKeyShare.fromDealer(curve, d.shares[0].dealerShare, other.publicPackage), (e) => e.name === 'QuasarError');
      const wrong = curve === 'ed25519' ? 'ristretto255' : 'ed25519';
      assert.throws(() => LensKeyShare.fromDealer(wrong, d.shares[0].dealerShare, d.publicPackage), (e) => e.name === 'QuasarError');
      shares.forEach((s) => s.free());
    }
    assertQuasar(() => lens.deal({ curve: 'ed25519', parties: [1, 2, 2], threshold: 2 }), 'DUPLICATE_PARTY');
    assertQuasar(() => lens.deal({ curve: 'ed25519', parties: [1, 2, 3], threshold: 4 }), 'INVALID_THRESHOLD');
    assert.throws(() => lens.deal({ curve: 'ed25519', parties: [1, 2], threshold: 2, sed: label32('x') }), TypeError);
  });
});

describe('generators', () => {
  const kg = (opts) => lens.keygen({ curve: 'ed25519', session: label32('rng'), parties: [1, 2], threshold: 2, id: 1, ...opts });

  test('an Rng continues across factories; a seed starts afresh each time', () => {
    const seed = label32('one seed');
    const [a, b] = [kg({ seed }), kg({ seed })];
    assert.deepEqual(a.start.outgoing.broadcast, b.start.outgoing.broadcast, 'the same seed, the same draws');
    const rng = Rng.fromSeed(seed);
    const [c, d] = [kg({ rng }), kg({ rng })];
    assert.deepEqual(c.start.outgoing.broadcast, a.start.outgoing.broadcast, "an Rng's first draws are its seed's");
    assert.notDeepEqual(d.start.outgoing.broadcast, c.start.outgoing.broadcast, 'the next factory continues the stream');
    [a, b, c, d].forEach((p) => p.free());
    rng.free();
    assert.throws(() => kg({ rng }), (e) => e.code === 'USE_AFTER_FREE');
  });

  test('bad generators: seed and rng together, a non-Rng, a seed of the wrong length', () => {
    const rng = Rng.fromSeed(label32('g'));
    assert.throws(() => kg({ seed: label32('g'), rng }), TypeError);
    assert.throws(() => kg({ rng: label32('g') }), TypeError);
    assert.throws(() => Rng.fromSeed(new Uint8Array(31)), RangeError);
    assert.throws(() => Rng.fromSeed(), TypeError);
    assert.throws(() => new Rng(), TypeError);
    rng.free();
  });
});

// ------------------------------------------------------------------------------ Pulsar

const COMBINER = 99;

function custody(makeCombiner, signerOf, signerIds, cheater) {
  const c = makeCombiner();
  const session = c.info.session;
  assert.equal(new TextDecoder().decode(c.info.combinerKey.subarray(0, 4)), 'PCEK', "the combiner publishes its key");
  const signers = signerIds.map((id) => signerOf(id, session, id === cheater ? constants.cheats.signing : undefined));
  const r = run([c, ...signers]);
  [c, ...signers].forEach((p) => p.free());
  if (r.errors.has(COMBINER)) throw r.errors.get(COMBINER);
  return r.outcomes.get(COMBINER);
}

/**
 * A group made by the custody lifecycle (js/support/run.mjs `pulsarGroup`): the run `r`,
 * the combiner's `record`, and each honest member's `PulsarKeyShare` by id (copies out of its
 * keyring) for the single-protocol factories below.
 */
function pulsarKey(parties, t, level = 65, cheater) {
  const honest = parties.filter((p) => p !== cheater);
  const cheats = cheater === undefined ? {} : { [cheater]: constants.cheats.dealing };
  const g = pulsarGroup(pulsar, { label: `pkey/${parties.length}/${t}/${level}`, level, members: parties, threshold: t, signers: honest.slice(0, t), combiner: COMBINER, cheats });
  must(g.r, honest);
  const shares = new Map(honest.map((id) => [id, g.members.get(id).keyring.current()]));
  for (const o of g.members.values()) o.keyring.free();
  return { r: g.r, record: g.record, shares };
}

/** The key certificate at the end of a `PCGK` record: magic ‖ u16 version ‖ commitment ‖ ceremony hash ‖ u32 ‖ `PULG` frame ‖ u32 ‖ `LSA2`. */
function keyCertificate(record) {
  const view = new DataView(record.buffer, record.byteOffset, record.byteLength);
  const at = 70 + 4 + view.getUint32(70);
  return record.slice(at + 4, at + 4 + view.getUint32(at));
}

function pulsarSign(shares, signerIds, msg, context, cheater) {
  const info = shares.get(signerIds[0]).publicInfo();
  return custody(
    () => pulsar.sign.combiner({ id: COMBINER, keyRecord: info.keyRecord, sharing: info.sharing, signers: signerIds, message: msg, context, session: crypto.getRandomValues(new Uint8Array(32)) }),
    (id, session, cheat) => pulsar.sign.signer({ share: shares.get(id), session, message: msg, context, cheat }),
    signerIds,
    cheater,
  );
}

describe('Pulsar custody', () => {
  test('DKG 3-of-5, key ceremony, certification, sign, standard verify; reshare to (3, 6) with activation; sign again', () => {
    const { record: cert, shares } = pulsarKey(ids(1, 5), 3);
    assert.ok(shares.get(1) instanceof PulsarKeyShare);
    assert.equal(cert.groupKey.length, 1952);
    for (const s of shares.values()) assert.deepEqual(s.publicInfo().keyRecord, cert.keyRecord, 'every member holds the certified record');
    assert.equal(new TextDecoder().decode(keyCertificate(cert.keyRecord).subarray(0, 4)), 'LSA2');
    const msg = enc('block 1');
    const signed = pulsarSign(shares, [2, 3, 4], msg);
    assert.equal(mlDsa65.verify(signed.signature, msg, cert.groupKey), true, 'a standard ML-DSA-65 signature');
    assert.equal(pulsar.verify(cert.groupKey, msg, signed.signature), true);
    assert.deepEqual(signed.signers, [2, 3, 4]);

    // Reshare to {1..6}, t = 4: old holders 1..5 (dealers 1..3), new member 6.
    const info = shares.get(1).publicInfo();
    const common = { session: label32('prs'), dealers: [1, 2, 3], receivers: ids(1, 6), threshold: 4 };
    const parties = [
      ...ids(1, 5).map((id) => pulsar.reshare({ share: shares.get(id), ...common })),
      pulsar.reshareJoin({ keyRecord: info.keyRecord, sharing: info.sharing, id: 6, ...common }),
    ];
    const rr = must(run(parties), ids(1, 6));
    parties.forEach((p) => p.free());
    for (const id of ids(1, 6)) {
      const o = rr.outcomes.get(id);
      assert.equal(o.activation.verified, true, `party ${id} verified the activation certificate`);
      assert.deepEqual(o.groupKey, cert.groupKey, 'same ML-DSA key');
      assert.ok(o.keyShare instanceof PulsarKeyShare);
    }
    const o6 = rr.outcomes.get(6);
    assert.deepEqual({ ...pulsar.verifyActivation(o6.sharing, o6.keyRecord, 1, o6.transcriptHash, o6.activation.certificate) }, { ok: true });
    const old = pulsar.verifyActivation(info.sharing, info.keyRecord, 1, o6.transcriptHash, o6.activation.certificate);
    assert.equal(old.ok, false, 'the old generation does not accept the new certificate');
    assert.equal(pulsar.verifyActivation(o6.sharing, o6.keyRecord, 2, o6.transcriptHash, o6.activation.certificate).code, 'ACTIVATION_WRONG_GENERATION');
    // The chained activation attack: what the old set alone can make is no certificate of
    // the new generation — neither its own key certification nor a signature under the key.
    const oldCert = pulsar.verifyActivation(o6.sharing, o6.keyRecord, 1, o6.transcriptHash, keyCertificate(cert.keyRecord));
    assert.equal(oldCert.ok, false, 'the old set\'s generation-0 certificate');
    assert.equal(pulsar.verifyActivation(o6.sharing, o6.keyRecord, 1, o6.transcriptHash, signed.signature).ok, false, 'a signature by the old set');
    // Old shares erased only after that.
    shares.forEach((s) => s.free());
    const next = new Map(ids(1, 6).map((id) => [id, rr.outcomes.get(id).keyShare]));
    const again = pulsarSign(next, [3, 4, 5, 6], enc('block 2'));
    assert.equal(mlDsa65.verify(again.signature, enc('block 2'), cert.groupKey), true);
    next.forEach((s) => s.free());
  });

  test('every byte of a key record is bound: verifyActivation and sign.combiner refuse each changed record', () => {
    // A 2-of-4 ML-DSA-44 key refreshed by all four: generation 1, a certificate of 4 members.
    const { shares } = pulsarKey(ids(1, 4), 2, 44);
    const parties = ids(1, 4).map((id) => pulsar.refresh({ share: shares.get(id), session: label32('record bytes'), dealers: ids(1, 4) }));
    const rr = must(run(parties), ids(1, 4));
    parties.forEach((p) => p.free());
    const gen0 = shares.get(1).publicInfo();
    shares.forEach((s) => s.free());
    const o = rr.outcomes.get(1);
    ids(1, 4).forEach((id) => rr.outcomes.get(id).keyShare.free());
    const { sharing, keyRecord, generation, transcriptHash } = o;
    const certificate = o.activation.certificate;
    assert.equal(generation, 1);
    const verify = (record) => pulsar.verifyActivation(sharing, record, generation, transcriptHash, certificate);
    const combiner = (record) => pulsar.sign.combiner({ id: COMBINER, keyRecord: record, sharing, signers: [1, 2], message: enc('m'), session: label32('record bytes sign'), seed: label32('c') });
    assert.deepEqual({ ...verify(keyRecord) }, { ok: true });
    combiner(keyRecord).free();
    // The generation-0 record: its certificate is of another sharing, so it is refused here.
    assert.equal(verify(gen0.keyRecord).code, 'ACTIVATION_WRONG_GENERATION');
    const changed = [];
    for (let i = 0; i < keyRecord.length; i++) {
      const m = keyRecord.slice();
      m[i] ^= 1 << (i % 8);
      changed.push([`byte ${i} flipped`, m]);
    }
    for (let cut = 0; cut < keyRecord.length; cut++) changed.push([`cut to ${cut} bytes`, keyRecord.slice(0, cut)]);
    const longer = new Uint8Array(keyRecord.length + 1);
    longer.set(keyRecord);
    changed.push(['one byte more', longer]);
    const taken = [];
    for (const [what, m] of changed) {
      const v = verify(m); // a verdict, never a throw
      if (v.ok !== false || typeof v.code !== 'string') taken.push(`${what}: verifyActivation ${JSON.stringify(v)}`);
      try {
        combiner(m).free();
        taken.push(`${what}: sign.combiner`);
      } catch (e) {
        if (e.name !== 'QuasarError') taken.push(`${what}: sign.combiner threw ${e.name}: ${e.message}`);
      }
    }
    assert.deepEqual(taken, [], `${taken.length} of ${changed.length} changed ${keyRecord.length}-byte records accepted`);
  });

  test('cheaters: bad-shares in the DKG (INVALID_OPENING by every honest party); bad-contribution in signing (INVALID_SHARE)', () => {
    const { r, shares } = pulsarKey(ids(1, 5), 3, 44, 2);
    for (const id of [1, 3, 4, 5]) {
      const o = r.outcomes.get(id);
      assert.ok(o.blame.some((b) => b.party === 2 && b.code === 'INVALID_OPENING'), `party ${id} blames party 2`);
      assert.ok(o.blame.every((b) => b.party === 2));
    }
    // 4 signers, one cheating: the combiner excludes it and still signs with t = 3.
    const signed = pulsarSign(shares, [1, 3, 4, 5], enc('m'), undefined, 3);
    assert.ok(signed.blame.some((b) => b.party === 3 && b.code === 'INVALID_SHARE'));
    assert.ok(!signed.signers.includes(3));
    // Exactly t signers, one cheating: NOT_ENOUGH_VALID_SHARES naming it.
    assert.throws(() => pulsarSign(shares, [1, 3, 4], enc('m'), undefined, 4), (e) => e.code === 'NOT_ENOUGH_VALID_SHARES' && e.culprits.includes(4) && e.blame[0].code === 'INVALID_SHARE');
    shares.forEach((s) => s.free());
  });

  test('a caller-supplied key never overrides a verified one; reserved context refused; seal/restore', () => {
    const a = pulsarKey(ids(1, 3), 2, 44);
    const info = a.shares.get(1).publicInfo();
    assertQuasar(
      () => pulsar.sign.combiner({ id: COMBINER, keyRecord: info.keyRecord, sharing: info.sharing, signers: [1, 2], message: enc('m'), context: constants.pulsarActivationContext, session: label32('s') }),
      'RESERVED_CONTEXT',
    );
    // A session for another message than the signer means to sign.
    const c = pulsar.sign.combiner({ id: COMBINER, keyRecord: info.keyRecord, sharing: info.sharing, signers: [1, 2], message: enc('m'), session: label32('s') });
    assertQuasar(() => pulsar.sign.signer({ share: a.shares.get(1), session: c.info.session, message: enc('other') }), 'WRONG_MESSAGE');
    // A forged key record (another key, right commitment) is refused by the combiner.
    const forged = info.keyRecord.slice();
    forged[forged.length - 100] ^= 1;
    assert.throws(() => pulsar.sign.combiner({ id: COMBINER, keyRecord: forged, sharing: info.sharing, signers: [1, 2], message: enc('m'), session: label32('s') }), (e) => e.name === 'QuasarError');
    c.free();
    const key = label32('k');
    const sealed = a.shares.get(2).seal(key);
    const back = PulsarKeyShare.restore(sealed, key);
    assert.deepEqual(back.publicInfo(), a.shares.get(2).publicInfo());
    back.free();
    a.shares.forEach((s) => s.free());
  });
});

describe('the package layer', () => {
  test('constants come from the WASM module', () => {
    const w = glue.protocolConstants();
    assert.deepEqual(constants.pulsarActivationContext, w.pulsarActivationContext);
    assert.equal(constants.lensActivationTag, w.lensActivationTag);
    assert.equal(constants.lssActivationTag, w.lssActivationTag);
    assert.equal(constants.maxMessageBytes, w.lensMaxMessageBytes);
    assert.equal(constants.maxMessageBytes, w.pulsarMaxMessageBytes);
    assert.deepEqual(Object.values(constants.cheats).sort(), [...w.cheats].sort());
    assert.match(trustModels.activation, /old share only after/);
  });

  test('Party objects are made by the factories only; free() is idempotent; Symbol.dispose', () => {
    assert.throws(() => new Party(), TypeError);
    const p = lens.keygen({ curve: 'ed25519', session: label32('x'), parties: [1, 2], threshold: 2, id: 1 });
    assert.equal(p.protocol, 'lens-dealing');
    assert.deepEqual({ ...p.round }, { number: 1, name: 'check shares' });
    assert.ok(p.start.outgoing.broadcast instanceof Uint8Array);
    assert.equal(p.start.outgoing.direct.length, 1);
    p[Symbol.dispose ?? Symbol.for('Symbol.dispose')]();
    p.free();
    assert.throws(() => p.step([]), (e) => e.code === 'USE_AFTER_FREE');
  });

  test('step errors keep the party: too few qualified, then a good inbox', () => {
    const parties = [1, 2, 3].map((id) => lens.keygen({ curve: 'ed25519', session: label32('keep'), parties: [1, 2, 3], threshold: 2, id }));
    // Round 1 for party 1 without party 2's and 3's messages: it complains (no abort) and
    // keeps going; the run still completes for everyone.
    const r = run(parties);
    assert.equal(r.outcomes.size, 3);
    assert.throws(() => parties[0].step([]), (e) => e.code === 'PARTY_FINISHED');
    parties.forEach((p) => p.free());
  });
});

describe('run() and waiting', () => {
  test('a party with nothing to act on returns a waiting result, not an error; run() reports it still waiting', () => {
    const k = must(lensKeygen('ed25519', [1, 2, 3], 2), [1, 2, 3]);
    const share = k.outcomes.get(1).keyShare;
    const signer = lens.sign({ share, coordinator: 100, message: enc('wait'), seed: seedFor('wait', 1) });
    assert.equal(signer.start.waiting, false);
    const r = signer.step([]);
    assert.equal(r.waiting, true, 'no signing package yet');
    assert.equal(r.done, false);
    assert.equal(r.outgoing.broadcast, undefined);
    assert.deepEqual(r.outgoing.direct, []);
    assert.deepEqual(r.round, signer.round);
    // Alone, it never hears from its coordinator: run() stops when nothing is in flight.
    const alone = runParties([signer]);
    assert.deepEqual(alone.waiting, [1]);
    assert.equal(alone.errors.size, 0);
    assert.throws(() => alone.of(signer), /did not finish/);
    assert.throws(() => runParties([signer, signer]), RangeError);
    assert.throws(() => runParties([signer], { bogus: 1 }), TypeError);
    assert.throws(() => runParties([signer], { maxRounds: 0 }), /maxRounds must be an integer in 1\.\.65535/);
    assert.equal(runParties([signer], { maxRounds: 1 }).rounds, 1);
    signer.free();
    for (const o of k.outcomes.values()) o.keyShare.free();
  });
});

describe('Pulsar lifecycle parties through run()', () => {
  test('setup 2-of-4 → sign by {2,4} → reshare to {2,3,4,5} t=3 (1 leaves, 5 joins) → activation → sign with the new generation', () => {
    const C = 100;
    const members = [1, 2, 3, 4];
    const setup = { session: label32('lc/setup'), level: 44, members, threshold: 2, signers: [1, 2] };
    const ms = members.map((id) => pulsar.lifecycle.member.setup({ ...setup, combiner: C, id, seed: seedFor('lc/setup', id) }));
    const c = pulsar.lifecycle.combiner.setup({ ...setup, id: C, seed: seedFor('lc/setup', C) });
    assert.equal(ms[0].protocol, 'pulsar-member');
    const r = runParties([...ms, c]);
    assert.deepEqual(r.waiting, []);
    assert.equal(r.errors.size, 0);
    assert.deepEqual(r.blame, []);
    const rec = r.of(c);
    assert.equal(rec.path, 'setup');
    assert.equal(rec.groupKey.length, 1312);
    const keyrings = new Map();
    for (const [i, id] of members.entries()) {
      const o = r.of(ms[i]);
      assert.equal(o.path, 'setup');
      assert.ok(o.keyring instanceof PulsarKeyring);
      assert.equal(o.keyring.generation, 0);
      assert.deepEqual(o.keyring.publicInfo().groupKey, rec.groupKey, `member ${id} holds the combiner's certified key`);
      assert.deepEqual(o.keyRecord, rec.keyRecord);
      keyrings.set(id, o.keyring);
    }
    [...ms, c].forEach((p) => p.free());

    const sign = (record, signers, text, label) => {
      const sp = { session: label32(label), signers, message: enc(text), context: enc('ctx') };
      const sc = pulsar.lifecycle.combiner.sign({ ...sp, id: C, keyRecord: record.keyRecord, sharing: record.sharing, seed: seedFor(label, C) });
      const ss = signers.map((id) => pulsar.lifecycle.member.sign({ ...sp, keyring: keyrings.get(id), combiner: C, seed: seedFor(label, id) }));
      const rs = runParties([sc, ...ss]);
      assert.deepEqual(rs.waiting, []);
      assert.equal(rs.errors.size, 0);
      for (const s of ss) assert.equal(rs.of(s).path, 'sign');
      const signed = rs.of(sc);
      [sc, ...ss].forEach((p) => p.free());
      assert.ok(pulsar.verify(record.groupKey, enc(text), signed.signature, { context: enc('ctx') }), `${label} verifies`);
      assert.deepEqual(signed.signers, signers);
      return signed;
    };
    sign(rec, [2, 4], 'block 1', 'lc/sign1');

    // Reshare: 1, 2, 3 deal to {2, 3, 4, 5} with threshold 3; 5 joins with an empty keyring.
    keyrings.set(5, PulsarKeyring.empty());
    assert.equal(keyrings.get(5).generation, undefined);
    const rp = { session: label32('lc/reshare'), dealers: [1, 2, 3], receivers: [2, 3, 4, 5], threshold: 3 };
    const all = [1, 2, 3, 4, 5];
    const rps = all.map((id) =>
      pulsar.lifecycle.member.reshare({ ...rp, id, keyring: keyrings.get(id), ...(id === 5 ? { keyRecord: rec.keyRecord, sharing: rec.sharing } : {}), seed: seedFor('lc/reshare', id) }),
    );
    // The keyrings moved into the parties.
    assert.equal(keyrings.get(2).generation, undefined);
    const rr = runParties(rps);
    assert.deepEqual(rr.waiting, []);
    assert.equal(rr.errors.size, 0);
    assert.deepEqual(rr.blame, []);
    let next;
    for (const [i, id] of all.entries()) {
      const o = rr.of(rps[i]);
      assert.equal(o.path, 'reshare');
      assert.equal(o.activation.verified, true);
      assert.equal(o.activated.ok, true, `${id}: ${o.activated.reason}`);
      assert.equal(o.activated.generation, 1);
      assert.equal(o.activated.member, id !== 1);
      keyrings.get(id).free();
      keyrings.set(id, o.keyring);
      if (id === 1) {
        assert.equal(o.keyring.generation, undefined, 'the member that left holds nothing');
        assert.equal(o.activated.erased, 0);
      } else {
        assert.equal(o.keyring.generation, 1);
        assert.equal(o.keyring.pendingGeneration, undefined);
        assert.deepEqual(o.groupKey, rec.groupKey, 'the group key never changes');
        next ??= o;
      }
    }
    rps.forEach((p) => p.free());
    assert.equal(next.generation, 1);
    sign(next, [3, 4, 5], 'block 2', 'lc/sign2');
    for (const k of keyrings.values()) k.free();
  });
});

describe('Lens lifecycle parties through run()', () => {
  test('keygen 2-of-3 → sign by {1,3} → reshare by {1,2} to {2,3,4} t=2 (1 leaves, 4 joins) → activation → sign by {3,4}', () => {
    const hub = 100;
    const curve = 'ed25519';
    const ks = [1, 2, 3].map((id) => lens.lifecycle.member.keygen({ curve, session: label32('llc/kg'), members: [1, 2, 3], threshold: 2, id, seed: seedFor('llc/kg', id) }));
    const r = runParties(ks);
    assert.deepEqual(r.waiting, []);
    assert.equal(r.errors.size, 0);
    const keyrings = new Map(ks.map((p) => [p.id, r.of(p).keyring]));
    const first = r.of(ks[0]);
    assert.equal(first.path, 'keygen');
    assert.ok(first.keyring instanceof LensKeyring);
    assert.equal(first.keyring.generation, 0);
    ks.forEach((p) => p.free());
    const sign = (pkg, groupKey, signers, text) => {
      const c = lens.lifecycle.coordinator.sign({ publicPackage: pkg, id: hub, message: enc(text) });
      const ss = signers.map((id) => lens.lifecycle.member.sign({ keyring: keyrings.get(id), coordinator: hub, message: enc(text), seed: seedFor(text, id) }));
      const rs = runParties([c, ...ss]);
      assert.deepEqual(rs.waiting, []);
      assert.equal(rs.errors.size, 0);
      const { signature } = rs.of(c);
      [c, ...ss].forEach((p) => p.free());
      assert.ok(lens.verify(curve, groupKey, enc(text), signature), `${text} verifies`);
    };
    sign(first.publicPackage, first.groupKey, [1, 3], 'lens 1');
    keyrings.set(4, LensKeyring.empty());
    const rp = { session: label32('llc/rs'), dealers: [1, 2], receivers: [2, 3, 4], threshold: 2 };
    const rps = [1, 2, 3, 4].map((id) =>
      lens.lifecycle.member.reshare({ ...rp, id, keyring: keyrings.get(id), ...(id === 4 ? { publicPackage: first.publicPackage } : {}), seed: seedFor('llc/rs', id) }),
    );
    const rr = runParties(rps);
    assert.deepEqual(rr.waiting, []);
    assert.equal(rr.errors.size, 0, [...rr.errors.values()].join('; '));
    let next;
    for (const p of rps) {
      const o = rr.of(p);
      assert.equal(o.path, 'reshare');
      assert.equal(o.activated.ok, true, `${p.id}: ${o.activated.reason}`);
      keyrings.get(p.id).free();
      keyrings.set(p.id, o.keyring);
      assert.equal(o.keyring.generation, p.id === 1 ? undefined : 1);
      assert.deepEqual(o.groupKey, first.groupKey, 'the group key never changes');
      if (p.id !== 1) next ??= o;
    }
    rps.forEach((p) => p.free());
    sign(next.publicPackage, next.groupKey, [3, 4], 'lens 2');
    for (const k of keyrings.values()) k.free();
  });
});

describe('host independence', () => {
  // The Pulsar lifecycle of tests/suite/lifecycle_host.rs with the same seeds: the Rust simulator
  // and the package's run() post the same bytes in the same order and end with the same
  // outputs (tests/fixtures/lifecycle_host.json, written by the Rust test).
  const hex = (b) => Buffer.from(b).toString('hex');
  const u32 = (n) => Buffer.from([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
  const u16 = (n) => Buffer.from([n >>> 8, n & 0xff]);
  /** SHA-256 over every post, as tests/suite/lifecycle_host.rs `transcript` encodes it. */
  function logged(parties) {
    const h = createHash('sha256');
    let posts = 0;
    const r = runParties(parties, {
      onSent(from, out, round) {
        posts += 1;
        h.update(u32(round)).update(u16(from));
        if (out.broadcast) h.update(Buffer.from([1])).update(u32(out.broadcast.length)).update(out.broadcast);
        else h.update(Buffer.from([0]));
        h.update(u32(out.direct.length));
        for (const d of out.direct) h.update(u16(d.to)).update(u32(d.bytes.length)).update(d.bytes);
      },
    });
    assert.deepEqual(r.waiting, []);
    assert.equal(r.errors.size, 0, [...r.errors.values()].join('; '));
    return { r, transcript: h.digest('hex'), posts };
  }

  test('the Pulsar lifecycle run by JS run() gives the Rust simulator\'s bytes (setup, sign, reshare → activation)', () => {
    const want = JSON.parse(readFileSync(new URL('../../tests/fixtures/lifecycle_host.json', import.meta.url), 'utf8'));
    const C = 100;
    const members = [1, 2, 3, 4];
    const setup = { session: label32('host/setup'), level: 44, members, threshold: 2, signers: [1, 2] };
    const ms = members.map((id) => pulsar.lifecycle.member.setup({ ...setup, combiner: C, id, seed: label32(`host/setup/${id}`) }));
    const c = pulsar.lifecycle.combiner.setup({ ...setup, id: C, seed: label32(`host/setup/${C}`) });
    const s = logged([...ms, c]);
    const rec = s.r.of(c);
    assert.deepEqual({ transcript: s.transcript, posts: s.posts, keyRecord: hex(rec.keyRecord), sharing: hex(rec.sharing) }, want.setup);
    const keyrings = new Map(members.map((id, i) => [id, s.r.of(ms[i]).keyring]));

    const sp = { session: label32('host/sign'), signers: [2, 4], message: enc('block 1'), context: enc('ctx') };
    const sc = pulsar.lifecycle.combiner.sign({ ...sp, id: C, keyRecord: rec.keyRecord, sharing: rec.sharing, seed: label32(`host/sign/${C}`) });
    const ss = [2, 4].map((id) => pulsar.lifecycle.member.sign({ ...sp, keyring: keyrings.get(id), combiner: C, seed: label32(`host/sign/${id}`) }));
    const g = logged([sc, ...ss]);
    assert.deepEqual({ transcript: g.transcript, posts: g.posts, signature: hex(g.r.of(sc).signature) }, want.sign);

    keyrings.set(5, PulsarKeyring.empty());
    const rp = { session: label32('host/reshare'), dealers: [1, 2, 3], receivers: [2, 3, 4, 5], threshold: 3 };
    const rps = [1, 2, 3, 4, 5].map((id) =>
      pulsar.lifecycle.member.reshare({ ...rp, id, keyring: keyrings.get(id), ...(id === 5 ? { keyRecord: rec.keyRecord, sharing: rec.sharing } : {}), seed: label32(`host/reshare/${id}`) }),
    );
    const x = logged(rps);
    const two = x.r.of(rps[1]);
    assert.deepEqual(
      { transcript: x.transcript, posts: x.posts, sharing: hex(two.sharing), certificate: hex(two.activation.certificate), keyRecord: hex(two.keyRecord) },
      want.reshare,
    );
    for (const p of [...ms, c, sc, ...ss, ...rps]) p.free();
    for (const id of [1, 2, 3, 4, 5]) x.r.of(rps[id - 1]).keyring.free();
    for (const k of keyrings.values()) k.free();
  });
});
