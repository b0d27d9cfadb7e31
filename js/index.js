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
  SECURITY_LEVEL,
  SIGN_OPTS,
  abytes,
  boolOpt,
  checkOpts,
  contextOf,
  mlDsaVerifySurface,
  randomBytes,
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
  const v = mlDsaVerifySurface(level, w, loader.assertReady);
  const { lengths } = v;

  function keygen(seed) {
    const ownSeed = seed === undefined;
    const s = ownSeed ? randomBytes(32) : abytes(seed, 32, 'seed');
    loader.assertReady();
    try {
      const [publicKey, secretKey] = w.mlDsaKeygen(level, s);
      return { publicKey, secretKey };
    } finally {
      if (ownSeed) s.fill(0);
    }
  }

  function sign(msg, secretKey, opts) {
    const o = checkOpts(opts, SIGN_OPTS);
    const ctx = contextOf(o);
    abytes(msg, undefined, 'message');
    abytes(secretKey, lengths.secretKey, 'secretKey');
    const rnd = signRandomness(o.extraEntropy);
    loader.assertReady();
    try {
      return w.mlDsaSign(level, secretKey, msg, ctx, rnd);
    } finally {
      if (o.extraEntropy === undefined && rnd) rnd.fill(0);
    }
  }

  function internalSign(msg, secretKey, opts) {
    const o = checkOpts(opts, INTERNAL_SIGN_OPTS);
    const externalMu = boolOpt(o, 'externalMu');
    abytes(msg, externalMu ? 64 : undefined, externalMu ? 'mu' : 'message');
    abytes(secretKey, lengths.secretKey, 'secretKey');
    const rnd = signRandomness(o.extraEntropy, true);
    loader.assertReady();
    try {
      return externalMu ? w.mlDsaSignMu(level, secretKey, msg, rnd) : w.mlDsaSignInternal(level, secretKey, msg, rnd);
    } finally {
      if (o.extraEntropy === undefined) rnd.fill(0);
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

// Threshold protocols: Lens (FROST), Pulsar custody, LSS resharing. See protocols.d.ts.
export {
  LensParty,
  LensCoordinator,
  PulsarParty,
  PulsarCombiner,
  lens,
  pulsar,
  verifyPulsar,
  decodeActivationCertificate,
  trustModels,
} from './protocols.js';

export default init;
