// What each entity does at each step, inside its worker: the thin adapter between the
// router's envelopes ({ to, tag, bytes } out; { from, channel, tag, bytes } in) and the
// quasar-pq protocol classes (js/protocols.js: PulsarParty, PulsarCombiner, LensParty,
// LensCoordinator). The page decides the order of steps (www/flows.js) and passes only public
// parameters; secrets stay in the WebAssembly memory of this worker.

/** Keys of the two service roles (parties are 1..64). */
export const COMBINER = 1000;
export const COORDINATOR = 1001;

const PULSAR_ACTIVATION_CONTEXT = new TextEncoder().encode('QUASAR-PULSAR-ACTIVATE-v1');

/** Serialisable description of an error (QuasarError keeps its code and culprits). */
export function errorInfo(err, party) {
  if (err && typeof err === 'object') {
    return {
      name: err.name ?? 'Error',
      code: err.code,
      module: err.module,
      message: err.message ?? String(err),
      culprits: Array.isArray(err.culprits) ? [...err.culprits] : [],
      party,
      stack: err.stack,
    };
  }
  return { name: 'Error', message: String(err), culprits: [], party };
}

// ------------------------------------------------------------------------------ inbox helpers

function incoming(inbox, tag) {
  return inbox.filter((m) => m.tag === tag).map((m) => ({ from: m.from, bytes: m.bytes }));
}

function one(inbox, tag) {
  const list = inbox.filter((m) => m.tag === tag);
  if (list.length !== 1) throw new Error(`expected one "${tag}" message, got ${list.length}`);
  return list[0].bytes;
}

/** The protocol Inbox (broadcasts / direct) of the messages delivered for one round. */
function dealingInbox(inbox) {
  const broadcasts = [];
  const direct = [];
  for (const m of inbox) (m.channel === 'broadcast' ? broadcasts : direct).push({ from: m.from, bytes: m.bytes });
  return { broadcasts, direct };
}

/** RoundOutput → envelopes: the broadcast to the ceremony's audience, each direct share to its party. */
function envelopes(out, tag) {
  const list = [];
  if (out?.broadcast && out.broadcast.length) list.push({ to: '*', tag: `${tag}`, bytes: out.broadcast });
  for (const d of out?.direct ?? []) list.push({ to: d.to, tag: `${tag}-direct`, bytes: d.bytes });
  return list;
}

/** The public summary of a dealing result, for the page. */
function dealing(r) {
  return {
    hasShare: r.hasShare,
    threshold: r.threshold,
    parties: [...r.parties],
    generation: r.generation,
    transcriptHash: r.transcriptHash,
    qualified: [...(r.qualified ?? [])],
    blame: (r.blame ?? []).map((b) => ({ party: b.party, code: b.code, reason: b.reason, related: b.related })),
    dropped: [...(r.dropped ?? [])],
    groupKey: r.groupKey,
    publicPackage: r.publicPackage,
    sharing: r.sharing,
    keyRecord: r.keyRecord,
    level: r.level,
  };
}

function blameList(list) {
  return (list ?? []).map((b) => ({ party: b.party, code: b.code, reason: b.reason, related: b.related }));
}

function cheatFlags(mode) {
  if (mode === 'dealing') return { dealing: true, signing: false };
  if (mode === 'signing') return { dealing: false, signing: true };
  return { dealing: false, signing: false };
}

// ------------------------------------------------------------------------------ Pulsar custody

class PulsarPartyEntity {
  constructor(lib, key, config) {
    this.p = new lib.PulsarParty({ id: key });
    if (config?.cheat) this.p.setMisbehaviour(cheatFlags(config.cheat));
  }

