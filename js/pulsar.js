// Pulsar custody (threshold ML-DSA: DKG → key ceremony → certification, signing through a
// combiner, reshare → activation): the key-share holders, the keyring, and the factories and
// verifiers (`pulsar`), made by `makePulsar` over one instance's core (js/party.js). Not a
// public entry point: js/protocols.js assembles it.

import { MAX_MESSAGE_BYTES, bytes, byteLength, echo, member, quasarError, secretBytes } from './common.js';
import { ML_DSA_LENGTHS } from './mldsa.js';
import { INTERNAL, generationOf, holder, idList, message, partyId, record, required, session } from './party.js';

/** The longest message `pulsar.envelope` seals, its longest binding, and what sealing adds (ML-KEM-768 ciphertext + tag). */
const ENVELOPE_MAX_MESSAGE = 1 << 17;
const ENVELOPE_MAX_AAD = 1 << 12;
const ENVELOPE_OVERHEAD = 1088 + 16;

/** The ML-DSA levels of a Pulsar group key. */
export const LEVELS = Object.freeze([44, 65, 87]);
const EMPTY = new Uint8Array(0);

function levelOf(level) {
  if (!member(LEVELS, level)) throw new RangeError(`level must be 44, 65 or 87, got ${echo(level)}`);
  return level;
}

function pulsarLevel(groupKey) {
  const k = bytes(groupKey, 'groupKey');
  let level;
  for (let i = 0; i < LEVELS.length; i++) if (ML_DSA_LENGTHS[LEVELS[i]].publicKey === byteLength(k)) level = LEVELS[i];
  if (level === undefined) throw new RangeError(`groupKey is not an ML-DSA public key (${byteLength(k)} bytes)`);
  return { __proto__: null, level, k };
}

function contextOf(ctx) {
  if (ctx === undefined) return EMPTY;
  const c = bytes(ctx, 'context', { max: MAX_MESSAGE_BYTES });
  if (byteLength(c) > 255) throw quasarError('CONTEXT_TOO_LONG', `context is ${byteLength(c)} bytes; at most 255`, 'context', 'mldsa');
  return c;
}

