// Corona (a two-round t-of-n threshold lattice signature of the Ringtail family): the
// trusted dealer, the key-share holder `CoronaShare`, the leaderless signer and verification
// (`corona`), made by `makeCorona` over one instance's core (js/party.js). Not a public entry
// point: js/protocols.js assembles it.

import { MAX_CONTEXT_BYTES, MAX_MESSAGE_BYTES, bytes, byteLength, echo, quasarError, secretBytes } from './common.js';
import { INTERNAL, holder, idList, message, record, required, session } from './party.js';

/** The largest group the library deals (its norm bound is sized for signing sets up to this). */
export const CORONA_MAX_PARTIES = 1024;
/**
 * The most signers of one session through this package: each round-1 message is 614,666 +
 * 36·|T| bytes and a signer's inbox holds |T| − 1 of them (64 signers: about 39 MB a round).
 */
export const CORONA_MAX_SIGNERS = 64;
/** Bytes of a signature (`CORS`). */
const SIGNATURE_BYTES = 15666;
/** The largest key package (`CORK`): 11,054 + 66·(n − 1) bytes for n = 1024. */
const MAX_KEY_PACKAGE_BYTES = 11054 + 66 * (CORONA_MAX_PARTIES - 1);
const EMPTY = new Uint8Array(0);

/** A count (`threshold`, `parties`) for the module's u16: an integer in 1..65535 (the library checks 2 ≤ t ≤ n ≤ 1024). */
function countOf(v, title) {
  if (typeof v !== 'number' || v % 1 !== 0) throw new TypeError(`${title} must be an integer, got ${v === null ? 'null' : typeof v}`);
  if (!(v >= 1 && v <= 65535)) throw new RangeError(`${title} must be in 1..65535, got ${echo(v)}`);
  return v;
}

function contextOf(ctx) {
  if (ctx === undefined) return EMPTY;
  const c = bytes(ctx, 'context', { max: MAX_MESSAGE_BYTES });
  if (byteLength(c) > MAX_CONTEXT_BYTES) throw quasarError('CONTEXT_TOO_LONG', `context is ${byteLength(c)} bytes; at most 255`, 'context', 'corona');
  return c;
}

/** Corona over `core` (js/party.js `makeCore`): `{ corona, CoronaShare }`. */
export function makeCorona(core) {
  const { glue, loader, unwrap, options, starter, withRng, party, SealableShare } = core;

  /**
   * A Corona party's key share (`CORK`: its Shamir share of the secret and its pairwise PRF and
   * MAC keys) with the group key, in WASM memory. `publicInfo()`: `{ id, threshold, parties,
   * groupKey, digest }`.
   */
  class CoronaShare extends SealableShare {
    /** The key package a trusted dealer sent (`keyPackage`, secret), decoded against the group key `groupKey` (`CORG`). */
    static fromDealer(keyPackage, groupKey) {
      const p = secretBytes(keyPackage, 'keyPackage', { max: MAX_KEY_PACKAGE_BYTES });
      const k = record(groupKey, 'groupKey');
      try {
        return new CoronaShare(INTERNAL, loader.call(() => glue.CoronaShareWasm.fromDealer(p, k)));
      } finally {
        p.fill(0);
      }
    }
    /** Restore a sealed share. */
    static restore(snapshot, snapshotKey) {
      const snap = record(snapshot, 'snapshot');
      const key = secretBytes(snapshotKey, 'snapshotKey', { length: 32 });
      return new CoronaShare(INTERNAL, loader.call(() => glue.CoronaShareWasm.restore(snap, key)));
    }
  }

  /**
   * Corona: a trusted dealer's t-of-n key (2 ≤ t ≤ n ≤ 1024; t ≤ 64 here), then any t ≤ |T| ≤ n
   * parties (at most 64 through this package) sign in two rounds of broadcasts (`COR1`, `COR2`),
   * every signer combining and verifying the signature itself. Trust model: `trustModels.corona`.
   */
  const corona = Object.freeze({
    maxParties: CORONA_MAX_PARTIES,
    maxSigners: CORONA_MAX_SIGNERS,
    /**
     * A trusted dealer's key for parties 1..`parties` (this call knows the key while it deals
     * and keeps nothing): `{ threshold, parties, groupKey, shares: [{ id, keyPackage }] }`, each
     * `keyPackage` (`CORK`, secret) for its party only, which loads it with
     * `CoronaShare.fromDealer(keyPackage, groupKey)`.
     */
    deal(opts) {
      const o = options(opts, ['threshold', 'parties', 'seed', 'rng']);
      const what = 'corona.deal';
      const t = countOf(required(o, 'threshold', what), 'threshold');
      const n = countOf(required(o, 'parties', what), 'parties');
      if (t > CORONA_MAX_SIGNERS) throw new RangeError(`threshold must be at most ${CORONA_MAX_SIGNERS} (the most signers of a session here), got ${t}`);
      return withRng(o, (rng) => loader.call(() => glue.coronaDeal(t, n, rng)));
    },
    /**
     * The holder of `share` as one of `signers` (t ≤ |T| ≤ n, at most 64) signing `message`
     * under `context` (at most 255 bytes, default empty) in `session`; outcome: `{ signature,
     * bytesSent, dropped }`.
     */
    signer(opts) {
      const o = options(opts, ['share', 'session', 'signers', 'message', 'context', 'seed', 'rng'], true);
      const what = 'corona.signer';
      const sh = holder(required(o, 'share', what), CoronaShare, 'share');
      const s = session(required(o, 'session', what));
      const signers = idList(required(o, 'signers', what), 'signers');
      if (signers.length > CORONA_MAX_SIGNERS) throw new RangeError(`signers: at most ${CORONA_MAX_SIGNERS} signers in a Corona session here, got ${signers.length}`);
      const m = message(required(o, 'message', what));
      const ctx = contextOf(o.context);
      const start = starter(o);
      return withRng(o, (rng) => party(loader.call(() => start(() => glue.coronaSign(unwrap(sh), s, signers, m, ctx, rng)))));
    },
    /**
     * Whether `signature` (`CORS`) is a Corona signature on `message` under `context` by the
     * group key `groupKey` (`CORG`). False for any bad signature; throws for a group key that
     * does not decode or a context over 255 bytes.
     */
    verify(groupKey, msg, context, signature) {
      const k = record(groupKey, 'groupKey');
      const m = message(msg);
      if (context === undefined) throw new TypeError('context must be a Uint8Array (empty for none), got undefined');
      const ctx = contextOf(context);
      const sig = bytes(signature, 'signature');
      // A signature of another length is false; the group key is checked all the same.
      const s = byteLength(sig) === SIGNATURE_BYTES ? sig : EMPTY;
      return loader.call(() => glue.coronaVerify(k, m, ctx, s));
    },
  });

  return Object.freeze({ corona, CoronaShare });
}
