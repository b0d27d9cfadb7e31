//! The three signing messages, each a broadcast to the other signers.
//!
//! | field | bytes |
//! |---|---|
//! | magic: `PQC1` commitment, `PQC2` reveal, `PQC3` responses | 4 |
//! | version = 1 | 2 (BE) |
//! | ML-DSA mode | 1 |
//! | session binding (session id, committee key, signers, message) | 32 |
//! | run (1, 2, …: a new run after every failed one) | 2 (BE) |
//! | sender | 2 (BE) |
//! | body | rest |
//!
//! Bodies: `PQC1` the 32-byte commitment; `PQC2` the reveal, exactly `K·k·736` bytes of
//! 23-bit coefficients below q; `PQC3` a bitmap of ⌈K/8⌉ bytes (bit κ of byte κ/8, LSB first:
//! slot κ accepted; unused bits zero), then the FIPS 204 z encoding of each accepted slot in
//! slot order (`ℓ·32·bits_z` bytes each). Trailing bytes are refused everywhere.
//!
//! The commitment is `TupleHash256("QUASAR-PULSAR-CMT-v1"; binding, mode, T, N, K, signers,
//! run, sender, reveal)` (spec §5.3; the binding already names the session, the key, the
//! signing set and the message).

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use zeroize::Zeroizing;

use crate::hash::{tags, Transcript};
use crate::mldsa::poly::PolyVec;
use crate::mldsa::threshold as kernel;
use crate::mldsa::Mode;
use crate::party::BlameReason;
use crate::wire::{self, Reader, Writer};
use crate::PartyId;

/// Magic of a round-1 commitment.
pub const COMMIT_MAGIC: &[u8; 4] = b"PQC1";
/// Magic of a round-2 reveal.
pub const REVEAL_MAGIC: &[u8; 4] = b"PQC2";
/// Magic of a round-3 response.
pub const RESPONSE_MAGIC: &[u8; 4] = b"PQC3";
const VERSION: u16 = 1;

/// Which of the three messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// `PQC1`: the commitment to the reveal.
    Commit,
    /// `PQC2`: the K packed w vectors.
    Reveal,
    /// `PQC3`: the responses.
    Response,
}

impl Kind {
    /// The kind a magic names, if any.
    pub fn from_magic(magic: &[u8; 4]) -> Option<Kind> {
        match magic {
            COMMIT_MAGIC => Some(Kind::Commit),
            REVEAL_MAGIC => Some(Kind::Reveal),
            RESPONSE_MAGIC => Some(Kind::Response),
            _ => None,
        }
    }

    fn magic(self) -> &'static [u8; 4] {
        match self {
            Kind::Commit => COMMIT_MAGIC,
            Kind::Reveal => REVEAL_MAGIC,
            Kind::Response => RESPONSE_MAGIC,
        }
    }
}

/// The fields every signing message starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The ML-DSA level.
    pub mode: Mode,
    /// The session binding.
    pub session: [u8; 32],
    /// The run, from 1.
    pub run: u16,
    /// The sender.
    pub from: PartyId,
}

/// Encodes a message.
pub(super) fn encode(kind: Kind, header: &Header, body: &[u8]) -> Vec<u8> {
    encode_framed(kind.magic(), header, body)
}

/// Encodes a message of any committee magic (signing or key generation).
pub(super) fn encode_framed(magic: &[u8; 4], header: &Header, body: &[u8]) -> Vec<u8> {
    let mut w = Writer::with_capacity(HEADER_LEN + body.len());
    w.put(magic).u16(VERSION).u8(header.mode.to_byte());
    w.put(&header.session).u16(header.run);
    header.from.write(&mut w);
    w.put(body);
    w.into_bytes()
}

/// Bytes of the header, magic included.
pub(super) const HEADER_LEN: usize = 43;

/// Decodes a message's kind and header; the body is checked by its kind's reader.
pub(super) fn decode(bytes: &[u8]) -> Result<(Kind, Header, &[u8]), wire::Error> {
    let (magic, header, body) = decode_framed(bytes)?;
    let kind = Kind::from_magic(&magic).ok_or(wire::Error::BadMagic {
        found: magic,
        expected: *COMMIT_MAGIC,
    })?;
    Ok((kind, header, body))
}

/// Decodes the header of a message of any magic.
pub(super) fn decode_framed(bytes: &[u8]) -> Result<([u8; 4], Header, &[u8]), wire::Error> {
    let mut r = Reader::new(bytes);
    let magic: [u8; 4] = r.array()?;
    let version = r.u16()?;
    if version != VERSION {
        return Err(wire::Error::BadVersion(version));
    }
    let mode = Mode::from_byte(r.u8()?).map_err(|_| wire::Error::InvalidValue("ML-DSA mode"))?;
    let session = r.array()?;
    let run = r.u16()?;
    let from = PartyId::read(&mut r)?;
    let body = r.take(r.remaining())?;
    Ok((
        magic,
        Header {
            mode,
            session,
            run,
            from,
        },
        body,
    ))
}

