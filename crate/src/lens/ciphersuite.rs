//! The three RFC 9591 ciphersuites behind one runtime [`Curve`] value, and the glue that
//! maps each public Lens type onto the `frost-core` type of its ciphersuite.
//!
//! Public Lens types hold a [`ByCurve`] value: one variant per ciphersuite, each holding
//! the `frost-core` object of that ciphersuite. Generic code is written once over the
//! private [`Suite`] trait and entered through [`with_suite!`], the single place where the
//! runtime curve is matched into a type.

use alloc::vec::Vec;

use frost_core::{Ciphersuite, Element, Group, Identifier, Scalar};
#[cfg(feature = "ed25519")]
use frost_ed25519::Ed25519Sha512;
#[cfg(feature = "ristretto255")]
use frost_ristretto255::Ristretto255Sha512;
#[cfg(feature = "secp256k1")]
use frost_secp256k1_tr::Secp256K1Sha256TR;

use super::{Curve, Error};
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Enters generic code: binds the type name to the `frost-core` ciphersuite of a runtime
/// [`Curve`] and evaluates the body with it.
macro_rules! with_suite {
    ($curve:expr, $C:ident => $body:expr) => {
        match $curve {
            #[cfg(feature = "ed25519")]
            $crate::vss::CurveId::Ed25519 => {
                type $C = frost_ed25519::Ed25519Sha512;
                $body
            }
            #[cfg(feature = "secp256k1")]
            $crate::vss::CurveId::Secp256k1 => {
                type $C = frost_secp256k1_tr::Secp256K1Sha256TR;
                $body
            }
            #[cfg(feature = "ristretto255")]
            $crate::vss::CurveId::Ristretto255 => {
                type $C = frost_ristretto255::Ristretto255Sha512;
                $body
            }
        }
    };
}
pub(crate) use with_suite;

/// Version of every Lens wire format.
pub(crate) const VERSION: u16 = 1;

/// Largest frost-serialized component accepted by a decoder (a public key package of
/// 65 535 parties fits comfortably).
pub(crate) const MAX_COMPONENT: usize = 1 << 23;

/// A type constructor: the `frost-core` (or Lens-internal) type of one object, per
/// ciphersuite.
pub(crate) trait Family {
    /// The object's type for ciphersuite `C`.
    type Of<C: Suite>: Clone + PartialEq;
}

/// One object of a per-ciphersuite type, tagged by its curve.
pub(crate) enum ByCurve<F: Family> {
    #[cfg(feature = "ed25519")]
    Ed25519(F::Of<Ed25519Sha512>),
    #[cfg(feature = "secp256k1")]
    Secp256k1(F::Of<Secp256K1Sha256TR>),
    #[cfg(feature = "ristretto255")]
    Ristretto255(F::Of<Ristretto255Sha512>),
}

impl<F: Family> ByCurve<F> {
    /// The curve of the held object.
    pub(crate) fn curve(&self) -> Curve {
        match self {
            #[cfg(feature = "ed25519")]
            ByCurve::Ed25519(_) => Curve::Ed25519,
            #[cfg(feature = "secp256k1")]
            ByCurve::Secp256k1(_) => Curve::Secp256k1,
            #[cfg(feature = "ristretto255")]
            ByCurve::Ristretto255(_) => Curve::Ristretto255,
        }
    }

    /// The held object as ciphersuite `C`'s type.
    pub(crate) fn get<C: Suite>(&self) -> Result<&F::Of<C>, Error> {
        C::get(self).ok_or(Error::WrongCurve {
            expected: C::CURVE,
            found: self.curve(),
        })
    }
}

impl<F: Family> Clone for ByCurve<F> {
    fn clone(&self) -> Self {
        match self {
            #[cfg(feature = "ed25519")]
            ByCurve::Ed25519(x) => ByCurve::Ed25519(x.clone()),
            #[cfg(feature = "secp256k1")]
            ByCurve::Secp256k1(x) => ByCurve::Secp256k1(x.clone()),
            #[cfg(feature = "ristretto255")]
            ByCurve::Ristretto255(x) => ByCurve::Ristretto255(x.clone()),
        }
    }
}

impl<F: Family> PartialEq for ByCurve<F> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            #[cfg(feature = "ed25519")]
            (ByCurve::Ed25519(a), ByCurve::Ed25519(b)) => a == b,
            #[cfg(feature = "secp256k1")]
            (ByCurve::Secp256k1(a), ByCurve::Secp256k1(b)) => a == b,
            #[cfg(feature = "ristretto255")]
            (ByCurve::Ristretto255(a), ByCurve::Ristretto255(b)) => a == b,
            #[allow(unreachable_patterns)] // a build of one curve
            _ => false,
        }
    }
}

/// A `frost-core` ciphersuite Lens supports, with the few curve-specific hooks the
/// generic code needs.
pub(crate) trait Suite: Ciphersuite {
    /// The runtime curve of this ciphersuite.
    const CURVE: Curve;

    /// The same group in the VSS/LSS kernel (identical scalar and point types).
    type Vss: crate::vss::Curve<Scalar = Scalar<Self>, Point = Element<Self>>;

