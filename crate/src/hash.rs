//! Hashing on `sha3`: the SHAKE extendable-output functions used by the FIPS algorithms.
//!
//! FIPS 204 names SHAKE256 `H` and SHAKE128 `G`; the helpers here absorb several byte
//! strings in order (their concatenation) without allocating ([`shake256`] is public, the
//! others serve the crate's FIPS code). The crate-internal `keccak_x4` runs
//! Keccak-f\[1600\] on four states at once (AVX-512VL or AVX2 after run-time detection,
//! two simd128 lanes on wasm32), for SLH-DSA's many independent one-block hashes; it and
//! its process-wide backend switch are public only under the `bench-internals` feature
//! (benches and the constant-flow harness force a backend). `lanes` squeezes ML-DSA's
//! many short-seed SHAKE streams in the lanes of that kernel (of `keccak_x2` in WASM).

pub(crate) mod blocks;
#[cfg(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
#[allow(unsafe_code)] // aarch64: the SHA-3 kernel, called after run-time detection
pub(crate) mod keccak_x2;
#[cfg(feature = "bench-internals")]
#[allow(unsafe_code)] // the one module with `unsafe`: target-feature calls after detection
pub mod keccak_x4;
#[cfg(not(feature = "bench-internals"))]
#[allow(unsafe_code, unreachable_pub)] // as above; public only under `bench-internals`
pub(crate) mod keccak_x4;
pub(crate) mod lanes;
// Corona's four-way XOFs.
#[cfg(feature = "ristretto255")]
pub(crate) mod xof_x4;

/// Keccak-f[1600] round constants ι (FIPS 202 §3.2.5), for the vector permutations.
#[cfg(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    all(target_arch = "x86_64", feature = "std"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
const KECCAK_RC: [u64; 24] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808A,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808B,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008A,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000A,
    0x0000_0000_8000_808B,
    0x8000_0000_0000_008B,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800A,
    0x8000_0000_8000_000A,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

use sha3::digest::{ExtendableOutput, Update, XofReader};
use sha3::Shake256;

/// An XOF output stream (SHAKE128 or SHAKE256 after absorbing its input).
pub trait Squeeze {
    /// Fills `out` with the next bytes of the stream.
    fn squeeze(&mut self, out: &mut [u8]);
}

impl Squeeze for sha3::Shake128Reader {
    fn squeeze(&mut self, out: &mut [u8]) {
        self.read(out);
    }
}

impl Squeeze for sha3::Shake256Reader {
    fn squeeze(&mut self, out: &mut [u8]) {
        self.read(out);
    }
}

/// SHAKE256 over the concatenation of `parts`, as a stream.
pub fn shake256(parts: &[&[u8]]) -> sha3::Shake256Reader {
    let mut h = Shake256::default();
    for p in parts {
        h.update(p);
    }
    h.finalize_xof()
}

/// SHAKE256 over the concatenation of `parts`, filling `out`.
pub(crate) fn shake256_into(parts: &[&[u8]], out: &mut [u8]) {
    let mut h = Shake256Absorb::default();
    for p in parts {
        h.absorb(p);
    }
    h.finalize_into(out);
}

/// SHAKE256 rate in bytes.
const SHAKE256_RATE: usize = 136;

/// An incremental SHAKE256 absorber, for inputs produced piece by piece (FIPS 202 §4, the
/// sponge with rate 136 bytes), on the crate's one-state Keccak-f\[1600\]
/// (`keccak_x4::f1600`): ML-DSA's μ, ρ″, c̃ and tr, where `sha3`'s scalar permutation cost
/// more than the vector kernel. The state is wiped on drop (ρ″ absorbs the key K).
#[derive(Default, Clone)]
pub(crate) struct Shake256Absorb {
    state: [u64; 25],
    /// Bytes of the current block absorbed so far (below the rate).
    pos: usize,
}

