//! The signing equations (spec §4.5–§4.8) on values, without messages: round 1's commitment
//! D_i, round 2's response z_i and the public Combine (whose verifier half is `verify`'s).
//! The parties (`signer`) add sessions, MACs, frames and blame around these.

use alloc::vec::Vec;

use zeroize::Zeroizing;

use super::arith::{self, centred, mul};
use super::ntt::{inv_ntt, pointwise};
use super::params::{COLS, D_BAR, N, ROWS};
use super::ring::{poly_add, poly_from_small, poly_scale, poly_sub, to_ntt, Matrix, Poly, ZERO};
use super::sample::{cdt_batch, round_nu, tree_combine, uniform_poly, Z_SIGMA_STAR, Z_SIGMA_U};
use super::verify::{challenge, PreparedGroupKey, Signature};
use crate::hash::xof_x4::xof_x4;
use crate::hash::{tags, Transcript};

/// Columns of a commitment: r* / e* and the 48 others.
pub(crate) const WIDTH: usize = 1 + D_BAR;

/// Bytes a σ_E polynomial reads (256 base samples of 16 bytes).
const NARROW_BYTES: usize = N * 16;
/// Bytes a wide polynomial reads (256 samples of 32 base samples).
const WIDE_BYTES: usize = N * 32 * 16;

/// A wide-Gaussian polynomial from its stream's `WIDE_BYTES` bytes: 32 base samples per
/// coefficient, in stream order, combined by the tree.
fn wide_poly_from(bytes: &[u8], z: &[i64; 5], out: &mut [i64; N]) {
    let mut leaves = Zeroizing::new(alloc::vec![0i64; N * 32]);
    cdt_batch(bytes, &mut leaves);
    for (o, chunk) in out.iter_mut().zip(leaves.chunks_exact_mut(32)) {
        *o = tree_combine(chunk, z);
    }
}

/// The round-1 Gaussian polynomials of `(kind, row, col)` from `XOF(R1; ρ_i, kind, row, col)`
/// (spec §4.5), four streams at a time; wide (σ*) or narrow (σ_E) as `wide` says.
fn round1_polys(seed: &[u8; 32], which: &[(u8, u8, u8)], wide: bool) -> Zeroizing<Vec<Poly>> {
    let mut out = Zeroizing::new(Vec::with_capacity(which.len()));
    let mut small = Zeroizing::new([0i64; N]);
    for group in which.chunks(4) {
        let fields: Vec<[[u8; 1]; 3]> = group.iter().map(|&(k, r, c)| [[k], [r], [c]]).collect();
        let inputs: Vec<[&[u8]; 4]> = fields.iter().map(|f| [&seed[..], &f[0], &f[1], &f[2]]).collect();
        let lanes: Vec<&[&[u8]]> = inputs.iter().map(|i| &i[..]).collect();
        let len = if wide { WIDE_BYTES } else { NARROW_BYTES };
        for bytes in xof_x4(tags::CORONA_R1, &lanes, len) {
            if wide {
                wide_poly_from(&bytes, &Z_SIGMA_STAR, &mut small);
            } else {
                cdt_batch(&bytes, &mut small[..]);
            }
            out.push(poly_from_small(&small));
        }
    }
    out
}

/// Round 1 from the party's round-1 seed: D_i = A·R'_i + E'_i (8×49, row-major, coefficients)
/// and the secret state NTT(R'_i) (7×49, row-major).
// Exact: rows < 8, columns < 49.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn commit(a: &Matrix, seed: &[u8; 32]) -> (Vec<Poly>, Zeroizing<Vec<Poly>>) {
    let cell = |kind: u8, rows: usize, cols: core::ops::Range<usize>| -> Vec<(u8, u8, u8)> {
        (0..rows)
            .flat_map(|r| cols.clone().map(move |c| (kind, r as u8, c as u8)))
            .collect()
    };
    // r*, e* (σ*, column 0) and R, E (σ_E, columns 1..48), each row-major.
    let r_star = round1_polys(seed, &cell(0, COLS, 0..1), true);
    let e_star = round1_polys(seed, &cell(1, ROWS, 0..1), true);
    let r_rest = round1_polys(seed, &cell(2, COLS, 1..WIDTH), false);
    let e_rest = round1_polys(seed, &cell(3, ROWS, 1..WIDTH), false);
    let mut r_hat = Zeroizing::new(alloc::vec![ZERO; COLS * WIDTH]);
    for row in 0..COLS {
        r_hat[row * WIDTH] = to_ntt(&r_star[row]);
        for col in 1..WIDTH {
            r_hat[row * WIDTH + col] = to_ntt(&r_rest[row * D_BAR + col - 1]);
        }
    }
    let mut d = alloc::vec![ZERO; ROWS * WIDTH];
    for col in 0..WIDTH {
        let column: Zeroizing<Vec<Poly>> =
            Zeroizing::new((0..COLS).map(|row| r_hat[row * WIDTH + col]).collect());
        let ar = a.apply(&column);
        for (row, v) in ar.iter().enumerate() {
            let e = if col == 0 {
                &e_star[row]
            } else {
                &e_rest[row * D_BAR + col - 1]
            };
            d[row * WIDTH + col] = poly_add(v, e);
        }
    }
    (d, r_hat)
}

