// The Pulsar committee (threshold ML-DSA with no reconstruction) through the WASM parties
// (the demo build, for its misbehaviour hooks): a dealer's split and the distributed key
// generation, every 2-of-3 signing set, signatures checked under @noble/post-quantum, a
// sealed share restored, a cheating member named, and the options refused with typed errors.
// The byte-for-byte replay of the native vectors is in kats.test.mjs.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ml_dsa44, ml_dsa65 } from '@noble/post-quantum/ml-dsa.js';

import { init, pulsar, trustModels, PulsarCommitteeShare } from '../support/demo.mjs';
import { label32, run } from '../support/run.mjs';

await init();

const utf8 = (s) => new TextEncoder().encode(s);

function sign(shares, signers, message, { label, level = 44, cheats = {} } = {}) {
  const session = label32(`${label}/sign`);
  const parties = signers.map((id) =>
    pulsar.committee.signer({ share: shares.get(id), session, signers, message, seed: label32(`${label}/${id}`), ...(cheats[id] ? { cheat: cheats[id] } : {}) }),
  );
  try {
    return run(parties);
  } finally {
    parties.forEach((p) => p.free());
  }
}

test('a dealt 2-of-3 key signs with every signing set; noble verifies; shares seal and restore', () => {
  const dealt = pulsar.committee.deal({ level: 44, threshold: 2, members: [1, 2, 3], seed: label32('committee/deal') });
  assert.deepEqual([dealt.level, dealt.threshold, [...dealt.members], dealt.slots], [44, 2, [1, 2, 3], 3]);
  const shares = new Map(dealt.shares.map((s) => [s.id, PulsarCommitteeShare.fromDealer(s.dealerShare, dealt.key)]));
  try {
    for (const signers of [[1, 2], [1, 3], [2, 3]]) {
      const message = utf8(`block signed by ${signers}`);
      const r = sign(shares, signers, message, { label: `committee/${signers}` });
      assert.equal(r.errors.size, 0, [...r.errors.values()].map((e) => e.message).join('; '));
      const sigs = new Set([...r.outcomes.values()].map((o) => Buffer.from(o.signature).toString('hex')));
      assert.equal(sigs.size, 1, 'every signer combines the same signature');
      const o = r.outcomes.get(signers[0]);
      assert.ok(o.runs >= 1 && o.bytesSent > 0);
      assert.ok(ml_dsa44.verify(o.signature, message, dealt.publicKey), 'noble verifies');
      assert.ok(pulsar.verify(dealt.publicKey, message, o.signature));
      assert.ok(!pulsar.verify(dealt.publicKey, utf8('another'), o.signature));
    }
    const key = label32('committee/snapshot-key');
    const sealed = shares.get(2).seal(key);
    const back = PulsarCommitteeShare.restore(sealed, key);
    try {
      assert.deepEqual(back.publicInfo(), shares.get(2).publicInfo());
      assert.equal(back.publicInfo().subsets, 2);
    } finally {
      back.free();
    }
    const wrong = key.slice();
    wrong[0] ^= 1;
    assert.throws(() => PulsarCommitteeShare.restore(sealed, wrong));
    // A share of another key is refused.
    const other = pulsar.committee.deal({ level: 44, threshold: 2, members: [1, 2, 3], seed: label32('committee/other') });
    assert.throws(() => PulsarCommitteeShare.fromDealer(other.shares[0].dealerShare, dealt.key), (e) => e.code === 'GROUP_MISMATCH');
    assert.throws(() => PulsarCommitteeShare.fromDealer(dealt.shares[0].dealerShare.subarray(1), dealt.key));
  } finally {
    shares.forEach((s) => s.free());
  }
});

test('the distributed key generation: every member ends with the same key, which signs', () => {
  const members = [3, 5, 8];
  const session = label32('committee/dkg');
  const parties = members.map((id) => pulsar.committee.keygen({ session, level: 65, threshold: 2, members, id, seed: label32(`committee/dkg/${id}`) }));
  let r;
  try {
    r = run(parties);
  } finally {
    parties.forEach((p) => p.free());
  }
  assert.equal(r.errors.size, 0);
  const outs = [...r.outcomes.values()];
  assert.equal(new Set(outs.map((o) => Buffer.from(o.key).toString('hex'))).size, 1);
  const shares = new Map(outs.map((o) => [o.keyShare.id, o.keyShare]));
  try {
    const message = utf8('dkg block');
    const s = sign(shares, [5, 8], message, { label: 'committee/dkg-sign' });
    assert.equal(s.errors.size, 0);
    assert.ok(ml_dsa65.verify(s.outcomes.get(5).signature, message, outs[0].publicKey));
  } finally {
    shares.forEach((sh) => sh.free());
  }
});

