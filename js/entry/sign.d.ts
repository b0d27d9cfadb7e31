// Types for `quasar-pq/sign`: ML-DSA and SLH-DSA with keygen and signing, and the key formats
// (as in `quasar-pq`).
import type { InitInput } from '../index.js';
export type { InitInput, InternalSignOpts, InternalVerifyOpts, KeyPair, MlDsa, MlDsaInternal, MlDsaLengths, PreparedKey, QuasarError, SignOpts, SlhDsa, SlhDsaInternal, SlhDsaInternalSignOpts, SlhDsaLengths, SlhDsaSignOpts, VerifyOpts, KeyAlgorithm, KeyInput, DecodedPublicKey, DecodedPrivateKey, KeyFormats } from '../index.js';
export { mlDsa44, mlDsa65, mlDsa87, slhDsaShake128s, slhDsaShake128f, slhDsaShake192s, slhDsaShake192f, slhDsaShake256s, slhDsaShake256f, keys, KEY_ALGORITHMS, ML_DSA_LENGTHS, SLH_DSA_LENGTHS, MAX_MESSAGE_BYTES, MAX_CONTEXT_BYTES } from '../index.js';
/** Load and instantiate this entry point's WebAssembly module; await once before anything else. */
export declare function init(input?: InitInput): Promise<void>;
export default init;
/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
export declare function initSync(module: BufferSource | WebAssembly.Module): void;
