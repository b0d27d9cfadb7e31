// Types for the threshold protocols of `quasar-pq` (full build only; re-exported by
// `quasar-pq`, js/index.js). Await `init()` from 'quasar-pq' before calling anything here.
// js/test/declarations.test.mjs keeps this file and the exports equal.
//
// Shape of the API
// ----------------
// * Every protocol party is ONE class, `Party`: the library's own bytes-in/bytes-out state
//   machine, held in WebAssembly memory. A factory starts it (`lens.keygen(...)`,
//   `pulsar.sign.signer(...)`, …); `party.start` holds what its start sends; then, round by
//   round, `party.step(inbox)` takes the messages received for it, `[{ from, bytes }]`, and
//   returns `{ done, waiting, round, outgoing, outcome?, dropped }`, until `done`. Parties exchange
//   only `Uint8Array`s, so each may live in its own Web Worker, worker_thread or host, with
//   its own WASM instance. Routing: `outgoing.broadcast` goes to every other party of the
//   run, each `outgoing.direct[i]` to `direct[i].to` only (a confidential, authenticated
//   channel: it may carry a share); `from` must be the sender the transport authenticated.
//   Every unfinished party steps once per round on what the previous round sent to it; a
//   step that returns `waiting: true` means "not yet: step me again next round with what
//   arrives" (a result, never an error). Stop when every party is done. `run(parties)` does
//   all of this in one process (the Rust simulator's semantics); hosts that place parties
//   elsewhere only route bytes the same way.
// * Robustness: a peer's bad message (undecodable, wrong session, recipient, kind, sender,
//   generation, set, a duplicate) never throws and never costs the party its state: it is
//   dropped and named in `dropped` (and, for a proven protocol fault, in the outcome's
//   `blame`). A step throws only for the caller's own input (a TypeError / RangeError for a
//   malformed inbox, 'PARTY_FINISHED') or when too few honest parties remain
//   ('NOT_ENOUGH_QUALIFIED', 'NOT_ENOUGH_VALID_SHARES', …, with `culprits`); a party keeps
//   its whole state on every error, and an old key share is never touched.
// * Key shares never cross the boundary as bytes: they stay in WASM memory in holder objects
//   (`LensKeyShare`, `PulsarDkgShare`, `PulsarKeyShare`, `CoronaShare`) that factories take by
//   reference and outcomes return as `keyShare`; only `seal()` lets one out, encrypted. (A
//   trusted dealer's output is the exception: its per-party packages are secret bytes, each
//   for its party only, which loads it with `fromDealer`.)
// * Randomness: every factory takes `seed` (32 bytes: a fresh ChaCha20 generator) or `rng`
//   (an `Rng` the party continues across its factories); with neither it draws 32 bytes from
//   `crypto.getRandomValues`. The library never draws OS randomness itself. Never give two
//   parties the same seed.
// * Release WASM memory with `free()` (idempotent, never throws; secrets are wiped). Called
//   during a call (from a hook), the memory is released when that call returns; every member
//   then throws QuasarError 'USE_AFTER_FREE'. Party, key-share and Rng objects also implement
//   `[Symbol.dispose]` where the runtime has it (`using`).
// * A call made from inside another call into the same instance (a hook: a getter, a replaced
//   built-in) throws QuasarError 'REENTRANT_CALL'; the running call is unaffected.
// * Errors: QuasarError (`name: 'QuasarError'`, stable `code`, `module`, `culprits`);
//   a non-Uint8Array or an unknown option key is a TypeError, a wrong fixed length or an
//   id outside 1..65535 a RangeError. Codes are API (README, "Error codes").
// * A polluted realm changes nothing: options and inbox entries count only their own data
//   properties (nothing on Object.prototype is read as a `seed` or `from`; a getter
//   is a TypeError, refused before it runs); a list (`parties`, `signers`, an inbox) is copied
//   once, its `length` read once and bounded; curve names are checked against the package's
//   own table. Every object a step, a factory or a verifier returns has no prototype, so an
//   absent `outcome`, `broadcast` or `code` reads `undefined` whatever Object.prototype holds.
//
// Example: Pulsar custody, 3-of-5, every party in this thread. `run(parties)` is the loop
// above and `.of(party)` a finished party's outcome (js/test/types/run.ts; this flow,
// type-checked, is js/test/types/pulsar.ts; js/test/package.test.mjs runs one worker_thread
// per party).
// ----------------------------------------------------------------------------------------
//   import { init, pulsar, mlDsa65 } from 'quasar-pq';
//   await init();
//   const sid = () => crypto.getRandomValues(new Uint8Array(32));      // one per run
//   const ids = [1, 2, 3, 4, 5];
//   // 1. DKG (LSS Pedersen over Ristretto255).
//   const dkg = { session: sid(), parties: ids, threshold: 3 };
//   const dkgParties = ids.map((id) => pulsar.dkg({ ...dkg, id }));
//   const d = run(dkgParties);
//   const dkgShares = dkgParties.map((p) => d.of(p).keyShare!);        // PulsarDkgShare
//   const { sharing } = d.of(dkgParties[0]);
//   // 2. Key ceremony: t parties release their shares to a combiner, which derives the key.
//   const kc = pulsar.keyCeremony.combiner({ id: 100, level: 65, sharing, signers: [1, 2, 3], session: sid() });
//   const kcSigners = dkgShares.slice(0, 3).map((share) => pulsar.keyCeremony.signer({ share, session: kc.info.session! }));
//   const { announcement, groupKey } = run([kc, ...kcSigners]).of(kc);
//   // 3. Every party checks the announcement and proves possession: the certified key share.
//   const certs = dkgShares.map((share) => pulsar.certify({ share, announcement }));
//   const c = run(certs);
//   const shares = certs.map((p) => c.of(p).keyShare);                 // PulsarKeyShare
//   const { keyRecord } = c.of(certs[0]);
//   // 4. Sign with any t: a fresh combiner per session; each signer checks what it signs.
//   const sc = pulsar.sign.combiner({ id: 100, keyRecord, sharing, signers: [2, 4, 5], message, session: sid() });
//   const ss = [2, 4, 5].map((id) => pulsar.sign.signer({ share: shares[id - 1], session: sc.info.session!, message }));
//   const { signature } = run([sc, ...ss]).of(sc);
//   mlDsa65.verify(signature, message, groupKey);                       // true: a plain FIPS 204 signature
//   // 5. Reshare to {1..6}, t = 4: holders with their share, new member 6 with the public data.
//   const rs = { session: sid(), dealers: [1, 2, 3], receivers: [1, 2, 3, 4, 5, 6], threshold: 4 };
//   const rsParties = [...shares.map((share) => pulsar.reshare({ share, ...rs })),
//                      pulsar.reshareJoin({ keyRecord, sharing, id: 6, ...rs })];
//   const o6 = run(rsParties).of(rsParties[5]);
//   o6.activation.verified;   // true: the new set holds the key; only now may old shares be erased
//
// Example: Lens (FROST), 3-of-5 on Ed25519 (js/test/types/lens.ts)
// ----------------------------------------------------------------
//   import { init, lens, LensKeyShare } from 'quasar-pq';
//   await init();
//   const kg = { curve: 'ed25519', session: sid(), parties: [1, 2, 3, 4, 5], threshold: 3 } as const;
//   const kgParties = kg.parties.map((id) => lens.keygen({ ...kg, parties: [...kg.parties], id }));
//   const k = run(kgParties);
//   const shares = kgParties.map((p) => k.of(p).keyShare!);            // LensKeyShare
//   const { publicPackage, groupKey } = k.of(kgParties[0]);
//   //    (or a trusted dealer: lens.deal({ curve, parties, threshold }) and, at each party,
//   //    LensKeyShare.fromDealer(curve, dealerShare, publicPackage))
//   const coordinator = lens.coordinate({ publicPackage, id: 100, message });
//   const signers = [0, 2, 4].map((i) => lens.sign({ share: shares[i], coordinator: 100, message }));
//   const { signature } = run([coordinator, ...signers]).of(coordinator);
//   lens.verify('ed25519', groupKey, message, signature);               // true; any RFC 8032 verifier agrees
//   // Reshare: lens.reshare({ share, ...rs }) for holders, lens.reshareJoin({ publicPackage,
//   // id, ...rs }) for new members; each outcome's `activation.verified` says the new set
//   // holds the key, and lens.verifyActivation(newPackage, generation, transcriptHash,
//   // certificate) checks it anywhere.
//
// Example: Corona, 3-of-5 from a trusted dealer (js/test/corona.test.mjs)
// -----------------------------------------------------------------------
//   import { init, corona, CoronaShare } from 'quasar-pq';
//   await init();
//   const dealt = corona.deal({ threshold: 3, parties: 5 });           // the dealer knew the key
//   //    each party i, given dealt.shares[i - 1].keyPackage over a confidential channel:
//   const shares = dealt.shares.map((s) => CoronaShare.fromDealer(s.keyPackage, dealt.groupKey));
//   const sp = { session: sid(), signers: [1, 3, 4], message, context };   // any t ≤ |T| ≤ n (≤ 64)
//   const parties = sp.signers.map((id) => corona.signer({ ...sp, share: shares[id - 1] }));
//   const { signature } = run(parties).of(parties[0]);                  // every signer combines
//   corona.verify(dealt.groupKey, message, context, signature);         // true

