//! Bad input to ML-DSA: every result is a typed error, never a panic and never `Ok`.
//!
//! For each parameter set: every truncation and a one-byte extension of the public key, the
//! signature and the secret key (`InvalidLength` with the exact lengths); 200 single-bit flips
//! of a signature (`InvalidSignature`) and of a public key (an error); a 256-byte context
//! (`ContextTooLong`); s1/s2 coefficients outside [−η, η] in a secret key
//! (`MalformedSecretKey`, or at least no panic); hints with unordered or repeated indices,
//! non-zero padding, decreasing or too large counts, and z outside (−(γ1−β), γ1−β)
//! (`InvalidSignature`). Each hand-made malformed signature is also shown to be rejected by
//! every peer implementation, so the mutation itself is known to be invalid.
//!
//! Every call goes through `catch_unwind`; panics are reported as failures with the input.

use crate::common;

use common::peers::peers;
use common::{info, no_panic, quiet_panics, SetInfo, Stream, MODES};
use quasar_pq::mldsa::{self, hazmat, Error, Mode, Params, Signature, SigningKey, VerifyingKey};

const MSG: &[u8] = b"quasar-pq bad-input test message";
const CTX: &[u8] = b"bad-input";

struct Fixture {
    mode: Mode,
    t: SetInfo,
    pk: Vec<u8>,
    sk: Vec<u8>,
    sig: Vec<u8>,
}

fn fixture(mode: Mode) -> Fixture {
    let t = info(mode);
    let seed = Stream::new(&format!("bad-input/{}/seed", t.name)).array();
    let (pk, sk) = mldsa::keygen(mode, &seed);
    let sig = mldsa::sign(mode, &sk, MSG, CTX, None).expect("sign the fixture");
    mldsa::verify(mode, &pk, MSG, CTX, &sig).expect("fixture verifies");
    Fixture {
        mode,
        t,
        pk,
        sk: sk.to_vec(),
        sig,
    }
}

/// Collects failures over many probes, then fails once with all of them.
#[derive(Default)]
struct Failures(Vec<String>, usize);

impl Failures {
    fn check(&mut self, ok: Result<(), String>) {
        self.1 += 1;
        if let Err(e) = ok {
            self.0.push(e);
        }
    }
    fn finish(self, what: &str) {
        assert!(self.1 > 0, "{what}: nothing checked");
        assert!(
            self.0.is_empty(),
            "{what}: {} of {} probes failed:\n  {}",
            self.0.len(),
            self.1,
            self.0.iter().take(40).cloned().collect::<Vec<_>>().join("\n  ")
        );
        eprintln!("{what}: {} probes passed", self.1);
    }
}

/// `r` (computed without panicking) must be `Err(InvalidLength { expected, got, .. })`.
fn want_len<T: core::fmt::Debug>(
    ctx: &str,
    r: Result<Result<T, Error>, String>,
    expected: usize,
    got: usize,
) -> Result<(), String> {
    match r {
        Err(panic) => Err(format!("{ctx}: PANIC {panic}")),
        Ok(Err(Error::InvalidLength {
            expected: e, got: g, ..
        })) if e == expected && g == got => Ok(()),
        Ok(other) => Err(format!(
            "{ctx}: got {other:?}, want Err(InvalidLength {{ expected: {expected}, got: {got} }})"
        )),
    }
}

/// `r` (computed without panicking) must be exactly `Err(want)`.
fn want_err<T: core::fmt::Debug>(
    ctx: &str,
    r: Result<Result<T, Error>, String>,
    want: &Error,
) -> Result<(), String> {
    match r {
        Err(panic) => Err(format!("{ctx}: PANIC {panic}")),
        Ok(Err(e)) if e == *want => Ok(()),
        Ok(other) => Err(format!("{ctx}: got {other:?}, want Err({want:?})")),
    }
}

