//! Polynomial commitments: Pedersen (`C_k = a_k·G + b_k·H`, perfectly hiding) and Feldman
//! (`A_k = a_k·G`), the secret share pair they open, and the share check
//! `s·G (+ r·H) == Σ_k x^k·C_k`.
//!
//! Wire form of a commitment vector (inside the messages that carry it): u16 count ‖
//! count × point, each point canonical (see [`super::group`]).

use alloc::sync::Arc;
use alloc::vec::Vec;
use core::fmt;

use group::ff::Field;
use group::Group;
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroize;

use super::group::{mul_small_vartime, read_point, read_scalar, write_point, write_scalar};
use super::{Curve, Error, Polynomial};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

mod body;
use body::Body;

/// Which commitment scheme a sharing uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Mode {
    /// `C_k = a_k·G + b_k·H` with random blinds: perfectly hiding — nothing like `x·G` is
    /// ever published (Pulsar, where the secret must stay hidden even from a quantum
    /// adversary). Wire byte 1.
    Pedersen = 1,
    /// `A_k = a_k·G`: the group key `A_0 = x·G` and the verifying shares `Σ id^k·A_k` are
    /// public (Lens/FROST). Wire byte 2.
    Feldman = 2,
}

impl Mode {
    /// The wire byte.
    pub fn to_byte(self) -> u8 {
        self as u8
    }

    /// Decodes the wire byte.
    ///
    /// # Errors
    /// [`wire::Error::UnknownMode`].
    pub fn from_byte(b: u8) -> Result<Mode, wire::Error> {
        match b {
            1 => Ok(Mode::Pedersen),
            2 => Ok(Mode::Feldman),
            other => Err(wire::Error::UnknownMode(other)),
        }
    }
}

/// One party's secret share: the value `f(id)` and, in Pedersen mode, the blind `g(id)`
/// (zero in Feldman mode).
///
/// Wire form: value (32 bytes) ‖ blind (32 bytes, only in Pedersen mode).
///
/// # Security
/// Secret: zeroized on drop, no `Clone`, `Debug` redacted, equality in constant time.
pub struct Share<C: Curve> {
    value: C::Scalar,
    blind: C::Scalar,
}

impl<C: Curve> Share<C> {
    /// A share from its value and blind (pass zero for Feldman).
    pub fn new(value: C::Scalar, blind: C::Scalar) -> Self {
        Share { value, blind }
    }

    /// The share value `f(id)`.
    ///
    /// # Security
    /// Secret.
    pub fn value(&self) -> &C::Scalar {
        &self.value
    }

    /// The blind `g(id)` (zero in Feldman mode).
    ///
    /// # Security
    /// Secret.
    pub fn blind(&self) -> &C::Scalar {
        &self.blind
    }

    /// A copy (explicit, since this is secret material).
    pub fn duplicate(&self) -> Self {
        Share {
            value: self.value,
            blind: self.blind,
        }
    }

    /// The commitment this share opens: `value·G + blind·H` (Pedersen) or `value·G`.
    pub fn commitment(&self, mode: Mode) -> C::Point {
        match mode {
            Mode::Pedersen => C::mul_base_h(&self.value, &self.blind),
            Mode::Feldman => C::mul_base(&self.value),
        }
    }

    /// Encodes for `mode` (the blind only in Pedersen mode).
    pub fn write(&self, mode: Mode, w: &mut Writer) {
        write_scalar::<C>(&self.value, w);
        if mode == Mode::Pedersen {
            write_scalar::<C>(&self.blind, w);
        }
    }

    /// Decodes for `mode`; scalars must be canonical.
    ///
    /// # Errors
    /// [`wire::Error::TooShort`], [`wire::Error::InvalidValue`].
    pub fn read(mode: Mode, r: &mut Reader<'_>) -> Result<Self, wire::Error> {
        let value = read_scalar::<C>(r)?;
        let blind = match mode {
            Mode::Pedersen => read_scalar::<C>(r)?,
            Mode::Feldman => C::Scalar::ZERO,
        };
        Ok(Share { value, blind })
    }

