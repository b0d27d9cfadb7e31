// Types for the threshold-protocol API of `quasar-pq` (full build only; re-exported by
// `quasar-pq`, i.e. js/index.js). Await `init()` from 'quasar-pq' before constructing
// anything here.
//
// Shape of the API
// ----------------
// * A protocol **party** is a class instance (`LensParty`, `PulsarParty`) holding its
//   secret state in WebAssembly memory; a **coordinator** role (`LensCoordinator` for
//   FROST signing, `PulsarCombiner` for Pulsar custody) is a separate instance. Every
//   instance is independent: parties may live in different Web Workers / worker_threads /
//   processes, each with its own WASM instance, exchanging only the bytes below.
// * Every message is a `Uint8Array`. Round methods of the dealing protocols (DKG and
//   reshare) take an `Inbox` (what the network delivered to this party, each message
//   tagged with its authenticated sender `from`) and return a `RoundOutput`
//   (`broadcast` goes to every participant of the ceremony — sending it back to its own
//   sender too is allowed and harmless — and each `direct` message goes to `to` only,
//   over a confidential, authenticated channel).
// * Signing methods return bare `Uint8Array`s addressed to the coordinator/combiner
//   (or, for Pulsar round 1, broadcast to the other signers and the combiner).
// * Randomness: each instance takes a 32-byte `seed` (default: `crypto.getRandomValues`)
//   and keeps a ChaCha20 RNG seeded from it. The library never draws OS randomness.
//   Never give two instances the same seed.
// * Errors: library errors are thrown as `QuasarError` (`err.name === 'QuasarError'`)
//   with a stable `code`, the `module` and `culprits` (party ids to blame, maybe empty).
//   A message that does not decode is blamed on its transport sender (`culprits: [from]`)
//   where the protocol cannot continue without it; the robust protocols (LSS dealing,
//   the Pulsar combiner) instead exclude the sender and report it in `blame`/`dropped`.
//   Wrong argument types throw `TypeError`, wrong fixed lengths `RangeError`.
// * Calling a method out of order (e.g. `dkgRound2` before `dkgRound1`) throws a plain
//   `Error` whose message names the expected step; the party's state is unchanged. So does
//   a message that fails to decode where it throws (the ceremony can continue with the
//   right bytes). Any other QuasarError from a round aborts the ceremony in progress: the
//   party keeps the key share it had (`phase` is back to 'ready' or 'idle').
// * A round-1 method (`dkgRound1`, `reshareRound1`, `signRound1`, `keyCeremonyRound1`,
//   `activationRound1`) abandons any ceremony in progress and starts a new one.
// * `phase` is 'idle' (no share), 'ready' (holds a share, nothing running), or the step
//   just completed: 'dkg-1', 'dkg-2', 'dkg-3', 'reshare-1' … 'reshare-3', 'sign-1'.
// * Release WASM memory with `free()` (instances also implement `Symbol.dispose`, so
//   `using party = new LensParty(...)` works where the runtime supports it).
//
// Example: Pulsar custody, 3-of-5, everything in one thread (see js/test/protocols.test.mjs
// and js/test/package.test.mjs for the same through worker_threads)
// ----------------------------------------------------------------------------------------
//   import { init, PulsarParty, PulsarCombiner, verifyPulsar } from 'quasar-pq';
//   await init();
//   const sid = () => crypto.getRandomValues(new Uint8Array(32));   // one per ceremony
//   const ids = [1, 2, 3, 4, 5];
//   const parties = ids.map((id) => new PulsarParty({ id }));
//   // 1. Pedersen DKG (LSS): 3 message rounds + finish, identical parameters everywhere.
//   const dkg = { session: sid(), threshold: 3, parties: ids };
//   let out = parties.map((p) => p.dkgRound1(dkg));             // out[i]: RoundOutput of parties[i]
//   out = parties.map((p) => p.dkgRound2(route(out, p.id)));    // route(): see below
//   out = parties.map((p) => p.dkgRound3(route(out, p.id)));
//   const res = parties.map((p) => p.dkgFinish(route(out, p.id)));   // res[i].sharing, .blame
//   // 2. Key ceremony: t parties release their shares to a combiner, which derives the key.
//   const combiner = new PulsarCombiner({ id: 1000 });
//   const kc = { session: sid(), level: 65, signers: [1, 2, 3], combinerKey: combiner.newSessionKey() };
//   const r1 = kc.signers.map((id) => ({ from: id, bytes: parties[id - 1].keyCeremonyRound1(kc) }));
//   const r2 = kc.signers.map((id) => ({ from: id, bytes: parties[id - 1].signRound2(r1).bytes }));
//   const { announcement, groupKey } = combiner.finishKeyCeremony({ ...kc, sharing: res[0].sharing, round1: r1, round2: r2 });
//   for (const p of parties) p.keyCeremonyFinish({ announcement });      // every party checks it
//   // 3. Sign: any 3 signers and a fresh combiner key per session.
//   const { keyRecord, sharing } = parties[0].publicInfo();
//   const s = { session: sid(), signers: [2, 4, 5], combinerKey: combiner.newSessionKey(), message: msg };
//   const q1 = s.signers.map((id) => ({ from: id, bytes: parties[id - 1].signRound1(s) }));
//   const q2 = s.signers.map((id) => ({ from: id, bytes: parties[id - 1].signRound2(q1).bytes }));
//   const { signature } = combiner.sign({ ...s, keyRecord, sharing, round1: q1, round2: q2 });
//   verifyPulsar(groupKey, msg, signature);      // true: a plain FIPS 204 ML-DSA-65 signature
//   // 4. Reshare to (5, 9): old parties deal (reshareRound1 with their share), new ids
//   //    1..9 receive (new ones pass the old `sharing` and `keyRecord`), then the new set
//   //    signs the activation certificate: `activationRound1` + `signRound2` +
//   //    `combiner.activate(...)` → `certificate`; `pulsar.verifyActivation(groupKey, certificate)`.
//
//   // route(outs, id): the Inbox of party `id`, where outs[i] is what parties[i] sent:
//   // every broadcast, and the direct messages addressed to `id`, each tagged with its
//   // sender (a RoundOutput does not carry its sender: the transport knows it).
//   const route = (outs, id) => ({
//     broadcasts: outs.flatMap((o, i) => (o.broadcast ? [{ from: parties[i].id, bytes: o.broadcast }] : [])),
//     direct: outs.flatMap((o, i) =>
//       o.direct.filter((d) => d.to === id).map((d) => ({ from: parties[i].id, bytes: d.bytes }))),
//   });
//
// Example: Lens (FROST), 3-of-5 on Ed25519
// ----------------------------------------
//   import { init, LensParty, LensCoordinator, lens } from 'quasar-pq';
//   await init();
//   const parties = [1, 2, 3, 4, 5].map((id) => new LensParty({ id, curve: 'ed25519' }));
//   // 1. DKG (LSS, Feldman mode with proofs of knowledge): 3 message rounds + finish, as
//   //    Pulsar's; a cheating dealer is excluded and named in `blame`, the others finish.
//   const dkg = { session: sid(), threshold: 3, parties: [1, 2, 3, 4, 5] };
//   let out = parties.map((p) => p.dkgRound1(dkg));              // deal (broadcast) + shares (direct)
//   out = parties.map((p) => p.dkgRound2(route(out, p.id)));     // complaint (broadcast)
//   out = parties.map((p) => p.dkgRound3(route(out, p.id)));     // response (broadcast)
//   const res = parties.map((p) => p.dkgFinish(route(out, p.id)));   // res[i].groupKey, .publicPackage, .blame
//   const coord = new LensCoordinator({ curve: 'ed25519', publicPackage: res[0].publicPackage });
//   const signers = [1, 3, 5];
//   const commitments = signers.map((id) => ({ from: id, bytes: parties[id - 1].signRound1() }));
//   const pkg = coord.signingPackage({ commitments, message: msg });     // to every signer
//   const shares = signers.map((id) => ({ from: id, bytes: parties[id - 1].signRound2(pkg) }));
//   const signature = coord.aggregate({ shares });   // throws INVALID_SIGNATURE_SHARE, culprits
//   lens.verify('ed25519', res[0].groupKey, msg, signature);   // true; also any RFC 8032 verifier
//   // Reshare: reshareRound1..3 + reshareFinish (as the DKG), then the new set
//   // signs `newCoord.activationMessage()` and `newCoord.activationCertificate(sig)`;
//   // lens.verifyActivation('ed25519', groupKey, certificate) === true (same group key).

