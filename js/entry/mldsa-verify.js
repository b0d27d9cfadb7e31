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

// The build without WebAssembly SIMD, for engines without it (init picks; js/common.js makeInit).
const loader = makeInit(
  glue,
  new URL('../../pkg/mldsa-verify/quasar_pq_bg.wasm', import.meta.url).href,
  new URL('../../pkg/mldsa-verify/quasar_pq_baseline_bg.wasm', import.meta.url).href,
);

/** `init` (await once before anything else) and `initSync`, as in `quasar-pq`, for this module. */
export const { init, initSync } = loader;

/** ML-DSA-44, -65 and -87 (FIPS 204): verification. */
export const { mlDsa44, mlDsa65, mlDsa87 } = makeMlDsa(glue, loader, { full: false });

export default init;
