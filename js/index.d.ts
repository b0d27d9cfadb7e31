// Types for `quasar-pq` (the full WebAssembly build): ML-DSA (FIPS 204) and SLH-DSA (FIPS 205,
// SHAKE sets) with the shape of @noble/post-quantum, and the threshold protocols (protocols.d.ts). `quasar-pq/verify`
// (verify.d.ts) is the light build under the same names. js/test/declarations.test.mjs keeps
// these files and the exports equal, and type-checks js/test/types/*.ts against them.
//
//   import { init, mlDsa65 } from 'quasar-pq';
//   await init();
//   const { publicKey, secretKey } = mlDsa65.keygen();          // or keygen(seed32)
//   const sig = mlDsa65.sign(msg, secretKey, { context });      // hedged; extraEntropy: false = deterministic
//   mlDsa65.verify(sig, msg, publicKey, { context });           // true / false, never a throw for bad bytes
//
// A realm other code may have polluted: an options bag, a bag nested in one (a quorum) and a
// list entry (`{ id, signature }`, `{ from, bytes }`) count only their OWN data properties —
// nothing on Object.prototype is ever read as an option, and a getter or setter is a TypeError,
// refused before it runs. A list's `length` is read once and bounded, each element copied once
// (a hole or a getter is a TypeError). Every verdict and report the package returns (and every
// object the WebAssembly side builds) has no prototype: `ok` is always its own, `code` and
// `reason` are there exactly when something failed, and an absent field reads `undefined`
// whatever Object.prototype holds. Compare them field by field, or spread them
// (`{ ...verdict }`) before a deep-equality assertion. No error message repeats more than 64
// characters of a caller's string.

/** Where the WebAssembly module comes from, when not the packaged file. */
export type InitInput =
  | RequestInfo
  | URL
  | Response
  | BufferSource
  | WebAssembly.Module
  | Promise<RequestInfo | URL | Response | BufferSource | WebAssembly.Module>;

/**
 * Load and instantiate the WebAssembly module. Await it once before any other call; later
 * calls return the same promise. In Node the packaged .wasm is read from disk, in browsers it
 * is fetched relative to this module. One instance per realm: whichever of `init()` and
 * `initSync()` starts first makes it.
 */
export declare function init(input?: InitInput): Promise<void>;
export default init;

/**
 * Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`; a no-op
 * once an instance exists.
 * @throws QuasarError 'INIT_IN_PROGRESS' while an `init()` is still loading (await it instead).
 */
export declare function initSync(module: BufferSource | WebAssembly.Module): void;

/** Byte lengths of a parameter set (FIPS 204, Table 2). */
export interface MlDsaLengths {
  readonly seed: 32;
  readonly publicKey: number;
  readonly secretKey: number;
  readonly signature: number;
  readonly signRand: 32;
}

/** A key pair. */
export interface KeyPair {
  publicKey: Uint8Array;
  secretKey: Uint8Array;
}

/**
 * Options of `verify`. Unknown keys throw a TypeError; only own data properties are read (a
 * getter is a TypeError, Object.prototype is never consulted).
 */
export interface VerifyOpts {
  /** Application context string, at most 255 bytes (default: empty). */
  context?: Uint8Array;
}

/** Options of `sign`. Unknown keys throw a TypeError. */
export interface SignOpts {
  /** Application context string, at most 255 bytes (default: empty). */
  context?: Uint8Array;
  /**
   * Signing randomness: 32 bytes, `false` for the deterministic variant, or absent for 32
   * fresh random bytes (hedged signing, the default).
   */
  extraEntropy?: Uint8Array | false;
}

/** Options of `internal.sign`. */
export interface InternalSignOpts {
  /** As in `sign`. */
  extraEntropy?: Uint8Array | false;
  /** The message is the 64-byte μ instead of M′. */
  externalMu?: boolean;
}

/** Options of `internal.verify`. */
export interface InternalVerifyOpts {
  /**
   * The message is the 64-byte μ instead of M′. The key then enters only through μ (which
   * hashes H(pk)): compute μ from this very key (`computeMu`), since nothing ties the two here
   * and a key differing in low bits of t1 can verify the same (σ, μ) (FIPS 204 external μ).
   */
  externalMu?: boolean;
}

/** Expert interface: FIPS 204 Sign_internal / Verify_internal on M′ or an external μ. */
export interface MlDsaInternal {
  readonly lengths: MlDsaLengths;
  /** As the top-level `keygen`. */
  keygen(seed?: Uint8Array): KeyPair;
  /** Sign M′ (or μ with `externalMu: true`) with no domain separation added. */
  sign(msg: Uint8Array, secretKey: Uint8Array, opts?: InternalSignOpts): Uint8Array;
  /** Verify on M′ (or μ). Returns false for any bad signature. */
  verify(sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array, opts?: InternalVerifyOpts): boolean;
  /** μ for pure ML-DSA: H(H(pk) ‖ 0 ‖ |ctx| ‖ ctx ‖ msg, 64). */
  computeMu(msg: Uint8Array, publicKey: Uint8Array, opts?: VerifyOpts): Uint8Array;
}

