//! A party's two computing rounds (threshold-mldsa spec §3.2, §3.4) and the encodings of
//! what they publish.
//!
//! Round 1 (`commit`): K ellipsoid samples u_κ from the party's 64-byte seed, rounded to
//! (ŷ_κ, ê_κ), and w_κ = A·ŷ_κ + ê_κ packed at 23 bits a coefficient. Its hash is the
//! commitment; the packed w is the reveal. Round 3 (`respond`): from the sum of every
//! signer's w_κ, the challenge c_κ; the party's partial secret (s1_p, s2_p) by the public
//! partition; the local rejection test on v = (c·s1_p + u_y, c·s2_p + u_e) in the
//! ellipsoid's metric; and for an accepted slot z = ŷ_κ + c·s1_p. The samples are drawn
//! again from the seed in round 3 rather than kept (up to 27 MB for the largest sets).

use alloc::boxed::Box;
use alloc::vec::Vec;

use zeroize::Zeroizing;

use super::dealer::PartyShare;
use super::hyperball::{round, sample_x4};
use super::params::Shape;
use super::subsets::assigned;
use crate::hash::Shake256Absorb;
use crate::mldsa::encode::{pack_offset, unpack_offset, w1_encode_poly};
use crate::mldsa::ntt::{freeze, Q};
use crate::mldsa::params::Params;
use crate::mldsa::poly::{zero_vec, Poly, PolyVec, MAX_K, N};
use crate::mldsa::rounding::high_bits;
use crate::mldsa::sample::{sample_in_ball, ExpandA};

/// Bits per coefficient of a revealed w (coefficients in [0, q)).
pub(crate) const W_BITS: usize = 23;

/// `pack_bits(vals, W_BITS, out)`, eight coefficients (23 bytes) at a time: the reveal is the
/// committee's largest message, packed once and unpacked by every other signer.
// Exact: each coefficient is in [0, 2^23), and bytes are taken from their words.
#[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
pub(crate) fn pack_w(vals: &[i32; N], out: &mut [u8]) {
    debug_assert_eq!(out.len(), 32 * W_BITS);
    for (group, chunk) in vals.chunks_exact(8).zip(out.chunks_exact_mut(W_BITS)) {
        let mut words = [0u64; 3];
        for (j, &v) in group.iter().enumerate() {
            let (at, v) = (W_BITS * j, u64::from(v as u32));
            words[at / 64] |= v << (at % 64);
            if at % 64 + W_BITS > 64 {
                words[at / 64 + 1] |= v >> (64 - at % 64);
            }
        }
        let mut bytes = [0u8; 24];
        for (b, w) in bytes.chunks_exact_mut(8).zip(words) {
            b.copy_from_slice(&w.to_le_bytes());
        }
        chunk.copy_from_slice(&bytes[..W_BITS]);
    }
}

/// `unpack_bits(bytes, W_BITS)`, eight coefficients (23 bytes) at a time.
// Exact: masked to 23 bits.
#[allow(clippy::cast_possible_wrap)]
pub(crate) fn unpack_w(bytes: &[u8]) -> [i32; N] {
    debug_assert_eq!(bytes.len(), 32 * W_BITS);
    const MASK: u32 = (1 << W_BITS) - 1;
    let mut out = [0i32; N];
    for (chunk, group) in bytes.chunks_exact(W_BITS).zip(out.chunks_exact_mut(8)) {
        let mut b = [0u8; 24];
        b[..W_BITS].copy_from_slice(chunk);
        for (j, v) in group.iter_mut().enumerate() {
            // 23 bits from bit 23·j: within the four bytes from byte ⌊23·j / 8⌋.
            let at = W_BITS * j;
            let word = u32::from_le_bytes([b[at / 8], b[at / 8 + 1], b[at / 8 + 2], b[at / 8 + 3]]);
            *v = ((word >> (at % 8)) & MASK) as i32;
        }
    }
    out
}

/// Â = NTT(ExpandA(ρ)), row by row.
pub(crate) struct Matrix(Box<[[Poly; MAX_K]; MAX_K]>);

impl Matrix {
    pub(crate) fn expand<P: Params>(rho: &[u8; 32]) -> Matrix {
        let mut a = Box::new([[Poly::default(); MAX_K]; MAX_K]);
        let mut rows = ExpandA::new(rho, P::K, P::L);
        for row in a.iter_mut().take(P::K) {
            rows.next_row(&mut row[..P::L]);
        }
        Matrix(a)
    }

