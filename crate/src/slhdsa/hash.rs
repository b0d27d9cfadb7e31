//! The SHAKE tweakable hashes of FIPS 205 §11.1 (F, H, T_ℓ, PRF, PRF_msg, H_msg), built
//! directly on Keccak-f\[1600\], one or four states at a time.
//!
//! For n ≤ 32 every F, H and PRF input (PK.seed ‖ ADRS ‖ one or two n-byte values) is at
//! most 128 bytes, so each call is a single permutation of a state built word by word:
//! PK.seed, the four ADRS lanes, the message words, the SHAKE padding. No sponge object,
//! no byte buffer. Hash values are kept as little-endian 64-bit words ([`Node`]); n is a
//! multiple of 8 in every set, so they drop straight into Keccak lanes.
//!
//! Independent calls run in lanes of four ([`crate::hash::keccak_x4`]): [`batch`] for
//! lists of one-block hashes, [`chains`] for WOTS+ chains sorted by length, [`tl_batch`]
//! for T_ℓ over several inputs of equal length. A group with a single live member falls
//! back to the scalar permutation.

use zeroize::Zeroize;

use super::address::Adrs;
use super::params::Params;
use crate::hash::keccak_x4::{chains_x4, f1600x4, ChainsX4, StateX4};

/// An n-byte hash value as little-endian 64-bit words; only the first n/8 are used.
pub(crate) type Node = [u64; 4];

/// How many hashes run side by side.
pub(crate) const LANES: usize = 4;

/// SHAKE256 rate in 64-bit words (136 bytes).
const RATE: usize = 17;
/// SHAKE domain bits and the first padding bit.
const PAD_START: u64 = 0x1F;
/// The last padding bit (bit 7 of byte 135, in word 16).
const PAD_END: u64 = 1 << 63;

/// Loads n bytes into a [`Node`]. `b` must hold at least n bytes (callers index fixed
/// offsets of inputs whose length was checked).
pub(crate) fn node_from_bytes<P: Params>(b: &[u8]) -> Node {
    let mut x = [0u64; 4];
    for (w, c) in x.iter_mut().zip(b[..P::N].chunks_exact(8)) {
        let mut le = [0u8; 8];
        le.copy_from_slice(c);
        *w = u64::from_le_bytes(le);
    }
    x
}

/// Stores a [`Node`] into the first n bytes of `out`.
pub(crate) fn node_to_bytes<P: Params>(x: &Node, out: &mut [u8]) {
    for (c, w) in out[..P::N].chunks_exact_mut(8).zip(x.iter()) {
        c.copy_from_slice(&w.to_le_bytes());
    }
}

/// Which one-block function: F and PRF take one n-byte value, H two. PRF's input holds
/// SK.seed, so its states are wiped afterwards.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    /// F(PK.seed, ADRS, M1) (FIPS 205 §11.1).
    F,
    /// H(PK.seed, ADRS, M1 ‖ M2).
    H,
    /// PRF(PK.seed, SK.seed, ADRS) = SHAKE256(PK.seed ‖ ADRS ‖ SK.seed): the shape of F.
    Prf,
}

/// The input of one one-block hash: PK.seed ‖ ADRS ‖ M1 (‖ M2 for H).
#[derive(Clone, Copy, Default, Zeroize)]
pub(crate) struct Block {
    pub(crate) seed: Node,
    #[zeroize(skip)]
    pub(crate) adrs: Adrs,
    pub(crate) m1: Node,
    pub(crate) m2: Node,
}

/// Writes the padded one-block input into word `put(i, w)` positions; the state must be
/// zero beforehand.
#[inline(always)]
fn layout<P: Params>(
    seed: &Node,
    adrs: &Adrs,
    m1: &Node,
    m2: Option<&Node>,
    mut put: impl FnMut(usize, u64),
) {
    let nw = P::N / 8;
    for (i, &w) in seed[..nw].iter().chain(&adrs.0).chain(&m1[..nw]).enumerate() {
        put(i, w);
    }
    let mut end = 2 * nw + 4;
    if let Some(m2) = m2 {
        for (i, &w) in m2[..nw].iter().enumerate() {
            put(end + i, w);
        }
        end += nw;
    }
    put(end, PAD_START);
    put(RATE - 1, PAD_END);
}

