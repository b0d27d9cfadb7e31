//! The eXtended Merkle Signature Scheme (FIPS 205 §6): tree building, signing and root
//! recovery.

use alloc::vec;
use alloc::vec::Vec;

use super::address::{Adrs, TREE, WOTS_HASH};
use super::hash::{batch, node_from_bytes, node_to_bytes, Kind, Node};
use super::params::Params;
use super::wots;

/// Every node of the XMSS tree `tree` of layer `layer`: `levels[z][i]` is
/// xmss_node(i, z) (FIPS 205 Alg. 9), computed bottom-up instead of recursively. Leaves
/// are WOTS+ public keys, four key pairs at a time; each level is one batch of H calls.
// Exact: heights z ≤ h′ ≤ 9 and node indices below 2^h′.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn levels<P: Params>(sk_seed: &Node, seed: &Node, layer: u32, tree: u64) -> Vec<Vec<Node>> {
    let base = Adrs::new(layer, tree);
    let mut leaves = vec![[0u64; 4]; 1 << P::HP];
    wots::pk_gen_many::<P>(sk_seed, seed, &base, 0, &mut leaves);
    let mut levels = Vec::with_capacity(P::HP + 1);
    levels.push(leaves);
    for z in 1..=P::HP {
        let prev = &levels[z - 1];
        let mut next = vec![[0u64; 4]; prev.len() / 2];
        batch::<P>(Kind::H, &mut next, |i, b| {
            b.seed = *seed;
            b.adrs = base;
            b.adrs.set_type_and_clear(TREE);
            b.adrs.set_tree_height(z as u32);
            b.adrs.set_tree_index(i as u32);
            b.m1 = prev[2 * i];
            b.m2 = prev[2 * i + 1];
        });
        levels.push(next);
    }
    levels
}

/// The root of XMSS tree `tree` of layer `layer`: xmss_node(0, h′) (FIPS 205 Alg. 9).
pub(crate) fn root<P: Params>(sk_seed: &Node, seed: &Node, layer: u32, tree: u64) -> Node {
    levels::<P>(sk_seed, seed, layer, tree)[P::HP][0]
}

/// FIPS 205, Algorithm 10 (xmss_sign) of `m` with leaf `idx`, written to `out` (WOTS+ signature,
/// then the h′ authentication nodes). Returns the tree's root, which is what Alg. 11
/// xmss_pkFromSig would recompute from this signature (Alg. 12 line 4 and 11).
pub(crate) fn sign<P: Params>(
    m: &Node,
    sk_seed: &Node,
    seed: &Node,
    layer: u32,
    tree: u64,
    idx: u32,
    out: &mut [u8],
) -> Node {
    let levels = levels::<P>(sk_seed, seed, layer, tree);
    let (wots_sig, auth) = out.split_at_mut(P::LEN * P::N);
    for (j, a) in auth.chunks_exact_mut(P::N).take(P::HP).enumerate() {
        // Alg. 10 lines 1–4: AUTH[j] = xmss_node(⌊idx/2^j⌋ ⊕ 1, j).
        node_to_bytes::<P>(&levels[j][((idx >> j) ^ 1) as usize], a);
    }
    wots::sign::<P>(m, sk_seed, seed, &Adrs::new(layer, tree), idx, wots_sig);
    levels[P::HP][0]
}

/// One XMSS root to recover: signature `sig` ((len + h′) · n bytes) on `msg` by leaf
/// `idx` of tree `tree` in layer `layer`.
pub(crate) struct PkFromSig<'a> {
    pub(crate) seed: Node,
    pub(crate) layer: u32,
    pub(crate) tree: u64,
    pub(crate) idx: u32,
    pub(crate) msg: Node,
    pub(crate) sig: &'a [u8],
}

/// FIPS 205, Algorithm 11 (xmss_pkFromSig) on many signatures: the WOTS+ keys of all items
/// together, then each of the h′ levels of the authentication paths as one batch.
// Exact: a tree height k + 1 ≤ h′ ≤ 9.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn pk_from_sig_many<P: Params>(items: &[PkFromSig<'_>], out: &mut [Node]) {
    let wots_items: Vec<wots::PkFromSig<'_>> = items
        .iter()
        .map(|it| {
            let mut adrs = Adrs::new(it.layer, it.tree);
            adrs.set_type_and_clear(WOTS_HASH);
            adrs.set_key_pair(it.idx);
            wots::PkFromSig {
                seed: it.seed,
                adrs,
                msg: it.msg,
                sig: &it.sig[..P::LEN * P::N],
            }
        })
        .collect();
    let mut node = vec![[0u64; 4]; items.len()];
    wots::pk_from_sig_many::<P>(&wots_items, &mut node);
    let mut next = vec![[0u64; 4]; items.len()];
    for k in 0..P::HP {
        batch::<P>(Kind::H, &mut next, |t, b| {
            let it = &items[t];
            let off = (P::LEN + k) * P::N;
            let auth = node_from_bytes::<P>(&it.sig[off..off + P::N]);
            b.seed = it.seed;
            b.adrs = Adrs::new(it.layer, it.tree);
            b.adrs.set_type_and_clear(TREE);
            b.adrs.set_tree_height(k as u32 + 1);
            b.adrs.set_tree_index(it.idx >> (k + 1));
            if (it.idx >> k) & 1 == 0 {
                (b.m1, b.m2) = (node[t], auth);
            } else {
                (b.m1, b.m2) = (auth, node[t]);
            }
        });
        core::mem::swap(&mut node, &mut next);
    }
    out.copy_from_slice(&node);
}
