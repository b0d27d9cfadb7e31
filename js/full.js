// The full WebAssembly build's generated bindings and its loader, shared by js/index.js
// (ML-DSA) and js/protocols.js (threshold protocols). Not a public entry point.

import * as glue from '../pkg/full/quasar_pq.js';
import { makeInit } from './common.js';

export { glue };

/** `init`, `initSync` and `assertReady` of the full module (one instance per realm). */
export const loader = makeInit(glue, new URL('../pkg/full/quasar_pq_bg.wasm', import.meta.url).href);
