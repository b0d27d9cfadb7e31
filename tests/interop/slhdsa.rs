//! Interoperability with `fips205` and RustCrypto `slh-dsa` (DESIGN §7) for SHAKE-192s,
//! -192f and -256s: keys from the same seeds are byte-identical; our signatures (hedged
//! with a context, and deterministic) verify under both peers; each peer's hedged signature
//! verifies under ours and equals ours byte for byte (SLH-DSA signing is a function of key,
//! message, context and opt_rand). On 192f, where signing is fast for the peers too, also
//! their deterministic signature and one with an empty message and a 255-byte context. The
//! peers need seconds per "s" signature, hence one each there (about 25 s in all).

use quasar_pq::slhdsa::{self, Mode};
use sha3::digest::{ExtendableOutput, Update, XofReader};

fn labelled(label: &str, n: usize) -> Vec<u8> {
    let mut h = sha3::Shake256::default();
    h.update(b"quasar-pq/test/slhdsa-interop/");
    h.update(label.as_bytes());
    let mut out = vec![0u8; n];
    h.finalize_xof().read(&mut out);
    out
}

fn interop(mode: Mode) {
    let n = mode.n();
    let name = mode.name();
    let (sk_seed, sk_prf, pk_seed) = (
        labelled(&format!("{name}/sk_seed"), n),
        labelled(&format!("{name}/sk_prf"), n),
        labelled(&format!("{name}/pk_seed"), n),
    );
    let (pk, sk) = slhdsa::keygen(mode, &sk_seed, &sk_prf, &pk_seed).expect("keygen");
    let msg = labelled(&format!("{name}/message"), 100);
    let ctx = b"quasar interop";
    let addrnd = labelled(&format!("{name}/addrnd"), n);
    let ours_hedged = slhdsa::sign(mode, &sk, &msg, ctx, Some(&addrnd)).expect("sign");
    let ours_det = slhdsa::sign(mode, &sk, &msg, b"", None).expect("sign");
    assert_ne!(ours_hedged, ours_det);
    for p in crate::slh_peers::peers(mode) {
        let (ppk, psk) = (p.keygen)(&sk_seed, &sk_prf, &pk_seed);
        assert_eq!(ppk, pk, "{name}: {} public key differs", p.name);
        assert_eq!(psk, *sk, "{name}: {} secret key differs", p.name);
        let verify = (p.verifier)(&pk);
        assert!(
            verify(&msg, ctx, &ours_hedged),
            "{name}: {} rejects our hedged signature",
            p.name
        );
        assert!(
            verify(&msg, b"", &ours_det),
            "{name}: {} rejects our deterministic signature",
            p.name
        );
        assert!(
            !verify(&msg, b"other", &ours_hedged),
            "{name}: {} ignores the context",
            p.name
        );
        let signer = (p.signer)(&sk);
        let theirs_hedged = signer(&msg, ctx, Some(&addrnd));
        assert_eq!(
            theirs_hedged, ours_hedged,
            "{name}: {} hedged signature differs",
            p.name
        );
        slhdsa::verify(mode, &pk, &msg, ctx, &theirs_hedged)
            .expect("ours rejects the peer's hedged signature");
        if mode != Mode::Shake192f {
            continue; // the peers' "s" signing takes seconds: the extra cases run on the f set
        }
        let theirs_det = signer(&msg, b"", None);
        assert_eq!(
            theirs_det, ours_det,
            "{name}: {} deterministic signature differs",
            p.name
        );
        slhdsa::verify(mode, &pk, &msg, b"", &theirs_det)
            .expect("ours rejects the peer's deterministic signature");
        // A message of another length, signed by the peer, with a 255-byte context.
        let long_ctx = [0xC5u8; 255];
        let other = signer(b"", &long_ctx, Some(&addrnd));
        slhdsa::verify(mode, &pk, b"", &long_ctx, &other)
            .expect("ours rejects the peer's empty-message signature");
        assert_eq!(
            slhdsa::verify(mode, &pk, b"x", &long_ctx, &other),
            Err(slhdsa::Error::InvalidSignature)
        );
    }
}

#[test]
fn interop_shake192s() {
    interop(Mode::Shake192s);
}

#[test]
fn interop_shake192f() {
    interop(Mode::Shake192f);
}

#[test]
fn interop_shake256s() {
    interop(Mode::Shake256s);
}