// ---------------------------------------------------------------------------------------
// Messages, rounds, blame

/** The Lens ciphersuites. */
export type LensCurve = 'ed25519' | 'secp256k1' | 'ristretto255';

/** ML-DSA parameter sets of Pulsar group keys. */
export type PulsarLevel = 44 | 65 | 87;

/** One private message a party sends: to `to` only, over a confidential, authenticated channel. */
export interface Direct {
  /** The recipient's party id. */
  to: number;
  bytes: Uint8Array;
}

/** What a party sends after its start or a step. */
export interface Outgoing {
  /** To every other party of the run (reliable, authenticated broadcast), if anything. */
  broadcast?: Uint8Array;
  /** One private message per recipient, by increasing recipient (possibly none). */
  direct: Direct[];
}

/** One message received, with the sender the transport authenticated. */
export interface Incoming {
  /** The sender's party id as the transport authenticated it (every check and blame rests on it). */
  from: number;
  bytes: Uint8Array;
}

/** A round of a protocol: the number of the inbox the next step expects (1 = after the start) and what it does. */
export interface Round {
  number: number;
  /** e.g. 'check shares', 'answer complaints', 'sign'. */
  name: string;
}

/** Why a party was named: the stable code of the library's `BlameReason`. */
export type BlameCode =
  // A message dropped on the receiver's own evidence:
  | 'MALFORMED_MESSAGE'
  | 'WRONG_KIND'
  | 'UNKNOWN_PARTY'
  | 'SENDER_MISMATCH'
  | 'WRONG_SESSION'
  | 'WRONG_RECIPIENT'
  | 'WRONG_GENERATION'
  | 'WRONG_MESSAGE'
  | 'PARAMETER_MISMATCH'
  | 'DUPLICATE_MESSAGE'
  | 'CONFLICTING_MESSAGE'
  // A protocol fault proven by public evidence (dealing, signing, activation):
  | 'MISSING_DEAL'
  | 'MALFORMED_DEAL'
  | 'INVALID_PROOF'
  | 'WRONG_CONSTANT'
  | 'INVALID_COMMITMENT'
  | 'UNANSWERED_COMPLAINT'
  | 'INVALID_OPENING'
  | 'FALSE_COMPLAINT'
  | 'INVALID_COMPLAINT'
  | 'INVALID_SIGNATURE_SHARE'
  | 'INVALID_SHARE'
  | 'INVALID_POSSESSION_PROOF'
  | 'INVALID_ANNOUNCEMENT'
  | 'BROKEN_REVEAL'
  | 'INVALID_MAC'
  | 'DIFFERENT_CHALLENGE';

/** One party named for misbehaving, and why. */
export interface BlameEntry {
  /** The party blamed. */
  party: number;
  code: BlameCode;
  /** Human-readable explanation (the library's own text). */
  reason: string;
  /** The other party involved (the complainer or the accused dealer), when there is one. */
  related?: number;
}

/** A step that did not finish the party. */
export interface Running {
  done: false;
  waiting: false;
  /** The round the next step runs. */
  round: Round;
  /** What to send now. */
  outgoing: Outgoing;
  outcome?: undefined;
  /**
   * What the party reports dropping so far: a Pulsar committee member's drops as they happen;
   * empty for the robust protocols, whose final step reports every drop.
   */
  dropped: BlameEntry[];
}

/**
 * A step whose party needs more messages before it can act (the library's `Step::Waiting`,
 * round-based's `NeedsOneMoreMessage`): an ordinary result, not an error. Nothing to send;
 * the party keeps what it received and steps again with what arrives next.
 */
export interface Waiting {
  done: false;
  waiting: true;
  /** The round it is still in. */
  round: Round;
  /** Nothing: `{ direct: [] }`. */
  outgoing: Outgoing;
  outcome?: undefined;
  /** As `Running.dropped`: so far (a committee member stalled by a garbage sender names it here). */
  dropped: BlameEntry[];
}

/** The step that finished the party. */
export interface Finished<O> {
  done: true;
  waiting: false;
  round: null;
  /** Its last messages (a Pulsar signer's envelope, a combiner's announcement), possibly none. */
  outgoing: Outgoing;
  /** The protocol's result. */
  outcome: O;
  /** Every message this party dropped over the run, with its sender and why. */
  dropped: BlameEntry[];
}

/** What `party.step(inbox)` returns: `done`, `waiting` or running (one shape, two flags). */
export type StepResult<O> = Running | Waiting | Finished<O>;

/** The protocol a `Party` runs. */
export type Protocol =
  | 'lens-dealing'
  | 'lens-signer'
  | 'lens-coordinator'
  | 'pulsar-dkg'
  | 'pulsar-combiner'
  | 'pulsar-signer'
  | 'pulsar-certify'
  | 'pulsar-dealing'
  | 'pulsar-member'
  | 'lens-member'
  | 'pulsar-lifecycle-combiner'
  | 'corona-signer';

/** Public data of a party's start: a Pulsar combiner publishes its session and key. */
export interface PartyInfo {
  /** A Pulsar combiner's session (`PCSS`): give it to its signers' factories. */
  session?: Uint8Array;
  /** A Pulsar combiner's ML-KEM public key (`PCEK`), also inside the session. */
  combinerKey?: Uint8Array;
}

/**
 * One protocol party (any protocol), its state in WASM memory; made by the factories only
 * (`new Party()` throws a TypeError). `O` is its outcome.
 */
