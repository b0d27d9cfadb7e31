// Magnetar through the WASM builds: validator keys (FIPS 205 seeds and the reference's single
// seed), MAGS/MAGG envelopes byte for byte, their payloads under noble, batch verification
// with a planted bad signature (full and light builds give the same bitmap), the validator
// registry, and the MAGA aggregate certificate against it: honest, a cheater counted out,
// the quorum at its boundary, a certificate carrying a bad signature (refused, the signer
// named), unknown and duplicate signers, and every truncation and header bit flip of a
// certificate giving a verdict, never a throw. Most cases use SHAKE-192f (fast signing);
// SHAKE-192s and SHAKE-256s sign once each (about a second).

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, test } from 'node:test';

import { slh_dsa_shake_192f, slh_dsa_shake_192s, slh_dsa_shake_256s } from '@noble/post-quantum/slh-dsa.js';

import * as full from '../index.js';
import * as light from '../verify.js';
import { bytes } from '../support/bytes.mjs';

const { magnetar, MagnetarRegistry } = full;
const hex = (b) => Buffer.from(b).toString('hex');
const MSG = new TextEncoder().encode('chain 7 / epoch 3 / height 1000 / block 0x5eed');
const CTX = new TextEncoder().encode('quasar-test-finality');
const K = 7;
const id = (i) => bytes(`quasar-pq/magnetar-test/id/${i}`, 32);
const flip = (b, i) => {
  const c = Uint8Array.from(b);
  c[i] ^= 0x01;
  return c;
};

function assertQuasar(fn, code, why) {
  assert.throws(fn, (e) => {
    assert.equal(e.name, 'QuasarError', `${why}: ${e}`);
    assert.equal(e.code, code, `${why}: code (${e.message})`);
    return true;
  }, why);
}

/** An envelope: magic, version 1, mode byte, u32 length, payload. */
function envelope(magic, mode, payload) {
  const out = new Uint8Array(11 + payload.length);
  out.set(new TextEncoder().encode(magic));
  out[5] = 1;
  out[6] = mode;
  new DataView(out.buffer).setUint32(7, payload.length);
  out.set(payload, 11);
  return out;
}

let keys; // K validators of SHAKE-192f
let sigs; // their MAGS envelopes on MSG under CTX
let registry;
let lightRegistry;

before(async () => {
  await full.init();
  await light.init();
  keys = Array.from({ length: K }, (_, i) => magnetar.keygen('shake192f', { seed: bytes(`quasar-pq/magnetar-test/seed/${i}`, 72) }));
  sigs = keys.map((k) => magnetar.sign('shake192f', MSG, k.secretKey, { context: CTX }));
  const validators = keys.map((k, i) => ({ id: id(i), publicKey: k.publicKey, weight: 10 + i }));
  registry = new MagnetarRegistry('shake192f', validators);
  lightRegistry = new light.MagnetarRegistry('shake192f', validators);
});

