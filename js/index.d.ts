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
 * is fetched relative to this module.
 */
export declare function init(input?: InitInput): Promise<void>;
export default init;

/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
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

/** Options of `verify`. Unknown keys throw a TypeError. */
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
  /** The message is the 64-byte μ instead of M′. */
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

/**
 * What the package throws for the library's errors and its own checks
 * (`err.name === 'QuasarError'`). Codes are API, listed in the README; never renamed.
 */
export interface QuasarError extends Error {
  name: 'QuasarError';
  /**
   * Stable code: the library's (e.g. 'INVALID_LENGTH', 'CONTEXT_TOO_LONG',
   * 'MALFORMED_SECRET_KEY', 'NOT_ENOUGH_QUALIFIED', 'MISSING_MESSAGE') or the package's own:
   * 'DETACHED_BUFFER' (a view of a transferred buffer), 'USE_AFTER_FREE',
   * 'INSTANCE_POISONED' (the WASM instance trapped earlier: reload it).
   */
  code: string;
  /** The module that raised it: 'mldsa', 'slhdsa', 'lens', 'lss', 'pulsar', 'party', 'snapshot', 'wire', 'js', … */
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
  /** Release the WebAssembly memory held by the key. */
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

// Threshold protocols (Lens, Pulsar custody, LSS dealing): one `Party` class, the factories,
// the key-share holders, the verifiers, `constants`, `trustModels`. See protocols.d.ts.
export * from './protocols.js';
