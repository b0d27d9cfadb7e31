//! NIST ACVP ML-DSA sigVer, early "FIPS204" revision: 45 cases (15 per parameter set), of
//! which the "modify message", "modify signature", "z too large" and "too many hints" ones
//! must be rejected with `Err(InvalidSignature)` and the "no modification" ones accepted.
//!
//! As in `mldsa_siggen.rs`, the `message` of this revision is M′ for the internal interface
//! (FIPS 204 Alg. 8 `ML-DSA.Verify_internal`), reached through `mldsa::hazmat::verify_internal`;
//! `acvp_sigver_is_internal_not_pure` checks that the valid cases do not verify through the
//! pure interface with an empty context.

use crate::common::{load_sigver, run_cases, SigVerCase};
use quasar_pq::mldsa::{self, hazmat};

fn check(c: &SigVerCase) -> Result<(), String> {
    let got = hazmat::verify_internal(c.mode, &c.pk, &c.message, &c.signature);
    let ok = matches!(
        (&got, c.passed),
        (Ok(()), true) | (Err(mldsa::Error::InvalidSignature), false)
    );
    if ok {
        Ok(())
    } else {
        Err(format!(
            "tcId {} ({:?}, reason {:?}): got {got:?}, want {}",
            c.tc_id,
            c.mode,
            c.reason,
            if c.passed {
                "Ok(())"
            } else {
                "Err(InvalidSignature)"
            }
        ))
    }
}

#[test]
fn acvp_sigver_internal() {
    let cases = load_sigver();
    assert_eq!(crate::common::count_per_mode(&cases, |c| c.mode), [15, 15, 15]);
    let negatives = cases.iter().filter(|c| !c.passed).count();
    assert_eq!(negatives, 36, "the file's shape changed: negatives");
    let ran = run_cases("sigVer (hazmat::verify_internal)", &cases, check);
    assert_eq!(ran, 45);
}

/// Every rejection reason the file uses is one the loader expects, and each occurs.
#[test]
fn acvp_sigver_reasons_known() {
    let cases = load_sigver();
    for reason in [
        "no modification",
        "modify message",
        "modify signature",
        "z too large",
        "too many hints",
    ] {
        assert!(
            cases.iter().any(|c| c.reason == reason),
            "no case with reason {reason:?}"
        );
    }
    for c in &cases {
        assert_eq!(
            c.passed,
            c.reason == "no modification",
            "tcId {}: {:?}",
            c.tc_id,
            c.reason
        );
    }
}

#[test]
fn acvp_sigver_is_internal_not_pure() {
    let cases = load_sigver();
    let valid: Vec<_> = cases.iter().filter(|c| c.passed).collect();
    assert_eq!(valid.len(), 9);
    for c in valid {
        assert_eq!(
            mldsa::verify(c.mode, &c.pk, &c.message, b"", &c.signature),
            Err(mldsa::Error::InvalidSignature),
            "tcId {}: a valid internal-interface signature verified through the pure interface",
            c.tc_id
        );
    }
}
