// BLS12-381 (minimal-pubkey-size, proof-of-possession ciphersuite): `makeBls`, the byte API
// of the full build over one WebAssembly instance, for cross-checks of the certificates'
// BLS legs. Not a public entry point: js/cert.js adds it to the full build's surface.

import { MAX_MESSAGE_BYTES, byteLength, bytes, checkOpts, copyInto, listOf, randomBytes, secretBytes } from './common.js';

/** BLS12-381 lengths: minimal-pubkey-size (keys in G1, signatures and proofs in G2). */
const BLS_LENGTHS = Object.freeze({ secretKey: 32, publicKey: 48, signature: 96, minIkm: 32 });
const MAX_BLS_LIST = 1 << 16;
const KEYGEN_OPTS = Object.freeze(['keyInfo']);

/**
 * The fixed-size entries of `list`, concatenated: the list is copied first (its length read
 * once, at most MAX_BLS_LIST), then each entry checked, so a Proxy cannot stretch it.
 */
function concat(list, title, length) {
  const entries = listOf(list, title, MAX_BLS_LIST);
  const out = new Uint8Array(entries.length * length);
  for (let i = 0; i < entries.length; i++) copyInto(out, bytes(entries[i], `${title}[${i}]`, { length }), i * length);
  return out;
}

/** An attacker's fixed-size input: checked, or undefined (a verdict of false) at another length. */
function sized(v, title, length) {
  const b = bytes(v, title);
  return byteLength(b) === length ? b : undefined;
}

/** The BLS byte API of the full build (ciphersuite BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_). */
export function makeBls(w, loader) {
  const msgOf = (m) => bytes(m, 'message', { max: MAX_MESSAGE_BYTES });
  return Object.freeze({
    lengths: BLS_LENGTHS,
    ciphersuite: 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_',
    /** KeyGen from `ikm` (at least 32 secret bytes; fresh random 32 when omitted): `{ secretKey, publicKey }`. */
    keygen(ikm, opts) {
      const o = checkOpts(opts, KEYGEN_OPTS);
      const info = o.keyInfo === undefined ? new Uint8Array(0) : bytes(o.keyInfo, 'opts.keyInfo', { max: 1 << 16 });
      const seed = ikm === undefined ? randomBytes(32) : secretBytes(ikm, 'ikm', { max: 1 << 16 });
      try {
        // Indexed, not destructured: a replaced Array.prototype[Symbol.iterator] cannot choose the keys.
        const keys = loader.call(() => w.blsKeygen(seed, info));
        return { secretKey: keys[0], publicKey: keys[1] };
      } finally {
        seed.fill(0);
      }
    },
    /** SkToPk: the 48-byte public key of a 32-byte secret key. */
    getPublicKey(secretKey) {
      const sk = secretBytes(secretKey, 'secretKey', { length: BLS_LENGTHS.secretKey });
      try {
        return loader.call(() => w.blsSkToPk(sk));
      } finally {
        sk.fill(0);
      }
    },
    /** Sign `msg`: the 96-byte signature (deterministic). */
    sign(msg, secretKey) {
      const m = msgOf(msg);
      const sk = secretBytes(secretKey, 'secretKey', { length: BLS_LENGTHS.secretKey });
      try {
        return loader.call(() => w.blsSign(sk, m));
      } finally {
        sk.fill(0);
      }
    },
    /** PopProve: the 96-byte proof of possession of a secret key. */
    popProve(secretKey) {
      const sk = secretBytes(secretKey, 'secretKey', { length: BLS_LENGTHS.secretKey });
      try {
        return loader.call(() => w.blsPopProve(sk));
      } finally {
        sk.fill(0);
      }
    },
    /** Verify `sig` on `msg` under `publicKey`: false for anything that does not decode or verify. */
    verify(sig, msg, publicKey) {
      const s = sized(sig, 'signature', BLS_LENGTHS.signature);
      const m = msgOf(msg);
      const pk = sized(publicKey, 'publicKey', BLS_LENGTHS.publicKey);
      if (s === undefined || pk === undefined) return (loader.assertReady(), false);
      return loader.call(() => w.blsVerify(pk, m, s));
    },
    /** PopVerify: false for anything that does not decode or verify. */
    popVerify(proof, publicKey) {
      const p = sized(proof, 'proof', BLS_LENGTHS.signature);
      const pk = sized(publicKey, 'publicKey', BLS_LENGTHS.publicKey);
      if (p === undefined || pk === undefined) return (loader.assertReady(), false);
      return loader.call(() => w.blsPopVerify(pk, p));
    },
    /** Aggregate 96-byte signatures into one. @throws QuasarError for an empty list or a malformed signature. */
    aggregate(signatures) {
      const all = concat(signatures, 'signatures', BLS_LENGTHS.signature);
      return loader.call(() => w.blsAggregate(all));
    },
    /**
     * FastAggregateVerify: every key of `publicKeys` signed `msg`, aggregated into `sig`. False
     * for anything that does not decode or verify. Each key needs a verified proof of
     * possession (the caller's duty): without it a rogue key forges the aggregate.
     */
    fastAggregateVerify(sig, msg, publicKeys) {
      const s = sized(sig, 'signature', BLS_LENGTHS.signature);
      const m = msgOf(msg);
      const pks = concat(publicKeys, 'publicKeys', BLS_LENGTHS.publicKey);
      if (s === undefined) return (loader.assertReady(), false);
      return loader.call(() => w.blsFastAggregateVerify(pks, m, s));
    },
  });
}
