//! The proof that a member holds its share of a generation, and the statement it is bound
//! to (formulas in the parent module's docs).

use alloc::vec::Vec;

use group::ff::Field;
use group::{Group, GroupEncoding};
use rand_core::{CryptoRng, RngCore, SeedableRng};
use subtle::ConstantTimeEq;

use super::ActivationKind;
use crate::hash::{tags, Transcript};
use crate::lss::{GroupPublic, KeyShare};
use crate::vss::group::{read_point, read_scalar, write_scalar};
use crate::vss::{Curve, Mode};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// The statement `D` every proof of the generation `public` is bound to. Every member of a
/// generation hashes the same public data (at n = 128, 86 commitments), so with
/// `in-process-sharing` a process hashes it once natively, keyed by everything hashed: the
/// generation's encoding (curve, mode, members, threshold, commitments, generation and
/// transcript hash), the scheme and the key. (Not on WebAssembly, for the modules' size.)
pub(crate) fn statement<C: Curve>(public: &GroupPublic<C>, kind: ActivationKind, key: &[u8]) -> [u8; 32] {
    #[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
    return *crate::party::shared::memo(
        b"lss-activation-statement",
        || {
            let group = public.to_bytes();
            crate::party::shared::key_of([C::NAME.as_bytes(), kind.tag().as_bytes(), &group, key])
        },
        32,
        || statement_hash(public, kind, key),
    );
    #[cfg(not(all(feature = "in-process-sharing", not(target_arch = "wasm32"))))]
    statement_hash(public, kind, key)
}

fn statement_hash<C: Curve>(public: &GroupPublic<C>, kind: ActivationKind, key: &[u8]) -> [u8; 32] {
    let ids = crate::party::id_bytes(public.parties());
    let mut commitments = Writer::new();
    public.commitments().write(&mut commitments);
    let mut t = Transcript::new(tags::LSS_ACTIVATE);
    t.append(b"statement")
        .append(kind.tag().as_bytes())
        .append(C::NAME.as_bytes())
        .append(&[public.mode().to_byte()])
        .append(&public.generation().to_be_bytes())
        .append(public.transcript_hash())
        .append(&public.threshold().to_be_bytes())
        .append(&ids)
        .append(&commitments.into_bytes())
        .append(key);
    t.finalize()
}

/// `e = H(D, j, R)`. `C_j` is fixed by `D` (which hashes every commitment) and `j`, so
/// it need not be hashed — which lets a batch check skip evaluating it per member.
fn challenge<C: Curve>(d: &[u8; 32], member: PartyId, r: &Encoding<C>) -> C::Scalar {
    let mut t = Transcript::new(tags::LSS_ACTIVATE);
    t.append(b"challenge")
        .append(d)
        .append(&member.get().to_be_bytes())
        .append(r.as_ref());
    C::scalar_from_wide(&t.finalize::<64>())
}

/// A point's encoding.
type Encoding<C> = <<C as Curve>::Point as GroupEncoding>::Repr;

/// A member's proof of possession of its share (Schnorr in Feldman mode, Okamoto in
/// Pedersen mode).
#[derive(Clone)]
pub(crate) struct PossessionProof<C: Curve> {
    r: C::Point,
    /// `R`'s encoding, made once by the prover or kept as read: it is hashed into the
    /// challenge and the batch's weights, and a Ristretto encoding costs an inverse square
    /// root.
    r_encoded: Encoding<C>,
    z1: C::Scalar,
    z2: C::Scalar,
}

/// Equal `R`, `z₁`, `z₂` (`R`'s encoding follows from `R`).
impl<C: Curve> PartialEq for PossessionProof<C> {
    fn eq(&self, other: &Self) -> bool {
        (self.r, self.z1, self.z2) == (other.r, other.z1, other.z2)
    }
}

impl<C: Curve> Eq for PossessionProof<C> {}

impl<C: Curve> core::fmt::Debug for PossessionProof<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PossessionProof").finish_non_exhaustive()
    }
}