/// Checks a reveal body: its exact length and coefficients below q.
pub(super) fn check_reveal(mode: Mode, reps: u16, body: &[u8]) -> Result<(), wire::Error> {
    let expected = kernel::reveal_len(mode, reps);
    if body.len() != expected {
        return Err(wire::Error::LengthMismatch {
            expected,
            got: body.len(),
        });
    }
    if !kernel::reveal_is_canonical(mode, reps, body) {
        return Err(wire::Error::InvalidValue("reveal coefficient ≥ q"));
    }
    Ok(())
}

/// Checks a commitment body.
pub(super) fn read_commitment(body: &[u8]) -> Result<[u8; 32], wire::Error> {
    let mut r = Reader::new(body);
    let c = r.array()?;
    r.finish()?;
    Ok(c)
}

/// Encodes the responses of one run.
pub(super) fn encode_responses(mode: Mode, responses: &[Option<Zeroizing<PolyVec>>]) -> Vec<u8> {
    let slot_len = kernel::slot_response_len(mode);
    let accepted = responses.iter().filter(|r| r.is_some()).count();
    let mut out = alloc::vec![0u8; responses.len().div_ceil(8) + accepted * slot_len];
    let mut at = responses.len().div_ceil(8);
    for (slot, z) in responses.iter().enumerate() {
        if let Some(z) = z {
            out[slot / 8] |= 1 << (slot % 8);
            kernel::pack_response(mode, z, &mut out[at..at + slot_len]);
            at += slot_len;
        }
    }
    out
}

/// Decodes the responses of one run of `reps` slots strictly.
pub(super) fn decode_responses(
    mode: Mode,
    reps: u16,
    body: &[u8],
) -> Result<Vec<Option<PolyVec>>, wire::Error> {
    let reps = usize::from(reps);
    let slot_len = kernel::slot_response_len(mode);
    let mut r = Reader::new(body);
    let bitmap = r.take(reps.div_ceil(8))?;
    if reps % 8 != 0 && bitmap[reps / 8] >> (reps % 8) != 0 {
        return Err(wire::Error::InvalidValue("response bitmap padding"));
    }
    let accepted = |slot: usize| bitmap[slot / 8] >> (slot % 8) & 1 == 1;
    let count = (0..reps).filter(|&s| accepted(s)).count();
    let expected = count * slot_len;
    if r.remaining() != expected {
        return Err(wire::Error::LengthMismatch {
            expected,
            got: r.remaining(),
        });
    }
    let mut out = Vec::with_capacity(reps);
    for slot in 0..reps {
        out.push(if accepted(slot) {
            Some(kernel::unpack_response(mode, r.take(slot_len)?))
        } else {
            None
        });
    }
    r.finish()?;
    Ok(out)
}

/// The round-1 commitment of `from` to `reveal` in a run.
#[allow(clippy::too_many_arguments)]
pub(super) fn commitment(
    session: &[u8; 32],
    mode: Mode,
    threshold: u8,
    parties: u8,
    reps: u16,
    signers: &[PartyId],
    run: u16,
    from: PartyId,
    reveal: &[u8],
) -> [u8; 32] {
    let mut t = Transcript::new(tags::PULSAR_COMMITTEE_CMT);
    t.append(session)
        .append(&[mode.to_byte(), threshold, parties])
        .append(&reps.to_be_bytes());
    t.append(&id_bytes(signers))
        .append(&run.to_be_bytes())
        .append(&from.get().to_be_bytes())
        .append(reveal);
    t.finalize()
}

/// A list of parties as the transcripts hash it: each id as two big-endian bytes.
pub(super) fn id_bytes(parties: &[PartyId]) -> Vec<u8> {
    parties.iter().flat_map(|p| p.get().to_be_bytes()).collect()
}

/// Keeps the first message of a kind from a sender across a party's inboxes (the inbox filter,
/// `party::inbox::unique`, sees one inbox only): a copy is a duplicate, another one an
/// equivocation (the first stays).
pub(super) fn keep<V: PartialEq>(
    map: &mut BTreeMap<PartyId, V>,
    from: PartyId,
    value: V,
) -> Result<(), BlameReason> {
    match map.get(&from) {
        None => {
            map.insert(from, value);
            Ok(())
        }
        Some(v) if *v == value => Err(BlameReason::DuplicateMessage),
        Some(_) => Err(BlameReason::ConflictingMessage),
    }
}