/// One one-block tweakable hash with the scalar permutation.
pub(crate) fn thash<P: Params>(kind: Kind, seed: &Node, adrs: &Adrs, m1: &Node, m2: &Node) -> Node {
    let mut s = [0u64; 25];
    let m2 = (kind == Kind::H).then_some(m2);
    layout::<P>(seed, adrs, m1, m2, |i, w| s[i] ^= w);
    keccak::f1600(&mut s);
    let mut out = [0u64; 4];
    out[..P::N / 8].copy_from_slice(&s[..P::N / 8]);
    if kind == Kind::Prf {
        s.zeroize();
    }
    out
}

/// F: one chain step.
pub(crate) fn f<P: Params>(seed: &Node, adrs: &Adrs, m: &Node) -> Node {
    thash::<P>(Kind::F, seed, adrs, m, &[0; 4])
}

/// H: one tree node from its two children.
#[cfg(test)]
pub(crate) fn h<P: Params>(seed: &Node, adrs: &Adrs, l: &Node, r: &Node) -> Node {
    thash::<P>(Kind::H, seed, adrs, l, r)
}

/// Up to four one-block hashes at once; lanes ≥ `active` are ignored.
fn thash_x4<P: Params>(kind: Kind, b: &[Block; LANES], active: usize) -> [Node; LANES] {
    if active == 1 {
        let x = thash::<P>(kind, &b[0].seed, &b[0].adrs, &b[0].m1, &b[0].m2);
        return [x, [0; 4], [0; 4], [0; 4]];
    }
    let mut s: StateX4 = [[0u64; 4]; 25];
    for (j, b) in b.iter().enumerate().take(active) {
        let m2 = (kind == Kind::H).then_some(&b.m2);
        layout::<P>(&b.seed, &b.adrs, &b.m1, m2, |i, w| s[i][j] ^= w);
    }
    f1600x4(&mut s, active);
    let mut out = [[0u64; 4]; LANES];
    for (j, o) in out.iter_mut().enumerate() {
        for i in 0..P::N / 8 {
            o[i] = s[i][j];
        }
    }
    if kind == Kind::Prf {
        s.zeroize();
    }
    out
}

/// `out[i] ← hash(fill(i))` for every i, four at a time. `fill` writes the input of call
/// i into the block it is given (zeroed beforehand).
pub(crate) fn batch<P: Params>(kind: Kind, out: &mut [Node], mut fill: impl FnMut(usize, &mut Block)) {
    let mut blocks = [Block::default(); LANES];
    for (g, chunk) in out.chunks_mut(LANES).enumerate() {
        for (j, b) in blocks.iter_mut().enumerate().take(chunk.len()) {
            *b = Block::default();
            fill(g * LANES + j, b);
        }
        let r = thash_x4::<P>(kind, &blocks, chunk.len());
        chunk.copy_from_slice(&r[..chunk.len()]);
    }
    if kind == Kind::Prf {
        blocks.zeroize();
    }
}

/// One WOTS+ chain to run: `steps` applications of F from hash address `start`
/// (FIPS 205, Algorithm 5 (chain) with chain(value, start, steps)). `adrs` carries layer, tree, key pair and
/// chain address; the hash address is set per step.
#[derive(Clone, Copy, Default, Zeroize)]
pub(crate) struct Chain {
    pub(crate) seed: Node,
    #[zeroize(skip)]
    pub(crate) adrs: Adrs,
    pub(crate) value: Node,
    pub(crate) start: u32,
    pub(crate) steps: u32,
}

