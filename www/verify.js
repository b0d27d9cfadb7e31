// The verifiers the demo shows, run in a worker: the standard single-signer verifiers
// (plain FIPS 204 ML-DSA for Pulsar; Ed25519 — the browser's own WebCrypto where it has it —,
// BIP-340 or RFC 9591 for Lens), and the package's one activation-certificate check per
// scheme, as a third party holding only the new generation's public data would run it.

let ed25519Support = null;

/** Verify an Ed25519 signature with the browser's own WebCrypto (null when unsupported). */
async function webCryptoEd25519(publicKey, message, signature) {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle || ed25519Support === false) return null;
  try {
    const key = await subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
    ed25519Support = true;
    return await subtle.verify({ name: 'Ed25519' }, key, signature, message);
  } catch (err) {
    if (ed25519Support === null && (err?.name === 'NotSupportedError' || err?.name === 'TypeError')) {
      ed25519Support = false;
      return null;
    }
    if (err?.name === 'DataError') return false; // a key that is not a curve point
    throw err;
  }
}

function mlDsaOf(lib, publicKey) {
  for (const level of lib.pulsar.levels) {
    const s = lib[`mlDsa${level}`];
    if (s && s.lengths.publicKey === publicKey.length) return { s, level };
  }
  throw new RangeError(`a ${publicKey.length}-byte key is no ML-DSA public key`);
}

async function schnorrVerify(lib, curve, groupKey, message, signature) {
  if (curve === 'ed25519') {
    const web = await webCryptoEd25519(groupKey, message, signature);
    const own = lib.lens.verify(curve, groupKey, message, signature);
    if (web === null) {
      return { ok: own, verifier: 'Ed25519 verify (RFC 8032)', note: "quasar-pq's own verifier: this browser has no WebCrypto Ed25519" };
    }
    return {
      ok: web && own,
      verifier: 'WebCrypto Ed25519',
      note: `the browser's own Ed25519, which shares no code with quasar-pq (quasar-pq's RFC 8032 verify ${web === own ? 'agrees' : 'DISAGREES'})`,
      legs: { webcrypto: web, quasar: own },
    };
  }
  const ok = lib.lens.verify(curve, groupKey, message, signature);
  if (curve === 'secp256k1') {
    return { ok, verifier: 'BIP-340 Schnorr verify', note: "quasar-pq's BIP-340 verifier, with the x-only key (bytes 1–32 of the compressed group key)" };
  }
  return { ok, verifier: 'RFC 9591 Ristretto255 verify', note: "quasar-pq's single-signer verifier of RFC 9591 §6.2" };
}

/** One verification request (see the cases). */
export async function standardVerify(lib, req) {
  switch (req.kind) {
    case 'pulsar': {
      const { s, level } = mlDsaOf(lib, req.groupKey);
      const ok = s.verify(req.signature, req.message, req.groupKey, { context: req.context ?? new Uint8Array(0) });
      return {
        ok,
        verifier: `ML-DSA-${level} verify (FIPS 204)`,
        note: 'the plain single-signer verifier of the "ML-DSA, one signer" tab: it knows nothing about thresholds',
      };
    }
    case 'lens':
      return schnorrVerify(lib, req.curve, req.groupKey, req.message, req.signature);
    case 'pulsar-activation': {
      const v = lib.pulsar.verifyActivation(req.sharing, req.keyRecord, req.generation, req.transcriptHash, req.certificate);
      return { ...v, verifier: 'pulsar.verifyActivation against the new generation’s public data' };
    }
    case 'lens-activation': {
      const v = lib.lens.verifyActivation(req.publicPackage, req.generation, req.transcriptHash, req.certificate);
      return { ...v, verifier: 'lens.verifyActivation against the new generation’s public package' };
    }
    default:
      throw new Error(`unknown verification ${req.kind}`);
  }
}
