// quasar-pq/lens/ristretto255 — Lens (FROST threshold Schnorr over LSS keys: keygen, signing,
// resharing, keyrings) on Ristretto255 alone: FROST(ristretto255, SHA-512) (pkg/lens-ristretto255, about 180 KB
// gzipped). One `Party` class, the factories and the key-share holders, as `quasar-pq` has them
// (protocols.d.ts), over a module with this curve only: another curve is a RangeError that
// names its entry point (each curve is its own module, so a page loads only the one it uses).
//
//   import { init, lens } from 'quasar-pq/lens/ristretto255';
//   await init();

import * as glue from '../../pkg/lens-ristretto255/quasar_pq.js';
import { makeInit } from '../common.js';
import { makeLens } from '../lens.js';
import { makeCore } from '../party.js';

export { constants, trustModels, run, runAsync } from '../protocols.js';
export { MAX_MESSAGE_BYTES } from '../common.js';

const loader = makeInit(glue, new URL('../../pkg/lens-ristretto255/quasar_pq_bg.wasm', import.meta.url).href);

/** `init` (await once before anything else) and `initSync`, as in `quasar-pq`, for this module. */
export const { init, initSync } = loader;

const core = makeCore(glue, loader);
/** The protocol party (one class for every protocol) and the generator factories draw from. */
export const { Party, Rng } = core;
export const { lens, LensKeyShare, LensKeyring } = makeLens(core);

export default init;