impl Shake256Absorb {
    /// Absorbs more input.
    pub(crate) fn absorb(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let take = (SHAKE256_RATE - self.pos).min(data.len());
            xor_bytes(&mut self.state, self.pos, &data[..take]);
            self.pos += take;
            data = &data[take..];
            if self.pos == SHAKE256_RATE {
                keccak_x4::f1600(&mut self.state);
                self.pos = 0;
            }
        }
    }

    /// Finishes absorbing (SHAKE's padding 0x1F … 0x80) and fills `out`.
    pub(crate) fn finalize_into(mut self, out: &mut [u8]) {
        xor_bytes(&mut self.state, self.pos, &[0x1F]);
        xor_bytes(&mut self.state, SHAKE256_RATE - 1, &[0x80]);
        for chunk in out.chunks_mut(SHAKE256_RATE) {
            keccak_x4::f1600(&mut self.state);
            for (bytes, word) in chunk.chunks_mut(8).zip(self.state.iter()) {
                bytes.copy_from_slice(&word.to_le_bytes()[..bytes.len()]);
            }
        }
    }
}

impl Drop for Shake256Absorb {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.state[..]);
    }
}

/// XORs `data` into the little-endian byte string of `state` from byte `pos` on
/// (`pos + data.len()` ≤ 200), whole words where aligned.
fn xor_bytes(state: &mut [u64; 25], mut pos: usize, mut data: &[u8]) {
    while !pos.is_multiple_of(8) {
        let Some((&b, rest)) = data.split_first() else {
            return;
        };
        state[pos / 8] ^= u64::from(b) << (8 * (pos % 8));
        pos += 1;
        data = rest;
    }
    let mut words = data.chunks_exact(8);
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        state[pos / 8] ^= u64::from_le_bytes(b);
        pos += 8;
    }
    for &b in words.remainder() {
        state[pos / 8] ^= u64::from(b) << (8 * (pos % 8));
        pos += 1;
    }
}

