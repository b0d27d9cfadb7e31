// The WebAssembly build reproduces the committed known-answer vectors byte for byte
// (native == WASM). The vectors come from `cargo run --features sim --bin genkat`
// (crate/src/bin/genkat.rs and genkat/{mldsa,pulsar,lens}.rs).
//
// - kats/mldsa.json: keygen, deterministic and hedged signatures, verdicts.
// - kats/committee.json: the Pulsar committee's key generation and signing per level, replayed
//   through the WASM parties byte for byte — the signature passes through the ellipsoid
//   sampler's floating point, so this is the native == WASM check of the floats — and the
//   signatures verify under @noble/post-quantum.
// - kats/pulsar.json, kats/lens.json: every recorded signature verifies through the WASM
//   build and through verifiers that share no code with the library (@noble/post-quantum,
//   node:crypto Ed25519, @noble/curves BIP-340 and FROST(ristretto255)); every `LSA2`
//   certificate's header names the recorded scheme, generation, transcript, key and members.
// - The whole protocol run of every case, replayed through the WASM `Party` objects (Pulsar:
//   the custody lifecycle parties, `pulsar.lifecycle.*`, as the generator runs the library's;
//   Lens: the single-protocol factories): each party draws from one `Rng` seeded with its
//   recorded seed across all its paths (as the generator's one `ChaCha20Rng` per party), the
//   combiner from `combiner_seed`, the dealer from `dealer_seed`. The parties run in the
//   package's `run()` (js/support/run.mjs: the semantics and message order of the Rust
//   simulator), and every message is hashed per phase and overall as the generator does:
//   sha256(for each message: u32_be(len) ‖ message), the Pulsar setup's one run filed into
//   its phases by message kind. Every phase hash and count, and every recorded output
//   (transcript hashes, group keys, key record and certificate, signatures, activation
//   certificates, verdicts and keyrings), must match exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify as nodeVerify } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { ml_dsa44, ml_dsa65, ml_dsa87 } from '@noble/post-quantum/ml-dsa.js';
import { ristretto255_FROST } from '@noble/curves/ed25519.js';
import { schnorr } from '@noble/curves/secp256k1.js';

import { init, mlDsa44, mlDsa65, mlDsa87, pulsar, lens, LensKeyShare, PulsarKeyring, Rng } from '../index.js';
import * as light from '../verify.js';
import { run } from '../support/run.mjs';

const SETS = { 'ML-DSA-44': mlDsa44, 'ML-DSA-65': mlDsa65, 'ML-DSA-87': mlDsa87 };
const LIGHT = { 'ML-DSA-44': light.mlDsa44, 'ML-DSA-65': light.mlDsa65, 'ML-DSA-87': light.mlDsa87 };
const NOBLE = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 };
const kats = new URL('../../kats/', import.meta.url);
const hex = (s) => Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16));
const toHex = (u) => Buffer.from(u).toString('hex');
const ascii = (s) => new TextEncoder().encode(s);
const load = (name) => JSON.parse(readFileSync(new URL(name, kats), 'utf8'));
const union = (a, b) => [...new Set([...a, ...b])].sort((x, y) => x - y);

await init();
await light.init();

test('kats/mldsa.json: keygen, deterministic and hedged signatures, verdicts', () => {
  const file = load('mldsa.json');
  let ran = 0;
  for (const c of file.cases) {
    const set = SETS[c.set];
    assert.ok(set, `unknown set ${c.set}`);
    const where = `${c.set} #${c.index}`;
    const { publicKey, secretKey } = set.keygen(hex(c.seed));
    assert.equal(toHex(publicKey), c.public_key, `${where} public key`);
    assert.equal(toHex(secretKey), c.secret_key, `${where} secret key`);
    const context = hex(c.context);
    const msg = hex(c.message);
    const det = set.sign(msg, secretKey, { context, extraEntropy: false });
    assert.equal(toHex(det), c.signature_deterministic, `${where} deterministic signature`);
    const hedged = set.sign(msg, secretKey, { context, extraEntropy: hex(c.rnd) });
    assert.equal(toHex(hedged), c.signature_hedged, `${where} hedged signature`);
    assert.equal(set.verify(hedged, msg, publicKey, { context }), c.valid, `${where} verdict`);
    assert.equal(LIGHT[c.set].verify(det, msg, publicKey, { context }), c.valid, `${where} light verdict`);
    ran++;
  }
  assert.ok(ran >= 12, `only ${ran} cases ran`);
});