/** One ML-DSA parameter set. */
export interface MlDsa {
  readonly lengths: MlDsaLengths;
  /** 128, 192 or 256. */
  readonly securityLevel: number;
  /**
   * Generate a key pair from a 32-byte seed (random when absent).
   * @throws TypeError if seed is not a Uint8Array; RangeError if it is not 32 bytes.
   */
  keygen(seed?: Uint8Array): KeyPair;
  /**
   * Sign `msg` (FIPS 204 ML-DSA.Sign, pure, with context).
   * @throws TypeError for non-Uint8Array arguments or unknown option keys; RangeError for a
   *   secret key or extraEntropy of the wrong length; QuasarError (`code`
   *   'CONTEXT_TOO_LONG', 'MALFORMED_SECRET_KEY') from the library.
   */
  sign(msg: Uint8Array, secretKey: Uint8Array, opts?: SignOpts): Uint8Array;
  /**
   * Verify `sig` on `msg` under `publicKey`. Returns false for any bad signature, including
   * one of the wrong length.
   * @throws TypeError for non-Uint8Array arguments or unknown option keys; RangeError for a
   *   public key of the wrong length; QuasarError 'CONTEXT_TOO_LONG'.
   */
  verify(sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array, opts?: VerifyOpts): boolean;
  /**
   * Expand `publicKey` once to verify many signatures under it (about 3x faster each).
   * `free()` releases the WASM memory it holds.
   * @throws TypeError for a non-Uint8Array; RangeError for a public key of the wrong length.
   */
  prepare(publicKey: Uint8Array): PreparedKey;
  /** Expert interface (ACVP vectors, external μ). */
  readonly internal: MlDsaInternal;
}

/** ML-DSA-44 (NIST security category 2). */
export declare const mlDsa44: MlDsa;
/** ML-DSA-65 (NIST security category 3). */
export declare const mlDsa65: MlDsa;
/** ML-DSA-87 (NIST security category 5). */
export declare const mlDsa87: MlDsa;

/**
 * Byte lengths of an SLH-DSA parameter set (FIPS 205, Table 2), with noble's field names;
 * n is the set's security parameter (16, 24 or 32).
 */
export interface SlhDsaLengths {
  /** SK.seed ‖ SK.prf ‖ PK.seed: 3n. */
  readonly seed: number;
  /** PK.seed ‖ PK.root: 2n. */
  readonly publicKey: number;
  /** SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root: 4n. */
  readonly secretKey: number;
  readonly signature: number;
  /** The hedging randomness opt_rand: n. */
  readonly signRand: number;
}

/** Options of `sign` for SLH-DSA. Unknown keys throw a TypeError. */
export interface SlhDsaSignOpts {
  /** Application context string, at most 255 bytes (default: empty). */
  context?: Uint8Array;
  /**
   * opt_rand: n bytes (`lengths.signRand`), `false` for the deterministic variant
   * (opt_rand = PK.seed), or absent for n fresh random bytes (hedged signing, the default).
   */
  extraEntropy?: Uint8Array | false;
}

/** Options of `internal.sign` for SLH-DSA. */
export interface SlhDsaInternalSignOpts {
  /** As in `sign`. */
  extraEntropy?: Uint8Array | false;
}

/** Expert interface: FIPS 205 slh_sign_internal / slh_verify_internal on M′ as given. */
export interface SlhDsaInternal {
  readonly lengths: SlhDsaLengths;
  /** As the top-level `keygen`. */
  keygen(seed?: Uint8Array): KeyPair;
  /** Sign M′ with no domain separation added. */
  sign(msg: Uint8Array, secretKey: Uint8Array, opts?: SlhDsaInternalSignOpts): Uint8Array;
  /** Verify on M′. Returns false for any bad signature. Takes no options. */
  verify(sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array, opts?: Record<string, never>): boolean;
}