    /// Tags an object of this ciphersuite with its curve.
    fn wrap<F: Family>(x: F::Of<Self>) -> ByCurve<F>;

    /// The object, if it is of this ciphersuite.
    fn get<F: Family>(x: &ByCurve<F>) -> Option<&F::Of<Self>>;

    /// The scalar with integer value `x`.
    fn scalar_from_u64(x: u64) -> Scalar<Self>;

    /// Overwrites a secret scalar with zero (volatile writes, via `zeroize`).
    fn wipe(s: &mut Scalar<Self>);

    /// Whether the group key summed from DKG commitments is negated by the ciphersuite's
    /// key post-processing (BIP-340 even-Y normalisation; never on the other curves).
    fn dkg_negates(_group_key: &Element<Self>) -> bool {
        false
    }
}

#[cfg(feature = "ed25519")]
impl Suite for Ed25519Sha512 {
    const CURVE: Curve = Curve::Ed25519;
    type Vss = crate::vss::Ed25519;

    fn wrap<F: Family>(x: F::Of<Self>) -> ByCurve<F> {
        ByCurve::Ed25519(x)
    }

    fn get<F: Family>(x: &ByCurve<F>) -> Option<&F::Of<Self>> {
        match x {
            ByCurve::Ed25519(v) => Some(v),
            #[allow(unreachable_patterns)] // a build of one curve
            _ => None,
        }
    }

    fn scalar_from_u64(x: u64) -> Scalar<Self> {
        curve25519_dalek::Scalar::from(x)
    }

    fn wipe(s: &mut Scalar<Self>) {
        zeroize::Zeroize::zeroize(s);
    }
}

#[cfg(feature = "ristretto255")]
impl Suite for Ristretto255Sha512 {
    const CURVE: Curve = Curve::Ristretto255;
    type Vss = crate::vss::Ristretto255;

    fn wrap<F: Family>(x: F::Of<Self>) -> ByCurve<F> {
        ByCurve::Ristretto255(x)
    }

    fn get<F: Family>(x: &ByCurve<F>) -> Option<&F::Of<Self>> {
        match x {
            ByCurve::Ristretto255(v) => Some(v),
            #[allow(unreachable_patterns)] // a build of one curve
            _ => None,
        }
    }

    fn scalar_from_u64(x: u64) -> Scalar<Self> {
        curve25519_dalek::Scalar::from(x)
    }

    fn wipe(s: &mut Scalar<Self>) {
        zeroize::Zeroize::zeroize(s);
    }
}

#[cfg(feature = "secp256k1")]
impl Suite for Secp256K1Sha256TR {
    const CURVE: Curve = Curve::Secp256k1;
    type Vss = crate::vss::Secp256k1;

    fn wrap<F: Family>(x: F::Of<Self>) -> ByCurve<F> {
        ByCurve::Secp256k1(x)
    }

    fn get<F: Family>(x: &ByCurve<F>) -> Option<&F::Of<Self>> {
        match x {
            ByCurve::Secp256k1(v) => Some(v),
            #[allow(unreachable_patterns)] // a build of one curve
            _ => None,
        }
    }

    fn scalar_from_u64(x: u64) -> Scalar<Self> {
        k256::Scalar::from(x)
    }

    fn wipe(s: &mut Scalar<Self>) {
        zeroize::Zeroize::zeroize(s);
    }

    fn dkg_negates(group_key: &Element<Self>) -> bool {
        use k256::elliptic_curve::point::AffineCoordinates;
        group_key.to_affine().y_is_odd().into()
    }
}

// ---------------------------------------------------------------------------------------
// Conversions between PartyId, frost identifiers, group elements and scalars.

/// The frost identifier of a party: the scalar `party` (RFC 9591 §4.1 identifiers are the
/// Shamir x-coordinates).
pub(crate) fn ident<C: Suite>(party: PartyId) -> Result<Identifier<C>, Error> {
    Identifier::<C>::try_from(party.get()).map_err(|_| Error::Internal("identifier"))
}

/// The party, among `parties`, whose identifier is `id`.
pub(crate) fn party_of<C: Suite>(
    id: &Identifier<C>,
    parties: impl IntoIterator<Item = PartyId>,
) -> Option<PartyId> {
    parties
        .into_iter()
        .find(|p| ident::<C>(*p).is_ok_and(|i| i == *id))
}

/// Maps frost culprits (identifiers) to parties.
pub(crate) fn parties_of<C: Suite>(ids: &[Identifier<C>], parties: &[PartyId]) -> Vec<PartyId> {
    ids.iter()
        .filter_map(|id| party_of::<C>(id, parties.iter().copied()))
        .collect()
}

/// A party's Shamir x-coordinate as a scalar.
pub(crate) fn x_of<C: Suite>(party: PartyId) -> Scalar<C> {
    C::scalar_from_u64(u64::from(party.get()))
}

/// The canonical encoding of a group element (fails for the identity).
pub(crate) fn element_bytes<C: Suite>(e: &Element<C>) -> Result<Vec<u8>, Error> {
    <C::Group as Group>::serialize(e)
        .map(|s| s.as_ref().to_vec())
        .map_err(|_| Error::Internal("identity element"))
}

