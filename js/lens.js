// Lens (FROST threshold Schnorr on Ed25519, secp256k1/BIP-340, Ristretto255): the key-share
// holder, the keyring, and the factories and verifiers (`lens`), made by `makeLens` over one
// instance's core (js/party.js). Not a public entry point: js/protocols.js assembles it.

import { bytes, byteLength, echo, named, oneOf, secretBytes } from './common.js';
import { INTERNAL, generationOf, holder, idList, message, partyId, record, required, session } from './party.js';

/** The Lens curves by name and their byte (a null-prototype table: only its own names are curves). */
export const CURVES = Object.freeze({ __proto__: null, ed25519: 1, secp256k1: 2, ristretto255: 3 });
/** The curve names, in byte order. */
export const LENS_CURVES = Object.freeze(Object.keys(CURVES));

function curveByte(curve) {
  if (!named(CURVES, curve)) throw new RangeError(`curve must be one of ${oneOf(LENS_CURVES)}, got ${echo(curve)}`);
  return CURVES[curve];
}

// A group key is 32 bytes on every curve: on secp256k1 BIP-340's x-only key, its one
// accepted encoding (the 33-byte SEC 1 forms are refused, naming the 32 expected).
function lensGroupKey(c, groupKey) {
  const k = bytes(groupKey, 'groupKey');
  const n = byteLength(k);
  if (n !== 32) {
    const form = c === CURVES.secp256k1 ? " (secp256k1: BIP-340's x-only key, not a SEC 1 key)" : '';
    throw new RangeError(`groupKey must be 32 bytes${form}, got ${n}`);
  }
  return k;
}

