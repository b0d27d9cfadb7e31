// quasar-pq/pulsar — Pulsar custody (threshold ML-DSA over an LSS sharing of its seed: DKG, key
// ceremony, certification, signing through a combiner, resharing, keyrings, envelopes) alone
// (pkg/pulsar, about 195 KB gzipped): one `Party` class, the factories and the key-share
// holders, as `quasar-pq` has them (protocols.d.ts), over a module without the other families.
// The Pulsar committee (`pulsar.committee`) is its own entry point, quasar-pq/committee.
//
//   import { init, pulsar } from 'quasar-pq/pulsar';
//   await init();

import * as glue from '../../pkg/pulsar/quasar_pq.js';
import { makeInit } from '../common.js';
import { makePulsar } from '../pulsar.js';
import { makeCore } from '../party.js';

export { constants, trustModels, run, runAsync } from '../protocols.js';
export { MAX_MESSAGE_BYTES } from '../common.js';

const loader = makeInit(glue, new URL('../../pkg/pulsar/quasar_pq_bg.wasm', import.meta.url).href);

/** `init` (await once before anything else) and `initSync`, as in `quasar-pq`, for this module. */
export const { init, initSync } = loader;

const core = makeCore(glue, loader);
/** The protocol party (one class for every protocol) and the generator factories draw from. */
export const { Party, Rng } = core;
export const { pulsar, PulsarKeyShare, PulsarDkgShare, PulsarKeyring } = makePulsar(core);

export default init;
