// A Pulsar committee member as a browser process plays it: the same node as the native
// `quasar node`'s (cli/src/committee.rs `Member`), over the npm package — key generation
// (`pulsar.committee.keygen`), signing (`pulsar.committee.signer`, exactly T signers), then every
// member checks the signature with the plain FIPS 204 verifier (`mlDsa*.verify`). The share
// stays in this page's WASM memory; only public bytes and public events leave it.

import { BEFORE, keyEvent } from './events.js';
import { signingMember } from './member.js';

/** Member `id` of a committee at ML-DSA `level`, on the package `lib`. */
export function committeeMember(lib, id, level) {
  let share = null;
  let publicKey = null;
  return signingMember(id, {
    module: 'mldsa',
    signatureLength: lib.ML_DSA_LENGTHS[level].signature,
    key: () => publicKey,
    setup: (phase) => ({ party: lib.pulsar.committee.keygen({ session: phase.dkg, level, threshold: phase.t, members: phase.parties, id }) }),
    setupDone(outcome) {
      share?.free?.();
      share = outcome.keyShare;
      publicKey = outcome.publicKey;
      return [keyEvent(BEFORE, outcome.publicKey)];
    },
    signer: (phase) => lib.pulsar.committee.signer({ share, session: phase.id, signers: phase.signers, message: phase.message }),
    // The standard verifier: FIPS 204 ML-DSA.Verify under the committee's key.
    verify: (message, signature) => lib[`mlDsa${level}`].verify(signature, message, publicKey),
  });
}
