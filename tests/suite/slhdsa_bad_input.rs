//! SLH-DSA on bad input: typed errors, never a panic.
//!
//! - every truncation and one extension of a public key, a signature, a secret key, the
//!   seeds and `addrnd` → `InvalidLength` naming the input;
//! - bit flips at a stride through the signature, and in the public key → `InvalidSignature`;
//! - a 256-byte context → `ContextTooLong`, for signing, verifying and in a batch;
//! - a batch with good and bad items → the right verdict per item;
//! - errors convert into `quasar_pq::Error` with module `"slhdsa"` and stable codes.

use crate::common;

use common::{no_panic, quiet_panics};
use quasar_pq::slhdsa::{self, hazmat, BatchItem, Error, Mode, Shake128f, Signature, SigningKey};

struct Fixture {
    mode: Mode,
    pk: Vec<u8>,
    sk: Vec<u8>,
    msg: Vec<u8>,
    ctx: Vec<u8>,
    sig: Vec<u8>,
}

fn fixture(mode: Mode, tag: u8) -> Fixture {
    let n = mode.n();
    let (pk, sk) = slhdsa::keygen(mode, &vec![tag; n], &vec![tag ^ 1; n], &vec![tag ^ 2; n]).expect("keygen");
    let msg = vec![tag; 33];
    let ctx = b"bad input".to_vec();
    let sig = slhdsa::sign(mode, &sk, &msg, &ctx, Some(&vec![tag ^ 3; n])).expect("sign");
    Fixture {
        mode,
        pk,
        sk: sk.to_vec(),
        msg,
        ctx,
        sig,
    }
}

fn is_len_error(r: &Result<(), Error>, what: &str) -> bool {
    matches!(r, Err(Error::InvalidLength { what: w, .. }) if *w == what)
}

fn truncations_and_extension(f: &Fixture) {
    let m = f.mode;
    quiet_panics(|| {
        for len in (0..f.sig.len()).chain([f.sig.len() + 1]) {
            let mut sig = f.sig.clone();
            sig.resize(len, 0xA5);
            let r = no_panic(|| slhdsa::verify(m, &f.pk, &f.msg, &f.ctx, &sig)).expect("verify panicked");
            assert!(
                is_len_error(&r, "signature"),
                "{m:?}: signature of {len} bytes gave {r:?}"
            );
            let r = no_panic(|| hazmat::verify_internal(m, &f.pk, &f.msg, &sig)).expect("panic");
            assert!(
                is_len_error(&r, "signature"),
                "{m:?}: internal, signature of {len} bytes gave {r:?}"
            );
        }
        for len in (0..f.pk.len()).chain([f.pk.len() + 1]) {
            let mut pk = f.pk.clone();
            pk.resize(len, 0x5A);
            let r = no_panic(|| slhdsa::verify(m, &pk, &f.msg, &f.ctx, &f.sig)).expect("verify panicked");
            assert!(
                is_len_error(&r, "public key"),
                "{m:?}: public key of {len} bytes gave {r:?}"
            );
        }
        for len in (0..f.sk.len()).chain([f.sk.len() + 1]) {
            let mut sk = f.sk.clone();
            sk.resize(len, 0);
            let r =
                no_panic(|| slhdsa::sign(m, &sk, &f.msg, &f.ctx, None).map(|_| ())).expect("sign panicked");
            assert!(
                is_len_error(&r, "secret key"),
                "{m:?}: secret key of {len} bytes gave {r:?}"
            );
        }
        let n = m.n();
        for len in (0..n).chain([n + 1]) {
            let x = vec![7u8; len];
            let r = no_panic(|| slhdsa::sign(m, &f.sk, &f.msg, &f.ctx, Some(&x)).map(|_| ())).expect("panic");
            assert!(
                is_len_error(&r, "randomness"),
                "{m:?}: addrnd of {len} bytes gave {r:?}"
            );
            let good = vec![7u8; n];
            for (which, args) in [
                ("SK.seed", [&x, &good, &good]),
                ("SK.prf", [&good, &x, &good]),
                ("PK.seed", [&good, &good, &x]),
            ] {
                let r = no_panic(|| slhdsa::keygen(m, args[0], args[1], args[2]).map(|_| ())).expect("panic");
                assert!(
                    is_len_error(&r, which),
                    "{m:?}: {which} of {len} bytes gave {r:?}"
                );
            }
        }
    });
}

