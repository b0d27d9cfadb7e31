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

/** `init` (await once before anything else) and `initSync`, as in `quasar-pq`, for this module. */
export const { init, initSync } = loader;

/** ML-DSA-44, -65 and -87 (FIPS 204). */
export const { mlDsa44, mlDsa65, mlDsa87 } = makeMlDsa(glue, loader, { full: true });

/** The six SLH-DSA SHAKE sets (FIPS 205). */
export const { slhDsaShake128s, slhDsaShake128f, slhDsaShake192s, slhDsaShake192f, slhDsaShake256s, slhDsaShake256f } = makeSlhDsa(glue, loader, { full: true });

/** ML-DSA and SLH-DSA keys in the formats other tools use, and their thumbprints. */
export const { keys } = makeKeyFormats(glue, loader);

export default init;