/** Lens over `core` (js/party.js `makeCore`): `{ lens, LensKeyShare, LensKeyring }`. */
export function makeLens(core) {
  const { glue, loader, unwrap, options, starter, withRng, reshareOf, party, SealableShare } = core;

  /** A Lens key share, held in WASM memory. `publicInfo()`: `{ id, curve, groupKey,
   *  publicPackage, threshold, parties, generation, transcriptHash }`. */
  class LensKeyShare extends SealableShare {
    /** Restore a sealed share (curve: `ed25519`, `secp256k1`, `ristretto255`). */
    static restore(curve, snapshot, snapshotKey) {
      const c = curveByte(curve);
      const snap = record(snapshot, 'snapshot');
      const key = secretBytes(snapshotKey, 'snapshotKey', { length: 32 });
      return new LensKeyShare(INTERNAL, loader.call(() => glue.LensKeyShareWasm.restore(c, snap, key)));
    }
    /**
     * Accept the share a trusted dealer sent (`LNDS`, from `lens.deal`), checked against the
     * dealer's public key package (`LNPK`, the same at every party). The share's `id` is its
     * recipient's.
     */
    static fromDealer(curve, dealerShare, publicPackage) {
      const c = curveByte(curve);
      const d = secretBytes(dealerShare, 'dealerShare', { max: 1 << 22 });
      const pkg = record(publicPackage, 'publicPackage');
      try {
        return new LensKeyShare(INTERNAL, loader.call(() => glue.LensKeyShareWasm.fromDealer(c, d, pkg)));
      } finally {
        d.fill(0);
      }
    }
  }

  const LensKeyring = core.makeKeyring('LensKeyring', glue.LensKeyringWasm, LensKeyShare);
  core.owns(glue.LensKeyShareWasm, LensKeyShare);

  /** Lens factories and verifiers. */
  const lens = Object.freeze({
    curves: LENS_CURVES,
    /**
     * A trusted dealer's key generation (RFC 9591 Appendix C) for `parties` with threshold
     * `threshold`: `{ publicPackage, shares: [{ id, dealerShare }] }`, each `dealerShare` (secret)
     * for its party only, which loads it with `LensKeyShare.fromDealer`. The dealer sees the key.
     */
    deal(opts) {
      const o = options(opts, ['curve', 'parties', 'threshold', 'seed', 'rng']);
      const c = curveByte(required(o, 'curve', 'lens.deal'));
      const parties = idList(required(o, 'parties', 'lens.deal'), 'parties');
      const t = partyId(required(o, 'threshold', 'lens.deal'), 'threshold');
      return withRng(o, (rng) => loader.call(() => glue.lensDeal(c, parties, t, rng)));
    },
    /** Party `id` of a key generation among `parties` with threshold `threshold`. */
    keygen(opts) {
      const o = options(opts, ['curve', 'session', 'parties', 'threshold', 'id', 'seed', 'rng'], true);
      const c = curveByte(required(o, 'curve', 'lens.keygen'));
      const s = session(required(o, 'session', 'lens.keygen'));
      const parties = idList(required(o, 'parties', 'lens.keygen'), 'parties');
      const t = partyId(required(o, 'threshold', 'lens.keygen'), 'threshold');
      const id = partyId(required(o, 'id', 'lens.keygen'), 'id');
      const start = starter(o);
      return withRng(o, (rng) => party(loader.call(() => start(() => glue.lensKeygen(c, s, parties, t, id, rng)))));
    },
    /** The holder of `share` in a reshare to `receivers` with threshold `threshold`. */
    reshare(opts) {
      const o = options(opts, ['share', 'session', 'dealers', 'receivers', 'threshold', 'seed', 'rng'], true);
      const sh = holder(required(o, 'share', 'lens.reshare'), LensKeyShare, 'share');
      const rs = reshareOf(o, 'lens.reshare');
      const start = starter(o);
      return withRng(o, (rng) => party(loader.call(() => start(() => glue.lensReshare(unwrap(sh), rs(), rng)))));
    },
    /** A new receiver `id` (no share yet) of a reshare of the key of `publicPackage`. */
    reshareJoin(opts) {
      const o = options(opts, ['publicPackage', 'session', 'dealers', 'receivers', 'threshold', 'id', 'seed', 'rng']);
      const pkg = record(required(o, 'publicPackage', 'lens.reshareJoin'), 'publicPackage');
      const rs = reshareOf(o, 'lens.reshareJoin');
      const id = partyId(required(o, 'id', 'lens.reshareJoin'), 'id');
      return withRng(o, (rng) => party(loader.call(() => glue.lensReshareJoin(pkg, rs(), id, rng))));
    },
    /** The holder of `share` in a refresh dealt by `dealers`. */
    refresh(opts) {
      const o = options(opts, ['share', 'session', 'dealers', 'seed', 'rng'], true);
      const sh = holder(required(o, 'share', 'lens.refresh'), LensKeyShare, 'share');
      const s = session(required(o, 'session', 'lens.refresh'));
      const dealers = idList(required(o, 'dealers', 'lens.refresh'), 'dealers');
      const start = starter(o);
      return withRng(o, (rng) => party(loader.call(() => start(() => glue.lensRefresh(unwrap(sh), s, dealers, rng)))));
    },
    /** A FROST signer of `message` with `share`, sending to `coordinator`. */
    sign(opts) {
      const o = options(opts, ['share', 'coordinator', 'message', 'seed', 'rng'], true);
      const sh = holder(required(o, 'share', 'lens.sign'), LensKeyShare, 'share');
      const coord = partyId(required(o, 'coordinator', 'lens.sign'), 'coordinator');
      const m = message(required(o, 'message', 'lens.sign'));
      const start = starter(o);
      return withRng(o, (rng) => party(loader.call(() => start(() => glue.lensSign(unwrap(sh), coord, m, rng)))));
    },
    /** The coordinator `id` of a session signing `message` under the key of `publicPackage`. */
    coordinate(opts) {
      const o = options(opts, ['publicPackage', 'id', 'message']);
      const pkg = record(required(o, 'publicPackage', 'lens.coordinate'), 'publicPackage');
      const id = partyId(required(o, 'id', 'lens.coordinate'), 'id');
      const m = message(required(o, 'message', 'lens.coordinate'));
      return party(loader.call(() => glue.lensCoordinate(pkg, id, m)));
    },
    /**
     * The Lens lifecycle, one party per role (the library's `lens::lifecycle`): key generation
     * into a keyring, signing from it, reshare → activation back into it. Run with `run`.
     */
    lifecycle: Object.freeze({
      member: Object.freeze({
        /** Member `id` of a key generation among `members`; outcome: its `keyring`. */
        keygen(opts) {
          const o = options(opts, ['curve', 'session', 'members', 'threshold', 'id', 'seed', 'rng'], true);
          const what = 'lens.lifecycle.member.keygen';
          const c = curveByte(required(o, 'curve', what));
          const s = session(required(o, 'session', what));
          const members = idList(required(o, 'members', what), 'members');
          const t = partyId(required(o, 'threshold', what), 'threshold');
          const id = partyId(required(o, 'id', what), 'id');
          const start = starter(o);
          return withRng(o, (rng) => party(loader.call(() => start(() => glue.lensLifecycleMemberKeygen(c, s, members, t, id, rng)))));
        },
        /** The holder of `keyring` as a signer of `message` for `coordinator`. */
        sign(opts) {
          const o = options(opts, ['keyring', 'coordinator', 'message', 'seed', 'rng'], true);
          const what = 'lens.lifecycle.member.sign';
          const kr = holder(required(o, 'keyring', what), LensKeyring, 'keyring');
          const coord = partyId(required(o, 'coordinator', what), 'coordinator');
          const m = message(required(o, 'message', what));
          const start = starter(o);
          return withRng(o, (rng) => party(loader.call(() => start(() => glue.lensLifecycleMemberSign(unwrap(kr), coord, m, rng)))));
        },
        /**
         * Member `id` of a reshare with its `keyring` (`LensKeyring.empty()` and the current
         * `publicPackage` for a joining member); the keyring comes back as the outcome's `keyring`.
         */
        reshare(opts) {
          const o = options(opts, ['keyring', 'id', 'session', 'dealers', 'receivers', 'threshold', 'publicPackage', 'seed', 'rng'], true);
          const what = 'lens.lifecycle.member.reshare';
          const kr = holder(required(o, 'keyring', what), LensKeyring, 'keyring');
          const id = partyId(required(o, 'id', what), 'id');
          const rs = reshareOf(o, what);
          const pkg = o.publicPackage === undefined ? undefined : record(o.publicPackage, 'publicPackage');
          const start = starter(o);
          return withRng(o, (rng) => party(loader.call(() => start(() => glue.lensLifecycleMemberReshare(id, unwrap(kr), pkg, rs(), rng)))));
        },
      }),
      coordinator: Object.freeze({
        /** The coordinator `id` of the signature of `message` under the key of `publicPackage`. */
        sign(opts) {
          const o = options(opts, ['publicPackage', 'id', 'message']);
          const what = 'lens.lifecycle.coordinator.sign';
          const pkg = record(required(o, 'publicPackage', what), 'publicPackage');
          const id = partyId(required(o, 'id', what), 'id');
          const m = message(required(o, 'message', what));
          return party(loader.call(() => glue.lensLifecycleCoordinatorSign(pkg, id, m)));
        },
      }),
    }),
    /** Standard Ed25519 / BIP-340 / RFC 9591 verification; false for any bad signature or key. */
    verify(curve, groupKey, msg, signature) {
      const c = curveByte(curve);
      const k = lensGroupKey(c, groupKey);
      const m = message(msg);
      const s = bytes(signature, 'signature');
      if (byteLength(s) !== 64) return (loader.assertReady(), false);
      return loader.call(() => glue.lensVerify(c, k, m, s));
    },
    /**
     * Whether `certificate` activates generation `generation` of the dealing with transcript
     * hash `transcriptHash` for the key of `publicPackage` (the new generation's package):
     * `{ ok: true }` or `{ ok: false, code, reason }`.
     */
    verifyActivation(publicPackage, generation, transcriptHash, certificate) {
      const pkg = record(publicPackage, 'publicPackage');
      const g = generationOf(generation);
      const th = bytes(transcriptHash, 'transcriptHash', { length: 32 });
      const cert = record(certificate, 'certificate');
      return loader.call(() => glue.lensVerifyActivation(pkg, g, th, cert));
    },
  });

  return Object.freeze({ lens, LensKeyShare, LensKeyring });
}
