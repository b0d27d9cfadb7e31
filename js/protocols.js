// quasar-pq threshold protocols (full build): Lens (FROST) and Pulsar custody parties,
// their coordinator roles, LSS resharing with activation certificates, and verifiers.
//
// Every party is an independent instance whose secret state lives in WebAssembly memory;
// parties exchange only Uint8Array messages, so each can run in its own Web Worker or
// worker_thread with its own WASM instance. protocols.d.ts documents the API and has one
// example flow per scheme.

import { ML_DSA_LENGTHS, abytes, checkOpts, randomBytes } from './common.js';
import { glue, loader } from './full.js';

const CURVES = Object.freeze({ ed25519: 1, secp256k1: 2, ristretto255: 3 });
const LEVELS = Object.freeze([44, 65, 87]);
const EMPTY = new Uint8Array(0);
const DISPOSE = Symbol.dispose ?? Symbol.for('Symbol.dispose');

/** One sentence per trust model (DESIGN §3). */
export const trustModels = Object.freeze({
  pulsar:
    'Pulsar custody: the ML-DSA key is derived from a Pedersen-shared group secret that no coalition below t knows at rest; ' +
    'to sign, t parties release their shares, encrypted, to one combiner, which rebuilds the key in memory, signs, verifies ' +
    'and zeroizes — the combiner is trusted for that moment.',
  lens:
    'Lens: FROST threshold Schnorr against a dishonest majority — fewer than t parties cannot sign, the coordinator is trusted ' +
    'only for liveness, and signatures verify under standard Ed25519/BIP-340.',
  lss:
    'LSS resharing: a dealer who sends an inconsistent share is detected and named; the group public key never changes, and an ' +
    'activation certificate signed by the new set under the unchanged key proves the new set can sign.',
});

// ---------------------------------------------------------------------------------------
// Argument checks

function partyId(v, title) {
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new TypeError(`${title} must be an integer party id, got ${v === null ? 'null' : typeof v}`);
  }
  if (v < 1 || v > 65535) throw new RangeError(`${title} must be in 1..65535, got ${v}`);
  return v;
}

function idList(v, title) {
  if (!Array.isArray(v)) throw new TypeError(`${title} must be an array of party ids`);
  return Uint16Array.from(v, (x, i) => partyId(x, `${title}[${i}]`));
}

function threshold(v) {
  return partyId(v, 'threshold');
}

function session(v) {
  return abytes(v, 32, 'session');
}

function required(o, key, what) {
  if (o[key] === undefined) throw new TypeError(`${what}: missing "${key}"`);
  return o[key];
}

function seedOf(seed) {
  return seed === undefined ? randomBytes(32) : abytes(seed, 32, 'seed').slice();
}

function curveByte(curve) {
  if (typeof curve !== 'string' || !(curve in CURVES)) {
    throw new RangeError(`curve must be one of ${Object.keys(CURVES).join(', ')}, got ${String(curve)}`);
  }
  return CURVES[curve];
}

function levelOf(level) {
  if (!LEVELS.includes(level)) throw new RangeError(`level must be 44, 65 or 87, got ${String(level)}`);
  return level;
}

/** `[senders: Uint16Array, messages: Uint8Array[]]` from a list of `{ from, bytes }`. */
function incoming(list, title) {
  if (list === undefined) return [new Uint16Array(0), []];
  if (!Array.isArray(list)) throw new TypeError(`${title} must be an array of { from, bytes }`);
  const from = new Uint16Array(list.length);
  const msgs = new Array(list.length);
  list.forEach((m, i) => {
    if (m === null || typeof m !== 'object') throw new TypeError(`${title}[${i}] must be { from, bytes }`);
    from[i] = partyId(m.from, `${title}[${i}].from`);
    msgs[i] = abytes(m.bytes, undefined, `${title}[${i}].bytes`);
  });
  return [from, msgs];
}

function inboxOf(inbox) {
  const o = checkOpts(inbox, ['broadcasts', 'direct']);
  return { broadcasts: incoming(o.broadcasts, 'inbox.broadcasts'), direct: incoming(o.direct, 'inbox.direct') };
}

function misbehaviour(m) {
  const o = checkOpts(m, ['dealing', 'signing']);
  for (const k of ['dealing', 'signing']) {
    if (o[k] !== undefined && typeof o[k] !== 'boolean') throw new TypeError(`misbehaviour.${k} must be a boolean`);
  }
  return [o.dealing === true, o.signing === true];
}