/// FIPS 205, Algorithm 5 (chain), on many chains at once: each `value` becomes the chain's end.
///
/// The chains are ordered by length, longest first, and run in groups of four, so a group
/// costs its longest member and the lanes of chains that finished early fall idle only at
/// the tail of each group. Chain lengths are WOTS+ digits of public values (the signed
/// message or node, revealed by the signature), so the ordering leaks nothing secret.
pub(crate) fn chains<P: Params>(jobs: &mut [Chain]) {
    let order = longest_first(jobs);
    let nw = P::N / 8;
    let mut s: StateX4 = [[0u64; 4]; 25];
    for g in order.chunks(LANES) {
        let longest = jobs[g[0]].steps;
        let live = g.iter().take_while(|&&i| jobs[i].steps > 0).count();
        if live > 1 && chains_in_registers::<P>(jobs, &g[..live]) {
            continue;
        }
        for step in 0..longest {
            let active = g.iter().take_while(|&&i| jobs[i].steps > step).count();
            if active == 1 {
                let c = &mut jobs[g[0]];
                let mut adrs = c.adrs;
                adrs.set_hash(c.start + step);
                c.value = f::<P>(&c.seed, &adrs, &c.value);
                continue;
            }
            s = [[0u64; 4]; 25];
            for (j, &i) in g.iter().enumerate().take(active) {
                let c = &jobs[i];
                let mut adrs = c.adrs;
                adrs.set_hash(c.start + step);
                layout::<P>(&c.seed, &adrs, &c.value, None, |k, w| s[k][j] ^= w);
            }
            f1600x4(&mut s, active);
            for (j, &i) in g.iter().enumerate().take(active) {
                for (v, lane) in jobs[i].value[..nw].iter_mut().zip(&s) {
                    *v = lane[j];
                }
            }
        }
    }
    // In signing, the states hold chain values below the revealed ones.
    s.zeroize();
}

/// Runs the chains `group` (2–4 jobs, none of zero steps) with the vector kernel
/// [`chains_x4`], which keeps the Keccak states in registers from step to step. Returns
/// false, having done nothing, when there is no vector backend.
fn chains_in_registers<P: Params>(jobs: &mut [Chain], group: &[usize]) -> bool {
    let nw = P::N / 8;
    let mut c = ChainsX4 {
        template: [[0u64; 4]; 25],
        hash_word: nw + 3,
        value_at: nw + 4,
        nw,
        start: [0; 4],
        steps: [0; 4],
    };
    for (j, &i) in group.iter().enumerate() {
        let job = &jobs[i];
        layout::<P>(&job.seed, &job.adrs, &job.value, None, |k, w| {
            c.template[k][j] ^= w
        });
        c.start[j] = job.start;
        c.steps[j] = job.steps;
    }
    let Some(mut out) = chains_x4(&c) else {
        c.template.zeroize();
        return false;
    };
    for (j, &i) in group.iter().enumerate() {
        jobs[i].value[..nw].copy_from_slice(&out[j][..nw]);
    }
    // In signing, the chain starts are secret.
    c.template.zeroize();
    out.zeroize();
    true
}

/// The job indices ordered by `steps`, longest first (a counting sort: steps ≤ w − 1).
fn longest_first(jobs: &[Chain]) -> alloc::vec::Vec<usize> {
    const BUCKETS: usize = 16;
    // Every chain has at most w − 1 = 15 steps (WOTS+ digits are 4 bits).
    let bucket = |c: &Chain| (BUCKETS - 1).saturating_sub(c.steps as usize);
    let mut start = [0usize; BUCKETS + 1];
    for c in jobs.iter() {
        start[bucket(c) + 1] += 1;
    }
    for b in 0..BUCKETS {
        start[b + 1] += start[b];
    }
    let mut order = alloc::vec![0usize; jobs.len()];
    for (i, c) in jobs.iter().enumerate() {
        let b = bucket(c);
        order[start[b]] = i;
        start[b] += 1;
    }
    order
}

/// A T_ℓ sponge over four lanes fed one 64-bit word per lane at a time.
struct AbsorbX4 {
    s: StateX4,
    pos: usize,
    active: usize,
}

impl AbsorbX4 {
    fn word(&mut self, w: [u64; LANES]) {
        for (x, w) in self.s[self.pos].iter_mut().zip(w) {
            *x ^= w;
        }
        self.pos += 1;
        if self.pos == RATE {
            f1600x4(&mut self.s, self.active);
            self.pos = 0;
        }
    }

