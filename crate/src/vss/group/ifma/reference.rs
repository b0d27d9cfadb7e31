//! One element at a time, with plain 64-bit arithmetic: what builds the tables once per
//! process (from public points) and finds `H`'s Edwards coordinates. Not on a secret path.

use alloc::vec::Vec;

const MASK51: u64 = (1 << 51) - 1;

/// An element of GF(2^255 − 19), radix 2^51.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Fe(pub(super) [u64; 5]);

/// `d` of edwards25519 (`−121665/121666`).
pub(super) const D: Fe = Fe([
    929_955_233_495_203,
    466_365_720_129_213,
    1_662_059_464_998_953,
    2_033_849_074_728_123,
    1_442_794_654_840_575,
]);
/// `√−1`.
pub(super) const SQRT_M1: Fe = Fe([
    1_718_705_420_411_056,
    234_908_883_556_509,
    2_233_514_472_574_048,
    2_117_202_627_021_982,
    765_476_049_583_133,
]);
/// `1/√(a − d)` with `a = −1` (RFC 9496).
pub(super) const INVSQRT_A_MINUS_D: Fe = Fe([
    278_908_739_862_762,
    821_645_201_101_625,
    8_113_234_426_968,
    1_777_959_178_193_151,
    2_118_520_810_568_447,
]);

impl Fe {
    pub(super) const ZERO: Fe = Fe([0; 5]);
    pub(super) const ONE: Fe = Fe([1, 0, 0, 0, 0]);

    /// From 32 little-endian bytes (the top bit ignored).
    pub(super) fn from_bytes(b: &[u8; 32]) -> Fe {
        let word = |i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[8 * i..8 * i + 8]);
            u64::from_le_bytes(w)
        };
        let w = [word(0), word(1), word(2), word(3)];
        Fe([
            w[0] & MASK51,
            ((w[0] >> 51) | (w[1] << 13)) & MASK51,
            ((w[1] >> 38) | (w[2] << 26)) & MASK51,
            ((w[2] >> 25) | (w[3] << 39)) & MASK51,
            (w[3] >> 12) & MASK51,
        ])
    }

    fn carried(mut l: [u64; 5]) -> Fe {
        for _ in 0..2 {
            for k in 0..4 {
                l[k + 1] += l[k] >> 51;
                l[k] &= MASK51;
            }
            l[0] += 19 * (l[4] >> 51);
            l[4] &= MASK51;
        }
        Fe(l)
    }

    /// The canonical 32 bytes.
    pub(super) fn to_bytes(self) -> [u8; 32] {
        let mut l = Fe::carried(self.0).0;
        let mut q = (l[0] + 19) >> 51;
        for limb in &l[1..] {
            q = (limb + q) >> 51;
        }
        l[0] += 19 * q;
        for k in 0..4 {
            l[k + 1] += l[k] >> 51;
            l[k] &= MASK51;
        }
        l[4] &= MASK51;
        let w = [
            l[0] | (l[1] << 51),
            (l[1] >> 13) | (l[2] << 38),
            (l[2] >> 26) | (l[3] << 25),
            (l[3] >> 39) | (l[4] << 12),
        ];
        let mut out = [0u8; 32];
        for (chunk, v) in out.chunks_exact_mut(8).zip(w) {
            chunk.copy_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// Canonical limbs.
    pub(super) fn reduced(self) -> Fe {
        Fe::from_bytes(&self.to_bytes())
    }

    pub(super) fn add(self, o: Fe) -> Fe {
        Fe::carried(core::array::from_fn(|k| self.0[k] + o.0[k]))
    }

    pub(super) fn sub(self, o: Fe) -> Fe {
        // + 16p, limb by limb, after carrying `o`.
        let o = Fe::carried(o.0).0;
        Fe::carried(core::array::from_fn(|k| {
            let bias = if k == 0 { (1 << 55) - 304 } else { (1 << 55) - 16 };
            self.0[k] + bias - o[k]
        }))
    }

    pub(super) fn neg(self) -> Fe {
        Fe::ZERO.sub(self)
    }

    // The casts keep 51 masked bits, and a final carry below 2^58.
    #[allow(clippy::cast_possible_truncation)]
    pub(super) fn mul(self, o: Fe) -> Fe {
        let a = Fe::carried(self.0).0;
        let b = Fe::carried(o.0).0;
        let mut c = [0u128; 5];
        for (i, x) in a.iter().enumerate() {
            for (j, y) in b.iter().enumerate() {
                let (k, y) = if i + j < 5 {
                    (i + j, *y)
                } else {
                    (i + j - 5, y * 19)
                };
                c[k] += u128::from(*x) * u128::from(y);
            }
        }
        let mut l = [0u64; 5];
        let mut carry = 0u128;
        for (limb, col) in l.iter_mut().zip(c) {
            let v = col + carry;
            *limb = (v & u128::from(MASK51)) as u64;
            carry = v >> 51;
        }
        l[0] += (carry as u64) * 19;
        Fe::carried(l)
    }

    pub(super) fn square(self) -> Fe {
        self.mul(self)
    }

    /// `self^e` for a little-endian exponent (public).
    fn pow(self, e: &[u8; 32]) -> Fe {
        let mut r = Fe::ONE;
        for i in (0..256).rev() {
            r = r.square();
            if (e[i / 8] >> (i % 8)) & 1 == 1 {
                r = r.mul(self);
            }
        }
        r
    }

    pub(super) fn invert(self) -> Fe {
        let mut e = [0xff; 32];
        e[0] = 0xeb;
        e[31] = 0x7f;
        self.pow(&e)
    }

    pub(super) fn is_negative(self) -> bool {
        self.to_bytes()[0] & 1 == 1
    }

    pub(super) fn is_zero(self) -> bool {
        self.to_bytes() == [0; 32]
    }

    fn abs(self) -> Fe {
        if self.is_negative() {
            self.neg()
        } else {
            self
        }
    }

    /// `(u/v is a square, √(u/v))` with RFC 9496's choice of root and sign.
    pub(super) fn sqrt_ratio_m1(u: Fe, v: Fe) -> (bool, Fe) {
        let v3 = v.square().mul(v);
        let v7 = v3.square().mul(v);
        // (p − 5)/8 = 2^252 − 3
        let mut e = [0xff; 32];
        e[0] = 0xfd;
        e[31] = 0x0f;
        let r = u.mul(v3).mul(u.mul(v7).pow(&e));
        let check = v.mul(r.square());
        let correct = check.sub(u).is_zero();
        let flipped = check.add(u).is_zero();
        let flipped_i = check.add(u.mul(SQRT_M1)).is_zero();
        let r = if flipped || flipped_i { r.mul(SQRT_M1) } else { r };
        (correct || flipped, r.abs())
    }
}

/// A point of edwards25519 in extended coordinates.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ext {
    pub(super) x: Fe,
    pub(super) y: Fe,
    pub(super) z: Fe,
    pub(super) t: Fe,
}

