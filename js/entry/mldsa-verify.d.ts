// Types for `quasar-pq/verify/mldsa`: ML-DSA verification alone (as in `quasar-pq/verify`).
import type { InitInput } from '../index.js';
export type { InitInput, InternalVerifyOpts, MlDsaLengths, PreparedKey, QuasarError, VerifyOpts } from '../index.js';
export type { MlDsaVerifier, MlDsaVerifyInternal } from '../verify.js';
export { mlDsa44, mlDsa65, mlDsa87 } from '../verify.js';
export { ML_DSA_LENGTHS, MAX_MESSAGE_BYTES, MAX_CONTEXT_BYTES } from '../index.js';
/** Load and instantiate this entry point's WebAssembly module; await once before anything else. */
export declare function init(input?: InitInput): Promise<void>;
export default init;
/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
export declare function initSync(module: BufferSource | WebAssembly.Module): void;