fn bit_flips(f: &Fixture, stride: usize) {
    let m = f.mode;
    let mut flips = 0;
    for pos in (0..f.sig.len()).step_by(stride).chain([f.sig.len() - 1]) {
        let mut sig = f.sig.clone();
        sig[pos] ^= 1 << (pos % 8);
        let r = no_panic(|| slhdsa::verify(m, &f.pk, &f.msg, &f.ctx, &sig)).expect("verify panicked");
        assert_eq!(r, Err(Error::InvalidSignature), "{m:?}: flip at byte {pos}");
        flips += 1;
    }
    for pos in 0..f.pk.len() {
        let mut pk = f.pk.clone();
        pk[pos] ^= 0x80 >> (pos % 8);
        assert_eq!(
            slhdsa::verify(m, &pk, &f.msg, &f.ctx, &f.sig),
            Err(Error::InvalidSignature),
            "{m:?}: pk flip {pos}"
        );
    }
    assert!(flips > 50, "{m:?}: only {flips} flips");
    assert_eq!(slhdsa::verify(m, &f.pk, &f.msg, &f.ctx, &f.sig), Ok(()));
}

#[test]
fn shake128f_truncations_extensions_and_flips() {
    let f = fixture(Mode::Shake128f, 0x10);
    truncations_and_extension(&f);
    bit_flips(&f, 97);
}

#[test]
fn shake192s_truncations_extensions_and_flips() {
    let f = fixture(Mode::Shake192s, 0x20);
    truncations_and_extension(&f);
    bit_flips(&f, 211);
}

#[test]
fn every_set_round_trips_and_rejects_a_flip() {
    for mode in Mode::ALL {
        let f = fixture(mode, 0x30 + mode.to_byte());
        assert_eq!(f.sig.len(), mode.signature_len());
        assert_eq!(
            slhdsa::verify(mode, &f.pk, &f.msg, &f.ctx, &f.sig),
            Ok(()),
            "{mode:?}"
        );
        let mut sig = f.sig.clone();
        let mid = sig.len() / 2;
        sig[mid] ^= 4;
        assert_eq!(
            slhdsa::verify(mode, &f.pk, &f.msg, &f.ctx, &sig),
            Err(Error::InvalidSignature),
            "{mode:?}"
        );
        assert_eq!(
            slhdsa::verify(mode, &f.pk, &f.msg, b"", &f.sig),
            Err(Error::InvalidSignature),
            "{mode:?}: ctx"
        );
        // A signature of another set's length is a length error, not a verdict.
        for other in Mode::ALL
            .into_iter()
            .filter(|o| o.signature_len() != mode.signature_len())
        {
            let wrong = vec![0u8; other.signature_len()];
            assert!(is_len_error(
                &slhdsa::verify(mode, &f.pk, &f.msg, &f.ctx, &wrong),
                "signature"
            ));
        }
    }
}

#[test]
fn context_of_256_bytes_is_a_typed_error() {
    let f = fixture(Mode::Shake128f, 0x40);
    let ctx = [0u8; 256];
    assert_eq!(
        slhdsa::sign(f.mode, &f.sk, &f.msg, &ctx, None),
        Err(Error::ContextTooLong { len: 256 })
    );
    assert_eq!(
        slhdsa::verify(f.mode, &f.pk, &f.msg, &ctx, &f.sig),
        Err(Error::ContextTooLong { len: 256 })
    );
    let sk = SigningKey::<Shake128f>::from_bytes(&f.sk).expect("sk");
    assert_eq!(
        sk.sign_deterministic(&f.msg, &ctx),
        Err(Error::ContextTooLong { len: 256 })
    );
    assert_eq!(
        sk.verifying_key()
            .verify(&f.msg, &ctx, &Signature::try_from(f.sig.as_slice()).expect("sig")),
        Err(Error::ContextTooLong { len: 256 })
    );
    // 255 bytes is fine.
    let ctx = [0u8; 255];
    let sig = slhdsa::sign(f.mode, &f.sk, &f.msg, &ctx, None).expect("sign");
    assert_eq!(slhdsa::verify(f.mode, &f.pk, &f.msg, &ctx, &sig), Ok(()));
}