/// DSum = Σ_j D_j.
#[cfg(test)]
pub(crate) fn aggregate(commitments: &[&[Poly]]) -> Vec<Poly> {
    let mut sum = alloc::vec![ZERO; ROWS * WIDTH];
    for d in commitments {
        for (s, p) in sum.iter_mut().zip(d.iter()) {
            *s = poly_add(s, p);
        }
    }
    sum
}

/// u = (1, u_1..u_48): u_k from XOF(HU; th, μ, k) at σ_u (public), four streams at a time.
pub(crate) fn public_vector(th: &[u8; 64], mu: &[u8; 64]) -> Vec<Poly> {
    let mut u = alloc::vec![ZERO; WIDTH];
    u[0][0] = 1;
    let mut small = [0i64; N];
    for first in (1..WIDTH).step_by(4) {
        // Exact: k ≤ 48.
        #[allow(clippy::cast_possible_truncation)]
        let ks: Vec<[u8; 1]> = (first..(first + 4).min(WIDTH)).map(|k| [k as u8]).collect();
        let inputs: Vec<[&[u8]; 3]> = ks.iter().map(|k| [&th[..], &mu[..], &k[..]]).collect();
        let lanes: Vec<&[&[u8]]> = inputs.iter().map(|i| &i[..]).collect();
        for (j, bytes) in xof_x4(tags::CORONA_HU, &lanes, WIDE_BYTES).iter().enumerate() {
            wide_poly_from(bytes, &Z_SIGMA_U, &mut small);
            u[first + j] = poly_from_small(&small);
        }
    }
    u
}

fn times_u(m_hat: &[Poly], rows: usize, u_hat: &[Poly]) -> Vec<Poly> {
    (0..rows)
        .map(|row| {
            let mut acc = ZERO;
            let mut term = ZERO;
            for (col, u) in u_hat.iter().enumerate() {
                pointwise(&m_hat[row * WIDTH + col], u, &mut term);
                acc = poly_add(&acc, &term);
            }
            inv_ntt(&mut acc);
            acc
        })
        .collect()
}

/// NTT(DSum), entry by entry: what the full-rank check and h̃ both read.
pub(crate) fn to_ntt_all(dsum: &[Poly]) -> Vec<Poly> {
    dsum.iter().map(to_ntt).collect()
}

/// h̃ = Round_ν(DSum·u), enc19 for hashing, from `dsum_hat` = NTT(DSum).
pub(crate) fn rounded_commitment(dsum_hat: &[Poly], u: &[Poly]) -> Vec<[u32; N]> {
    let u_hat: Vec<Poly> = u.iter().map(to_ntt).collect();
    times_u(dsum_hat, ROWS, &u_hat)
        .iter()
        .map(|h| {
            let mut r = [0u32; N];
            for (r, &c) in r.iter_mut().zip(h.iter()) {
                *r = round_nu(c);
            }
            r
        })
        .collect()
}

/// λ_i over the signing set: Π_{j ≠ i} x_j / (x_j − x_i) mod q.
pub(crate) fn lagrange(x: u16, set: &[u16]) -> u64 {
    let mut lambda = 1;
    for &j in set.iter().filter(|&&j| j != x) {
        let (xi, xj) = (u64::from(x), u64::from(j));
        lambda = mul(lambda, mul(xj, arith::inv(arith::sub(xj, xi))));
    }
    lambda
}

/// A pair's mask m_ab ∈ R_q^7 from KXOF(PRF; k^prf_ab; th, μ).
pub(crate) fn pair_mask(key: &[u8; 32], th: &[u8; 64], mu: &[u8; 64]) -> Zeroizing<Vec<Poly>> {
    let mut t = Transcript::keyed(tags::CORONA_PRF, key);
    t.append(th).append(mu);
    let mut stream = t.finalize_xof();
    let mut out = Zeroizing::new(alloc::vec![ZERO; COLS]);
    for p in out.iter_mut() {
        uniform_poly(&mut stream, p);
    }
    out
}

