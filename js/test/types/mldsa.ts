// ML-DSA through both builds, type-checked.
import init, { mlDsa65, mlDsa44, ML_DSA_LENGTHS, MAX_CONTEXT_BYTES } from 'quasar-pq';
import * as light from 'quasar-pq/verify';

await init();
await light.init();
const msg = new Uint8Array([1, 2, 3]);
const context = new Uint8Array(MAX_CONTEXT_BYTES);
const { publicKey, secretKey } = mlDsa65.keygen();
const sig = mlDsa65.sign(msg, secretKey, { context, extraEntropy: false });
const n: 3309 = ML_DSA_LENGTHS[65].signature;
const prepared = light.mlDsa65.prepare(publicKey);
const ok: boolean = prepared.verify(sig, msg, { context }) && light.mlDsa44.verify(sig, msg, publicKey);
const mu = mlDsa44.internal.computeMu(msg, mlDsa44.keygen().publicKey);
prepared.free();
console.log(n, ok, mu.length, light.ML_DSA_LENGTHS[44].publicKey, light.MAX_MESSAGE_BYTES);
