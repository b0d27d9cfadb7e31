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

/** `init` (await once before anything else) and `initSync`, as in `quasar-pq`, for this module. */
export const { init, initSync } = loader;

/** Magnetar (per-validator SLH-DSA, batches, aggregation) and its validator registry. */
export const { magnetar, MagnetarRegistry } = makeMagnetar(glue, loader, { full: true });
/** Certificates, the light client and the BLS12-381 byte API. */
export const { verifyCertificate, LightClient, bls } = makeCert(glue, loader, { full: true });

export default init;