/** One SLH-DSA parameter set (FIPS 205, SHAKE), shaped like noble's `slh_dsa_shake_*`. */
export interface SlhDsa {
  readonly lengths: SlhDsaLengths;
  /** 128, 192 or 256. */
  readonly securityLevel: number;
  /**
   * Generate a key pair from `seed` = SK.seed ‖ SK.prf ‖ PK.seed (3n bytes; random when absent).
   * FIPS 205 slh_keygen_internal; byte-identical to noble's `keygen(seed)`.
   * @throws TypeError if seed is not a Uint8Array; RangeError if it is not 3n bytes.
   */
  keygen(seed?: Uint8Array): KeyPair;
  /**
   * Sign `msg` (FIPS 205 slh_sign, pure, with context). Hedged by default; the "s" sets take
   * about a second per signature in WebAssembly, the "f" sets tens of milliseconds.
   * @throws TypeError for non-Uint8Array arguments or unknown option keys; RangeError for a
   *   secret key or extraEntropy of the wrong length; QuasarError 'CONTEXT_TOO_LONG'.
   */
  sign(msg: Uint8Array, secretKey: Uint8Array, opts?: SlhDsaSignOpts): Uint8Array;
  /**
   * Verify `sig` on `msg` under `publicKey` (FIPS 205 slh_verify). Returns false for any bad
   * signature, including one of the wrong length.
   * @throws TypeError for non-Uint8Array arguments or unknown option keys; RangeError for a
   *   public key of the wrong length; QuasarError 'CONTEXT_TOO_LONG'.
   */
  verify(sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array, opts?: VerifyOpts): boolean;
  /** Expert interface (ACVP vectors). */
  readonly internal: SlhDsaInternal;
}

/** SLH-DSA-SHAKE-128s (NIST security category 1; small signatures, slow signing). */
export declare const slhDsaShake128s: SlhDsa;
/** SLH-DSA-SHAKE-128f (NIST security category 1; fast signing). */
export declare const slhDsaShake128f: SlhDsa;
/** SLH-DSA-SHAKE-192s (NIST security category 3; small signatures, slow signing). */
export declare const slhDsaShake192s: SlhDsa;
/** SLH-DSA-SHAKE-192f (NIST security category 3; fast signing). */
export declare const slhDsaShake192f: SlhDsa;
/** SLH-DSA-SHAKE-256s (NIST security category 5; small signatures, slow signing). */
export declare const slhDsaShake256s: SlhDsa;
/** SLH-DSA-SHAKE-256f (NIST security category 5; fast signing). */
export declare const slhDsaShake256f: SlhDsa;

// ------------------------------------------------------------------------------------ Magnetar

/** A Magnetar mode: the SLH-DSA set of every key and signature (envelope mode byte 1, 2, 3). */
export type MagnetarMode = 'shake192s' | 'shake192f' | 'shake256s';

/** Byte lengths of a Magnetar mode: envelopes, the raw FIPS 205 sizes inside, seeds. */
export interface MagnetarLengths {
  /** A MAGG public-key envelope: 11-byte header + 2n. */
  readonly publicKey: number;
  /** A MAGS signature envelope: 11-byte header + the FIPS 205 signature. */
  readonly signature: number;
  readonly rawPublicKey: number;
  readonly rawSignature: number;
  /** SK.seed ‖ SK.prf ‖ PK.seed: 3n. */
  readonly seed: number;
  /** The reference's single seed: 4n. */
  readonly referenceSeed: number;
  /** The FIPS 205 secret key: 4n. */
  readonly secretKey: number;
  /** The hedging randomness opt_rand: n. */
  readonly signRand: number;
  /** A validator id: 32. */
  readonly id: 32;
}

/** One registered validator. */
export interface MagnetarValidator {
  /** 32 bytes. */
  id: Uint8Array;
  /** Its MAGG envelope (the registered key is what its signatures are checked under). */
  publicKey: Uint8Array;
  /** Its voting weight: a non-negative safe integer or a BigInt below 2^64 (0 counts for nothing). */
  weight: number | bigint;
}

/** A validator's signature on the block, as an aggregator receives it. */
export interface MagnetarContribution {
  /** The validator's 32-byte id. */
  id: Uint8Array;
  /** Its MAGS envelope. */
  signature: Uint8Array;
}

/** One item of `magnetar.verifyBatch`. */
export interface MagnetarBatchItem {
  /** MAGG envelope. */
  publicKey: Uint8Array;
  message: Uint8Array;
  /** MAGS envelope. */
  signature: Uint8Array;
}

/** Options of `verifyAggregate`. Unknown keys throw a TypeError. */
export interface AggregateOpts {
  /** The context string every signature was made under (at most 255 bytes; default empty). */
  context?: Uint8Array;
  /**
   * Met when signed × denominator > total × numerator (default { 2, 3 }: more than 2/3). Read
   * as an options bag: both fields its own data properties, no other keys.
   */
  quorum?: { numerator: number | bigint; denominator: number | bigint };
  /** Check and report every signature even when the verdict is known early (default false). */
  diagnose?: boolean;
}

/**
 * The verdict on an aggregate certificate. `ok` only if the mode is the registry's, every
 * signer is registered and named once, every signature verifies and the signers' weight
 * meets the quorum. The report fields are present when the signatures were checked. A
 * null-prototype object: `ok` is its own; `code` and `reason` only when `ok` is false.
 */