/// `R = a·G (+ b·H)` and its encoding: by the group's one-product encoding where it has
/// one (then decoded, since the proof keeps the point), else the product and its encoding.
/// Natively only: WebAssembly has none, and the full module carries each group's code.
fn nonce_commitment<C: Curve>(a: &C::Scalar, blind: Option<&C::Scalar>) -> (C::Point, Encoding<C>) {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(made) = C::mul_base_encoded(a, blind).and_then(|bytes| {
        // Public: R's encoding is the proof's first part (decoded here).
        let bytes = crate::ct::public(bytes);
        let mut r_encoded = Encoding::<C>::default();
        let wanted = r_encoded.as_ref().len();
        r_encoded.as_mut().copy_from_slice(bytes.get(..wanted)?);
        Option::<C::Point>::from(C::Point::from_bytes(&r_encoded)).map(|r| (r, r_encoded))
    }) {
        return made;
    }
    let r = match blind {
        Some(b) => C::mul_base_h(a, b),
        None => C::mul_base(a),
    };
    // Public: R is the proof's first part, declassified before it is encoded.
    let r = crate::ct::public(r);
    (r, r.to_bytes())
}

impl<C: Curve> PossessionProof<C> {
    /// Proves that `share`'s owner holds it, for statement `d`.
    ///
    /// # Security
    /// The nonces come from `rng` and are wiped; the share is only read.
    pub(crate) fn prove(share: &KeyShare<C>, d: &[u8; 32], rng: &mut (impl RngCore + CryptoRng)) -> Self {
        let mode = share.public().mode();
        let mut a = C::Scalar::random(&mut *rng);
        let mut b = match mode {
            Mode::Pedersen => C::Scalar::random(&mut *rng),
            Mode::Feldman => C::Scalar::ZERO,
        };
        let blind = match mode {
            Mode::Pedersen => Some(&b),
            Mode::Feldman => None,
        };
        let (r, r_encoded) = nonce_commitment::<C>(&a, blind);
        // Public: R (and so its encoding), z1 and z2 are the proof, broadcast in the
        // activation round.
        let r = crate::ct::public(r);
        let r_encoded = crate::ct::public(r_encoded);
        let e = challenge::<C>(d, share.id(), &r_encoded);
        let z1 = crate::ct::public(a + e * share.secret_share());
        let z2 = crate::ct::public(b + e * share.blind_share());
        zeroize::Zeroize::zeroize(&mut a);
        zeroize::Zeroize::zeroize(&mut b);
        PossessionProof {
            r,
            r_encoded,
            z1,
            z2: if mode == Mode::Pedersen {
                z2
            } else {
                C::Scalar::ZERO
            },
        }
    }

    /// Bytes of an encoded proof in `mode`.
    pub(crate) fn encoded_len(mode: Mode) -> usize {
        C::POINT_LEN
            + C::SCALAR_LEN
            + match mode {
                Mode::Pedersen => C::SCALAR_LEN,
                Mode::Feldman => 0,
            }
    }

    /// Encodes `R ‖ z₁ [‖ z₂]`.
    pub(crate) fn write(&self, mode: Mode, w: &mut Writer) {
        w.put(self.r_encoded.as_ref());
        write_scalar::<C>(&self.z1, w);
        if mode == Mode::Pedersen {
            write_scalar::<C>(&self.z2, w);
        }
    }

    /// The encoding.
    pub(crate) fn to_bytes(&self, mode: Mode) -> Vec<u8> {
        let mut w = Writer::with_capacity(Self::encoded_len(mode));
        self.write(mode, &mut w);
        w.into_bytes()
    }

    /// Decodes (canonical, prime-order `R`; canonical scalars).
    pub(crate) fn read(mode: Mode, r: &mut Reader<'_>) -> Result<Self, wire::Error> {
        let raw = r.take(C::POINT_LEN)?;
        let point = read_point::<C>(&mut Reader::new(raw))?;
        let mut r_encoded = Encoding::<C>::default();
        r_encoded.as_mut().copy_from_slice(raw);
        let z1 = read_scalar::<C>(r)?;
        let z2 = match mode {
            Mode::Pedersen => read_scalar::<C>(r)?,
            Mode::Feldman => C::Scalar::ZERO,
        };
        Ok(PossessionProof {
            r: point,
            r_encoded,
            z1,
            z2,
        })
    }

    /// Whether this proof, by `member`, verifies for statement `d` against `public`.
    pub(crate) fn verify(&self, public: &GroupPublic<C>, d: &[u8; 32], member: PartyId) -> bool {
        let c = public.share_commitment(member);
        let e = challenge::<C>(d, member, &self.r_encoded);
        let lhs = match public.mode() {
            Mode::Pedersen => C::msm_vartime(
                &[self.z1, self.z2, -e],
                &[C::Point::generator(), C::generator_h(), c],
            ),
            Mode::Feldman => C::msm_vartime(&[self.z1, -e], &[C::Point::generator(), c]),
        };
        bool::from(lhs.ct_eq(&self.r))
    }

