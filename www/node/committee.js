// A Pulsar committee member as a browser process plays it: the same node as the native
// `quasar node`'s (cli/src/committee.rs `Member`), over the npm package — key generation
// (`pulsar.committee.keygen`), signing (`pulsar.committee.signer`, exactly T signers, each
// combining and verifying the signature itself), then every member checks the signature the
// signers published with the plain FIPS 204 verifier. The share stays in this page's WASM
// memory; only public bytes and public events leave it.

import { sha3_256 } from '/pkg/libp2p.js';

/** The committee scheme's key label, as the conductor compares it across nodes. */
const BEFORE = 'before reshare';

/** `Event::key`: a label, the SHA3-256 of the bytes, their length. */
export const keyEvent = (label, bytes) => ({ kind: 'key', label, digest: sha3_256(bytes), len: bytes.length });

/** `Event::blame(None, …)` for a party's dropped entries. */
export const blameEvents = (dropped) => (dropped ?? []).map((b) => ({ kind: 'blame', phase: null, party: b.party, code: b.code, reason: b.reason }));

/** A failure the node found itself (`Failure::local`). */
export function failure(code, message, module = 'demo', culprits = []) {
  return Object.assign(new Error(message), { name: 'QuasarError', code, module, culprits });
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The bytes more than half of `senders` published (`conduct::agreed`). */
function agreed(published, senders, accept) {
  const copies = new Map();
  for (const f of published) if (senders.includes(f.from) && accept(f.bytes)) copies.set(f.from, f.bytes);
  const groups = [];
  for (const bytes of copies.values()) {
    const g = groups.find((x) => same(x.bytes, bytes));
    if (g) g.n++;
    else groups.push({ bytes, n: 1 });
  }
  const best = groups.sort((a, b) => b.n - a.n)[0];
  if (best && 2 * best.n > senders.length) return best.bytes;
  throw failure('CONFLICTING_PUBLIC_DATA', `no majority of parties ${senders.join(', ')} sent the same public data`);
}

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

/** The scheme a hello's demo arguments name, if a browser party plays it: `{ level, parties, threshold }`. */
export function committeeRun(args) {
  const value = (flag) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (value('--scheme') !== 'committee') return null;
  const level = Number(value('--set') ?? 65);
  const parties = Number(value('--parties'));
  const threshold = Number(value('--threshold'));
  if (![44, 65, 87].includes(level) || !(parties >= 2 && parties <= 6) || !(threshold >= 2 && threshold <= parties)) return null;
  return { level, parties, threshold };
}
