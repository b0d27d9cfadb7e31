// Types for `quasar-pq/pulsar`: Pulsar custody alone (as in `quasar-pq`; protocols.d.ts). Its
// `pulsar` has every member of quasar-pq's but `committee` (quasar-pq/committee has that).
import type { InitInput } from '../index.js';
import type { pulsar as allOfPulsar } from '../protocols.js';
export type * from '../protocols.js';
export type { InitInput, QuasarError } from '../index.js';
export { Party, Rng, PulsarKeyShare, PulsarDkgShare, PulsarKeyring, constants, trustModels, run, runAsync } from '../protocols.js';
export { MAX_MESSAGE_BYTES } from '../index.js';
/** Pulsar custody's factories and verifiers (`quasar-pq`'s `pulsar` without `committee`). */
export declare const pulsar: Omit<typeof allOfPulsar, 'committee'>;
/** Load and instantiate this entry point's WebAssembly module; await once before anything else. */
export declare function init(input?: InitInput): Promise<void>;
export default init;
/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
export declare function initSync(module: BufferSource | WebAssembly.Module): void;