    /// Encoded length for `mode`.
    pub fn encoded_len(mode: Mode) -> usize {
        match mode {
            Mode::Pedersen => 2 * C::SCALAR_LEN,
            Mode::Feldman => C::SCALAR_LEN,
        }
    }
}

impl<C: Curve> ConstantTimeEq for Share<C> {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.value.ct_eq(&other.value) & self.blind.ct_eq(&other.blind)
    }
}

impl<C: Curve> PartialEq for Share<C> {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}

impl<C: Curve> Eq for Share<C> {}

impl<C: Curve> Drop for Share<C> {
    fn drop(&mut self) {
        self.value.zeroize();
        self.blind.zeroize();
    }
}

impl<C: Curve> fmt::Debug for Share<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Share(<redacted>)")
    }
}

/// The public commitments to a sharing polynomial: `threshold` points, constant term
/// first. Clones share one body: the points and, with `in-process-sharing`, their encoding,
/// each made from the other when first asked for.
#[derive(Clone)]
pub struct Commitments<C: Curve> {
    mode: Mode,
    count: usize,
    body: Arc<Body<C>>,
}

impl<C: Curve> PartialEq for Commitments<C> {
    /// Equal points. Where both encodings are kept, they are compared instead: an encoding
    /// is canonical, so equal points have equal bytes, and comparing bytes spares a
    /// normalization per point (a party checks its key share's commitments against the
    /// ceremony's, 86 points at n = 128, in each of its rounds that needs it).
    fn eq(&self, other: &Self) -> bool {
        if self.mode != other.mode || self.count != other.count {
            return false;
        }
        if Arc::ptr_eq(&self.body, &other.body) {
            return true;
        }
        #[cfg(feature = "in-process-sharing")]
        if let (Some(a), Some(b)) = (self.body.encoded(), other.body.encoded()) {
            return a == b;
        }
        self.points() == other.points()
    }
}

impl<C: Curve> Eq for Commitments<C> {}

impl<C: Curve> fmt::Debug for Commitments<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Commitments")
            .field("curve", &C::NAME)
            .field("mode", &self.mode)
            .field("points", &self.points())
            .finish()
    }
}

impl<C: Curve> Commitments<C> {
    /// Commits to `values` (and in Pedersen mode to `blinds`, which must have the same
    /// threshold; Feldman ignores it).
    ///
    /// # Errors
    /// [`Error::ModeMismatch`] when Pedersen mode has no blind polynomial,
    /// [`Error::LengthMismatch`] when the thresholds differ.
    pub fn commit(mode: Mode, values: &Polynomial<C>, blinds: Option<&Polynomial<C>>) -> Result<Self, Error> {
        Self::commit_from(mode, values, blinds, 0)
    }

    /// [`Commitments::commit`] for polynomials whose constant terms are zero by protocol,
    /// publicly (a refresh's): their commitment is the identity, made without a
    /// multiplication (a tenth of a 21 → 21 refresh dealer's work). The caller owes the
    /// zero constants; a debug assertion checks them.
    ///
    /// # Errors
    /// As [`Commitments::commit`].
    pub(crate) fn commit_zero_constant(
        mode: Mode,
        values: &Polynomial<C>,
        blinds: Option<&Polynomial<C>>,
    ) -> Result<Self, Error> {
        debug_assert!(crate::ct::public(bool::from(
            values.constant().is_zero() & blinds.map_or(Choice::from(1), |b| b.constant().is_zero())
        )));
        Self::commit_from(mode, values, blinds, 1)
    }