export interface AggregateVerdict {
  ok: boolean;
  /** Why not: 'INVALID_SIGNATURE', 'QUORUM_NOT_MET', 'UNKNOWN_SIGNER', 'DUPLICATE_SIGNER',
   * 'WRONG_MODE', 'NO_SIGNERS', decoding codes ('TOO_SHORT', 'BAD_MAGIC', 'TRAILING_BYTES', …). */
  code?: string;
  reason?: string;
  /** The certificate's mode, once its header decoded. */
  mode?: MagnetarMode;
  /** The signers it names, ascending. */
  signers?: Uint8Array[];
  /** `bitmap[i]`: whether `signers[i]`'s signature verified. */
  bitmap?: boolean[];
  signedWeight?: bigint;
  claimedWeight?: bigint;
  totalWeight?: bigint;
  quorumMet?: boolean;
  /** The signers whose signature failed (also given with 'INVALID_SIGNATURE'). */
  failed?: Uint8Array[];
}

/** Magnetar verification (both builds). The trust model is `trustModel`. */
export interface MagnetarVerifier {
  readonly modes: readonly MagnetarMode[];
  readonly lengths: { readonly [M in MagnetarMode]: MagnetarLengths };
  /** Each validator signs independently; the aggregate is a list of signatures checked against the registry. */
  readonly trustModel: string;
  /**
   * Verify the MAGS envelope `signature` on `msg` under the MAGG envelope `publicKey`.
   * False for any bad signature (malformed, of another mode than the key, invalid).
   * @throws QuasarError for a key envelope that does not decode or a context over 255 bytes.
   */
  verify(signature: Uint8Array, msg: Uint8Array, publicKey: Uint8Array, opts?: VerifyOpts): boolean;
  /** One verdict per item (the bitmap); a bad item is false alone. Messages: 16 MiB together. */
  verifyBatch(items: MagnetarBatchItem[], opts?: VerifyOpts): boolean[];
}

/** Magnetar in the full build: verification plus validator keys, signing and aggregation. */
export interface Magnetar extends MagnetarVerifier {
  /**
   * A validator key: from `seed` (SK.seed ‖ SK.prf ‖ PK.seed, 3n bytes: the same key as
   * `slhDsaShake…keygen(seed)`), the reference's 4n-byte `referenceSeed`, or fresh randomness.
   */
  keygen(mode: MagnetarMode, opts?: { seed?: Uint8Array; referenceSeed?: Uint8Array }): KeyPair;
  /** Sign `msg` (pure SLH-DSA, hedged by default): the MAGS envelope. */
  sign(mode: MagnetarMode, msg: Uint8Array, secretKey: Uint8Array, opts?: SlhDsaSignOpts): Uint8Array;
  /**
   * The MAGA certificate from contributions in any order (sorted by id). Verify them first:
   * one invalid signature makes the whole certificate invalid.
   * @throws QuasarError 'NO_SIGNERS', 'DUPLICATE_SIGNER', 'WRONG_MODE', envelope decoding codes.
   */
  aggregate(mode: MagnetarMode, contributions: MagnetarContribution[]): Uint8Array;
}

/** Magnetar: per-validator SLH-DSA, MAGS/MAGG envelopes, batches, aggregate certificates. */
export declare const magnetar: Magnetar;

/**
 * A validator registry held in WASM memory (public data only): checks contributions and
 * aggregate certificates against its keys and weights. Release with `free()`.
 */
export declare class MagnetarRegistry {
  /**
   * @throws TypeError / RangeError for malformed arguments; QuasarError 'WRONG_MODE',
   *   'DUPLICATE_VALIDATOR', 'DUPLICATE_KEY', 'TOO_MANY_KEYS', 'ZERO_TOTAL_WEIGHT',
   *   'WEIGHT_OVERFLOW', or a key envelope's decoding code.
   */
  constructor(mode: MagnetarMode, validators: MagnetarValidator[]);
  readonly mode: MagnetarMode;
  readonly size: number;
  readonly totalWeight: bigint;
  /** Ascending by id, weights as BigInt. */
  validators(): { id: Uint8Array; publicKey: Uint8Array; weight: bigint }[];
  /** `bitmap[i]`: contribution i is by a registered validator and verifies under its key. */
  verifyBatch(contributions: MagnetarContribution[], msg: Uint8Array, opts?: VerifyOpts): boolean[];
  /**
   * The light client's verdict on a MAGA certificate for `msg`. Never throws for a bad
   * certificate. @throws QuasarError 'CONTEXT_TOO_LONG', 'INVALID_QUORUM' (the caller's).
   */
  verifyAggregate(certificate: Uint8Array, msg: Uint8Array, opts?: AggregateOpts): AggregateVerdict;
  /**
   * Release the WASM memory (also `[Symbol.dispose]`, for `using`, where the runtime has it).
   * Never throws; called during a call (from a hook), the memory is released when that call
   * returns. Every member then throws QuasarError 'USE_AFTER_FREE'.
   */
  free(): void;
}

