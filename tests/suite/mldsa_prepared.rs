//! A prepared (pre-expanded) public key gives exactly the verdicts of cold verification.

use quasar_pq::mldsa::{self, MlDsa65, Mode, PreparedPublicKey, SigningKey};

#[test]
fn prepared_and_cold_verification_agree() {
    for mode in Mode::ALL {
        let (pk, sk) = mldsa::keygen(mode, &[mode.to_byte(); 32]);
        let prepared = PreparedPublicKey::new(mode, &pk).unwrap();
        for m in 0..4u8 {
            let msg = [m; 33];
            let ctx = &b"prepared-test"[..m as usize];
            let sig = mldsa::sign(mode, &sk, &msg, ctx, Some(&[m; 32])).unwrap();
            assert_eq!(prepared.verify(&msg, ctx, &sig), Ok(()));
            // Every single-bit flip of the signature in a stride: same verdict both ways.
            for bit in (0..sig.len() * 8).step_by(97) {
                let mut bad = sig.clone();
                bad[bit / 8] ^= 1 << (bit % 8);
                let cold = mldsa::verify(mode, &pk, &msg, ctx, &bad);
                assert_eq!(prepared.verify(&msg, ctx, &bad), cold, "{mode:?} bit {bit}");
                assert!(cold.is_err());
            }
            assert!(prepared.verify(&msg, b"other", &sig).is_err());
            assert!(matches!(
                prepared.verify(&msg, ctx, &sig[1..]),
                Err(mldsa::Error::InvalidLength {
                    what: "signature",
                    ..
                })
            ));
        }
        assert!(PreparedPublicKey::new(mode, &pk[1..]).is_err());
    }
}

#[test]
fn typed_prepared_key() {
    let sk = SigningKey::<MlDsa65>::from_seed(&[9; 32]);
    let vk = sk.verifying_key().prepare();
    let sig = sk.sign_deterministic(b"m", b"").unwrap();
    assert!(vk.verify(b"m", b"", &sig).is_ok());
    assert!(vk.verify(b"n", b"", &sig).is_err());
}
