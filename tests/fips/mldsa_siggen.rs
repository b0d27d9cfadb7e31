//! NIST ACVP ML-DSA sigGen, early "FIPS204" revision (60 cases: 10 deterministic and 10 hedged
//! per parameter set).
//!
//! # Which interface these vectors exercise
//!
//! The file has no `context` and no `signatureInterface` field; its `message` is **M′ for the
//! internal interface**, FIPS 204 Alg. 7 `ML-DSA.Sign_internal(sk, M′, rnd)`, reached here
//! through `mldsa::hazmat::sign_internal`, with `rnd` = the case's `rnd` in the hedged groups
//! and `rnd` = {0}^32 in the `deterministic` groups. It is *not* the pure interface with an
//! empty context (Alg. 2, which signs M′ = 0x00 ‖ 0x00 ‖ M): `acvp_siggen_is_internal_not_pure`
//! signs every case both ways and asserts that all 60 match internally and none match pure
//! with `ctx = ""`, so this comment cannot go stale silently.

use crate::common::{first_diff, load_siggen, run_cases, SigGenCase, ZERO_RND};
use quasar_pq::mldsa::{self, hazmat, Params, SigningKey};

fn rnd_of(c: &SigGenCase) -> [u8; 32] {
    c.rnd.unwrap_or(ZERO_RND)
}

fn check_internal(c: &SigGenCase) -> Result<(), String> {
    let sig = hazmat::sign_internal(c.mode, &c.sk, &c.message, &rnd_of(c))
        .map_err(|e| format!("tcId {}: sign_internal failed: {e:?}", c.tc_id))?;
    if sig != c.signature {
        return Err(format!(
            "tcId {} ({:?}, deterministic={}): signature differs at byte {:?} of {}",
            c.tc_id,
            c.mode,
            c.deterministic,
            first_diff(&sig, &c.signature),
            c.signature.len()
        ));
    }
    Ok(())
}

/// The expected signature verifies under the key derived from the case's sk (internal
/// interface, Alg. 8), and the sk decodes and re-encodes to itself.
fn check_verifies<P: Params>(c: &SigGenCase) -> Result<(), String> {
    let sk = SigningKey::<P>::from_bytes(&c.sk)
        .map_err(|e| format!("tcId {}: SigningKey::from_bytes: {e:?}", c.tc_id))?;
    if sk.to_bytes().as_slice() != c.sk.as_slice() {
        return Err(format!("tcId {}: sk does not round-trip", c.tc_id));
    }
    let pk = sk.verifying_key().to_bytes();
    hazmat::verify_internal(c.mode, &pk, &c.message, &c.signature).map_err(|e| {
        format!(
            "tcId {}: verify_internal of the expected signature: {e:?}",
            c.tc_id
        )
    })?;
    // And a one-byte change to M′ is rejected.
    let mut m = c.message.clone();
    if m.is_empty() {
        m.push(0);
    } else {
        m[0] ^= 1;
    }
    match hazmat::verify_internal(c.mode, &pk, &m, &c.signature) {
        Err(mldsa::Error::InvalidSignature) => Ok(()),
        other => Err(format!(
            "tcId {}: modified M′ gave {other:?}, want Err(InvalidSignature)",
            c.tc_id
        )),
    }
}

#[test]
fn acvp_siggen_internal() {
    let cases = load_siggen();
    assert_eq!(crate::common::count_per_mode(&cases, |c| c.mode), [20, 20, 20]);
    assert_eq!(cases.iter().filter(|c| c.deterministic).count(), 30);
    let ran = run_cases("sigGen (hazmat::sign_internal)", &cases, check_internal);
    assert_eq!(ran, 60);
}

#[test]
fn acvp_siggen_expected_signatures_verify() {
    let cases = load_siggen();
    let ran = run_cases("sigGen (verify_internal of expected)", &cases, |c| {
        with_params!(c.mode, check_verifies(c))
    });
    assert_eq!(ran, 60);
}

/// Pins the interface decision documented at the top of this file.
#[test]
fn acvp_siggen_is_internal_not_pure() {
    let cases = load_siggen();
    let mut internal = 0;
    let mut pure = 0;
    for c in &cases {
        let rnd = rnd_of(c);
        if hazmat::sign_internal(c.mode, &c.sk, &c.message, &rnd).ok() == Some(c.signature.clone()) {
            internal += 1;
        }
        let p = if c.deterministic {
            mldsa::sign(c.mode, &c.sk, &c.message, b"", None)
        } else {
            mldsa::sign(c.mode, &c.sk, &c.message, b"", Some(&rnd))
        };
        if p.ok() == Some(c.signature.clone()) {
            pure += 1;
        }
    }
    eprintln!("sigGen: {internal}/60 match the internal interface, {pure}/60 the pure one (ctx \"\")");
    assert_eq!(internal, 60, "all sigGen cases must match Sign_internal");
    assert_eq!(
        pure, 0,
        "no sigGen case may match pure Sign with an empty context"
    );
}
