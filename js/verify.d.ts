// Types for `quasar-pq/verify` (the light, verify-only WebAssembly build): the full build's
// names without keygen, sign and the protocols.
//
//   import { init, mlDsa65 } from 'quasar-pq/verify';
//   await init();
//   mlDsa65.verify(sig, msg, publicKey, { context });   // true or false

import type { InitInput, InternalVerifyOpts, MlDsaLengths, PreparedKey, VerifyOpts } from './index.js';
export type { InitInput, InternalVerifyOpts, MlDsaLengths, PreparedKey, QuasarError, VerifyOpts } from './index.js';
/** As in the full build. */
export { ML_DSA_LENGTHS, MAX_MESSAGE_BYTES, MAX_CONTEXT_BYTES } from './index.js';

/** Load and instantiate the light WebAssembly module; await once before verifying. */
export declare function init(input?: InitInput): Promise<void>;
export default init;

/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
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
