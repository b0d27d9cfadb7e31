// Types for `quasar-pq/cert`: certificates, the light client, Magnetar and BLS (as in `quasar-pq`).
import type { InitInput } from '../index.js';
export type { AggregateOpts, AggregateVerdict, Bls, CertHeader, CertLegKind, CertLegReport, CertOpts, CertPolicy, CertReport, CertUpdate, InitInput, Magnetar, MagnetarBatchItem, MagnetarContribution, MagnetarLengths, MagnetarMode, MagnetarValidator, MagnetarVerifier, QuasarError } from '../index.js';
export { magnetar, MagnetarRegistry, verifyCertificate, LightClient, bls, CERT_POLICIES, CERT_TRUST_MODEL, MAX_MESSAGE_BYTES, MAX_CONTEXT_BYTES } from '../index.js';
/** Load and instantiate this entry point's WebAssembly module; await once before anything else. */
export declare function init(input?: InitInput): Promise<void>;
export default init;
/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
export declare function initSync(module: BufferSource | WebAssembly.Module): void;
