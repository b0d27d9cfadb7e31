//! The hypertree (FIPS 205 §7): d layers of XMSS trees, each signing the root below.

use alloc::vec;
use alloc::vec::Vec;

use super::hash::Node;
use super::params::Params;
use super::xmss;

/// The leaf and tree index of the next layer up: idx_leaf ← idx_tree mod 2^h′,
/// idx_tree ← idx_tree ≫ h′ (FIPS 205 Alg. 12 lines 7–8 / Alg. 13 lines 7–8).
// Exact: the leaf index is masked to h′ ≤ 9 bits.
#[allow(clippy::cast_possible_truncation)]
fn up<P: Params>(idx_tree: u64) -> (u64, u32) {
    let leaf = (idx_tree & ((1u64 << P::HP) - 1)) as u32;
    (idx_tree >> P::HP, leaf)
}

/// FIPS 205, Algorithm 12 (ht_sign) of `m` (the FORS public key) with XMSS tree `idx_tree` and
/// leaf `idx_leaf` of layer 0, written to `out` (d XMSS signatures).
// Exact: the layer j < d ≤ 22.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn sign<P: Params>(
    m: &Node,
    sk_seed: &Node,
    seed: &Node,
    idx_tree: u64,
    idx_leaf: u32,
    out: &mut [u8],
) {
    let (mut tree, mut leaf) = (idx_tree, idx_leaf);
    let mut root = *m;
    for (j, sig) in out.chunks_exact_mut(P::XMSS_SIG_LEN).take(P::D).enumerate() {
        // Public: each XMSS root is what Alg. 11 recomputes from this layer's signature;
        // the next layer's WOTS+ chain lengths are its digits.
        root = crate::ct::public(xmss::sign::<P>(&root, sk_seed, seed, j as u32, tree, leaf, sig));
        (tree, leaf) = up::<P>(tree);
    }
}

/// One hypertree signature to check: `sig` (d XMSS signatures) on `node` (the FORS
/// public key) at tree `idx_tree`, leaf `idx_leaf`. After [`roots_many`], `node` holds
/// the recomputed hypertree root.
pub(crate) struct Item<'a> {
    pub(crate) seed: Node,
    pub(crate) node: Node,
    pub(crate) sig: &'a [u8],
    pub(crate) idx_tree: u64,
    pub(crate) idx_leaf: u32,
}

/// FIPS 205, Algorithm 13 (ht_verify) up to the final comparison, on many signatures in lockstep:
/// layer j of every item is one call of [`xmss::pk_from_sig_many`], so the lanes fill
/// across signatures. The caller compares each `node` with its PK.root (Alg. 13 line 13).
// Exact: the layer j < d ≤ 22.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn roots_many<P: Params>(items: &mut [Item<'_>]) {
    let mut out = vec![[0u64; 4]; items.len()];
    for j in 0..P::D {
        let layer: Vec<xmss::PkFromSig<'_>> = items
            .iter()
            .map(|it| xmss::PkFromSig {
                seed: it.seed,
                layer: j as u32,
                tree: it.idx_tree,
                idx: it.idx_leaf,
                msg: it.node,
                sig: &it.sig[j * P::XMSS_SIG_LEN..(j + 1) * P::XMSS_SIG_LEN],
            })
            .collect();
        xmss::pk_from_sig_many::<P>(&layer, &mut out);
        drop(layer);
        for (it, o) in items.iter_mut().zip(&out) {
            it.node = *o;
            (it.idx_tree, it.idx_leaf) = up::<P>(it.idx_tree);
        }
    }
}
