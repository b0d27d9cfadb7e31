// quasar-pq/cert — finality certificates, the light client, Magnetar (keygen, signing,
// aggregation, registries) and the BLS12-381 byte API (pkg/cert, about 125 KB gzipped). A page
// that only follows a chain loads `quasar-pq/verify`; the test chain (`testChain`) is in
// `quasar-pq`.
//
//   import { init, verifyCertificate } from 'quasar-pq/cert';
//   await init();
//   verifyCertificate(cert, trustedSet, 'pq-fast'); // { ok, code?, reason?, legs }
//
// The same names and behaviour as `quasar-pq`.

import * as glue from '../../pkg/cert/quasar_pq.js';
import { makeInit } from '../common.js';
import { makeCert } from '../cert.js';
import { makeMagnetar } from '../magnetar.js';

export { CERT_POLICIES, CERT_TRUST_MODEL } from '../cert.js';
export { MAX_MESSAGE_BYTES, MAX_CONTEXT_BYTES } from '../common.js';

const loader = makeInit(glue, new URL('../../pkg/cert/quasar_pq_bg.wasm', import.meta.url).href);

/**
 * Load and instantiate this entry point's WebAssembly module (pkg/cert). Call (and await) once
 * before anything else; later calls return the same promise. `input` optionally overrides where
 * the module comes from: a URL, a `Response`, the bytes, or a compiled `WebAssembly.Module`.
 */
export const init = loader.init;

/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
export const initSync = loader.initSync;

const mag = makeMagnetar(glue, loader, { full: true });
/** Magnetar: per-validator SLH-DSA keygen, signing, verification, batches, aggregation. */
export const magnetar = mag.magnetar;
/** A validator registry in WASM memory: batch verification and aggregate certificates. */
export const MagnetarRegistry = mag.MagnetarRegistry;

const cert = makeCert(glue, loader, { full: true });
/** Verify a finality certificate (QCRT) against a trusted validator set (QVST) under a policy. */
export const verifyCertificate = cert.verifyCertificate;
/** A light client following certificates and epoch changes from a trusted validator set. */
export const LightClient = cert.LightClient;
/** BLS12-381 (minimal-pubkey-size, proof-of-possession ciphersuite): keys, signing, verification. */
export const bls = cert.bls;

export default init;