export declare class Party<O = unknown> {
  private constructor();
  /** This party's id. */
  readonly id: number;
  readonly protocol: Protocol;
  /** What its start sends: route `start.outgoing` before the first step. */
  readonly start: Running;
  readonly info: PartyInfo;
  /** The round the next step runs, or null once done. */
  readonly round: Round | null;
  readonly done: boolean;
  /** The largest inbox a step accepts, in bytes (6 bytes of framing per message included). */
  readonly maxInboxBytes: number;
  /**
   * Runs one round on `inbox`, the messages received for this party since its last step.
   * Every entry is checked and copied before the party is touched; a peer's bad bytes are
   * dropped (`dropped`), never thrown.
   * @throws TypeError for an inbox that is not `[{ from, bytes: Uint8Array }]` (own data
   *   properties: a getter, a hole or an inherited `from` is refused); RangeError for a
   *   `from` outside 1..65535, an inbox over `maxInboxBytes` or of more than
   *   `maxInboxBytes / 6` entries; QuasarError 'PARTY_FINISHED',
   *   'NOT_ENOUGH_QUALIFIED', 'NOT_ENOUGH_DEALERS', 'NOT_ENOUGH_POSSESSION_PROOFS',
   *   'NOT_ENOUGH_VALID_SHARES' (with `blame`), 'NOT_ENOUGH_SIGNERS', 'INVALID_SIGNATURE_SHARE'
   *   (a Lens coordinator: `culprits`), 'USE_AFTER_FREE', 'INSTANCE_POISONED'. The party
   *   keeps its whole state on every error.
   */
  step(inbox: Incoming[]): StepResult<O>;
  /** Release the WASM memory (its secrets are wiped). Idempotent. */
  free(): void;
}

/**
 * A party's generator: ChaCha20 seeded with 32 bytes, held in WASM memory. Pass the same one
 * as `rng` to every factory a party calls and the party draws one stream across its
 * protocols, in protocol order — as a native party drawing from one
 * `ChaCha20Rng::from_seed(seed)` does (kats/ are made so). For reproducible runs.
 */
export declare class Rng {
  private constructor();
  /** @throws TypeError unless a Uint8Array; RangeError unless 32 bytes. */
  static fromSeed(seed: Uint8Array): Rng;
  /** Release it (its state is overwritten). */
  free(): void;
}

/** The randomness option of every factory (at most one of the two). */
export interface Randomness {
  /** 32 bytes seeding a fresh ChaCha20 generator for this call (default: 32 random bytes). */
  seed?: Uint8Array;
  /** A generator this party continues (see `Rng`). With `seed` too: TypeError. */
  rng?: Rng;
}

// ---------------------------------------------------------------------------------------
// Dealings (Lens key generation, Pulsar DKG, refresh, reshare)

/** The activation certificate a refresh or reshare ends with, as this party checked it. */
export interface Activation {
  /** The `LSA2` certificate: t_new proofs of possession of the new shares. */
  certificate: Uint8Array;
  generation: number;
  transcriptHash: Uint8Array;
  /** The members whose proofs it holds, increasing. */
  members: number[];
  /**
   * Whether it verified against the new generation, for the generation (old + 1) and the
   * dealing this party expects. Erase an old share only once this is true.
   */
  verified: boolean;
}

/** What every dealing outcome reports besides its public data. */
export interface DealingReport {
  /** Dealers whose contributions were used, increasing. */
  qualified: number[];
  /** Protocol faults proven by public evidence, the same at every honest party. */
  blame: BlameEntry[];
  /** Messages this party dropped, with their senders and why. */
  dropped: BlameEntry[];
}

/** The parameters of a reshare, identical at every participant. */
export interface ReshareParams {
  /** 32 bytes, unique to this run. */
  session: Uint8Array;
  /** Old holders that deal: at least the old threshold (more lets a faulty dealer be dropped). */
  dealers: number[];
  /** The new set (may overlap the old one or not). */
  receivers: number[];
  /** The new threshold. */
  threshold: number;
}

// ---------------------------------------------------------------------------------------
// Lens: FROST (RFC 9591) with LSS dealing

/** The public data of a Lens key's generation. */
export interface LensPublicInfo {
  curve: LensCurve;
  /**
   * The group key, 32 bytes on every curve: the Ed25519 (RFC 8032) key, the Ristretto255
   * encoding, or on secp256k1 BIP-340's x-only key (what `lens.verify`, any BIP-340
   * verifier and Taproot tooling take as is). Never changes.
   */
  groupKey: Uint8Array;
  /** The public key package (`LNPK`): what coordinators and new members need. */
  publicPackage: Uint8Array;
  threshold: number;
  parties: number[];
  /** 0 after key generation, + 1 per refresh or reshare. */
  generation: number;
  /** The dealing's transcript hash (32 bytes; a dealer's key has its own). */
  transcriptHash: Uint8Array;
}

/** `LensKeyShare.publicInfo()`. */
export interface LensShareInfo extends LensPublicInfo {
  /** The owner's id. */
  id: number;
}

/** The outcome of a Lens dealing party (`protocol` 'lens-dealing'). */
export interface LensDealingOutcome extends LensPublicInfo, DealingReport {
  /** Refresh and reshare only. */
  activation?: Activation;
  /** This party's new share, if it is a receiver (an old dealer that leaves gets none). */
  keyShare?: LensKeyShare;
}

/** The outcome of a FROST signer (`protocol` 'lens-signer'). */
export interface LensSignerOutcome {
  /** The signers of the coordinator's signing package. */
  signers: number[];
  dropped: BlameEntry[];
}

/** The outcome of a FROST coordinator (`protocol` 'lens-coordinator'). */
export interface LensCoordinatorOutcome {
  /** 64 bytes: a standard Ed25519 / BIP-340 / RFC 9591 signature, verified before it is returned. */
  signature: Uint8Array;
  signers: number[];
  dropped: BlameEntry[];
}

/** What `lens.deal` returns. */
export interface LensDealt {
  /** The public key package (`LNPK`): publish it to every party. */
  publicPackage: Uint8Array;
  /** One `LNDS` share per party, by increasing id. Secret: each to its party only. */
  shares: { id: number; dealerShare: Uint8Array }[];
}

/**
 * An activation verdict: never a throw for the certificate's bytes. A null-prototype object:
 * `ok` is its own; `code` and `reason` only when `ok` is false.
 */
export type Verdict =
  | { ok: true }
  | {
      ok: false;
      /**
       * 'ACTIVATION_WRONG_GROUP', 'ACTIVATION_WRONG_KEY', 'ACTIVATION_WRONG_GENERATION',
       * 'ACTIVATION_WRONG_TRANSCRIPT', 'ACTIVATION_TOO_FEW_MEMBERS', 'ACTIVATION_NOT_A_MEMBER',
       * 'ACTIVATION_INVALID_PROOF', or a decoding code ('TOO_SHORT', 'BAD_MAGIC', …).
       */
      code: string;
      reason: string;
    };

/** A Lens key share, in WASM memory. */
/** A Lens member's keyring, in WASM memory (as `PulsarKeyring`, for Lens key shares). */
export declare class LensKeyring {
  private constructor();
  /** An empty keyring (a member joining the group at a reshare). */
  static empty(): LensKeyring;
  /** A keyring holding a copy of `share` as its current generation. */
  static fromShare(share: LensKeyShare): LensKeyring;
  readonly generation: number | undefined;
  readonly pendingGeneration: number | undefined;
  /** The current share's public data, or null (empty). */
  publicInfo(): LensShareInfo | null;
  /** A copy of the current share (to seal it). @throws QuasarError 'MISSING_OLD_SHARE' when empty. */
  current(): LensKeyShare;
  free(): void;
}