    /// out ← NTT^-1(Â ∘ x̂) in the `reduce32` range, for x̂ in the NTT domain.
    pub(super) fn apply<P: Params>(&self, x_hat: &PolyVec, out: &mut PolyVec) {
        for (row, o) in self.0.iter().zip(out.iter_mut()).take(P::K) {
            *o = Poly::default();
            for (a, x) in row.iter().zip(x_hat.iter()).take(P::L) {
                o.pointwise_acc(a, x);
            }
            o.reduce();
            o.inv_ntt();
        }
    }
}

/// The centered representative in (−q/2, q/2] of a coefficient in the `reduce32` range.
#[inline]
pub(super) fn centered(x: i32) -> i32 {
    let f = freeze(x);
    f - (Q & (((Q - 1) / 2 - f) >> 31))
}

/// Bytes of one party's reveal: K·k polynomials of 23-bit coefficients.
pub(crate) const fn reveal_len<P: Params>(reps: u16) -> usize {
    reps as usize * P::K * 32 * W_BITS
}

/// Bytes of one slot's response: ℓ polynomials in FIPS 204's z encoding.
pub(crate) const fn slot_response_len<P: Params>() -> usize {
    P::L * 32 * P::Z_BITS
}

/// Round 1: the packed w_κ of every slot κ, the samples drawn with nonces
/// `first_nonce + κ` (the caller keeps `first_nonce + K` within 16 bits).
// Exact: κ < K ≤ 1200 and the caller's bound on first_nonce + K.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn commit<P: Params>(
    a: &Matrix,
    shape: &Shape,
    seed: &[u8; 64],
    first_nonce: u16,
    keep: Option<&mut Samples>,
) -> Vec<u8> {
    let poly_len = 32 * W_BITS;
    let mut out = alloc::vec![0u8; reveal_len::<P>(shape.reps)];
    let mut y_hat = Zeroizing::new(zero_vec());
    let mut w = Zeroizing::new(zero_vec());
    let mut chunks = out.chunks_exact_mut(P::K * poly_len);
    let source = match keep {
        Some(k) => Source::DrawAndKeep(k),
        None => Source::Draw,
    };
    for_each_sample::<P>(shape, seed, first_nonce, source, |_, u| {
        let Some(chunk) = chunks.next() else { return };
        let (y, e) = rounded::<P>(u);
        for j in 0..P::L {
            y_hat[j] = y[j];
            y_hat[j].ntt();
        }
        a.apply::<P>(&y_hat, &mut w);
        for i in 0..P::K {
            w[i].add(&e[i]);
            w[i].freeze();
            pack_w(&w[i].0, &mut chunk[i * poly_len..(i + 1) * poly_len]);
        }
    });
    out
}

/// A run's samples, kept from round 1 for round 3 where they fit [`KEEP_SAMPLES_BYTES`]
/// (secret: wiped when dropped).
pub(crate) type Samples = Vec<Zeroizing<Vec<f64>>>;

/// The most memory a signer spends keeping its samples between rounds 1 and 3 (K·D·8 bytes;
/// above it, round 3 draws them again, as the spec's §7.5 suggests for the largest sets).
pub(crate) const KEEP_SAMPLES_BYTES: usize = 4 << 20;