    fn finish(mut self) -> StateX4 {
        for j in 0..LANES {
            self.s[self.pos][j] ^= PAD_START;
            self.s[RATE - 1][j] ^= PAD_END;
        }
        f1600x4(&mut self.s, self.active);
        self.s
    }
}

/// T_ℓ(PK.seed, ADRS, M) = SHAKE256(PK.seed ‖ ADRS ‖ M, 8n) with the scalar permutation;
/// M is ℓ n-byte values.
pub(crate) fn tl<P: Params>(seed: &Node, adrs: &Adrs, msg: &[Node]) -> Node {
    let nw = P::N / 8;
    let mut s = [0u64; 25];
    let mut pos = 0;
    let mut absorb = |w: u64, s: &mut [u64; 25]| {
        s[pos] ^= w;
        pos += 1;
        if pos == RATE {
            keccak::f1600(s);
            pos = 0;
        }
    };
    for &w in &seed[..nw] {
        absorb(w, &mut s);
    }
    for &w in &adrs.0 {
        absorb(w, &mut s);
    }
    for x in msg {
        for &w in &x[..nw] {
            absorb(w, &mut s);
        }
    }
    s[pos] ^= PAD_START;
    s[RATE - 1] ^= PAD_END;
    keccak::f1600(&mut s);
    let mut out = [0u64; 4];
    out[..nw].copy_from_slice(&s[..nw]);
    out
}

/// `out[i] ← T_ℓ(fill(i))` for every i, four at a time; every message must have the same
/// number of values.
pub(crate) fn tl_batch<'a, P: Params>(
    out: &mut [Node],
    mut fill: impl FnMut(usize) -> (Node, Adrs, &'a [Node]),
) {
    let nw = P::N / 8;
    for (g, chunk) in out.chunks_mut(LANES).enumerate() {
        if chunk.len() == 1 {
            let (seed, adrs, msg) = fill(g * LANES);
            chunk[0] = tl::<P>(&seed, &adrs, msg);
            continue;
        }
        let first = fill(g * LANES);
        let mut lanes = [first; LANES];
        for (j, lane) in lanes.iter_mut().enumerate().take(chunk.len()).skip(1) {
            *lane = fill(g * LANES + j);
        }
        let mut sp = AbsorbX4 {
            s: [[0u64; 4]; 25],
            pos: 0,
            active: chunk.len(),
        };
        for i in 0..nw {
            sp.word(core::array::from_fn(|j| lanes[j].0[i]));
        }
        for i in 0..4 {
            sp.word(core::array::from_fn(|j| lanes[j].1 .0[i]));
        }
        let len = first.2.len();
        for t in 0..len {
            for i in 0..nw {
                // Every lane's message has `len` values (same parameter set, same ℓ).
                sp.word(core::array::from_fn(|j| lanes[j].2.get(t).map_or(0, |x| x[i])));
            }
        }
        let s = sp.finish();
        for (j, o) in chunk.iter_mut().enumerate() {
            *o = [0; 4];
            for i in 0..nw {
                o[i] = s[i][j];
            }
        }
    }
}

/// PRF_msg(SK.prf, opt_rand, M) = SHAKE256(SK.prf ‖ opt_rand ‖ M, 8n) (FIPS 205 §11.1),
/// with M given as pieces.
pub(crate) fn prf_msg<P: Params>(sk_prf: &[u8], opt_rand: &[u8], msg: &[&[u8]], out: &mut [u8]) {
    let mut h = crate::hash::Shake256Absorb::default();
    h.absorb(sk_prf);
    h.absorb(opt_rand);
    for m in msg {
        h.absorb(m);
    }
    h.finalize_into(&mut out[..P::N]);
}

/// H_msg(R, PK.seed, PK.root, M) = SHAKE256(R ‖ PK.seed ‖ PK.root ‖ M, 8m).
pub(crate) fn h_msg<P: Params>(r: &[u8], pk_seed: &[u8], pk_root: &[u8], msg: &[&[u8]], out: &mut [u8]) {
    let mut h = crate::hash::Shake256Absorb::default();
    h.absorb(r);
    h.absorb(pk_seed);
    h.absorb(pk_root);
    for m in msg {
        h.absorb(m);
    }
    h.finalize_into(&mut out[..P::M]);
}

