//! Up to four [`Transcript`](super::Transcript) XOFs of one tag, squeezed together in the lanes
//! of the four-way Keccak ([`super::keccak_x4`]: AVX2 / AVX-512 natively, two two-lane simd128
//! calls in WASM, scalar elsewhere). The bytes are those of the scalar
//! `Transcript::new(tag).append(…)….finalize_xof()`: cSHAKE256 with N = `"QUASAR"`, S = tag,
//! over the elements' encode_string, then right_encode(0) (the TupleHashXOF form).
//!
//! For samplers that read a known number of bytes from many independent streams (Corona's
//! Gaussian polynomials: 4 KB or 128 KB each).

use alloc::vec::Vec;

use zeroize::{Zeroize, Zeroizing};

use super::keccak_x4::{f1600x4, StateX4};
use super::{left_encode, right_encode, FUNCTION_NAME};

/// cSHAKE256's rate in bytes.
const RATE: usize = 136;

/// The padded input of one stream: bytepad(encode_string(N) ‖ encode_string(S), 136), the
/// elements' encode_string, right_encode(0), then cSHAKE's padding (0x04 … 0x80).
fn padded(tag: &str, elements: &[&[u8]], out_bits: u64) -> Zeroizing<Vec<u8>> {
    let mut buf = [0u8; 9];
    // Room for the padded header, every element with its length, and the padding: one
    // allocation (a reallocation would leave a copy of a secret input behind).
    let body: usize = elements.iter().map(|e| 9 + e.len()).sum();
    let mut out = Zeroizing::new(Vec::with_capacity(3 * RATE + body));
    out.extend_from_slice(left_encode(RATE as u64, &mut buf));
    out.extend_from_slice(left_encode(8 * FUNCTION_NAME.len() as u64, &mut buf));
    out.extend_from_slice(FUNCTION_NAME);
    out.extend_from_slice(left_encode(8 * tag.len() as u64, &mut buf));
    out.extend_from_slice(tag.as_bytes());
    let padded_len = out.len().div_ceil(RATE) * RATE;
    out.resize(padded_len, 0);
    for e in elements {
        out.extend_from_slice(left_encode(8 * e.len() as u64, &mut buf));
        out.extend_from_slice(e);
    }
    out.extend_from_slice(right_encode(out_bits, &mut buf));
    out.push(0x04);
    let padded_len = out.len().div_ceil(RATE) * RATE;
    out.resize(padded_len, 0);
    if let Some(last) = out.last_mut() {
        *last ^= 0x80;
    }
    out
}

/// `len` bytes of each stream `XOF(tag; inputs[j]…)`, for 1 ≤ `inputs.len()` ≤ 4 streams whose
/// encoded inputs have the same length (the caller's streams differ only in small fixed-width
/// fields). Secret inputs stay secret: the buffers are wiped when dropped.
pub(crate) fn xof_x4(tag: &str, inputs: &[&[&[u8]]], len: usize) -> Vec<Zeroizing<Vec<u8>>> {
    squeeze_x4(tag, inputs, len, 0)
}

/// `Transcript::finalize::<L>()` of up to four transcripts of one tag at once: the TH form,
/// with right_encode(8·L) bound in. For long public inputs of equal length (Corona's
/// per-sender digests of 615 KB commitments).
pub(crate) fn hash_x4<const L: usize>(tag: &str, inputs: &[&[&[u8]]]) -> Vec<[u8; L]> {
    squeeze_x4(tag, inputs, L, 8 * L as u64)
        .iter()
        .map(|b| {
            let mut out = [0u8; L];
            out.copy_from_slice(&b[..L]);
            out
        })
        .collect()
}

/// `Transcript::finalize` to `len` bytes of each of `inputs` (each a list of elements), in
/// order: four at a time where four in a row have elements of one length each (a session's
/// envelopes do), one lane at a time otherwise; the same bytes either way. Each output is
/// wiped when dropped (a combiner's envelope keys are secret). Natively only: WebAssembly's
/// callers hash one at a time (the Pulsar module's size budget).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn hash_each(tag: &str, inputs: &[&[&[u8]]], len: usize) -> Vec<Zeroizing<Vec<u8>>> {
    let shape = |x: &[&[u8]]| x.iter().map(|e| e.len()).collect::<Vec<usize>>();
    let mut out = Vec::with_capacity(inputs.len());
    for group in inputs.chunks(4) {
        let first = shape(group[0]);
        if group.iter().all(|x| shape(x) == first) {
            out.extend(squeeze_x4(tag, group, len, 8 * len as u64));
        } else {
            for x in group {
                out.extend(squeeze_x4(tag, core::slice::from_ref(x), len, 8 * len as u64));
            }
        }
    }
    out
}