/** The Lens ciphersuites. */
export type LensCurve = 'ed25519' | 'secp256k1' | 'ristretto255';

/** ML-DSA parameter sets of Pulsar group keys. */
export type PulsarLevel = 44 | 65 | 87;

/** A message this party sends to one other party. */
export interface Outgoing {
  /** The recipient's party id. */
  to: number;
  bytes: Uint8Array;
}

/** A message delivered to this party, tagged with its authenticated sender. */
export interface Incoming {
  /** The sender's party id, as the transport authenticated it (not as the bytes claim). */
  from: number;
  bytes: Uint8Array;
}

/** What the network delivered to a party for one round. Missing lists mean empty. */
export interface Inbox {
  /** Broadcast messages of the previous round (this party's own may be included). */
  broadcasts?: Incoming[];
  /** Private messages of the previous round addressed to this party. */
  direct?: Incoming[];
}

/** What a party sends after a round of a dealing protocol. */
export interface RoundOutput {
  /** To every participant of the ceremony (absent when this party has nothing to say). */
  broadcast?: Uint8Array;
  /** Each to its recipient only (confidential, authenticated channel). Possibly empty. */
  direct: Outgoing[];
}

/** One party named for misbehaving, and why. */
export interface BlameEntry {
  /** The party blamed. */
  party: number;
  /**
   * Why, as a stable code. LSS dealing (DKG, reshare): 'MISSING_DEAL', 'MALFORMED_DEAL',
   * 'INVALID_PROOF', 'WRONG_CONSTANT', 'INVALID_COMMITMENT', 'UNANSWERED_COMPLAINT',
   * 'INVALID_OPENING', 'FALSE_COMPLAINT', 'INVALID_COMPLAINT'. Pulsar combiner: the
   * error code ('INVALID_SHARE', 'DECRYPTION_FAILED', 'WRONG_SESSION', …, or a decoding
   * code such as 'TOO_SHORT' for bytes that did not decode).
   */
  code: string;
  /** Human-readable explanation. */
  reason: string;
  /** The other party involved (the complainer or the accused dealer), when there is one. */
  related?: number;
}