#[cfg(test)]
mod tests {
    use super::super::params::{Shake128f, Shake256s};
    use super::*;
    use crate::hash::shake256_into;

    fn bytes<P: Params>(x: &Node) -> alloc::vec::Vec<u8> {
        let mut v = alloc::vec![0u8; P::N];
        node_to_bytes::<P>(x, &mut v);
        v
    }

    // Test data: indices below 11.
    #[allow(clippy::cast_possible_truncation)]
    fn check<P: Params>() {
        let seed: Node = [1, 2, 3, 4];
        let mut adrs = Adrs::new(3, 0x0102_0304_0506);
        adrs.set_key_pair(9);
        let (m1, m2): (Node, Node) = ([5, 6, 7, 8], [9, 10, 11, 12]);
        let (s, a, x, y) = (
            bytes::<P>(&seed),
            adrs.to_bytes(),
            bytes::<P>(&m1),
            bytes::<P>(&m2),
        );
        let mut want = alloc::vec![0u8; P::N];
        shake256_into(&[&s, &a, &x], &mut want);
        assert_eq!(bytes::<P>(&f::<P>(&seed, &adrs, &m1)), want);
        shake256_into(&[&s, &a, &x, &y], &mut want);
        assert_eq!(bytes::<P>(&h::<P>(&seed, &adrs, &m1, &m2)), want);
        let msg: alloc::vec::Vec<Node> = (0..67).map(|i| [i, i + 1, i + 2, i + 3]).collect();
        let mut flat = alloc::vec::Vec::new();
        flat.extend_from_slice(&s);
        flat.extend_from_slice(&a);
        for m in &msg {
            flat.extend_from_slice(&bytes::<P>(m));
        }
        for l in [1, 10, 14, 15, 16, 17, 35, 67] {
            let cut = P::N + 32 + l * P::N;
            shake256_into(&[&flat[..cut]], &mut want);
            assert_eq!(bytes::<P>(&tl::<P>(&seed, &adrs, &msg[..l])), want, "T_{l}");
            for lanes in 1..=5 {
                let mut out = alloc::vec![[0u64; 4]; lanes];
                tl_batch::<P>(&mut out, |_| (seed, adrs, &msg[..l]));
                for o in &out {
                    assert_eq!(bytes::<P>(o), want, "T_{l} batch of {lanes}");
                }
            }
        }
        // Batches and chains agree with the scalar calls.
        let mut out = [[0u64; 4]; 7];
        batch::<P>(Kind::H, &mut out, |i, b| {
            b.seed = seed;
            b.adrs = adrs;
            b.adrs.set_tree_index(i as u32);
            b.m1 = m1;
            b.m2 = m2;
        });
        for (i, o) in out.iter().enumerate() {
            let mut a = adrs;
            a.set_tree_index(i as u32);
            assert_eq!(*o, h::<P>(&seed, &a, &m1, &m2));
        }
        let mut jobs: alloc::vec::Vec<Chain> = (0..11)
            .map(|i| Chain {
                seed,
                adrs,
                value: [i, 0, 0, 0],
                start: i as u32 % 3,
                steps: (i as u32 * 7) % 16,
            })
            .collect();
        let want: alloc::vec::Vec<Node> = jobs
            .iter()
            .map(|c| {
                let mut v = c.value;
                for j in c.start..c.start + c.steps {
                    let mut a = c.adrs;
                    a.set_hash(j);
                    v = f::<P>(&c.seed, &a, &v);
                }
                v
            })
            .collect();
        chains::<P>(&mut jobs);
        for (c, w) in jobs.iter().zip(&want) {
            assert_eq!(c.value, *w);
        }
    }

    #[test]
    fn matches_sha3() {
        check::<Shake128f>();
        check::<Shake256s>();
        check::<super::super::params::Shake192s>();
    }
}
