// Types for `quasar-pq/lens/ristretto255`: Lens on Ristretto255 alone (as in `quasar-pq`; protocols.d.ts).
import type { InitInput } from '../index.js';
export type * from '../protocols.js';
export type { InitInput, QuasarError } from '../index.js';
export { Party, Rng, lens, LensKeyShare, LensKeyring, constants, trustModels, run, runAsync } from '../protocols.js';
export { MAX_MESSAGE_BYTES } from '../index.js';
/** Load and instantiate this entry point's WebAssembly module; await once before anything else. */
export declare function init(input?: InitInput): Promise<void>;
export default init;
/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
export declare function initSync(module: BufferSource | WebAssembly.Module): void;
