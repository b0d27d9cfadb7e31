// ML-DSA (FIPS 204): the sizes of each parameter set and `makeMlDsa`, the factory of the
// sets' API over one WebAssembly instance — verify, prepare and μ in both builds, keygen and
// sign in the full one. Not a public entry point: js/index.js and js/verify.js export its sets.

import {
  INTERNAL_SIGN_OPTS,
  INTERNAL_VERIFY_OPTS,
  MAX_MESSAGE_BYTES,
  SIGN_OPTS,
  VERIFY_OPTS,
  boolOpt,
  byteLength,
  bytes,
  checkOpts,
  contextOf,
  quasarError,
  randomBytes,
  secretBytes,
  signRandomness,
} from './common.js';

/** FIPS 204, Table 2: byte lengths of each parameter set, plus seed and signing randomness. */
export const ML_DSA_LENGTHS = Object.freeze({
  44: Object.freeze({ seed: 32, publicKey: 1312, secretKey: 2560, signature: 2420, signRand: 32 }),
  65: Object.freeze({ seed: 32, publicKey: 1952, secretKey: 4032, signature: 3309, signRand: 32 }),
  87: Object.freeze({ seed: 32, publicKey: 2592, secretKey: 4896, signature: 4627, signRand: 32 }),
});

/** NIST security category of each level (as noble's `securityLevel`, in bits: 128/192/256). */
export const SECURITY_LEVEL = Object.freeze({ 44: 128, 65: 192, 87: 256 });

/**
 * The verify half of an ML-DSA parameter set (shared by the full and light builds).
 * `w` is the generated module; `loader` the instance's loader (`call`).
 */
function verifySurface(level, w, loader) {
  const lengths = ML_DSA_LENGTHS[level];
  const msgOf = (m, name = 'message') => bytes(m, name, { max: MAX_MESSAGE_BYTES });
  /** Verify `sig` on `msg` under `publicKey`; false for any bad signature. */
  function verify(sig, msg, publicKey, opts) {
    const o = checkOpts(opts, VERIFY_OPTS);
    const ctx = contextOf(o);
    const s = bytes(sig, 'signature');
    const m = msgOf(msg);
    const pk = bytes(publicKey, 'publicKey', { length: lengths.publicKey });
    if (byteLength(s) !== lengths.signature) return (loader.assertReady(), false);
    return loader.call(() => w.mlDsaVerify(level, pk, m, ctx, s));
  }
  /** Verify on M′ (or on μ with `externalMu: true`); false for any bad signature. */
  function internalVerify(sig, msg, publicKey, opts) {
    const o = checkOpts(opts, INTERNAL_VERIFY_OPTS);
    const externalMu = boolOpt(o, 'externalMu');
    const s = bytes(sig, 'signature');
    const m = externalMu ? bytes(msg, 'mu', { length: 64 }) : msgOf(msg);
    const pk = bytes(publicKey, 'publicKey', { length: lengths.publicKey });
    if (byteLength(s) !== lengths.signature) return (loader.assertReady(), false);
    return loader.call(() => (externalMu ? w.mlDsaVerifyMu(level, pk, m, s) : w.mlDsaVerifyInternal(level, pk, m, s)));
  }
  /** μ = H(H(pk) ‖ 0 ‖ |ctx| ‖ ctx ‖ msg, 64), the input of external-μ signing. */
  function computeMu(msg, publicKey, opts) {
    const o = checkOpts(opts, VERIFY_OPTS);
    const ctx = contextOf(o);
    const m = msgOf(msg);
    const pk = bytes(publicKey, 'publicKey', { length: lengths.publicKey });
    return loader.call(() => w.mlDsaComputeMu(level, pk, m, ctx));
  }
  /**
   * Expand `publicKey` once for verifying many signatures under it (about 3x faster per
   * verification). Returns `{ verify(sig, msg, opts), free() }`.
   */
  function prepare(publicKey) {
    const pk = bytes(publicKey, 'publicKey', { length: lengths.publicKey });
    let key = loader.call(() => new w.MlDsaPreparedKey(level, pk));
    return Object.freeze({
      verify(sig, msg, opts) {
        const o = checkOpts(opts, VERIFY_OPTS);
        const ctx = contextOf(o);
        const s = bytes(sig, 'signature');
        const m = msgOf(msg);
        // Taken now: freed by a hook during the call, the key is released after it.
        const k = key;
        if (k === null) throw quasarError('USE_AFTER_FREE', 'MlDsaPreparedKey: used after free()');
        if (byteLength(s) !== lengths.signature) return (loader.assertReady(), false);
        return loader.call(() => k.verify(m, ctx, s));
      },
      free() {
        const k = key;
        key = null;
        loader.release(k);
      },
    });
  }
  return { lengths, verify, internalVerify, computeMu, prepare };
}

