// SLH-DSA through both builds, type-checked: keygen from a 3n-byte seed, hedged and
// deterministic signing with a context, verification in the light build, the internal
// interface on M′.
import { init, slhDsaShake192f, slhDsaShake192s, SLH_DSA_LENGTHS } from 'quasar-pq';
import type { KeyPair, SlhDsa, SlhDsaLengths } from 'quasar-pq';
import * as light from 'quasar-pq/verify';

await init();
await light.init();
const msg = new TextEncoder().encode('block 7');
const context = new TextEncoder().encode('quasar-demo-v1');
const set: SlhDsa = slhDsaShake192f;
const seed = new Uint8Array(set.lengths.seed);
const { publicKey, secretKey }: KeyPair = set.keygen(seed);
const hedged = set.sign(msg, secretKey, { context });
const det = set.sign(msg, secretKey, { context, extraEntropy: false });
const ok: boolean = light.slhDsaShake192f.verify(hedged, msg, publicKey, { context }) && set.verify(det, msg, publicKey, { context });
const internal = set.internal.sign(msg, secretKey, { extraEntropy: new Uint8Array(set.lengths.signRand) });
const okInternal: boolean = light.slhDsaShake192f.internal.verify(internal, msg, publicKey);
const sigLen: 16224 = SLH_DSA_LENGTHS['SLH-DSA-SHAKE-192s'].signature;
const lengths: SlhDsaLengths = light.slhDsaShake192s.lengths;
console.log(ok, okInternal, sigLen, lengths.publicKey, slhDsaShake192s.securityLevel, light.SLH_DSA_LENGTHS['SLH-DSA-SHAKE-256s'].seed);
