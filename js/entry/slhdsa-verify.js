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

// The build without WebAssembly SIMD, for engines without it (init picks; js/common.js makeInit).
const loader = makeInit(
  glue,
  new URL('../../pkg/slhdsa-verify/quasar_pq_bg.wasm', import.meta.url).href,
  new URL('../../pkg/slhdsa-verify/quasar_pq_baseline_bg.wasm', import.meta.url).href,
);

/** `init` (await once before anything else) and `initSync`, as in `quasar-pq`, for this module. */
export const { init, initSync } = loader;

/** The six SLH-DSA SHAKE sets (FIPS 205): verification. */
export const { slhDsaShake128s, slhDsaShake128f, slhDsaShake192s, slhDsaShake192f, slhDsaShake256s, slhDsaShake256f } = makeSlhDsa(glue, loader, { full: false });

export default init;