/// Domain-separation tags: the cSHAKE256 customization string of each use (DESIGN §5).
pub mod tags {
    /// Activation certificate of a reshared Lens key.
    pub const LENS_ACTIVATE: &str = "QUASAR-LENS-ACTIVATE-v1";
    /// Activation certificate of a reshared Pulsar key.
    pub const PULSAR_ACTIVATE: &str = "QUASAR-PULSAR-ACTIVATE-v1";
    /// Transcript of a dealing (DKG, refresh, reshare) in the LSS kernel.
    pub const LSS_TRANSCRIPT: &str = "QUASAR-LSS-TRANSCRIPT-v1";
    /// Commitments of the LSS kernel (the Pedersen second generator).
    pub const LSS_COMMIT: &str = "QUASAR-LSS-COMMIT-v1";
    /// Challenge of a dealer's Schnorr proof of knowledge in a Feldman DKG.
    pub const LSS_POK: &str = "QUASAR-LSS-POK-v1";
    /// Activation: the statement a new generation's members prove possession of their
    /// shares for, and the challenges of those proofs.
    pub const LSS_ACTIVATE: &str = "QUASAR-LSS-ACTIVATE-v1";
    /// Activation: the session of a dealing bound to the scheme key it reshares.
    pub const LSS_KEYED_SESSION: &str = "QUASAR-LSS-KEYED-SESSION-v1";
    /// Local random weights of the LSS kernel's batch checks (never sent).
    pub const LSS_BATCH: &str = "QUASAR-LSS-BATCH-v1";
    /// Pulsar custody: the ML-DSA seed derived from the group secret.
    pub const PULSAR_SEED: &str = "QUASAR-PULSAR-SEED-v1";
    /// Pulsar custody: the combiner's local weights for checking the shares at once
    /// (never sent).
    pub const PULSAR_COMBINE_BATCH: &str = "QUASAR-PULSAR-COMBINE-BATCH-v1";
    /// Pulsar custody: the key and nonce of a share envelope (ML-KEM-768 + AEAD).
    pub const PULSAR_SHARE_ENVELOPE: &str = "QUASAR-PULSAR-SHARE-ENVELOPE-v1";
    /// A direct message sealed for its recipient's process ([`crate::pulsar::custody::envelope::seal_message`]).
    pub const DIRECT_MESSAGE_ENVELOPE: &str = "QUASAR-DIRECT-MESSAGE-ENVELOPE-v1";
    /// Pulsar custody: a signer's round-1 commitment to its envelope.
    pub const PULSAR_ENVELOPE_COMMIT: &str = "QUASAR-PULSAR-ENVELOPE-COMMIT-v1";
    /// Pulsar custody: the digest of the message (and context) being signed.
    pub const PULSAR_MESSAGE: &str = "QUASAR-PULSAR-MESSAGE-v1";
    /// Pulsar custody: the key-ceremony transcript published with the group key.
    pub const PULSAR_CEREMONY: &str = "QUASAR-PULSAR-CEREMONY-v1";
    /// Pulsar committee: the binding of a signing session (id, key, signers, message).
    pub const PULSAR_COMMITTEE_SESSION: &str = "QUASAR-PULSAR-COMMITTEE-SESSION-v1";
    /// Pulsar committee: a signer's round-1 commitment to its reveal.
    pub const PULSAR_COMMITTEE_CMT: &str = "QUASAR-PULSAR-CMT-v1";
    /// Pulsar committee: a signer's hedged round-1 seed (never sent).
    pub const PULSAR_COMMITTEE_NONCE: &str = "QUASAR-PULSAR-COMMITTEE-NONCE-v1";
    /// Pulsar committee: the key generation's session, ρ and the owners' commitments
    /// (each use named by its first element).
    pub const PULSAR_COMMITTEE_DKG: &str = "QUASAR-PULSAR-COMMITTEE-DKG-v1";
    /// Pulsar committee: the public name of a committee key (members, threshold, key).
    pub const PULSAR_COMMITTEE_KEY: &str = "QUASAR-PULSAR-COMMITTEE-KEY-v1";
    /// Pulsar custody: the local name of a sharing a group key was verified for (never sent).
    pub const PULSAR_VERIFIED_SHARING: &str = "QUASAR-PULSAR-VERIFIED-SHARING-v1";
    /// A lifecycle party's randomness for the phases after its first (drawn from a seed
    /// taken from the caller's RNG at start; never sent).
    pub const LIFECYCLE_RNG: &str = "QUASAR-LIFECYCLE-RNG-v1";
    /// A lifecycle's per-phase session ids, derived from the one session id its
    /// parameters name.
    pub const LIFECYCLE_SESSION: &str = "QUASAR-LIFECYCLE-SESSION-v1";
    /// The simulator's per-party RNG seeds (tests, benches, KATs; `party::sim`).
    pub const SIM_RNG: &str = "QUASAR-SIM-RNG-v1";
    /// Identity of a finality certificate: its header and the legs a verifier checked.
    pub const CERT_ID: &str = "QUASAR-CERT-ID-v1";
    /// Message signed by the finality certificate legs.
    pub const CERT_MESSAGE: &str = "QUASAR-CERT-MESSAGE-v1";
    /// Root of a finality certificate's validator set (its whole encoding).
    pub const CERT_VALIDATOR_SET: &str = "QUASAR-CERT-VALIDATOR-SET-v1";
    /// Corona (spec §3.2): the public matrix A from ρ (XOF).
    pub const CORONA_A: &str = "QUASAR-CORONA-A-v1";
    /// Corona: a dealer's randomness in known-answer mode (XOF).
    pub const CORONA_KEYGEN: &str = "QUASAR-CORONA-KEYGEN-v1";
    /// Corona: the group key's digest tr (TH, 64 bytes).
    pub const CORONA_GK: &str = "QUASAR-CORONA-GK-v1";
    /// Corona: the message representative μ (TH, 64 bytes).
    pub const CORONA_MSG: &str = "QUASAR-CORONA-MSG-v1";
    /// Corona: a party's hedged round-1 seed (keyed, 32 bytes; never sent).
    pub const CORONA_R1_SEED: &str = "QUASAR-CORONA-R1-SEED-v1";
    /// Corona: round 1's Gaussian polynomials from the round-1 seed (XOF).
    pub const CORONA_R1: &str = "QUASAR-CORONA-R1-v1";
    /// Corona: a round-1 commitment's per-sender digest (TH, 64 bytes).
    pub const CORONA_D: &str = "QUASAR-CORONA-D-v1";
    /// Corona: a round-1 MAC (keyed, 32 bytes).
    pub const CORONA_MAC: &str = "QUASAR-CORONA-MAC-v1";
    /// Corona: the signing transcript th (TH, 64 bytes).
    pub const CORONA_TRANSCRIPT: &str = "QUASAR-CORONA-TRANSCRIPT-v1";
    /// Corona: the public Gaussian vector u (XOF).
    pub const CORONA_HU: &str = "QUASAR-CORONA-HU-v1";
    /// Corona: the challenge seed c̃ (TH, 32 bytes).
    pub const CORONA_HC: &str = "QUASAR-CORONA-HC-v1";
    /// Corona: the challenge c from c̃ (XOF).
    pub const CORONA_BALL: &str = "QUASAR-CORONA-BALL-v1";
    /// Corona: a pair's zero-sum mask (keyed XOF).
    pub const CORONA_PRF: &str = "QUASAR-CORONA-PRF-v1";
    /// Corona: pairwise PRF and MAC keys from a KEM secret (keyed, 32 bytes).
    pub const CORONA_PAIRWISE: &str = "QUASAR-CORONA-PAIRWISE-v1";
    /// Corona: a party's hedging key from its share (keyed, 32 bytes; never sent).
    pub const CORONA_NONCEKEY: &str = "QUASAR-CORONA-NONCEKEY-v1";
    /// ML-DSA context of the Pulsar leg's signature on the finality message.
    pub const CERT_PULSAR_CONTEXT: &str = "QUASAR-CERT-PULSAR-v1";
    /// Corona context of the Corona leg's threshold signature on the finality message.
    pub const CERT_CORONA_CONTEXT: &str = "QUASAR-CERT-CORONA-v1";
    /// ML-DSA context of the ML-DSA-set leg's per-validator signatures.
    pub const CERT_MLDSA_CONTEXT: &str = "QUASAR-CERT-MLDSA-v1";
    /// SLH-DSA context of the Magnetar leg's per-validator signatures.
    pub const CERT_MAGNETAR_CONTEXT: &str = "QUASAR-CERT-MAGNETAR-v1";
}

