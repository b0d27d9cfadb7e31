// Types for `quasar-pq/verify` (the light, verify-only WebAssembly build): the full build's
// names without keygen, sign and the protocols.
//
//   import { init, mlDsa65, slhDsaShake192s } from 'quasar-pq/verify';
//   await init();
//   mlDsa65.verify(sig, msg, publicKey, { context });           // true or false
//   slhDsaShake192s.verify(sig, msg, publicKey, { context });   // true or false

import type { InitInput, InternalVerifyOpts, MagnetarVerifier, MlDsaLengths, PreparedKey, SlhDsaLengths, VerifyOpts } from './index.js';
export type {
  AggregateOpts,
  CertHeader,
  CertLegKind,
  CertLegReport,
  CertOpts,
  CertPolicy,
  CertReport,
  CertUpdate,
  AggregateVerdict,
  InitInput,
  InternalVerifyOpts,
  MagnetarBatchItem,
  MagnetarContribution,
  MagnetarLengths,
  MagnetarMode,
  MagnetarValidator,
  MagnetarVerifier,
  MlDsaLengths,
  PreparedKey,
  QuasarError,
  SlhDsaLengths,
  VerifyOpts,
} from './index.js';
/** As in the full build (the registry is the same class in both builds). */
export { ML_DSA_LENGTHS, SLH_DSA_LENGTHS, MAX_MESSAGE_BYTES, MAX_CONTEXT_BYTES, MagnetarRegistry } from './index.js';
/** As in the full build: certificates and the light client (verification only). */
export { verifyCertificate, LightClient, CERT_POLICIES, CERT_TRUST_MODEL } from './index.js';

/**
 * Load and instantiate the light WebAssembly module; await once before verifying. One instance
 * per realm: whichever of `init()` and `initSync()` starts first makes it.
 */
export declare function init(input?: InitInput): Promise<void>;
export default init;

/**
 * Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`; a no-op
 * once an instance exists.
 * @throws QuasarError 'INIT_IN_PROGRESS' while an `init()` is still loading (await it instead).
 */
export declare function initSync(module: BufferSource | WebAssembly.Module): void;

/** Expert verification on M′ or an external μ. */
export interface MlDsaVerifyInternal {
  readonly lengths: MlDsaLengths;
  /** Verify on M′ (or μ with `externalMu: true`). Returns false for any bad signature. */
  verify(sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array, opts?: InternalVerifyOpts): boolean;
  /** μ for pure ML-DSA: H(H(pk) ‖ 0 ‖ |ctx| ‖ ctx ‖ msg, 64). */
  computeMu(msg: Uint8Array, publicKey: Uint8Array, opts?: VerifyOpts): Uint8Array;
}

/** Verification for one ML-DSA parameter set. */
export interface MlDsaVerifier {
  readonly lengths: MlDsaLengths;
  /** 128, 192 or 256. */
  readonly securityLevel: number;
  /**
   * Verify `sig` on `msg` under `publicKey`. Returns false for any bad signature.
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
  /** Expert interface. */
  readonly internal: MlDsaVerifyInternal;
}

/** ML-DSA-44 verification. */
export declare const mlDsa44: MlDsaVerifier;
/** ML-DSA-65 verification. */
export declare const mlDsa65: MlDsaVerifier;
/** ML-DSA-87 verification. */
export declare const mlDsa87: MlDsaVerifier;

/** Verification for one SLH-DSA parameter set (FIPS 205, SHAKE). */
export interface SlhDsaVerifier {
  readonly lengths: SlhDsaLengths;
  /** 128, 192 or 256. */
  readonly securityLevel: number;
  /**
   * Verify `sig` on `msg` under `publicKey` (FIPS 205 slh_verify). Returns false for any bad
   * signature, including one of the wrong length.
   * @throws TypeError for non-Uint8Array arguments or unknown option keys; RangeError for a
   *   public key of the wrong length; QuasarError 'CONTEXT_TOO_LONG'.
   */
  verify(sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array, opts?: VerifyOpts): boolean;
  /** Expert interface: slh_verify_internal on M′ as given (takes no options). */
  readonly internal: {
    readonly lengths: SlhDsaLengths;
    verify(sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array, opts?: Record<string, never>): boolean;
  };
}

/** SLH-DSA-SHAKE-128s verification. */
export declare const slhDsaShake128s: SlhDsaVerifier;
/** SLH-DSA-SHAKE-128f verification. */
export declare const slhDsaShake128f: SlhDsaVerifier;
/** SLH-DSA-SHAKE-192s verification. */
export declare const slhDsaShake192s: SlhDsaVerifier;
/** SLH-DSA-SHAKE-192f verification. */
export declare const slhDsaShake192f: SlhDsaVerifier;
/** SLH-DSA-SHAKE-256s verification. */
export declare const slhDsaShake256s: SlhDsaVerifier;
/** SLH-DSA-SHAKE-256f verification. */
export declare const slhDsaShake256f: SlhDsaVerifier;

/** Magnetar verification: envelopes, batches (aggregate certificates: `MagnetarRegistry`). */
export declare const magnetar: MagnetarVerifier;
