//! Party identifiers.

use core::fmt;

/// A party's identifier: a non-zero u16 (zero is the secret's evaluation point).
/// It is the x-coordinate of the party's Shamir share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PartyId(u16);

impl PartyId {
    /// The identifier `id`, or `None` for zero.
    pub const fn new(id: u16) -> Option<PartyId> {
        if id == 0 {
            None
        } else {
            Some(PartyId(id))
        }
    }

    /// The numeric value (never zero).
    pub const fn get(self) -> u16 {
        self.0
    }

    /// Decodes a big-endian u16 identifier.
    ///
    /// # Errors
    /// [`crate::wire::Error::InvalidValue`] for zero, [`crate::wire::Error::TooShort`].
    pub fn read(r: &mut crate::wire::Reader<'_>) -> Result<PartyId, crate::wire::Error> {
        PartyId::new(r.u16()?).ok_or(crate::wire::Error::InvalidValue("party id 0"))
    }

    /// Encodes as a big-endian u16.
    pub fn write(self, w: &mut crate::wire::Writer) {
        w.u16(self.0);
    }
}

/// `list` sorted increasing, or the first party it lists twice (every signing set and member
/// list is checked this way before use).
#[cfg(feature = "protocols")]
pub(crate) fn sorted_distinct(list: &[PartyId]) -> Result<alloc::vec::Vec<PartyId>, PartyId> {
    let mut sorted = list.to_vec();
    crate::sort::heapsort(&mut sorted);
    match sorted.windows(2).find(|w| w[0] == w[1]) {
        Some(w) => Err(w[0]),
        None => Ok(sorted),
    }
}

/// `list` as bytes, each id u16 big-endian, in the order given: how transcripts and keys of
/// the process's sharing table list parties.
#[cfg(feature = "protocols")]
pub(crate) fn id_bytes(list: &[PartyId]) -> alloc::vec::Vec<u8> {
    let mut out = alloc::vec::Vec::with_capacity(2 * list.len());
    for p in list {
        out.extend_from_slice(&p.get().to_be_bytes());
    }
    out
}

impl TryFrom<u16> for PartyId {
    type Error = crate::wire::Error;

    fn try_from(id: u16) -> Result<Self, Self::Error> {
        PartyId::new(id).ok_or(crate::wire::Error::InvalidValue("party id 0"))
    }
}

impl fmt::Display for PartyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "party {}", self.0)
    }
}

/// Displays a list of parties for people: `parties 2, 5` (`party 2`, `nobody`).
pub struct Parties<'a>(pub &'a [PartyId]);

impl fmt::Display for Parties<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            [] => f.write_str("nobody"),
            [one] => write!(f, "{one}"),
            many => {
                f.write_str("parties ")?;
                for (i, p) in many.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", p.0)?;
                }
                Ok(())
            }
        }
    }
}
