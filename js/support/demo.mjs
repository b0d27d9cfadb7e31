// The demo's and the tests' entry: the package's full API (as js/index.js) over the demo build
// (pkg/demo: the full module compiled with feature `hazmat`), whose party factories also take
// `cheat`, a misbehaviour name from `constants.cheats`, to make that one party misbehave. Never
// shipped: package.json "files" lists neither this file nor pkg/demo, and the package's own
// build has no misbehaviour hooks (js/test/package.test.mjs checks the packed tarball).
//
//   import * as lib from '/js/support/demo.mjs';   // the browser demo (www/)
//   import { lens, constants } from '../support/demo.mjs';   // a JS test
//   lens.keygen({ ...opts, cheat: constants.cheats.dealing });

import * as glue from '../../pkg/demo/quasar_pq.js';
import { echo, makeInit, member, oneOf } from '../common.js';
import { makeCert } from '../cert.js';
import { makeDevnet } from '../devnet.js';
import { makeKeyFormats } from '../keyfmt.js';
import { makeMagnetar } from '../magnetar.js';
import { makeMlDsa } from '../mldsa.js';
import { makeProtocols, constants as packageConstants } from '../protocols.js';
import { makeSlhDsa } from '../slhdsa.js';

/** The demo build's generated module and its loader (tests reach the raw exports through them). */
export { glue };
export const loader = makeInit(glue, new URL('../../pkg/demo/quasar_pq_bg.wasm', import.meta.url).href);

export const init = loader.init;
export const initSync = loader.initSync;

const ml = makeMlDsa(glue, loader, { full: true });
export const mlDsa44 = ml.mlDsa44;
export const mlDsa65 = ml.mlDsa65;
export const mlDsa87 = ml.mlDsa87;

const slh = makeSlhDsa(glue, loader, { full: true });
export const slhDsaShake128s = slh.slhDsaShake128s;
export const slhDsaShake128f = slh.slhDsaShake128f;
export const slhDsaShake192s = slh.slhDsaShake192s;
export const slhDsaShake192f = slh.slhDsaShake192f;
export const slhDsaShake256s = slh.slhDsaShake256s;
export const slhDsaShake256f = slh.slhDsaShake256f;

const mag = makeMagnetar(glue, loader, { full: true });
export const magnetar = mag.magnetar;
export const MagnetarRegistry = mag.MagnetarRegistry;

const cert = makeCert(glue, loader, { full: true });
export const verifyCertificate = cert.verifyCertificate;
export const LightClient = cert.LightClient;
export const bls = cert.bls;
export { CERT_POLICIES, CERT_TRUST_MODEL } from '../cert.js';

export const { keys } = makeKeyFormats(glue, loader);
export const { testChain } = makeDevnet(glue, loader);
export { KEY_ALGORITHMS } from '../keyfmt.js';

/** The misbehaviour names, by what the demo's toggle makes the party do (`party::hazmat::Cheat`). */
const CHEATS = Object.freeze({ dealing: 'bad-shares', signing: 'bad-contribution', misaddress: 'misaddress', garbage: 'garbage' });
const CHEAT_NAMES = Object.freeze(Object.values(CHEATS));

function cheatOf(cheat) {
  if (cheat === undefined || cheat === null) return undefined;
  if (typeof cheat !== 'string') throw new TypeError(`cheat must be a misbehaviour name, got ${typeof cheat}`);
  // Checked here, not only in Rust: the glue would first copy a string of any length into WASM memory.
  if (!member(CHEAT_NAMES, cheat)) throw new RangeError(`cheat must be one of ${oneOf(CHEAT_NAMES)}, got ${echo(cheat)}`);
  return cheat;
}

/**
 * The hook of js/party.js `makeCore`: the factories whose party can misbehave also take
 * `cheat`; a named one is armed in the module (`hazmatArm`) for the one start it runs, and
 * disarmed afterwards whatever the start did.
 */
const hooks = Object.freeze({
  keys: Object.freeze(['cheat']),
  prepare(o) {
    const cheat = cheatOf(o.cheat);
    if (cheat === undefined) return (start) => start();
    return (start) => {
      glue.hazmatArm(cheat);
      try {
        return start();
      } finally {
        glue.hazmatArm(undefined);
      }
    };
  },
});

export const { Party, LensKeyShare, LensKeyring, PulsarKeyShare, PulsarDkgShare, PulsarKeyring, PulsarCommitteeShare, CoronaShare, Rng, lens, pulsar, corona } = makeProtocols(glue, loader, hooks);
/** The package's protocol constants and `cheats`, the misbehaviour names. */
export const constants = Object.freeze({ ...packageConstants, cheats: CHEATS });
export { trustModels, run, runAsync } from '../protocols.js';

export { ML_DSA_LENGTHS } from '../mldsa.js';
export { SLH_DSA_LENGTHS } from '../slhdsa.js';
export { MAX_MESSAGE_BYTES, MAX_CONTEXT_BYTES } from '../common.js';

export default init;