// ------------------------------------------------------------------------ finality certificates

/** A certificate policy: what the caller requires (never taken from the certificate). */
export type CertPolicy = 'pq-off' | 'pq-fast' | 'pq-strict' | 'pq-heavy' | 'strict-pq-fast' | 'strict-pq-strict' | 'strict-pq-heavy';
/** A certificate leg. */
export type CertLegKind = 'bls' | 'pulsar' | 'corona' | 'magnetar' | 'mldsa-set';

/** The header a certificate finalizes (u64 fields as BigInt). */
export interface CertHeader {
  chainId: bigint;
  epoch: bigint;
  height: bigint;
  round: number;
  blockHash: Uint8Array;
  setRoot: Uint8Array;
  /** Only on an epoch's last block: the root of the next validator set. */
  nextSetRoot?: Uint8Array;
  keyEra: bigint;
  /** The 32-byte finality message every leg signs. */
  message: Uint8Array;
}

/** The verdict on one leg (a null-prototype object; `code` and `reason` when the leg failed). */
export interface CertLegReport {
  kind: CertLegKind;
  required: boolean;
  present: boolean;
  verdict: 'valid' | 'invalid' | 'not-checked' | 'not-required';
  /** `verdict === 'valid'`. */
  ok: boolean;
  code?: string;
  reason?: string;
  /** Weighted legs, once their structure was checked. */
  signers?: number;
  weight?: bigint;
  /** The leg's signature check, in microseconds (verifyCertificate only). */
  micros?: number;
}

/**
 * The report of verifyCertificate. Never thrown: `ok: false` with `code` and `reason`. A
 * null-prototype object, as its legs and header are: `ok` is its own; `code` and `reason`
 * only when `ok` is false.
 */
export interface CertReport {
  ok: boolean;
  code?: string;
  reason?: string;
  /**
   * The certificate's identity, only when `ok`: a 32-byte hash of its header and of exactly
   * the legs this policy checked. Legs the policy does not require are never examined and
   * never reach it, so key stored or deduplicated certificates by `id`, never by their bytes;
   * a relay cannot know which legs its clients need and forwards certificates unchanged.
   */
  id?: Uint8Array;
  policy: string;
  /** The trusted set's total weight (absent only for a certificate too long to copy). */
  totalWeight?: bigint;
  header?: CertHeader;
  legs: CertLegReport[];
  micros?: number;
}

/** What LightClient.update returns (a null-prototype object; `code` and `reason` only when `ok` is false). */
export interface CertUpdate {
  /** Accepted: the client advanced. */
  ok: boolean;
  code?: string;
  reason?: string;
  /** The client's epoch after the update. */
  epoch: bigint;
  /** The epoch it moved to, when the certificate ended an epoch. */
  newEpoch?: bigint;
  header?: CertHeader;
  /** The verification report, when verification ran. */
  report?: CertReport;
}

/** `opts.full`: check every required leg after a failure too (the full report). */
export interface CertOpts {
  full?: boolean;
}

/**
 * Verify a certificate (QCRT) against the validator set (QVST) the caller trusts for its epoch,
 * under the caller's policy. Never throws for a bad certificate.
 * @throws TypeError for wrong argument types; QuasarError 'UNKNOWN_POLICY', or the trusted
 *   set's decoding / key-validation code.
 */
export declare function verifyCertificate(certificate: Uint8Array, validatorSet: Uint8Array, policy: CertPolicy, opts?: CertOpts): CertReport;

/**
 * A light client in WASM memory: trusts one validator set, follows certificates and every
 * epoch change under one policy. Release with `free()`.
 */
export declare class LightClient {
  /** @throws TypeError; QuasarError 'UNKNOWN_POLICY' or the trusted set's decoding / key code. */
  constructor(validatorSet: Uint8Array, policy: CertPolicy, opts?: CertOpts);
  /** Follow a certificate (and the next set on an epoch's last block). Never throws for bad input. */
  update(certificate: Uint8Array, nextSet?: Uint8Array): CertUpdate;
  /** Verify a certificate against the current set, changing nothing (no leg timings). Never throws for bad input. */
  verify(certificate: Uint8Array): CertReport;
  readonly epoch: bigint;
  readonly height: bigint | undefined;
  readonly setRoot: Uint8Array;
  readonly totalWeight: bigint;
  readonly keyEra: bigint;
  readonly validators: number;
  /** The longest certificate the current set admits; longer ones are TOO_LONG, uncopied. */
  readonly maxCertificateLength: number;
  readonly policy: string;
  /**
   * Release the WASM memory (also `[Symbol.dispose]`). Never throws; called during a call
   * (from a hook), the memory is released when that call returns. Every member then throws
   * QuasarError 'USE_AFTER_FREE'.
   */
  free(): void;
}