describe('keys and envelopes', () => {
  test('lengths, modes, the light build\'s surface', () => {
    assert.deepEqual(magnetar.modes, ['shake192s', 'shake192f', 'shake256s']);
    assert.deepEqual({ ...magnetar.lengths.shake192s }, {
      publicKey: 59, signature: 16235, rawPublicKey: 48, rawSignature: 16224, seed: 72, referenceSeed: 96, secretKey: 96, signRand: 24, id: 32,
    });
    assert.equal(magnetar.lengths.shake192f.signature, 11 + 35664);
    assert.equal(magnetar.lengths.shake256s.publicKey, 11 + 64);
    assert.equal(light.magnetar.lengths, magnetar.lengths);
    assert.deepEqual(Object.keys(light.magnetar).sort(), ['lengths', 'modes', 'trustModel', 'verify', 'verifyBatch']);
    assert.deepEqual(Object.keys(magnetar).sort(), ['aggregate', 'keygen', 'lengths', 'modes', 'sign', 'trustModel', 'verify', 'verifyBatch']);
    assert.match(magnetar.trustModel, /each validator signs independently/);
    assert.match(magnetar.trustModel, /list of their ordinary FIPS 205 signatures/);
    assert.ok(Object.isFrozen(magnetar) && Object.isFrozen(light.magnetar) && Object.isFrozen(magnetar.lengths.shake192f));
  });

  test('keygen from the FIPS 205 seeds is the SLH-DSA key in a MAGG envelope', () => {
    const seed = bytes('quasar-pq/magnetar-test/seed/0', 72);
    const raw = full.slhDsaShake192f.keygen(seed);
    assert.equal(hex(keys[0].publicKey), hex(envelope('MAGG', 2, raw.publicKey)));
    assert.equal(hex(keys[0].secretKey), hex(raw.secretKey));
    assert.equal(hex(keys[0].publicKey.subarray(0, 11)), '4d4147470001020000' + '0030');
  });

  test('keygen from the reference\'s 4n-byte seed: SHAKE256 to SK.seed ‖ SK.prf ‖ PK.seed', () => {
    const ref = bytes('quasar-pq/magnetar-test/reference', 96);
    const k = magnetar.keygen('shake192f', { referenceSeed: ref });
    const expanded = new Uint8Array(createHash('shake256', { outputLength: 72 }).update(ref).digest());
    assert.equal(hex(k.publicKey), hex(envelope('MAGG', 2, full.slhDsaShake192f.keygen(expanded).publicKey)));
    assert.throws(() => magnetar.keygen('shake192f', { referenceSeed: ref.subarray(1) }), (e) => e instanceof RangeError && /referenceSeed/.test(e.message));
    assert.throws(() => magnetar.keygen('shake192f', { seed: ref }), (e) => e instanceof RangeError && /opts\.seed/.test(e.message));
    assert.throws(() => magnetar.keygen('shake192f', { seed: ref.subarray(0, 72), referenceSeed: ref }), TypeError);
    assert.throws(() => magnetar.keygen('shake128f'), TypeError, 'not a Magnetar mode');
    assert.notEqual(hex(magnetar.keygen('shake192f').publicKey), hex(magnetar.keygen('shake192f').publicKey), 'random keys');
  });

  test('sign: a MAGS envelope around a stock FIPS 205 signature (noble verifies the payload); hedged by default', () => {
    const s = sigs[0];
    assert.equal(s.length, magnetar.lengths.shake192f.signature);
    assert.equal(hex(s.subarray(0, 11)), '4d41475300010200008b50');
    const raw = s.subarray(11);
    const pk = keys[0].publicKey.subarray(11);
    assert.equal(slh_dsa_shake_192f.verify(raw, MSG, pk, { context: CTX }), true, 'noble verifies the payload');
    assert.equal(full.slhDsaShake192f.verify(raw, MSG, pk, { context: CTX }), true);
    assert.notEqual(hex(magnetar.sign('shake192f', MSG, keys[0].secretKey, { context: CTX })), hex(s), 'hedged');
    const det = magnetar.sign('shake192f', MSG, keys[0].secretKey, { context: CTX, extraEntropy: false });
    assert.equal(hex(det.subarray(11)), hex(full.slhDsaShake192f.sign(MSG, keys[0].secretKey, { context: CTX, extraEntropy: false })));
    // noble's signature in an envelope verifies under ours.
    const nobleSig = slh_dsa_shake_192f.sign(MSG, keys[1].secretKey, { context: CTX });
    assert.equal(light.magnetar.verify(envelope('MAGS', 2, nobleSig), MSG, keys[1].publicKey, { context: CTX }), true);
  });

  test('SHAKE-192s and SHAKE-256s: one signature each, verified by noble and both builds; modes never mix', () => {
    for (const [mode, byte, noble] of [['shake192s', 1, slh_dsa_shake_192s], ['shake256s', 3, slh_dsa_shake_256s]]) {
      const k = magnetar.keygen(mode, { seed: bytes(`quasar-pq/magnetar-test/${mode}`, magnetar.lengths[mode].seed) });
      assert.equal(k.publicKey[6], byte);
      const s = magnetar.sign(mode, MSG, k.secretKey, { extraEntropy: false });
      assert.equal(s[6], byte);
      assert.equal(noble.verify(s.subarray(11), MSG, k.publicKey.subarray(11)), true, `${mode}: noble`);
      assert.equal(light.magnetar.verify(s, MSG, k.publicKey), true, `${mode}: light`);
      assert.equal(magnetar.verify(s, MSG, keys[0].publicKey), false, `${mode} signature under a 192f key`);
      // The same payload relabelled as another mode is refused (its length is wrong for it).
      const relabelled = Uint8Array.from(s);
      relabelled[6] = 2;
      assert.equal(magnetar.verify(relabelled, MSG, k.publicKey), false);
    }
  });

  test('verify: false for any bad signature envelope; a bad key envelope or context throws', () => {
    const [s, pk] = [sigs[0], keys[0].publicKey];
    const opts = { context: CTX };
    assert.equal(magnetar.verify(s, MSG, pk, opts), true);
    for (const [what, bad] of [
      ['payload bit', flip(s, 500)],
      ['last byte', flip(s, s.length - 1)],
      ['magic', flip(s, 0)],
      ['version', flip(s, 5)],
      ['mode', flip(s, 6)],
      ['length', flip(s, 10)],
      ['truncated', s.subarray(0, s.length - 1)],
      ['header only', s.subarray(0, 11)],
      ['empty', new Uint8Array(0)],
      ['trailing byte', Uint8Array.from([...s, 0])],
      ['a MAGG envelope', pk],
      ['longer than any envelope', new Uint8Array(1 << 20)],
    ]) {
      assert.equal(magnetar.verify(bad, MSG, pk, opts), false, what);
      assert.equal(light.magnetar.verify(bad, MSG, pk, opts), false, `${what} (light)`);
    }
    assert.equal(magnetar.verify(s, flip(MSG, 0), pk, opts), false, 'another message');
    assert.equal(magnetar.verify(s, MSG, pk), false, 'no context');
    assert.equal(magnetar.verify(s, MSG, keys[1].publicKey, opts), false, 'another key');
    assertQuasar(() => magnetar.verify(s, MSG, flip(pk, 0), opts), 'BAD_MAGIC', 'key magic');
    assertQuasar(() => light.magnetar.verify(s, MSG, pk.subarray(0, 20), opts), 'TOO_SHORT', 'short key');
    assert.throws(() => magnetar.verify(s, MSG, new Uint8Array(76), opts), RangeError, 'key longer than any MAGG');
    assertQuasar(() => magnetar.verify(s, MSG, pk, { context: new Uint8Array(256) }), 'CONTEXT_TOO_LONG', 'context');
    assert.throws(() => magnetar.verify(s, MSG, pk, { ctx: CTX }), TypeError);
  });

  test('verifyBatch: one verdict per item, identical in both builds', () => {
    const items = keys.map((k, i) => ({ publicKey: k.publicKey, message: MSG, signature: sigs[i] }));
    items[2] = { ...items[2], signature: flip(sigs[2], 1000) }; // invalid
    items[4] = { ...items[4], signature: sigs[4].subarray(3) }; // malformed
    items[5] = { ...items[5], message: flip(MSG, 3) }; // another message
    const want = [true, true, false, true, false, false, true];
    assert.deepEqual(magnetar.verifyBatch(items, { context: CTX }), want);
    assert.deepEqual(light.magnetar.verifyBatch(items, { context: CTX }), want);
    assert.deepEqual(magnetar.verifyBatch([], { context: CTX }), []);
    assert.deepEqual(magnetar.verifyBatch(items.slice(0, 2)), [false, false], 'no context');
    assertQuasar(() => magnetar.verifyBatch([{ ...items[0], publicKey: flip(keys[0].publicKey, 1) }]), 'BAD_MAGIC', 'a bad key throws');
    assert.throws(() => magnetar.verifyBatch([{ publicKey: keys[0].publicKey, message: MSG }]), TypeError, 'missing signature');
    assert.throws(() => magnetar.verifyBatch({}), TypeError);
    assert.throws(() => magnetar.verifyBatch(new Array(1025).fill(items[0])), RangeError);
  });

  test('bad arguments to keygen and sign: typed errors naming them', () => {
    const sk = keys[0].secretKey;
    assert.throws(() => magnetar.sign('shake192f', MSG, sk.subarray(1)), (e) => e instanceof RangeError && /secretKey/.test(e.message));
    assert.throws(() => magnetar.sign('shake192f', MSG, sk, { extraEntropy: new Uint8Array(32) }), (e) => e instanceof RangeError && /extraEntropy/.test(e.message));
    assert.throws(() => magnetar.sign('shake192f', 'msg', sk), TypeError);
    assert.throws(() => magnetar.sign(2, MSG, sk), TypeError);
    assertQuasar(() => magnetar.sign('shake192f', MSG, sk, { context: new Uint8Array(256) }), 'CONTEXT_TOO_LONG', 'context');
    assert.throws(() => magnetar.sign('shake192f', MSG, sk, { contex: CTX }), /unexpected option "contex"/);
  });
});

