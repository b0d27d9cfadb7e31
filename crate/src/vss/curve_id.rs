//! The supported groups as a runtime value, and the one place where a runtime value is
//! matched into a [`Curve`] type ([`with_curve!`](crate::vss::with_curve)).
//!
//! Byte-level layers (WASM, JS, the CLI) and wire formats name a group by its byte;
//! generic code is written once over [`Curve`] and entered through `with_curve!`.

use core::any::Any;
use core::fmt;

use crate::wire;

/// A supported group, by value. The wire byte is [`Curve::ID`](super::Curve::ID).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
///
/// A build has the groups of its curve features (`threshold` has all three; a one-curve
/// WebAssembly module has one): the bytes of the others are [`wire::Error::UnknownMode`].
pub enum CurveId {
    /// The prime-order subgroup of Ed25519 (RFC 8032 encodings). Byte `0x01`.
    #[cfg(feature = "ed25519")]
    Ed25519,
    /// secp256k1 (SEC 1 compressed encodings). Byte `0x02`.
    #[cfg(feature = "secp256k1")]
    Secp256k1,
    /// Ristretto255 (RFC 9496). Byte `0x03`.
    #[cfg(feature = "ristretto255")]
    Ristretto255,
}

/// How many groups this build has.
const COUNT: usize = cfg!(feature = "ed25519") as usize
    + cfg!(feature = "secp256k1") as usize
    + cfg!(feature = "ristretto255") as usize;

impl CurveId {
    /// All groups of this build, in wire-byte order.
    pub const ALL: [CurveId; COUNT] = [
        #[cfg(feature = "ed25519")]
        CurveId::Ed25519,
        #[cfg(feature = "secp256k1")]
        CurveId::Secp256k1,
        #[cfg(feature = "ristretto255")]
        CurveId::Ristretto255,
    ];

    /// The wire byte: `0x01` Ed25519, `0x02` secp256k1, `0x03` Ristretto255.
    pub const fn to_byte(self) -> u8 {
        match self {
            #[cfg(feature = "ed25519")]
            CurveId::Ed25519 => 0x01,
            #[cfg(feature = "secp256k1")]
            CurveId::Secp256k1 => 0x02,
            #[cfg(feature = "ristretto255")]
            CurveId::Ristretto255 => 0x03,
        }
    }

    /// The group with wire byte `b`.
    ///
    /// # Errors
    /// [`wire::Error::UnknownMode`] for a byte that names no group of this build.
    pub const fn from_byte(b: u8) -> Result<CurveId, wire::Error> {
        match b {
            #[cfg(feature = "ed25519")]
            0x01 => Ok(CurveId::Ed25519),
            #[cfg(feature = "secp256k1")]
            0x02 => Ok(CurveId::Secp256k1),
            #[cfg(feature = "ristretto255")]
            0x03 => Ok(CurveId::Ristretto255),
            other => Err(wire::Error::UnknownMode(other)),
        }
    }

    /// A short lower-case name (`"ed25519"`, `"secp256k1"`, `"ristretto255"`).
    pub const fn name(self) -> &'static str {
        match self {
            #[cfg(feature = "ed25519")]
            CurveId::Ed25519 => "ed25519",
            #[cfg(feature = "secp256k1")]
            CurveId::Secp256k1 => "secp256k1",
            #[cfg(feature = "ristretto255")]
            CurveId::Ristretto255 => "ristretto255",
        }
    }

    /// The group named `name` (as [`CurveId::name`] spells it).
    pub fn from_name(name: &str) -> Option<CurveId> {
        CurveId::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Bytes of an encoded group element: 32, or 33 (SEC 1 compressed) for secp256k1.
    pub const fn element_len(self) -> usize {
        match self {
            #[cfg(feature = "secp256k1")]
            CurveId::Secp256k1 => 33,
            #[allow(unreachable_patterns)] // a build with secp256k1 alone
            _ => 32,
        }
    }

    /// Bytes of an encoded scalar (32 for every group).
    pub const fn scalar_len(self) -> usize {
        32
    }
}

impl fmt::Display for CurveId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Enters generic code: binds `$C` to the [`Curve`](crate::vss::Curve) type of a runtime
/// [`CurveId`] and evaluates the body with it.
macro_rules! with_curve {
    ($id:expr, $C:ident => $body:expr) => {
        match $id {
            #[cfg(feature = "ed25519")]
            $crate::vss::CurveId::Ed25519 => {
                type $C = $crate::vss::Ed25519;
                $body
            }
            #[cfg(feature = "secp256k1")]
            $crate::vss::CurveId::Secp256k1 => {
                type $C = $crate::vss::Secp256k1;
                $body
            }
            #[cfg(feature = "ristretto255")]
            $crate::vss::CurveId::Ristretto255 => {
                type $C = $crate::vss::Ristretto255;
                $body
            }
        }
    };
}
pub(crate) use with_curve;

/// `x` as a `U` when `T` and `U` are the same type, else `x` back: how a curve-generic
/// value is taken out of a runtime-curve enum without a conversion trait per type.
pub(crate) fn cast<T: Any, U: Any>(x: T) -> Result<U, T> {
    let mut slot = Some(x);
    let any: &mut dyn Any = &mut slot;
    let taken = any.downcast_mut::<Option<U>>().and_then(Option::take);
    match (taken, slot) {
        (Some(u), _) => Ok(u),
        (None, Some(x)) => Err(x),
        // The downcast succeeded only if T = U, and then `take` found the `Some` it holds.
        (None, None) => unreachable!("a successful downcast takes the value"),
    }
}

/// `x` as a `&U` when `T` and `U` are the same type.
pub(crate) fn cast_ref<T: Any, U: Any>(x: &T) -> Option<&U> {
    let any: &dyn Any = x;
    any.downcast_ref::<U>()
}