    /// The members whose proofs fail, increasing; one random-weight batch (weights from a
    /// hash of every proof, so they are fixed only after the proofs), per-proof checks
    /// only if the batch fails.
    ///
    /// With weights `ρ_j` the batch is `(Σρz₁)·G (+ (Σρz₂)·H) − Σ_k (Σ_j ρ_j·e_j·j^k)·A_k
    /// − Σ_j ρ_j·R_j = 0`: the members' commitments `C_j = Σ_k j^k·A_k` are folded into the
    /// `t` sharing commitments, so multi-scalar multiplications of `t + n + 2` points in all
    /// replace `n` evaluations. Natively with `in-process-sharing`, the proofs are summed in
    /// parts of `BATCH_PART` (`batch_part`), which the parties of one process stepped on
    /// several threads make together, and `batch_failing` adds them up; elsewhere in one
    /// pass, with the same weights.
    pub(crate) fn verify_all(
        public: &GroupPublic<C>,
        d: &[u8; 32],
        proofs: &[(PartyId, Self)],
    ) -> Vec<PartyId> {
        let seed = Self::batch_seed(public.mode(), d, proofs);
        #[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
        {
            let parts: Vec<BatchPart<C>> = (0..proofs.len().div_ceil(BATCH_PART))
                .map(|i| Self::batch_part(public, d, proofs, &seed, i))
                .collect();
            Self::batch_failing(public, d, proofs, &parts)
        }
        // In one pass where nothing is made in parts: the modules by need and WebAssembly
        // (whose full module would otherwise carry both forms for each group).
        #[cfg(not(all(feature = "in-process-sharing", not(target_arch = "wasm32"))))]
        {
            if proofs.is_empty() {
                return Vec::new();
            }
            let mut rng = rand_chacha::ChaCha20Rng::from_seed(seed);
            let commitments = public.commitments().points();
            let mut weighted_challenges = Vec::with_capacity(proofs.len());
            let mut scalars = Vec::with_capacity(commitments.len() + proofs.len() + 2);
            let mut points = Vec::with_capacity(commitments.len() + proofs.len() + 2);
            let (z1, z2) = Self::weigh(
                d,
                proofs,
                &mut rng,
                &mut weighted_challenges,
                &mut scalars,
                &mut points,
            );
            let folded = C::power_sums(&weighted_challenges, commitments.len());
            scalars.extend(folded.iter().map(|f| -*f));
            points.extend_from_slice(commitments);
            scalars.push(z1);
            points.push(C::Point::generator());
            if public.mode() == Mode::Pedersen {
                scalars.push(z2);
                points.push(C::generator_h());
            }
            if bool::from(C::msm_vartime(&scalars, &points).is_identity()) {
                return Vec::new();
            }
            Self::failing_one_by_one(public, d, proofs)
        }
    }

    /// Weighs `proofs` with the next weights `ρ_j` of `rng` (two u64 each, `2⁶⁴·a + b`):
    /// pushes `(j, ρ_j·e_j)`, `−ρ_j` and `R_j`, and returns `(Σρz₁, Σρz₂)`.
    fn weigh(
        d: &[u8; 32],
        proofs: &[(PartyId, Self)],
        rng: &mut rand_chacha::ChaCha20Rng,
        weighted_challenges: &mut Vec<(u16, C::Scalar)>,
        scalars: &mut Vec<C::Scalar>,
        points: &mut Vec<C::Point>,
    ) -> (C::Scalar, C::Scalar) {
        let shift = C::Scalar::from(1u64 << 32) * C::Scalar::from(1u64 << 32);
        let (mut z1, mut z2) = (C::Scalar::ZERO, C::Scalar::ZERO);
        for (p, proof) in proofs {
            let rho = C::Scalar::from(rng.next_u64()) * shift + C::Scalar::from(rng.next_u64());
            let e = challenge::<C>(d, *p, &proof.r_encoded);
            z1 += rho * proof.z1;
            z2 += rho * proof.z2;
            weighted_challenges.push((p.get(), rho * e));
            scalars.push(-rho);
            points.push(proof.r);
        }
        (z1, z2)
    }

