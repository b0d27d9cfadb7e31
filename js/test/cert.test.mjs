// Finality certificates from JavaScript: every case of kats/cert.json (verdict, code, and each
// leg's verdict, code, signers and weight) and the light-client chains across the epoch change
// (with the forged next set; the Corona chain into key era 1) replayed through the light build
// (`quasar-pq/verify`) and the full build; a small `testChain` under pq-strict followed with its
// Corona leg, broken in that leg, and under pq-fast, which does not require it; bad input (truncated, extended, bit-flipped certificates and sets) gives verdicts
// or typed errors, never a trap; the full build's BLS cross-checked against @noble/curves in
// both directions (single signatures, proofs of possession, aggregates).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';

import { bls12_381 } from '@noble/curves/bls12-381.js';

import * as full from '../index.js';
import * as light from '../verify.js';
import { glue as fullGlue, loader as fullLoader } from '../full.js';

const KATS = JSON.parse(readFileSync(new URL('../../kats/cert.json', import.meta.url), 'utf8'));
const hex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const byName = (list, name) => list.find((c) => c.name === name) ?? assert.fail(`no entry ${name}`);

/** A certificate's bytes: given, or its base with the splices applied in order. */
function certOf(name) {
  const c = byName(KATS.certificates, name);
  if (c.bytes !== undefined) return hex(c.bytes);
  const b = [...certOf(c.base)];
  for (const s of c.splices) b.splice(s.at, s.cut, ...hex(s.insert));
  return Uint8Array.from(b);
}
const setOf = (name) => hex(byName(KATS.sets, name).bytes);
const CODES = /^[A-Z][A-Z0-9_]*$/;

/** The legs of a QCRT certificate: each one's kind byte and where its payload lies. */
function legSpans(cert) {
  const view = new DataView(cert.buffer, cert.byteOffset, cert.byteLength);
  // Magic and version (6 bytes), then the header: 103 bytes, or 135 when its byte 94 says a
  // next set's root follows; then the leg count and the legs (kind, u32 length, payload).
  let at = 6 + (cert[6 + 94] === 1 ? 135 : 103);
  const count = cert[at++];
  const legs = [];
  for (let i = 0; i < count; i++) {
    const len = view.getUint32(at + 1);
    legs.push({ kind: cert[at], start: at + 5, end: at + 5 + len });
    at += 5 + len;
  }
  assert.equal(at, cert.length, 'the legs end the certificate');
  return legs;
}
const CORONA_KIND = 3;
/** The Corona leg's payload: a CORS frame (crate::corona::SIGNATURE_LEN). */
const CORS_LEN = 15_666;

/** A small chain with the Corona leg (BLS, Pulsar, Corona: exactly pq-strict's legs), made once. */
let strictChain;
const strict = () =>
  (strictChain ??= full.testChain({ seed: new Uint8Array(32).fill(3), validators: 4, policy: 'pq-strict', epochs: 2, blocks: 1 }));

before(async () => {
  await full.init();
  await light.init();
});

