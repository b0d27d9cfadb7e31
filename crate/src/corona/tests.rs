//! The ring and the samplers against plain u128 arithmetic and the spec's facts.

use alloc::vec::Vec;

use sha2::{Digest, Sha256};

use super::arith::{self, Q, Q_INV_NEG, R2_MOD_Q, R_MOD_Q};
use super::ntt::{inv_ntt, ntt, pointwise, PSI};
use super::params::N;
use super::sample::{
    cdt_batch, cdt_sample, gaussian_poly, round_nu, round_xi, sample_in_ball, tree_combine, uniform_poly,
    wide_sample, CDT, CDT_TAIL, Z_SIGMA_STAR, Z_SIGMA_U,
};
use crate::hash::shake256;

/// A deterministic stream of u64 values (xorshift), for operands.
fn values(seed: u64, count: usize) -> Vec<u64> {
    let mut x = seed | 1;
    (0..count)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

fn mul_ref(a: u64, b: u64) -> u64 {
    u64::try_from(u128::from(a) * u128::from(b) % u128::from(Q)).unwrap_or(u64::MAX)
}

#[test]
fn the_constants_are_what_the_spec_derives() {
    assert_eq!(Q, 281_474_976_729_601);
    assert_eq!((Q - 1) % 512, 0);
    assert_eq!(Q_INV_NEG.wrapping_mul(Q), u64::MAX, "−q⁻¹ mod 2^64");
    assert_eq!(u128::from(R_MOD_Q), (1u128 << 64) % u128::from(Q));
    assert_eq!(R2_MOD_Q, mul_ref(R_MOD_Q, R_MOD_Q));
    assert_eq!(arith::pow(PSI, 256), Q - 1, "ψ^256 = −1");
    assert_eq!(arith::pow(PSI, 512), 1);
    assert_eq!(arith::pow(11, (Q - 1) / 512), PSI);
    assert_eq!(arith::mul(arith::inv(256), 256), 1);
}

#[test]
fn products_and_reductions_match_u128_arithmetic() {
    let edges = [0, 1, 2, Q - 2, Q - 1, (Q - 1) / 2, Q.div_ceil(2)];
    let mut operands: Vec<u64> = values(7, 2000).into_iter().map(|v| v % Q).collect();
    operands.extend(edges);
    for (i, &a) in operands.iter().enumerate() {
        let b = operands[(i * 7 + 3) % operands.len()];
        assert_eq!(arith::mul(a, b), mul_ref(a, b), "{a}·{b}");
        assert_eq!(
            arith::add(a, b),
            u64::try_from((u128::from(a) + u128::from(b)) % u128::from(Q)).unwrap()
        );
        assert_eq!(arith::sub(a, b), (a + Q - b) % Q);
        assert_eq!(arith::from_i64(arith::centred(a)), a);
        assert!(arith::centred(a).unsigned_abs() <= (Q - 1) / 2);
    }
    for w in values(11, 2000).into_iter().chain([u64::MAX, Q, 2 * Q, 0]) {
        assert_eq!(arith::reduce(w), w % Q, "{w} mod q");
    }
    // The 32-bit wide product WebAssembly uses.
    for (i, &a) in values(13, 500).iter().enumerate() {
        let b = values(17 + i as u64, 1)[0];
        assert_eq!(arith::mul_wide_32(a, b), arith::mul_wide(a, b));
    }
    assert_eq!(arith::mul_wide_32(u64::MAX, u64::MAX), (1, u64::MAX - 1));
}

/// X^256 + 1 negacyclic schoolbook product.
#[allow(clippy::needless_range_loop)]
fn schoolbook(a: &[u64; N], b: &[u64; N]) -> [u64; N] {
    let mut c = [0u64; N];
    for i in 0..N {
        for j in 0..N {
            let p = mul_ref(a[i], b[j]);
            let k = i + j;
            if k < N {
                c[k] = arith::add(c[k], p);
            } else {
                c[k - N] = arith::sub(c[k - N], p);
            }
        }
    }
    c
}

#[test]
fn the_ntt_multiplies_in_the_negacyclic_ring_and_inverts() {
    for seed in 0..4u64 {
        let mut a = [0u64; N];
        let mut b = [0u64; N];
        for (i, v) in values(seed * 2 + 1, 2 * N).into_iter().enumerate() {
            if i < N {
                a[i] = v % Q;
            } else {
                b[i - N] = v % Q;
            }
        }
        if seed == 0 {
            // X^255 · X = X^256 = −1.
            a = [0; N];
            b = [0; N];
            a[255] = 1;
            b[1] = 1;
        }
        let want = schoolbook(&a, &b);
        let (mut ah, mut bh) = (a, b);
        ntt(&mut ah);
        ntt(&mut bh);
        let mut back = ah;
        inv_ntt(&mut back);
        assert_eq!(back, a, "inverse");
        let mut c = [0u64; N];
        pointwise(&ah, &bh, &mut c);
        inv_ntt(&mut c);
        assert_eq!(c, want, "seed {seed}");
    }
}

#[test]
fn the_cdt_is_the_specs_and_samples_like_sigma_e() {
    let mut h = Sha256::new();
    for t in CDT {
        h.update(t.to_be_bytes());
    }
    assert_eq!(
        hex::encode(h.finalize()),
        "dfd4c95cf58728afe856311452215e8d978312988fcafeaeeab0c1d4e9b66033"
    );
    assert_eq!(CDT[77], 0x7fff_ffff_ffff_ffff_ffff_ffff_ffff_ffa9);
    // Extremes: r = 0 gives 0; r at the top gives the tail; the sign bit negates.
    assert_eq!(cdt_sample(0, 0), 0);
    assert_eq!(cdt_sample(1, 0), 0, "−0 is 0");
    assert_eq!(cdt_sample(u64::MAX - 1, u64::MAX), CDT_TAIL);
    assert_eq!(cdt_sample(u64::MAX, u64::MAX), -CDT_TAIL);
    // 64 polynomials (16,384 samples): mean near 0, variance near σ_E² = 37.31.
    let mut stream = shake256(&[b"corona cdt test"]);
    let (mut sum, mut sq) = (0i64, 0i64);
    let mut poly = [0i64; N];
    for _ in 0..64 {
        gaussian_poly(&mut stream, &mut poly);
        for &x in &poly {
            assert!(x.abs() <= CDT_TAIL);
            sum += x;
            sq += x * x;
        }
    }
    // In integers: |mean| < 0.2 and |variance − 37.31| < 1.5.
    let n = 64 * i64::try_from(N).unwrap_or(256);
    assert!(5 * sum.abs() < n, "sum {sum} over {n}");
    assert!(
        (100 * sq - 3731 * n).abs() < 150 * n,
        "sum of squares {sq} over {n}"
    );
}

#[test]
fn uniform_polys_are_canonical_and_spread() {
    let mut stream = shake256(&[b"corona uniform test"]);
    let mut p = [0u64; N];
    let mut high = 0;
    for _ in 0..16 {
        uniform_poly(&mut stream, &mut p);
        assert!(p.iter().all(|&c| c < Q));
        high += p.iter().filter(|&&c| c > Q / 2).count();
    }
    // About half of 4096 coefficients above q/2.
    assert!((1800..2300).contains(&high), "{high}");
}

/// Sample variance over `count` draws, against σ² (within `tolerance_percent`).
fn variance_matches(z: &[i64; 5], sigma: f64, count: u32, tolerance_percent: u32) {
    let mut stream = shake256(&[b"corona wide test", &z[4].to_be_bytes()]);
    let mut sq = 0i128;
    for _ in 0..count {
        let x = wide_sample(&mut stream, z);
        assert!(x.unsigned_abs() < 1 << 44);
        sq += i128::from(x) * i128::from(x);
    }
    let var = sq / i128::from(count);
    // σ² rounded to an integer (exact to far below the tolerance).
    #[allow(clippy::cast_possible_truncation)]
    let want = (sigma * sigma) as i128;
    let off = (var - want).abs() * 100 / want;
    assert!(
        off < i128::from(tolerance_percent),
        "variance {var} against σ² {want}: {off} %"
    );
}

#[test]
fn the_convolution_tree_reaches_sigma_star_and_sigma_u() {
    // 4,000 draws: the variance estimate's own spread is about 2.2 %.
    variance_matches(&Z_SIGMA_STAR, 172_852_668_249.176, 4000, 10);
    variance_matches(&Z_SIGMA_U, 163_961_916.330, 4000, 10);
}

#[test]
fn sample_in_ball_has_weight_23_and_rounding_reduces() {
    for seed in 0u8..20 {
        let c = sample_in_ball(&mut shake256(&[b"ball", &[seed]]));
        assert_eq!(c.iter().filter(|&&x| x == 1 || x == Q - 1).count(), 23);
        assert_eq!(c.iter().filter(|&&x| x != 0).count(), 23);
    }
    // The values the reference leaves unreduced wrap to 0.
    assert_eq!(round_nu(Q - 1), 0);
    assert_eq!(round_xi(Q - 1), 0);
    assert_eq!(round_nu((1 << 29) - 1), 1);
    assert_eq!(round_nu((1 << 28) - 1), 0);
    assert_eq!(round_xi(1 << 29), 1);
}

#[test]
fn keyed_transcripts_depend_on_the_key_and_the_xof_on_its_input() {
    use crate::hash::{tags, Transcript};
    use sha3::digest::XofReader;
    let kth = |key: &[u8]| {
        let mut t = Transcript::keyed(tags::CORONA_MAC, key);
        t.append(b"x");
        t.finalize::<32>()
    };
    assert_ne!(kth(&[1; 32]), kth(&[2; 32]));
    // Keys of any length, the padding included: 0, 1, 135, 136, 200 bytes.
    let outs: Vec<[u8; 32]> = [0usize, 1, 135, 136, 200]
        .iter()
        .map(|&n| kth(&alloc::vec![7; n]))
        .collect();
    for i in 0..outs.len() {
        for j in i + 1..outs.len() {
            assert_ne!(outs[i], outs[j]);
        }
    }
    let mut plain = Transcript::new(tags::CORONA_MAC);
    plain.append(b"x");
    assert_ne!(
        plain.finalize::<32>(),
        kth(&[]),
        "a keyed transcript is not the plain one"
    );
    let read = |input: &[u8]| {
        let mut t = Transcript::new(tags::CORONA_A);
        t.append(input);
        let mut out = [0u8; 64];
        t.finalize_xof().read(&mut out);
        out
    };
    assert_ne!(read(b"a"), read(b"b"));
}

/// s from the shares of `set` by Lagrange at 0.
fn reconstruct(packages: &[super::deal::KeyShare], set: &[u16]) -> Vec<[u64; N]> {
    use super::ring::{poly_add, poly_scale, ZERO};
    let mut s = alloc::vec![ZERO; super::params::COLS];
    for &i in set {
        let mut lambda = 1;
        for &j in set.iter().filter(|&&j| j != i) {
            let (xi, xj) = (u64::from(i), u64::from(j));
            lambda = arith::mul(lambda, arith::mul(xj, arith::inv(arith::sub(xj, xi))));
        }
        let share = &packages[usize::from(i) - 1].share;
        for (acc, p) in s.iter_mut().zip(share.iter()) {
            *acc = poly_add(acc, &poly_scale(p, lambda));
        }
    }
    s
}

#[test]
fn a_dealt_key_is_short_shamir_shared_and_rounds_to_its_public_key() {
    use super::deal::deal_seeded;
    use super::ring::{to_ntt, Matrix};
    use super::sample::round_xi;
    let (key, packages) = deal_seeded(3, 5, [9; 32], &[1; 32]);
    assert_eq!(packages.len(), 5);
    let s = reconstruct(&packages, &[1, 2, 3]);
    // Any three shares give the same s; two give something else.
    assert_eq!(reconstruct(&packages, &[2, 4, 5]), s);
    assert_eq!(reconstruct(&packages, &[1, 3, 5]), s);
    assert_ne!(reconstruct(&packages, &[1, 2]), s);
    assert!(
        s.iter().flatten().all(|&c| arith::centred(c).abs() <= CDT_TAIL),
        "s is short"
    );
    // b̃ = Round_ξ(A·s + e) with |e| ≤ 78: Round_ξ(A·s) is b̃ or one step off.
    let a = Matrix::expand(&key.rho);
    let s_hat: Vec<[u64; N]> = s.iter().map(to_ntt).collect();
    let as_ = a.apply(&s_hat);
    let mut off = 0;
    for (row, b) in as_.iter().zip(&key.b_tilde) {
        for (&v, &bt) in row.iter().zip(b.iter()) {
            let d = bt.wrapping_sub(round_xi(v)) & ((1 << 18) - 1);
            assert!(d == 0 || d == 1 || d == (1 << 18) - 1, "{d}");
            off += usize::from(d != 0);
        }
    }
    assert!(off < 8 * N / 100, "{off} coefficients one step off");
    // Pairwise keys: each pair shares its two keys, and only the pair holds them.
    for p in &packages {
        assert_eq!(p.pairwise.len(), 4);
        for &(j, prf, mac) in p.pairwise.iter() {
            let other = &packages[usize::from(j) - 1];
            assert!(other
                .pairwise
                .iter()
                .any(|&(x, f, m)| x == p.x && f == prf && m == mac));
            assert_ne!(prf, mac);
        }
    }
}

/// Signs `message` with the parties of `set` through the kernel (round 1, round 2, Combine).
fn sign_with(
    key: &super::key::GroupKey,
    packages: &[super::deal::KeyShare],
    set: &[u16],
    message: &[u8],
) -> Option<super::verify::Signature> {
    use super::kernel::*;
    use super::verify::{challenge, challenge_seed, message_digest};
    let prepared = key.prepare();
    let a = prepared.matrix();
    let tr = key.digest;
    let mu = message_digest(&tr, b"", message);
    let rounds: Vec<_> = set
        .iter()
        .map(|&x| {
            commit(
                a,
                &Sha256::new()
                    .chain_update(message)
                    .chain_update(x.to_be_bytes())
                    .finalize()
                    .into(),
            )
        })
        .collect();
    let ds: Vec<&[[u64; N]]> = rounds.iter().map(|(d, _)| d.as_slice()).collect();
    let dsum = aggregate(&ds);
    let th = [7u8; 64]; // the transcript hash (its inputs come with the parties)
    let u = public_vector(&th, &mu);
    let h = rounded_commitment(&to_ntt_all(&dsum), &u);
    let c_tilde = challenge_seed(&tr, &mu, &h);
    let c = challenge(&c_tilde);
    let zs: Vec<Vec<[u64; N]>> = set
        .iter()
        .zip(&rounds)
        .map(|(&x, (_, r_hat))| {
            let p = &packages[usize::from(x) - 1];
            let masks: Vec<_> = p
                .pairwise
                .iter()
                .filter(|(j, _, _)| set.contains(j))
                .map(|&(j, prf, _)| (x < j, pair_mask(&prf, &th, &mu)))
                .collect();
            respond(r_hat, &u, lagrange(x, set), &c, &p.share, &masks)
        })
        .collect();
    let refs: Vec<&[[u64; N]]> = zs.iter().map(Vec::as_slice).collect();
    let sig = combine(&prepared, &h, c_tilde, &refs)?;
    prepared.verify_values(&mu, &sig).then_some(sig)
}

#[test]
fn any_t_subset_signs_and_verifies_and_t_minus_one_does_not() {
    use super::deal::deal_seeded;
    use super::verify::message_digest;
    let (key, packages) = deal_seeded(3, 5, [3; 32], &[4; 32]);
    let prepared = key.prepare();
    for set in [[1u16, 2, 3], [2, 4, 5], [1, 3, 5]] {
        let sig = sign_with(&key, &packages, &set, b"block 1").expect("signs and verifies");
        let tr = key.digest;
        assert!(
            !prepared.verify_values(&message_digest(&tr, b"", b"block 2"), &sig),
            "another message"
        );
        let mut bad = sig.clone();
        bad.z[0][0] = arith::add(bad.z[0][0], 1);
        assert!(
            !prepared.verify_values(&message_digest(&tr, b"", b"block 1"), &bad),
            "a changed z"
        );
    }
    // All five sign too; two (below the threshold) do not.
    assert!(sign_with(&key, &packages, &[1, 2, 3, 4, 5], b"block 1").is_some());
    assert!(sign_with(&key, &packages, &[1, 2], b"block 1").is_none());
}

#[test]
fn the_full_rank_check_passes_an_honest_sum_and_refuses_degenerate_ones() {
    use super::kernel::{aggregate, commit, to_ntt_all, WIDTH};
    let full_rank = |dsum: &[[u64; N]]| super::kernel::full_rank(&to_ntt_all(dsum));
    use super::ring::{Matrix, ZERO};
    let a = Matrix::expand(&[5; 32]);
    let (d1, _) = commit(&a, &[1; 32]);
    let (d2, _) = commit(&a, &[2; 32]);
    let dsum = aggregate(&[&d1, &d2]);
    assert!(full_rank(&dsum));
    // Row 0's last 48 columns zero: rank 7 in every slot.
    let mut zero_row = dsum.clone();
    for p in &mut zero_row[1..WIDTH] {
        *p = ZERO;
    }
    assert!(!full_rank(&zero_row));
    // Row 1 a copy of row 0 (column 0 aside): rank 7.
    let mut copied = dsum.clone();
    for c in 1..WIDTH {
        copied[WIDTH + c] = copied[c];
    }
    assert!(!full_rank(&copied));
    // Column 0 plays no part.
    let mut first = dsum;
    first[0] = ZERO;
    assert!(full_rank(&first));
}

#[test]
fn the_codecs_round_trip_every_width() {
    use super::codec::{pack, unpack};
    for bits in [18u32, 19, 48, 49] {
        let vals: Vec<u64> = values(u64::from(bits), 2 * N)
            .into_iter()
            .map(|v| v & ((1 << bits) - 1))
            .collect();
        let mut bytes = Vec::new();
        pack(vals.iter().copied(), bits, &mut bytes);
        assert_eq!(bytes.len(), 2 * 32 * bits as usize);
        let back = unpack(&bytes, bits, 2).unwrap();
        assert_eq!(back.iter().flatten().copied().collect::<Vec<_>>(), vals);
        assert!(unpack(&bytes[1..], bits, 2).is_none(), "a short input");
    }
}

#[test]
fn the_batched_sampler_and_tree_give_the_scalar_values() {
    use crate::hash::Transcript;
    use sha3::digest::XofReader;
    /// The bytes as a stream.
    struct Over<'a>(&'a [u8]);
    impl XofReader for Over<'_> {
        fn read(&mut self, out: &mut [u8]) {
            out.copy_from_slice(&self.0[..out.len()]);
            self.0 = &self.0[out.len()..];
        }
    }
    let mut bytes = alloc::vec![0u8; 16 * 8192];
    let mut t = Transcript::new("batch");
    t.append(b"x");
    t.finalize_xof().read(&mut bytes);
    // Table edges: r just below, at and above some entries, and the extremes.
    // Exact: every r is below 2^127; the halves of a u128.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_possible_wrap,
        clippy::cast_sign_loss
    )]
    for (i, &e) in [0usize, 1, 40, 77].iter().enumerate() {
        for (j, delta) in [-1i128, 0, 1].iter().enumerate() {
            let r = (CDT[e] as i128 + delta).clamp(0, i128::MAX) as u128;
            let at = 16 * (3 * i + j);
            let w0 = ((r >> 64) as u64) << 1 | (j as u64 & 1);
            bytes[at..at + 8].copy_from_slice(&w0.to_le_bytes());
            bytes[at + 8..at + 16].copy_from_slice(&(r as u64).to_le_bytes());
        }
    }
    bytes[16 * 20..16 * 21].fill(0xff);
    bytes[16 * 21..16 * 22].fill(0);
    let mut batch = alloc::vec![0i64; 8192];
    cdt_batch(&bytes, &mut batch);
    for (i, w) in bytes.chunks_exact(16).enumerate() {
        let w0 = u64::from_le_bytes(w[..8].try_into().unwrap());
        let w1 = u64::from_le_bytes(w[8..].try_into().unwrap());
        assert_eq!(batch[i], cdt_sample(w0, w1), "sample {i}");
    }
    // Every backend of the batch gives the same values (the one chosen above is one of them).
    let mut other = alloc::vec![0i64; 8192];
    super::sample::cdt_batch_lanes(&bytes, &mut other);
    assert_eq!(other, batch, "baseline lanes");
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    {
        if std::is_x86_feature_detected!("avx2") {
            super::sample::wide::cdt_batch_avx2(&bytes, &mut other);
            assert_eq!(other, batch, "AVX2");
        }
        if std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
        {
            super::sample::wide::cdt_batch_avx512(&bytes, &mut other);
            assert_eq!(other, batch, "AVX-512");
        }
    }
    for z in [&Z_SIGMA_STAR, &Z_SIGMA_U] {
        let mut stream = Over(&bytes);
        let mut leaves = batch.clone();
        for chunk in leaves.chunks_exact_mut(32) {
            assert_eq!(tree_combine(chunk, z), wide_sample(&mut stream, z));
        }
    }
}

