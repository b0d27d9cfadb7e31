// quasar-pq threshold protocols (full build): Lens (FROST), Pulsar custody and Corona.
//
// Every protocol party is the Rust library's own state machine, held in WebAssembly memory
// and wrapped here in ONE class, `Party`: factories start it (`lens.keygen(...)`,
// `pulsar.sign.signer(...)`, …), `party.start` holds its first messages, and
// `party.step(inbox)` runs one round on the messages received for it, until `done`. Parties
// exchange only Uint8Array messages, so each can run in its own Web Worker or worker_thread
// with its own WASM instance. Key shares stay in WASM memory in holder objects
// (`LensKeyShare`, `PulsarKeyShare`, `PulsarDkgShare`, `CoronaShare`) that factories take by
// reference.
// Nothing here implements a round. protocols.d.ts documents the API with one flow per scheme.
//
// One file per family, each made by one factory over an instance's core: js/party.js (the
// classes that own WASM objects, the shared checks), js/lens.js, js/pulsar.js, js/corona.js,
// js/run.js (the loop). `makeProtocols` assembles them for one WebAssembly instance;
// js/index.js exports the package's (the full build).

import { MAX_MESSAGE_BYTES } from './common.js';
import { makeCorona } from './corona.js';
import { LENS_CURVES, makeLens } from './lens.js';
import { makeCore } from './party.js';
import { LEVELS, makePulsar } from './pulsar.js';

export { run, runAsync } from './run.js';

const utf8 = (s) => new TextEncoder().encode(s);

/** One sentence per trust model (DESIGN §3), and what an activation certificate proves. */
export const trustModels = Object.freeze({
  pulsar:
    'Pulsar custody: the ML-DSA key is derived from a Pedersen-shared group secret that no coalition below t knows at rest; ' +
    'to sign, t parties release their shares, encrypted, to one combiner, which rebuilds the key in memory, signs, verifies ' +
    'and zeroizes — the combiner is trusted for that moment.',
  pulsarCommittee:
    'Pulsar committee: the ML-DSA secret is a sum of short secrets, one per subset of N − T + 1 members, each held by every ' +
    'member of its subset; any T members sign without anyone — signer or combiner — ever holding the key, and T − 1 miss a ' +
    'whole subset. Keys come from a trusted dealer (who knows the key while dealing) or from the distributed key generation. ' +
    'Not robust: every signer must answer; a broken reveal names its sender.',
  corona:
    'Corona: a trusted dealer draws the key and knows it while dealing; afterwards nobody holds it, and any t of the n ' +
    'parties sign in two rounds of broadcasts, every signer combining and verifying the signature itself. Not robust: a ' +
    'wrong response cannot be attributed and ends the session without a signature; a malformed, replayed or badly MACed ' +
    'message is dropped and its sender named.',
  lens:
    'Lens: FROST threshold Schnorr against a dishonest majority — fewer than t parties cannot sign, the coordinator is trusted ' +
    'only for liveness, and signatures verify under standard Ed25519/BIP-340.',
  lss:
    'LSS resharing: a dealer who sends an inconsistent share is detected and named; a misaddressed, replayed or non-member ' +
    'message is dropped and its sender named, never an abort; the group public key never changes.',
  activation:
    'Activation certificate: at least t_new distinct members of the new set each proved possession of their new share, bound to ' +
    'the key, the generation and the dealing transcript; the old set cannot make it. An old party erases its old share only ' +
    'after it has verified this certificate.',
});

/**
 * Protocol constants, from the package (never copied into an application). The Pulsar
 * activation context and the Lens activation tag are reserved: ordinary signing refuses them.
 */
export const constants = Object.freeze({
  pulsarActivationContext: utf8('QUASAR-PULSAR-ACTIVATE-v1'),
  lensActivationTag: 'QUASAR-LENS-ACTIVATE-v1',
  lssActivationTag: 'QUASAR-LSS-ACTIVATE-v1',
  maxMessageBytes: MAX_MESSAGE_BYTES,
  curves: LENS_CURVES,
  levels: LEVELS,
});

/**
 * The protocol classes and factories over one WebAssembly instance (its generated module
 * `glue` and its `loader`): `{ Party, Rng, lens, LensKeyShare, LensKeyring, pulsar,
 * PulsarKeyShare, PulsarDkgShare, PulsarKeyring, PulsarCommitteeShare, corona, CoronaShare }`.
 * `hooks`: see js/party.js `makeCore` (the package passes none).
 */
export function makeProtocols(glue, loader, hooks) {
  const core = makeCore(glue, loader, hooks);
  const { lens, LensKeyShare, LensKeyring } = makeLens(core);
  const { pulsar, PulsarKeyShare, PulsarDkgShare, PulsarKeyring, PulsarCommitteeShare } = makePulsar(core);
  const { corona, CoronaShare } = makeCorona(core);
  return Object.freeze({ Party: core.Party, Rng: core.Rng, lens, LensKeyShare, LensKeyring, pulsar, PulsarKeyShare, PulsarDkgShare, PulsarKeyring, PulsarCommitteeShare, corona, CoronaShare });
}