// ---------------------------------------------------------------------------------------
// Wire helpers (independent of the library's decoders)

const u32be = (n) => Uint8Array.of(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
const concat = (...parts) => Uint8Array.from(parts.flatMap((p) => [...p]));

/** A `PULS` / `PULG` frame: magic ‖ u16 version 1 ‖ u8 level ‖ u32 length ‖ body. */
const frame = (magic, level, body) => concat(ascii(magic), [0, 1, level], u32be(body.length), body);

/**
 * The fields of an `LSA2` activation certificate: `LSA2` ‖ u16 1 ‖ u8 scheme ‖ u8 curve ‖
 * u8 mode ‖ u64 generation ‖ transcript hash ‖ u32 length ‖ key ‖ u16 count ‖ count × (u16
 * member ‖ proof), a proof being a point and one scalar (Feldman) or two (Pedersen).
 */
function splitCertificate(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.equal(toHex(bytes.subarray(0, 6)), toHex(concat(ascii('LSA2'), [0, 1])), 'LSA2 header');
  const [kind, curve, mode] = bytes.subarray(6, 9);
  const generation = Number(view.getBigUint64(9));
  const transcriptHash = bytes.subarray(17, 49);
  const keyLength = view.getUint32(49);
  const key = bytes.subarray(53, 53 + keyLength);
  let at = 53 + keyLength;
  const count = view.getUint16(at);
  at += 2;
  const proof = (curve === 2 ? 33 : 32) + 32 * (mode === 1 ? 2 : 1); // secp256k1 points: 33 bytes
  assert.equal(bytes.length - at, count * (2 + proof), 'proofs of the mode and curve length, no trailing bytes');
  const members = [];
  for (let i = 0; i < count; i++) members.push(view.getUint16(at + i * (2 + proof)));
  assert.ok(members.every((m, i) => i === 0 || members[i - 1] < m), 'members strictly increasing');
  return { kind, curve, mode, generation, transcriptHash, key, members };
}

/** Checks a certificate's header against what the vector says it activates. */
function checkCertificate(where, bytes, { kind, generation, transcriptHash, key, members }) {
  const cert = splitCertificate(hex(bytes));
  assert.equal(cert.kind, kind, `${where}: scheme`);
  assert.equal(cert.generation, generation, `${where}: generation`);
  assert.equal(toHex(cert.transcriptHash), transcriptHash, `${where}: transcript hash`);
  assert.equal(toHex(cert.key), key, `${where}: the key it binds`);
  if (members) assert.deepEqual(cert.members, members, `${where}: members`);
  return cert;
}

// ---------------------------------------------------------------------------------------
// The recorded outputs, checked with verifiers alone

test('kats/pulsar.json: signatures verify (WASM, light, noble); the certificates name the key', () => {
  const file = load('pulsar.json');
  let ran = 0;
  for (const c of file.cases) {
    const where = `pulsar ${c.set}`;
    const level = Number(c.set.slice(-2));
    const pk = hex(c.group_key).subarray(11);
    assert.equal(toHex(frame('PULG', level, pk)), c.group_key, `${where}: PULG frame`);
    const msg = hex(c.message);
    const context = hex(c.context);
    for (const name of ['signature_deterministic', 'signature_hedged']) {
      const sig = hex(c[name]);
      assert.ok(SETS[c.set].verify(sig, msg, pk, { context }), `${where} ${name}: WASM`);
      assert.ok(LIGHT[c.set].verify(sig, msg, pk, { context }), `${where} ${name}: light WASM`);
      assert.ok(pulsar.verify(pk, msg, sig, { context }), `${where} ${name}: pulsar.verify`);
      assert.ok(NOBLE[c.set].verify(sig, msg, pk, { context }), `${where} ${name}: noble`);
      assert.ok(!SETS[c.set].verify(sig, ascii('other'), pk, { context }), `${where} ${name}: wrong message`);
    }
    assert.notEqual(c.signature_deterministic, c.signature_hedged);
    // What every Pulsar certificate binds, the announced key: group commitment ‖ ceremony
    // hash ‖ u32 length ‖ PULG frame. PCGK v3: magic ‖ version ‖ that ‖ u32 length ‖ LSA2.
    const announced = concat(hex(c.group_commitment), hex(c.ceremony_hash), u32be(hex(c.group_key).length), hex(c.group_key));
    const cert = hex(c.key_certificate);
    const record = concat(ascii('PCGK'), [0, 3], announced, u32be(cert.length), cert);
    assert.equal(toHex(record), c.group_key_record, `${where}: PCGK v3, the announced key and its certificate`);
    const key = toHex(announced);
    const first = checkCertificate(`${where} key certificate`, c.key_certificate, { kind: 2, generation: 0, transcriptHash: c.dkg_transcript_hash, key });
    assert.ok(first.members.length >= c.threshold && first.members.every((m) => c.parties.includes(m)), `${where}: t members of the DKG`);
    checkCertificate(`${where} activation`, c.activation_certificate, {
      kind: 2,
      generation: c.generation,
      transcriptHash: c.reshare_transcript_hash,
      key,
      members: c.activation_members,
    });
    assert.ok(c.activation_members.length >= c.reshare_threshold);
    assert.equal(c.activation_valid, true);
    ran++;
  }
  assert.ok(ran > 0 && ran === file.cases.length, `${ran} cases`);
});

/** Verifiers that share no code with the library. */
const INDEPENDENT = {
  ed25519(key, msg, sig) {
    const der = concat(hex('302a300506032b6570032100'), key); // SPKI of an Ed25519 key
    return nodeVerify(null, msg, createPublicKey({ key: Buffer.from(der), format: 'der', type: 'spki' }), sig);
  },
  secp256k1: (key, msg, sig) => schnorr.verify(sig, msg, key), // BIP-340's x-only key, as is
  ristretto255: (key, msg, sig) => ristretto255_FROST.verify(sig, msg, key),
};

test('kats/lens.json: signatures verify (WASM and independent verifiers); the certificates name the key', () => {
  const file = load('lens.json');
  const cases = [];
  for (const c of file.cases) {
    const where = `lens ${c.keygen}/${c.curve}`;
    const key = hex(c.group_key);
    assert.equal(c.group_key_after_reshare, c.group_key, `${where}: group key unchanged`);
    for (const [m, s] of [['message', 'signature'], ['message_after', 'signature_after']]) {
      const msg = hex(c[m]);
      const sig = hex(c[s]);
      assert.ok(lens.verify(c.curve, key, msg, sig), `${where} ${s}: lens.verify`);
      assert.ok(INDEPENDENT[c.curve](key, msg, sig), `${where} ${s}: independent verifier`);
      assert.ok(!INDEPENDENT[c.curve](key, ascii('other'), sig), `${where} ${s}: wrong message`);
    }
    checkCertificate(`${where} activation`, c.activation_certificate, {
      kind: 1,
      generation: c.generation,
      transcriptHash: c.reshare_transcript_hash,
      key: c.group_key,
      members: c.activation_members,
    });
    assert.equal(c.activation_valid, true);
    cases.push(`${c.keygen}/${c.curve}`);
  }
  const all = ['ed25519', 'secp256k1', 'ristretto255'];
  assert.deepEqual(cases, [...all.map((x) => `dealer/${x}`), ...all.map((x) => `dkg/${x}`)]);
});

// ---------------------------------------------------------------------------------------
// The replays (native == WASM)

/** SHA-256 of the messages, overall and per phase, as genkat's `MessageLog` computes it. */
class MessageLog {
  all = createHash('sha256');
  phase = createHash('sha256');
  count = 0;
  total = 0;
  phases = [];
  push(bytes) {
    for (const h of [this.all, this.phase]) h.update(u32be(bytes.length)).update(bytes);
    this.count++;
    this.total++;
  }
  /** One post of the simulator: the broadcast, then the direct messages by recipient. */
  sent(outgoing) {
    if (outgoing.broadcast) this.push(outgoing.broadcast);
    const to = outgoing.direct.map((d) => d.to);
    assert.deepEqual(to, [...to].sort((a, b) => a - b), 'direct messages by increasing recipient');
    for (const d of outgoing.direct) this.push(d.bytes);
  }
  endPhase(name) {
    this.phases.push({ phase: name, messages: this.count, sha256: this.phase.digest('hex') });
    this.phase = createHash('sha256');
    this.count = 0;
  }
  /** Every phase (name, count, hash), the count and the overall hash against the vector. */
  check(where, c) {
    for (const [i, p] of this.phases.entries()) assert.deepEqual(p, c.phases[i], `${where}: messages of phase ${p.phase}`);
    assert.equal(this.phases.length, c.phases.length, `${where}: phases`);
    assert.equal(this.total, c.messages, `${where}: message count`);
    assert.equal(this.all.digest('hex'), c.messages_sha256, `${where}: messages_sha256`);
  }
}

/**
 * A replay's resources: every `Party`, `Rng`, key share and keyring it makes is freed at the
 * end. `run(parties, sink)` runs them to the end (every post to `sink`, by default logged in
 * order) and frees them; every party must finish, and nobody may drop or blame anything.
 */
class Replay {
  owned = [];
  constructor(where) {
    this.where = where;
    this.log = new MessageLog();
  }
  own(x) {
    this.owned.push(x);
    return x;
  }
  rngs(seeds) {
    return new Map(seeds.map((s) => [s.party, this.own(Rng.fromSeed(hex(s.seed)))]));
  }
  run(parties, sink = (out) => this.log.sent(out)) {
    try {
      const r = run(parties, { onSent: (_, out) => sink(out) });
      for (const [id, e] of r.errors) assert.fail(`${this.where}: party ${id} failed: ${e.code ?? ''} ${e.message}`);
      assert.deepEqual(r.blame, [], `${this.where}: nobody dropped or blamed anything`);
      for (const [id, o] of r.outcomes) if (o.dropped !== undefined) assert.deepEqual(o.dropped, [], `${this.where}: party ${id} dropped nothing`);
      return r.outcomes;
    } finally {
      parties.forEach((p) => p.free());
    }
  }
  free() {
    this.owned.forEach((x) => x.free());
  }
}

/**
 * Replays every case of kats/`name` with `replay(c, rp)`, a fresh `Replay` each (freed after),
 * then checks its message log against the case: every case must check exactly `phases`.
 */
function replayAll(name, replay, phases) {
  const file = load(name);
  for (const c of file.cases) {
    const where = `${name} ${c.set ?? (c.level ? `ML-DSA-${c.level}` : `${c.keygen}/${c.curve}`)}`;
    const rp = new Replay(where);
    try {
      replay(c, rp);
      assert.deepEqual(rp.log.phases.map((p) => p.phase), phases, `${where}: the phases replayed`);
      rp.log.check(where, c);
    } finally {
      rp.free();
    }
  }
  assert.ok(file.cases.length > 0, `${name}: no case ran`);
  return file.cases;
}

/** The one value (as hex) every outcome agrees on. */
function agreed(where, values) {
  const all = new Set(values.map(toHex));
  assert.equal(all.size, 1, `${where}: every party agrees`);
  return [...all][0];
}

/** A dealing's outcome as the vector records it: no blame, the expected activation. */
function checkActivation(where, o, c) {
  assert.deepEqual(o.blame, [], `${where}: no blame`);
  assert.equal(toHex(o.transcriptHash), c.reshare_transcript_hash, `${where}: reshare transcript hash`);
  assert.equal(o.generation, c.generation, `${where}: generation`);
  assert.equal(toHex(o.activation.certificate), c.activation_certificate, `${where}: activation certificate`);
  assert.equal(o.activation.verified, c.activation_valid, `${where}: activation verdict`);
  assert.deepEqual(o.activation.members, c.activation_members, `${where}: activation members`);
  assert.equal(o.activation.generation, c.generation);
  assert.equal(toHex(o.activation.transcriptHash), c.reshare_transcript_hash);
}

/** A copy of `bytes` with its last byte flipped (inside the last proof of a certificate). */
function tampered(bytes) {
  const t = bytes.slice();
  t[t.length - 1] ^= 1;
  return t;
}

// ---------------------------------------------------------------------------------------
// Pulsar

/**
 * The phases of the setup path and the message kinds each logs (genkat/pulsar.rs
 * `SETUP_PHASES`): one run, each message hashed in its kind's phase, in the run's order.
 */
const SETUP_PHASES = [
  ['dkg', ['LSD1', 'LSP1', 'LSC1', 'LSR1']],
  ['key-ceremony', ['PCSH', 'PCSS', 'PCR1', 'PCR2', 'PCKA']],
  ['key-certification', ['LSV1']],
];

/** A sink for `Replay.run` that files each message under its phase, and the flush that logs them phase by phase. */
function byKind(rp, phases) {
  const buckets = phases.map(() => []);
  const file = (bytes) => {
    const kind = new TextDecoder().decode(bytes.subarray(0, 4));
    const i = phases.findIndex(([, kinds]) => kinds.includes(kind));
    assert.ok(i >= 0, `${rp.where}: a message of no phase (${kind})`);
    buckets[i].push(bytes);
  };
  const sink = (out) => {
    if (out.broadcast) file(out.broadcast);
    for (const d of out.direct) file(d.bytes);
  };
  const flush = () => {
    for (const [i, [name]] of phases.entries()) {
      for (const m of buckets[i]) rp.log.push(m);
      rp.log.endPhase(name);
    }
  };
  return { sink, flush };
}

function replayPulsar(c, rp) {
  const { where } = rp;
  const level = Number(c.set.slice(-2));
  const message = hex(c.message);
  const context = hex(c.context);
  // One generator per party across all its paths, as genkat's one `ChaCha20Rng` per party.
  const rng = rp.rngs(c.seeds);
  const crng = rp.own(Rng.fromSeed(hex(c.combiner_seed)));

  // 1. Setup: DKG → key ceremony by the first t parties → key certification, one run.
  const setup = { session: hex(c.setup_session), level, members: c.parties, threshold: c.threshold, signers: c.ceremony_signers };
  const members = c.parties.map((id) => pulsar.lifecycle.member.setup({ ...setup, combiner: c.combiner, id, rng: rng.get(id) }));
  const combiner = pulsar.lifecycle.combiner.setup({ ...setup, id: c.combiner, rng: crng });
  const phases = byKind(rp, SETUP_PHASES);
  const s = rp.run([...members, combiner], phases.sink);
  phases.flush();
  const rec = s.get(c.combiner);
  assert.equal(rec.path, 'setup');
  assert.equal(toHex(rec.sharing), c.sharing, `${where}: the DKG's sharing`);
  assert.equal(toHex(rec.transcriptHash), c.dkg_transcript_hash, `${where}: DKG transcript`);
  assert.equal(toHex(rec.keyRecord), c.group_key_record, `${where}: the combiner's group key record`);
  assert.equal(toHex(frame('PULG', level, rec.groupKey)), c.group_key, `${where}: the combiner's group key`);
  const keyrings = new Map();
  for (const id of c.parties) {
    const o = s.get(id);
    rp.own(o.keyring);
    assert.equal(o.path, 'setup');
    assert.deepEqual(o.blame, [], `${where}: party ${id} no blame`);
    assert.deepEqual(o.qualified, c.parties);
    assert.equal(toHex(o.transcriptHash), c.dkg_transcript_hash, `${where}: party ${id} DKG transcript`);
    assert.equal(toHex(o.keyRecord), c.group_key_record, `${where}: party ${id} group key record`);
    assert.equal(o.keyring.generation, 0);
    keyrings.set(id, o.keyring);
  }
  const keyRecord = hex(c.group_key_record);
  const sharing = hex(c.sharing);

  // 2. Deterministic, then hedged signing by `signers`, a fresh combiner key each; the
  //    combiner is added first (its session broadcast opens the run).
  for (const [name, deterministic] of [['deterministic', true], ['hedged', false]]) {
    const sp = { session: hex(c[`sign_${name}_session`]), signers: c.signers, message, context };
    const sc = pulsar.lifecycle.combiner.sign({ ...sp, id: c.combiner, keyRecord, sharing, rng: crng, deterministic });
    const ss = c.signers.map((id) => pulsar.lifecycle.member.sign({ ...sp, keyring: keyrings.get(id), combiner: c.combiner, rng: rng.get(id) }));
    const signed = rp.run([sc, ...ss]).get(c.combiner);
    rp.log.push(signed.frame);
    rp.log.endPhase(`sign-${name}`);
    assert.equal(toHex(signed.signature), c[`signature_${name}`], `${where}: ${name} signature`);
    assert.equal(toHex(signed.frame), toHex(frame('PULS', level, signed.signature)), `${where}: PULS frame`);
    assert.deepEqual(signed.signers, c.signers);
    assert.deepEqual(signed.blame, []);
  }

  // 3. Reshare with the activation round: each participant with its keyring (empty, with the
  //    group's record, for a joining member); the keyrings come back in the outcomes.
  const rs = { session: hex(c.reshare_session), dealers: c.reshare_dealers, receivers: c.reshare_receivers, threshold: c.reshare_threshold };
  const parties = union(c.reshare_dealers, c.reshare_receivers).map((id) =>
    keyrings.has(id)
      ? pulsar.lifecycle.member.reshare({ ...rs, id, keyring: keyrings.get(id), rng: rng.get(id) })
      : pulsar.lifecycle.member.reshare({ ...rs, id, keyring: rp.own(PulsarKeyring.empty()), keyRecord, sharing, rng: rng.get(id) }),
  );
  const rr = rp.run(parties);
  rp.log.endPhase('reshare');
  let next;
  for (const [id, o] of rr) {
    rp.own(o.keyring);
    const receiver = c.reshare_receivers.includes(id);
    assert.equal(o.path, 'reshare');
    checkActivation(`${where}: party ${id}`, o, c);
    assert.equal(o.activated.ok, true, `${where}: party ${id} accepts the activation: ${o.activated.reason}`);
    assert.equal(o.activated.member, receiver, `${where}: party ${id} holds a new share iff a receiver`);
    assert.equal(o.keyring.generation, receiver ? c.generation : undefined, `${where}: party ${id} keyring generation`);
    assert.equal(o.keyring.pendingGeneration, undefined, `${where}: party ${id} nothing pending`);
    if (receiver) {
      assert.equal(toHex(frame('PULG', level, o.groupKey)), c.group_key, `${where}: party ${id} keeps the group key`);
      next ??= o;
    }
  }
  const cert = hex(c.activation_certificate);
  const th = hex(c.reshare_transcript_hash);
  // The new generation's record: the same announced key, with the activation certificate.
  assert.equal(toHex(next.keyRecord), toHex(concat(keyRecord.subarray(0, keyRecord.length - hex(c.key_certificate).length - 4), u32be(cert.length), cert)), `${where}: the new record`);
  const verdict = pulsar.verifyActivation(next.sharing, next.keyRecord, c.generation, th, cert);
  assert.deepEqual({ ...verdict }, { ok: c.activation_valid }, `${where}: pulsar.verifyActivation`);
  assert.equal(pulsar.verifyActivation(next.sharing, next.keyRecord, c.generation, th, tampered(cert)).ok, false, `${where}: a tampered certificate`);
  assert.equal(pulsar.verifyActivation(sharing, next.keyRecord, c.generation, th, cert).ok, false, `${where}: not for the old sharing`);
  // The generation-0 record's certificate cannot be checked against the new sharing: refused.
  assert.equal(pulsar.verifyActivation(next.sharing, keyRecord, c.generation, th, cert).code, 'ACTIVATION_WRONG_GENERATION', `${where}: the old record`);
}

test('kats/pulsar.json: the WASM parties replay every case byte for byte (native == WASM)', () => {
  replayAll('pulsar.json', replayPulsar, ['dkg', 'key-ceremony', 'key-certification', 'sign-deterministic', 'sign-hedged', 'reshare']);
});

// ---------------------------------------------------------------------------------------
// Lens

/** One FROST session of `signers` and the coordinator; logs the signature last. */
function lensSign(rp, c, shares, rng, signers, publicPackage, message) {
  const coordinator = lens.coordinate({ publicPackage, id: c.coordinator, message });
  const parties = signers.map((id) => lens.sign({ share: shares.get(id), coordinator: c.coordinator, message, rng: rng.get(id) }));
  const out = rp.run([...parties, coordinator]).get(c.coordinator);
  rp.log.push(out.signature);
  assert.deepEqual(out.signers, signers);
  return out.signature;
}

function replayLens(c, rp) {
  const { where } = rp;
  const rng = rp.rngs(c.seeds);

  // 1. Keygen: a trusted dealer (its shares by recipient, then its package), or the DKG.
  const shares = new Map();
  let publicPackage;
  if (c.keygen === 'dealer') {
    const dealt = lens.deal({ curve: c.curve, parties: c.parties, threshold: c.threshold, seed: hex(c.dealer_seed) });
    assert.deepEqual(dealt.shares.map((s) => s.id), c.parties);
    for (const s of dealt.shares) rp.log.push(s.dealerShare);
    rp.log.push(dealt.publicPackage);
    publicPackage = dealt.publicPackage;
    for (const s of dealt.shares) shares.set(s.id, rp.own(LensKeyShare.fromDealer(c.curve, s.dealerShare, publicPackage)));
  } else {
    const kg = { curve: c.curve, session: hex(c.dkg_session), parties: c.parties, threshold: c.threshold };
    const r = rp.run(c.parties.map((id) => lens.keygen({ ...kg, id, rng: rng.get(id) })));
    for (const [id, o] of r) {
      assert.deepEqual(o.blame, [], `${where}: party ${id} no blame`);
      assert.deepEqual(o.qualified, c.parties);
      shares.set(id, rp.own(o.keyShare));
    }
    publicPackage = hex(agreed(`${where} keygen package`, [...r.values()].map((o) => o.publicPackage)));
  }
  rp.log.endPhase('keygen');
  for (const [id, s] of shares) {
    const info = s.publicInfo();
    assert.equal(info.id, id);
    assert.equal(toHex(info.groupKey), c.group_key, `${where}: party ${id} group key`);
    assert.equal(toHex(info.transcriptHash), c.keygen_transcript_hash, `${where}: party ${id} keygen transcript`);
    assert.equal(info.generation, 0);
    assert.equal(toHex(info.publicPackage), toHex(publicPackage));
  }

  // 2. Signing by the first t parties.
  const signature = lensSign(rp, c, shares, rng, c.signers, publicPackage, hex(c.message));
  rp.log.endPhase('sign');
  assert.equal(toHex(signature), c.signature, `${where}: signature`);

  // 3. Reshare with the activation round: old holders with their shares, new members join.
  const rs = { session: hex(c.reshare_session), dealers: c.reshare_dealers, receivers: c.reshare_receivers, threshold: c.reshare_threshold };
  const parties = union(c.reshare_dealers, c.reshare_receivers).map((id) =>
    shares.has(id)
      ? lens.reshare({ share: shares.get(id), ...rs, rng: rng.get(id) })
      : lens.reshareJoin({ publicPackage, ...rs, id, rng: rng.get(id) }),
  );
  const rr = rp.run(parties);
  rp.log.endPhase('reshare');
  const next = new Map();
  for (const [id, o] of rr) {
    checkActivation(`${where}: party ${id}`, o, c);
    assert.equal(toHex(o.groupKey), c.group_key_after_reshare, `${where}: party ${id} group key`);
    assert.equal(o.keyShare !== undefined, c.reshare_receivers.includes(id), `${where}: party ${id} holds a new share iff a receiver`);
    if (o.keyShare) next.set(id, rp.own(o.keyShare));
  }
  const newPackage = hex(agreed(`${where} reshare package`, [...rr.values()].map((o) => o.publicPackage)));
  const cert = hex(c.activation_certificate);
  const th = hex(c.reshare_transcript_hash);
  assert.deepEqual({ ...lens.verifyActivation(newPackage, c.generation, th, cert) }, { ok: c.activation_valid }, `${where}: lens.verifyActivation`);
  assert.equal(lens.verifyActivation(newPackage, c.generation, th, tampered(cert)).ok, false, `${where}: a tampered certificate`);
  assert.equal(lens.verifyActivation(publicPackage, c.generation, th, cert).ok, false, `${where}: not for the old package`);

  // 4. Signing with the new shares.
  const after = lensSign(rp, c, next, rng, c.signers_after, newPackage, hex(c.message_after));
  rp.log.endPhase('sign-after');
  assert.equal(toHex(after), c.signature_after, `${where}: signature after the reshare`);
}

test('kats/lens.json: the WASM parties replay every case byte for byte, dealer and DKG (native == WASM)', () => {
  const cases = replayAll('lens.json', replayLens, ['keygen', 'sign', 'reshare', 'sign-after']);
  assert.deepEqual([...new Set(cases.map((c) => c.keygen))].sort(), ['dealer', 'dkg']);
});

function replayCommittee(c, rp) {
  const { where } = rp;
  const rng = rp.rngs(c.seeds);
  const kg = { session: hex(c.keygen_session), level: c.level, threshold: c.threshold, members: c.members };
  const keyed = rp.run(c.members.map((id) => pulsar.committee.keygen({ ...kg, id, rng: rng.get(id) })));
  rp.log.endPhase('keygen');
  const shares = new Map();
  for (const [id, o] of keyed) {
    assert.equal(toHex(o.key), c.key, `${where}: party ${id} committee key`);
    assert.equal(toHex(o.publicKey), c.public_key, `${where}: party ${id} public key`);
    shares.set(id, rp.own(o.keyShare));
  }
  const sign = { session: hex(c.sign_session), signers: c.signers, message: hex(c.message), context: hex(c.context) };
  const signed = rp.run(c.signers.map((id) => pulsar.committee.signer({ ...sign, share: shares.get(id), rng: rng.get(id) })));
  rp.log.endPhase('sign');
  for (const [id, o] of signed) {
    assert.equal(toHex(o.signature), c.signature, `${where}: signer ${id} signature`);
    assert.equal(o.runs, c.runs, `${where}: signer ${id} runs`);
  }
  const noble = NOBLE[`ML-DSA-${c.level}`];
  assert.ok(noble.verify(hex(c.signature), hex(c.message), hex(c.public_key), { context: hex(c.context) }), `${where}: noble verifies`);
  assert.ok(pulsar.verify(hex(c.public_key), hex(c.message), hex(c.signature), { context: hex(c.context) }), `${where}: pulsar.verify`);
}

test('kats/committee.json: the WASM committee replays every level byte for byte, floats included (native == WASM)', () => {
  const cases = replayAll('committee.json', replayCommittee, ['keygen', 'sign']);
  assert.deepEqual(cases.map((c) => c.level), [44, 65, 87]);
});