/** Pulsar over `core` (js/party.js `makeCore`): `{ pulsar, PulsarKeyShare, PulsarDkgShare, PulsarKeyring, PulsarCommitteeShare }`. */
export function makePulsar(core) {
  const { glue, loader, unwrap, options, starter, withRng, reshareOf, party, KeyShareHolder, SealableShare } = core;

  /** A Pulsar custody key share (its LSS share and the certified group key), in WASM memory.
   *  `publicInfo()`: `{ id, sharing, threshold, parties, generation, transcriptHash, level,
   *  groupKey, keyRecord }`. */
  class PulsarKeyShare extends SealableShare {
    /** Restore a sealed share; its group key's certificate is checked again. */
    static restore(snapshot, snapshotKey) {
      const snap = record(snapshot, 'snapshot');
      const key = secretBytes(snapshotKey, 'snapshotKey', { length: 32 });
      return new PulsarKeyShare(INTERNAL, loader.call(() => glue.PulsarKeyShareWasm.restore(snap, key)));
    }
  }

  /** A Pulsar DKG share before the key ceremony certified the group key, in WASM memory.
   *  `publicInfo()`: `{ id, sharing, threshold, parties, generation, transcriptHash }`. */
  class PulsarDkgShare extends KeyShareHolder {}

  /** A Pulsar committee member's share (`PQCS`: its subsets' seeds), in WASM memory.
   *  `publicInfo()`: `{ id, level, threshold, members, publicKey, key, slots, subsets }`. */
  class PulsarCommitteeShare extends SealableShare {
    /** The share a trusted dealer sent (`dealerShare`, secret), checked against the committee `key` (`PQCK`). */
    static fromDealer(dealerShare, key) {
      const d = secretBytes(dealerShare, 'dealerShare', { max: 1 << 16 });
      const k = record(key, 'key');
      return new PulsarCommitteeShare(INTERNAL, loader.call(() => glue.PulsarCommitteeShareWasm.fromDealer(d, k)));
    }
    /** Restore a sealed committee share. */
    static restore(snapshot, snapshotKey) {
      const snap = record(snapshot, 'snapshot');
      const key = secretBytes(snapshotKey, 'snapshotKey', { length: 32 });
      return new PulsarCommitteeShare(INTERNAL, loader.call(() => glue.PulsarCommitteeShareWasm.restore(snap, key)));
    }
  }

  core.owns(glue.PulsarKeyShareWasm, PulsarKeyShare);
  core.owns(glue.PulsarCommitteeShareWasm, PulsarCommitteeShare);
  core.owns(glue.LssShareWasm, PulsarDkgShare);
  const PulsarKeyring = core.makeKeyring('PulsarKeyring', glue.PulsarKeyringWasm, PulsarKeyShare);

  /** The committee's runs per signing session (0: the library's default, 32). */
  function maxRunsOf(v) {
    if (v === undefined) return 0;
    if (typeof v !== 'number' || v % 1 !== 0 || !(v >= 1 && v <= 65535)) throw new RangeError(`maxRuns must be an integer in 1..65535, got ${echo(v)}`);
    return v;
  }

  /**
   * The Pulsar committee: threshold ML-DSA with no reconstruction (2 ≤ T ≤ N ≤ 6). No party and
   * no combiner ever holds the key; exactly T members sign, each broadcasting three messages,
   * and every signer combines the standard FIPS 204 signature itself.
   */
  const committee = Object.freeze({
    maxParties: 6,
    /**
     * A trusted dealer's split (this call knows the key while it deals and keeps nothing):
     * `{ level, threshold, members, publicKey, key, slots, shares: [{ id, dealerShare }] }`, each
     * `dealerShare` (secret) for its member only, which loads it with
     * `PulsarCommitteeShare.fromDealer(dealerShare, key)`.
     */
    deal(opts) {
      const o = options(opts, ['level', 'threshold', 'members', 'seed', 'rng']);
      const what = 'pulsar.committee.deal';
      const level = levelOf(required(o, 'level', what));
      const t = partyId(required(o, 'threshold', what), 'threshold');
      const members = idList(required(o, 'members', what), 'members');
      return withRng(o, (rng) => loader.call(() => glue.pulsarCommitteeDeal(level, t, members, rng)));
    },
    /** Member `id` of the distributed key generation; outcome: the key's fields and its `keyShare`. */
    keygen(opts) {
      const o = options(opts, ['session', 'level', 'threshold', 'members', 'id', 'seed', 'rng']);
      const what = 'pulsar.committee.keygen';
      const s = session(required(o, 'session', what));
      const level = levelOf(required(o, 'level', what));
      const t = partyId(required(o, 'threshold', what), 'threshold');
      const members = idList(required(o, 'members', what), 'members');
      const id = partyId(required(o, 'id', what), 'id');
      return withRng(o, (rng) => party(loader.call(() => glue.pulsarCommitteeKeygen(s, level, t, members, id, rng))));
    },
    /** The holder of `share` as one of exactly T `signers` of `message`; outcome: `{ signature, runs, … }`. */
    signer(opts) {
      const o = options(opts, ['share', 'session', 'signers', 'message', 'context', 'maxRuns', 'seed', 'rng'], true);
      const what = 'pulsar.committee.signer';
      const sh = holder(required(o, 'share', what), PulsarCommitteeShare, 'share');
      const s = session(required(o, 'session', what));
      const signers = idList(required(o, 'signers', what), 'signers');
      const m = message(required(o, 'message', what));
      const ctx = contextOf(o.context);
      const runs = maxRunsOf(o.maxRuns);
      const start = starter(o);
      return withRng(o, (rng) => party(loader.call(() => start(() => glue.pulsarCommitteeSign(unwrap(sh), s, signers, m, ctx, runs, rng)))));
    },
  });

  /**
   * The direct-message envelope (ML-KEM-768 + XChaCha20-Poly1305, bound to `aad`) for a host
   * that carries secret messages over a network: confidential against a recorder with a future
   * quantum computer whatever the channel. The recipient's key pair is a `quasar node keys`
   * process key (`PCEK` public bytes; the secret bytes stay with the recipient).
   */
  const envelope = Object.freeze({
    /** The longest message sealed here: a direct message (a share, a Corona key package ≤ 79 KB). */
    maxMessage: ENVELOPE_MAX_MESSAGE,
    /** A fresh key pair: `{ encapsulationKey (PCEK, to publish), key (secret) }`; `id` (default 1) is recorded in the encoding. */
    keygen(opts) {
      const o = options(opts, ['id', 'seed', 'rng']);
      const id = o.id === undefined ? 1 : partyId(o.id, 'id');
      return withRng(o, (rng) => loader.call(() => glue.pulsarEnvelopeKeygen(id, rng)));
    },
    /** Seals `message` for the holder of `recipient` (`PCEK`), bound to `aad`. */
    seal(opts) {
      const o = options(opts, ['recipient', 'aad', 'message', 'seed', 'rng']);
      const what = 'pulsar.envelope.seal';
      const to = record(required(o, 'recipient', what), 'recipient');
      const aad = bytes(required(o, 'aad', what), 'aad', { max: ENVELOPE_MAX_AAD });
      const m = bytes(required(o, 'message', what), 'message', { max: ENVELOPE_MAX_MESSAGE });
      return withRng(o, (rng) => loader.call(() => glue.pulsarSealMessage(to, aad, m, rng)));
    },
    /** Opens a sealed message with the recipient's secret `key`. @throws QuasarError 'ENVELOPE_NOT_OPENED'. */
    open(opts) {
      const o = options(opts, ['key', 'aad', 'sealed']);
      const what = 'pulsar.envelope.open';
      const key = secretBytes(required(o, 'key', what), 'key', { max: 1 << 16 });
      const aad = bytes(required(o, 'aad', what), 'aad', { max: ENVELOPE_MAX_AAD });
      const sealed = bytes(required(o, 'sealed', what), 'sealed', { max: ENVELOPE_MAX_MESSAGE + ENVELOPE_OVERHEAD });
      return loader.call(() => glue.pulsarOpenMessage(key, aad, sealed));
    },
  });

  /** Pulsar custody's factories and verifiers (the modules built with custody). */
  const custody = {
    envelope,
    /** Party `id` of the Pulsar DKG (LSS Pedersen over Ristretto255). */
    dkg(opts) {
      const o = options(opts, ['session', 'parties', 'threshold', 'id', 'seed', 'rng'], true);
      const s = session(required(o, 'session', 'pulsar.dkg'));
      const parties = idList(required(o, 'parties', 'pulsar.dkg'), 'parties');
      const t = partyId(required(o, 'threshold', 'pulsar.dkg'), 'threshold');
      const id = partyId(required(o, 'id', 'pulsar.dkg'), 'id');
      const start = starter(o);
      return withRng(o, (rng) => party(loader.call(() => start(() => glue.pulsarDkg(s, parties, t, id, rng)))));
    },
    keyCeremony: Object.freeze({
      /** The combiner `id` of the key ceremony of `sharing`; `party.info.session` goes to the signers. */
      combiner(opts) {
        const o = options(opts, ['id', 'level', 'sharing', 'signers', 'session', 'seed', 'rng']);
        const id = partyId(required(o, 'id', 'pulsar.keyCeremony.combiner'), 'id');
        const level = levelOf(required(o, 'level', 'pulsar.keyCeremony.combiner'));
        const sharing = record(required(o, 'sharing', 'pulsar.keyCeremony.combiner'), 'sharing');
        const signers = idList(required(o, 'signers', 'pulsar.keyCeremony.combiner'), 'signers');
        const s = session(required(o, 'session', 'pulsar.keyCeremony.combiner'));
        return withRng(o, (rng) => party(loader.call(() => glue.pulsarCeremonyCombiner(id, level, sharing, signers, s, rng))));
      },
      /** The holder of a DKG `share` as a signer of the key-ceremony `session` (from the combiner). */
      signer(opts) {
        const o = options(opts, ['share', 'session', 'seed', 'rng'], true);
        const sh = holder(required(o, 'share', 'pulsar.keyCeremony.signer'), PulsarDkgShare, 'share');
        const s = record(required(o, 'session', 'pulsar.keyCeremony.signer'), 'session');
        const start = starter(o);
        return withRng(o, (rng) => party(loader.call(() => start(() => glue.pulsarCeremonySigner(unwrap(sh), s, rng)))));
      },
    }),
    /**
     * The key certification after the key ceremony (every party): checks the combiner's
     * `announcement` against the holder's own sharing, proves possession of its share for the
     * key; the outcome's `keyShare` is a `PulsarKeyShare` with the certified group key.
     */
    certify(opts) {
      const o = options(opts, ['share', 'announcement', 'seed', 'rng']);
      const sh = holder(required(o, 'share', 'pulsar.certify'), PulsarDkgShare, 'share');
      const a = record(required(o, 'announcement', 'pulsar.certify'), 'announcement');
      return withRng(o, (rng) => party(loader.call(() => glue.pulsarCertify(unwrap(sh), a, rng))));
    },
    sign: Object.freeze({
      /** The combiner `id` of a session signing `message` (with `context`) under `keyRecord`. */
      combiner(opts) {
        const o = options(opts, ['id', 'keyRecord', 'sharing', 'signers', 'message', 'context', 'session', 'seed', 'rng', 'deterministic']);
        const id = partyId(required(o, 'id', 'pulsar.sign.combiner'), 'id');
        const kr = record(required(o, 'keyRecord', 'pulsar.sign.combiner'), 'keyRecord');
        const sharing = record(required(o, 'sharing', 'pulsar.sign.combiner'), 'sharing');
        const signers = idList(required(o, 'signers', 'pulsar.sign.combiner'), 'signers');
        const m = message(required(o, 'message', 'pulsar.sign.combiner'));
        const ctx = contextOf(o.context);
        const s = session(required(o, 'session', 'pulsar.sign.combiner'));
        if (o.deterministic !== undefined && typeof o.deterministic !== 'boolean') throw new TypeError('deterministic must be a boolean');
        const det = o.deterministic === true;
        return withRng(o, (rng) => party(loader.call(() => glue.pulsarSignCombiner(id, kr, sharing, signers, m, ctx, s, rng, det))));
      },
      /** The holder of `share` as a signer of `session`, which must sign exactly `message`/`context`. */
      signer(opts) {
        const o = options(opts, ['share', 'session', 'message', 'context', 'seed', 'rng'], true);
        const sh = holder(required(o, 'share', 'pulsar.sign.signer'), PulsarKeyShare, 'share');
        const s = record(required(o, 'session', 'pulsar.sign.signer'), 'session');
        const m = message(required(o, 'message', 'pulsar.sign.signer'));
        const ctx = contextOf(o.context);
        const start = starter(o);
        return withRng(o, (rng) => party(loader.call(() => start(() => glue.pulsarSignSigner(unwrap(sh), s, m, ctx, rng)))));
      },
    }),
    /** The holder of `share` in a reshare to `receivers` (threshold `threshold`) dealt by `dealers`. */
    reshare(opts) {
      const o = options(opts, ['share', 'session', 'dealers', 'receivers', 'threshold', 'seed', 'rng'], true);
      const sh = holder(required(o, 'share', 'pulsar.reshare'), PulsarKeyShare, 'share');
      const rs = reshareOf(o, 'pulsar.reshare');
      const start = starter(o);
      return withRng(o, (rng) => party(loader.call(() => start(() => glue.pulsarReshare(unwrap(sh), rs(), rng)))));
    },
    /** A new member `id` of a reshare: `keyRecord` is checked against the old `sharing` first. */
    reshareJoin(opts) {
      const o = options(opts, ['keyRecord', 'sharing', 'session', 'dealers', 'receivers', 'threshold', 'id', 'seed', 'rng']);
      const kr = record(required(o, 'keyRecord', 'pulsar.reshareJoin'), 'keyRecord');
      const sharing = record(required(o, 'sharing', 'pulsar.reshareJoin'), 'sharing');
      const rs = reshareOf(o, 'pulsar.reshareJoin');
      const id = partyId(required(o, 'id', 'pulsar.reshareJoin'), 'id');
      return withRng(o, (rng) => party(loader.call(() => glue.pulsarReshareJoin(kr, sharing, rs(), id, rng))));
    },
    /** The holder of `share` in a refresh dealt by `dealers`. */
    refresh(opts) {
      const o = options(opts, ['share', 'session', 'dealers', 'seed', 'rng'], true);
      const sh = holder(required(o, 'share', 'pulsar.refresh'), PulsarKeyShare, 'share');
      const s = session(required(o, 'session', 'pulsar.refresh'));
      const dealers = idList(required(o, 'dealers', 'pulsar.refresh'), 'dealers');
      const start = starter(o);
      return withRng(o, (rng) => party(loader.call(() => start(() => glue.pulsarRefresh(unwrap(sh), s, dealers, rng)))));
    },
    /**
     * The whole custody lifecycle, one party per role (the library's
     * `pulsar::custody::lifecycle`): what the single-protocol factories hand around out of
     * band (sharing, session, announcement, activation certificate) travels as the parties' own
     * messages, so a host only routes bytes (`run`).
     */
    lifecycle: Object.freeze({
      member: Object.freeze({
        /** Member `id` of a group's setup (DKG → key ceremony → certification); outcome: its `keyring`. */
        setup(opts) {
          const o = options(opts, ['session', 'level', 'members', 'threshold', 'signers', 'combiner', 'id', 'seed', 'rng'], true);
          const what = 'pulsar.lifecycle.member.setup';
          const s = session(required(o, 'session', what));
          const level = levelOf(required(o, 'level', what));
          const members = idList(required(o, 'members', what), 'members');
          const t = partyId(required(o, 'threshold', what), 'threshold');
          const signers = idList(required(o, 'signers', what), 'signers');
          const combiner = partyId(required(o, 'combiner', what), 'combiner');
          const id = partyId(required(o, 'id', what), 'id');
          const start = starter(o);
          return withRng(o, (rng) => party(loader.call(() => start(() => glue.pulsarLifecycleMemberSetup(s, level, members, t, signers, combiner, id, rng)))));
        },
        /** The holder of `keyring` as a signer of a session of `combiner` signing `message`. */
        sign(opts) {
          const o = options(opts, ['keyring', 'session', 'signers', 'message', 'context', 'combiner', 'seed', 'rng'], true);
          const what = 'pulsar.lifecycle.member.sign';
          const kr = holder(required(o, 'keyring', what), PulsarKeyring, 'keyring');
          const s = session(required(o, 'session', what));
          const signers = idList(required(o, 'signers', what), 'signers');
          const m = message(required(o, 'message', what));
          const ctx = contextOf(o.context);
          const combiner = partyId(required(o, 'combiner', what), 'combiner');
          const start = starter(o);
          return withRng(o, (rng) => party(loader.call(() => start(() => glue.pulsarLifecycleMemberSign(unwrap(kr), s, signers, m, ctx, combiner, rng)))));
        },
        /**
         * Member `id` of a reshare with its `keyring` (`PulsarKeyring.empty()` and the group's
         * `keyRecord` and `sharing` for a joining member). The keyring moves into the party and
         * comes back as the outcome's `keyring`.
         */
        reshare(opts) {
          const o = options(opts, ['keyring', 'id', 'session', 'dealers', 'receivers', 'threshold', 'keyRecord', 'sharing', 'seed', 'rng'], true);
          const what = 'pulsar.lifecycle.member.reshare';
          const kr = holder(required(o, 'keyring', what), PulsarKeyring, 'keyring');
          const id = partyId(required(o, 'id', what), 'id');
          const rs = reshareOf(o, what);
          const rec = o.keyRecord === undefined ? undefined : record(o.keyRecord, 'keyRecord');
          const sh = o.sharing === undefined ? undefined : record(o.sharing, 'sharing');
          const start = starter(o);
          return withRng(o, (rng) => party(loader.call(() => start(() => glue.pulsarLifecycleMemberReshare(id, unwrap(kr), rec, sh, rs(), rng)))));
        },
      }),
      combiner: Object.freeze({
        /** The combiner `id` of a group's setup; outcome: the certified `keyRecord`, `groupKey`, `sharing`. */
        setup(opts) {
          const o = options(opts, ['session', 'level', 'members', 'threshold', 'signers', 'id', 'seed', 'rng']);
          const what = 'pulsar.lifecycle.combiner.setup';
          const s = session(required(o, 'session', what));
          const level = levelOf(required(o, 'level', what));
          const members = idList(required(o, 'members', what), 'members');
          const t = partyId(required(o, 'threshold', what), 'threshold');
          const signers = idList(required(o, 'signers', what), 'signers');
          const id = partyId(required(o, 'id', what), 'id');
          return withRng(o, (rng) => party(loader.call(() => glue.pulsarLifecycleCombinerSetup(s, level, members, t, signers, id, rng))));
        },
        /** The combiner `id` of a session in which `signers` of the group (`keyRecord`, `sharing`) sign `message`. */
        sign(opts) {
          const o = options(opts, ['id', 'keyRecord', 'sharing', 'session', 'signers', 'message', 'context', 'seed', 'rng', 'deterministic']);
          const what = 'pulsar.lifecycle.combiner.sign';
          const id = partyId(required(o, 'id', what), 'id');
          const kr = record(required(o, 'keyRecord', what), 'keyRecord');
          const sh = record(required(o, 'sharing', what), 'sharing');
          const s = session(required(o, 'session', what));
          const signers = idList(required(o, 'signers', what), 'signers');
          const m = message(required(o, 'message', what));
          const ctx = contextOf(o.context);
          if (o.deterministic !== undefined && typeof o.deterministic !== 'boolean') throw new TypeError('deterministic must be a boolean');
          const det = o.deterministic === true;
          return withRng(o, (rng) => party(loader.call(() => glue.pulsarLifecycleCombinerSign(s, signers, m, ctx, id, kr, sh, rng, det))));
        },
      }),
    }),
    /**
     * Whether `certificate` activates generation `generation` of the dealing with transcript
     * hash `transcriptHash` of `sharing` (the new generation's `LSG1`) for the group key record
     * `groupKey` (`PCGK`) of that generation (the `keyRecord` of the dealing's outcome): every
     * byte of the record is checked against `sharing`. `{ ok: true }` or `{ ok: false, code,
     * reason }`; a bad record or certificate is a verdict, never a throw.
     */
    verifyActivation(sharing, groupKey, generation, transcriptHash, certificate) {
      const sh = record(sharing, 'sharing');
      const kr = record(groupKey, 'groupKey');
      const g = generationOf(generation);
      const th = bytes(transcriptHash, 'transcriptHash', { length: 32 });
      const cert = record(certificate, 'certificate');
      return loader.call(() => glue.pulsarVerifyActivation(sh, kr, g, th, cert));
    },
  };

  /** Plain FIPS 204 verification under a Pulsar group key (raw); false for any bad signature. */
  function verify(groupKey, msg, signature, opts) {
    const o = options(opts, ['context']);
    const { level, k } = pulsarLevel(groupKey);
    const m = message(msg);
    const s = bytes(signature, 'signature');
    const ctx = contextOf(o.context);
    if (byteLength(s) !== ML_DSA_LENGTHS[level].signature) return (loader.assertReady(), false);
    return loader.call(() => glue.mlDsaVerify(level, k, m, ctx, s));
  }

  // A module has custody, the committee or both (quasar-pq/pulsar, quasar-pq/committee,
  // quasar-pq): `pulsar` holds what its module can run.
  const pulsar = Object.freeze({
    levels: LEVELS,
    ...(typeof glue.pulsarCommitteeDeal === 'function' ? { committee } : {}),
    ...(typeof glue.pulsarDkg === 'function' ? custody : {}),
    verify,
  });

  return Object.freeze({ pulsar, PulsarKeyShare, PulsarDkgShare, PulsarKeyring, PulsarCommitteeShare });
}
