//! Share envelopes: ML-KEM-768 (FIPS 203) to the combiner's encapsulation key, then
//! XChaCha20-Poly1305 under a key derived from the shared secret.
//!
//! For each envelope the sender encapsulates afresh (randomness from the caller's RNG,
//! never from public values), then derives 56 bytes
//!
//! `K ‖ N = cSHAKE256-tuple("QUASAR-PULSAR-SHARE-ENVELOPE-v1"; ss, kem_ct, aad)`
//!
//! (a [`Transcript`] with function name `QUASAR`), and seals the plaintext with key `K`
//! (32 bytes), nonce `N` (24 bytes) and associated data `aad`. The key is used once, so
//! the derived nonce is never reused. `aad` is the round-2 message header (purpose, mode,
//! session, message digest, generation, sender, combiner) followed by the sharing's
//! transcript hash, so an envelope opens only in the session, for the message, at the
//! generation, from the sender and to the combiner it was made for.
//!
//! Wire forms:
//!
//! | object | layout |
//! |---|---|
//! | [`CombinerPublicKey`] | `PCEK` ‖ u16 version 1 ‖ u16 id ‖ ML-KEM-768 encapsulation key (1184) |
//! | [`CombinerKey`] (secret) | `PCDK` ‖ u16 version 1 ‖ u16 id ‖ ML-KEM-768 decapsulation key (2400) |
//!
//! Decoding checks FIPS 203 §7.2 (every coefficient of the encapsulation key below `q`)
//! and §7.3 (the hash inside the decapsulation key matches its encapsulation key).
//!
//! ML-KEM is `libcrux-ml-kem` (its secret independence is machine-checked): its AVX2 code where
//! the CPU has AVX2 (picked at run time), its portable code elsewhere and in WebAssembly. A
//! combiner opening many envelopes expands its key once (`Opener`).

use alloc::vec::Vec;
use core::fmt;

use chacha20poly1305::aead::{AeadInPlace, KeyInit};
use chacha20poly1305::{Key, Tag, XChaCha20Poly1305, XNonce};
use libcrux_ml_kem::mlkem768::{self, MlKem768Ciphertext, MlKem768PrivateKey, MlKem768PublicKey};
use rand_core::CryptoRngCore;
use sha3::Digest;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

use crate::hash::{tags, Transcript};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

mod opener;
pub(crate) use opener::{open_all, Opener, Sealed};

/// Bytes of an ML-KEM-768 encapsulation key.
pub const ENCAPSULATION_KEY_LEN: usize = 1184;
/// Bytes of an ML-KEM-768 decapsulation key.
pub const DECAPSULATION_KEY_LEN: usize = 2400;
/// Bytes of an ML-KEM-768 ciphertext.
pub const KEM_CIPHERTEXT_LEN: usize = 1088;
/// Bytes of the Poly1305 tag.
pub const TAG_LEN: usize = 16;
/// Magic of an encoded [`CombinerPublicKey`].
pub const COMBINER_PUBLIC_KEY_MAGIC: &[u8; 4] = b"PCEK";
/// Magic of an encoded [`CombinerKey`].
pub const COMBINER_KEY_MAGIC: &[u8; 4] = b"PCDK";
/// Version of both encodings.
pub const VERSION: u16 = 1;

/// Whether every 12-bit coefficient of a ByteEncode12 string (3 × 384 bytes) is below
/// q = 3329, without a branch on the bytes (they are secret in a decapsulation key).
fn coefficients_below_q(bytes: &[u8]) -> bool {
    let mut high = 0u32;
    for b in bytes.chunks_exact(3) {
        let c0 = u32::from(b[0]) | (u32::from(b[1] & 0x0F) << 8);
        let c1 = u32::from(b[1] >> 4) | (u32::from(b[2]) << 4);
        // c < q exactly when c − q wraps, setting bit 31.
        high |= !(c0.wrapping_sub(3329) & c1.wrapping_sub(3329));
    }
    // Public: whether a key is well formed is what its decoder reports.
    crate::ct::public(high >> 31 == 0)
}

