// SLH-DSA (FIPS 205), and Magnetar: per-validator SLH-DSA votes, checked one by one, aggregated
// into a certificate a light client checks against the registry and the quorum.
import { init, slhDsaShake192f, magnetar, MagnetarRegistry } from 'quasar-pq';
await init();
const text = (s) => new TextEncoder().encode(s);
const msg = text('hello');
const context = text('my-app');
const { publicKey, secretKey } = slhDsaShake192f.keygen();  // or keygen(seed): SK.seed ‖ SK.prf ‖ PK.seed, 3n bytes
const sig = slhDsaShake192f.sign(msg, secretKey, { context }); // hedged; { extraEntropy: false } = deterministic
console.log('slh-dsa valid:', slhDsaShake192f.verify(sig, msg, publicKey, { context })); // true (light build: quasar-pq/verify)

// Magnetar: validators sign; the aggregator checks each vote (a bit each), aggregates the
// valid ones; a light client checks the certificate against the registry and the quorum.
const block = text('block 7');
const keys = [1, 2, 3, 4].map(() => magnetar.keygen('shake192f')); // { publicKey: MAGG, secretKey }
const id = (i) => new Uint8Array(32).fill(i + 1);                  // each validator's 32-byte id
const validators = keys.map((k, i) => ({ id: id(i), publicKey: k.publicKey, weight: 10 }));
const registry = new MagnetarRegistry('shake192f', validators);
const votes = keys.map((k, i) => ({
  id: id(i),
  // validator 4 votes for another block: its vote is refused, the other three still make a quorum
  signature: magnetar.sign('shake192f', i === 3 ? text('block 8') : block, k.secretKey, { context }), // MAGS envelope
}));
const bitmap = registry.verifyBatch(votes, block, { context });     // one boolean per vote
console.log('votes valid:', bitmap.join(' '));                      // true true true false
const cert = magnetar.aggregate('shake192f', votes.filter((_, i) => bitmap[i]));
const verdict = registry.verifyAggregate(cert, block, { context });  // { ok, code?, signers, bitmap, signedWeight, totalWeight, … }
console.log('aggregate:', verdict.ok, `weight ${verdict.signedWeight} of ${verdict.totalWeight}`); // true, 30 of 40
registry.free();