/// z_i = R'_i·u + λ_i·c·s_i + mask_i (coefficients). `masks` are this party's signed pair
/// masks: (+1, m) for pairs where it is the lower id, (−1, m) otherwise.
pub(crate) fn respond(
    r_hat: &[Poly],
    u: &[Poly],
    lambda: u64,
    c: &Poly,
    share: &[Poly],
    masks: &[(bool, Zeroizing<Vec<Poly>>)],
) -> Vec<Poly> {
    let u_hat: Vec<Poly> = u.iter().map(to_ntt).collect();
    let mut z = times_u(r_hat, COLS, &u_hat);
    let c_hat = to_ntt(&poly_scale(c, lambda));
    let mut term = ZERO;
    for (zk, s) in z.iter_mut().zip(share) {
        pointwise(&c_hat, &to_ntt(s), &mut term);
        inv_ntt(&mut term);
        *zk = poly_add(zk, &term);
    }
    for (plus, m) in masks {
        for (zk, mk) in z.iter_mut().zip(m.iter()) {
            *zk = if *plus { poly_add(zk, mk) } else { poly_sub(zk, mk) };
        }
    }
    z
}

/// Combine: z = Σ z_j, Δ = cent_{2^19}(h̃ − w); `None` when z leaves the encodable range.
pub(crate) fn combine(
    key: &PreparedGroupKey,
    h: &[[u32; N]],
    c_tilde: [u8; 32],
    responses: &[&[Poly]],
) -> Option<Signature> {
    let mut z = alloc::vec![ZERO; COLS];
    for r in responses {
        for (zk, rk) in z.iter_mut().zip(r.iter()) {
            *zk = poly_add(zk, rk);
        }
    }
    if z.iter().flatten().any(|&v| centred(v).unsigned_abs() >= 1 << 47) {
        return None;
    }
    let w = key.commitment(&z, &challenge(&c_tilde));
    let delta = h
        .iter()
        .zip(&w)
        .map(|(hr, wr)| {
            let mut d = [0i32; N];
            for ((d, &x), &y) in d.iter_mut().zip(hr.iter()).zip(wr.iter()) {
                // cent_{2^19}(x − y) ∈ [−2^18, 2^18).
                // Exact: masked to 19 bits.
                #[allow(clippy::cast_possible_wrap)]
                let diff = (x.wrapping_sub(y) & ((1 << 19) - 1)) as i32;
                *d = diff - ((1 << 19) & -i32::from(diff >= 1 << 18));
            }
            d
        })
        .collect();
    Some(Signature { c_tilde, z, delta })
}

/// The full-rank check (spec §4.6 step 4): in every NTT slot, the 8×48 matrix of DSum's
/// columns 1..48 has rank 8 (Gaussian elimination mod q; public data, variable time). An honest
/// DSum fails with probability about 256·q^−41. `hat` is NTT(DSum).
pub(crate) fn full_rank(hat: &[Poly]) -> bool {
    let mut m = [[0u64; D_BAR]; ROWS];
    // Slot by slot across the 8×48 polynomials (a transposition).
    #[allow(clippy::needless_range_loop)]
    for slot in 0..N {
        for (r, row) in m.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                *v = hat[r * WIDTH + 1 + c][slot];
            }
        }
        if !rank_is_full(&mut m) {
            return false;
        }
    }
    true
}

/// Whether the 8 rows of `m` are independent over Z_q (destroys `m`).
fn rank_is_full(m: &mut [[u64; D_BAR]; ROWS]) -> bool {
    let mut col = 0;
    for row in 0..ROWS {
        // A pivot at or right of `col`, in this row or below.
        let pivot = loop {
            if col == D_BAR {
                return false;
            }
            if let Some(p) = (row..ROWS).find(|&r| m[r][col] != 0) {
                break p;
            }
            col += 1;
        };
        m.swap(row, pivot);
        let inv = arith::inv(m[row][col]);
        for below in row + 1..ROWS {
            let factor = mul(m[below][col], inv);
            if factor == 0 {
                continue;
            }
            let pivot_row = m[row];
            for (x, &p) in m[below][col..].iter_mut().zip(&pivot_row[col..]) {
                *x = arith::sub(*x, mul(factor, p));
            }
        }
        col += 1;
    }
    true
}