    /// The commitments, the first `zeros` coefficients known to be zero (identities).
    fn commit_from(
        mode: Mode,
        values: &Polynomial<C>,
        blinds: Option<&Polynomial<C>>,
        zeros: usize,
    ) -> Result<Self, Error> {
        let blinds = match mode {
            Mode::Feldman => None,
            Mode::Pedersen => {
                let b = blinds.ok_or(Error::ModeMismatch)?;
                if b.threshold() != values.threshold() {
                    return Err(Error::LengthMismatch {
                        expected: values.threshold(),
                        got: b.threshold(),
                    });
                }
                Some(&b.coefficients()[zeros..])
            }
        };
        let values = &values.coefficients()[zeros..];
        let identities = || core::iter::repeat_n(C::Point::identity(), zeros);
        #[cfg(feature = "in-process-sharing")]
        if let Some(made) = C::commit_encoded(zeros, values, blinds) {
            let body = match made.points {
                Some(points) => {
                    // Public: commitments are broadcast.
                    crate::ct::public_slice(&points);
                    Body::read(points, &made.encoded)
                }
                // The points are decoded from the encoding when asked for.
                None => Body::made_encoded(made.encoded, made.lanes),
            };
            return Ok(Commitments {
                mode,
                count: zeros + values.len(),
                body,
            });
        }
        let made: Vec<C::Point> = match blinds {
            None => values.iter().map(|a| C::mul_base(a)).collect(),
            Some(b) => values.iter().zip(b).map(|(a, b)| C::mul_base_h(a, b)).collect(),
        };
        // Public: commitments are broadcast.
        crate::ct::public_slice(&made);
        let points: Vec<C::Point> = identities().chain(made).collect();
        Ok(Commitments {
            mode,
            count: points.len(),
            body: Body::of_points(points),
        })
    }

    /// Commitments from their points (constant term first).
    ///
    /// # Errors
    /// [`Error::InvalidThreshold`] for an empty vector.
    pub fn from_points(mode: Mode, points: Vec<C::Point>) -> Result<Self, Error> {
        Self::of_body(mode, points.len(), || Body::of_points(points))
    }

    /// Commitments from their points and the points' canonical encoding (a sum made in
    /// lanes and decoded).
    ///
    /// # Errors
    /// As [`Commitments::from_points`]; [`Error::LengthMismatch`] for an encoding of
    /// another length than the points'.
    #[cfg(feature = "in-process-sharing")]
    pub(crate) fn from_points_encoded(mode: Mode, points: Vec<C::Point>, raw: &[u8]) -> Result<Self, Error> {
        if raw.len() != points.len() * C::POINT_LEN {
            return Err(Error::LengthMismatch {
                expected: points.len() * C::POINT_LEN,
                got: raw.len(),
            });
        }
        Self::of_body(mode, points.len(), || Body::read(points, raw))
    }

    /// `count` (at least one) points in the body `make` makes.
    fn of_body(mode: Mode, count: usize, make: impl FnOnce() -> Arc<Body<C>>) -> Result<Self, Error> {
        if count == 0 {
            return Err(Error::InvalidThreshold {
                threshold: 0,
                parties: 0,
            });
        }
        Ok(Commitments {
            mode,
            count,
            body: make(),
        })
    }

    /// The commitment scheme.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The points, constant term first.
    pub fn points(&self) -> &[C::Point] {
        self.body.points()
    }

    /// The points' encoding (count × `POINT_LEN` bytes), made the first time it is asked
    /// for and kept.
    #[cfg(feature = "in-process-sharing")]
    pub(crate) fn encoding(&self) -> &[u8] {
        self.body.encoded_or(|| self.encode_points())
    }

    /// The points as the group's lanes made them, where this process made them there
    /// (never on WebAssembly, which has no lanes).
    #[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
    pub(crate) fn lanes(&self) -> Option<&super::group::Lanes> {
        self.body.lanes()
    }

    /// The threshold of the committed sharing (number of points).
    pub fn threshold(&self) -> usize {
        self.count
    }

    /// The commitment to the constant term (the secret): in Feldman mode the group key.
    pub fn constant(&self) -> &C::Point {
        self.body.constant()
    }

    /// `Σ_k id^k·C_k`: the commitment to party `id`'s share (in Feldman mode, its
    /// verifying share). Horner's rule with a small multiplier; variable time (public data).
    pub fn evaluate_vartime(&self, id: PartyId) -> C::Point {
        horner_small_vartime(self.points(), u64::from(id.get()))
    }

