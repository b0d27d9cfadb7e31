//! NIST ACVP SLH-DSA keyGen (FIPS 205 Alg. 18 slh_keygen_internal): every SHAKE case of
//! `key-gen.json` — the key pair from (SK.seed, SK.prf, PK.seed) must equal the expected pk
//! and sk byte for byte, through the runtime-mode API and the typed API. The SHA2 groups are
//! skipped and counted. Also pins every set's sizes to FIPS 205 Table 2.

use crate::common::slhdsa::{count_per_mode, info, load_keygen, KeyGenCase, TABLE_2};
use crate::common::{first_diff, run_cases};
use quasar_pq::slhdsa::{self, Mode, Params, SigningKey, VerifyingKey};

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
    let (pk, sk) = slhdsa::keygen(c.mode, &c.sk_seed, &c.sk_prf, &c.pk_seed)
        .map_err(|e| format!("tcId {}: keygen: {e}", c.tc_id))?;
    compare(&c.tc_id, "pk (slhdsa::keygen)", &pk, &c.pk)?;
    compare(&c.tc_id, "sk (slhdsa::keygen)", &sk, &c.sk)
}

fn check_typed<P: Params>(c: &KeyGenCase) -> Result<(), String> {
    let sk = SigningKey::<P>::from_seeds(&c.sk_seed, &c.sk_prf, &c.pk_seed)
        .map_err(|e| format!("tcId {}: from_seeds: {e}", c.tc_id))?;
    compare(
        &c.tc_id,
        "pk (SigningKey::verifying_key)",
        &sk.verifying_key().to_bytes(),
        &c.pk,
    )?;
    compare(&c.tc_id, "sk (SigningKey::to_bytes)", &sk.to_bytes(), &c.sk)?;
    let vk = VerifyingKey::<P>::from_bytes(&c.pk).map_err(|e| format!("tcId {}: {e}", c.tc_id))?;
    compare(&c.tc_id, "pk round trip", vk.as_bytes(), &c.pk)?;
    let sk2 = SigningKey::<P>::from_bytes(&c.sk).map_err(|e| format!("tcId {}: {e}", c.tc_id))?;
    compare(&c.tc_id, "sk round trip", &sk2.to_bytes(), &c.sk)
}

macro_rules! with_slh_params {
    ($mode:expr, $f:ident ( $($arg:expr),* )) => {
        match $mode {
            Mode::Shake128s => $f::<slhdsa::Shake128s>($($arg),*),
            Mode::Shake128f => $f::<slhdsa::Shake128f>($($arg),*),
            Mode::Shake192s => $f::<slhdsa::Shake192s>($($arg),*),
            Mode::Shake192f => $f::<slhdsa::Shake192f>($($arg),*),
            Mode::Shake256s => $f::<slhdsa::Shake256s>($($arg),*),
            Mode::Shake256f => $f::<slhdsa::Shake256f>($($arg),*),
            #[allow(unreachable_patterns)]
            other => panic!("no typed parameter set for {other:?}"),
        }
    };
}

#[test]
fn acvp_keygen_runtime_mode() {
    let (cases, skipped) = load_keygen();
    // key-gen.json: SHAKE-192s and SHAKE-256f, 10 each; SHA2-128s and SHA2-192f skipped.
    assert_eq!(count_per_mode(&cases, |c| c.mode), [0, 0, 10, 0, 0, 10]);
    assert_eq!(skipped, 20, "SHA2 cases skipped");
    let ran = run_cases("SLH-DSA keyGen (slhdsa::keygen)", &cases, check_runtime);
    assert_eq!(ran, 20);
}

#[test]
fn acvp_keygen_typed() {
    let (cases, _) = load_keygen();
    let ran = run_cases("SLH-DSA keyGen (SigningKey::<P>)", &cases, |c| {
        with_slh_params!(c.mode, check_typed(c))
    });
    assert_eq!(ran, 20);
}

fn check_sizes<P: Params>(mode: Mode) {
    let t = info(mode);
    assert_eq!(P::MODE, mode, "{}: MODE", t.name);
    assert_eq!(mode.name(), t.name);
    assert_eq!(P::N, t.n, "{}: n", t.name);
    assert_eq!(P::H, t.h, "{}: h", t.name);
    assert_eq!(P::D, t.d, "{}: d", t.name);
    assert_eq!(P::HP, t.hp, "{}: h'", t.name);
    assert_eq!(P::A, t.a, "{}: a", t.name);
    assert_eq!(P::K, t.k, "{}: k", t.name);
    assert_eq!(P::LG_W, t.lg_w, "{}: lg_w", t.name);
    assert_eq!(P::M, t.m, "{}: m", t.name);
    assert_eq!(P::PK_LEN, t.pk_len, "{}: pk bytes", t.name);
    assert_eq!(P::SK_LEN, 2 * t.pk_len, "{}: sk bytes", t.name);
    assert_eq!(P::SIG_LEN, t.sig_len, "{}: sig bytes", t.name);
    assert_eq!(mode.n(), t.n);
    assert_eq!(mode.public_key_len(), t.pk_len);
    assert_eq!(mode.secret_key_len(), 2 * t.pk_len);
    assert_eq!(mode.signature_len(), t.sig_len);
    assert_eq!(Mode::from_byte(mode.to_byte()), Ok(mode));
}

/// Every set's n, h, d, h′, a, k, lg_w, m and pk/sk/sig bytes pinned to FIPS 205 Table 2.
#[test]
fn sizes_match_fips205_table_2() {
    assert_eq!(Mode::ALL.len(), TABLE_2.len());
    for mode in Mode::ALL {
        with_slh_params!(mode, check_sizes(mode));
    }
    // Table 2's security categories, for the record.
    let cats: Vec<u8> = TABLE_2.iter().map(|r| r.security_category).collect();
    assert_eq!(cats, [1, 1, 3, 3, 5, 5]);
    // The Magnetar wire bytes.
    assert_eq!(Mode::Shake192s.to_byte(), 0x01);
    assert_eq!(Mode::Shake192f.to_byte(), 0x02);
    assert_eq!(Mode::Shake256s.to_byte(), 0x03);
    assert!(Mode::from_byte(0).is_err());
}