/// The norm predicate at the bound (spec §8.2): N2 = B² accepts, B² + 1 does not; the largest
/// encodable z and Δ stay below 2^106 (no u128 overflow); end to end, a signature verifies
/// under a bound of exactly its own N2 and not under N2 − 1.
#[test]
fn the_norm_bound_is_tight() {
    use super::deal::deal_seeded;
    use super::params::{BOUND_SQUARED, COLS, ROWS};
    use super::verify::{message_digest, norm_squared, Signature};
    // z with Σ cent(z)² = B² exactly: greedy integer square roots, each below 2^47.
    let mut z = alloc::vec![[0u64; N]; COLS];
    let mut left = BOUND_SQUARED;
    for c in z.iter_mut().flatten() {
        if left == 0 {
            break;
        }
        // A first guess, corrected exactly below.
        #[allow(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            clippy::cast_precision_loss
        )]
        let mut r = (left as f64).sqrt() as u128;
        while r * r > left {
            r -= 1;
        }
        while (r + 1) * (r + 1) <= left {
            r += 1;
        }
        let r = r.min((1 << 47) - 1);
        *c = r as u64;
        left -= r * r;
    }
    assert_eq!(left, 0);
    let mut sig = Signature {
        c_tilde: [0; 32],
        z,
        delta: alloc::vec![[0i32; N]; ROWS],
    };
    assert_eq!(norm_squared(&sig), BOUND_SQUARED);
    let last = sig.z.iter().flatten().position(|&v| v == 0).unwrap();
    sig.z[last / N][last % N] = 1;
    assert_eq!(norm_squared(&sig), BOUND_SQUARED + 1);
    // Every coefficient at its extreme.
    let extreme = Signature {
        c_tilde: [0; 32],
        z: alloc::vec![[arith::from_i64(-(1 << 47)); N]; COLS],
        delta: alloc::vec![[-(1 << 18); N]; ROWS],
    };
    assert!(norm_squared(&extreme) < 1 << 106);
    // End to end.
    let (key, packages) = deal_seeded(2, 3, [5; 32], &[6; 32]);
    let signed = sign_with(&key, &packages, &[1, 3], b"tight").expect("signs");
    let n2 = norm_squared(&signed);
    let prepared = key.prepare();
    let mu = message_digest(&key.digest, b"", b"tight");
    assert!(prepared.verify_bounded(&mu, &signed, n2));
    assert!(!prepared.verify_bounded(&mu, &signed, n2 - 1));
}

