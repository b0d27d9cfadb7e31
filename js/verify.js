// quasar-pq/verify — the light (verify-only) WebAssembly build for light clients.
//
//   import { init, mlDsa65, slhDsaShake192s } from 'quasar-pq/verify';
//   await init();
//   mlDsa65.verify(sig, msg, publicKey, { context }); // true or false
//   slhDsaShake192s.verify(sig, msg, publicKey, { context }); // true or false
//   verifyCertificate(cert, trustedSet, 'pq-fast');          // { ok, code?, reason?, legs }
//
// Same names and behaviour as the full build (`quasar-pq`), without keygen and sign.

import * as glue from '../pkg/light/quasar_pq.js';
import { makeInit } from './common.js';
import { makeCert } from './cert.js';
import { makeMagnetar } from './magnetar.js';
import { makeMlDsa } from './mldsa.js';
import { makeSlhDsa } from './slhdsa.js';

export { ML_DSA_LENGTHS } from './mldsa.js';
export { SLH_DSA_LENGTHS } from './slhdsa.js';
export { MAX_MESSAGE_BYTES, MAX_CONTEXT_BYTES } from './common.js';

// The build without WebAssembly SIMD, for engines without it (init picks; js/common.js makeInit).
const loader = makeInit(
  glue,
  new URL('../pkg/light/quasar_pq_bg.wasm', import.meta.url).href,
  new URL('../pkg/light/quasar_pq_baseline_bg.wasm', import.meta.url).href,
);

/**
 * Load and instantiate the light WebAssembly module. Call (and await) once before verifying;
 * later calls return the same promise. `input` optionally overrides where the module comes
 * from: a URL, a `Response`, the bytes, or a compiled `WebAssembly.Module`.
 */
export const init = loader.init;

/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
export const initSync = loader.initSync;

const ml = makeMlDsa(glue, loader, { full: false });

/** ML-DSA-44 verification (FIPS 204, NIST security category 2). */
export const mlDsa44 = ml.mlDsa44;
/** ML-DSA-65 verification (FIPS 204, NIST security category 3). */
export const mlDsa65 = ml.mlDsa65;
/** ML-DSA-87 verification (FIPS 204, NIST security category 5). */
export const mlDsa87 = ml.mlDsa87;

const slh = makeSlhDsa(glue, loader, { full: false });

/** SLH-DSA-SHAKE-128s verification (FIPS 205, NIST security category 1). */
export const slhDsaShake128s = slh.slhDsaShake128s;
/** SLH-DSA-SHAKE-128f verification (FIPS 205, NIST security category 1). */
export const slhDsaShake128f = slh.slhDsaShake128f;
/** SLH-DSA-SHAKE-192s verification (FIPS 205, NIST security category 3). */
export const slhDsaShake192s = slh.slhDsaShake192s;
/** SLH-DSA-SHAKE-192f verification (FIPS 205, NIST security category 3). */
export const slhDsaShake192f = slh.slhDsaShake192f;
/** SLH-DSA-SHAKE-256s verification (FIPS 205, NIST security category 5). */
export const slhDsaShake256s = slh.slhDsaShake256s;
/** SLH-DSA-SHAKE-256f verification (FIPS 205, NIST security category 5). */
export const slhDsaShake256f = slh.slhDsaShake256f;

// Magnetar verification: `magnetar.verify`, `magnetar.verifyBatch`, and a validator
// registry (`MagnetarRegistry`) that checks contributions and aggregate certificates.
const mag = makeMagnetar(glue, loader, { full: false });
/** Magnetar verification (per-validator SLH-DSA envelopes, batches). */
export const magnetar = mag.magnetar;
/** A validator registry in WASM memory: batch verification and aggregate certificates. */
export const MagnetarRegistry = mag.MagnetarRegistry;

// Finality certificates: `verifyCertificate` and the `LightClient` (verification only; the
// BLS byte API is in the full build).
const cert = makeCert(glue, loader, { full: false });
/** Verify a finality certificate (QCRT) against a trusted validator set (QVST) under a policy. */
export const verifyCertificate = cert.verifyCertificate;
/** A light client following certificates and epoch changes from a trusted validator set. */
export const LightClient = cert.LightClient;
/** The certificate policies, mildest first, and the light client's trust model. */
export { CERT_POLICIES, CERT_TRUST_MODEL } from './cert.js';

export default init;