fn item(f: &Fixture) -> BatchItem<'_> {
    BatchItem {
        public_key: &f.pk,
        message: &f.msg,
        context: &f.ctx,
        signature: &f.sig,
    }
}

#[test]
fn batch_gives_per_item_verdicts() {
    let a = fixture(Mode::Shake128f, 0x50);
    let b = fixture(Mode::Shake128f, 0x51);
    let mut flipped = a.sig.clone();
    flipped[1000] ^= 1;
    let long_ctx = [1u8; 256];
    let short = &a.sig[..a.sig.len() - 1];
    let (a, b) = (&a, &b);
    let items = vec![
        item(a), // good
        BatchItem {
            signature: &flipped,
            ..item(a)
        }, // bit flip
        item(b), // good, another key
        BatchItem {
            public_key: &b.pk,
            ..item(a)
        }, // wrong key
        BatchItem {
            message: b"other",
            ..item(a)
        }, // wrong message
        BatchItem {
            context: b"",
            ..item(b)
        }, // wrong context
        BatchItem {
            context: &long_ctx,
            ..item(a)
        }, // context too long
        BatchItem {
            signature: short,
            ..item(a)
        }, // truncated signature
        BatchItem {
            public_key: &a.pk[1..],
            ..item(a)
        }, // truncated key
        item(a), // good again
    ];
    let want = [true, false, true, false, false, false, false, false, false, true];
    assert_eq!(slhdsa::verify_batch(Mode::Shake128f, &items), want);
    // The same verdicts one by one, and for every prefix of the batch (lane groups of 1–4).
    for (it, w) in items.iter().zip(want) {
        assert_eq!(
            slhdsa::verify(
                Mode::Shake128f,
                it.public_key,
                it.message,
                it.context,
                it.signature
            )
            .is_ok(),
            w
        );
    }
    for len in 0..items.len() {
        assert_eq!(
            slhdsa::verify_batch(Mode::Shake128f, &items[..len]),
            want[..len],
            "prefix {len}"
        );
    }
    // Under another mode every item has the wrong lengths.
    assert_eq!(slhdsa::verify_batch(Mode::Shake192f, &items), [false; 10]);
}

#[test]
fn errors_have_stable_codes_and_module() {
    let cases = [
        (
            Error::InvalidLength {
                what: "signature",
                expected: 1,
                got: 2,
            },
            "INVALID_LENGTH",
        ),
        (Error::ContextTooLong { len: 256 }, "CONTEXT_TOO_LONG"),
        (Error::InvalidSignature, "INVALID_SIGNATURE"),
        (Error::UnknownMode(0), "UNKNOWN_MODE"),
    ];
    for (e, code) in cases {
        assert_eq!(e.code(), code);
        let top: quasar_pq::Error = e.into();
        assert_eq!(top.code(), code);
        assert_eq!(top.module(), "slhdsa");
        assert!(top.culprits().is_empty());
    }
    assert_eq!(Mode::from_byte(0x00), Err(Error::UnknownMode(0)));
    assert_eq!(Mode::from_byte(0x07), Err(Error::UnknownMode(7)));
    for m in Mode::ALL {
        assert_eq!(Mode::from_byte(m.to_byte()), Ok(m));
        assert_eq!(Mode::from_name(m.name()), Some(m));
    }
    let sk = SigningKey::<Shake128f>::from_seeds(&[1; 16], &[2; 16], &[3; 16]).expect("key");
    let shown = format!("{sk:?}");
    assert!(shown.contains("redacted") && !shown.contains("1, 1"), "{shown}");
}