/**
 * The three ML-DSA sets over the instance of generated module `w` and its `loader`, as
 * `{ mlDsa44, mlDsa65, mlDsa87 }`: the full build's API (`full`: keygen, sign and the
 * internal interface) or the light build's (verify only).
 */
export function makeMlDsa(w, loader, { full }) {
  const set = (level) => makeSet(level, w, loader, full);
  return Object.freeze({ mlDsa44: set(44), mlDsa65: set(65), mlDsa87: set(87) });
}

/** ML-DSA-`level`'s frozen API (see `makeMlDsa`). */
function makeSet(level, w, loader, full) {
  const v = verifySurface(level, w, loader);
  const { lengths } = v;
  if (!full) {
    return Object.freeze({
      lengths,
      securityLevel: SECURITY_LEVEL[level],
      verify: v.verify,
      prepare: v.prepare,
      internal: Object.freeze({
        lengths,
        verify: v.internalVerify,
        computeMu: v.computeMu,
      }),
    });
  }


  function keygen(seed) {
    const ownSeed = seed === undefined;
    const s = ownSeed ? randomBytes(32) : secretBytes(seed, 'seed', { length: 32 });
    try {
      // Indexed, not destructured: a replaced Array.prototype[Symbol.iterator] cannot choose the keys.
      const keys = loader.call(() => w.mlDsaKeygen(level, s));
      return { publicKey: keys[0], secretKey: keys[1] };
    } finally {
      s.fill(0);
    }
  }

  function sign(msg, secretKey, opts) {
    const o = checkOpts(opts, SIGN_OPTS);
    const ctx = contextOf(o);
    const m = bytes(msg, 'message', { max: MAX_MESSAGE_BYTES });
    const sk = secretBytes(secretKey, 'secretKey', { length: lengths.secretKey });
    const rnd = signRandomness(o.extraEntropy);
    try {
      return loader.call(() => w.mlDsaSign(level, sk, m, ctx, rnd));
    } finally {
      sk.fill(0);
      if (rnd) rnd.fill(0);
    }
  }

  function internalSign(msg, secretKey, opts) {
    const o = checkOpts(opts, INTERNAL_SIGN_OPTS);
    const externalMu = boolOpt(o, 'externalMu');
    const m = externalMu ? bytes(msg, 'mu', { length: 64 }) : bytes(msg, 'message', { max: MAX_MESSAGE_BYTES });
    const sk = secretBytes(secretKey, 'secretKey', { length: lengths.secretKey });
    const rnd = signRandomness(o.extraEntropy, true);
    try {
      return loader.call(() => (externalMu ? w.mlDsaSignMu(level, sk, m, rnd) : w.mlDsaSignInternal(level, sk, m, rnd)));
    } finally {
      sk.fill(0);
      rnd.fill(0);
    }
  }

  return Object.freeze({
    lengths,
    securityLevel: SECURITY_LEVEL[level],
    keygen,
    sign,
    verify: v.verify,
    prepare: v.prepare,
    internal: Object.freeze({
      lengths,
      keygen,
      sign: internalSign,
      verify: v.internalVerify,
      computeMu: v.computeMu,
    }),
  });
}
