// ML-DSA (FIPS 204): a key pair, a signature bound to a context, verification in both builds.
import { init, mlDsa65 } from 'quasar-pq';                         // full build
import { init as initVerify, mlDsa65 as verifier } from 'quasar-pq/verify'; // light build: verify only
await init();
await initVerify();
const text = (s) => new TextEncoder().encode(s);
const msg = text('block 42');
const context = text('my-chain');                               // up to 255 bytes; binds the signature to a use
const { publicKey, secretKey } = mlDsa65.keygen();              // or keygen(seed32)
const sig = mlDsa65.sign(msg, secretKey, { context });          // { extraEntropy: false } = deterministic
console.log('valid:', mlDsa65.verify(sig, msg, publicKey, { context }));          // true
console.log('light build:', verifier.verify(sig, msg, publicKey, { context }));   // true
console.log('other message:', mlDsa65.verify(sig, text('block 43'), publicKey, { context })); // false
console.log('no context:', mlDsa65.verify(sig, msg, publicKey));                   // false
