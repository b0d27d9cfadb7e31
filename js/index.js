// quasar-pq — the full WebAssembly build: ML-DSA (FIPS 204) and SLH-DSA (FIPS 205, SHAKE
// sets) keygen, sign and verify, and the threshold protocols.
//
//   import { init, mlDsa65, slhDsaShake192f } from 'quasar-pq';
//   await init();
//   const { publicKey, secretKey } = mlDsa65.keygen();
//   const sig = mlDsa65.sign(msg, secretKey, { context });
//   mlDsa65.verify(sig, msg, publicKey, { context }); // true
//   const slh = slhDsaShake192f.keygen();            // the same three verbs
//
// Works in Node ≥ 20 (ESM) and in browsers without a bundler. The shape follows
// @noble/post-quantum so the two can be swapped in tests.

import { glue, loader } from './full.js';
import { makeCert } from './cert.js';
import { makeDevnet } from './devnet.js';
import { makeKeyFormats } from './keyfmt.js';
import { makeMlDsa } from './mldsa.js';
import { makeSlhDsa } from './slhdsa.js';
import { makeMagnetar } from './magnetar.js';
import { makeProtocols } from './protocols.js';

/**
 * Load and instantiate the WebAssembly module. Call (and await) once before anything else;
 * later calls return the same promise. `input` optionally overrides where the module comes
 * from: a URL, a `Response`, the bytes, or a compiled `WebAssembly.Module`.
 */
export const init = loader.init;

/** Instantiate synchronously from the module's bytes or a compiled `WebAssembly.Module`. */
export const initSync = loader.initSync;

const ml = makeMlDsa(glue, loader, { full: true });

/** ML-DSA-44 (FIPS 204, NIST security category 2). */
export const mlDsa44 = ml.mlDsa44;
/** ML-DSA-65 (FIPS 204, NIST security category 3). */
export const mlDsa65 = ml.mlDsa65;
/** ML-DSA-87 (FIPS 204, NIST security category 5). */
export const mlDsa87 = ml.mlDsa87;

const slh = makeSlhDsa(glue, loader, { full: true });

/** SLH-DSA-SHAKE-128s (FIPS 205, NIST security category 1; small signatures, slow signing). */
export const slhDsaShake128s = slh.slhDsaShake128s;
/** SLH-DSA-SHAKE-128f (FIPS 205, NIST security category 1; fast signing). */
export const slhDsaShake128f = slh.slhDsaShake128f;
/** SLH-DSA-SHAKE-192s (FIPS 205, NIST security category 3; small signatures, slow signing). */
export const slhDsaShake192s = slh.slhDsaShake192s;
/** SLH-DSA-SHAKE-192f (FIPS 205, NIST security category 3; fast signing). */
export const slhDsaShake192f = slh.slhDsaShake192f;
/** SLH-DSA-SHAKE-256s (FIPS 205, NIST security category 5; small signatures, slow signing). */
export const slhDsaShake256s = slh.slhDsaShake256s;
/** SLH-DSA-SHAKE-256f (FIPS 205, NIST security category 5; fast signing). */
export const slhDsaShake256f = slh.slhDsaShake256f;

// Magnetar: validator keys and MAGS/MAGG envelopes, batch verification with a bitmap,
// aggregate certificates (MAGA) checked against a registry with a quorum. See index.d.ts.
const mag = makeMagnetar(glue, loader, { full: true });
/** Magnetar: per-validator SLH-DSA keygen, signing, verification, batches, aggregation. */
export const magnetar = mag.magnetar;
/** A validator registry in WASM memory: batch verification and aggregate certificates. */
export const MagnetarRegistry = mag.MagnetarRegistry;

// Finality certificates and the light client (both builds), and the BLS12-381 byte API. See
// index.d.ts.
const cert = makeCert(glue, loader, { full: true });
/** Verify a finality certificate (QCRT) against a trusted validator set (QVST) under a policy. */
export const verifyCertificate = cert.verifyCertificate;
/** A light client following certificates and epoch changes from a trusted validator set. */
export const LightClient = cert.LightClient;
/** BLS12-381 (minimal-pubkey-size, proof-of-possession ciphersuite): keys, signing, verification. */
export const bls = cert.bls;
/** The certificate policies, mildest first, and the light client's trust model. */
export { CERT_POLICIES, CERT_TRUST_MODEL } from './cert.js';
/** A deterministic test chain (validator sets and certificates across epoch changes) from a seed. */
export const { testChain } = makeDevnet(glue, loader);

// Key formats: SubjectPublicKeyInfo, PKCS #8 (DER, PEM), JWK and COSE_Key. See index.d.ts.
/** ML-DSA and SLH-DSA keys in the formats other tools use, and their thumbprints. */
export const { keys } = makeKeyFormats(glue, loader);
export { KEY_ALGORITHMS } from './keyfmt.js';

// Threshold protocols: one Party class for every protocol, the key-share holders, the
// factories and verifiers of Lens, Pulsar and Corona. See protocols.d.ts.
export const { Party, LensKeyShare, LensKeyring, PulsarKeyShare, PulsarDkgShare, PulsarKeyring, PulsarCommitteeShare, CoronaShare, Rng, lens, pulsar, corona } = makeProtocols(glue, loader);
export { constants, trustModels, run, runAsync } from './protocols.js';

/** FIPS 204 / FIPS 205 Table 2 sizes of each set, and the package's input bounds. */
export { ML_DSA_LENGTHS } from './mldsa.js';
export { SLH_DSA_LENGTHS } from './slhdsa.js';
export { MAX_MESSAGE_BYTES, MAX_CONTEXT_BYTES } from './common.js';

export default init;