/** Constructor options of every party and coordinator class. */
export interface PartyOptions {
  /** This party's id: an integer in 1..65535 (it is also its Shamir x-coordinate). */
  id: number;
  /** 32 bytes seeding this instance's ChaCha20 RNG (default: 32 fresh random bytes). */
  seed?: Uint8Array;
}

/** Cheating-party switches for demos and tests. Flags stay set until changed. */
export interface Misbehaviour {
  /**
   * Deal bad shares: in an LSS dealing (Pulsar DKG, any reshare) every private share this
   * party deals is off by one and, when receivers complain, it "opens" the same wrong
   * values — honest parties disqualify it ('INVALID_OPENING') and finish without it if
   * enough dealers remain. This holds for every dealing, the Lens and Pulsar DKGs included:
   * the cheater is named in `blame` (and, if fewer than t dealers qualify, in the
   * `culprits` of 'NOT_ENOUGH_QUALIFIED'). The cheater's own outcome is unspecified (it may
   * fail or diverge).
   */
  dealing?: boolean;
  /**
   * Send a bad signature share: Pulsar — the share sealed to the combiner is off by one
   * (the combiner excludes it and blames 'INVALID_SHARE'; signs if t valid shares
   * remain, else throws 'NOT_ENOUGH_VALID_SHARES' with `culprits`); Lens — the FROST
   * signature share is wrong (`aggregate` throws 'INVALID_SIGNATURE_SHARE' with
   * `culprits`; retry without them).
   */
  signing?: boolean;
}