    /// Checks party `id`'s share against these commitments:
    /// `value·G + blind·H == Σ_k id^k·C_k` (Pedersen) or `value·G == Σ_k id^k·A_k`.
    /// The share side is a constant-time fixed-base multiplication; the comparison is
    /// constant time.
    ///
    /// # Errors
    /// [`Error::InvalidShare`] naming `id`.
    pub fn verify_share(&self, id: PartyId, share: &Share<C>) -> Result<(), Error> {
        let expected = self.evaluate_vartime(id);
        // Public: whether a share opens the commitments decides a public complaint.
        if crate::ct::public(bool::from(share.commitment(self.mode).ct_eq(&expected))) {
            Ok(())
        } else {
            Err(Error::InvalidShare { party: id })
        }
    }

    /// Checks many parties' shares at once: with weights `ρ` (one per share) that whoever
    /// made the shares could not predict, `Σ ρ_i·com(share_i) == Σ_k (Σ_i ρ_i·i^k)·C_k`.
    /// One fixed-base multiplication of the weighted shares (constant time) and one
    /// multi-scalar multiplication of the `t` commitments, instead of both per share.
    ///
    /// `false` says only that some share fails (all pass except with probability about
    /// 2^-128): check each with [`Commitments::verify_share`] to name it.
    #[cfg(any(test, feature = "batched-combine"))]
    pub(crate) fn verify_shares_weighted(&self, shares: &[(PartyId, Share<C>)], rho: &[C::Scalar]) -> bool {
        let sigma = super::batch::power_sums::<C>(
            shares.iter().map(|(p, _)| *p).zip(rho.iter().copied()),
            self.count,
        );
        super::batch::shares_open_weighted(self.mode, shares, self.points(), &sigma, rho)
    }

    /// Encodes: u16 count ‖ points.
    pub fn write(&self, w: &mut Writer) {
        w.u16(crate::wire::len_u16(self.count));
        #[cfg(feature = "in-process-sharing")]
        w.put(self.encoding());
        #[cfg(not(feature = "in-process-sharing"))]
        for p in self.points() {
            write_point::<C>(p, w);
        }
    }

    /// Makes and keeps the points' encoding now, so that every clone taken afterwards
    /// carries it (a process's receivers share one combination of the deals).
    #[cfg(feature = "in-process-sharing")]
    pub(crate) fn encode_now(&self) {
        self.encoding();
    }

    #[cfg(feature = "in-process-sharing")]
    fn encode_points(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(self.count * C::POINT_LEN);
        for p in self.points() {
            write_point::<C>(p, &mut w);
        }
        w.into_bytes()
    }

    /// Decodes `count` (between 1 and `max`) strictly checked points.
    ///
    /// # Errors
    /// [`wire::Error::TooShort`], [`wire::Error::CountTooLarge`],
    /// [`wire::Error::InvalidValue`] (also for a zero count).
    pub fn read(mode: Mode, max: usize, r: &mut Reader<'_>) -> Result<Self, wire::Error> {
        Self::read_with(mode, max, r, |raw| {
            Ok(Body::read(decode_points::<C>(raw, read_point::<C>)?, raw))
        })
    }

    /// As [`Commitments::read`] but without the prime-order-subgroup check (only
    /// meaningful for Ed25519): for bulk protocol input whose aggregate is checked later.
    ///
    /// With `in-process-sharing` the points are decoded once per process, and not at all
    /// where a party of the process made them ([`Commitments::lend_decoding`]).
    pub(crate) fn read_unchecked_subgroup(
        mode: Mode,
        max: usize,
        r: &mut Reader<'_>,
    ) -> Result<Self, wire::Error> {
        // WebAssembly runs a dealer's receivers in other instances (the demo's workers):
        // nothing lent to find there, and the lookup's code is 5 KB of the full module.
        #[cfg(not(target_arch = "wasm32"))]
        return Self::read_with(mode, max, r, |raw| {
            crate::party::shared::decode(raw, decode_unchecked_subgroup::<C>)
        });
        #[cfg(target_arch = "wasm32")]
        Self::read_with(mode, max, r, decode_unchecked_subgroup::<C>)
    }

