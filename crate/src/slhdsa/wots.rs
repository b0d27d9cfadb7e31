//! WOTS+ one-time signatures (FIPS 205 §5): key generation, signing and public-key
//! recovery, each over many chains at once.

use alloc::vec;
use alloc::vec::Vec;

use zeroize::Zeroize;

use super::address::{Adrs, WOTS_HASH, WOTS_PK, WOTS_PRF};
use super::hash::{batch, chains, node_from_bytes, node_to_bytes, tl_batch, Chain, Kind, Node, LANES};
use super::params::Params;

/// The most chains any set has (len = 67 for n = 32).
pub(crate) const MAX_LEN: usize = 67;

/// The len base-w digits of an n-byte value followed by its checksum (FIPS 205 Alg. 7
/// lines 1–9 = Alg. 8 lines 1–9). With lg_w = 4, base_2b (Alg. 4) splits each byte into
/// its high and low nibble; the checksum, shifted left by 4 and written as two bytes,
/// gives its three digits.
pub(crate) fn digits<P: Params>(m: &Node) -> [u8; MAX_LEN] {
    let mut bytes = [0u8; 32];
    node_to_bytes::<P>(m, &mut bytes);
    let mut d = [0u8; MAX_LEN];
    let mut csum = 0u32;
    for (i, b) in bytes[..P::N].iter().enumerate() {
        d[2 * i] = b >> 4;
        d[2 * i + 1] = b & 15;
        csum += u32::from(15 - (b >> 4)) + u32::from(15 - (b & 15));
    }
    // csum ← csum ≪ 4; toByte(csum, 2); base_2b(…, 4, 3) takes its top three nibbles.
    let c = csum << 4;
    d[P::LEN1] = ((c >> 12) & 15) as u8;
    d[P::LEN1 + 1] = ((c >> 8) & 15) as u8;
    d[P::LEN1 + 2] = ((c >> 4) & 15) as u8;
    d
}

/// The secret starts of the chains of key pairs `first..first + count` (FIPS 205 Alg. 6
/// lines 1–5 / Alg. 7 lines 11–13: PRF with a WOTS_PRF address), as chain jobs of
/// `steps(i)` steps from hash address 0, leaf-major.
// Exact: key-pair offsets are below 2^h′ ≤ 2^9 and chain indices below len ≤ 67.
#[allow(clippy::cast_possible_truncation)]
fn secret_chains<P: Params>(
    sk_seed: &Node,
    seed: &Node,
    layer_tree: &Adrs,
    first: u32,
    count: usize,
    steps: impl Fn(usize) -> u32,
) -> Vec<Chain> {
    let mut sks = vec![[0u64; 4]; count * P::LEN];
    batch::<P>(Kind::Prf, &mut sks, |t, b| {
        b.seed = *seed;
        b.adrs = *layer_tree;
        b.adrs.set_type_and_clear(WOTS_PRF);
        b.adrs.set_key_pair(first + (t / P::LEN) as u32);
        b.adrs.set_chain((t % P::LEN) as u32);
        b.m1 = *sk_seed;
    });
    let jobs = sks
        .iter()
        .enumerate()
        .map(|(t, sk)| {
            let mut adrs = *layer_tree;
            adrs.set_type_and_clear(WOTS_HASH);
            adrs.set_key_pair(first + (t / P::LEN) as u32);
            adrs.set_chain((t % P::LEN) as u32);
            Chain {
                seed: *seed,
                adrs,
                value: *sk,
                start: 0,
                steps: steps(t % P::LEN),
            }
        })
        .collect();
    sks.zeroize();
    jobs
}

/// FIPS 205, Algorithm 6 (wots_pkGen) for the key pairs `first..first + out.len()` of the XMSS
/// tree `layer_tree`, in groups of [`LANES`] key pairs: every chain of a group runs in a
/// lane, then T_len compresses the four public keys together.
// Exact: key-pair indices are below 2^h′ ≤ 2^9.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn pk_gen_many<P: Params>(
    sk_seed: &Node,
    seed: &Node,
    layer_tree: &Adrs,
    first: u32,
    out: &mut [Node],
) {
    for (g, chunk) in out.chunks_mut(LANES).enumerate() {
        let start = first + (g * LANES) as u32;
        let mut jobs = secret_chains::<P>(sk_seed, seed, layer_tree, start, chunk.len(), |_| 15);
        chains::<P>(&mut jobs);
        let ends: Vec<Node> = jobs.iter().map(|c| c.value).collect();
        jobs.zeroize();
        tl_batch::<P>(chunk, |l| {
            let mut adrs = *layer_tree;
            adrs.set_type_and_clear(WOTS_PK);
            adrs.set_key_pair(start + l as u32);
            (*seed, adrs, &ends[l * P::LEN..(l + 1) * P::LEN])
        });
    }
}

/// FIPS 205, Algorithm 7 (wots_sign): the chain values at the digits of `m` for key pair `idx`
/// of tree `layer_tree`, written to `out` (len · n bytes).
pub(crate) fn sign<P: Params>(
    m: &Node,
    sk_seed: &Node,
    seed: &Node,
    layer_tree: &Adrs,
    idx: u32,
    out: &mut [u8],
) {
    let d = digits::<P>(m);
    let mut jobs = secret_chains::<P>(sk_seed, seed, layer_tree, idx, 1, |i| u32::from(d[i]));
    chains::<P>(&mut jobs);
    for (c, o) in jobs.iter().zip(out.chunks_exact_mut(P::N)) {
        node_to_bytes::<P>(&c.value, o);
    }
    jobs.zeroize();
}

/// One WOTS+ public key to recover: the signature `sig` (len · n bytes) on `msg` under key
/// pair `adrs` (layer, tree, key pair set).
pub(crate) struct PkFromSig<'a> {
    pub(crate) seed: Node,
    pub(crate) adrs: Adrs,
    pub(crate) msg: Node,
    pub(crate) sig: &'a [u8],
}

/// FIPS 205, Algorithm 8 (wots_pkFromSig) on many signatures: every chain of every item is one job
/// of [`chains`] (sorted by remaining length, in lanes of four), then T_len runs four
/// items at a time.
// Exact: a chain index i < len ≤ 67.
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn pk_from_sig_many<P: Params>(items: &[PkFromSig<'_>], out: &mut [Node]) {
    let mut jobs = Vec::with_capacity(items.len() * P::LEN);
    for it in items {
        let d = digits::<P>(&it.msg);
        for (i, s) in it.sig.chunks_exact(P::N).take(P::LEN).enumerate() {
            let mut adrs = it.adrs;
            adrs.set_chain(i as u32);
            jobs.push(Chain {
                seed: it.seed,
                adrs,
                value: node_from_bytes::<P>(s),
                start: u32::from(d[i]),
                steps: 15 - u32::from(d[i]),
            });
        }
    }
    chains::<P>(&mut jobs);
    let ends: Vec<Node> = jobs.iter().map(|c| c.value).collect();
    tl_batch::<P>(out, |t| {
        let adrs = items[t].adrs.with_type_keep_key_pair(WOTS_PK);
        (items[t].seed, adrs, &ends[t * P::LEN..(t + 1) * P::LEN])
    });
}
