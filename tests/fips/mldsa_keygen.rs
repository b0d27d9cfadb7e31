//! NIST ACVP ML-DSA keyGen (FIPS 204 Alg. 1 / Alg. 6 ML-DSA.KeyGen_internal): for each of the
//! 75 cases, the key pair from the 32-byte seed ξ must equal the expected pk and sk byte for
//! byte, through both the runtime-mode API and the typed `SigningKey::<P>` API.

use crate::common::{first_diff, info, load_keygen, run_cases, KeyGenCase, MODES};
use quasar_pq::mldsa::{self, Mode, Params, SigningKey, VerifyingKey};

fn compare(tc: &str, what: &str, got: &[u8], want: &[u8]) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "tcId {tc}: {what} differs (got {} bytes, want {}; first difference at byte {:?})",
            got.len(),
            want.len(),
            first_diff(got, want)
        ))
    }
}

fn check_runtime(c: &KeyGenCase) -> Result<(), String> {
    let (pk, sk) = mldsa::keygen(c.mode, &c.seed);
    compare(&c.tc_id, "pk (mldsa::keygen)", &pk, &c.pk)?;
    compare(&c.tc_id, "sk (mldsa::keygen)", &sk, &c.sk)
}

fn check_typed<P: Params>(c: &KeyGenCase) -> Result<(), String> {
    let sk = SigningKey::<P>::from_seed(&c.seed);
    let vk = sk.verifying_key();
    compare(&c.tc_id, "pk (SigningKey::from_seed)", &vk.to_bytes(), &c.pk)?;
    compare(&c.tc_id, "sk (SigningKey::to_bytes)", &sk.to_bytes(), &c.sk)?;
    // Decoding the expected encodings and re-encoding them is the identity.
    let vk2 = VerifyingKey::<P>::from_bytes(&c.pk)
        .map_err(|e| format!("tcId {}: VerifyingKey::from_bytes: {e:?}", c.tc_id))?;
    compare(&c.tc_id, "pk round trip", &vk2.to_bytes(), &c.pk)?;
    let sk2 = SigningKey::<P>::from_bytes(&c.sk)
        .map_err(|e| format!("tcId {}: SigningKey::from_bytes: {e:?}", c.tc_id))?;
    compare(&c.tc_id, "sk round trip", &sk2.to_bytes(), &c.sk)?;
    compare(
        &c.tc_id,
        "pk from decoded sk",
        &sk2.verifying_key().to_bytes(),
        &c.pk,
    )
}

#[test]
fn acvp_keygen_runtime_mode() {
    let cases = load_keygen();
    assert_eq!(crate::common::count_per_mode(&cases, |c| c.mode), [25, 25, 25]);
    let ran = run_cases("keyGen (mldsa::keygen)", &cases, check_runtime);
    assert_eq!(ran, 75);
}

#[test]
fn acvp_keygen_typed() {
    let cases = load_keygen();
    let ran = run_cases("keyGen (SigningKey::<P>)", &cases, |c| {
        with_params!(c.mode, check_typed(c))
    });
    assert_eq!(ran, 75);
}

fn check_sizes<P: Params>(mode: Mode) {
    let t = info(mode);
    assert_eq!(P::K, t.k, "{}: K", t.name);
    assert_eq!(P::L, t.l, "{}: L", t.name);
    assert_eq!(P::ETA, i32::try_from(t.eta).expect("small"), "{}: ETA", t.name);
    assert_eq!(P::TAU, t.tau, "{}: TAU", t.name);
    assert_eq!(P::BETA, i32::try_from(t.beta).expect("small"), "{}: BETA", t.name);
    assert_eq!(P::GAMMA1, 1 << t.gamma1_bits, "{}: GAMMA1", t.name);
    assert_eq!(P::GAMMA2, (8_380_417 - 1) / t.gamma2_div, "{}: GAMMA2", t.name);
    assert_eq!(P::OMEGA, t.omega, "{}: OMEGA", t.name);
    assert_eq!(P::LAMBDA / 4, t.c_tilde_len, "{}: LAMBDA", t.name);
    assert_eq!(P::MODE, mode, "{}: MODE", t.name);
    assert_eq!(P::PK_LEN, t.pk_len, "{}: PK_LEN", t.name);
    assert_eq!(P::SK_LEN, t.sk_len, "{}: SK_LEN", t.name);
    assert_eq!(P::SIG_LEN, t.sig_len, "{}: SIG_LEN", t.name);
    assert_eq!(mode.public_key_len(), t.pk_len, "{}: public_key_len", t.name);
    assert_eq!(mode.secret_key_len(), t.sk_len, "{}: secret_key_len", t.name);
    assert_eq!(mode.signature_len(), t.sig_len, "{}: signature_len", t.name);
}

/// Every size pinned to FIPS 204 Table 2, for the typed and the runtime API.
#[test]
fn sizes_match_fips204_table_2() {
    for mode in MODES {
        with_params!(mode, check_sizes(mode));
    }
}
