//! The internal functions (FIPS 205 §9): key generation from seeds, signing and
//! verification of a message representative M′ (given as pieces whose concatenation is
//! M′, so the pure interface never copies the message).
//!
//! Inputs here have been length-checked by the caller (the public functions in
//! `slhdsa.rs` and `api.rs`); slicing at the fixed offsets of the parameter set is
//! therefore in bounds.

use alloc::vec;
use alloc::vec::Vec;

use zeroize::Zeroizing;

use super::address::{Adrs, FORS_TREE};
use super::fors;
use super::hash::{h_msg, node_from_bytes, node_to_bytes, prf_msg, Node};
use super::hypertree;
use super::params::Params;
use super::xmss;

/// FIPS 205, Algorithm 2 (toInt) on at most 8 bytes, big-endian.
fn to_int(x: &[u8]) -> u64 {
    x.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
}

/// 2^bits − 1, for bits ≤ 64.
fn mask(bits: usize) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The digest split of FIPS 205 Alg. 19 lines 7–12 (= Alg. 20 lines 8–13): FORS leaf
/// indices from md, then idx_tree and idx_leaf.
// Exact: idx_leaf is masked to h′ ≤ 9 bits.
#[allow(clippy::cast_possible_truncation)]
fn split_digest<P: Params>(digest: &[u8]) -> ([u32; fors::MAX_K], u64, u32) {
    let md = &digest[..P::MD_LEN];
    let t0 = P::MD_LEN;
    let t1 = t0 + P::TREE_BYTES;
    let idx_tree = to_int(&digest[t0..t1]) & mask(P::H - P::HP);
    let idx_leaf = (to_int(&digest[t1..t1 + P::LEAF_BYTES]) & mask(P::HP)) as u32;
    (fors::indices::<P>(md), idx_tree, idx_leaf)
}

/// The FORS address of a signature: layer 0, tree idx_tree, type FORS_TREE, key pair
/// idx_leaf (Alg. 19 lines 13–15).
fn fors_adrs(idx_tree: u64, idx_leaf: u32) -> Adrs {
    let mut adrs = Adrs::new(0, idx_tree);
    adrs.set_type_and_clear(FORS_TREE);
    adrs.set_key_pair(idx_leaf);
    adrs
}

/// FIPS 205, Algorithm 18 (slh_keygen_internal): pk = PK.seed ‖ PK.root and
/// sk = SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root, each seed n bytes.
// Exact: the top layer d − 1 < 22.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn keygen<P: Params>(sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8], pk: &mut [u8], sk: &mut [u8]) {
    let n = P::N;
    let s = Zeroizing::new(node_from_bytes::<P>(sk_seed));
    let seed = node_from_bytes::<P>(pk_seed);
    // Alg. 18 lines 1–3: the root of the single XMSS tree of the top layer.
    // Public: PK.root is the public key.
    let root = crate::ct::public(xmss::root::<P>(&s, &seed, (P::D - 1) as u32, 0));
    pk[..n].copy_from_slice(&pk_seed[..n]);
    node_to_bytes::<P>(&root, &mut pk[n..2 * n]);
    sk[..n].copy_from_slice(&sk_seed[..n]);
    sk[n..2 * n].copy_from_slice(&sk_prf[..n]);
    sk[2 * n..4 * n].copy_from_slice(&pk[..2 * n]);
}

