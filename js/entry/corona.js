// quasar-pq/corona — Corona (the two-round t-of-n threshold lattice signature:
// dealing, signing, verification) alone (pkg/corona, about 90 KB gzipped): one `Party` class,
// the factories and the key-share holders, as `quasar-pq` has them (protocols.d.ts), over a
// module without the other families.
//
//   import { init, corona } from 'quasar-pq/corona';
//   await init();

import * as glue from '../../pkg/corona/quasar_pq.js';
import { makeInit } from '../common.js';
import { makeCorona } from '../corona.js';
import { makeCore } from '../party.js';

export { constants, trustModels, run, runAsync } from '../protocols.js';
export { MAX_MESSAGE_BYTES } from '../common.js';

const loader = makeInit(glue, new URL('../../pkg/corona/quasar_pq_bg.wasm', import.meta.url).href);

/** `init` (await once before anything else) and `initSync`, as in `quasar-pq`, for this module. */
export const { init, initSync } = loader;

const core = makeCore(glue, loader);
/** The protocol party (one class for every protocol) and the generator factories draw from. */
export const { Party, Rng } = core;
export const { corona, CoronaShare } = makeCorona(core);

export default init;