/** The policy names, mildest first. */
export declare const CERT_POLICIES: readonly CertPolicy[];
/** The light client's trust model. */
export declare const CERT_TRUST_MODEL: string;

/** What testChain makes (every option but `seed` has a default). */
export interface TestChainOpts {
  /** 32 bytes: every key, block hash and protocol randomness comes from it. */
  seed: Uint8Array;
  /** The chain id (default 1). */
  chainId?: number | bigint;
  /** Validators per epoch, each of weight 1 (default 4; 1 to 64). */
  validators?: number;
  /** The legs the validators hold keys for and sign: exactly this policy's (default 'pq-fast'). */
  policy?: CertPolicy;
  /** Epochs (default 2; 1 to 8). */
  epochs?: number;
  /** Blocks per epoch (default 3; at most 64 over all epochs). */
  blocks?: number;
  /** ML-DSA level of the Pulsar group and of the ML-DSA-set leg (default 44). */
  level?: 44 | 65 | 87;
  /** The Magnetar leg's set (default 'shake192f'). */
  magnetar?: MagnetarMode;
  /**
   * Who signs the Pulsar leg (default 'custody': a custody group of every validator, whose
   * combiner rebuilds the key while it signs; 'committee': a committee of the first
   * min(n, 6) validators, threshold ⌊2N/3⌋ + 1 of its N, from a distributed key generation —
   * no machine ever holds the key; a changed committee makes a new key in the next key era).
   */
  pulsar?: 'custody' | 'committee';
}

/** One block of a test chain (a null-prototype object). */
export interface TestChainBlock {
  /** The block's certificate (QCRT). */
  certificate: Uint8Array;
  /** On an epoch's last block only: the next epoch's set (QVST), which the certificate commits to. */
  nextSet?: Uint8Array;
}

/** A test chain (a null-prototype object): `sets[e]` is epoch e's set, `sets[0]` the checkpoint. */
export interface TestChain {
  sets: Uint8Array[];
  /** In height order (heights 1, 2, …). */
  blocks: TestChainBlock[];
}

/**
 * A deterministic test chain (full build only): `validators` validators whose keys come from
 * `seed`; each epoch has `blocks` blocks signed by the first ⌊2n/3⌋ + 1 validators; each
 * epoch's last block but the final one ends it (the first validator leaves, one joins, a
 * Pulsar custody group is reshared to the next set under the same key, a committee is replaced
 * by a new one with a new key in the next key era). A policy with the Corona leg (pq-strict,
 * strict-pq-strict) also gets a Corona group: the first min(n, 8) validators, threshold
 * ⌊2m/3⌋ + 1 of its m, whose key the devnet deals (a trusted dealer), dealt anew in the next
 * key era when its members change. The same options give the same
 * bytes as the Rust devnet (`cert::devnet::chain`). For tests and examples only: anyone with
 * the seed holds every key.
 * @throws TypeError / RangeError for wrong option types; QuasarError 'UNKNOWN_POLICY',
 *   'INVALID_VALUE' (a count of 0, an unknown level), 'COUNT_TOO_LARGE' (over a bound).
 */
export declare function testChain(opts: TestChainOpts): TestChain;

/** BLS12-381, ciphersuite BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_ (keys in G1, signatures in G2). */
export interface Bls {
  readonly lengths: { readonly secretKey: 32; readonly publicKey: 48; readonly signature: 96; readonly minIkm: 32 };
  readonly ciphersuite: 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
  /** KeyGen from `ikm` (at least 32 secret bytes; fresh random when omitted). @throws QuasarError 'IKM_TOO_SHORT'. */
  keygen(ikm?: Uint8Array, opts?: { keyInfo?: Uint8Array }): KeyPair;
  /** SkToPk. @throws QuasarError 'INVALID_SECRET_KEY'. */
  getPublicKey(secretKey: Uint8Array): Uint8Array;
  /** Sign (deterministic). @throws QuasarError 'INVALID_SECRET_KEY'. */
  sign(msg: Uint8Array, secretKey: Uint8Array): Uint8Array;
  /** PopProve. @throws QuasarError 'INVALID_SECRET_KEY'. */
  popProve(secretKey: Uint8Array): Uint8Array;
  /** Verify: false for anything that does not decode or verify. */
  verify(sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array): boolean;
  /** PopVerify: false for anything that does not decode or verify. */
  popVerify(proof: Uint8Array, publicKey: Uint8Array): boolean;
  /** Aggregate signatures. @throws QuasarError 'EMPTY_INPUT' or a signature's decoding code. */
  aggregate(signatures: Uint8Array[]): Uint8Array;
  /** FastAggregateVerify (every key needs a verified proof of possession). False for any bad input. */
  fastAggregateVerify(sig: Uint8Array, msg: Uint8Array, publicKeys: Uint8Array[]): boolean;
}