/// The cSHAKE256 function name of every protocol hash in this crate.
pub const FUNCTION_NAME: &[u8] = b"QUASAR";

/// SP 800-185 left_encode(x).
// Exact: n ≤ 8.
#[allow(clippy::cast_possible_truncation)]
fn left_encode(x: u64, out: &mut [u8; 9]) -> &[u8] {
    let bytes = x.to_be_bytes();
    let skip = bytes.iter().take_while(|&&b| b == 0).count().min(7);
    let n = 8 - skip;
    out[0] = n as u8;
    out[1..=n].copy_from_slice(&bytes[skip..]);
    &out[..=n]
}

/// SP 800-185 right_encode(x).
// Exact: n ≤ 8.
#[allow(clippy::cast_possible_truncation)]
fn right_encode(x: u64, out: &mut [u8; 9]) -> &[u8] {
    let bytes = x.to_be_bytes();
    let skip = bytes.iter().take_while(|&&b| b == 0).count().min(7);
    let n = 8 - skip;
    out[..n].copy_from_slice(&bytes[skip..]);
    out[n] = n as u8;
    &out[..=n]
}

/// A transcript hash: TupleHash256's construction (SP 800-185 §5) with function name
/// `"QUASAR"` and a per-use customization tag — an unambiguous hash of a sequence of
/// byte strings.
///
/// ```
/// use quasar_pq::hash::{tags, Transcript};
/// let mut t = Transcript::new(tags::LSS_TRANSCRIPT);
/// t.append(b"generation").append(&7u64.to_be_bytes());
/// let digest: [u8; 32] = t.finalize();
/// # assert_ne!(digest, [0u8; 32]);
/// ```
#[derive(Clone)]
pub struct Transcript(sha3::CShake256);

impl Transcript {
    /// A transcript for the use named by `tag` (one of [`tags`]).
    pub fn new(tag: &str) -> Self {
        let core = sha3::CShake256Core::new_with_function_name(FUNCTION_NAME, tag.as_bytes());
        Transcript(sha3::CShake256::from_core(core))
    }

    /// A keyed transcript (KMAC256's layout): `bytepad(encode_string(key), 136)` is absorbed
    /// first, so the key fills its own rate blocks, then the elements as usual.
    pub fn keyed(tag: &str, key: &[u8]) -> Self {
        let mut t = Transcript::new(tag);
        let (mut a, mut b) = ([0u8; 9], [0u8; 9]);
        // bytepad(encode_string(K), 136) = left_encode(136) ‖ left_encode(8·|K|) ‖ K ‖ zeros.
        let (rate, bits) = (
            left_encode(136, &mut a),
            left_encode(8 * key.len() as u64, &mut b),
        );
        let len = rate.len() + bits.len() + key.len();
        t.0.update(rate);
        t.0.update(bits);
        t.0.update(key);
        t.0.update(&[0u8; 136][..(136 - len % 136) % 136]);
        t
    }