  step(name, input, inbox) {
    const p = this.p;
    switch (name) {
      case 'dkg1':
        return { out: envelopes(p.dkgRound1(input.params), 'deal') };
      case 'dkg2':
        return { out: envelopes(p.dkgRound2(dealingInbox(inbox)), 'complaint') };
      case 'dkg3':
        return { out: envelopes(p.dkgRound3(dealingInbox(inbox)), 'response') };
      case 'dkgFinish':
        return { result: dealing(p.dkgFinish(dealingInbox(inbox))) };
      case 'reshare1':
        return { out: envelopes(p.reshareRound1(input.params), 'deal') };
      case 'reshare2':
        return { out: envelopes(p.reshareRound2(dealingInbox(inbox)), 'complaint') };
      case 'reshare3':
        return { out: envelopes(p.reshareRound3(dealingInbox(inbox)), 'response') };
      case 'reshareFinish':
        return { result: dealing(p.reshareFinish(dealingInbox(inbox))) };
      case 'round1': {
        // Key ceremony, signing or activation: seal the share to the combiner's session key.
        const params = { ...input.params, combinerKey: one(inbox, 'session-key') };
        let bytes;
        if (input.kind === 'ceremony') bytes = p.keyCeremonyRound1(params);
        else if (input.kind === 'activation') bytes = p.activationRound1(params);
        else bytes = p.signRound1(params);
        return { out: [{ to: '*', tag: 'round1', bytes }] };
      }
      case 'round2': {
        const o = p.signRound2(incoming(inbox, 'round1'));
        return { out: [{ to: o.to, tag: 'round2', bytes: o.bytes }] };
      }
      case 'storeKey': {
        const k = p.keyCeremonyFinish({ announcement: one(inbox, 'announcement') });
        return { result: { level: k.level, groupKey: k.groupKey, keyRecord: k.keyRecord } };
      }
      case 'info': {
        const i = p.publicInfo();
        return { result: { ...i, parties: [...i.parties] } };
      }
      default:
        throw new Error(`a Pulsar party has no step "${name}"`);
    }
  }

  free() {
    this.p.free();
  }
}

class PulsarCombinerEntity {
  constructor(lib, key) {
    this.c = new lib.PulsarCombiner({ id: key });
    this.sessionKey = null;
  }

  step(name, input, inbox) {
    const c = this.c;
    const sessionArgs = () => ({
      ...input.params,
      combinerKey: this.sessionKey,
      round1: incoming(inbox, 'round1'),
      round2: incoming(inbox, 'round2'),
    });
    switch (name) {
      case 'sessionKey': {
        // A fresh ML-KEM-768 key per session; its public half goes to the signers.
        this.sessionKey = c.newSessionKey();
        return { out: [{ to: '*', tag: 'session-key', bytes: this.sessionKey.slice() }] };
      }
      case 'finishCeremony': {
        const r = c.finishKeyCeremony({ ...sessionArgs(), sharing: input.sharing });
        return {
          out: [{ to: '*', tag: 'announcement', bytes: r.announcement }],
          result: { level: r.level, groupKey: r.groupKey, keyRecord: r.keyRecord, signers: [...r.signers], blame: blameList(r.blame) },
        };
      }
      case 'sign': {
        const r = c.sign({ ...sessionArgs(), keyRecord: input.keyRecord, sharing: input.sharing });
        return { result: { signature: r.signature, signers: [...r.signers], blame: blameList(r.blame) } };
      }
      case 'activate': {
        const r = c.activate({ ...sessionArgs(), keyRecord: input.keyRecord, sharing: input.sharing });
        return {
          result: { signature: r.signature, certificate: r.certificate, signers: [...r.signers], blame: blameList(r.blame) },
        };
      }
      default:
        throw new Error(`the Pulsar combiner has no step "${name}"`);
    }
  }

  free() {
    this.c.free();
  }
}

// ------------------------------------------------------------------------------ Lens (FROST)

class LensPartyEntity {
  constructor(lib, key, config) {
    this.p = new lib.LensParty({ id: key, curve: config.curve });
    if (config?.cheat) this.p.setMisbehaviour(cheatFlags(config.cheat));
  }