/** Parameters of a distributed key generation, identical at every participant. */
export interface DkgParams {
  /** 32 bytes, unique to this run and the same at every participant. */
  session: Uint8Array;
  /** Signing threshold t (Lens: 2 ≤ t ≤ n; Pulsar: 1 ≤ t ≤ n). */
  threshold: number;
  /** All n participants' ids (any order; no duplicates). */
  parties: number[];
}

/** Outcome common to every LSS dealing (the Lens and Pulsar DKGs and every reshare). */
export interface DealingOutcome {
  /** Whether this party now holds a share of the (new) generation. */
  hasShare: boolean;
  /** Threshold of the new generation. */
  threshold: number;
  /** The new generation's parties, increasing. */
  parties: number[];
  /** Generation number: 0 after a DKG, +1 per reshare. */
  generation: number;
  /** Transcript hash of the dealing (32 bytes); bound into the activation certificate. */
  transcriptHash: Uint8Array;
  /** Dealers whose contributions were used, increasing. */
  qualified: number[];
  /**
   * Everyone blamed, identical at every honest party. After a DKG a disqualified dealer
   * still holds a share of the key (its contribution is not in it): leave it out of signing.
   */
  blame: BlameEntry[];
  /** Senders whose messages did not decode and were treated as missing, increasing. */
  dropped: number[];
}

// ---------------------------------------------------------------------------------------
// Lens: FROST (RFC 9591) with LSS resharing
// ---------------------------------------------------------------------------------------

/** A Lens group's public data. */
export interface LensPublicInfo {
  curve: LensCurve;
  /**
   * The group key: 32 bytes (Ed25519: RFC 8032 public key; Ristretto255) or 33 bytes
   * (secp256k1 SEC 1 compressed; the BIP-340 x-only key is bytes 1..33). Never changes.
   */
  groupKey: Uint8Array;
  /** The public key package (`LNPK`): what coordinators and new reshare receivers need. */
  publicPackage: Uint8Array;
  threshold: number;
  parties: number[];
  generation: number;
  transcriptHash: Uint8Array;
}

/** What `dkgFinish` / `reshareFinish` return on a Lens party. */
export interface LensDealingResult extends DealingOutcome, LensPublicInfo {}

/** Parameters of a reshare (LSS redistribution), identical at every participant. */
export interface LensReshareParams {
  /** 32 bytes, unique to this run. */
  session: Uint8Array;
  /** Old parties that deal: at least the old threshold (more lets a cheater be dropped). */
  dealers: number[];
  /** The new set (may overlap the old one or not). */
  receivers: number[];
  /** The new threshold. */
  threshold: number;
  /**
   * The current generation's public key package: required for parties without a share
   * (new receivers); a party holding a share uses its own (and, if given, it must match).
   */
  publicPackage?: Uint8Array;
}

/**
 * One Lens party. Participates in the DKG, signs (FROST rounds 1 and 2) and reshares.
 * Holds its key share and nonces in WASM memory.
 */
export declare class LensParty {
  /** @throws TypeError / RangeError for a bad id, seed or curve. */
  constructor(opts: PartyOptions & { curve: LensCurve });
  readonly id: number;
  readonly curve: LensCurve;
  /** 'idle', 'ready', or the step just completed ('dkg-1' … 'dkg-3', 'sign-1', 'reshare-1' …). */
  readonly phase: string;
  /** Whether the party holds a key share. */
  readonly hasShare: boolean;

