// quasar-pq/sign — ML-DSA (FIPS 204) and SLH-DSA (FIPS 205, SHAKE sets) keygen, sign and
// verify, and the key formats (SPKI, PKCS #8, JWK, COSE_Key), without the protocols and
// certificates (pkg/sign, about 85 KB gzipped).
//
//   import { init, mlDsa65, keys } from 'quasar-pq/sign';
//   await init();
//   const { publicKey, secretKey } = mlDsa65.keygen();
//
// The same names and behaviour as `quasar-pq`.

import * as glue from '../../pkg/sign/quasar_pq.js';
import { makeInit } from '../common.js';
import { makeKeyFormats } from '../keyfmt.js';
import { makeMlDsa } from '../mldsa.js';
import { makeSlhDsa } from '../slhdsa.js';

export { ML_DSA_LENGTHS } from '../mldsa.js';
export { SLH_DSA_LENGTHS } from '../slhdsa.js';
export { KEY_ALGORITHMS } from '../keyfmt.js';
export { MAX_MESSAGE_BYTES, MAX_CONTEXT_BYTES } from '../common.js';

const loader = makeInit(glue, new URL('../../pkg/sign/quasar_pq_bg.wasm', import.meta.url).href);

/**
 * Load and instantiate this entry point's WebAssembly module (pkg/sign). Call (and await) once
 * before anything else; later calls return the same promise. `input` optionally overrides where
 * the module comes from: a URL, a `Response`, the bytes, or a compiled `WebAssembly.Module`.
 */
export const init = loader.init;

/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
export const initSync = loader.initSync;

const ml = makeMlDsa(glue, loader, { full: true });
/** ML-DSA-44 (NIST security category 2). */
export const mlDsa44 = ml.mlDsa44;
/** ML-DSA-65 (NIST security category 3). */
export const mlDsa65 = ml.mlDsa65;
/** ML-DSA-87 (NIST security category 5). */
export const mlDsa87 = ml.mlDsa87;

const slh = makeSlhDsa(glue, loader, { full: true });
/** SLH-DSA-SHAKE-128s (NIST security category 1; small signatures, slow signing). */
export const slhDsaShake128s = slh.slhDsaShake128s;
/** SLH-DSA-SHAKE-128f (NIST security category 1; fast signing). */
export const slhDsaShake128f = slh.slhDsaShake128f;
/** SLH-DSA-SHAKE-192s (NIST security category 3; small signatures, slow signing). */
export const slhDsaShake192s = slh.slhDsaShake192s;
/** SLH-DSA-SHAKE-192f (NIST security category 3; fast signing). */
export const slhDsaShake192f = slh.slhDsaShake192f;
/** SLH-DSA-SHAKE-256s (NIST security category 5; small signatures, slow signing). */
export const slhDsaShake256s = slh.slhDsaShake256s;
/** SLH-DSA-SHAKE-256f (NIST security category 5; fast signing). */
export const slhDsaShake256f = slh.slhDsaShake256f;

/** ML-DSA and SLH-DSA keys in the formats other tools use, and their thumbprints. */
export const { keys } = makeKeyFormats(glue, loader);

export default init;