  step(name, input, inbox) {
    const p = this.p;
    switch (name) {
      // The DKG is the LSS kernel's Feldman DKG: the same rounds as Pulsar's.
      case 'dkg1':
        return { out: envelopes(p.dkgRound1(input.params), 'deal') };
      case 'dkg2':
        return { out: envelopes(p.dkgRound2(dealingInbox(inbox)), 'complaint') };
      case 'dkg3':
        return { out: envelopes(p.dkgRound3(dealingInbox(inbox)), 'response') };
      case 'dkgFinish':
        return { result: dealing(p.dkgFinish(dealingInbox(inbox))) };
      case 'reshare1':
        return { out: envelopes(p.reshareRound1(input.params), 'deal') };
      case 'reshare2':
        return { out: envelopes(p.reshareRound2(dealingInbox(inbox)), 'complaint') };
      case 'reshare3':
        return { out: envelopes(p.reshareRound3(dealingInbox(inbox)), 'response') };
      case 'reshareFinish':
        return { result: dealing(p.reshareFinish(dealingInbox(inbox))) };
      case 'sign1':
        return { out: [{ to: COORDINATOR, tag: 'commitments', bytes: p.signRound1() }] };
      case 'sign2':
        return { out: [{ to: COORDINATOR, tag: 'signature-share', bytes: p.signRound2(one(inbox, 'signing-package')) }] };
      case 'info': {
        const i = p.publicInfo();
        return { result: { ...i, parties: [...i.parties] } };
      }
      default:
        throw new Error(`a Lens party has no step "${name}"`);
    }
  }

  free() {
    this.p.free();
  }
}

class LensCoordinatorEntity {
  constructor(lib, key, config) {
    this.lib = lib;
    this.curve = config.curve;
    this.c = null;
  }

  step(name, input, inbox) {
    switch (name) {
      case 'setup': {
        // The public key package of the current generation (public data).
        this.c?.free();
        this.c = new this.lib.LensCoordinator({ curve: this.curve, publicPackage: input.publicPackage });
        return { result: { generation: this.c.generation } };
      }
      case 'package': {
        const message = input.activation ? this.c.activationMessage() : input.message;
        const pkg = this.c.signingPackage({ commitments: incoming(inbox, 'commitments'), message });
        return { out: [{ to: '*', tag: 'signing-package', bytes: pkg }] };
      }
      case 'aggregate': {
        const signature = this.c.aggregate({ shares: incoming(inbox, 'signature-share') });
        const result = { signature };
        if (input.activation) result.certificate = this.c.activationCertificate(signature);
        return { result };
      }
      default:
        throw new Error(`the Lens coordinator has no step "${name}"`);
    }
  }

  free() {
    this.c?.free();
  }
}

/** Build the entity of `role` hosted in this worker. */
export function createEntity(lib, role, key, config) {
  switch (role) {
    case 'pulsar-party':
      return new PulsarPartyEntity(lib, key, config);
    case 'pulsar-combiner':
      return new PulsarCombinerEntity(lib, key, config);
    case 'lens-party':
      return new LensPartyEntity(lib, key, config);
    case 'lens-coordinator':
      return new LensCoordinatorEntity(lib, key, config);
    default:
      throw new Error(`unknown role ${role}`);
  }
}

// ------------------------------------------------------------------------------ standard verifiers

let ed25519Support = null;

/** Verify an Ed25519 signature with the browser's own WebCrypto (null when unsupported). */
async function webCryptoEd25519(publicKey, message, signature) {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle || ed25519Support === false) return null;
  try {
    const key = await subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
    ed25519Support = true;
    return await subtle.verify({ name: 'Ed25519' }, key, signature, message);
  } catch (err) {
    if (ed25519Support === null && (err?.name === 'NotSupportedError' || err?.name === 'TypeError')) {
      ed25519Support = false;
      return null;
    }
    if (err?.name === 'DataError') return false; // a key that is not a curve point
    throw err;
  }
}

