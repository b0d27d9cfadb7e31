// SLH-DSA (FIPS 205, the SHAKE sets): the sizes of each set and `makeSlhDsa`, the factory of
// the sets' API over one WebAssembly instance — verify in both builds, keygen and sign in the
// full one. Not a public entry point: js/index.js and js/verify.js export its sets.

import {
  INTERNAL_SLH_SIGN_OPTS,
  MAX_MESSAGE_BYTES,
  SIGN_OPTS,
  VERIFY_OPTS,
  byteLength,
  bytes,
  checkOpts,
  contextOf,
  randomBytes,
  secretBytes,
  signRandomness,
} from './common.js';

/** FIPS 205, Table 2 (SHAKE sets): n and the signature size; the other lengths follow from n. */
const SLH_DSA_SETS = [
  ['SLH-DSA-SHAKE-128s', 16, 7856],
  ['SLH-DSA-SHAKE-128f', 16, 17088],
  ['SLH-DSA-SHAKE-192s', 24, 16224],
  ['SLH-DSA-SHAKE-192f', 24, 35664],
  ['SLH-DSA-SHAKE-256s', 32, 29792],
  ['SLH-DSA-SHAKE-256f', 32, 49856],
];

/**
 * FIPS 205, Table 2: byte lengths of each SHAKE set by its standard name, with noble's field
 * names: `seed` (SK.seed ‖ SK.prf ‖ PK.seed, 3n), `publicKey` (2n), `secretKey` (4n),
 * `signature`, `signRand` (n, the hedging randomness).
 */
export const SLH_DSA_LENGTHS = Object.freeze(
  Object.fromEntries(
    SLH_DSA_SETS.map(([name, n, signature]) => [
      name,
      Object.freeze({ seed: 3 * n, publicKey: 2 * n, secretKey: 4 * n, signature, signRand: n }),
    ]),
  ),
);

/**
 * The verify half of an SLH-DSA parameter set (shared by the full and light builds), named
 * by its standard name. `w` is the generated module; `loader` the instance's loader.
 */
function verifySurface(name, w, loader) {
  const lengths = SLH_DSA_LENGTHS[name];
  /** Verify `sig` on `msg` under `publicKey` (pure SLH-DSA); false for any bad signature. */
  function verify(sig, msg, publicKey, opts) {
    const o = checkOpts(opts, VERIFY_OPTS);
    const ctx = contextOf(o, 'slhdsa');
    const s = bytes(sig, 'signature');
    const m = bytes(msg, 'message', { max: MAX_MESSAGE_BYTES });
    const pk = bytes(publicKey, 'publicKey', { length: lengths.publicKey });
    if (byteLength(s) !== lengths.signature) return (loader.assertReady(), false);
    return loader.call(() => w.slhDsaVerify(name, pk, m, ctx, s));
  }
  /** Verify on the message representative M′ (FIPS 205 slh_verify_internal). */
  function internalVerify(sig, msg, publicKey, opts) {
    checkOpts(opts, []);
    const s = bytes(sig, 'signature');
    const m = bytes(msg, 'message', { max: MAX_MESSAGE_BYTES });
    const pk = bytes(publicKey, 'publicKey', { length: lengths.publicKey });
    if (byteLength(s) !== lengths.signature) return (loader.assertReady(), false);
    return loader.call(() => w.slhDsaVerifyInternal(name, pk, m, s));
  }
  return { lengths, verify, internalVerify };
}

/**
 * The six SLH-DSA SHAKE sets over the instance of generated module `w` and its `loader`, as
 * `{ slhDsaShake128s, …, slhDsaShake256f }`: the full build's API (`full`: keygen, sign and
 * the internal interface) or the light build's (verify only).
 */
export function makeSlhDsa(w, loader, { full }) {
  const set = (name) => makeSet(name, w, loader, full);
  return Object.freeze({
    slhDsaShake128s: set('SLH-DSA-SHAKE-128s'),
    slhDsaShake128f: set('SLH-DSA-SHAKE-128f'),
    slhDsaShake192s: set('SLH-DSA-SHAKE-192s'),
    slhDsaShake192f: set('SLH-DSA-SHAKE-192f'),
    slhDsaShake256s: set('SLH-DSA-SHAKE-256s'),
    slhDsaShake256f: set('SLH-DSA-SHAKE-256f'),
  });
}

/** The frozen API of the set named `name` (see `makeSlhDsa`). */
function makeSet(name, w, loader, full) {
  const v = verifySurface(name, w, loader);
  const { lengths } = v;
  const n = lengths.signRand;
  if (!full) {
    return Object.freeze({
      lengths,
      securityLevel: 8 * n,
      verify: v.verify,
      internal: Object.freeze({ lengths, verify: v.internalVerify }),
    });
  }


  function keygen(seed) {
    const s = seed === undefined ? randomBytes(lengths.seed) : secretBytes(seed, 'seed', { length: lengths.seed });
    try {
      const keys = loader.call(() => w.slhDsaKeygen(name, s));
      return { publicKey: keys[0], secretKey: keys[1] };
    } finally {
      s.fill(0);
    }
  }

  /** Sign M = `msg` through the pure interface (`internal`: M′ = `msg` as given). */
  function signWith(internal, msg, secretKey, opts) {
    const o = checkOpts(opts, internal ? INTERNAL_SLH_SIGN_OPTS : SIGN_OPTS);
    const ctx = internal ? undefined : contextOf(o, 'slhdsa');
    const m = bytes(msg, 'message', { max: MAX_MESSAGE_BYTES });
    const sk = secretBytes(secretKey, 'secretKey', { length: lengths.secretKey });
    const rnd = signRandomness(o.extraEntropy, false, n);
    try {
      return loader.call(() => (internal ? w.slhDsaSignInternal(name, sk, m, rnd) : w.slhDsaSign(name, sk, m, ctx, rnd)));
    } finally {
      sk.fill(0);
      if (rnd) rnd.fill(0);
    }
  }

  return Object.freeze({
    lengths,
    securityLevel: 8 * n,
    keygen,
    sign: (msg, secretKey, opts) => signWith(false, msg, secretKey, opts),
    verify: v.verify,
    internal: Object.freeze({
      lengths,
      keygen,
      sign: (msg, secretKey, opts) => signWith(true, msg, secretKey, opts),
      verify: v.internalVerify,
    }),
  });
}
