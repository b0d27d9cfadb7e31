//! NIST ACVP SLH-DSA sigVer: every SHAKE case of `sig-ver.json` (the SHA2 groups are
//! skipped and counted).
//!
//! This sample file predates the `signatureInterface`/`context` fields: its messages are
//! the message representative M′ of the **internal** interface (FIPS 205 Alg. 20
//! slh_verify_internal). `valid_cases_use_the_internal_interface` pins that: each valid
//! signature verifies as slh_verify_internal(M) and fails as pure slh_verify(M, ctx = "").
//!
//! The file also carries `sk` and `additionalRandomness`, so each valid case is a sigGen
//! case too: FIPS 205 Alg. 19 slh_sign_internal(M, sk, addrnd) must reproduce the
//! signature byte for byte.

use crate::common::run_cases;
use crate::common::slhdsa::{count_per_mode, load_sigver, SigVerCase};
use quasar_pq::slhdsa::{self, hazmat, BatchItem, Error, Mode};

fn check_verify(c: &SigVerCase) -> Result<(), String> {
    let got = hazmat::verify_internal(c.mode, &c.pk, &c.message, &c.signature);
    let expected_len = c.mode.signature_len();
    match (c.passed, &got) {
        (true, Ok(())) => Ok(()),
        (
            false,
            Err(Error::InvalidLength {
                what: "signature",
                expected,
                got,
            }),
        ) if *expected == expected_len
            && *got == c.signature.len()
            && c.reason.contains("signature is too") =>
        {
            Ok(())
        }
        (false, Err(Error::InvalidSignature)) if c.signature.len() == expected_len => Ok(()),
        _ => Err(format!(
            "tcId {} ({:?}, {}): expected {}, got {got:?}",
            c.tc_id,
            c.mode,
            c.reason,
            if c.passed { "Ok" } else { "an error" }
        )),
    }
}

#[test]
fn acvp_sigver_internal() {
    let (cases, skipped) = load_sigver();
    // sig-ver.json: SHAKE-128f, -192s and -256f, 9 each; SHA2-192s and SHA2-256f skipped.
    assert_eq!(count_per_mode(&cases, |c| c.mode), [0, 9, 9, 0, 0, 9]);
    assert_eq!(skipped, 18, "SHA2 cases skipped");
    let ran = run_cases("SLH-DSA sigVer (verify_internal)", &cases, check_verify);
    assert_eq!(ran, 27);
    let valid = cases.iter().filter(|c| c.passed).count();
    assert_eq!(valid, 9, "valid cases");
}

#[test]
fn valid_cases_use_the_internal_interface() {
    let (cases, _) = load_sigver();
    let valid: Vec<_> = cases.iter().filter(|c| c.passed).cloned().collect();
    let ran = run_cases("SLH-DSA sigVer interface", &valid, |c| {
        match slhdsa::verify(c.mode, &c.pk, &c.message, b"", &c.signature) {
            Err(Error::InvalidSignature) => Ok(()),
            other => Err(format!(
                "tcId {}: pure verify with empty context gave {other:?}",
                c.tc_id
            )),
        }
    });
    assert_eq!(ran, 9);
}

/// Re-signing each valid case with its sk and additionalRandomness reproduces it (sigGen).
#[test]
fn acvp_valid_cases_resign_identically() {
    let (cases, _) = load_sigver();
    let valid: Vec<_> = cases.iter().filter(|c| c.passed).cloned().collect();
    let ran = run_cases("SLH-DSA sigGen from sigVer (sign_internal)", &valid, |c| {
        assert_eq!(
            c.additional_randomness.len(),
            c.mode.n(),
            "tcId {}: addrnd length",
            c.tc_id
        );
        let sig = hazmat::sign_internal(c.mode, &c.sk, &c.message, Some(&c.additional_randomness))
            .map_err(|e| format!("tcId {}: sign_internal: {e}", c.tc_id))?;
        if sig == c.signature {
            Ok(())
        } else {
            Err(format!(
                "tcId {}: signature differs at byte {:?}",
                c.tc_id,
                crate::common::first_diff(&sig, &c.signature)
            ))
        }
    });
    assert_eq!(ran, 9);
}

/// The batch verifier gives every case's verdict in one call per set.
#[test]
fn acvp_sigver_batch() {
    let (cases, _) = load_sigver();
    let mut total = 0;
    for mode in Mode::ALL {
        let set: Vec<&SigVerCase> = cases.iter().filter(|c| c.mode == mode).collect();
        if set.is_empty() {
            continue;
        }
        let items: Vec<BatchItem<'_>> = set
            .iter()
            .map(|c| BatchItem {
                public_key: &c.pk,
                message: &c.message,
                context: b"",
                signature: &c.signature,
            })
            .collect();
        let verdicts = hazmat::verify_internal_batch(mode, &items);
        let want: Vec<bool> = set.iter().map(|c| c.passed).collect();
        assert_eq!(verdicts, want, "{mode:?}: batch verdicts");
        total += set.len();
    }
    assert_eq!(total, 27);
}