function mlDsaOf(lib, publicKey) {
  for (const level of [44, 65, 87]) {
    const s = lib[`mlDsa${level}`];
    if (s && s.lengths.publicKey === publicKey.length) return { s, level };
  }
  throw new RangeError(`a ${publicKey.length}-byte key is no ML-DSA public key`);
}

async function schnorrVerify(lib, curve, groupKey, message, signature) {
  if (curve === 'ed25519') {
    const web = await webCryptoEd25519(groupKey, message, signature);
    const own = lib.lens.verify(curve, groupKey, message, signature);
    if (web === null) {
      return { ok: own, verifier: 'Ed25519 verify (RFC 8032)', note: "quasar-pq's own verifier: this browser has no WebCrypto Ed25519" };
    }
    return {
      ok: web && own,
      verifier: 'WebCrypto Ed25519',
      note: `the browser's own Ed25519, which shares no code with quasar-pq (quasar-pq's RFC 8032 verify ${web === own ? 'agrees' : 'DISAGREES'})`,
      legs: { webcrypto: web, quasar: own },
    };
  }
  const ok = lib.lens.verify(curve, groupKey, message, signature);
  if (curve === 'secp256k1') {
    return { ok, verifier: 'BIP-340 Schnorr verify', note: "quasar-pq's BIP-340 verifier, with the x-only key (bytes 1–32 of the compressed group key)" };
  }
  return { ok, verifier: 'RFC 9591 Ristretto255 verify', note: "quasar-pq's single-signer verifier of RFC 9591 §6.2" };
}

/**
 * The standard verifiers: plain FIPS 204 ML-DSA for Pulsar, Ed25519 / BIP-340 / RFC 9591 for
 * Lens; for activation certificates, every leg (decode, the signature under the unchanged key
 * with the standard verifier, the library's certificate check).
 */
export async function standardVerify(lib, req) {
  switch (req.kind) {
    case 'pulsar': {
      const { s, level } = mlDsaOf(lib, req.groupKey);
      const ok = s.verify(req.signature, req.message, req.groupKey, { context: req.context ?? new Uint8Array(0) });
      return {
        ok,
        verifier: `ML-DSA-${level} verify (FIPS 204)`,
        note: 'the plain single-signer verifier of the "ML-DSA, one signer" tab: it knows nothing about thresholds',
      };
    }
    case 'lens':
      return schnorrVerify(lib, req.curve, req.groupKey, req.message, req.signature);
    case 'pulsar-activation': {
      const cert = lib.decodeActivationCertificate(req.certificate);
      const { s, level } = mlDsaOf(lib, req.groupKey);
      const sigOk = s.verify(cert.signature, cert.message, req.groupKey, { context: PULSAR_ACTIVATION_CONTEXT });
      const certOk = lib.pulsar.verifyActivation(req.groupKey, req.certificate);
      return {
        ok: sigOk && certOk && cert.kind === 'pulsar',
        verifier: `certificate check + ML-DSA-${level} verify of its signature`,
        legs: { signature: sigOk, certificate: certOk },
        generation: cert.generation,
        transcriptHash: cert.transcriptHash,
      };
    }
    case 'lens-activation': {
      const cert = lib.decodeActivationCertificate(req.certificate);
      const sig = await schnorrVerify(lib, req.curve, req.groupKey, cert.message, cert.signature);
      const certOk = lib.lens.verifyActivation(req.curve, req.groupKey, req.certificate);
      return {
        ok: sig.ok && certOk && cert.kind === 'lens',
        verifier: `certificate check + ${sig.verifier} of its signature`,
        legs: { signature: sig.ok, certificate: certOk },
        generation: cert.generation,
        transcriptHash: cert.transcriptHash,
      };
    }
    default:
      throw new Error(`unknown verification ${req.kind}`);
  }
}