/// FIPS 203 §7.2 modulus check: every 12-bit coefficient of `t̂` is below q = 3329.
fn encapsulation_key_is_valid(ek: &[u8]) -> bool {
    if ek.len() != ENCAPSULATION_KEY_LEN {
        return false;
    }
    // 3 × 384 bytes of ByteEncode12, then ρ (32 bytes).
    ek[..3 * 384].chunks_exact(3).all(|b| {
        let c0 = u16::from(b[0]) | (u16::from(b[1] & 0x0F) << 8);
        let c1 = u16::from(b[1] >> 4) | (u16::from(b[2]) << 4);
        c0 < 3329 && c1 < 3329
    })
}

/// A combiner's public ML-KEM-768 encapsulation key, with the combiner's id.
///
/// Published by the combiner (over an authenticated channel: a signer encrypts its share
/// to whatever key it is given) before a session.
#[derive(Clone)]
pub struct CombinerPublicKey {
    id: PartyId,
    ek: MlKem768PublicKey,
    bytes: Vec<u8>,
}

impl fmt::Debug for CombinerPublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CombinerPublicKey")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl PartialEq for CombinerPublicKey {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.bytes == other.bytes
    }
}

impl Eq for CombinerPublicKey {}

impl CombinerPublicKey {
    /// The combiner's id.
    pub fn id(&self) -> PartyId {
        self.id
    }

    /// The raw FIPS 203 encapsulation key (1184 bytes).
    pub fn encapsulation_key(&self) -> &[u8] {
        &self.bytes
    }

    /// Encodes (`PCEK`, see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(COMBINER_PUBLIC_KEY_MAGIC, VERSION);
        self.id.write(&mut w);
        w.put(&self.bytes);
        w.into_bytes()
    }

    /// Decodes strictly, including the FIPS 203 modulus check.
    ///
    /// # Errors
    /// [`wire::Error`]: `TooShort`, `BadMagic`, `BadVersion`, `InvalidValue` (zero id or
    /// an invalid encapsulation key), `TrailingBytes`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(COMBINER_PUBLIC_KEY_MAGIC, VERSION)?;
        let id = PartyId::read(&mut r)?;
        let raw = r.take(ENCAPSULATION_KEY_LEN)?;
        r.finish()?;
        Self::from_parts(id, raw)
    }

    fn from_parts(id: PartyId, raw: &[u8]) -> Result<Self, wire::Error> {
        if !encapsulation_key_is_valid(raw) {
            return Err(wire::Error::InvalidValue("ML-KEM-768 encapsulation key"));
        }
        let ek = MlKem768PublicKey::try_from(raw)
            .map_err(|_| wire::Error::InvalidValue("ML-KEM-768 encapsulation key"))?;
        Ok(CombinerPublicKey {
            id,
            ek,
            bytes: raw.to_vec(),
        })
    }
}

/// A combiner's secret ML-KEM-768 decapsulation key.
///
/// # Security
/// Whoever holds it can open the shares sent to this combiner: generate a fresh one per
/// session where possible ([`CombinerKey::generate`]), never reuse it across combiners,
/// and keep it only in memory. Zeroized on drop, no `Clone`, `Debug` redacted;
/// [`CombinerKey::to_bytes`] returns the secret in a zeroizing buffer.
pub struct CombinerKey {
    dk: MlKem768PrivateKey,
    public: CombinerPublicKey,
}

impl Drop for CombinerKey {
    fn drop(&mut self) {
        self.dk[0..DECAPSULATION_KEY_LEN].zeroize();
    }
}

impl fmt::Debug for CombinerKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CombinerKey")
            .field("id", &self.public.id)
            .field("dk", &"<redacted>")
            .finish()
    }
}

