// Key formats, type-checked: SPKI and PKCS #8 in DER and PEM (the overloads give bytes or a
// string by `format`), a decoded key passed back, JWK and COSE_Key, thumbprints.
import { init, keys, mlDsa65, KEY_ALGORITHMS } from 'quasar-pq';
import type { DecodedPrivateKey, DecodedPublicKey, KeyAlgorithm, KeyFormats } from 'quasar-pq';

await init();
const api: KeyFormats = keys;
const seed = new Uint8Array(32);
const { publicKey } = mlDsa65.keygen(seed);
const alg: KeyAlgorithm = KEY_ALGORITHMS[1];
const der: Uint8Array = api.toSpki(alg, publicKey);
const pem: string = api.toSpki(alg, publicKey, { format: 'pem' });
const pub: DecodedPublicKey = api.fromSpki(pem);
const p8: Uint8Array = api.toPkcs8(alg, { seed }, { form: 'both', includePublicKey: true });
const p8pem: string = api.toPkcs8(alg, { seed }, { format: 'pem' });
const priv: DecodedPrivateKey = api.fromPkcs8(p8);
const again: Uint8Array = api.toPkcs8(priv.alg, priv, { form: 'expanded' });
const jwk: string = api.toJwk(alg, { publicKey: pub.publicKey });
const fromJwk = api.fromJwk(jwk);
const cose: Uint8Array = api.toCoseKey(alg, priv);
const kid: string = api.jwkThumbprint(alg, api.fromCoseKey(cose).publicKey);
const ckid: Uint8Array = api.coseThumbprint(alg, publicKey);
console.log(der.length, p8pem.length, again.length, fromJwk.alg, kid, ckid.length, api.fromSpki(der).alg);