/** A Lens lifecycle member's key-generation outcome (`protocol` 'lens-member'). */
export interface LensMemberSetup extends LensPublicInfo, DealingReport {
  path: 'keygen';
  keyring: LensKeyring;
}

/** A Lens lifecycle member's sign outcome. */
export interface LensMemberSigned extends LensSignerOutcome {
  path: 'sign';
}

/** A Lens lifecycle member's reshare outcome. */
export interface LensMemberReshared extends LensPublicInfo, DealingReport {
  path: 'reshare';
  activation?: Activation;
  /** Whether the keyring accepted the certificate (the old share erased) or refused it (kept). */
  activated: PulsarActivated;
  keyring: LensKeyring;
}

export declare class LensKeyShare {
  private constructor();
  /** The owner's id. */
  readonly id: number;
  publicInfo(): LensShareInfo;
  /** Seal the share (`LNKS`) under a 32-byte snapshot key: a `QSNP` snapshot (XChaCha20-Poly1305). */
  seal(snapshotKey: Uint8Array): Uint8Array;
  /** Release it (the share is wiped). */
  free(): void;
  /**
   * Restore a sealed share.
   * @throws QuasarError 'SNAPSHOT_MALFORMED', 'SNAPSHOT_CORRUPT', 'WRONG_KEY', decoding codes.
   */
  static restore(curve: LensCurve, snapshot: Uint8Array, snapshotKey: Uint8Array): LensKeyShare;
  /**
   * Accept the share a trusted dealer sent (`LNDS`, from `lens.deal`), checked against the
   * dealer's public key package (`LNPK`, the same at every party; RFC 9591 Appendix C.2).
   * The share's `id` is its recipient's: check it is yours.
   * @throws QuasarError 'WRONG_CURVE', 'WRONG_GENERATION', 'UNKNOWN_PARTY',
   *   'INVALID_SHARE' (the share or the commitment does not match the package), decoding codes.
   */
  static fromDealer(curve: LensCurve, dealerShare: Uint8Array, publicPackage: Uint8Array): LensKeyShare;
}