/// Where a round's samples come from.
enum Source<'a> {
    /// Drawn from the seed.
    Draw,
    /// Drawn from the seed, and kept for round 3.
    DrawAndKeep(&'a mut Samples),
    /// Kept from round 1.
    Kept(&'a Samples),
}

/// Calls `f(slot, u_slot)` for every slot of a run, the samples drawn four at a time
/// (nonces `first_nonce + slot`; the caller keeps `first_nonce + K` within 16 bits) or taken
/// from those kept.
// Exact: slot offsets below K ≤ 1200.
#[allow(clippy::cast_possible_truncation)]
fn for_each_sample<P: Params>(
    shape: &Shape,
    seed: &[u8; 64],
    first_nonce: u16,
    source: Source<'_>,
    mut f: impl FnMut(usize, &[f64]),
) {
    let mut keep = match source {
        Source::Kept(samples) => {
            for (slot, u) in samples.iter().enumerate() {
                f(slot, u);
            }
            return;
        }
        Source::DrawAndKeep(k) => Some(k),
        Source::Draw => None,
    };
    let reps = usize::from(shape.reps);
    for base in (0..reps).step_by(4) {
        let count = (reps - base).min(4);
        let samples = sample_x4(
            seed,
            first_nonce + base as u16,
            count,
            N * (P::K + P::L),
            N * P::L,
            shape.r_prime,
            shape.nu,
        );
        for (i, u) in samples.iter().enumerate() {
            f(base + i, u);
        }
        if let Some(k) = keep.as_mut() {
            k.extend(samples);
        }
    }
}

/// (ŷ, ê): a sample rounded half away from zero, coefficients centered.
fn rounded<P: Params>(u: &[f64]) -> (Zeroizing<PolyVec>, Zeroizing<PolyVec>) {
    let mut y = Zeroizing::new(zero_vec());
    let mut e = Zeroizing::new(zero_vec());
    for (x, v) in u.iter().enumerate() {
        let (vec, at) = if x < N * P::L {
            (&mut *y, x)
        } else {
            (&mut *e, x - N * P::L)
        };
        vec[at / N].0[at % N] = round(*v);
    }
    (y, e)
}

/// Whether `reveal` is a well-formed reveal of `reps` slots: the exact length, and every
/// 23-bit field a coefficient below q (the one check a peer's reveal needs before it is
/// stored; [`aggregate`] repeats it).
pub(crate) fn reveal_is_canonical<P: Params>(reps: u16, reveal: &[u8]) -> bool {
    let poly_len = 32 * W_BITS;
    reveal.len() == reveal_len::<P>(reps)
        && reveal
            .chunks_exact(poly_len)
            .all(|chunk| unpack_w(chunk).iter().fold(true, |ok, &c| ok & (c < Q)))
}

/// Sums the signers' reveals slot by slot: w_κ = Σ_j w_{j,κ} mod q. A reveal of the wrong
/// length or with a coefficient ≥ q is refused: `Err(i)` names the i-th reveal.
pub(crate) fn aggregate<P: Params>(reps: u16, reveals: &[&[u8]]) -> Result<Vec<PolyVec>, usize> {
    let poly_len = 32 * W_BITS;
    let mut sums = alloc::vec![zero_vec(); usize::from(reps)];
    for (index, reveal) in reveals.iter().enumerate() {
        if reveal.len() != reveal_len::<P>(reps) {
            return Err(index);
        }
        for (slot, chunk) in reveal.chunks_exact(P::K * poly_len).enumerate() {
            for i in 0..P::K {
                let coeffs = unpack_w(&chunk[i * poly_len..(i + 1) * poly_len]);
                if coeffs.iter().any(|&c| c >= Q) {
                    return Err(index);
                }
                let sum = &mut sums[slot][i];
                for (s, c) in sum.0.iter_mut().zip(coeffs) {
                    // Both in [0, q): the sum stays below 2q, reduced at once.
                    *s += c;
                    *s -= Q & ((Q - 1 - *s) >> 31);
                }
            }
        }
    }
    Ok(sums)
}

/// (c̃, NTT(c)) for a slot's summed w and the message representative μ.
pub(super) fn challenge<P: Params>(mu: &[u8; 64], w: &PolyVec) -> ([u8; 64], Poly) {
    let mut w1 = Poly::default();
    let mut bytes = [0u8; MAX_K * 32 * 6];
    let w1_len = 32 * P::W1_BITS;
    for i in 0..P::K {
        for (h, &c) in w1.0.iter_mut().zip(w[i].0.iter()) {
            *h = high_bits(c, P::GAMMA2);
        }
        w1_encode_poly::<P>(&w1, &mut bytes[i * w1_len..]);
    }
    let mut hasher = Shake256Absorb::default();
    hasher.absorb(mu);
    hasher.absorb(&bytes[..P::K * w1_len]);
    let mut c_tilde = [0u8; 64];
    hasher.finalize_into(&mut c_tilde[..P::C_TILDE_LEN]);
    let mut c_hat = sample_in_ball::<P>(&c_tilde[..P::C_TILDE_LEN]);
    c_hat.ntt();
    (c_tilde, c_hat)
}

/// Round 3: one response per slot, `None` where the party's rejection test refused it.
/// `active` is the mask of the T signers (`share.index` among them), `sums` the aggregate
/// of their reveals, `seed`/`first_nonce` those of this party's round 1, `kept` the samples
/// round 1 kept (drawn again from the seed when absent).
// The round's inputs as the spec names them (§3.4), and the samples kept from round 1.
#[allow(clippy::too_many_arguments)]
pub(crate) fn respond<P: Params>(
    shape: &Shape,
    share: &PartyShare,
    active: u8,
    seed: &[u8; 64],
    first_nonce: u16,
    mu: &[u8; 64],
    sums: &[PolyVec],
    kept: Option<&Samples>,
) -> Vec<Option<Zeroizing<PolyVec>>> {
    let (s1_hat, s2_hat) = partial_secret::<P>(shape, share, active);
    let r2 = shape.r * shape.r;
    let nu2 = shape.nu * shape.nu;
    let mut cs = Zeroizing::new(zero_vec());
    let mut out = Vec::with_capacity(sums.len());
    let source = match kept {
        Some(k) if k.len() == sums.len() => Source::Kept(k),
        _ => Source::Draw,
    };
    for_each_sample::<P>(shape, seed, first_nonce, source, |slot, u| {
        let Some(w) = sums.get(slot) else { return };
        let (_, c_hat) = challenge::<P>(mu, w);
        // The excess: Σ_y v²/ν² + Σ_e v², in one fixed order (y part, then e part).
        let mut excess = 0f64;
        let mut z = Zeroizing::new(zero_vec());
        for (part, (secret, len)) in [(&s1_hat, P::L), (&s2_hat, P::K)].into_iter().enumerate() {
            for j in 0..len {
                cs[j].pointwise(&c_hat, &secret[j]);
                cs[j].inv_ntt();
                let base = if part == 0 { j * N } else { (P::L + j) * N };
                for (n, &c) in cs[j].0.iter().enumerate() {
                    let c = centered(c);
                    let v = f64::from(c) + u[base + n];
                    if part == 0 {
                        excess += v * v / nu2;
                        z[j].0[n] = round(u[base + n]) + c;
                    } else {
                        excess += v * v;
                    }
                }
            }
        }
        // A partial z outside (−γ1, γ1] cannot be encoded: the slot counts as rejected.
        // Without short-circuits: the test runs over secret coefficients; only its verdict is
        // public (a slot that fails it is rejected, visibly).
        let encodable = crate::ct::public(
            z[..P::L]
                .iter()
                .flat_map(|p| p.0.iter())
                .fold(true, |ok, &c| ok & (c > -P::GAMMA1) & (c <= P::GAMMA1)),
        );
        // Strictly greater is a rejection (the reference's test); the excess is never NaN (the
        // sampler's seeds avoid ln 0). Public: whether a party accepts a slot is visible.
        let accepted = excess <= r2;
        let accepted = crate::ct::public(accepted) & encodable;
        if accepted {
            // An accepted response is published (round 3).
            crate::ct::public_slice(&z[..]);
        }
        out.push(accepted.then_some(z));
    });
    out
}

/// NTT(s1_p), NTT(s2_p): the sum of the subset secrets the partition gives this party.
fn partial_secret<P: Params>(
    shape: &Shape,
    share: &PartyShare,
    active: u8,
) -> (Zeroizing<PolyVec>, Zeroizing<PolyVec>) {
    let mut s1 = Zeroizing::new(zero_vec());
    let mut s2 = Zeroizing::new(zero_vec());
    for mask in assigned(shape.threshold, shape.parties, active, share.index) {
        // The caller checked the share holds every subset of its party.
        if let Some(secret) = share.secrets.iter().find(|s| s.mask == mask) {
            for j in 0..P::L {
                s1[j].add(&secret.s1[j]);
            }
            for i in 0..P::K {
                s2[i].add(&secret.s2[i]);
            }
        }
    }
    for p in s1.iter_mut().take(P::L) {
        p.ntt();
    }
    for p in s2.iter_mut().take(P::K) {
        p.ntt();
    }
    (s1, s2)
}

/// Packs one slot's response (FIPS 204's z encoding, γ1 − z at 18 or 20 bits).
pub(crate) fn pack_response<P: Params>(z: &PolyVec, out: &mut [u8]) {
    let len = 32 * P::Z_BITS;
    for (j, p) in z[..P::L].iter().enumerate() {
        pack_offset(p, P::GAMMA1, P::Z_BITS, &mut out[j * len..(j + 1) * len]);
    }
}

/// Unpacks one slot's response; every coefficient is in (−γ1, γ1] by construction.
pub(crate) fn unpack_response<P: Params>(bytes: &[u8]) -> PolyVec {
    let len = 32 * P::Z_BITS;
    let mut z = zero_vec();
    for (j, p) in z[..P::L].iter_mut().enumerate() {
        *p = unpack_offset(&bytes[j * len..(j + 1) * len], P::GAMMA1, P::Z_BITS);
    }
    z
}