  /**
   * DKG round 1 — the LSS kernel's DKG in Feldman mode with proofs of knowledge (the same
   * rounds as `PulsarParty`'s DKG; on secp256k1 the key is BIP-340 normalised and
   * BIP-341-tweaked as frost-secp256k1-tr's DKG keys are): returns `{ broadcast, direct }`
   * (the deal — commitments and proof of knowledge — and one share per other party).
   * @throws QuasarError 'INVALID_THRESHOLD' (Lens needs 2 ≤ t ≤ n), 'DUPLICATE_PARTY',
   *   'UNKNOWN_PARTY' (this party is not listed).
   */
  dkgRound1(params: DkgParams): RoundOutput;
  /**
   * DKG round 2: reads the deals (broadcasts) and the shares sent to this party (direct);
   * returns `{ broadcast }` (the complaint, empty when every share checked). A message that
   * does not decode is dropped (reported in `dropped`; a missing deal disqualifies its dealer).
   */
  dkgRound2(inbox: Inbox): RoundOutput;
  /** DKG round 3: reads the complaints; returns `{ broadcast }` (the response: openings, if any). */
  dkgRound3(inbox: Inbox): RoundOutput;
  /**
   * DKG finish: reads the responses; disqualifies cheating dealers (named in `blame`:
   * 'INVALID_OPENING', 'UNANSWERED_COMPLAINT', 'INVALID_PROOF', 'MISSING_DEAL', …) and stores
   * the key share (generation 0) made by the qualified ones.
   * @throws QuasarError 'NOT_ENOUGH_QUALIFIED' (culprits) when fewer than t dealers qualify.
   */
  dkgFinish(inbox: Inbox): LensDealingResult;

  /** Signing round 1: fresh nonces; returns the commitments, for the coordinator. */
  signRound1(): Uint8Array;
  /**
   * Signing round 2: signs the coordinator's signing package with the nonces of round 1
   * (consumed either way); returns the signature share, for the coordinator.
   * @throws QuasarError 'COMMITMENT_MISMATCH', 'EPOCH_MISMATCH', decoding codes.
   */
  signRound2(signingPackage: Uint8Array): Uint8Array;
  /** The message of a signing package (check what you sign before `signRound2`). */
  static packageMessage(curve: LensCurve, signingPackage: Uint8Array): Uint8Array;

  /** Reshare round 1 (every dealer and receiver): `{ broadcast?, direct }`. */
  reshareRound1(params: LensReshareParams): RoundOutput;
  /** Reshare round 2: reads deals (broadcasts) and shares (direct); returns the complaint broadcast. */
  reshareRound2(inbox: Inbox): RoundOutput;
  /** Reshare round 3: reads complaints (broadcasts); dealers return their response broadcast. */
  reshareRound3(inbox: Inbox): RoundOutput;
  /**
   * Reshare finish: reads responses (broadcasts); a receiver stores its new share (the old
   * one is replaced), a dealer that left keeps none. Same group key, generation + 1.
   * @throws QuasarError 'NOT_ENOUGH_QUALIFIED' (culprits) — the old share is kept then.
   */
  reshareFinish(inbox: Inbox): LensDealingResult;

  /** The current generation's public data. @throws Error without a key share. */
  publicInfo(): LensPublicInfo;
  /** Turn cheating on or off (see `Misbehaviour`). */
  setMisbehaviour(m: Misbehaviour): void;
  /** Seal the key share under a 32-byte key (`QSNP` snapshot, XChaCha20-Poly1305). */
  sealShare(snapshotKey: Uint8Array): Uint8Array;
  /** Restore a sealed key share of this party. @throws QuasarError 'WRONG_KEY', 'SNAPSHOT_CORRUPT', … */
  restoreShare(snapshot: Uint8Array, snapshotKey: Uint8Array): LensPublicInfo;
  /** Release the WASM memory (wiping secrets). */
  free(): void;
}