/** BLS12-381 byte API (full build only). */
export declare const bls: Bls;

/** The algorithms whose keys `keys` encodes, by their standard names. */
export type KeyAlgorithm =
  | 'ML-DSA-44' | 'ML-DSA-65' | 'ML-DSA-87'
  | 'SLH-DSA-SHAKE-128s' | 'SLH-DSA-SHAKE-128f' | 'SLH-DSA-SHAKE-192s'
  | 'SLH-DSA-SHAKE-192f' | 'SLH-DSA-SHAKE-256s' | 'SLH-DSA-SHAKE-256f';

/** The key algorithms, ML-DSA then SLH-DSA. */
export declare const KEY_ALGORITHMS: readonly KeyAlgorithm[];

/**
 * A key for the encoders: `{ publicKey }` alone (a public JWK or COSE_Key), or a secret —
 * `seed` (ML-DSA's 32-byte ξ) and/or `secretKey` (the FIPS 204 expanded key, or the FIPS 205
 * 4n-byte key). A `publicKey` or `alg` given beside a secret must match it (QuasarError
 * 'KEY_MISMATCH'), so a decoded key can be passed back unchanged.
 */
export interface KeyInput {
  alg?: KeyAlgorithm;
  publicKey?: Uint8Array;
  seed?: Uint8Array;
  secretKey?: Uint8Array;
}

/** A decoded public key. */
export interface DecodedPublicKey {
  alg: KeyAlgorithm;
  publicKey: Uint8Array;
}

/** A decoded private key, checked against itself; `seed` when the encoding held one (ML-DSA). */
export interface DecodedPrivateKey extends DecodedPublicKey {
  seed?: Uint8Array;
  secretKey: Uint8Array;
}

/**
 * ML-DSA and SLH-DSA keys as X.509 SubjectPublicKeyInfo (RFC 9881, RFC 9909), PKCS #8
 * OneAsymmetricKey (DER or PEM), JWK and COSE_Key `AKP` keys (RFC 9964), full build only.
 * Bytes are DER or CBOR, strings are text (PEM, JSON). Decoding is strict (DER, canonical
 * base64, no duplicate members); errors are QuasarErrors of module 'keyfmt' (e.g.
 * 'KEY_TRUNCATED', 'UNEXPECTED_TAG', 'UNKNOWN_ALGORITHM', 'KEY_MISMATCH', 'BAD_PEM',
 * 'BAD_JSON', 'UNSUPPORTED_FORMAT', 'NO_SEED'); a wrong argument type is a TypeError.
 */
export interface KeyFormats {
  readonly algorithms: readonly KeyAlgorithm[];
  /** SubjectPublicKeyInfo: DER bytes, or a `PUBLIC KEY` PEM block with `format: 'pem'`. */
  toSpki(alg: KeyAlgorithm, publicKey: Uint8Array, opts?: { format?: 'der' }): Uint8Array;
  toSpki(alg: KeyAlgorithm, publicKey: Uint8Array, opts: { format: 'pem' }): string;
  /** Decodes a SubjectPublicKeyInfo (DER bytes or a PEM string). */
  fromSpki(derOrPem: Uint8Array | string): DecodedPublicKey;
  /**
   * PKCS #8: DER, or PEM with `format: 'pem'`. ML-DSA `form`: 'seed' (default), 'expanded' or
   * 'both'; `includePublicKey` writes the public key too. @throws QuasarError 'NO_SEED'.
   */
  toPkcs8(alg: KeyAlgorithm, key: KeyInput, opts?: { format?: 'der'; form?: 'seed' | 'expanded' | 'both'; includePublicKey?: boolean }): Uint8Array;
  toPkcs8(alg: KeyAlgorithm, key: KeyInput, opts: { format: 'pem'; form?: 'seed' | 'expanded' | 'both'; includePublicKey?: boolean }): string;
  /** Decodes PKCS #8 (DER bytes or a PEM string; any ML-DSA form). */
  fromPkcs8(derOrPem: Uint8Array | string): DecodedPrivateKey;
  /** JWK text: public for `{ publicKey }`, private (`priv`) when a secret is given. ML-DSA and SLH-DSA-SHAKE-128s. */
  toJwk(alg: KeyAlgorithm, key: KeyInput): string;
  /** Decodes JWK text. */
  fromJwk(jwk: string): DecodedPublicKey | DecodedPrivateKey;
  /** COSE_Key bytes (ML-DSA only). */
  toCoseKey(alg: KeyAlgorithm, key: KeyInput): Uint8Array;
  /** Decodes a COSE_Key. */
  fromCoseKey(coseKey: Uint8Array): DecodedPublicKey | DecodedPrivateKey;
  /** The JWK thumbprint (RFC 7638), base64url. */
  jwkThumbprint(alg: KeyAlgorithm, publicKey: Uint8Array): string;
  /** The COSE Key thumbprint (RFC 9679), 32 bytes. */
  coseThumbprint(alg: KeyAlgorithm, publicKey: Uint8Array): Uint8Array;
}

