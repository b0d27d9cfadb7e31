// quasar-pq — the full WebAssembly build: ML-DSA (FIPS 204) keygen, sign and verify.
//
//   import { init, mlDsa65 } from 'quasar-pq';
//   await init();
//   const { publicKey, secretKey } = mlDsa65.keygen();
//   const sig = mlDsa65.sign(msg, secretKey, { context });
//   mlDsa65.verify(sig, msg, publicKey, { context }); // true
//
// Works in Node ≥ 20 (ESM) and in browsers without a bundler. The shape follows
// @noble/post-quantum so the two can be swapped in tests.

import { glue, loader } from './full.js';
import {
  INTERNAL_SIGN_OPTS,
  MAX_MESSAGE_BYTES,
  SECURITY_LEVEL,
  SIGN_OPTS,
  boolOpt,
  bytes,
  checkOpts,
  contextOf,
  mlDsaVerifySurface,
  randomBytes,
  secretBytes,
  signRandomness,
} from './common.js';

/**
 * Load and instantiate the WebAssembly module. Call (and await) once before anything else;
 * later calls return the same promise. `input` optionally overrides where the module comes
 * from: a URL, a `Response`, the bytes, or a compiled `WebAssembly.Module`.
 */
export const init = loader.init;

/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
export const initSync = loader.initSync;

function mlDsa(level) {
  const w = glue;
  const v = mlDsaVerifySurface(level, w, loader);
  const { lengths } = v;

  function keygen(seed) {
    const ownSeed = seed === undefined;
    const s = ownSeed ? randomBytes(32) : secretBytes(seed, 'seed', { length: 32 });
    try {
      const [publicKey, secretKey] = loader.call(() => w.mlDsaKeygen(level, s));
      return { publicKey, secretKey };
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

/** ML-DSA-44 (FIPS 204, NIST security category 2). */
export const mlDsa44 = mlDsa(44);
/** ML-DSA-65 (FIPS 204, NIST security category 3). */
export const mlDsa65 = mlDsa(65);
/** ML-DSA-87 (FIPS 204, NIST security category 5). */
export const mlDsa87 = mlDsa(87);

// Threshold protocols: one Party class for every protocol, the key-share holders, the
// factories and verifiers of Lens and Pulsar. See protocols.d.ts.
export {
  Party,
  LensKeyShare,
  PulsarKeyShare,
  PulsarDkgShare,
  Rng,
  lens,
  pulsar,
  constants,
  trustModels,
} from './protocols.js';

/** FIPS 204, Table 2 sizes of each level, and the package's input bounds. */
export { ML_DSA_LENGTHS, MAX_MESSAGE_BYTES, MAX_CONTEXT_BYTES } from './common.js';

export default init;