test('a member whose reveal breaks its commitment is named (BROKEN_REVEAL), and nothing is signed', () => {
  const dealt = pulsar.committee.deal({ level: 44, threshold: 3, members: [1, 2, 3, 4], seed: label32('committee/cheat') });
  const shares = new Map(dealt.shares.map((s) => [s.id, PulsarCommitteeShare.fromDealer(s.dealerShare, dealt.key)]));
  try {
    const r = sign(shares, [1, 2, 4], utf8('m'), { label: 'committee/cheat', cheats: { 2: 'bad-contribution' } });
    assert.equal(r.outcomes.size, 0, 'no signature');
    for (const id of [1, 4]) {
      const e = r.errors.get(id);
      assert.equal(e.code, 'SIGNING_ABORTED', `${id}: ${e.message}`);
      assert.deepEqual([...e.culprits], [2]);
    }
  } finally {
    shares.forEach((s) => s.free());
  }
});

test('a member sending garbage stalls the session (no robustness) and is named by the members it stalled; a broken reveal carries its blame', () => {
  const dealt = pulsar.committee.deal({ level: 44, threshold: 3, members: [1, 2, 3, 4], seed: label32('committee/garbage') });
  const shares = new Map(dealt.shares.map((s) => [s.id, PulsarCommitteeShare.fromDealer(s.dealerShare, dealt.key)]));
  try {
    const r = sign(shares, [1, 3, 4], utf8('m'), { label: 'committee/garbage', cheats: { 3: 'garbage' } });
    assert.equal(r.outcomes.size, 0, 'no signature');
    assert.deepEqual(r.waiting, [1, 3, 4], 'the honest members wait for a valid commitment, the cheater for reveals');
    const named = r.blame.filter((b) => b.party === 3);
    assert.deepEqual([...new Set(named.map((b) => b.by))].sort(), [1, 4], JSON.stringify(r.blame));
    assert.ok(named.every((b) => b.code === 'MALFORMED_MESSAGE'), JSON.stringify(named));
    assert.ok(r.blame.every((b) => b.party === 3), 'nobody honest is named');

    const broken = sign(shares, [1, 2, 4], utf8('m'), { label: 'committee/broken', cheats: { 2: 'bad-contribution' } });
    for (const id of [1, 4]) {
      const e = broken.errors.get(id);
      assert.deepEqual(e.blame.map((b) => [b.party, b.code]), [[2, 'BROKEN_REVEAL']], `${id}: ${e.message}`);
    }
  } finally {
    shares.forEach((s) => s.free());
  }
});

test('bad options are refused with typed errors', () => {
  const base = { level: 44, threshold: 2, members: [1, 2, 3], seed: label32('committee/bad') };
  assert.throws(() => pulsar.committee.deal({ ...base, level: 45 }), RangeError);
  assert.throws(() => pulsar.committee.deal({ ...base, members: [1, 2, 3, 4, 5, 6, 7] }), (e) => e.code === 'INVALID_COMMITTEE');
  assert.throws(() => pulsar.committee.deal({ ...base, members: [2, 1, 3] }), (e) => e.code === 'INVALID_COMMITTEE');
  assert.throws(() => pulsar.committee.deal({ ...base, threshold: 1 }), (e) => e.code === 'INVALID_COMMITTEE');
  const dealt = pulsar.committee.deal(base);
  const share = PulsarCommitteeShare.fromDealer(dealt.shares[0].dealerShare, dealt.key);
  try {
    const s = { share, session: label32('s'), message: utf8('m'), seed: label32('x') };
    assert.throws(() => pulsar.committee.signer({ ...s, signers: [1, 2, 3] }), (e) => e.code === 'WRONG_SIGNER_COUNT');
    assert.throws(() => pulsar.committee.signer({ ...s, signers: [2, 3] }), (e) => e.code === 'NOT_A_SIGNER');
    assert.throws(() => pulsar.committee.signer({ ...s, signers: [1, 9] }), (e) => e.code === 'UNKNOWN_PARTY');
    assert.throws(() => pulsar.committee.signer({ ...s, signers: [1, 2], maxRuns: 0 }), RangeError);
    assert.throws(() => pulsar.committee.signer({ ...s, signers: [1, 2], context: new Uint8Array(256) }), (e) => e.code === 'CONTEXT_TOO_LONG');
  } finally {
    share.free();
  }
  assert.match(trustModels.pulsarCommittee, /trusted dealer/);
});