fn squeeze_x4(tag: &str, inputs: &[&[&[u8]]], len: usize, out_bits: u64) -> Vec<Zeroizing<Vec<u8>>> {
    let active = inputs.len();
    debug_assert!((1..=4).contains(&active));
    let lanes: Vec<Zeroizing<Vec<u8>>> = inputs.iter().map(|e| padded(tag, e, out_bits)).collect();
    let blocks = lanes.first().map_or(0, |l| l.len() / RATE);
    debug_assert!(lanes.iter().all(|l| l.len() == blocks * RATE));
    let mut state: StateX4 = [[0u64; 4]; 25];
    for block in 0..blocks {
        for (lane, bytes) in lanes.iter().enumerate() {
            let chunk = &bytes[block * RATE..(block + 1) * RATE];
            for (word, w) in state.iter_mut().zip(chunk.chunks_exact(8)) {
                let mut b = [0u8; 8];
                b.copy_from_slice(w);
                word[lane] ^= u64::from_le_bytes(b);
            }
        }
        f1600x4(&mut state, active);
    }
    let mut out: Vec<Zeroizing<Vec<u8>>> = (0..active)
        // Whole blocks are squeezed, then truncated: room for them, so nothing reallocates.
        .map(|_| Zeroizing::new(Vec::with_capacity(len.div_ceil(RATE).max(1) * RATE)))
        .collect();
    loop {
        for (lane, bytes) in out.iter_mut().enumerate() {
            for word in &state[..RATE / 8] {
                bytes.extend_from_slice(&word[lane].to_le_bytes());
            }
        }
        if out[0].len() >= len {
            break;
        }
        f1600x4(&mut state, active);
    }
    for bytes in &mut out {
        bytes.truncate(len);
    }
    state.zeroize();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::Transcript;
    use sha3::digest::XofReader;

    // Exact: test bytes wrap on purpose.
    #[allow(clippy::cast_possible_truncation)]
    #[test]
    fn four_lanes_are_four_transcripts() {
        for (tag, sizes, len) in [
            ("QUASAR-CORONA-R1-v1", [32usize, 1, 1, 1], 4096usize),
            ("QUASAR-CORONA-HU-v1", [64, 64, 1, 0], 300),
            ("A", [0, 0, 0, 0], 136),
            ("QUASAR-CORONA-R1-v1", [200, 3, 1, 1], 137),
        ] {
            for active in 1..=4 {
                let inputs: Vec<Vec<Vec<u8>>> = (0..active)
                    .map(|lane| {
                        sizes
                            .iter()
                            .enumerate()
                            .map(|(i, &n)| (0..n).map(|b| (b * 7 + i * 31 + lane * 101) as u8).collect())
                            .collect()
                    })
                    .collect();
                let refs: Vec<Vec<&[u8]>> = inputs
                    .iter()
                    .map(|e| e.iter().map(Vec::as_slice).collect())
                    .collect();
                let lanes: Vec<&[&[u8]]> = refs.iter().map(Vec::as_slice).collect();
                let got = xof_x4(tag, &lanes, len);
                for (lane, elements) in refs.iter().enumerate() {
                    let mut t = Transcript::new(tag);
                    for e in elements {
                        t.append(e);
                    }
                    let mut want = alloc::vec![0u8; len];
                    t.finalize_xof().read(&mut want);
                    assert_eq!(&got[lane][..], &want[..], "{tag} lane {lane} of {active}");
                    let mut t = Transcript::new(tag);
                    for e in elements {
                        t.append(e);
                    }
                    let want: [u8; 64] = t.finalize();
                    assert_eq!(hash_x4::<64>(tag, &lanes)[lane], want, "{tag} TH lane {lane}");
                }
            }
        }
    }
}