/** Base of the classes: owns one wasm object; `free()` releases it. */
class Owned {
  #w;
  constructor(w) {
    this.#w = w;
  }
  get _w() {
    if (this.#w === null) throw new Error(`${this.constructor.name}: used after free()`);
    return this.#w;
  }
  /** Release the WASM memory held by this instance (secrets are wiped). */
  free() {
    if (this.#w !== null) {
      this.#w.free();
      this.#w = null;
    }
  }
  [DISPOSE]() {
    this.free();
  }
}

function phaseName(w) {
  const p = w.phase();
  return p === 'idle' && w.hasShare() ? 'ready' : p;
}

// ---------------------------------------------------------------------------------------
// Lens

/** One Lens (FROST) party. See protocols.d.ts. */
export class LensParty extends Owned {
  #id;
  #curve;
  constructor(opts) {
    const o = checkOpts(opts, ['id', 'seed', 'curve']);
    const id = partyId(required(o, 'id', 'LensParty'), 'id');
    const c = curveByte(required(o, 'curve', 'LensParty'));
    const seed = seedOf(o.seed);
    loader.assertReady();
    try {
      super(new glue.LensPartyWasm(id, c, seed));
    } finally {
      seed.fill(0);
    }
    this.#id = id;
    this.#curve = o.curve;
  }
  get id() {
    return this.#id;
  }
  get curve() {
    return this.#curve;
  }
  get phase() {
    return phaseName(this._w);
  }
  get hasShare() {
    return this._w.hasShare();
  }
  dkgRound1(params) {
    const p = checkOpts(params, ['session', 'threshold', 'parties']);
    return this._w.dkgRound1(
      session(required(p, 'session', 'dkgRound1')),
      threshold(required(p, 'threshold', 'dkgRound1')),
      idList(required(p, 'parties', 'dkgRound1'), 'parties'),
    );
  }
  dkgRound2(inbox) {
    const { broadcasts, direct } = inboxOf(inbox);
    return this._w.dkgRound2(...broadcasts, ...direct);
  }
  dkgRound3(inbox) {
    const { broadcasts } = inboxOf(inbox);
    return this._w.dkgRound3(...broadcasts);
  }
  dkgFinish(inbox) {
    const { broadcasts } = inboxOf(inbox);
    return this._w.dkgFinish(...broadcasts);
  }
  signRound1() {
    return this._w.signRound1();
  }
  signRound2(signingPackage) {
    return this._w.signRound2(abytes(signingPackage, undefined, 'signingPackage'));
  }
  static packageMessage(curve, signingPackage) {
    const c = curveByte(curve);
    abytes(signingPackage, undefined, 'signingPackage');
    loader.assertReady();
    return glue.LensPartyWasm.packageMessage(c, signingPackage);
  }
  reshareRound1(params) {
    const p = checkOpts(params, ['session', 'dealers', 'receivers', 'threshold', 'publicPackage']);
    return this._w.reshareRound1(
      session(required(p, 'session', 'reshareRound1')),
      idList(required(p, 'dealers', 'reshareRound1'), 'dealers'),
      idList(required(p, 'receivers', 'reshareRound1'), 'receivers'),
      threshold(required(p, 'threshold', 'reshareRound1')),
      p.publicPackage === undefined ? undefined : abytes(p.publicPackage, undefined, 'publicPackage'),
    );
  }
  reshareRound2(inbox) {
    const { broadcasts, direct } = inboxOf(inbox);
    return this._w.reshareRound2(...broadcasts, ...direct);
  }
  reshareRound3(inbox) {
    const { broadcasts } = inboxOf(inbox);
    return this._w.reshareRound3(...broadcasts);
  }
  reshareFinish(inbox) {
    const { broadcasts } = inboxOf(inbox);
    return this._w.reshareFinish(...broadcasts);
  }
  publicInfo() {
    const { hasShare: _, ...info } = this._w.publicInfo();
    return info;
  }
  setMisbehaviour(m) {
    this._w.setMisbehaviour(...misbehaviour(m));
  }
  sealShare(snapshotKey) {
    return this._w.sealShare(abytes(snapshotKey, 32, 'snapshotKey').slice());
  }
  restoreShare(snapshot, snapshotKey) {
    const { hasShare: _, ...info } = this._w.restoreShare(
      abytes(snapshot, undefined, 'snapshot'),
      abytes(snapshotKey, 32, 'snapshotKey').slice(),
    );
    return info;
  }
}

/** The FROST coordinator of one Lens group (public data only). See protocols.d.ts. */
export class LensCoordinator extends Owned {
  #curve;
  constructor(opts) {
    const o = checkOpts(opts, ['curve', 'publicPackage']);
    const c = curveByte(required(o, 'curve', 'LensCoordinator'));
    const pkg = abytes(required(o, 'publicPackage', 'LensCoordinator'), undefined, 'publicPackage');
    loader.assertReady();
    super(new glue.LensCoordinatorWasm(c, pkg));
    this.#curve = o.curve;
  }
  get curve() {
    return this.#curve;
  }
  get groupKey() {
    return this._w.groupKey();
  }
  get generation() {
    return this._w.generation();
  }
  signingPackage(args) {
    const a = checkOpts(args, ['commitments', 'message']);
    const [from, msgs] = incoming(required(a, 'commitments', 'signingPackage'), 'commitments');
    return this._w.signingPackage(from, msgs, abytes(required(a, 'message', 'signingPackage'), undefined, 'message'));
  }
  aggregate(args) {
    const a = checkOpts(args, ['shares']);
    const [from, msgs] = incoming(required(a, 'shares', 'aggregate'), 'shares');
    return this._w.aggregate(from, msgs);
  }
  activationMessage() {
    return this._w.activationMessage();
  }
  activationCertificate(signature) {
    return this._w.activationCertificate(abytes(signature, 64, 'signature'));
  }
}

/** Stateless Lens functions. */
export const lens = Object.freeze({
  curves: Object.freeze(Object.keys(CURVES)),
  /** Standard Ed25519 / BIP-340 / RFC 9591 verification; false for any bad signature or key. */
  verify(curve, groupKey, message, signature) {
    const c = curveByte(curve);
    lensKey(c, groupKey);
    abytes(message, undefined, 'message');
    abytes(signature, undefined, 'signature');
    loader.assertReady();
    return glue.lensVerify(c, groupKey, message, signature);
  },
  /** Verify an activation certificate under `groupKey`; false for anything wrong. */
  verifyActivation(curve, groupKey, certificate) {
    const c = curveByte(curve);
    lensKey(c, groupKey);
    abytes(certificate, undefined, 'certificate');
    loader.assertReady();
    return glue.lensVerifyActivation(c, groupKey, certificate);
  },
});

function lensKey(c, groupKey) {
  abytes(groupKey, undefined, 'groupKey');
  const ok = c === CURVES.secp256k1 ? groupKey.length === 33 || groupKey.length === 32 : groupKey.length === 32;
  if (!ok) throw new RangeError(`groupKey has the wrong length for this curve: ${groupKey.length}`);
}

// ---------------------------------------------------------------------------------------
// Pulsar

/** One Pulsar custody party. See protocols.d.ts. */
export class PulsarParty extends Owned {
  #id;
  constructor(opts) {
    const o = checkOpts(opts, ['id', 'seed']);
    const id = partyId(required(o, 'id', 'PulsarParty'), 'id');
    const seed = seedOf(o.seed);
    loader.assertReady();
    try {
      super(new glue.PulsarPartyWasm(id, seed));
    } finally {
      seed.fill(0);
    }
    this.#id = id;
  }
  get id() {
    return this.#id;
  }
  get phase() {
    return phaseName(this._w);
  }
  get hasShare() {
    return this._w.hasShare();
  }
  dkgRound1(params) {
    const p = checkOpts(params, ['session', 'threshold', 'parties']);
    return this._w.dkgRound1(
      session(required(p, 'session', 'dkgRound1')),
      threshold(required(p, 'threshold', 'dkgRound1')),
      idList(required(p, 'parties', 'dkgRound1'), 'parties'),
    );
  }
  dkgRound2(inbox) {
    const { broadcasts, direct } = inboxOf(inbox);
    return this._w.dealRound2(...broadcasts, ...direct);
  }
  dkgRound3(inbox) {
    const { broadcasts } = inboxOf(inbox);
    return this._w.dealRound3(...broadcasts);
  }
  dkgFinish(inbox) {
    const { broadcasts } = inboxOf(inbox);
    return this._w.dealFinish(...broadcasts);
  }
  keyCeremonyRound1(params) {
    const p = checkOpts(params, ['session', 'level', 'signers', 'combinerKey']);
    return this._w.keyCeremonyRound1(
      session(required(p, 'session', 'keyCeremonyRound1')),
      levelOf(required(p, 'level', 'keyCeremonyRound1')),
      idList(required(p, 'signers', 'keyCeremonyRound1'), 'signers'),
      abytes(required(p, 'combinerKey', 'keyCeremonyRound1'), undefined, 'combinerKey'),
    );
  }
  keyCeremonyFinish(args) {
    const a = checkOpts(args, ['announcement']);
    return this._w.keyCeremonyFinish(abytes(required(a, 'announcement', 'keyCeremonyFinish'), undefined, 'announcement'));
  }
  signRound1(params) {
    const p = checkOpts(params, ['session', 'signers', 'combinerKey', 'message', 'context']);
    return this._w.signRound1(
      session(required(p, 'session', 'signRound1')),
      idList(required(p, 'signers', 'signRound1'), 'signers'),
      abytes(required(p, 'combinerKey', 'signRound1'), undefined, 'combinerKey'),
      abytes(required(p, 'message', 'signRound1'), undefined, 'message'),
      p.context === undefined ? EMPTY : abytes(p.context, undefined, 'context'),
    );
  }
  activationRound1(params) {
    const p = checkOpts(params, ['session', 'signers', 'combinerKey']);
    return this._w.activationRound1(
      session(required(p, 'session', 'activationRound1')),
      idList(required(p, 'signers', 'activationRound1'), 'signers'),
      abytes(required(p, 'combinerKey', 'activationRound1'), undefined, 'combinerKey'),
    );
  }
  signRound2(round1) {
    const [from, msgs] = incoming(round1, 'round1');
    return this._w.signRound2(from, msgs);
  }
  reshareRound1(params) {
    const p = checkOpts(params, ['session', 'dealers', 'receivers', 'threshold', 'sharing', 'keyRecord']);
    return this._w.reshareRound1(
      session(required(p, 'session', 'reshareRound1')),
      idList(required(p, 'dealers', 'reshareRound1'), 'dealers'),
      idList(required(p, 'receivers', 'reshareRound1'), 'receivers'),
      threshold(required(p, 'threshold', 'reshareRound1')),
      p.sharing === undefined ? undefined : abytes(p.sharing, undefined, 'sharing'),
      p.keyRecord === undefined ? undefined : abytes(p.keyRecord, undefined, 'keyRecord'),
    );
  }
  reshareRound2(inbox) {
    return this.dkgRound2(inbox);
  }
  reshareRound3(inbox) {
    return this.dkgRound3(inbox);
  }
  reshareFinish(inbox) {
    return this.dkgFinish(inbox);
  }
  publicInfo() {
    return this._w.publicInfo();
  }
  setMisbehaviour(m) {
    this._w.setMisbehaviour(...misbehaviour(m));
  }
  sealShare(snapshotKey) {
    return this._w.sealShare(abytes(snapshotKey, 32, 'snapshotKey').slice());
  }
  restoreShare(snapshot, snapshotKey) {
    return this._w.restoreShare(abytes(snapshot, undefined, 'snapshot'), abytes(snapshotKey, 32, 'snapshotKey').slice());
  }
}

/** The Pulsar combiner (trusted with the key while it signs). See protocols.d.ts. */
export class PulsarCombiner extends Owned {
  #id;
  #pending = null;
  constructor(opts) {
    const o = checkOpts(opts, ['id', 'seed']);
    const id = partyId(required(o, 'id', 'PulsarCombiner'), 'id');
    const seed = seedOf(o.seed);
    loader.assertReady();
    try {
      super(new glue.PulsarCombinerWasm(id, seed));
    } finally {
      seed.fill(0);
    }
    this.#id = id;
  }
  get id() {
    return this.#id;
  }
  newSessionKey() {
    this.#pending = this._w.newSessionKey();
    return this.#pending.slice();
  }
  #checkKey(a, method) {
    const k = abytes(required(a, 'combinerKey', method), undefined, 'combinerKey');
    const p = this.#pending;
    if (p === null || p.length !== k.length || !p.every((b, i) => b === k[i])) {
      throw new Error(`PulsarCombiner.${method}: combinerKey is not this combiner's pending session key (call newSessionKey())`);
    }
    this.#pending = null;
  }
  finishKeyCeremony(args) {
    const m = 'finishKeyCeremony';
    const a = checkOpts(args, ['session', 'level', 'signers', 'combinerKey', 'sharing', 'round1', 'round2']);
    const s = session(required(a, 'session', m));
    const level = levelOf(required(a, 'level', m));
    const signers = idList(required(a, 'signers', m), 'signers');
    const sharing = abytes(required(a, 'sharing', m), undefined, 'sharing');
    const r1 = incoming(required(a, 'round1', m), 'round1');
    const r2 = incoming(required(a, 'round2', m), 'round2');
    this.#checkKey(a, m);
    return this._w.finishKeyCeremony(s, level, sharing, signers, ...r1, ...r2);
  }
  sign(args) {
    const m = 'sign';
    const a = checkOpts(args, [
      'session', 'signers', 'combinerKey', 'message', 'context', 'keyRecord', 'sharing', 'round1', 'round2', 'deterministic',
    ]);
    const s = session(required(a, 'session', m));
    const signers = idList(required(a, 'signers', m), 'signers');
    const message = abytes(required(a, 'message', m), undefined, 'message');
    const context = a.context === undefined ? EMPTY : abytes(a.context, undefined, 'context');
    const keyRecord = abytes(required(a, 'keyRecord', m), undefined, 'keyRecord');
    const sharing = abytes(required(a, 'sharing', m), undefined, 'sharing');
    if (a.deterministic !== undefined && typeof a.deterministic !== 'boolean') {
      throw new TypeError('deterministic must be a boolean');
    }
    const r1 = incoming(required(a, 'round1', m), 'round1');
    const r2 = incoming(required(a, 'round2', m), 'round2');
    this.#checkKey(a, m);
    return this._w.sign(s, keyRecord, sharing, signers, message, context, a.deterministic === true, ...r1, ...r2);
  }
  activate(args) {
    const m = 'activate';
    const a = checkOpts(args, ['session', 'signers', 'combinerKey', 'keyRecord', 'sharing', 'round1', 'round2']);
    const s = session(required(a, 'session', m));
    const signers = idList(required(a, 'signers', m), 'signers');
    const keyRecord = abytes(required(a, 'keyRecord', m), undefined, 'keyRecord');
    const sharing = abytes(required(a, 'sharing', m), undefined, 'sharing');
    const r1 = incoming(required(a, 'round1', m), 'round1');
    const r2 = incoming(required(a, 'round2', m), 'round2');
    this.#checkKey(a, m);
    return this._w.activate(s, keyRecord, sharing, signers, ...r1, ...r2);
  }
}