/** Key formats (full build only). */
export declare const keys: KeyFormats;

/**
 * What the package throws for the library's errors and its own checks
 * (`err.name === 'QuasarError'`). Codes are API, listed in the README; never renamed.
 */
export interface QuasarError extends Error {
  name: 'QuasarError';
  /**
   * Stable code: the library's (e.g. 'INVALID_LENGTH', 'CONTEXT_TOO_LONG',
   * 'MALFORMED_SECRET_KEY', 'NOT_ENOUGH_QUALIFIED') or the package's own:
   * 'DETACHED_BUFFER' (a view of a transferred buffer), 'USE_AFTER_FREE' (also after a
   * `free()` made during a call, from a hook), 'INSTANCE_POISONED' (the WASM instance trapped
   * earlier: reload it), 'REENTRANT_CALL' (a call made from inside another call into the same
   * instance, e.g. from a replaced built-in or a getter; the running call is unaffected),
   * 'INIT_IN_PROGRESS' (`initSync()` while `init()` loads), 'NO_WASM_SIMD' (an engine without WebAssembly SIMD), 'RNG_FAILURE' (no randomness:
   * `crypto.getRandomValues` did not fill the array it was given, or the realm's
   * `%TypedArray%.prototype.byteLength`, which the platform generator reads, was replaced).
   */
  code: string;
  /** The module that raised it: 'mldsa', 'slhdsa', 'magnetar', 'quorum', 'lens', 'lss', 'pulsar', 'party', 'keystore', 'wire', 'js', … */
  module: string;
  /** Party ids to blame, increasing (empty for ML-DSA and the caller's own faults). */
  culprits: number[];
  /** The argument at fault, for a check made on the JS side. */
  argument?: string;
  /** 'NOT_ENOUGH_VALID_SHARES': every signer the combiner excluded, and why. */
  blame?: import('./protocols.js').BlameEntry[];
}

/** A public key expanded for repeated verification (see `prepare`). */
export interface PreparedKey {
  /** Same verdict as `verify(sig, msg, publicKey, opts)`. */
  verify(sig: Uint8Array, msg: Uint8Array, opts?: VerifyOpts): boolean;
  /**
   * Release the WebAssembly memory held by the key. Never throws; called during a call (from a
   * hook), the memory is released when that call returns. `verify` then throws QuasarError
   * 'USE_AFTER_FREE'.
   */
  free(): void;
}

/** FIPS 204, Table 2: the byte lengths of each parameter set, plus seed and signing randomness. */
export declare const ML_DSA_LENGTHS: {
  readonly 44: MlDsaLengths & { readonly publicKey: 1312; readonly secretKey: 2560; readonly signature: 2420 };
  readonly 65: MlDsaLengths & { readonly publicKey: 1952; readonly secretKey: 4032; readonly signature: 3309 };
  readonly 87: MlDsaLengths & { readonly publicKey: 2592; readonly secretKey: 4896; readonly signature: 4627 };
};
type SlhLengths<N extends number, S extends number, K extends number, P extends number, R extends number> = SlhDsaLengths & {
  readonly seed: N;
  readonly publicKey: P;
  readonly secretKey: K;
  readonly signature: S;
  readonly signRand: R;
};
/** FIPS 205, Table 2: the byte lengths of each SHAKE set, by its standard name. */
export declare const SLH_DSA_LENGTHS: {
  readonly 'SLH-DSA-SHAKE-128s': SlhLengths<48, 7856, 64, 32, 16>;
  readonly 'SLH-DSA-SHAKE-128f': SlhLengths<48, 17088, 64, 32, 16>;
  readonly 'SLH-DSA-SHAKE-192s': SlhLengths<72, 16224, 96, 48, 24>;
  readonly 'SLH-DSA-SHAKE-192f': SlhLengths<72, 35664, 96, 48, 24>;
  readonly 'SLH-DSA-SHAKE-256s': SlhLengths<96, 29792, 128, 64, 32>;
  readonly 'SLH-DSA-SHAKE-256f': SlhLengths<96, 49856, 128, 64, 32>;
};
/** The longest message the package signs or verifies (16 MiB). */
export declare const MAX_MESSAGE_BYTES: 16777216;
/** The longest ML-DSA context string (FIPS 204). */
export declare const MAX_CONTEXT_BYTES: 255;

// Threshold protocols (Lens, Pulsar custody and committee, LSS dealing, Corona): one `Party`
// class, the factories, the key-share holders (`CoronaShare` among them), the verifiers
// (`corona.verify`), `constants`, `trustModels`. See protocols.d.ts.
export * from './protocols.js';
