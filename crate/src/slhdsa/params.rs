//! The six SHAKE parameter sets (FIPS 205 §11, Table 2).

use super::Mode;

/// An SLH-DSA parameter set: the constants of FIPS 205 Table 2 and the sizes derived from
/// them. Implemented by the unit structs [`Shake128s`] … [`Shake256f`].
pub trait Params: 'static + Send + Sync {
    /// The runtime mode of this set.
    const MODE: Mode;
    /// Security parameter n: bytes per hash value.
    const N: usize;
    /// Total hypertree height h.
    const H: usize;
    /// Number of hypertree layers d.
    const D: usize;
    /// Height h′ = h/d of each XMSS tree.
    const HP: usize;
    /// Height a of each FORS tree.
    const A: usize;
    /// Number k of FORS trees.
    const K: usize;
    /// lg_w: bits per Winternitz digit (4 in every set).
    const LG_W: usize = 4;
    /// m: bytes of the message digest H_msg.
    const M: usize;

    /// w = 2^lg_w.
    const W: usize = 1 << Self::LG_W;
    /// len1 = 8n / lg_w (FIPS 205 eq. 5.1).
    const LEN1: usize = 8 * Self::N / Self::LG_W;
    /// len2 = floor(log2(len1 · (w − 1)) / lg_w) + 1 (FIPS 205 eq. 5.3; 3 in every set).
    const LEN2: usize = 3;
    /// len = len1 + len2: number of WOTS+ chains.
    const LEN: usize = Self::LEN1 + Self::LEN2;

    /// Public key bytes: PK.seed ‖ PK.root.
    const PK_LEN: usize = 2 * Self::N;
    /// Secret key bytes: SK.seed ‖ SK.prf ‖ PK.seed ‖ PK.root.
    const SK_LEN: usize = 4 * Self::N;
    /// Bytes of a FORS signature: k · (1 + a) · n.
    const FORS_SIG_LEN: usize = Self::K * (1 + Self::A) * Self::N;
    /// Bytes of one XMSS signature: (len + h′) · n.
    const XMSS_SIG_LEN: usize = (Self::LEN + Self::HP) * Self::N;
    /// Signature bytes: R ‖ SIG_FORS ‖ SIG_HT = (1 + k(1 + a) + h + d·len) · n.
    const SIG_LEN: usize = Self::N + Self::FORS_SIG_LEN + Self::D * Self::XMSS_SIG_LEN;

    /// Bytes of the digest prefix md that selects the FORS leaves: ceil(k·a / 8).
    const MD_LEN: usize = (Self::K * Self::A).div_ceil(8);
    /// Bytes of the digest part that selects the XMSS tree: ceil((h − h/d) / 8).
    const TREE_BYTES: usize = (Self::H - Self::HP).div_ceil(8);
    /// Bytes of the digest part that selects the leaf: ceil(h / 8d).
    const LEAF_BYTES: usize = Self::HP.div_ceil(8);
}

macro_rules! set {
    ($(#[$doc:meta])* $name:ident, $mode:ident, n = $n:expr, h = $h:expr, d = $d:expr, hp = $hp:expr,
     a = $a:expr, k = $k:expr, m = $m:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub struct $name;
        impl Params for $name {
            const MODE: Mode = Mode::$mode;
            const N: usize = $n;
            const H: usize = $h;
            const D: usize = $d;
            const HP: usize = $hp;
            const A: usize = $a;
            const K: usize = $k;
            const M: usize = $m;
        }
    };
}

set!(
    /// SLH-DSA-SHAKE-128s: security category 1, small signatures (7,856 bytes).
    Shake128s, Shake128s, n = 16, h = 63, d = 7, hp = 9, a = 12, k = 14, m = 30
);
set!(
    /// SLH-DSA-SHAKE-128f: security category 1, fast signing (17,088-byte signatures).
    Shake128f, Shake128f, n = 16, h = 66, d = 22, hp = 3, a = 6, k = 33, m = 34
);
set!(
    /// SLH-DSA-SHAKE-192s: security category 3, small signatures (16,224 bytes).
    Shake192s, Shake192s, n = 24, h = 63, d = 7, hp = 9, a = 14, k = 17, m = 39
);
set!(
    /// SLH-DSA-SHAKE-192f: security category 3, fast signing (35,664-byte signatures).
    Shake192f, Shake192f, n = 24, h = 66, d = 22, hp = 3, a = 8, k = 33, m = 42
);
set!(
    /// SLH-DSA-SHAKE-256s: security category 5, small signatures (29,792 bytes).
    Shake256s, Shake256s, n = 32, h = 64, d = 8, hp = 8, a = 14, k = 22, m = 47
);
set!(
    /// SLH-DSA-SHAKE-256f: security category 5, fast signing (49,856-byte signatures).
    Shake256f, Shake256f, n = 32, h = 68, d = 17, hp = 4, a = 9, k = 35, m = 49
);