for (const [build, lib] of [['light', light], ['full', full]]) {
  test(`${build}: every golden certificate gets its recorded verdict, leg by leg`, () => {
    assert.ok(KATS.cases.length >= 20);
    for (const c of KATS.cases) {
      const what = `${c.certificate} under ${c.policy}`;
      const r = lib.verifyCertificate(certOf(c.certificate), setOf(c.set), c.policy, { full: true });
      assert.equal(r.ok, c.valid, `${what}: ${r.code} ${r.reason}`);
      assert.equal(r.code ?? '', c.code, what);
      assert.equal(r.policy, c.policy);
      assert.equal(r.legs.length, c.legs.length, what);
      r.legs.forEach((got, i) => {
        const want = c.legs[i];
        assert.equal(got.kind, want.kind, what);
        assert.equal(got.verdict, want.verdict, `${what} ${got.kind}`);
        assert.equal(got.ok, want.verdict === 'valid');
        assert.equal(got.code ?? '', want.code, `${what} ${got.kind}`);
        assert.equal(got.signers, want.signers ?? undefined, `${what} ${got.kind} signers`);
        assert.equal(got.weight, want.weight === undefined || want.weight === null ? undefined : BigInt(want.weight), `${what} ${got.kind} weight`);
        if (got.verdict === 'valid') assert.ok(got.micros >= 0, `${what} ${got.kind}: timed`);
      });
      if (r.ok) assert.deepEqual(r.header.message, hex(c.message), what);
    }
  });

  test(`${build}: the light client follows the golden chains across the epoch change (a custody group's, a committee's, a Corona group's)`, () => {
    assert.deepEqual(KATS.light.map((s) => s.key_era), [0, 1, 1]);
    for (const seq of KATS.light) {
      const client = new lib.LightClient(setOf(seq.set), seq.policy);
      for (const s of seq.steps) {
        const u = client.update(certOf(s.certificate), s.next_set ? setOf(s.next_set) : undefined);
        assert.equal(u.ok, s.accepted, `${s.certificate}: ${u.code} ${u.reason}`);
        assert.equal(u.code ?? '', s.code, s.certificate);
        assert.equal(client.epoch, BigInt(s.epoch));
        assert.equal(u.epoch, BigInt(s.epoch));
        if (u.ok && s.next_set) {
          assert.equal(u.newEpoch, BigInt(s.epoch));
          assert.deepEqual(client.setRoot, hex(byName(KATS.sets, s.next_set).root));
        }
      }
      // The custody chain's reshared group keeps its key era; the committee chain's new
      // committee starts the next one, and so does the strict chain's newly dealt Corona group.
      assert.equal(client.keyEra, BigInt(seq.key_era), `${seq.name}: key era`);
      assert.equal(client.policy, seq.policy);
      client.free();
      assert.throws(() => client.epoch, { name: 'QuasarError', code: 'USE_AFTER_FREE' });
    }
  });

  test(`${build}: caller mistakes throw typed errors; the policy comes only from the caller`, () => {
    const set = setOf('epoch-0');
    const cert = certOf('fast');
    assert.throws(() => lib.verifyCertificate(cert, set, 'pq-strictest'), { name: 'QuasarError', code: 'UNKNOWN_POLICY' });
    assert.throws(() => lib.verifyCertificate(cert, set, 1), TypeError);
    assert.throws(() => lib.verifyCertificate([...cert], set, 'pq-fast'), TypeError);
    assert.throws(() => lib.verifyCertificate(cert, set, 'pq-fast', { ful: true }), TypeError);
    assert.throws(() => new lib.LightClient(set.subarray(0, 100), 'pq-fast'), { name: 'QuasarError' });
    assert.throws(() => new lib.LightClient(set, 'nope'), { name: 'QuasarError', code: 'UNKNOWN_POLICY' });
    assert.deepEqual(lib.CERT_POLICIES, ['pq-off', 'pq-fast', 'pq-strict', 'pq-heavy', 'strict-pq-fast', 'strict-pq-strict', 'strict-pq-heavy']);
    // The names are Rust's, in Rust's order; which legs each requires is read from Rust only.
    const table = fullGlue.certPolicyTable().split('\n').map((l) => l.split(':'));
    assert.deepEqual(table.map(([name]) => name), [...lib.CERT_POLICIES]);
    const legs = (policy) => table.find(([name]) => name === policy)[1].split(',');
    assert.deepEqual(legs('pq-heavy'), ['bls', 'pulsar', 'magnetar']);
    assert.deepEqual(legs('pq-strict'), ['bls', 'pulsar', 'corona']);
    assert.deepEqual(legs('strict-pq-strict'), ['pulsar', 'corona', 'mldsa-set']);
    const long = lib.verifyCertificate(new Uint8Array(64 << 20), set, 'strict-pq-heavy');
    assert.deepEqual(long.legs.map((l) => [l.kind, l.verdict]), [['pulsar', 'not-checked'], ['magnetar', 'not-checked']]);
  });

  test(`${build}: input longer than the trusted set admits is TOO_LONG, uncopied; a policy name is checked before WASM`, () => {
    const set = setOf('epoch-0');
    // Four validators admit at most ~180 kB (the Magnetar leg at 192f is most of it).
    const long = new Uint8Array(2 << 20);
    const before = lib === full ? fullLoader.memoryBytes() : undefined;
    const r = lib.verifyCertificate(long, set, 'pq-fast');
    assert.equal(r.ok, false);
    assert.equal(r.code, 'TOO_LONG');
    const client = new lib.LightClient(set, 'pq-fast');
    assert.equal(client.verify(long).code, 'TOO_LONG');
    const u = client.update(long);
    assert.deepEqual([u.ok, u.code, client.epoch], [false, 'TOO_LONG', 0n]);
    const next = client.update(certOf('end-of-epoch-0'), new Uint8Array(3 << 20));
    assert.deepEqual([next.ok, next.code, client.epoch], [false, 'TOO_LONG', 0n]);
    client.free();
    assert.throws(() => lib.verifyCertificate(certOf('fast'), new Uint8Array(3 << 20), 'pq-fast'), RangeError);
    assert.throws(() => new lib.LightClient(set, 'x'.repeat(10 << 20)), { name: 'QuasarError', code: 'UNKNOWN_POLICY' });
    if (before !== undefined) assert.equal(fullLoader.memoryBytes(), before, 'no WebAssembly memory growth');
  });

  test(`${build}: the length bound is Rust's: one byte over is TOO_LONG uncopied, the bound itself is read`, () => {
    const set = setOf('epoch-0');
    const client = new lib.LightClient(set, 'pq-fast');
    const max = client.maxCertificateLength;
    // Four validators: the header, five leg headers, BLS, PULS (ML-DSA-87), the Corona leg (a
    // CORS frame), Magnetar (192f) and the ML-DSA-87 set leg at 4 signers each.
    assert.equal(max, 142 + 25 + (2 + 1 + 96) + (11 + 4627) + CORS_LEN + (9 + 4 * (32 + 35664)) + (2 + 1 + 1 + 4 * 4627));
    const before = lib === full ? fullLoader.memoryBytes() : undefined;
    const over = new Uint8Array(max + 1);
    assert.equal(lib.verifyCertificate(over, set, 'pq-fast').code, 'TOO_LONG');
    assert.equal(client.verify(over).code, 'TOO_LONG');
    assert.equal(client.update(over).code, 'TOO_LONG');
    if (before !== undefined) assert.equal(fullLoader.memoryBytes(), before, 'no WebAssembly memory growth');
    // At the bound the bytes reach the verifier, which refuses them for what they are.
    const at = new Uint8Array(max);
    const r = lib.verifyCertificate(at, set, 'pq-fast');
    assert.equal(r.ok, false);
    assert.notEqual(r.code, 'TOO_LONG');
    assert.equal(client.verify(at).code, r.code);
    client.free();
  });

  test(`${build}: a testChain under pq-strict is followed with its Corona leg valid; a flipped byte in that leg is refused naming it; pq-fast does not require it`, () => {
    const chain = strict();
    const kinds = (r, pick) => r.legs.filter(pick).map((l) => l.kind);
    const client = new lib.LightClient(chain.sets[0], 'pq-strict');
    for (const b of chain.blocks) {
      const r = client.verify(b.certificate);
      assert.ok(r.ok, `${r.code} ${r.reason}`);
      assert.deepEqual(kinds(r, (l) => l.present), ['bls', 'pulsar', 'corona']);
      assert.deepEqual(kinds(r, (l) => l.verdict === 'valid'), ['bls', 'pulsar', 'corona']);
      const corona = r.legs.find((l) => l.kind === 'corona');
      assert.deepEqual([corona.required, corona.ok, corona.code], [true, true, undefined]);
      const corsAt = legSpans(b.certificate).find((l) => l.kind === CORONA_KIND);
      assert.equal(corsAt.end - corsAt.start, CORS_LEN);
      assert.equal(client.update(b.certificate, b.nextSet).ok, true);
    }
    // The first validator left at the epoch change, so epoch 1 has a newly dealt Corona group.
    assert.deepEqual([client.epoch, client.height, client.keyEra], [1n, 2n, 1n]);
    client.free();

    // One byte flipped in the middle of the first certificate's CORS frame (inside z).
    const first = chain.blocks[0];
    const cors = legSpans(first.certificate).find((l) => l.kind === CORONA_KIND);
    const bad = first.certificate.slice();
    bad[(cors.start + cors.end) >> 1] ^= 0x10;
    const r = lib.verifyCertificate(bad, chain.sets[0], 'pq-strict', { full: true });
    assert.deepEqual([r.ok, r.code], [false, 'INVALID_SIGNATURE']);
    assert.deepEqual(kinds(r, (l) => l.verdict === 'invalid'), ['corona']);
    assert.equal(r.legs.find((l) => l.kind === 'corona').code, 'INVALID_SIGNATURE');
    assert.deepEqual(kinds(r, (l) => l.verdict === 'valid'), ['bls', 'pulsar']);
    const refusing = new lib.LightClient(chain.sets[0], 'pq-strict');
    const u = refusing.update(bad, first.nextSet);
    assert.deepEqual([u.ok, u.code, refusing.epoch, refusing.height], [false, 'INVALID_SIGNATURE', 0n, undefined]);
    refusing.free();

    // pq-fast requires BLS and Pulsar only: the Corona leg is never examined, so the same chain,
    // and the broken certificate, are final under it; strict-pq-strict misses its ML-DSA set.
    const fast = new lib.LightClient(chain.sets[0], 'pq-fast');
    const fr = fast.verify(bad);
    assert.ok(fr.ok, `${fr.code} ${fr.reason}`);
    assert.equal(fr.legs.find((l) => l.kind === 'corona').verdict, 'not-required');
    for (const b of chain.blocks) assert.equal(fast.update(b.certificate, b.nextSet).ok, true);
    assert.deepEqual([fast.epoch, fast.height], [1n, 2n]);
    fast.free();
    assert.equal(lib.verifyCertificate(first.certificate, chain.sets[0], 'strict-pq-strict').code, 'MISSING_LEG');
  });

  test(`${build}: a verified certificate's id covers only the legs its policy checked`, () => {
    const set = setOf('epoch-0');
    const cert = certOf('fast');
    const r = lib.verifyCertificate(cert, set, 'pq-fast');
    assert.ok(r.ok, r.reason);
    assert.ok(r.id instanceof Uint8Array && r.id.length === 32);
    assert.equal(lib.verifyCertificate(cert.subarray(0, cert.length - 1), set, 'pq-fast').id, undefined);
    const client = new lib.LightClient(set, 'pq-fast');
    assert.deepEqual(client.verify(cert).id, r.id);
    client.free();
  });

  test(`${build}: truncated, extended and bit-flipped certificates and next sets are verdicts, never traps`, () => {
    const set = setOf('epoch-0');
    const base = certOf('end-of-epoch-0');
    const next = setOf('epoch-1');
    const variants = [];
    for (const n of [0, 1, 4, 50, 103, base.length - 1]) variants.push(base.subarray(0, n));
    variants.push(Uint8Array.from([...base, 0]), Uint8Array.from([...base, ...base]));
    for (let i = 0; i < base.length; i += 37) {
      const b = base.slice();
      b[i] ^= 1 << (i % 8);
      variants.push(b);
    }
    for (const v of variants) {
      const r = lib.verifyCertificate(v, set, 'pq-fast');
      assert.equal(typeof r.ok, 'boolean');
      if (!r.ok) assert.match(r.code, CODES);
      const client = new lib.LightClient(set, 'pq-fast');
      const u = client.update(v, next);
      if (!u.ok) assert.match(u.code, CODES);
      assert.equal(client.epoch, u.ok ? 1n : 0n);
      client.free();
    }
    // A bad next set: refused, the client unchanged.
    for (const n of [next.subarray(0, 10), Uint8Array.from([...next, 1]), next.map((x, i) => (i === 200 ? x ^ 4 : x))]) {
      const client = new lib.LightClient(set, 'pq-fast');
      const u = client.update(base, n);
      assert.equal(u.ok, false);
      assert.match(u.code, CODES);
      assert.equal(client.epoch, 0n);
      assert.equal(client.height, undefined);
      client.free();
    }
    // A malformed trusted set is the caller's mistake: a typed error.
    for (const s of [set.subarray(0, set.length - 1), Uint8Array.from([...set, 0]), set.map((x, i) => (i === 5 ? x ^ 0x80 : x))]) {
      assert.throws(() => lib.verifyCertificate(base, s, 'pq-fast'), (e) => e.name === 'QuasarError' && CODES.test(e.code));
    }
  });
}