/** Lens factories and verifiers. Trust model: `trustModels.lens`, `trustModels.lss`. */
export declare const lens: {
  readonly curves: readonly LensCurve[];
  /**
   * The Lens lifecycle, one party per role (the library's `lens::lifecycle`): key generation
   * into a keyring, signing from it, reshare → activation back into it. Run with `run`.
   */
  readonly lifecycle: {
    readonly member: {
      keygen(opts: { curve: LensCurve; session: Uint8Array; members: number[]; threshold: number; id: number } & Randomness): Party<LensMemberSetup>;
      /** @throws QuasarError 'MISSING_OLD_SHARE' for an empty keyring. */
      sign(opts: { keyring: LensKeyring; coordinator: number; message: Uint8Array } & Randomness): Party<LensMemberSigned>;
      /** A joining member passes `LensKeyring.empty()` and the current `publicPackage`. */
      reshare(opts: ReshareParams & { keyring: LensKeyring; id: number; publicPackage?: Uint8Array } & Randomness): Party<LensMemberReshared>;
    };
    readonly coordinator: {
      sign(opts: { publicPackage: Uint8Array; id: number; message: Uint8Array }): Party<LensCoordinatorOutcome>;
    };
  };
  /**
   * A trusted dealer's key generation (RFC 9591 Appendix C) for `parties` with threshold
   * `threshold`, generation 0. **The dealer sees the key**: prefer `lens.keygen`.
   * @throws QuasarError 'INVALID_THRESHOLD' (2 ≤ t ≤ n), 'DUPLICATE_PARTY'.
   */
  deal(opts: { curve: LensCurve; parties: number[]; threshold: number } & Randomness): LensDealt;
  /**
   * Party `id` of a key generation (the LSS Feldman DKG with proofs of knowledge; on
   * secp256k1 the key is BIP-340 normalised) among `parties` with threshold `threshold`.
   * @throws QuasarError 'INVALID_THRESHOLD', 'DUPLICATE_PARTY', 'NOT_A_PARTICIPANT'.
   */
  keygen(
    opts: { curve: LensCurve; session: Uint8Array; parties: number[]; threshold: number; id: number } & Randomness,
  ): Party<LensDealingOutcome>;
  /**
   * The holder of `share` in a reshare (same group key, generation + 1, ending with the
   * activation round).
   * @throws QuasarError 'INVALID_THRESHOLD', 'DUPLICATE_PARTY', 'NOT_A_PARTICIPANT',
   *   'DEALER_NOT_IN_OLD_SET', 'NOT_ENOUGH_DEALERS'.
   */
  reshare(opts: { share: LensKeyShare } & ReshareParams & Randomness): Party<LensDealingOutcome>;
  /**
   * A new receiver `id` (no share yet) of a reshare of the key whose current package is
   * `publicPackage`.
   * @throws as `reshare`; decoding codes of the package.
   */
  reshareJoin(opts: { publicPackage: Uint8Array; id: number } & ReshareParams & Randomness): Party<LensDealingOutcome>;
  /**
   * The holder of `share` in a refresh (same set and threshold, fresh shares) dealt by `dealers`.
   * @throws QuasarError 'NOT_ENOUGH_DEALERS', 'DEALER_NOT_IN_OLD_SET'.
   */
  refresh(opts: { share: LensKeyShare; session: Uint8Array; dealers: number[] } & Randomness): Party<LensDealingOutcome>;
  /**
   * A FROST signer of `message` with `share`, sending to `coordinator` (a signer checks the
   * coordinator's package signs exactly this message).
   * @throws QuasarError 'RESERVED_MESSAGE' (a message starting with an activation tag);
   *   RangeError for a message over `constants.maxMessageBytes`.
   */
  sign(opts: { share: LensKeyShare; coordinator: number; message: Uint8Array } & Randomness): Party<LensSignerOutcome>;
  /**
   * The coordinator `id` of a session signing `message` under the key of `publicPackage`
   * (public data only; trusted for liveness, not security). Draws nothing.
   * @throws decoding codes of the package.
   */
  coordinate(opts: { publicPackage: Uint8Array; id: number; message: Uint8Array }): Party<LensCoordinatorOutcome>;
  /**
   * Standard verification: Ed25519 (RFC 8032), BIP-340 (secp256k1, with the 32-byte x-only
   * key exactly as BIP-340 gives it), RFC 9591 §6.2 (Ristretto255). False for any bad
   * signature or key.
   * @throws RangeError for an unknown curve or a key that is not 32 bytes (a 33-byte
   *   SEC 1 secp256k1 key included: the x-only key is its one accepted encoding).
   */
  verify(curve: LensCurve, groupKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean;
  /**
   * Whether `certificate` activates generation `generation` of the dealing with transcript
   * hash `transcriptHash` for the key of `publicPackage` (the NEW generation's package).
   * @throws decoding codes of the package (the verifier's own input); RangeError for a bad
   *   generation or a transcript hash that is not 32 bytes.
   */
  verifyActivation(publicPackage: Uint8Array, generation: number, transcriptHash: Uint8Array, certificate: Uint8Array): Verdict;
};

// ---------------------------------------------------------------------------------------
// Pulsar custody: threshold ML-DSA, the combiner trusted while it signs

/** The public data of a Pulsar sharing's generation. */
export interface PulsarSharingInfo {
  /** The LSS sharing (`LSG1`: Pedersen commitments, parties, generation, transcript). */
  sharing: Uint8Array;
  threshold: number;
  parties: number[];
  generation: number;
  transcriptHash: Uint8Array;
}

/** A certified Pulsar group key. */
export interface PulsarKeyInfo {
  level: PulsarLevel;
  /** The raw FIPS 204 public key: what verifiers use. */
  groupKey: Uint8Array;
  /** The group key record (`PCGK`, with its generation's `LSA2` certificate): what combiners and new members need. */
  keyRecord: Uint8Array;
}

/** The outcome of a Pulsar DKG party (`protocol` 'pulsar-dkg'). */
export interface PulsarDkgOutcome extends PulsarSharingInfo, DealingReport {
  /** This party's share, before the key ceremony. */
  keyShare?: PulsarDkgShare;
}

/** A key ceremony combiner's outcome (`protocol` 'pulsar-combiner'). */
export interface PulsarAnnounced {
  /** The announcement (`PCKA`), also the combiner's last broadcast: every party certifies it. */
  announcement: Uint8Array;
  groupKey: Uint8Array;
  level: PulsarLevel;
  signers: number[];
  blame: BlameEntry[];
  dropped: BlameEntry[];
}

/** A signing combiner's outcome (`protocol` 'pulsar-combiner'). */
export interface PulsarSigned {
  /** The FIPS 204 signature, verified before it is returned. */
  signature: Uint8Array;
  /** The signature's `PULS` frame. */
  frame: Uint8Array;
  level: PulsarLevel;
  /** The t signers whose shares rebuilt the key. */
  signers: number[];
  /** Committed signers whose envelope never arrived intact (not blamed: no evidence), increasing. */
  missing: number[];
  /** How many received envelopes matched no commitment (discarded). */
  unattributed: number;
  blame: BlameEntry[];
  dropped: BlameEntry[];
}

/** A custody signer's outcome (`protocol` 'pulsar-signer'). */
export interface PulsarSignerOutcome {
  /** The signers whose round-1 commitments this party saw. */
  committed: number[];
  dropped: BlameEntry[];
}

/** A key certification party's outcome (`protocol` 'pulsar-certify'). */
export interface PulsarCertifyOutcome extends PulsarKeyInfo {
  /** The `LSA2` certificate binding the key to the sharing (generation 0). */
  certificate: Uint8Array;
  members: number[];
  /** This party's custody share with the certified key. */
  keyShare: PulsarKeyShare;
  dropped: BlameEntry[];
}

/** A Pulsar refresh or reshare party's outcome (`protocol` 'pulsar-dealing'). */
export interface PulsarDealingOutcome extends PulsarSharingInfo, DealingReport, Partial<PulsarKeyInfo> {
  activation: Activation;
  /** A receiver's new share, only when `activation.verified` (with the re-certified key). */
  keyShare?: PulsarKeyShare;
}

/**
 * A Pulsar member's keyring, in WASM memory: its current share and a generation dealt but not
 * yet activated. A lifecycle setup member's outcome holds one; a lifecycle reshare takes it
 * (empty meanwhile) and its outcome holds it again — the new generation current only if the
 * activation certificate verified, the only way the old share is erased.
 */
export declare class PulsarKeyring {
  private constructor();
  /** An empty keyring (a member joining the group at a reshare). */
  static empty(): PulsarKeyring;
  /** A keyring holding a copy of `share` as its current generation. */
  static fromShare(share: PulsarKeyShare): PulsarKeyring;
  /** The current generation, or undefined (empty). */
  readonly generation: number | undefined;
  /** The generation dealt but not yet activated, or undefined. */
  readonly pendingGeneration: number | undefined;
  /** The current share's public data, or null (empty). */
  publicInfo(): (PulsarSharingInfo & PulsarKeyInfo & { id: number }) | null;
  /** A copy of the current share (to seal it). @throws QuasarError 'MISSING_OLD_SHARE' when empty. */
  current(): PulsarKeyShare;
  free(): void;
}

/** A lifecycle member's setup outcome (`protocol` 'pulsar-member'). */
export interface PulsarMemberSetup extends PulsarSharingInfo, PulsarKeyInfo, DealingReport {
  path: 'setup';
  /** The member's keyring, its certified share current. */
  keyring: PulsarKeyring;
}

/** A lifecycle member's sign outcome (it released its share to the combiner). */
export interface PulsarMemberReleased extends PulsarSignerOutcome {
  path: 'sign';
}

/** What a keyring did with an activation certificate. */
export type PulsarActivated =
  | { ok: true; generation: number; member: boolean; erased?: number }
  | { ok: false; code: string; reason: string };

/** A lifecycle member's reshare outcome. */
export interface PulsarMemberReshared extends PulsarSharingInfo, DealingReport, Partial<PulsarKeyInfo> {
  path: 'reshare';
  /** The certificate of the new generation, as this party checked it. */
  activation?: Activation;
  /** Whether the keyring accepted it (the old share erased) or refused it (the old share kept). */
  activated: PulsarActivated;
  /** The member's keyring back. */
  keyring: PulsarKeyring;
}

/** A lifecycle combiner's setup outcome: the group's certified public record. */
export interface PulsarCombinerCertified extends PulsarSharingInfo, PulsarKeyInfo {
  path: 'setup';
  /** The announcement (`PCKA`) the members certified. */
  announcement: Uint8Array;
  dropped: BlameEntry[];
}

/** A Pulsar DKG share before the key ceremony certified a group key, in WASM memory. */
export declare class PulsarDkgShare {
  private constructor();
  readonly id: number;
  publicInfo(): PulsarSharingInfo & { id: number };
  free(): void;
}

/** A Pulsar custody key share (its LSS share and the certified group key), in WASM memory. */
export declare class PulsarKeyShare {
  private constructor();
  readonly id: number;
  publicInfo(): PulsarSharingInfo & PulsarKeyInfo & { id: number };
  /** Seal the share (`PCKS`) under a 32-byte snapshot key: a `QSNP` snapshot. */
  seal(snapshotKey: Uint8Array): Uint8Array;
  free(): void;
  /**
   * Restore a sealed share; its group key's certificate is checked again.
   * @throws QuasarError key-storage codes (module 'keystore'), decoding codes, 'GROUP_MISMATCH', 'ACTIVATION_*'.
   */
  static restore(snapshot: Uint8Array, snapshotKey: Uint8Array): PulsarKeyShare;
}

/** A Pulsar committee key's public fields. */
export interface CommitteeKeyInfo {
  level: PulsarLevel;
  /** Signers needed: exactly this many sign. */
  threshold: number;
  /** The members, increasing. */
  members: number[];
  /** The standard FIPS 204 public key its signatures verify under (`pulsar.verify`). */
  publicKey: Uint8Array;
  /** The committee key (`PQCK`: level, threshold, members, public key). */
  key: Uint8Array;
  /** Parallel slots per signing run (the scheme's K). */
  slots: number;
}

/** A trusted dealer's split. */
export interface CommitteeDealt extends CommitteeKeyInfo {
  /** One share per member, in member order: each `dealerShare` (`PQCS`, secret) for its member only. */
  shares: { id: number; dealerShare: Uint8Array }[];
}

/** A member's outcome of the committee's key generation. */
export interface CommitteeKeyed extends CommitteeKeyInfo {
  keyShare: PulsarCommitteeShare;
  dropped: BlameEntry[];
}

/** A committee signer's outcome: every signer ends with the same signature. */
export interface CommitteeSigned {
  /** The FIPS 204 signature, verified under the committee's public key before it was returned. */
  signature: Uint8Array;
  level: PulsarLevel;
  /** Runs it took (each succeeds with probability ≥ ½; a failed run restarts itself). */
  runs: number;
  /** The slot of the last run that gave the signature. */
  slot: number;
  /** Bytes this signer broadcast over the session. */
  bytesSent: number;
  /** Slots this signer's local rejection test refused over the session. */
  rejected: number;
  dropped: BlameEntry[];
}

/** A Pulsar committee member's share (`PQCS`: the seeds of its subsets), in WASM memory. */
export declare class PulsarCommitteeShare {
  private constructor();
  readonly id: number;
  publicInfo(): CommitteeKeyInfo & { id: number; subsets: number };
  /** Seal the share (`PQCS`) under a 32-byte snapshot key: a `QSNP` snapshot. */
  seal(snapshotKey: Uint8Array): Uint8Array;
  free(): void;
  /** The share a trusted dealer sent, checked against the committee `key` (`PQCK`). @throws QuasarError 'GROUP_MISMATCH', decoding codes. */
  static fromDealer(dealerShare: Uint8Array, key: Uint8Array): PulsarCommitteeShare;
  /** Restore a sealed committee share. @throws QuasarError key-storage and decoding codes. */
  static restore(snapshot: Uint8Array, snapshotKey: Uint8Array): PulsarCommitteeShare;
}

/** A signing session's message: the combiner's and every signer's must be the same. */
export interface PulsarMessage {
  message: Uint8Array;
  /** FIPS 204 context, at most 255 bytes (default empty); `constants.pulsarActivationContext` is reserved. */
  context?: Uint8Array;
}

/** Pulsar custody factories and verifiers. Trust model: `trustModels.pulsar`. */
export declare const pulsar: {
  readonly levels: readonly PulsarLevel[];
  /**
   * The Pulsar committee: threshold ML-DSA with no reconstruction, 2 ≤ T ≤ N ≤ 6 (trust model:
   * `trustModels.pulsarCommittee`). Exactly T members sign; each broadcasts three messages per
   * run (`PQC1` commitment, `PQC2` reveal, `PQC3` responses) and combines the signature itself.
   */
  readonly committee: {
    readonly maxParties: 6;
    /** A trusted dealer's split (this call knows the key while it deals and keeps nothing). @throws 'INVALID_COMMITTEE' */
    deal(opts: { level: PulsarLevel; threshold: number; members: number[] } & Randomness): CommitteeDealt;
    /** Member `id` of the distributed key generation (`PQD1`–`PQD4`; `PQD2` is private). */
    keygen(opts: { session: Uint8Array; level: PulsarLevel; threshold: number; members: number[]; id: number } & Randomness): Party<CommitteeKeyed>;
    /** The holder of `share` as one of exactly T `signers` of `message` (at most `maxRuns` runs, default 32). */
    signer(opts: { share: PulsarCommitteeShare; session: Uint8Array; signers: number[]; message: Uint8Array; context?: Uint8Array; maxRuns?: number } & Randomness): Party<CommitteeSigned>;
  };
  /**
   * The direct-message envelope (ML-KEM-768 + XChaCha20-Poly1305 bound to `aad`) for hosts that
   * carry secret messages over a network; keys are `quasar node keys` process keys.
   */
  readonly envelope: {
    /** The longest message sealed here (131,072 bytes: a direct message — a share, a key package). */
    readonly maxMessage: number;
    /** A fresh ML-KEM-768 key pair: the `PCEK` encapsulation key to publish and the secret key. */
    keygen(opts?: { id?: number } & Randomness): { encapsulationKey: Uint8Array; key: Uint8Array };
    /** Seals `message` (at most `maxMessage` bytes) for the holder of the encapsulation key `recipient` (`PCEK`), bound to `aad` (at most 4,096 bytes). @throws QuasarError decoding codes. */
    seal(opts: { recipient: Uint8Array; aad: Uint8Array; message: Uint8Array } & Randomness): Uint8Array;
    /** Opens `sealed` with the recipient's secret `key`. @throws QuasarError 'ENVELOPE_NOT_OPENED', decoding codes. */
    open(opts: { key: Uint8Array; aad: Uint8Array; sealed: Uint8Array }): Uint8Array;
  };
  /**
   * The whole custody lifecycle, one party per role (the library's
   * `pulsar::custody::lifecycle`): setup (DKG → key ceremony → certification), sign, reshare →
   * activation. What the single-protocol factories hand around out of band travels as the
   * parties' own messages: run them with `run` (or route their bytes).
   */
  readonly lifecycle: {
    readonly member: {
      /**
       * Member `id` of a group's setup: `members` with threshold `threshold`, whose key
       * `signers` let `combiner` derive at `level`.
       * @throws QuasarError 'INVALID_THRESHOLD', 'DUPLICATE_PARTY', 'UNKNOWN_PARTY', 'NOT_ENOUGH_SIGNERS', 'NOT_A_PARTICIPANT'.
       */
      setup(opts: { session: Uint8Array; level: PulsarLevel; members: number[]; threshold: number; signers: number[]; combiner: number; id: number } & Randomness): Party<PulsarMemberSetup>;
      /** The holder of `keyring` as a signer of `combiner`'s session. @throws QuasarError 'MISSING_OLD_SHARE', 'NOT_A_SIGNER'. */
      sign(opts: { keyring: PulsarKeyring; session: Uint8Array; signers: number[]; combiner: number } & PulsarMessage & Randomness): Party<PulsarMemberReleased>;
      /**
       * Member `id` of a reshare with its `keyring` (a joining member: `PulsarKeyring.empty()`
       * and the group's `keyRecord` and `sharing`). The keyring moves into the party and comes
       * back as the outcome's `keyring`.
       * @throws QuasarError 'MISSING_OLD_SHARE', and as `pulsar.reshare`.
       */
      reshare(opts: ReshareParams & { keyring: PulsarKeyring; id: number; keyRecord?: Uint8Array; sharing?: Uint8Array } & Randomness): Party<PulsarMemberReshared>;
    };
    readonly combiner: {
      /** The combiner `id` of a group's setup (the members' parameters). */
      setup(opts: { session: Uint8Array; level: PulsarLevel; members: number[]; threshold: number; signers: number[]; id: number } & Randomness): Party<PulsarCombinerCertified>;
      /** The combiner `id` of a session in which `signers` of the group (`keyRecord`, `sharing`) sign. */
      sign(opts: { id: number; keyRecord: Uint8Array; sharing: Uint8Array; session: Uint8Array; signers: number[]; deterministic?: boolean } & PulsarMessage & Randomness): Party<PulsarSigned>;
    };
  };
  /**
   * Party `id` of the Pulsar DKG (LSS Pedersen over Ristretto255).
   * @throws QuasarError 'INVALID_THRESHOLD', 'DUPLICATE_PARTY', 'NOT_A_PARTICIPANT'.
   */
  dkg(opts: { session: Uint8Array; parties: number[]; threshold: number; id: number } & Randomness): Party<PulsarDkgOutcome>;
  readonly keyCeremony: {
    /**
     * The combiner `id` of the key ceremony of `sharing` by `signers` (≥ t) at `level`: a
     * fresh ML-KEM key (`info.combinerKey`) and the session (`info.session`, for the signers).
     * Its generator draws the key, then the ceremony's randomness.
     * @throws QuasarError 'NOT_PEDERSEN', 'DUPLICATE_PARTY', 'UNKNOWN_PARTY', 'NOT_ENOUGH_SIGNERS'; decoding codes.
     */
    combiner(
      opts: { id: number; level: PulsarLevel; sharing: Uint8Array; signers: number[]; session: Uint8Array } & Randomness,
    ): Party<PulsarAnnounced>;
    /**
     * The holder of a DKG `share` as a signer of the key-ceremony `session` (the combiner's `info.session`).
     * @throws QuasarError 'PURPOSE_MISMATCH', 'NOT_A_SIGNER', 'GROUP_MISMATCH'.
     */
    signer(opts: { share: PulsarDkgShare; session: Uint8Array } & Randomness): Party<PulsarSignerOutcome>;
  };
  /**
   * The key certification (every party): checks the combiner's `announcement` against the
   * holder's own sharing, proves possession of its share for the key.
   * @throws QuasarError 'INVALID_ANNOUNCEMENT', 'GROUP_MISMATCH'; decoding codes.
   */
  certify(opts: { share: PulsarDkgShare; announcement: Uint8Array } & Randomness): Party<PulsarCertifyOutcome>;
  readonly sign: {
    /**
     * The combiner `id` of a session in which `signers` (≥ t) release their shares to a fresh
     * ML-KEM key; it signs `message`/`context` under `keyRecord` (whose certificate must bind
     * it to `sharing`). Hedged FIPS 204 signing; `deterministic: true` for rnd = 0.
     * **Trusted with the key while it signs.**
     * @throws QuasarError 'GROUP_MISMATCH', 'ACTIVATION_*', 'RESERVED_CONTEXT',
     *   'CONTEXT_TOO_LONG', 'NOT_ENOUGH_SIGNERS'; decoding codes.
     */
    combiner(
      opts: { id: number; keyRecord: Uint8Array; sharing: Uint8Array; signers: number[]; session: Uint8Array; deterministic?: boolean } & PulsarMessage &
        Randomness,
    ): Party<PulsarSigned>;
    /**
     * The holder of `share` as a signer of `session` (the combiner's `info.session`), which
     * must be for its own key and sign exactly `message`/`context`.
     * @throws QuasarError 'PURPOSE_MISMATCH', 'GROUP_MISMATCH', 'WRONG_MESSAGE', 'NOT_A_SIGNER', 'WRONG_GENERATION'.
     */
    signer(opts: { share: PulsarKeyShare; session: Uint8Array } & PulsarMessage & Randomness): Party<PulsarSignerOutcome>;
  };
  /**
   * The holder of `share` in a reshare bound to its own certified group key, ending with
   * the activation round.
   * @throws QuasarError 'INVALID_THRESHOLD', 'DUPLICATE_PARTY', 'NOT_A_PARTICIPANT',
   *   'DEALER_NOT_IN_OLD_SET', 'NOT_ENOUGH_DEALERS'.
   */
  reshare(opts: { share: PulsarKeyShare } & ReshareParams & Randomness): Party<PulsarDealingOutcome>;
  /**
   * A new member `id` of a reshare: `keyRecord` is checked against the old `sharing` first.
   * @throws as `reshare`; 'GROUP_MISMATCH', 'ACTIVATION_*' (a key the old set did not certify).
   */
  reshareJoin(
    opts: { keyRecord: Uint8Array; sharing: Uint8Array; id: number } & ReshareParams & Randomness,
  ): Party<PulsarDealingOutcome>;
  /**
   * The holder of `share` in a refresh dealt by `dealers`.
   * @throws QuasarError 'NOT_ENOUGH_DEALERS', 'DEALER_NOT_IN_OLD_SET'.
   */
  refresh(opts: { share: PulsarKeyShare; session: Uint8Array; dealers: number[] } & Randomness): Party<PulsarDealingOutcome>;
  /**
   * Plain FIPS 204 verification under a raw group key (level from its length). False for
   * any bad signature.
   * @throws RangeError for a key of no ML-DSA size; QuasarError 'CONTEXT_TOO_LONG'.
   */
  verify(groupKey: Uint8Array, message: Uint8Array, signature: Uint8Array, opts?: { context?: Uint8Array }): boolean;
  /**
   * Whether `certificate` activates generation `generation` of the dealing with transcript
   * hash `transcriptHash` of `sharing` (the NEW generation's `LSG1`) for the key record
   * `groupKey` (`PCGK`) of that same generation — the `keyRecord` every party of the dealing
   * got. Every byte of the record enters the verdict: it must decode canonically, and its own
   * certificate must bind all of it (C₀, ceremony hash, ML-DSA key) to `sharing`. An older
   * generation's record is refused (`ACTIVATION_WRONG_GENERATION`): its certificate can only
   * be checked against its own sharing. A bad record, like a bad certificate, is a verdict
   * (`{ ok: false, code, reason }`), never a throw.
   * @throws decoding codes of the sharing (the verifier's own input); RangeError for a bad
   *   generation or a transcript hash that is not 32 bytes.
   */
  verifyActivation(sharing: Uint8Array, groupKey: Uint8Array, generation: number, transcriptHash: Uint8Array, certificate: Uint8Array): Verdict;
};

// ---------------------------------------------------------------------------------------
// Corona

/** A trusted dealer's Corona key. */
export interface CoronaDealt {
  threshold: number;
  /** The number of parties n: ids 1..n. */
  parties: number;
  /** The group key (`CORG`, 4,654 bytes), the same at every party: signatures verify under it. */
  groupKey: Uint8Array;
  /** One key package per party, by id: each `keyPackage` (`CORK`, secret) for its party only. */
  shares: { id: number; keyPackage: Uint8Array }[];
}

/** A Corona share's public data. */
export interface CoronaShareInfo {
  /** The owner's id. */
  id: number;
  threshold: number;
  /** The number of parties n: ids 1..n. */
  parties: number;
  /** The group key (`CORG`). */
  groupKey: Uint8Array;
  /** The group key's 64-byte digest tr (what messages and key packages are bound to). */
  digest: Uint8Array;
}

/** A Corona signer's outcome: every signer ends with the same signature. */
export interface CoronaSigned {
  /** The `CORS` signature (15,666 bytes), verified under the group key before it was returned. */
  signature: Uint8Array;
  /** Bytes this signer broadcast over the session. */
  bytesSent: number;
  dropped: BlameEntry[];
}

/** A Corona party's key share (`CORK`: its Shamir share and pairwise keys) with its group key, in WASM memory. */
export declare class CoronaShare {
  private constructor();
  readonly id: number;
  publicInfo(): CoronaShareInfo;
  /** Seal the share (its `CORG` and `CORK`) under a 32-byte snapshot key: a `QSNP` snapshot. */
  seal(snapshotKey: Uint8Array): Uint8Array;
  free(): void;
  /**
   * The key package a trusted dealer sent (`CORK`, secret), decoded against the group key `groupKey` (`CORG`).
   * @throws QuasarError 'GROUP_MISMATCH' (a package of another group), decoding codes of either.
   */
  static fromDealer(keyPackage: Uint8Array, groupKey: Uint8Array): CoronaShare;
  /** Restore a sealed share. @throws QuasarError key-storage and decoding codes. */
  static restore(snapshot: Uint8Array, snapshotKey: Uint8Array): CoronaShare;
}

/**
 * Corona, a two-round t-of-n threshold lattice signature (Ringtail family; trust model:
 * `trustModels.corona`). A trusted dealer makes the key; any t ≤ |T| ≤ n parties sign, each
 * broadcasting a `COR1` (614,666 + 36·|T| bytes) then a `COR2` (11,048 bytes) and combining the
 * signature itself. Not robust: a wrong response ends the session on every signer with
 * 'UNATTRIBUTABLE_ABORT' and no signature (nobody can be named); a malformed, replayed,
 * equivocated or badly MACed message is dropped and its sender named in `dropped`, and the
 * session then waits. A failed session restarts with a new session id.
 */
export declare const corona: {
  /** The largest group (the library's bound). */
  readonly maxParties: 1024;
  /** The most signers of one session through this package (a RangeError beyond); so also the largest threshold it deals. */
  readonly maxSigners: 64;
  /**
   * A trusted dealer's `threshold`-of-`parties` key for parties 1..`parties` (this call knows
   * the key while it deals and keeps nothing).
   * @throws QuasarError 'INVALID_THRESHOLD' unless 2 ≤ threshold ≤ parties ≤ 1024; RangeError for a threshold over 64.
   */
  deal(opts: { threshold: number; parties: number } & Randomness): CoronaDealt;
  /**
   * The holder of `share` as one of `signers` (t ≤ |T| ≤ n, at most 64) signing `message`
   * under `context` (at most 255 bytes, default empty) in `session` (32 bytes, fresh per session).
   * @throws QuasarError 'WRONG_SIGNER_COUNT', 'DUPLICATE_PARTY', 'UNKNOWN_PARTY', 'NOT_A_SIGNER',
   *   'CONTEXT_TOO_LONG'; RangeError for more than 64 signers. A step throws 'UNATTRIBUTABLE_ABORT'
   *   (or the never-honest 'DEGENERATE_COMMITMENTS', 'RESPONSE_OUT_OF_RANGE'): the session is over.
   */
  signer(opts: { share: CoronaShare; session: Uint8Array; signers: number[]; message: Uint8Array; context?: Uint8Array } & Randomness): Party<CoronaSigned>;
  /**
   * Whether `signature` (`CORS`) is a Corona signature on `message` under `context` (empty for
   * none) by the group key `groupKey` (`CORG`): public inputs only. False for any bad signature.
   * @throws QuasarError decoding codes of the group key; 'CONTEXT_TOO_LONG'.
   */
  verify(groupKey: Uint8Array, message: Uint8Array, context: Uint8Array, signature: Uint8Array): boolean;
};

// ---------------------------------------------------------------------------------------
// Constants and trust models

/** Protocol constants, from the package (never copy them into an application). */
export declare const constants: {
  /** The FIPS 204 context of Pulsar activation statements; ordinary signing refuses it. */
  readonly pulsarActivationContext: Uint8Array;
  /** The Lens activation tag; a Lens message starting with it is refused ('RESERVED_MESSAGE'). */
  readonly lensActivationTag: 'QUASAR-LENS-ACTIVATE-v1';
  /** The tag of a bare LSS sharing's activation. */
  readonly lssActivationTag: 'QUASAR-LSS-ACTIVATE-v1';
  /** The longest message a protocol signs (16 MiB). */
  readonly maxMessageBytes: 16777216;
  readonly curves: readonly LensCurve[];
  readonly levels: readonly PulsarLevel[];
};

/** One sentence per trust model (DESIGN §3), for UIs. */
export declare const trustModels: {
  readonly pulsar: 'Pulsar custody: the ML-DSA key is derived from a Pedersen-shared group secret that no coalition below t knows at rest; to sign, t parties release their shares, encrypted, to one combiner, which rebuilds the key in memory, signs, verifies and zeroizes — the combiner is trusted for that moment.';
  readonly pulsarCommittee: string;
  readonly corona: string;
  readonly lens: 'Lens: FROST threshold Schnorr against a dishonest majority — fewer than t parties cannot sign, the coordinator is trusted only for liveness, and signatures verify under standard Ed25519/BIP-340.';
  readonly lss: 'LSS resharing: a dealer who sends an inconsistent share is detected and named; a misaddressed, replayed or non-member message is dropped and its sender named, never an abort; the group public key never changes.';
  readonly activation: 'Activation certificate: at least t_new distinct members of the new set each proved possession of their new share, bound to the key, the generation and the dealing transcript; the old set cannot make it. An old party erases its old share only after it has verified this certificate.';
};

// ---------------------------------------------------------------------------------------
// Running parties in one process

/** Anything `run` can step: a `Party`, or a host's stand-in with the same three members. */
export interface Steppable<O = unknown> {
  readonly id: number;
  /** The step result of its start (its `outgoing` is posted in round 0). */
  readonly start: StepResult<O>;
  step(inbox: Incoming[]): StepResult<O>;
}

/** As `Steppable`, for `runAsync`: `step` may answer later (a party in a worker). */
export interface AsyncSteppable<O = unknown> {
  readonly id: number;
  readonly start: StepResult<O>;
  step(inbox: Incoming[]): StepResult<O> | Promise<StepResult<O>>;
}

/** One message on its way to one recipient (what `tamper` sees). */
export interface Envelope {
  /** The round it was sent in (0 = at start). */
  round: number;
  from: number;
  to: number;
  channel: 'broadcast' | 'direct';
  bytes: Uint8Array;
}

export interface RunOptions {
  /** Rewrites every envelope before delivery: return what to deliver instead ([] drops it; undefined keeps it). */
  tamper?: (envelope: Envelope, round: number) => Envelope[] | undefined;
  /** Sees every post, in the simulator's order: the starts as given (round 0), then round by round by increasing id. */
  onSent?: (from: number, outgoing: Outgoing, round: number) => void;
  /** At most this many rounds (default 128, the Rust simulator's `MAX_ROUNDS`). */
  maxRounds?: number;
}

/** An entry of `RunResult.blame`: a party named by party `by`. */
export interface RunBlame extends BlameEntry {
  /** The party that named it. */
  by: number;
}

/** What `run` returns. */
export interface RunResult {
  /** Each finished party's outcome, by id. */
  outcomes: Map<number, unknown>;
  /** What each failed party's step threw, by id (it left the run). */
  errors: Map<number, unknown>;
  /** The parties still waiting when the run stopped (nothing more in flight, or `maxRounds`), increasing. */
  waiting: number[];
  /**
   * Every party any participant named: finished parties' `dropped` and outcome `blame`, failed
   * parties' error `blame`, and what parties still waiting had dropped so far.
   */
  blame: RunBlame[];
  /** The rounds run. */
  rounds: number;
  /** The outcome of `party` (typed by its factory). @throws its error, or an Error if it did not finish. */
  of<O>(party: Party<O> | Steppable<O>): O;
}

/**
 * Runs `parties` to the end in this process, with the semantics of the Rust simulator
 * (`party::sim::Network`): the starts are posted in the order given; each round delivers what
 * the previous round posted — a broadcast to every other party of the run, a direct message to
 * its recipient — and steps every unfinished party, by increasing id, on its inbox; a waiting
 * party posts nothing and steps again next round; a party whose step throws leaves the run
 * (`errors`). Stops when every party is done or failed, when a round posted nothing, or after
 * `maxRounds`. Fed the same parties with the same seeds, it posts the same bytes in the same
 * order as the simulator.
 * @throws TypeError for a non-array or an unknown option; RangeError for a repeated id.
 */
export declare function run(parties: readonly Steppable[], options?: RunOptions): RunResult;

/** As `run`, awaiting each step in the same order (parties in workers). */
export declare function runAsync(parties: readonly AsyncSteppable[], options?: RunOptions): Promise<RunResult>;