    /// Appends one element (encode_string: its bit length, then the bytes).
    pub fn append(&mut self, element: &[u8]) -> &mut Self {
        let mut buf = [0u8; 9];
        self.0.update(left_encode(8 * element.len() as u64, &mut buf));
        self.0.update(element);
        self
    }

    /// Finishes with the output length bound in (right_encode(8·N)) and returns N bytes.
    pub fn finalize<const N: usize>(self) -> [u8; N] {
        let mut h = self.0;
        let mut buf = [0u8; 9];
        h.update(right_encode(8 * N as u64, &mut buf));
        let mut out = [0u8; N];
        h.finalize_xof().read(&mut out);
        out
    }

    /// Finishes as an extendable output (TupleHashXOF's right_encode(0)): read as much as needed.
    pub fn finalize_xof(self) -> impl XofReader {
        let mut h = self.0;
        let mut buf = [0u8; 9];
        h.update(right_encode(0, &mut buf));
        h.finalize_xof()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shake256_absorb_matches_sha3() {
        // Every split of inputs across and inside blocks, and outputs over several blocks.
        let data: alloc::vec::Vec<u8> = (0..700u32).map(|i| (i * 31 + 7).to_le_bytes()[0]).collect();
        for len in [0, 1, 7, 8, 9, 63, 135, 136, 137, 271, 272, 273, 500, 700] {
            for cut in [0, 1, 5, 8, 64, 136, 200] {
                let cut = cut.min(len);
                for out_len in [1, 32, 64, 135, 136, 137, 300] {
                    let mut want = alloc::vec![0u8; out_len];
                    shake256(&[&data[..len]]).read(&mut want);
                    let mut h = Shake256Absorb::default();
                    h.absorb(&data[..cut]);
                    h.absorb(&data[cut..len]);
                    let mut got = alloc::vec![0u8; out_len];
                    h.finalize_into(&mut got);
                    assert_eq!(got, want, "len {len} cut {cut} out {out_len}");
                    let mut got = alloc::vec![0u8; out_len];
                    shake256_into(&[&data[..cut], &data[cut..len]], &mut got);
                    assert_eq!(got, want, "shake256_into len {len} cut {cut} out {out_len}");
                }
            }
        }
    }

    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[test]
    fn one_state_permutation_matches_scalar_on_every_backend() {
        use keccak_x4::{set_backend, Backend};
        let start: [u64; 25] = core::array::from_fn(|i| (i as u64 + 3).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let mut want = start;
        keccak::f1600(&mut want);
        // Process-wide, but every backend gives the same bytes: concurrent tests still pass.
        for b in [Backend::Portable, Backend::Avx2, Backend::Auto] {
            set_backend(b);
            let mut got = start;
            keccak_x4::f1600(&mut got);
            assert_eq!(got, want, "{b:?}");
        }
    }

    #[test]
    fn sp800_185_encodings() {
        let mut b = [0u8; 9];
        assert_eq!(left_encode(0, &mut b), &[1, 0]);
        assert_eq!(left_encode(256, &mut b), &[2, 1, 0]);
        assert_eq!(right_encode(0, &mut b), &[0, 1]);
        assert_eq!(right_encode(256, &mut b), &[1, 0, 2]);
    }

    #[test]
    fn transcript_elements_are_unambiguous() {
        let h = |parts: &[&[u8]]| {
            let mut t = Transcript::new(tags::LSS_TRANSCRIPT);
            for p in parts {
                t.append(p);
            }
            t.finalize::<32>()
        };
        assert_ne!(h(&[b"ab", b"c"]), h(&[b"a", b"bc"]));
        assert_ne!(h(&[b"abc"]), h(&[b"abc", b""]));
        let mut other = Transcript::new(tags::LENS_ACTIVATE);
        other.append(b"abc");
        assert_ne!(other.finalize::<32>(), h(&[b"abc"]));
    }
}