impl CombinerKey {
    /// A fresh ML-KEM-768 key pair for combiner `id` (FIPS 203 ML-KEM.KeyGen).
    pub fn generate(id: PartyId, rng: &mut impl CryptoRngCore) -> Self {
        // d then z, 32 bytes each, as FIPS 203 Alg. 19 draws them.
        let mut coins = Zeroizing::new([0u8; 64]);
        rng.fill_bytes(&mut coins[..32]);
        rng.fill_bytes(&mut coins[32..]);
        let (dk, ek) = mlkem768::generate_key_pair(*coins).into_parts();
        let bytes = ek.as_slice().to_vec();
        // Public: the encapsulation key is published (also its copy and hash inside dk).
        crate::ct::public_slice(&bytes);
        let ek = crate::ct::public(ek);
        let dk = crate::ct::public_part(dk, |dk| &dk.as_slice()[1152..1152 + ENCAPSULATION_KEY_LEN + 32]);
        CombinerKey {
            dk,
            public: CombinerPublicKey { id, ek, bytes },
        }
    }

    /// A secret derived from this key for `label` (32 bytes): keys local randomness, such
    /// as batch-check weights, to the key without another draw. It hashes `z`, the last 32
    /// bytes of the decapsulation key: FIPS 203's implicit-rejection secret, uniform and
    /// never sent.
    #[cfg(feature = "batched-combine")]
    pub(crate) fn derived_secret(&self, label: &str) -> Zeroizing<[u8; 32]> {
        let mut t = Transcript::new(label);
        t.append(&self.dk.as_slice()[DECAPSULATION_KEY_LEN - 32..]);
        Zeroizing::new(t.finalize())
    }

    /// The public half, to publish.
    pub fn public_key(&self) -> &CombinerPublicKey {
        &self.public
    }

    /// The combiner's id.
    pub fn id(&self) -> PartyId {
        self.public.id
    }

    /// Encodes (`PCDK`, see the module docs).
    ///
    /// # Security
    /// The output is the secret key in the clear (zeroized on drop): encrypt it before it
    /// leaves memory.
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let mut w = Writer::with_header(COMBINER_KEY_MAGIC, VERSION);
        self.public.id.write(&mut w);
        w.put(self.dk.as_slice());
        Zeroizing::new(w.into_bytes())
    }

    /// Decodes strictly, with the FIPS 203 checks on the embedded encapsulation key and
    /// its hash, and the secret part's coefficients in range (one encoding per key).
    ///
    /// # Errors
    /// [`wire::Error`]: `TooShort`, `BadMagic`, `BadVersion`, `InvalidValue`,
    /// `TrailingBytes`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, wire::Error> {
        let mut r = Reader::new(bytes);
        r.header(COMBINER_KEY_MAGIC, VERSION)?;
        let id = PartyId::read(&mut r)?;
        let raw = r.take(DECAPSULATION_KEY_LEN)?;
        r.finish()?;
        // dk = dk_pke (1152) ‖ ek (1184) ‖ H(ek) (32) ‖ z (32).
        let ek_raw = &raw[1152..1152 + ENCAPSULATION_KEY_LEN];
        let h = &raw[1152 + ENCAPSULATION_KEY_LEN..1152 + ENCAPSULATION_KEY_LEN + 32];
        // Public: the embedded encapsulation key and its hash are the key's public half.
        crate::ct::public_slice(&raw[1152..1152 + ENCAPSULATION_KEY_LEN + 32]);
        let digest = sha3::Sha3_256::digest(ek_raw);
        if !bool::from(digest.as_slice().ct_eq(h)) {
            return Err(wire::Error::InvalidValue("ML-KEM-768 decapsulation key hash"));
        }
        let public = CombinerPublicKey::from_parts(id, ek_raw)?;
        // One encoding per key: every coefficient of dk_pke already reduced.
        if !coefficients_below_q(&raw[..1152]) {
            return Err(wire::Error::InvalidValue(
                "non-canonical ML-KEM-768 decapsulation key",
            ));
        }
        let dk = MlKem768PrivateKey::try_from(raw)
            .map_err(|_| wire::Error::InvalidValue("ML-KEM-768 decapsulation key"))?;
        Ok(CombinerKey { dk, public })
    }
}