/// `r` (computed without panicking) must be some `Err`.
fn want_any_err<T: core::fmt::Debug>(ctx: &str, r: Result<Result<T, Error>, String>) -> Result<(), String> {
    match r {
        Err(panic) => Err(format!("{ctx}: PANIC {panic}")),
        Ok(Err(_)) => Ok(()),
        Ok(Ok(v)) => Err(format!("{ctx}: got Ok({v:?}), want an error")),
    }
}

/// All lengths 0..=n+1 except n, with the candidate bytes (prefixes, or `b` plus one byte).
fn wrong_lengths(b: &[u8]) -> impl Iterator<Item = Vec<u8>> + '_ {
    (0..=b.len() + 1).filter(|l| *l != b.len()).map(move |l| {
        if l <= b.len() {
            b[..l].to_vec()
        } else {
            let mut v = b.to_vec();
            v.push(0);
            v
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Lengths
// ---------------------------------------------------------------------------------------------

fn public_key_lengths<P: Params>(f: &Fixture) {
    let mut fails = Failures::default();
    let mu = [0u8; 64];
    quiet_panics(|| {
        for pk in wrong_lengths(&f.pk) {
            let (n, want) = (pk.len(), f.t.pk_len);
            let c = format!("{} pk of {n} bytes", f.t.name);
            fails.check(want_len(
                &format!("{c}: verify"),
                no_panic(|| mldsa::verify(f.mode, &pk, MSG, CTX, &f.sig)),
                want,
                n,
            ));
            fails.check(want_len(
                &format!("{c}: verify_internal"),
                no_panic(|| hazmat::verify_internal(f.mode, &pk, MSG, &f.sig)),
                want,
                n,
            ));
            fails.check(want_len(
                &format!("{c}: verify_mu"),
                no_panic(|| hazmat::verify_mu(f.mode, &pk, &mu, &f.sig)),
                want,
                n,
            ));
            fails.check(want_len(
                &format!("{c}: compute_mu"),
                no_panic(|| hazmat::compute_mu(f.mode, &pk, MSG, CTX)),
                want,
                n,
            ));
            fails.check(want_len(
                &format!("{c}: VerifyingKey::from_bytes"),
                no_panic(|| VerifyingKey::<P>::from_bytes(&pk).map(|_| ())),
                want,
                n,
            ));
            fails.check(want_len(
                &format!("{c}: VerifyingKey::try_from"),
                no_panic(|| VerifyingKey::<P>::try_from(pk.as_slice()).map(|_| ())),
                want,
                n,
            ));
        }
    });
    fails.finish(&format!("{}: public key lengths", f.t.name));
}

fn signature_lengths<P: Params>(f: &Fixture) {
    let mut fails = Failures::default();
    let vk = VerifyingKey::<P>::from_bytes(&f.pk).expect("fixture pk");
    let mu = hazmat::compute_mu(f.mode, &f.pk, MSG, CTX).expect("mu");
    quiet_panics(|| {
        for sig in wrong_lengths(&f.sig) {
            let (n, want) = (sig.len(), f.t.sig_len);
            let c = format!("{} signature of {n} bytes", f.t.name);
            fails.check(want_len(
                &format!("{c}: verify"),
                no_panic(|| mldsa::verify(f.mode, &f.pk, MSG, CTX, &sig)),
                want,
                n,
            ));
            fails.check(want_len(
                &format!("{c}: verify_internal"),
                no_panic(|| hazmat::verify_internal(f.mode, &f.pk, MSG, &sig)),
                want,
                n,
            ));
            fails.check(want_len(
                &format!("{c}: verify_mu"),
                no_panic(|| hazmat::verify_mu(f.mode, &f.pk, &mu, &sig)),
                want,
                n,
            ));
            fails.check(want_len(
                &format!("{c}: Signature::try_from"),
                no_panic(|| Signature::<P>::try_from(sig.as_slice()).and_then(|s| vk.verify(MSG, CTX, &s))),
                want,
                n,
            ));
        }
    });
    fails.finish(&format!("{}: signature lengths", f.t.name));
}

fn secret_key_lengths<P: Params>(f: &Fixture) {
    let mut fails = Failures::default();
    let rnd = [7u8; 32];
    let mu = [0u8; 64];
    quiet_panics(|| {
        for sk in wrong_lengths(&f.sk) {
            let (n, want) = (sk.len(), f.t.sk_len);
            let c = format!("{} sk of {n} bytes", f.t.name);
            fails.check(want_len(
                &format!("{c}: sign"),
                no_panic(|| mldsa::sign(f.mode, &sk, MSG, CTX, None)),
                want,
                n,
            ));
            fails.check(want_len(
                &format!("{c}: sign hedged"),
                no_panic(|| mldsa::sign(f.mode, &sk, MSG, CTX, Some(&rnd))),
                want,
                n,
            ));
            fails.check(want_len(
                &format!("{c}: sign_internal"),
                no_panic(|| hazmat::sign_internal(f.mode, &sk, MSG, &rnd)),
                want,
                n,
            ));
            fails.check(want_len(
                &format!("{c}: sign_mu"),
                no_panic(|| hazmat::sign_mu(f.mode, &sk, &mu, &rnd)),
                want,
                n,
            ));
            fails.check(want_len(
                &format!("{c}: SigningKey::from_bytes"),
                no_panic(|| SigningKey::<P>::from_bytes(&sk).map(|_| ())),
                want,
                n,
            ));
        }
    });
    fails.finish(&format!("{}: secret key lengths", f.t.name));
}

#[test]
fn truncated_and_extended_public_keys() {
    for mode in MODES {
        let f = fixture(mode);
        with_params!(mode, public_key_lengths(&f));
    }
}

#[test]
fn truncated_and_extended_signatures() {
    for mode in MODES {
        let f = fixture(mode);
        with_params!(mode, signature_lengths(&f));
    }
}

#[test]
fn wrong_length_secret_keys() {
    for mode in MODES {
        let f = fixture(mode);
        with_params!(mode, secret_key_lengths(&f));
    }
}

/// A key or signature of one set, given to another, is a length error (the sizes all differ).
#[test]
fn wrong_mode() {
    let fixtures: Vec<Fixture> = MODES.iter().map(|m| fixture(*m)).collect();
    for f in &fixtures {
        for other in MODES.iter().filter(|m| **m != f.mode) {
            let o = info(*other);
            assert!(matches!(
                mldsa::verify(*other, &f.pk, MSG, CTX, &f.sig),
                Err(Error::InvalidLength { expected, got, .. }) if expected == o.pk_len && got == f.t.pk_len
            ));
            assert!(matches!(
                mldsa::sign(*other, &f.sk, MSG, CTX, None),
                Err(Error::InvalidLength { expected, got, .. }) if expected == o.sk_len && got == f.t.sk_len
            ));
        }
    }
    // Mode bytes, levels and names that name no set.
    for b in 0u8..=255 {
        let r = Mode::from_byte(b);
        match Mode::ALL.iter().find(|m| m.to_byte() == b) {
            Some(m) => assert_eq!(r, Ok(*m)),
            None => assert_eq!(r, Err(Error::UnknownMode(b))),
        }
    }
    for level in [0u16, 43, 45, 64, 66, 86, 88, 128, 256, u16::MAX] {
        assert_eq!(Mode::from_level(level), None, "level {level}");
    }
    for name in [
        "",
        "ML-DSA",
        "ML-DSA-66",
        "ml-dsa-65x",
        "ML-KEM-768",
        "Dilithium3",
        "ML-DSA-65 ",
    ] {
        assert_eq!(Mode::from_name(name), None, "name {name:?}");
    }
    for m in MODES {
        assert_eq!(Mode::from_level(m.level()), Some(m));
        assert_eq!(Mode::from_name(info(m).name), Some(m));
    }
}

// ---------------------------------------------------------------------------------------------
// Bit flips
// ---------------------------------------------------------------------------------------------

const FLIPS: usize = 200;

#[test]
fn signature_bit_flips_are_invalid_signatures() {
    for mode in MODES {
        let f = fixture(mode);
        let mut s = Stream::new(&format!("bad-input/{}/sig-flips", f.t.name));
        let mut fails = Failures::default();
        quiet_panics(|| {
            for _ in 0..FLIPS {
                let (byte, bit) = (s.below(f.sig.len()), s.below(8));
                let mut sig = f.sig.clone();
                sig[byte] ^= 1 << bit;
                fails.check(want_err(
                    &format!("{} signature bit {bit} of byte {byte}", f.t.name),
                    no_panic(|| mldsa::verify(mode, &f.pk, MSG, CTX, &sig)),
                    &Error::InvalidSignature,
                ));
            }
        });
        fails.finish(&format!("{}: {FLIPS} signature bit flips", f.t.name));
    }
}

#[test]
fn public_key_bit_flips_are_rejected() {
    for mode in MODES {
        let f = fixture(mode);
        let mut s = Stream::new(&format!("bad-input/{}/pk-flips", f.t.name));
        let mut fails = Failures::default();
        let mut invalid_signature = 0;
        quiet_panics(|| {
            for _ in 0..FLIPS {
                let (byte, bit) = (s.below(f.pk.len()), s.below(8));
                let mut pk = f.pk.clone();
                pk[byte] ^= 1 << bit;
                let r = no_panic(|| mldsa::verify(mode, &pk, MSG, CTX, &f.sig));
                if matches!(r, Ok(Err(Error::InvalidSignature))) {
                    invalid_signature += 1;
                }
                fails.check(want_any_err(
                    &format!("{} pk bit {bit} of byte {byte}", f.t.name),
                    r,
                ));
            }
        });
        eprintln!(
            "{}: {invalid_signature}/{FLIPS} pk flips gave InvalidSignature",
            f.t.name
        );
        fails.finish(&format!("{}: {FLIPS} public key bit flips", f.t.name));
    }
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

fn context_limits<P: Params>(f: &Fixture) {
    let mut fails = Failures::default();
    let rnd = [9u8; 32];
    let sk = SigningKey::<P>::from_bytes(&f.sk).expect("fixture sk");
    let vk = VerifyingKey::<P>::from_bytes(&f.pk).expect("fixture pk");
    for len in [256usize, 257, 1000, 65536] {
        let ctx = vec![0xA5u8; len];
        let want = Error::ContextTooLong { len };
        let c = format!("{} ctx of {len} bytes", f.t.name);
        fails.check(want_err(
            &format!("{c}: sign"),
            no_panic(|| mldsa::sign(f.mode, &f.sk, MSG, &ctx, None)),
            &want,
        ));
        fails.check(want_err(
            &format!("{c}: sign hedged"),
            no_panic(|| mldsa::sign(f.mode, &f.sk, MSG, &ctx, Some(&rnd))),
            &want,
        ));
        fails.check(want_err(
            &format!("{c}: verify"),
            no_panic(|| mldsa::verify(f.mode, &f.pk, MSG, &ctx, &f.sig)),
            &want,
        ));
        fails.check(want_err(
            &format!("{c}: compute_mu"),
            no_panic(|| hazmat::compute_mu(f.mode, &f.pk, MSG, &ctx)),
            &want,
        ));
        fails.check(want_err(
            &format!("{c}: SigningKey::sign"),
            no_panic(|| sk.sign(MSG, &ctx, &rnd)),
            &want,
        ));
        fails.check(want_err(
            &format!("{c}: sign_deterministic"),
            no_panic(|| sk.sign_deterministic(MSG, &ctx)),
            &want,
        ));
        fails.check(want_err(
            &format!("{c}: VerifyingKey::verify"),
            no_panic(|| {
                vk.verify(
                    MSG,
                    &ctx,
                    &Signature::<P>::try_from(f.sig.as_slice()).expect("fixture sig"),
                )
            }),
            &want,
        ));
    }
    // 255 bytes is the largest context and works end to end.
    let ctx = [0x5Au8; 255];
    let sig = mldsa::sign(f.mode, &f.sk, MSG, &ctx, None).expect("255-byte context signs");
    fails.check(mldsa::verify(f.mode, &f.pk, MSG, &ctx, &sig).map_err(|e| format!("255-byte ctx: {e:?}")));
    fails.check(
        vk.verify(
            MSG,
            &ctx,
            &Signature::<P>::try_from(sig.as_slice()).expect("signature length"),
        )
        .map_err(|e| format!("255-byte ctx (typed): {e:?}")),
    );
    fails.finish(&format!("{}: context limits", f.t.name));
}

#[test]
fn context_too_long() {
    for mode in MODES {
        let f = fixture(mode);
        with_params!(mode, context_limits(&f));
    }
}

// ---------------------------------------------------------------------------------------------
// Malformed secret keys
// ---------------------------------------------------------------------------------------------

/// Writes `value` into `nbits` bits at `bit` (FIPS 204 BitPack order: little-endian bits).
fn write_bits(buf: &mut [u8], bit: usize, nbits: usize, value: u32) {
    for i in 0..nbits {
        let (byte, off) = ((bit + i) / 8, (bit + i) % 8);
        if value >> i & 1 == 1 {
            buf[byte] |= 1 << off;
        } else {
            buf[byte] &= !(1 << off);
        }
    }
}

fn read_bits(buf: &[u8], bit: usize, nbits: usize) -> u32 {
    (0..nbits)
        .map(|i| u32::from(buf[(bit + i) / 8] >> ((bit + i) % 8) & 1) << i)
        .sum()
}

fn malformed_secret_keys<P: Params>(f: &Fixture) {
    let t = f.t;
    let eb = t.eta_bits();
    let n_s1 = t.l * 256;
    let n_s2 = t.k * 256;
    // Packed codes b encode η − b; valid codes are 0..=2η.
    let bad_codes: Vec<u32> = (2 * t.eta + 1..(1 << eb)).collect();
    let mut probes = Vec::new();
    for (part, off, n) in [("s1", t.s1_offset(), n_s1), ("s2", t.s2_offset(), n_s2)] {
        for (which, idx) in [("first", 0), ("middle", n / 2 + 3), ("last", n - 1)] {
            for &code in &bad_codes {
                let mut sk = f.sk.clone();
                assert!(
                    read_bits(&sk, off * 8 + idx * eb, eb) <= 2 * t.eta,
                    "fixture coefficient in range"
                );
                write_bits(&mut sk, off * 8 + idx * eb, eb, code);
                probes.push((format!("{} {part} {which} coefficient code {code}", t.name), sk));
            }
        }
    }
    let mut fails = Failures::default();
    let mut malformed = 0usize;
    let mut accepted = Vec::new();
    quiet_panics(|| {
        for (c, sk) in &probes {
            for (op, r) in [
                (
                    "sign",
                    no_panic(|| mldsa::sign(f.mode, sk, MSG, CTX, None).map(|_| ())),
                ),
                (
                    "sign_internal",
                    no_panic(|| hazmat::sign_internal(f.mode, sk, MSG, &[1u8; 32]).map(|_| ())),
                ),
                (
                    "SigningKey::from_bytes",
                    no_panic(|| SigningKey::<P>::from_bytes(sk).map(|_| ())),
                ),
            ] {
                match r {
                    Err(p) => fails.check(Err(format!("{c}: {op}: PANIC {p}"))),
                    Ok(Err(Error::MalformedSecretKey)) => {
                        malformed += 1;
                        fails.check(Ok(()));
                    }
                    Ok(Ok(())) => {
                        accepted.push(format!("{c}: {op}"));
                        fails.check(Ok(()));
                    }
                    Ok(Err(e)) => fails.check(Err(format!("{c}: {op}: got {e:?}, want MalformedSecretKey"))),
                }
            }
        }
    });
    if !accepted.is_empty() {
        eprintln!(
            "NOTE {}: {} malformed-sk probes returned Ok (no panic, but not MalformedSecretKey), e.g. {}",
            t.name,
            accepted.len(),
            accepted[0]
        );
    }
    eprintln!(
        "{}: {malformed}/{} malformed-sk probes gave MalformedSecretKey",
        t.name,
        probes.len() * 3
    );
    fails.finish(&format!("{}: out-of-range s1/s2 coefficients", t.name));
}

#[test]
fn secret_key_with_out_of_range_coefficients() {
    for mode in MODES {
        let f = fixture(mode);
        with_params!(mode, malformed_secret_keys(&f));
    }
}

/// The strict reading: every out-of-range s1/s2 coefficient is `MalformedSecretKey` (the
/// test above only demands "no panic, no other error").
#[test]
fn secret_key_with_out_of_range_coefficients_is_malformed() {
    for mode in MODES {
        let f = fixture(mode);
        let t = f.t;
        let mut sk = f.sk.clone();
        write_bits(&mut sk, t.s1_offset() * 8, t.eta_bits(), (1 << t.eta_bits()) - 1);
        assert_eq!(
            no_panic(|| mldsa::sign(mode, &sk, MSG, CTX, None).map(|_| ())),
            Ok(Err(Error::MalformedSecretKey)),
            "{}: s1[0] out of range",
            t.name
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Malformed signatures: hints and z
// ---------------------------------------------------------------------------------------------

/// The hint section of a signature: ω index bytes, then k cumulative counts.
struct Hints {
    off: usize,
    omega: usize,
    counts: Vec<usize>,
}

impl Hints {
    fn of(t: &SetInfo, sig: &[u8]) -> Self {
        let off = t.hint_offset();
        assert_eq!(off + t.omega + t.k, sig.len(), "{}: signature layout", t.name);
        let counts = (0..t.k).map(|i| sig[off + t.omega + i] as usize).collect();
        Hints {
            off,
            omega: t.omega,
            counts,
        }
    }
    fn total(&self) -> usize {
        *self.counts.last().expect("k > 0")
    }
    /// (start, end) of polynomial i's indices within the index bytes.
    fn range(&self, i: usize) -> (usize, usize) {
        (if i == 0 { 0 } else { self.counts[i - 1] }, self.counts[i])
    }
}

/// A deterministic signature of the fixture key over a message chosen so that some polynomial
/// has at least two hints and the hint list is not full (so every mutation below applies).
fn hinted_signature(f: &Fixture) -> (Vec<u8>, Vec<u8>) {
    for i in 0u32..200 {
        let msg = format!("hinted signature {i}").into_bytes();
        let sig = mldsa::sign(f.mode, &f.sk, &msg, CTX, None).expect("sign");
        let h = Hints::of(&f.t, &sig);
        if h.total() < h.omega && (0..f.t.k).any(|p| h.range(p).1 - h.range(p).0 >= 2) {
            return (msg, sig);
        }
    }
    panic!(
        "{}: no signature with a usable hint layout in 200 tries",
        f.t.name
    );
}

fn malformed_signatures(f: &Fixture) -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let t = f.t;
    let (msg, sig) = hinted_signature(f);
    let h = Hints::of(&t, &sig);
    let p = (0..t.k)
        .find(|p| h.range(*p).1 - h.range(*p).0 >= 2)
        .expect("poly with 2 hints");
    let (a, _) = h.range(p);
    let mut out: Vec<(String, Vec<u8>)> = Vec::new();

    // Indices of one polynomial out of order, and repeated.
    let mut s = sig.clone();
    s.swap(h.off + a, h.off + a + 1);
    out.push((format!("hint indices of poly {p} swapped"), s));
    let mut s = sig.clone();
    s[h.off + a + 1] = s[h.off + a];
    out.push((format!("hint index of poly {p} repeated"), s));
    // Non-zero padding after the last index.
    for v in [1u8, 0xFF] {
        let mut s = sig.clone();
        s[h.off + h.total()] = v;
        out.push((format!("hint padding byte {} = {v:#04x}", h.total()), s));
        let mut s = sig.clone();
        s[h.off + h.omega - 1] = v;
        out.push((format!("last hint padding byte = {v:#04x}"), s));
    }
    // Counts: more than ω in total, one count past ω, and a decreasing count.
    let mut s = sig.clone();
    s[h.off + h.omega + t.k - 1] = u8::try_from(h.omega + 1).expect("ω + 1 fits a byte");
    out.push((format!("total hint count {} > ω = {}", h.omega + 1, h.omega), s));
    let mut s = sig.clone();
    s[h.off + h.omega + t.k - 1] = 0xFF;
    out.push(("total hint count 255".to_string(), s));
    let mut s = sig.clone();
    s[h.off + h.omega] = u8::try_from(h.omega + 1).expect("ω + 1 fits a byte");
    out.push((format!("first hint count {} > ω", h.omega + 1), s));
    if let Some(q) = (1..t.k).find(|q| h.counts[*q - 1] > 0) {
        let mut s = sig.clone();
        s[h.off + h.omega + q] = u8::try_from(h.counts[q - 1] - 1).expect("a count fits a byte");
        out.push((format!("hint count of poly {q} decreases"), s));
    }

    // z out of range: packed b encodes γ1 − b, valid |z| < γ1 − β.
    let zb = t.gamma1_bits as usize + 1;
    let gamma1 = 1u32 << t.gamma1_bits;
    let beta = t.beta;
    let z_bit = t.c_tilde_len * 8;
    let n_z = t.l * 256;
    for (which, idx) in [("first", 0), ("middle", n_z / 2 + 1), ("last", n_z - 1)] {
        for (label, b) in [
            ("z = γ1", 0u32),
            ("z = γ1 − β", beta),
            ("z = −(γ1 − 1)", 2 * gamma1 - 1),
            ("z = −(γ1 − β)", 2 * gamma1 - beta),
            ("b = 2^bits − 1", (1 << zb) - 1),
        ] {
            let mut s = sig.clone();
            write_bits(&mut s, z_bit + idx * zb, zb, b);
            out.push((format!("{which} z coefficient {label}"), s));
        }
    }
    out.into_iter()
        .map(|(label, s)| (format!("{}: {label}", t.name), msg.clone(), s))
        .collect()
}

#[test]
fn malformed_hints_and_out_of_range_z_are_invalid_signatures() {
    for mode in MODES {
        let f = fixture(mode);
        let cases = malformed_signatures(&f);
        assert!(
            cases.len() >= 20,
            "{}: only {} malformed signatures",
            f.t.name,
            cases.len()
        );
        let peers = peers(mode);
        let mu_of = |msg: &[u8]| hazmat::compute_mu(mode, &f.pk, msg, CTX).expect("mu");
        let mut fails = Failures::default();
        quiet_panics(|| {
            for (label, msg, sig) in &cases {
                // The mutation is real: every peer rejects it too.
                for p in &peers {
                    fails.check(if (p.verify)(&f.pk, msg, CTX, sig) {
                        Err(format!("{label}: test bug? {} accepts this signature", p.name))
                    } else {
                        Ok(())
                    });
                }
                let mu = mu_of(msg);
                fails.check(want_err(
                    &format!("{label}: verify"),
                    no_panic(|| mldsa::verify(mode, &f.pk, msg, CTX, sig)),
                    &Error::InvalidSignature,
                ));
                fails.check(want_err(
                    &format!("{label}: verify_mu"),
                    no_panic(|| hazmat::verify_mu(mode, &f.pk, &mu, sig)),
                    &Error::InvalidSignature,
                ));
            }
        });
        fails.finish(&format!("{}: {} malformed signatures", f.t.name, cases.len()));
    }
}

/// The untouched hinted signature does verify (so the rejections above are the mutations').
#[test]
fn hinted_signature_fixture_verifies() {
    for mode in MODES {
        let f = fixture(mode);
        let (msg, sig) = hinted_signature(&f);
        assert_eq!(mldsa::verify(mode, &f.pk, &msg, CTX, &sig), Ok(()));
        for p in peers(mode) {
            assert!((p.verify)(&f.pk, &msg, CTX, &sig), "{}", p.name);
        }
    }
}
