// ML-DSA keys as SubjectPublicKeyInfo, PKCS #8 (RFC 9881 seed-only form), JWK and COSE_Key.
import { init, keys, mlDsa65 } from 'quasar-pq';
await init();
const seed = crypto.getRandomValues(new Uint8Array(32));
const { publicKey } = mlDsa65.keygen(seed);
const spki = keys.toSpki('ML-DSA-65', publicKey, { format: 'pem' }); // "-----BEGIN PUBLIC KEY-----…" (DER bytes by default)
const pkcs8 = keys.toPkcs8('ML-DSA-65', { seed }, { format: 'pem' }); // seed-only form (RFC 9881); form: 'expanded' | 'both'
const k = keys.fromPkcs8(pkcs8);               // { alg: 'ML-DSA-65', seed, secretKey, publicKey }, checked against itself
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
console.log(spki.split('\n')[0]);              // -----BEGIN PUBLIC KEY-----
console.log('pkcs8 round trip:', k.alg, same(k.publicKey, publicKey)); // ML-DSA-65 true
console.log('spki round trip:', same(keys.fromSpki(spki).publicKey, publicKey)); // true; DER bytes are accepted too
const jwk = keys.toJwk(k.alg, { publicKey });  // '{"kty":"AKP","alg":"ML-DSA-65","pub":"…"}'; keys.fromJwk(text)
console.log('jwk:', JSON.parse(jwk).kty, JSON.parse(jwk).alg); // AKP ML-DSA-65
const cose = keys.toCoseKey(k.alg, k);         // COSE_Key bytes (kty 7, alg −49); keys.fromCoseKey(bytes)
console.log('cose round trip:', same(keys.fromCoseKey(cose).publicKey, publicKey)); // true
console.log('kid:', keys.jwkThumbprint(k.alg, publicKey)); // the RFC 7638 `kid`; keys.coseThumbprint → 32 bytes