/// Derives the one-time AEAD key and nonce from the KEM shared secret, under `tag`.
fn derive(tag: &str, ss: &[u8], kem_ct: &[u8], aad: &[u8]) -> Zeroizing<[u8; 56]> {
    let mut t = Transcript::new(tag);
    t.append(ss).append(kem_ct).append(aad);
    Zeroizing::new(t.finalize::<56>())
}

/// Seals `plaintext` to `to`: returns the KEM ciphertext and the AEAD ciphertext ‖ tag.
pub(crate) fn seal(
    to: &CombinerPublicKey,
    aad: &[u8],
    plaintext: &[u8],
    rng: &mut impl CryptoRngCore,
) -> (Vec<u8>, Vec<u8>) {
    seal_under(tags::PULSAR_SHARE_ENVELOPE, to, aad, plaintext, rng)
}

/// Seals a direct message for the holder of `to`'s decapsulation key: `KEM ciphertext (1088)
/// ‖ AEAD ciphertext ‖ tag (16)`, the key and nonce derived as for a share envelope but under
/// its own domain (`QUASAR-DIRECT-MESSAGE-ENVELOPE-v1`), bound to `aad` (a transport binds the
/// run, the round, the sender and the recipient). What a network carries this way stays
/// confidential against a recorder with a future quantum computer, whatever the channel
/// under it.
///
/// ```text
/// recipient: let key = CombinerKey::generate(id, rng);    publish key.public_key()
/// sender:    let sealed = seal_message(&public, aad, bytes, rng);
/// recipient: let bytes = open_message(&key, aad, &sealed)?;     // None: altered or not for it
/// ```
pub fn seal_message(
    to: &CombinerPublicKey,
    aad: &[u8],
    plaintext: &[u8],
    rng: &mut impl CryptoRngCore,
) -> Vec<u8> {
    let (mut out, body) = seal_under(tags::DIRECT_MESSAGE_ENVELOPE, to, aad, plaintext, rng);
    out.extend_from_slice(&body);
    out
}

/// Opens what [`seal_message`] sealed with `key`'s public half and the same `aad`; `None` if
/// it is too short, was altered, or was sealed for another key or other associated data.
pub fn open_message(key: &CombinerKey, aad: &[u8], sealed: &[u8]) -> Option<Zeroizing<Vec<u8>>> {
    if sealed.len() < KEM_CIPHERTEXT_LEN + TAG_LEN {
        return None;
    }
    let (kem_ct, body) = sealed.split_at(KEM_CIPHERTEXT_LEN);
    open_under(
        tags::DIRECT_MESSAGE_ENVELOPE,
        &Opener::new(key, 1),
        aad,
        kem_ct,
        body,
    )
}

fn seal_under(
    domain: &str,
    to: &CombinerPublicKey,
    aad: &[u8],
    plaintext: &[u8],
    rng: &mut impl CryptoRngCore,
) -> (Vec<u8>, Vec<u8>) {
    let mut m = Zeroizing::new([0u8; 32]);
    rng.fill_bytes(&mut m[..]);
    let (kem_ct, mut ss) = mlkem768::encapsulate(&to.ek, *m);
    // Public: the KEM ciphertext is sent.
    let kem_ct = crate::ct::public(kem_ct);
    let okm = derive(domain, &ss, kem_ct.as_slice(), aad);
    ss.zeroize();
    let cipher = XChaCha20Poly1305::new(Key::from_slice(&okm[..32]));
    let mut buf = Vec::with_capacity(plaintext.len() + TAG_LEN);
    buf.extend_from_slice(plaintext);
    // Encryption with a 24-byte nonce and a short buffer cannot fail.
    let tag = match cipher.encrypt_in_place_detached(XNonce::from_slice(&okm[32..]), aad, &mut buf) {
        Ok(tag) => tag,
        Err(_) => unreachable!("XChaCha20-Poly1305 encryption of a short buffer"),
    };
    buf.extend_from_slice(&tag);
    // Public: the AEAD ciphertext and tag are sent.
    crate::ct::public_slice(&buf);
    (kem_ct.as_slice().to_vec(), buf)
}

