// quasar-pq/committee — the Pulsar committee (threshold ML-DSA with no reconstruction: a
// dealer's split or the DKG, and leaderless signing by exactly T of N ≤ 6 members) alone
// (pkg/committee, about 110 KB gzipped): one `Party` class, `pulsar.committee`, `pulsar.verify`
// and `PulsarCommitteeShare`, as `quasar-pq` has them (protocols.d.ts), over a module without
// Pulsar custody (quasar-pq/pulsar) or the other families.
//
//   import { init, pulsar } from 'quasar-pq/committee';
//   await init();

import * as glue from '../../pkg/committee/quasar_pq.js';
import { makeInit } from '../common.js';
import { makePulsar } from '../pulsar.js';
import { makeCore } from '../party.js';

export { constants, trustModels, run, runAsync } from '../protocols.js';
export { MAX_MESSAGE_BYTES } from '../common.js';

const loader = makeInit(glue, new URL('../../pkg/committee/quasar_pq_bg.wasm', import.meta.url).href);

/** `init` (await once before anything else) and `initSync`, as in `quasar-pq`, for this module. */
export const { init, initSync } = loader;

const core = makeCore(glue, loader);
/** The protocol party (one class for every protocol) and the generator factories draw from. */
export const { Party, Rng } = core;
export const { pulsar, PulsarCommitteeShare } = makePulsar(core);

export default init;
