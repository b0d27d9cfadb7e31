//! The 32-byte hash address ADRS (FIPS 205 §4.2, Figure 2 and Table 1).
//!
//! ADRS is four big-endian 32-bit words (layer, then a 96-bit tree address, type, and three
//! type-specific words). The tweakable hashes absorb it as four little-endian 64-bit Keccak
//! lanes, so it is stored here directly in that form: each setter byte-swaps its field into
//! place and building a Keccak state needs no byte shuffling at all.
//!
//! Lane 0: layer (bytes 0–3), tree bits 64–95 (bytes 4–7, always 0: tree addresses have at
//! most h − h′ ≤ 64 bits). Lane 1: tree bits 0–63 (bytes 8–15). Lane 2: type (bytes 16–19),
//! key pair (bytes 20–23). Lane 3: chain or tree height (bytes 24–27), hash or tree index
//! (bytes 28–31).

/// ADRS type WOTS_HASH: a step of a WOTS+ chain.
pub(crate) const WOTS_HASH: u32 = 0;
/// ADRS type WOTS_PK: compressing the WOTS+ chain ends into a public key.
pub(crate) const WOTS_PK: u32 = 1;
/// ADRS type TREE: an inner node of an XMSS tree.
pub(crate) const TREE: u32 = 2;
/// ADRS type FORS_TREE: a node of a FORS tree.
pub(crate) const FORS_TREE: u32 = 3;
/// ADRS type FORS_ROOTS: compressing the FORS roots into the FORS public key.
pub(crate) const FORS_ROOTS: u32 = 4;
/// ADRS type WOTS_PRF: generating a WOTS+ secret value.
pub(crate) const WOTS_PRF: u32 = 5;
/// ADRS type FORS_PRF: generating a FORS secret value.
pub(crate) const FORS_PRF: u32 = 6;

const LOW: u64 = 0xFFFF_FFFF;

/// A hash address as the four Keccak lanes it occupies in a tweakable-hash input.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct Adrs(pub(crate) [u64; 4]);

impl Adrs {
    /// An address with the given layer and tree, everything else zero (FIPS 205 Alg. 12
    /// lines 1–2: ADRS ← toByte(0, 32); setLayerAddress; setTreeAddress).
    pub(crate) fn new(layer: u32, tree: u64) -> Self {
        Adrs([u64::from(layer.swap_bytes()), tree.swap_bytes(), 0, 0])
    }

    /// ADRS.setTypeAndClear(Y): sets the type and zeroes the last 12 bytes.
    pub(crate) fn set_type_and_clear(&mut self, ty: u32) {
        self.0[2] = u64::from(ty.swap_bytes());
        self.0[3] = 0;
    }

    /// ADRS.setKeyPairAddress(i).
    pub(crate) fn set_key_pair(&mut self, i: u32) {
        self.0[2] = (self.0[2] & LOW) | (u64::from(i.swap_bytes()) << 32);
    }

    /// ADRS.getKeyPairAddress().
    pub(crate) fn key_pair(&self) -> u32 {
        ((self.0[2] >> 32) as u32).swap_bytes()
    }

    /// ADRS.setChainAddress(i) (the same word as setTreeHeight).
    pub(crate) fn set_chain(&mut self, i: u32) {
        self.0[3] = (self.0[3] & !LOW) | u64::from(i.swap_bytes());
    }

    /// ADRS.setTreeHeight(z).
    pub(crate) fn set_tree_height(&mut self, z: u32) {
        self.set_chain(z);
    }

    /// ADRS.setHashAddress(i) (the same word as setTreeIndex).
    pub(crate) fn set_hash(&mut self, i: u32) {
        self.0[3] = (self.0[3] & LOW) | (u64::from(i.swap_bytes()) << 32);
    }

    /// ADRS.setTreeIndex(i).
    pub(crate) fn set_tree_index(&mut self, i: u32) {
        self.set_hash(i);
    }

    /// The address with type `ty`, cleared, and the same key pair (the `skADRS`,
    /// `wotspkADRS` and `forspkADRS` of FIPS 205 Alg. 6–8, 14 and 17).
    pub(crate) fn with_type_keep_key_pair(&self, ty: u32) -> Self {
        let mut a = *self;
        let kp = self.key_pair();
        a.set_type_and_clear(ty);
        a.set_key_pair(kp);
        a
    }

    /// The 32 bytes of the address, as FIPS 205 Figure 2 lays them out.
    #[cfg(test)]
    pub(crate) fn to_bytes(self) -> [u8; 32] {
        let mut b = [0u8; 32];
        for (chunk, w) in b.chunks_exact_mut(8).zip(self.0) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_figure_2() {
        let mut a = Adrs::new(0x0102_0304, 0x1122_3344_5566_7788);
        a.set_type_and_clear(FORS_TREE);
        a.set_key_pair(0xA1A2_A3A4);
        a.set_tree_height(0xB1B2_B3B4);
        a.set_tree_index(0xC1C2_C3C4);
        let mut want = [0u8; 32];
        want[0..4].copy_from_slice(&0x0102_0304u32.to_be_bytes());
        want[8..16].copy_from_slice(&0x1122_3344_5566_7788u64.to_be_bytes());
        want[16..20].copy_from_slice(&FORS_TREE.to_be_bytes());
        want[20..24].copy_from_slice(&0xA1A2_A3A4u32.to_be_bytes());
        want[24..28].copy_from_slice(&0xB1B2_B3B4u32.to_be_bytes());
        want[28..32].copy_from_slice(&0xC1C2_C3C4u32.to_be_bytes());
        assert_eq!(a.to_bytes(), want);
        assert_eq!(a.key_pair(), 0xA1A2_A3A4);
        let b = a.with_type_keep_key_pair(FORS_PRF);
        assert_eq!(&b.to_bytes()[..16], &want[..16]);
        assert_eq!(&b.to_bytes()[16..24], &[0, 0, 0, 6, 0xA1, 0xA2, 0xA3, 0xA4]);
        assert_eq!(&b.to_bytes()[24..], &[0u8; 8]);
    }
}