/**
 * The FROST coordinator of one Lens group: builds signing packages and aggregates
 * signature shares. Holds only public data (trusted for liveness, not for security).
 */
export declare class LensCoordinator {
  constructor(opts: { curve: LensCurve; publicPackage: Uint8Array });
  readonly curve: LensCurve;
  readonly groupKey: Uint8Array;
  readonly generation: number;
  /**
   * Build the signing package for `message` from the signers' round-1 commitments (at
   * least t); send it to every signer. Remembered for `aggregate`.
   * @throws QuasarError 'NOT_ENOUGH_SIGNERS', 'UNKNOWN_PARTY', 'EPOCH_MISMATCH' (culprits),
   *   'SENDER_MISMATCH' (culprits), decoding codes with `culprits: [from]`.
   */
  signingPackage(args: { commitments: Incoming[]; message: Uint8Array }): Uint8Array;
  /**
   * Aggregate the signature shares of the last signing package into a 64-byte Schnorr
   * signature (verified before it is returned).
   * @throws QuasarError 'INVALID_SIGNATURE_SHARE' with every bad signer in `culprits`.
   */
  aggregate(args: { shares: Incoming[] }): Uint8Array;
  /** The activation message of this package's generation (sign it with the new set). */
  activationMessage(): Uint8Array;
  /** The activation certificate (`LSA1`) from a signature on `activationMessage()`. */
  activationCertificate(signature: Uint8Array): Uint8Array;
  free(): void;
}