/// Decodes a canonical, non-identity, prime-order group element.
pub(crate) fn element_from_bytes<C: Suite>(bytes: &[u8]) -> Result<Element<C>, wire::Error> {
    let ser = <C::Group as Group>::Serialization::try_from(bytes)
        .map_err(|_| wire::Error::InvalidValue("group element length"))?;
    <C::Group as Group>::deserialize(&ser).map_err(|_| wire::Error::InvalidValue("group element"))
}

// ---------------------------------------------------------------------------------------
// Framing: magic ‖ u16 version ‖ u8 curve ‖ body.

/// A writer that starts a Lens object: magic, version, curve byte.
pub(crate) fn frame(magic: &[u8; 4], curve: Curve) -> Writer {
    let mut w = Writer::with_header(magic, VERSION);
    w.u8(curve.to_byte());
    w
}

/// Opens a Lens object: checks magic, version and that the curve byte names `expected`.
pub(crate) fn open<'a>(magic: &[u8; 4], expected: Curve, bytes: &'a [u8]) -> Result<Reader<'a>, Error> {
    let mut r = Reader::new(bytes);
    r.header(magic, VERSION)?;
    let found = Curve::from_byte(r.u8()?)?;
    if found != expected {
        return Err(Error::WrongCurve { expected, found });
    }
    Ok(r)
}

/// Writes a frost-serialized component with a u32 length prefix.
pub(crate) fn put_component(w: &mut Writer, bytes: &[u8]) {
    w.bytes(bytes);
}

/// Reads a u32-length-prefixed frost-serialized component and decodes it strictly: the
/// component must re-serialize to exactly the bytes read (frost's postcard decoder
/// ignores trailing bytes and would accept some non-canonical encodings otherwise).
pub(crate) fn read_component<T>(
    r: &mut Reader<'_>,
    parse: impl FnOnce(&[u8]) -> Option<T>,
    reserialize: impl FnOnce(&T) -> Option<Vec<u8>>,
) -> Result<T, wire::Error> {
    let bytes = r.bytes(MAX_COMPONENT)?;
    let value = parse(bytes).ok_or(wire::Error::InvalidValue("frost encoding"))?;
    let again =
        zeroize::Zeroizing::new(reserialize(&value).ok_or(wire::Error::InvalidValue("frost encoding"))?);
    // Constant time: the component may be a secret share.
    if bool::from(subtle::ConstantTimeEq::ct_eq(again.as_slice(), bytes)) {
        Ok(value)
    } else if bytes.len() > again.len()
        && bool::from(subtle::ConstantTimeEq::ct_eq(
            &bytes[..again.len()],
            again.as_slice(),
        ))
    {
        Err(wire::Error::TrailingBytes {
            extra: bytes.len() - again.len(),
        })
    } else {
        Err(wire::Error::InvalidValue("non-canonical frost encoding"))
    }
}

/// Reads a party list: u32 count, then strictly increasing u16 ids.
pub(crate) fn read_parties(r: &mut Reader<'_>) -> Result<Vec<PartyId>, Error> {
    let n = r.count(usize::from(u16::MAX), 2)?;
    let mut out: Vec<PartyId> = Vec::with_capacity(n);
    for _ in 0..n {
        let p = PartyId::read(r)?;
        if let Some(last) = out.last() {
            if *last == p {
                return Err(Error::DuplicateSigner { party: p });
            }
            if *last > p {
                return Err(wire::Error::InvalidValue("party list not sorted").into());
            }
        }
        out.push(p);
    }
    Ok(out)
}

/// Writes a party list (sorted, as [`read_parties`] requires).
pub(crate) fn write_parties(w: &mut Writer, parties: &[PartyId]) {
    w.u32(crate::wire::len_u32(parties.len()));
    for p in parties {
        p.write(w);
    }
}

/// Maps a frost error into a Lens error, naming parties among `parties`.
pub(crate) fn frost_err<C: Suite>(e: frost_core::Error<C>, parties: &[PartyId]) -> Error {
    use frost_core::Error as F;
    match e {
        F::InvalidSignatureShare { culprits } => Error::InvalidSignatureShare {
            culprits: parties_of::<C>(&culprits, parties),
        },
        F::InvalidSecretShare { culprit } => Error::InvalidSecretShare {
            culprit: culprit.and_then(|c| party_of::<C>(&c, parties.iter().copied())),
        },
        F::InvalidSignature => Error::InvalidSignature,
        F::MalformedSignature
        | F::MalformedVerifyingKey
        | F::MalformedSigningKey
        | F::MalformedIdentifier
        | F::InvalidCoefficient
        | F::FieldError(_)
        | F::GroupError(_)
        | F::DeserializationError => Error::Decode(wire::Error::InvalidValue("frost encoding")),
        F::IdentityCommitment => Error::Decode(wire::Error::InvalidValue("identity commitment")),
        _ => Error::Internal("unexpected frost error"),
    }
}