describe('the registry and aggregate certificates', () => {
  test('the registry: sorted by id, weights as BigInt, the same in both builds', () => {
    assert.equal(registry.mode, 'shake192f');
    assert.equal(registry.size, K);
    assert.equal(registry.totalWeight, BigInt(10 * K + (K * (K - 1)) / 2));
    const vs = registry.validators();
    const ids = vs.map((v) => hex(v.id));
    assert.deepEqual(ids, [...ids].sort());
    assert.equal(typeof vs[0].weight, 'bigint');
    assert.deepEqual(lightRegistry.validators().map((v) => hex(v.id)), ids);
  });

  test('registry errors: duplicate id or key, another mode, zero weight, bad weights and ids', () => {
    const v = keys.slice(0, 3).map((k, i) => ({ id: id(i), publicKey: k.publicKey, weight: 1 }));
    assertQuasar(() => new MagnetarRegistry('shake192f', [...v, { ...v[0], publicKey: keys[5].publicKey }]), 'DUPLICATE_VALIDATOR', 'id twice');
    assertQuasar(() => new MagnetarRegistry('shake192f', [...v, { ...v[0], id: id(9) }]), 'DUPLICATE_KEY', 'key twice');
    assertQuasar(() => new light.MagnetarRegistry('shake192s', v), 'WRONG_MODE', 'a 192f key in a 192s registry');
    assertQuasar(() => new MagnetarRegistry('shake192f', v.map((x) => ({ ...x, weight: 0 }))), 'ZERO_TOTAL_WEIGHT', 'all weights zero');
    assertQuasar(() => new MagnetarRegistry('shake192f', []), 'ZERO_TOTAL_WEIGHT', 'empty');
    assertQuasar(() => new MagnetarRegistry('shake192f', v.map((x) => ({ ...x, weight: (1n << 64n) - 1n }))), 'WEIGHT_OVERFLOW', 'sum over u64');
    assertQuasar(() => new MagnetarRegistry('shake192f', [{ ...v[0], publicKey: flip(v[0].publicKey, 0) }]), 'BAD_MAGIC', 'key envelope');
    assert.throws(() => new MagnetarRegistry('shake192f', [{ ...v[0], weight: -1 }]), TypeError);
    assert.throws(() => new MagnetarRegistry('shake192f', [{ ...v[0], weight: 1.5 }]), TypeError);
    assert.throws(() => new MagnetarRegistry('shake192f', [{ ...v[0], weight: 1n << 64n }]), RangeError);
    assert.throws(() => new MagnetarRegistry('shake192f', [{ ...v[0], id: new Uint8Array(31) }]), (e) => e instanceof RangeError && /validators\[0\]\.id/.test(e.message));
    assert.throws(() => new MagnetarRegistry('shake192f', [null]), TypeError);
    assert.throws(() => new MagnetarRegistry('ML-DSA-65', v), TypeError);
    const r = new MagnetarRegistry('shake192f', v);
    r.free();
    assertQuasar(() => r.size, 'USE_AFTER_FREE', 'after free');
    r.free();
  });

  test('registry.verifyBatch: the per-signer bitmap; unknown ids and bad envelopes are 0', () => {
    const contributions = keys.map((_, i) => ({ id: id(i), signature: sigs[i] }));
    contributions[3] = { id: id(3), signature: flip(sigs[3], 2000) }; // the cheater
    contributions.push({ id: id(99), signature: sigs[0] }); // not registered
    contributions.push({ id: id(1), signature: sigs[2] }); // another validator's signature
    contributions.push({ id: id(0), signature: new Uint8Array(5) });
    const want = [true, true, true, false, true, true, true, false, false, false];
    assert.deepEqual(registry.verifyBatch(contributions, MSG, { context: CTX }), want);
    assert.deepEqual(lightRegistry.verifyBatch(contributions, MSG, { context: CTX }), want);
    assert.ok(registry.verifyBatch(contributions, MSG).every((b) => !b), 'no context: none verifies');
  });

  test('honest certificate: every signer counted, quorum met; a cheater is counted out', () => {
    const all = keys.map((_, i) => ({ id: id(i), signature: sigs[i] }));
    const cert = magnetar.aggregate('shake192f', [...all].reverse());
    assert.equal(cert.length, 9 + K * (32 + 35664));
    assert.equal(hex(cert.subarray(0, 9)), '4d414741000102' + '0007');
    const total = registry.totalWeight;
    const v = lightRegistry.verifyAggregate(cert, MSG, { context: CTX });
    assert.equal(v.ok, true, v.reason);
    assert.equal(v.mode, 'shake192f');
    assert.equal(v.signers.length, K);
    assert.deepEqual(v.bitmap, new Array(K).fill(true));
    assert.deepEqual([v.signedWeight, v.claimedWeight, v.totalWeight, v.quorumMet], [total, total, total, true]);
    assert.deepEqual(v.failed, []);

    // Validator 3 cheats: the batch bitmap counts it out, the certificate of the rest passes.
    const contributions = all.map((c, i) => (i === 3 ? { ...c, signature: flip(c.signature, 777) } : c));
    const bitmap = registry.verifyBatch(contributions, MSG, { context: CTX });
    assert.deepEqual(bitmap, [true, true, true, false, true, true, true]);
    const honest = magnetar.aggregate('shake192f', contributions.filter((_, i) => bitmap[i]));
    const w = lightRegistry.verifyAggregate(honest, MSG, { context: CTX });
    assert.equal(w.ok, true, w.reason);
    assert.equal(w.signers.length, K - 1);
    assert.equal(w.signedWeight, total - 13n);
    assert.ok(!w.signers.some((s) => hex(s) === hex(id(3))));

    // A certificate that carries the bad signature is refused, its signer named.
    const withCheater = magnetar.aggregate('shake192f', contributions);
    const x = lightRegistry.verifyAggregate(withCheater, MSG, { context: CTX });
    assert.equal(x.ok, false);
    assert.equal(x.code, 'INVALID_SIGNATURE');
    assert.deepEqual(x.failed.map(hex), [hex(id(3))]);
    const d = registry.verifyAggregate(withCheater, MSG, { context: CTX, diagnose: true });
    assert.equal(d.code, 'INVALID_SIGNATURE');
    assert.equal(d.bitmap.filter((b) => !b).length, 1);
    assert.equal(d.signedWeight, total - 13n);
    assert.equal(d.claimedWeight, total);
  });

  test('the quorum: strictly more than 2/3 by default, custom rules, refused before verifying', () => {
    // Weights 10..16, total 91: more than 2/3 needs 61 (exactly 60.67 is not enough).
    const by = (idx) => magnetar.aggregate('shake192f', idx.map((i) => ({ id: id(i), signature: sigs[i] })));
    const five = by([2, 3, 4, 5, 6]); // 12+13+14+15+16 = 70
    const four = by([3, 4, 5, 6]); // 58
    assert.equal(registry.verifyAggregate(five, MSG, { context: CTX }).ok, true);
    const v = registry.verifyAggregate(four, MSG, { context: CTX });
    assert.equal(v.code, 'QUORUM_NOT_MET');
    assert.equal(v.bitmap, undefined, 'refused before any signature was verified');
    const d = registry.verifyAggregate(four, MSG, { context: CTX, diagnose: true });
    assert.deepEqual([d.code, d.signedWeight, d.quorumMet], ['QUORUM_NOT_MET', 58n, false]);
    assert.equal(registry.verifyAggregate(four, MSG, { context: CTX, quorum: { numerator: 1, denominator: 2 } }).ok, true, '58 > 91/2');
    assert.equal(registry.verifyAggregate(five, MSG, { context: CTX, quorum: { numerator: 7n, denominator: 9n } }).ok, false, '70 ≤ 70.8');
    assertQuasar(() => registry.verifyAggregate(five, MSG, { quorum: { numerator: 3, denominator: 3 } }), 'INVALID_QUORUM', 'a rule never met');
    assert.throws(() => registry.verifyAggregate(five, MSG, { quorum: { numerator: 2 } }), TypeError);
    assertQuasar(() => registry.verifyAggregate(five, MSG, { context: new Uint8Array(256) }), 'CONTEXT_TOO_LONG', 'context');
    assert.throws(() => registry.verifyAggregate(five, MSG, { diagnose: 1 }), TypeError);
  });

  test('unknown, duplicate and other-mode certificates: verdicts with the code', () => {
    const stranger = magnetar.keygen('shake192f', { seed: bytes('quasar-pq/magnetar-test/stranger', 72) });
    const s = magnetar.sign('shake192f', MSG, stranger.secretKey, { context: CTX });
    const cert = magnetar.aggregate('shake192f', [0, 1, 2, 3, 4].map((i) => ({ id: id(i), signature: sigs[i] })).concat([{ id: id(50), signature: s }]));
    assert.equal(registry.verifyAggregate(cert, MSG, { context: CTX }).code, 'UNKNOWN_SIGNER');
    // A duplicated signer, written by hand (aggregate refuses it).
    const one = magnetar.aggregate('shake192f', [{ id: id(0), signature: sigs[0] }]);
    const dup = new Uint8Array(9 + 2 * (32 + 35664));
    dup.set(one.subarray(0, 9));
    dup[8] = 2;
    dup.set(id(0), 9);
    dup.set(id(0), 41);
    dup.set(sigs[0].subarray(11), 73);
    dup.set(sigs[0].subarray(11), 73 + 35664);
    assert.equal(registry.verifyAggregate(dup, MSG, { context: CTX }).code, 'DUPLICATE_SIGNER');
    assertQuasar(() => magnetar.aggregate('shake192f', [{ id: id(0), signature: sigs[0] }, { id: id(0), signature: sigs[1] }]), 'DUPLICATE_SIGNER', 'aggregate');
    assertQuasar(() => magnetar.aggregate('shake192f', []), 'NO_SIGNERS', 'aggregate of none');
    assertQuasar(() => magnetar.aggregate('shake192s', [{ id: id(0), signature: sigs[0] }]), 'WRONG_MODE', 'aggregate across modes');
    const other = new MagnetarRegistry('shake192s', [{ id: id(0), publicKey: magnetar.keygen('shake192s', { seed: new Uint8Array(72) }).publicKey, weight: 1 }]);
    assert.equal(other.verifyAggregate(one, MSG, { context: CTX }).code, 'WRONG_MODE');
    other.free();
  });

  test('every truncation, an extension and header bit flips of a certificate: a verdict, never a throw', () => {
    const cert = magnetar.aggregate('shake192f', [2, 3, 4, 5, 6].map((i) => ({ id: id(i), signature: sigs[i] })));
    const codes = new Set();
    const seen = (v, why) => {
      assert.equal(v.ok, false, why);
      assert.equal(typeof v.code, 'string', why);
      codes.add(v.code);
    };
    for (const len of [0, 1, 4, 6, 7, 8, 9, 40, 41, 9 + 5 * 32, cert.length - 35664, cert.length - 1]) {
      seen(lightRegistry.verifyAggregate(cert.subarray(0, len), MSG, { context: CTX }), `truncated to ${len}`);
    }
    seen(lightRegistry.verifyAggregate(Uint8Array.from([...cert, 0]), MSG, { context: CTX }), 'extended');
    for (let bit = 0; bit < 9 * 8; bit++) {
      const c = Uint8Array.from(cert);
      c[bit >> 3] ^= 1 << (bit & 7);
      const v = lightRegistry.verifyAggregate(c, MSG, { context: CTX });
      seen(v, `header bit ${bit}`);
    }
    // An id bit flip names someone else (unknown, or out of order); a payload flip is a bad signature.
    seen(lightRegistry.verifyAggregate(flip(cert, 9), MSG, { context: CTX }), 'first id');
    const p = lightRegistry.verifyAggregate(flip(cert, cert.length - 100), MSG, { context: CTX });
    assert.equal(p.code, 'INVALID_SIGNATURE');
    assert.equal(p.failed.length, 1);
    seen(lightRegistry.verifyAggregate(new Uint8Array(40 * 1024 * 1024), MSG), 'longer than any certificate');
    const none = Uint8Array.from(cert.subarray(0, 9));
    none[7] = 0;
    none[8] = 0;
    seen(lightRegistry.verifyAggregate(none, MSG), 'a count of zero');
    for (const c of ['TOO_SHORT', 'BAD_MAGIC', 'BAD_VERSION', 'UNKNOWN_MODE', 'TRAILING_BYTES', 'COUNT_TOO_LARGE', 'NO_SIGNERS']) {
      assert.ok(codes.has(c), `${c} among ${[...codes]}`);
    }
    assert.equal(lightRegistry.verifyAggregate(cert, MSG, { context: CTX }).ok, true, 'the original still verifies');
  });
});
