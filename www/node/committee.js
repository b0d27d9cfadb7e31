// A Pulsar committee member as a browser process plays it: the same node as the native
// `quasar node`'s (cli/src/committee.rs `Member`), over the npm package — key generation
// (`pulsar.committee.keygen`), signing (`pulsar.committee.signer`, exactly T signers, each
// combining and verifying the signature itself), then every member checks the signature the
// signers published with the plain FIPS 204 verifier. The share stays in this page's WASM
// memory; only public bytes and public events leave it.

import { BEFORE, agreed, blameEvents, failure, keyEvent } from './events.js';

/** Member `id` of a committee at ML-DSA `level`, on the package `lib`. */
export function committeeMember(lib, id, level) {
  const mldsa = lib[`mlDsa${level}`];
  let share = null;
  let publicKey = null;
  let signed = { signers: [], signature: null };
  return {
    /** What this member hands others before a phase: a signer's signature, to the audience. */
    publish(phase) {
      return phase.kind === 'verify' && signed.signature ? [{ to: phase.audience, bytes: signed.signature }] : [];
    },
    /** Its role in a phase: `{ idle }`, `{ local: events }` or `{ party }`. */
    start(phase, published) {
      if (phase.kind === 'setup' && phase.parties.includes(id)) {
        const party = lib.pulsar.committee.keygen({ session: phase.dkg, level, threshold: phase.t, members: phase.parties, id });
        return { party };
      }
      if (phase.kind === 'sign') {
        signed = { signers: phase.signers, signature: null };
        if (!phase.signers.includes(id)) return { idle: true };
        if (!share) throw failure('MISSING_SHARE', 'no committee share is held here');
        return { party: lib.pulsar.committee.signer({ share, session: phase.id, signers: phase.signers, message: phase.message }) };
      }
      if (phase.kind === 'verify' && phase.audience.includes(id)) {
        if (!publicKey) throw failure('MISSING_SHARE', 'no committee share is held here');
        const length = lib.ML_DSA_LENGTHS[level].signature;
        const signature = agreed(published, signed.signers, (b) => b.length === length);
        // The standard verifier: FIPS 204 ML-DSA.Verify under the committee's key.
        if (!mldsa.verify(signature, phase.message, publicKey)) throw failure('INVALID_SIGNATURE', 'the signature does not verify', 'mldsa');
        signed.verified = signature;
        return { local: [] };
      }
      return { idle: true };
    },
    /** What to report when its party finished. */
    finish(phase, outcome) {
      if (phase.kind === 'setup') {
        share?.free?.();
        share = outcome.keyShare;
        publicKey = outcome.publicKey;
        return [keyEvent(BEFORE, outcome.publicKey)];
      }
      if (phase.kind === 'sign') {
        signed.signature = outcome.signature;
        // Every signer must have combined the same signature.
        return [...blameEvents(outcome.dropped), keyEvent('signature', outcome.signature), { kind: 'signers', parties: phase.signers }];
      }
      return [];
    },
    /** The public results this member holds. */
    summary() {
      return { publicKey, signature: signed.signature ?? signed.verified ?? null, verified: Boolean(signed.verified) };
    },
  };
}
