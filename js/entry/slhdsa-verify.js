// quasar-pq/verify/slhdsa — SLH-DSA (FIPS 205, the six SHAKE sets) verification alone
// (pkg/slhdsa-verify, about 30 KB gzipped).
//
//   import { init, slhDsaShake192s } from 'quasar-pq/verify/slhdsa';
//   await init();
//   slhDsaShake192s.verify(sig, msg, publicKey, { context }); // true or false
//
// The same names and behaviour as `quasar-pq/verify` and `quasar-pq`.

import * as glue from '../../pkg/slhdsa-verify/quasar_pq.js';
import { makeInit } from '../common.js';
import { makeSlhDsa } from '../slhdsa.js';

export { SLH_DSA_LENGTHS } from '../slhdsa.js';
export { MAX_MESSAGE_BYTES, MAX_CONTEXT_BYTES } from '../common.js';

const loader = makeInit(glue, new URL('../../pkg/slhdsa-verify/quasar_pq_bg.wasm', import.meta.url).href);

/**
 * Load and instantiate this entry point's WebAssembly module (pkg/slhdsa-verify). Call (and await) once
 * before anything else; later calls return the same promise. `input` optionally overrides where
 * the module comes from: a URL, a `Response`, the bytes, or a compiled `WebAssembly.Module`.
 */
export const init = loader.init;

/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
export const initSync = loader.initSync;

const slh = makeSlhDsa(glue, loader, { full: false });
/** SLH-DSA-SHAKE-128s verification (NIST security category 1). */
export const slhDsaShake128s = slh.slhDsaShake128s;
/** SLH-DSA-SHAKE-128f verification (NIST security category 1). */
export const slhDsaShake128f = slh.slhDsaShake128f;
/** SLH-DSA-SHAKE-192s verification (NIST security category 3). */
export const slhDsaShake192s = slh.slhDsaShake192s;
/** SLH-DSA-SHAKE-192f verification (NIST security category 3). */
export const slhDsaShake192f = slh.slhDsaShake192f;
/** SLH-DSA-SHAKE-256s verification (NIST security category 5). */
export const slhDsaShake256s = slh.slhDsaShake256s;
/** SLH-DSA-SHAKE-256f verification (NIST security category 5). */
export const slhDsaShake256f = slh.slhDsaShake256f;

export default init;