/// Spec §8.2's norm statistics: the mean of N2/|T| over many signatures lies within 3 % of
/// 1.621·10^26 (truncated or mis-scaled Gaussians miss it; the reference's truncation gives
/// 1.17·10^26). 30 signatures at |T| = 2 and 3; more with `QUASAR_SLOW=1` (200 each).
#[test]
fn signature_norms_match_the_parameters() {
    use super::deal::deal_seeded;
    use super::verify::norm_squared;
    let slow = std::env::var("QUASAR_SLOW").is_ok_and(|v| v == "1");
    let count = if slow { 200 } else { 30 };
    let (key, packages) = deal_seeded(2, 3, [8; 32], &[9; 32]);
    for set in [&[1u16, 2][..], &[1, 2, 3]] {
        let mut sum = 0f64;
        for i in 0..count {
            let sig = sign_with(&key, &packages, set, format!("norm {i}").as_bytes()).expect("signs");
            // Statistics: f64 precision is plenty.
            #[allow(clippy::cast_precision_loss)]
            let per_signer = norm_squared(&sig) as f64 / set.len() as f64;
            sum += per_signer;
        }
        let mean = sum / f64::from(count);
        let off = (mean / 1.621e26 - 1.0).abs();
        assert!(
            off < 0.03,
            "|T| = {}: mean N2/|T| {mean:e} is {:.1} % off",
            set.len(),
            off * 100.0
        );
    }
}

#[test]
fn the_package_length_is_the_encodings() {
    let (_, packages) = super::deal::deal_seeded(2, 5, [1; 32], &[2; 32]);
    assert_eq!(packages[0].to_bytes().len(), super::package::package_len(5));
    assert_eq!(super::package::package_len(1024), 11_054 + 66 * 1023);
}