/// Opens an envelope made by [`seal`]; `None` if anything was altered.
pub(crate) fn open(
    opener: &Opener<'_>,
    aad: &[u8],
    kem_ct: &[u8],
    sealed: &[u8],
) -> Option<Zeroizing<Vec<u8>>> {
    open_under(tags::PULSAR_SHARE_ENVELOPE, opener, aad, kem_ct, sealed)
}

fn open_under(
    domain: &str,
    opener: &Opener<'_>,
    aad: &[u8],
    kem_ct: &[u8],
    sealed: &[u8],
) -> Option<Zeroizing<Vec<u8>>> {
    let ct = MlKem768Ciphertext::try_from(kem_ct).ok()?;
    if sealed.len() < TAG_LEN {
        return None;
    }
    let mut ss = opener.decapsulate(&ct);
    let okm = derive(domain, &ss, kem_ct, aad);
    ss.zeroize();
    decrypt(&okm, aad, sealed)
}

/// The AEAD half of opening: `sealed` (ciphertext ‖ tag, at least a tag long) decrypted
/// under the derived key and nonce `okm`; `None` unless it authenticates.
fn decrypt(okm: &[u8; 56], aad: &[u8], sealed: &[u8]) -> Option<Zeroizing<Vec<u8>>> {
    let cipher = XChaCha20Poly1305::new(Key::from_slice(&okm[..32]));
    let (body, tag) = sealed.split_at(sealed.len() - TAG_LEN);
    let mut buf = Zeroizing::new(body.to_vec());
    let authentic = cipher
        .decrypt_in_place_detached(
            XNonce::from_slice(&okm[32..]),
            aad,
            &mut buf[..],
            Tag::from_slice(tag),
        )
        .is_ok();
    // Public: whether the envelope authenticates decides blame.
    crate::ct::public(authentic).then_some(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;

    #[test]
    fn a_sealed_message_opens_only_for_its_key_and_binding_and_is_not_a_share_envelope() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2);
        let id = PartyId::new(3).unwrap();
        let key = CombinerKey::generate(id, &mut rng);
        let sealed = seal_message(
            key.public_key(),
            b"run|tag|from|to",
            b"a dealer's share",
            &mut rng,
        );
        assert_eq!(sealed.len(), KEM_CIPHERTEXT_LEN + 16 + TAG_LEN);
        assert_eq!(
            &open_message(&key, b"run|tag|from|to", &sealed).unwrap()[..],
            b"a dealer's share"
        );
        assert!(open_message(&key, b"run|tag|from|tp", &sealed).is_none());
        for i in (0..sealed.len()).step_by(31) {
            let mut bad = sealed.clone();
            bad[i] ^= 4;
            assert!(open_message(&key, b"run|tag|from|to", &bad).is_none());
        }
        for cut in [0, KEM_CIPHERTEXT_LEN, KEM_CIPHERTEXT_LEN + TAG_LEN - 1] {
            assert!(open_message(&key, b"run|tag|from|to", &sealed[..cut]).is_none());
        }
        let other = CombinerKey::generate(id, &mut rng);
        assert!(open_message(&other, b"run|tag|from|to", &sealed).is_none());
        // Domain-separated from Pulsar's share envelopes under the same key and binding.
        let (ct, body) = sealed.split_at(KEM_CIPHERTEXT_LEN);
        assert!(open(&Opener::new(&key, 1), b"run|tag|from|to", ct, body).is_none());
    }

    /// Many envelopes opened together give what each gives alone: good ones their
    /// plaintext, an altered body or KEM ciphertext, a short one or another binding `None`,
    /// whatever their mix of lengths (groups of four in the four-way Keccak, or one by one).
    #[test]
    fn envelopes_opened_together_open_as_one_by_one() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        let key = CombinerKey::generate(PartyId::new(4).unwrap(), &mut rng);
        let mut envelopes: Vec<(Vec<u8>, Vec<u8>, Vec<u8>)> = Vec::new();
        for i in 0..11u8 {
            // Two lengths of associated data, so some groups of four mix them.
            let aad = if i % 5 == 3 { vec![i; 9] } else { vec![i; 40] };
            let (ct, sealed) = seal(key.public_key(), &aad, &[i; 74], &mut rng);
            envelopes.push((aad, ct, sealed));
        }
        envelopes[1].2[7] ^= 1; // altered body
        envelopes[6].1[100] ^= 1; // altered KEM ciphertext
        envelopes[8].1.truncate(1000); // a KEM ciphertext too short
        envelopes[9].2.truncate(TAG_LEN - 1); // no room for a tag
        envelopes[10].0[0] ^= 1; // another binding
        let opener = Opener::new(&key, envelopes.len());
        let all: Vec<Sealed<'_>> = envelopes
            .iter()
            .map(|(aad, kem_ct, sealed)| Sealed { aad, kem_ct, sealed })
            .collect();
        let together = open_all(&opener, &all);
        assert_eq!(together.len(), envelopes.len());
        for (i, ((aad, ct, sealed), got)) in (0u8..).zip(envelopes.iter().zip(&together)) {
            let alone = open(&opener, aad, ct, sealed);
            assert_eq!(
                got.as_deref().map(|v| &v[..]),
                alone.as_deref().map(|v| &v[..]),
                "envelope {i}"
            );
            let opens = ![1, 6, 8, 9, 10].contains(&i);
            assert_eq!(got.is_some(), opens, "envelope {i}");
            if opens {
                assert_eq!(&got.as_ref().unwrap()[..], &[i; 74][..]);
            }
        }
        assert!(open_all(&opener, &[]).is_empty());
    }

    #[test]
    fn envelopes_open_only_with_the_same_binding() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
        let id = PartyId::new(9).unwrap();
        let key = CombinerKey::generate(id, &mut rng);
        let (ct, sealed) = seal(key.public_key(), b"aad", b"secret share", &mut rng);
        assert_eq!(ct.len(), KEM_CIPHERTEXT_LEN);
        // The key as it is (one envelope) and expanded (many, where the CPU has AVX2).
        for envelopes in [1, 2] {
            let opener = Opener::new(&key, envelopes);
            assert_eq!(&open(&opener, b"aad", &ct, &sealed).unwrap()[..], b"secret share");
            assert!(open(&opener, b"aae", &ct, &sealed).is_none());
            for i in (0..ct.len()).step_by(97) {
                let mut bad = ct.clone();
                bad[i] ^= 1;
                assert!(open(&opener, b"aad", &bad, &sealed).is_none());
            }
            for i in 0..sealed.len() {
                let mut bad = sealed.clone();
                bad[i] ^= 0x80;
                assert!(open(&opener, b"aad", &ct, &bad).is_none());
            }
            let other = CombinerKey::generate(id, &mut rng);
            assert!(open(&Opener::new(&other, envelopes), b"aad", &ct, &sealed).is_none());
        }

        // Key encodings round-trip and are strict.
        let pk = key.public_key().to_bytes();
        assert_eq!(&CombinerPublicKey::from_bytes(&pk).unwrap(), key.public_key());
        let sk = key.to_bytes();
        let back = CombinerKey::from_bytes(&sk).unwrap();
        assert_eq!(
            &open(&Opener::new(&back, 2), b"aad", &ct, &sealed).unwrap()[..],
            b"secret share"
        );
        let mut bad = pk.clone();
        bad[8] = 0xFF;
        bad[9] = 0xFF; // a coefficient ≥ q
        assert!(CombinerPublicKey::from_bytes(&bad).is_err());
        let mut bad = sk.to_vec();
        bad[8 + 1152] ^= 1; // embedded ek no longer matches its hash
        assert!(CombinerKey::from_bytes(&bad).is_err());
        assert!(format!("{key:?}").contains("redacted"));
    }
}