    /// The members whose proofs fail, checked one by one (after a failed batch).
    fn failing_one_by_one(public: &GroupPublic<C>, d: &[u8; 32], proofs: &[(PartyId, Self)]) -> Vec<PartyId> {
        proofs
            .iter()
            .filter(|(p, proof)| !proof.verify(public, d, *p))
            .map(|(p, _)| *p)
            .collect()
    }

    /// The seed of the batch's weights: a hash of the statement and every proof.
    pub(crate) fn batch_seed(mode: Mode, d: &[u8; 32], proofs: &[(PartyId, Self)]) -> [u8; 32] {
        let mut seed = Transcript::new(tags::LSS_BATCH);
        seed.append(b"activation").append(d);
        for (p, proof) in proofs {
            seed.append(&p.get().to_be_bytes()).append(&proof.to_bytes(mode));
        }
        seed.finalize::<32>()
    }

    /// Part `i` of the batch: proofs `i·BATCH_PART..`, each with its weight `ρ_j` (the
    /// `j`-th pair of words of the seed's ChaCha20 stream, whichever part draws it).
    #[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
    pub(crate) fn batch_part(
        public: &GroupPublic<C>,
        d: &[u8; 32],
        proofs: &[(PartyId, Self)],
        seed: &[u8; 32],
        i: usize,
    ) -> BatchPart<C> {
        let first = i * BATCH_PART;
        let these = proofs
            .get(first..proofs.len().min(first + BATCH_PART))
            .unwrap_or(&[]);
        let mut rng = rand_chacha::ChaCha20Rng::from_seed(*seed);
        // Two u64 per weight, two 32-bit words each.
        rng.set_word_pos(4 * first as u128);
        let mut weighted_challenges = Vec::with_capacity(these.len());
        let mut scalars = Vec::with_capacity(these.len());
        let mut points = Vec::with_capacity(these.len());
        let (z1, z2) = Self::weigh(
            d,
            these,
            &mut rng,
            &mut weighted_challenges,
            &mut scalars,
            &mut points,
        );
        BatchPart {
            z1,
            z2,
            r: msm::<C>(&scalars, &points),
            folded: C::power_sums(&weighted_challenges, public.commitments().points().len()),
        }
    }

    /// Adds the parts up (the rest of the batch: the folded commitments and the bases) and
    /// returns the members whose proofs fail, as [`PossessionProof::verify_all`].
    #[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
    pub(crate) fn batch_failing(
        public: &GroupPublic<C>,
        d: &[u8; 32],
        proofs: &[(PartyId, Self)],
        parts: &[BatchPart<C>],
    ) -> Vec<PartyId> {
        if proofs.is_empty() {
            return Vec::new();
        }
        let commitments = public.commitments().points();
        let mut folded = alloc::vec![C::Scalar::ZERO; commitments.len()];
        let (mut z1, mut z2, mut r) = (C::Scalar::ZERO, C::Scalar::ZERO, C::Point::identity());
        for part in parts {
            z1 += part.z1;
            z2 += part.z2;
            r += part.r;
            for (f, g) in folded.iter_mut().zip(&part.folded) {
                *f += g;
            }
        }
        let mut scalars: Vec<C::Scalar> = folded.iter().map(|f| -*f).collect();
        let mut points: Vec<C::Point> = commitments.to_vec();
        scalars.push(z1);
        points.push(C::Point::generator());
        if public.mode() == Mode::Pedersen {
            scalars.push(z2);
            points.push(C::generator_h());
        }
        if bool::from((msm::<C>(&scalars, &points) + r).is_identity()) {
            return Vec::new();
        }
        Self::failing_one_by_one(public, d, proofs)
    }
}

/// The group's multi-scalar multiplication, one copy for the batch's two calls.
#[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
#[inline(never)]
fn msm<C: Curve>(scalars: &[C::Scalar], points: &[C::Point]) -> C::Point {
    C::msm_vartime(scalars, points)
}

/// Proofs per part of an activation batch.
#[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
pub(crate) const BATCH_PART: usize = 32;

/// One part's sums: `Σρz₁`, `Σρz₂`, `−Σρ_j·R_j` and the folded challenges
/// `Σ_j ρ_j·e_j·j^k` for each `k`.
#[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
#[derive(Clone)]
pub(crate) struct BatchPart<C: Curve> {
    z1: C::Scalar,
    z2: C::Scalar,
    r: C::Point,
    folded: Vec<C::Scalar>,
}
