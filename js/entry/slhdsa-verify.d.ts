// Types for `quasar-pq/verify/slhdsa`: SLH-DSA verification alone (as in `quasar-pq/verify`).
import type { InitInput } from '../index.js';
export type { InitInput, QuasarError, SlhDsaLengths, VerifyOpts } from '../index.js';
export type { SlhDsaVerifier } from '../verify.js';
export { slhDsaShake128s, slhDsaShake128f, slhDsaShake192s, slhDsaShake192f, slhDsaShake256s, slhDsaShake256f } from '../verify.js';
export { SLH_DSA_LENGTHS, MAX_MESSAGE_BYTES, MAX_CONTEXT_BYTES } from '../index.js';
/** Load and instantiate this entry point's WebAssembly module; await once before anything else. */
export declare function init(input?: InitInput): Promise<void>;
export default init;
/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
export declare function initSync(module: BufferSource | WebAssembly.Module): void;