/// FIPS 205, Algorithm 19 (slh_sign_internal) of M′ = concat(`msg`) with the encoded secret key
/// `sk`; `addrnd` is the n-byte opt_rand, or `None` for the deterministic variant
/// (opt_rand = PK.seed). Writes the signature to `sig` (`P::SIG_LEN` bytes).
pub(crate) fn sign<P: Params>(sk: &[u8], msg: &[&[u8]], addrnd: Option<&[u8]>, sig: &mut [u8]) {
    let n = P::N;
    let (sk_seed, sk_prf) = (&sk[..n], &sk[n..2 * n]);
    let (pk_seed, pk_root) = (&sk[2 * n..3 * n], &sk[3 * n..4 * n]);
    // Lines 2–4: R ← PRF_msg(SK.prf, opt_rand, M).
    let opt_rand = addrnd.unwrap_or(pk_seed);
    prf_msg::<P>(sk_prf, opt_rand, msg, &mut sig[..n]);
    // Public: R is the first field of the signature; the digest, hence the FORS indices,
    // tree and leaf, are hashes of it and public values.
    crate::ct::public_slice(&sig[..n]);
    // Lines 5–12.
    let mut digest = [0u8; 64];
    h_msg::<P>(&sig[..n], pk_seed, pk_root, msg, &mut digest);
    let (idx, idx_tree, idx_leaf) = split_digest::<P>(&digest[..P::M]);
    // Lines 13–16.
    let s = Zeroizing::new(node_from_bytes::<P>(sk_seed));
    let seed = node_from_bytes::<P>(pk_seed);
    let adrs = fors_adrs(idx_tree, idx_leaf);
    let (fors_sig, ht_sig) = sig[n..].split_at_mut(P::FORS_SIG_LEN);
    // Public: the FORS public key is what Alg. 17 recomputes from the signature.
    let pk_fors = crate::ct::public(fors::sign::<P>(&idx, &s, &seed, &adrs, fors_sig));
    // Lines 17–18.
    hypertree::sign::<P>(&pk_fors, &s, &seed, idx_tree, idx_leaf, ht_sig);
    // Public: the signature.
    crate::ct::public_slice(sig);
}

/// One signature to check with FIPS 205, Algorithm 20 (slh_verify_internal): the encoded public
/// key, M′ as pieces, and a signature of exactly `P::SIG_LEN` bytes.
pub(crate) struct VerifyItem<'a> {
    pub(crate) pk: &'a [u8],
    pub(crate) msg: [&'a [u8]; 3],
    pub(crate) sig: &'a [u8],
}

/// FIPS 205, Algorithm 20 (slh_verify_internal) on many signatures at once (a single signature
/// is a batch of one). All items are carried through the same steps together — H_msg,
/// the FORS leaves and levels, then layer by layer of the hypertree — so each batch of
/// hashes fills the Keccak lanes across signatures. Returns one verdict per item.
pub(crate) fn verify_many<P: Params>(items: &[VerifyItem<'_>]) -> Vec<bool> {
    // Chunks bound the scratch memory (about 5 KiB of chain jobs per signature and layer)
    // while keeping enough signatures together to fill the lanes.
    const CHUNK: usize = 64;
    items.chunks(CHUNK).flat_map(verify_chunk::<P>).collect()
}

fn verify_chunk<P: Params>(items: &[VerifyItem<'_>]) -> Vec<bool> {
    let n = P::N;
    let mut fors_items = Vec::with_capacity(items.len());
    let mut ht_items = Vec::with_capacity(items.len());
    for it in items {
        let (pk_seed, pk_root) = (&it.pk[..n], &it.pk[n..2 * n]);
        let r = &it.sig[..n];
        // Lines 4–13.
        let mut digest = [0u8; 64];
        h_msg::<P>(r, pk_seed, pk_root, &it.msg, &mut digest);
        let (idx, idx_tree, idx_leaf) = split_digest::<P>(&digest[..P::M]);
        let seed = node_from_bytes::<P>(pk_seed);
        fors_items.push(fors::PkFromSig {
            seed,
            adrs: fors_adrs(idx_tree, idx_leaf),
            idx,
            sig: &it.sig[n..n + P::FORS_SIG_LEN],
        });
        ht_items.push(hypertree::Item {
            seed,
            node: [0; 4],
            sig: &it.sig[n + P::FORS_SIG_LEN..],
            idx_tree,
            idx_leaf,
        });
    }
    // Lines 14–17.
    let mut pk_fors: Vec<Node> = vec![[0u64; 4]; items.len()];
    fors::pk_from_sig_many::<P>(&fors_items, &mut pk_fors);
    for (h, p) in ht_items.iter_mut().zip(&pk_fors) {
        h.node = *p;
    }
    // Line 18: ht_verify, whose last step compares the recomputed root with PK.root.
    hypertree::roots_many::<P>(&mut ht_items);
    ht_items
        .iter()
        .zip(items)
        .map(|(h, it)| h.node == node_from_bytes::<P>(&it.pk[n..2 * n]))
        .collect()
}