    /// `count` (between 1 and `max`) points, their bytes decoded by `decode`.
    fn read_with(
        mode: Mode,
        max: usize,
        r: &mut Reader<'_>,
        decode: impl FnOnce(&[u8]) -> Result<Arc<Body<C>>, wire::Error>,
    ) -> Result<Self, wire::Error> {
        let raw = Self::take_points(max, r)?;
        Ok(Commitments {
            mode,
            count: raw.len() / C::POINT_LEN,
            body: decode(raw)?,
        })
    }

    /// The bytes of `count` points (between 1 and `max`), after their count.
    fn take_points<'a>(max: usize, r: &mut Reader<'a>) -> Result<&'a [u8], wire::Error> {
        let count = usize::from(r.u16()?);
        if count == 0 {
            return Err(wire::Error::InvalidValue("empty commitment vector"));
        }
        if count > max {
            return Err(wire::Error::CountTooLarge { got: count, max });
        }
        let needed = count * C::POINT_LEN;
        if needed > r.remaining() {
            return Err(wire::Error::TooShort {
                needed,
                got: r.remaining(),
            });
        }
        r.take(needed)
    }

    /// Records, for the process's other parties, that these points' encoding decodes to
    /// them ([`Commitments::read_unchecked_subgroup`]): a dealer's broadcast is then never
    /// decoded in the process that made it. Sound for any points: every group's decoder
    /// accepts the encoder's output and returns the point encoded (the identity and, for
    /// Ed25519, points with torsion included; tested). Only the decoding without the
    /// subgroup check is recorded, so a checked read still checks. Does nothing before
    /// the encoding is made, without `in-process-sharing`, or on WebAssembly (see
    /// [`Commitments::read_unchecked_subgroup`]).
    pub(crate) fn lend_decoding(&self) {
        #[cfg(all(feature = "in-process-sharing", not(target_arch = "wasm32")))]
        if let Some(raw) = self.body.encoded() {
            crate::party::shared::seed(raw, decode_unchecked_subgroup::<C>, self.body.clone());
        }
    }

    /// Whether every point is in the prime-order subgroup (always true except possibly
    /// for Ed25519 input read without the check).
    pub fn is_torsion_free_vartime(&self) -> bool {
        self.points().iter().all(C::is_torsion_free_vartime)
    }
}

/// The points of `raw` (a whole number of encodings), each read by `read`.
pub(crate) fn decode_points<C: Curve>(
    raw: &[u8],
    read: impl Fn(&mut Reader<'_>) -> Result<C::Point, wire::Error>,
) -> Result<Vec<C::Point>, wire::Error> {
    let mut body = Reader::new(raw);
    let mut points = Vec::with_capacity(raw.len() / C::POINT_LEN);
    while body.remaining() > 0 {
        points.push(read(&mut body)?);
    }
    Ok(points)
}

/// The points of `raw`, canonical but not checked for the prime-order subgroup. A named
/// function: its type is the key a process's parties share the decoding under.
fn decode_unchecked_subgroup<C: Curve>(raw: &[u8]) -> Result<Arc<Body<C>>, wire::Error> {
    Ok(Body::read(
        decode_points::<C>(raw, C::read_point_unchecked_subgroup)?,
        raw,
    ))
}

/// `Σ_k x^k·points[k]` by Horner's rule with `x` a small public integer (variable time).
pub(crate) fn horner_small_vartime<P: Group>(points: &[P], x: u64) -> P {
    let mut acc = P::identity();
    for (k, c) in points.iter().enumerate().rev() {
        if k + 1 == points.len() {
            acc = *c;
        } else {
            acc = mul_small_vartime(&acc, x) + c;
        }
    }
    acc
}

#[cfg(test)]
mod tests;
