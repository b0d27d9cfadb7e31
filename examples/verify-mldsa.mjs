// ML-DSA verification from the smallest module: a page that only checks signatures loads 20 KB.
import { init as initSigner, mlDsa65 as signer } from 'quasar-pq/sign'; // keygen and sign (85 KB)
import { init, mlDsa65 } from 'quasar-pq/verify/mldsa';               // verify only (20 KB)
await initSigner();
await init();
const text = (s) => new TextEncoder().encode(s);
const context = text('my-chain');
const { publicKey, secretKey } = signer.keygen();
const sig = signer.sign(text('block 42'), secretKey, { context });
console.log('valid:', mlDsa65.verify(sig, text('block 42'), publicKey, { context }));         // true
console.log('other message:', mlDsa65.verify(sig, text('block 43'), publicKey, { context })); // false
const key = mlDsa65.prepare(publicKey);                                // expand once, verify many
console.log('prepared:', key.verify(sig, text('block 42'), { context })); // true
key.free();