/** Stateless Lens functions. */
export declare const lens: {
  readonly curves: readonly LensCurve[];
  /**
   * Standard verification: Ed25519 (RFC 8032), BIP-340 (secp256k1; 33-byte or 32-byte
   * x-only key), RFC 9591 §6.2 (Ristretto255). False for any bad signature or key.
   */
  verify(curve: LensCurve, groupKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean;
  /**
   * Verify an activation certificate: a Lens certificate naming `groupKey`, with a valid
   * signature on its activation message under that key. False otherwise (never throws
   * for bad certificate bytes).
   */
  verifyActivation(curve: LensCurve, groupKey: Uint8Array, certificate: Uint8Array): boolean;
};

// ---------------------------------------------------------------------------------------
// Pulsar custody: threshold ML-DSA, combiner trusted while signing
// ---------------------------------------------------------------------------------------

/** A Pulsar group's public data. */
export interface PulsarPublicInfo {
  /** The LSS sharing (`LSG1`: Pedersen commitments, parties, generation, transcript). */
  sharing: Uint8Array;
  threshold: number;
  parties: number[];
  generation: number;
  transcriptHash: Uint8Array;
  /** After the key ceremony: the ML-DSA parameter set. */
  level?: PulsarLevel;
  /** After the key ceremony: the raw FIPS 204 public key (what verifiers use). */
  groupKey?: Uint8Array;
  /** After the key ceremony: the group-key record (`PCGK`) sessions and new parties need. */
  keyRecord?: Uint8Array;
}

/** What `dkgFinish` / `reshareFinish` return on a Pulsar party. */
export interface PulsarDealingResult extends DealingOutcome, PulsarPublicInfo {}

/** The group key, as the key ceremony produced it. */
export interface PulsarKeyInfo {
  level: PulsarLevel;
  /** Raw FIPS 204 public key. */
  groupKey: Uint8Array;
  /** The `PCGK` record. */
  keyRecord: Uint8Array;
}

/** Parameters of the key ceremony (after the DKG), identical at signers and combiner. */
export interface PulsarKeyCeremonyParams {
  session: Uint8Array;
  level: PulsarLevel;
  /** At least t members of the sharing. */
  signers: number[];
  /** The combiner's session key (`combiner.newSessionKey()`). */
  combinerKey: Uint8Array;
}

/** Parameters of a signing session, identical at signers and combiner. */
export interface PulsarSignParams {
  session: Uint8Array;
  /** At least t members of the current sharing. */
  signers: number[];
  combinerKey: Uint8Array;
  message: Uint8Array;
  /** FIPS 204 context string, at most 255 bytes (default empty). */
  context?: Uint8Array;
}

/** Parameters of the activation session of the current generation (new set signs). */
export interface PulsarActivationParams {
  session: Uint8Array;
  signers: number[];
  combinerKey: Uint8Array;
}

/** Parameters of a Pulsar reshare, identical at every participant. */
export interface PulsarReshareParams {
  session: Uint8Array;
  /** Old parties that deal (at least the old threshold). */
  dealers: number[];
  /** The new set. */
  receivers: number[];
  /** The new threshold. */
  threshold: number;
  /** The current sharing (`LSG1`): required for parties without a share. */
  sharing?: Uint8Array;
  /** The group-key record (`PCGK`): required for parties without a share. */
  keyRecord?: Uint8Array;
}

/** One Pulsar custody party: holds a Pedersen share of the group secret. */
export declare class PulsarParty {
  constructor(opts: PartyOptions);
  readonly id: number;
  /** 'idle', 'ready', or the step just completed ('dkg-1' … 'dkg-3', 'reshare-1' … 'reshare-3', 'sign-1'). */
  readonly phase: string;
  readonly hasShare: boolean;

  /** Pedersen DKG round 1 (LSS): `{ broadcast, direct }` (deal + one share per party). */
  dkgRound1(params: DkgParams): RoundOutput;
  /** DKG round 2: reads deals and shares; returns `{ broadcast }` (complaint, maybe empty). */
  dkgRound2(inbox: Inbox): RoundOutput;
  /** DKG round 3: reads complaints; returns `{ broadcast }` (response). */
  dkgRound3(inbox: Inbox): RoundOutput;
  /**
   * DKG finish: reads responses; stores the share. `blame` names disqualified dealers.
   * @throws QuasarError 'NOT_ENOUGH_QUALIFIED' (culprits).
   */
  dkgFinish(inbox: Inbox): PulsarDealingResult;

  /** Key-ceremony round 1 (signers only): returns the commitment to broadcast (`PCR1`). */
  keyCeremonyRound1(params: PulsarKeyCeremonyParams): Uint8Array;
  /**
   * Store the group key from the combiner's announcement (every party, signer or not),
   * after checking it against this party's sharing and its proof of possession.
   * @throws QuasarError 'GROUP_MISMATCH', 'INVALID_ANNOUNCEMENT', decoding codes.
   */
  keyCeremonyFinish(args: { announcement: Uint8Array }): PulsarKeyInfo;

  /** Signing round 1: seals this party's share to the combiner; returns the `PCR1` broadcast. */
  signRound1(params: PulsarSignParams): Uint8Array;
  /** Activation round 1: as `signRound1`, on the activation message of the current generation. */
  activationRound1(params: PulsarActivationParams): Uint8Array;
  /**
   * Round 2 of any custody session (key ceremony, signing, activation): reads the round-1
   * broadcasts of all signers; returns the envelope (`PCR2`) for the combiner.
   * @throws QuasarError 'CONFLICTING_MESSAGE', decoding codes with `culprits: [from]`.
   */
  signRound2(round1: Incoming[]): Outgoing;

  /** Reshare round 1 (dealers and receivers). */
  reshareRound1(params: PulsarReshareParams): RoundOutput;
  reshareRound2(inbox: Inbox): RoundOutput;
  reshareRound3(inbox: Inbox): RoundOutput;
  /** Reshare finish: receivers store the new share with the unchanged group key. */
  reshareFinish(inbox: Inbox): PulsarDealingResult;

  /** The current sharing and (after the key ceremony) the group key. @throws Error without a share. */
  publicInfo(): PulsarPublicInfo;
  setMisbehaviour(m: Misbehaviour): void;
  /** Seal the custody key share (after the key ceremony) under a 32-byte key. */
  sealShare(snapshotKey: Uint8Array): Uint8Array;
  /** Restore a sealed custody key share of this party. */
  restoreShare(snapshot: Uint8Array, snapshotKey: Uint8Array): PulsarPublicInfo;
  free(): void;
}

/** A combiner's result for a signing or activation session. */
export interface PulsarSigned {
  /** The FIPS 204 signature (verified before it is returned). */
  signature: Uint8Array;
  /** The t signers whose shares rebuilt the key. */
  signers: number[];
  /** Parties excluded and why. */
  blame: BlameEntry[];
}

/**
 * The Pulsar combiner: receives t encrypted shares, rebuilds the key in memory, signs,
 * verifies and zeroizes. **Trusted with the key while it signs.** One fresh ML-KEM-768
 * session key per session (`newSessionKey()`, consumed by the next finish/sign/activate).
 */
export declare class PulsarCombiner {
  constructor(opts: PartyOptions);
  readonly id: number;
  /** A fresh ML-KEM-768 session key; returns its public half (`PCEK`) for the signers. */
  newSessionKey(): Uint8Array;
  /**
   * Finish the key ceremony: open the envelopes, derive the ML-DSA key, sign the ceremony
   * transcript. Broadcast `announcement` to every party.
   * @throws QuasarError 'NOT_ENOUGH_VALID_SHARES' (culprits).
   */
  finishKeyCeremony(
    args: PulsarKeyCeremonyParams & { sharing: Uint8Array; round1: Incoming[]; round2: Incoming[] },
  ): PulsarKeyInfo & { announcement: Uint8Array; signers: number[]; blame: BlameEntry[] };
  /**
   * Combine a signing session (hedged FIPS 204 signing; `deterministic: true` for rnd = 0).
   * @throws QuasarError 'NOT_ENOUGH_VALID_SHARES' (culprits), 'GROUP_KEY_MISMATCH'.
   */
  sign(
    args: PulsarSignParams & {
      keyRecord: Uint8Array;
      sharing: Uint8Array;
      round1: Incoming[];
      round2: Incoming[];
      deterministic?: boolean;
    },
  ): PulsarSigned;
  /** Combine the activation session of `sharing`'s generation: also returns the certificate (`LSA1`). */
  activate(
    args: PulsarActivationParams & { keyRecord: Uint8Array; sharing: Uint8Array; round1: Incoming[]; round2: Incoming[] },
  ): PulsarSigned & { certificate: Uint8Array };
  free(): void;
}

/** Stateless Pulsar functions. */
export declare const pulsar: {
  readonly levels: readonly PulsarLevel[];
  /**
   * Plain FIPS 204 ML-DSA verification under the group key (level from the key length).
   * False for any bad signature. @throws RangeError for a key of no ML-DSA size.
   */
  verify(groupKey: Uint8Array, message: Uint8Array, signature: Uint8Array, opts?: { context?: Uint8Array }): boolean;
  /** Verify an activation certificate under the unchanged group key (raw key or keyRecord). False otherwise. */
  verifyActivation(groupKey: Uint8Array, certificate: Uint8Array): boolean;
};

/** `pulsar.verify`. */
export declare function verifyPulsar(
  groupKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
  opts?: { context?: Uint8Array },
): boolean;

/** The fields of an activation certificate (`LSA1`). */
export interface ActivationCertificateInfo {
  kind: 'pulsar' | 'lens';
  transcriptHash: Uint8Array;
  generation: number;
  /** Lens: the group key bytes; Pulsar: the `PULG` frame of the ML-DSA key. */
  groupKey: Uint8Array;
  signature: Uint8Array;
  /** The message that was signed. */
  message: Uint8Array;
}

/** Decode an activation certificate strictly. @throws QuasarError (decoding codes). */
export declare function decodeActivationCertificate(certificate: Uint8Array): ActivationCertificateInfo;

/** One sentence per trust model (DESIGN §3), for UIs. */
export declare const trustModels: {
  readonly pulsar: string;
  readonly lens: string;
  readonly lss: string;
};
