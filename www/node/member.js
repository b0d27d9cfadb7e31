// The member a browser process plays in a signing pipeline (the committee's, Corona's): what
// cli/src/committee.rs and cli/src/corona.rs `Member` share — it signs in the Sign phase (a
// leaderless party: every signer combines and verifies the signature itself), publishes the
// signature to the audience, and in the Verify phase checks the one most signers published.
// A scheme brings its setup, its signer and its verifier:
//
//   setup(phase, published) → { party } | { local: events }   (the key generation or the deal)
//   setupDone(outcome)      → events                            (a setup party's outcome)
//   signer(phase)           → a started party
//   verify(message, signature) → boolean, with `signatureLength` and `key()` (the group key)

import { BEFORE, agreed, blameEvents, failure, keyEvent } from './events.js';

/** Member `id` of a scheme (see the module docs). */
export function signingMember(id, scheme) {
  let signed = { signers: [], signature: null };
  const holds = () => {
    if (!scheme.key()) throw failure('OUT_OF_ORDER', 'no key share at this point of the pipeline');
  };
  return {
    /** What this member hands others before a phase: a signer's signature, to the audience. */
    publish(phase) {
      return phase.kind === 'verify' && signed.signature ? [{ to: phase.audience, bytes: signed.signature }] : [];
    },
    /** Its role in a phase: `{ idle }`, `{ local: events }` or `{ party }`. */
    start(phase, published) {
      if (phase.kind === 'setup' && phase.parties.includes(id)) return scheme.setup(phase, published);
      if (phase.kind === 'sign') {
        signed = { signers: phase.signers, signature: null };
        if (!phase.signers.includes(id)) return { idle: true };
        holds();
        return { party: scheme.signer(phase) };
      }
      if (phase.kind === 'verify' && phase.audience.includes(id)) {
        holds();
        // Its own signature counts when it was a signer.
        const own = signed.signature ? { from: id, bytes: signed.signature } : null;
        const signature = agreed(published, signed.signers, (b) => b.length === scheme.signatureLength, own);
        if (!scheme.verify(phase.message, signature)) throw failure('INVALID_SIGNATURE', 'the signature does not verify', scheme.module);
        signed.verified = signature;
        // The key it verified under, as the native members report it.
        return { local: [keyEvent(BEFORE, scheme.key())] };
      }
      return { idle: true };
    },
    /** What to report when its party finished. */
    finish(phase, outcome) {
      if (phase.kind === 'setup') return scheme.setupDone(outcome);
      if (phase.kind === 'sign') {
        signed.signature = outcome.signature;
        // Every signer must have combined the same signature.
        return [...blameEvents(outcome.dropped), keyEvent('signature', outcome.signature), { kind: 'signers', parties: phase.signers }];
      }
      return [];
    },
    /** The public results this member holds. */
    summary() {
      return { publicKey: scheme.key(), signature: signed.signature ?? signed.verified ?? null, verified: Boolean(signed.verified) };
    },
  };
}