impl Ext {
    /// `self + o` (add-2008-hwcd-3, complete for `a = −1`).
    pub(super) fn add(&self, o: &Ext) -> Ext {
        let d2 = D.add(D);
        let a = self.y.sub(self.x).mul(o.y.sub(o.x));
        let b = self.y.add(self.x).mul(o.y.add(o.x));
        let c = self.t.mul(d2).mul(o.t);
        let d = self.z.add(self.z).mul(o.z);
        let (e, f, g, h) = (b.sub(a), d.sub(c), d.add(c), b.add(a));
        Ext {
            x: e.mul(f),
            y: g.mul(h),
            z: f.mul(g),
            t: e.mul(h),
        }
    }

    /// `k·self` for a 256-bit little-endian integer `k`, by double-and-add from the top
    /// bit (public points only: variable time).
    pub(super) fn mul_vartime(&self, k: &[u8; 32]) -> Ext {
        let mut acc = Ext {
            x: Fe::ZERO,
            y: Fe::ONE,
            z: Fe::ONE,
            t: Fe::ZERO,
        };
        for bit in (0..256).rev() {
            acc = acc.add(&acc);
            if k[bit / 8] >> (bit % 8) & 1 == 1 {
                acc = acc.add(self);
            }
        }
        acc
    }

    /// The point of a compressed Edwards encoding (RFC 8032 §5.1.3); `None` for bytes
    /// that do not decode.
    pub(super) fn from_edwards(bytes: &[u8; 32]) -> Option<Ext> {
        let y = Fe::from_bytes(bytes);
        let mut canonical = y.to_bytes();
        canonical[31] |= bytes[31] & 0x80;
        if canonical != *bytes {
            return None;
        }
        let yy = y.square();
        let (was_square, x) = Fe::sqrt_ratio_m1(yy.sub(Fe::ONE), D.mul(yy).add(Fe::ONE));
        let x = if (bytes[31] >> 7 == 1) != x.is_negative() {
            x.neg()
        } else {
            x
        };
        if !was_square || (x.is_zero() && bytes[31] >> 7 == 1) {
            return None;
        }
        Some(Ext {
            x,
            y,
            z: Fe::ONE,
            t: x.mul(y),
        })
    }

    /// An Edwards representative of a Ristretto encoding (RFC 9496 §4.3.1); `None` for
    /// bytes that do not decode.
    pub(super) fn from_ristretto(bytes: &[u8; 32]) -> Option<Ext> {
        let s = Fe::from_bytes(bytes);
        if s.to_bytes() != *bytes || s.is_negative() {
            return None;
        }
        let ss = s.square();
        let u1 = Fe::ONE.sub(ss);
        let u2 = Fe::ONE.add(ss);
        let u2_sqr = u2.square();
        let v = D.mul(u1.square()).neg().sub(u2_sqr);
        let (was_square, invsqrt) = Fe::sqrt_ratio_m1(Fe::ONE, v.mul(u2_sqr));
        let den_x = invsqrt.mul(u2);
        let den_y = invsqrt.mul(den_x).mul(v);
        let x = s.add(s).mul(den_x).abs();
        let y = u1.mul(den_y);
        let t = x.mul(y);
        if !was_square || t.is_negative() || y.is_zero() {
            return None;
        }
        Some(Ext { x, y, z: Fe::ONE, t })
    }
}

/// The inverses of `values` (none zero) with one inversion (Montgomery's trick).
pub(super) fn batch_invert(values: &[Fe]) -> Vec<Fe> {
    let mut prefix = Vec::with_capacity(values.len());
    let mut acc = Fe::ONE;
    for v in values {
        prefix.push(acc);
        acc = acc.mul(*v);
    }
    let mut inv = acc.invert();
    let mut out = alloc::vec![Fe::ZERO; values.len()];
    for (i, v) in values.iter().enumerate().rev() {
        out[i] = inv.mul(prefix[i]);
        inv = inv.mul(*v);
    }
    out
}