test('the light build signs nothing', () => {
  assert.equal(light.bls, undefined);
  assert.equal(typeof full.bls.sign, 'function');
});

// ------------------------------------------------------------------ BLS against @noble/curves

const DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const POP_DST = 'BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const noble = bls12_381.longSignatures;
const nobleSig = (point) => noble.Signature.toBytes(point);
const nobleHash = (msg, dst = DST) => noble.hash(msg, dst);

test('BLS: our signatures, proofs and aggregates verify under noble, and noble\'s under ours', () => {
  const msg = new TextEncoder().encode('quasar finality 42');
  const ours = [1, 2, 3].map((i) => full.bls.keygen(new Uint8Array(32).fill(i)));
  const theirs = [4, 5, 6].map(() => noble.keygen());
  for (const k of ours) {
    // The same secret key gives the same public key and the same (deterministic) signature.
    assert.deepEqual(noble.getPublicKey(k.secretKey).toBytes(), k.publicKey);
    const sig = full.bls.sign(msg, k.secretKey);
    assert.deepEqual(nobleSig(noble.sign(nobleHash(msg), k.secretKey)), sig);
    assert.ok(noble.verify(sig, nobleHash(msg), k.publicKey));
    assert.ok(!noble.verify(sig, nobleHash(msg, 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_'), k.publicKey));
    // A proof of possession signs the compressed key under the PoP tag.
    const pop = full.bls.popProve(k.secretKey);
    assert.ok(noble.verify(pop, nobleHash(k.publicKey, POP_DST), k.publicKey));
  }
  for (const k of theirs) {
    const pk = noble.getPublicKey(k.secretKey).toBytes();
    const sig = nobleSig(noble.sign(nobleHash(msg), k.secretKey));
    assert.ok(full.bls.verify(sig, msg, pk));
    assert.ok(!full.bls.verify(sig, msg.subarray(1), pk));
    assert.ok(full.bls.popVerify(nobleSig(noble.sign(nobleHash(pk, POP_DST), k.secretKey)), pk));
    assert.ok(!full.bls.popVerify(sig, pk));
    assert.deepEqual(full.bls.getPublicKey(k.secretKey), pk);
  }
  // Aggregates, both ways: three of ours and three of noble's signers on one message.
  const keys = [...ours.map((k) => k.publicKey), ...theirs.map((k) => noble.getPublicKey(k.secretKey).toBytes())];
  const sigs = [...ours.map((k) => full.bls.sign(msg, k.secretKey)), ...theirs.map((k) => nobleSig(noble.sign(nobleHash(msg), k.secretKey)))];
  const aggOurs = full.bls.aggregate(sigs);
  const aggNoble = nobleSig(noble.aggregateSignatures(sigs.map((s) => noble.Signature.fromBytes(s))));
  assert.deepEqual(aggOurs, aggNoble);
  assert.ok(full.bls.fastAggregateVerify(aggNoble, msg, keys));
  assert.ok(noble.verify(aggOurs, nobleHash(msg), noble.aggregatePublicKeys(keys.map((k) => bls12_381.G1.Point.fromBytes(k)))));
  assert.ok(!full.bls.fastAggregateVerify(aggOurs, msg, keys.slice(1)));
  assert.throws(() => full.bls.aggregate([]), { name: 'QuasarError', code: 'EMPTY_INPUT' });
  assert.throws(() => full.bls.aggregate([new Uint8Array(96)]), { name: 'QuasarError' });
  assert.equal(full.bls.verify(new Uint8Array(95), msg, keys[0]), false);
  assert.throws(() => full.bls.keygen(new Uint8Array(31)), { name: 'QuasarError', code: 'IKM_TOO_SHORT' });
});
