// Types for `quasar-pq/committee`: the Pulsar committee alone (as in `quasar-pq`; protocols.d.ts).
// Its `pulsar` has quasar-pq's `levels`, `committee` and `verify` only.
import type { InitInput } from '../index.js';
import type { pulsar as allOfPulsar } from '../protocols.js';
export type * from '../protocols.js';
export type { InitInput, QuasarError } from '../index.js';
export { Party, Rng, PulsarCommitteeShare, constants, trustModels, run, runAsync } from '../protocols.js';
export { MAX_MESSAGE_BYTES } from '../index.js';
/** The Pulsar committee and plain verification (`quasar-pq`'s `pulsar.committee` and `pulsar.verify`). */
export declare const pulsar: Pick<typeof allOfPulsar, 'levels' | 'committee' | 'verify'>;
/** Load and instantiate this entry point's WebAssembly module; await once before anything else. */
export declare function init(input?: InitInput): Promise<void>;
export default init;
/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
export declare function initSync(module: BufferSource | WebAssembly.Module): void;