function pulsarLevel(groupKey) {
  abytes(groupKey, undefined, 'groupKey');
  const level = LEVELS.find((l) => ML_DSA_LENGTHS[l].publicKey === groupKey.length);
  if (level === undefined) throw new RangeError(`groupKey is not an ML-DSA public key (${groupKey.length} bytes)`);
  return level;
}

/** Plain FIPS 204 verification under a Pulsar group key; false for any bad signature. */
export function verifyPulsar(groupKey, message, signature, opts) {
  const o = checkOpts(opts, ['context']);
  const level = pulsarLevel(groupKey);
  abytes(message, undefined, 'message');
  abytes(signature, undefined, 'signature');
  const ctx = o.context === undefined ? EMPTY : abytes(o.context, undefined, 'opts.context');
  loader.assertReady();
  if (signature.length !== ML_DSA_LENGTHS[level].signature) return false;
  return glue.mlDsaVerify(level, groupKey, message, ctx, signature);
}

/** Stateless Pulsar functions. */
export const pulsar = Object.freeze({
  levels: LEVELS,
  verify: verifyPulsar,
  /** Verify an activation certificate under the unchanged group key (raw key or keyRecord). */
  verifyActivation(groupKey, certificate) {
    abytes(groupKey, undefined, 'groupKey');
    abytes(certificate, undefined, 'certificate');
    loader.assertReady();
    return glue.pulsarVerifyActivation(groupKey, certificate);
  },
});

/** Decode an activation certificate (`LSA1`) strictly. */
export function decodeActivationCertificate(certificate) {
  abytes(certificate, undefined, 'certificate');
  loader.assertReady();
  return glue.decodeActivationCertificate(certificate);
}
