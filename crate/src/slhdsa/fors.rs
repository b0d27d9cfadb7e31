//! Forest Of Random Subsets (FIPS 205 §8): the few-time signature on the message digest.

use alloc::vec;
use alloc::vec::Vec;

use zeroize::Zeroize;

use super::address::{Adrs, FORS_PRF, FORS_ROOTS};
use super::hash::{batch, node_from_bytes, node_to_bytes, tl, tl_batch, Kind, Node};
use super::params::Params;

/// The most FORS trees any set has (k = 35).
pub(crate) const MAX_K: usize = 35;

/// FIPS 205, Algorithm 4 (base_2b) applied as base_2b(md, a, k): the k leaf indices, a bits each, big-endian bit
/// order. `md` holds ceil(k·a/8) bytes.
// Exact: a leaf index has a ≤ 14 bits.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn indices<P: Params>(md: &[u8]) -> [u32; MAX_K] {
    let mut out = [0u32; MAX_K];
    let (mut total, mut bits, mut next) = (0u64, 0usize, 0usize);
    for o in out.iter_mut().take(P::K) {
        while bits < P::A {
            total = (total << 8) | u64::from(md[next]);
            next += 1;
            bits += 8;
        }
        bits -= P::A;
        *o = ((total >> bits) & ((1 << P::A) - 1)) as u32;
    }
    out
}

/// FIPS 205, Algorithm 16 (fors_sign) of the leaf indices `idx`, written to `out` (k · (1 + a) · n
/// bytes), returning the FORS public key: Alg. 17 fors_pkFromSig of that signature,
/// which is T_k of the tree roots built here.
///
/// Each tree is built bottom-up (Alg. 15 fors_node, unrolled): its 2^a secret values
/// (Alg. 14 fors_skGen) in one PRF batch, the leaves in one F batch, then one H batch per
/// level, four hashes at a time. The authentication path is read off each level.
// Exact: ADRS tree indices are below k·2^a ≤ 35·2^9 and heights at most a ≤ 14.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn sign<P: Params>(
    idx: &[u32; MAX_K],
    sk_seed: &Node,
    seed: &Node,
    adrs: &Adrs,
    out: &mut [u8],
) -> Node {
    let leaves = 1usize << P::A;
    let mut sks = vec![[0u64; 4]; leaves];
    let mut cur = vec![[0u64; 4]; leaves];
    let mut next = vec![[0u64; 4]; leaves / 2];
    let mut roots = [[0u64; 4]; MAX_K];
    let sk_adrs = adrs.with_type_keep_key_pair(FORS_PRF);
    for (i, sig) in out.chunks_exact_mut((1 + P::A) * P::N).take(P::K).enumerate() {
        let base = (i << P::A) as u32;
        batch::<P>(Kind::Prf, &mut sks, |l, b| {
            b.seed = *seed;
            b.adrs = sk_adrs;
            b.adrs.set_tree_index(base + l as u32);
            b.m1 = *sk_seed;
        });
        let leaf = idx[i] as usize;
        node_to_bytes::<P>(&sks[leaf], &mut sig[..P::N]);
        batch::<P>(Kind::F, &mut cur, |l, b| {
            b.seed = *seed;
            b.adrs = *adrs;
            b.adrs.set_tree_height(0);
            b.adrs.set_tree_index(base + l as u32);
            b.m1 = sks[l];
        });
        // Wipe in place: `Vec::zeroize` would also truncate the buffer reused per tree.
        sks.iter_mut().for_each(Zeroize::zeroize);
        let mut width = leaves;
        for z in 1..=P::A {
            let sibling = (leaf >> (z - 1)) ^ 1;
            node_to_bytes::<P>(&cur[sibling], &mut sig[z * P::N..(z + 1) * P::N]);
            width /= 2;
            batch::<P>(Kind::H, &mut next[..width], |t, b| {
                b.seed = *seed;
                b.adrs = *adrs;
                b.adrs.set_tree_height(z as u32);
                b.adrs.set_tree_index((base >> z) + t as u32);
                b.m1 = cur[2 * t];
                b.m2 = cur[2 * t + 1];
            });
            cur[..width].copy_from_slice(&next[..width]);
        }
        roots[i] = cur[0];
    }
    tl::<P>(seed, &adrs.with_type_keep_key_pair(FORS_ROOTS), &roots[..P::K])
}

/// One FORS signature to check: `sig` (k · (1 + a) · n bytes) on leaf indices `idx` under
/// `adrs` (layer 0, the signing tree, type FORS_TREE, key pair = the signing leaf).
pub(crate) struct PkFromSig<'a> {
    pub(crate) seed: Node,
    pub(crate) adrs: Adrs,
    pub(crate) idx: [u32; MAX_K],
    pub(crate) sig: &'a [u8],
}

/// FIPS 205, Algorithm 17 (fors_pkFromSig) on many signatures: the k leaves of every item in one
/// F batch, each of the a levels of every path in one H batch, then T_k four items at a
/// time.
// Exact: ADRS tree indices are below k·2^a ≤ 35·2^9 and heights below a ≤ 14.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn pk_from_sig_many<P: Params>(items: &[PkFromSig<'_>], out: &mut [Node]) {
    let total = items.len() * P::K;
    let part = (1 + P::A) * P::N;
    let mut cur = vec![[0u64; 4]; total];
    let mut next = vec![[0u64; 4]; total];
    batch::<P>(Kind::F, &mut cur, |t, b| {
        let (it, i) = (&items[t / P::K], t % P::K);
        b.seed = it.seed;
        b.adrs = it.adrs;
        b.adrs.set_tree_height(0);
        b.adrs.set_tree_index(((i << P::A) as u32) + it.idx[i]);
        b.m1 = node_from_bytes::<P>(&it.sig[i * part..]);
    });
    for j in 0..P::A {
        batch::<P>(Kind::H, &mut next, |t, b| {
            let (it, i) = (&items[t / P::K], t % P::K);
            let off = i * part + (1 + j) * P::N;
            let auth = node_from_bytes::<P>(&it.sig[off..off + P::N]);
            b.seed = it.seed;
            b.adrs = it.adrs;
            b.adrs.set_tree_height(j as u32 + 1);
            b.adrs
                .set_tree_index((((i << P::A) as u32) + it.idx[i]) >> (j + 1));
            if (it.idx[i] >> j) & 1 == 0 {
                (b.m1, b.m2) = (cur[t], auth);
            } else {
                (b.m1, b.m2) = (auth, cur[t]);
            }
        });
        core::mem::swap(&mut cur, &mut next);
    }
    let roots: Vec<Node> = cur;
    tl_batch::<P>(out, |t| {
        let it = &items[t];
        (
            it.seed,
            it.adrs.with_type_keep_key_pair(FORS_ROOTS),
            &roots[t * P::K..(t + 1) * P::K],
        )
    });
}
