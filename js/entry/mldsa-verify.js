// quasar-pq/verify/mldsa — ML-DSA (FIPS 204) verification alone, in the smallest module
// (pkg/mldsa-verify, about 20 KB gzipped): for a page that only checks ML-DSA signatures.
//
//   import { init, mlDsa65 } from 'quasar-pq/verify/mldsa';
//   await init();
//   mlDsa65.verify(sig, msg, publicKey, { context }); // true or false
//
// The same names and behaviour as `quasar-pq/verify` and `quasar-pq`.

import * as glue from '../../pkg/mldsa-verify/quasar_pq.js';
import { makeInit } from '../common.js';
import { makeMlDsa } from '../mldsa.js';

export { ML_DSA_LENGTHS } from '../mldsa.js';
export { MAX_MESSAGE_BYTES, MAX_CONTEXT_BYTES } from '../common.js';

const loader = makeInit(glue, new URL('../../pkg/mldsa-verify/quasar_pq_bg.wasm', import.meta.url).href);

/**
 * Load and instantiate this entry point's WebAssembly module (pkg/mldsa-verify). Call (and await) once
 * before anything else; later calls return the same promise. `input` optionally overrides where
 * the module comes from: a URL, a `Response`, the bytes, or a compiled `WebAssembly.Module`.
 */
export const init = loader.init;

/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
export const initSync = loader.initSync;

const ml = makeMlDsa(glue, loader, { full: false });
/** ML-DSA-44 verification (NIST security category 2). */
export const mlDsa44 = ml.mlDsa44;
/** ML-DSA-65 verification (NIST security category 3). */
export const mlDsa65 = ml.mlDsa65;
/** ML-DSA-87 verification (NIST security category 5). */
export const mlDsa87 = ml.mlDsa87;

export default init;
