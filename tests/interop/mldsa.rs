//! Cross-implementation checks against RustCrypto `ml-dsa`, `fips204` and `libcrux-ml-dsa`
//! (both its dispatching and its portable backend), for each parameter set, over 64 labelled
//! pseudo-random (seed, message, context) cases:
//!
//! 1. keygen from the seed ξ is byte-identical to every peer's (pk and sk);
//! 2. our deterministic and hedged signatures verify under every peer, and are byte-identical
//!    to the peer's pure signature with the same (sk, M, ctx, rnd) (every peer here can sign
//!    deterministically with a context and with a caller-chosen rnd);
//! 3. every peer's signature, made with an rnd we never used, verifies under ours (runtime and
//!    typed API);
//! 4. a different context is rejected by us and by every peer (so the context is really bound).
//!
//! Cases come from `Stream::new("interop/<set>")`, so a failure names a reproducible case.

use crate::common::peers::peers;
use crate::common::{first_diff, info, short_hex, Stream, MODES, ZERO_RND};
use quasar_pq::mldsa::{self, Mode, Params, Signature, SigningKey, VerifyingKey};

const CASES: usize = 64;

struct Case {
    i: usize,
    seed: [u8; 32],
    msg: Vec<u8>,
    ctx: Vec<u8>,
    rnd: [u8; 32],
    peer_rnd: [u8; 32],
}

fn cases(mode: Mode) -> Vec<Case> {
    let mut s = Stream::new(&format!("interop/{}", info(mode).name));
    (0..CASES)
        .map(|i| {
            let seed = s.array();
            let msg_len = match i % 8 {
                0 => 0,
                1 => 1 + s.below(8),
                7 => 1000 + s.below(9000),
                _ => s.below(600),
            };
            let msg = s.bytes(msg_len);
            let ctx_len = match i % 4 {
                0 => 0,
                1 => 255,
                _ => 1 + s.below(254),
            };
            let ctx = s.bytes(ctx_len);
            Case {
                i,
                seed,
                msg,
                ctx,
                rnd: s.array(),
                peer_rnd: s.array(),
            }
        })
        .collect()
}

/// Collects failures instead of stopping at the first, so one run shows the whole picture.
struct Report {
    set: &'static str,
    failures: Vec<String>,
    checks: usize,
}

impl Report {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.checks += 1;
        if !ok {
            self.failures.push(format!("{}: {}", self.set, what()));
        }
    }
    fn finish(self) {
        assert!(self.checks > 0, "{}: no checks ran", self.set);
        assert!(
            self.failures.is_empty(),
            "{}: {} of {} checks failed:\n  {}",
            self.set,
            self.failures.len(),
            self.checks,
            self.failures
                .iter()
                .take(60)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n  ")
        );
        eprintln!("{}: {} interop checks passed", self.set, self.checks);
    }
}

fn describe(c: &Case) -> String {
    format!(
        "case {} (msg {}, ctx {} bytes)",
        c.i,
        short_hex(&c.msg),
        c.ctx.len()
    )
}

fn run_set<P: Params>(mode: Mode) {
    let t = info(mode);
    let peers = peers(mode);
    let mut r = Report {
        set: t.name,
        failures: Vec::new(),
        checks: 0,
    };
    let cases = cases(mode);
    assert_eq!(cases.len(), CASES);
    for c in &cases {
        let d = describe(c);
        // --- 1. keygen ---
        let (pk, sk) = mldsa::keygen(mode, &c.seed);
        r.check(pk.len() == t.pk_len && sk.len() == t.sk_len, || {
            format!("{d}: key sizes")
        });
        for p in &peers {
            let (ppk, psk) = (p.keygen)(&c.seed);
            r.check(ppk == pk, || {
                format!(
                    "{d}: pk differs from {} at byte {:?}",
                    p.name,
                    first_diff(&pk, &ppk)
                )
            });
            r.check(psk == *sk, || {
                format!(
                    "{d}: sk differs from {} at byte {:?}",
                    p.name,
                    first_diff(&sk, &psk)
                )
            });
        }
        let typed_sk = SigningKey::<P>::from_seed(&c.seed);
        let typed_vk = typed_sk.verifying_key();
        r.check(typed_vk.to_bytes() == pk, || format!("{d}: typed pk differs"));
        r.check(typed_sk.to_bytes().as_slice() == sk.as_slice(), || {
            format!("{d}: typed sk differs")
        });

        // --- 2. our signatures, under the peers ---
        let ours = [
            (
                "deterministic",
                ZERO_RND,
                mldsa::sign(mode, &sk, &c.msg, &c.ctx, None),
            ),
            (
                "hedged",
                c.rnd,
                mldsa::sign(mode, &sk, &c.msg, &c.ctx, Some(&c.rnd)),
            ),
        ];
        for (kind, rnd, sig) in &ours {
            let sig = match sig {
                Ok(s) => s,
                Err(e) => {
                    r.check(false, || format!("{d}: our {kind} sign failed: {e:?}"));
                    continue;
                }
            };
            r.check(sig.len() == t.sig_len, || {
                format!("{d}: our {kind} signature has {} bytes", sig.len())
            });
            r.check(mldsa::verify(mode, &pk, &c.msg, &c.ctx, sig).is_ok(), || {
                format!("{d}: our {kind} signature fails our own verify")
            });
            for p in &peers {
                r.check((p.verify)(&pk, &c.msg, &c.ctx, sig), || {
                    format!("{d}: our {kind} signature rejected by {}", p.name)
                });
                match (p.sign)(&sk, &c.msg, &c.ctx, rnd) {
                    Ok(psig) => r.check(psig == *sig, || {
                        format!(
                            "{d}: {kind} signature differs from {}'s at byte {:?}",
                            p.name,
                            first_diff(sig, &psig)
                        )
                    }),
                    Err(e) => r.check(false, || format!("{d}: {} sign failed: {e}", p.name)),
                }
            }
        }
        // The typed API gives the same signatures.
        let typed_det = typed_sk.sign_deterministic(&c.msg, &c.ctx);
        r.check(
            typed_det.as_ref().ok().map(Signature::as_bytes) == ours[0].2.as_deref().ok(),
            || format!("{d}: typed deterministic signature differs"),
        );
        let typed_hedged = typed_sk.sign(&c.msg, &c.ctx, &c.rnd);
        r.check(
            typed_hedged.as_ref().ok().map(Signature::as_bytes) == ours[1].2.as_deref().ok(),
            || format!("{d}: typed hedged signature differs"),
        );

        // --- 3. the peers' signatures, under ours ---
        for p in &peers {
            let psig = match (p.sign)(&sk, &c.msg, &c.ctx, &c.peer_rnd) {
                Ok(s) => s,
                Err(e) => {
                    r.check(false, || format!("{d}: {} sign failed: {e}", p.name));
                    continue;
                }
            };
            r.check((p.verify)(&pk, &c.msg, &c.ctx, &psig), || {
                format!("{d}: {} rejects its own signature", p.name)
            });
            let got = mldsa::verify(mode, &pk, &c.msg, &c.ctx, &psig);
            r.check(got.is_ok(), || {
                format!(
                    "{d}: {}'s hedged signature rejected by mldsa::verify: {got:?}",
                    p.name
                )
            });
            let vk = VerifyingKey::<P>::from_bytes(&pk);
            let got = vk.as_ref().map(|vk| {
                Signature::<P>::try_from(psig.as_slice()).and_then(|sig| vk.verify(&c.msg, &c.ctx, &sig))
            });
            r.check(matches!(got, Ok(Ok(()))), || {
                format!(
                    "{d}: {}'s signature rejected by VerifyingKey::verify: {got:?}",
                    p.name
                )
            });
        }

        // --- 4. the context is bound, by us and by every peer ---
        if let Ok(sig) = &ours[0].2 {
            let mut other = c.ctx.clone();
            match other.last_mut() {
                Some(b) => *b ^= 0x01,
                None => other.push(0),
            }
            let got = mldsa::verify(mode, &pk, &c.msg, &other, sig);
            r.check(got == Err(mldsa::Error::InvalidSignature), || {
                format!("{d}: other context gave {got:?}, want Err(InvalidSignature)")
            });
            for p in &peers {
                r.check(!(p.verify)(&pk, &c.msg, &other, sig), || {
                    format!("{d}: {} accepts the signature under another context", p.name)
                });
            }
        }
    }
    r.finish();
}

#[test]
fn interop_mldsa44() {
    with_params!(Mode::MlDsa44, run_set(Mode::MlDsa44));
}

#[test]
fn interop_mldsa65() {
    with_params!(Mode::MlDsa65, run_set(Mode::MlDsa65));
}

#[test]
fn interop_mldsa87() {
    with_params!(Mode::MlDsa87, run_set(Mode::MlDsa87));
}

/// Each peer API used above really takes the context: the same (sk, M, rnd) signed under two
/// contexts gives two different signatures, each accepted only under its own context; and a
/// context of 256 bytes is refused by every peer.
#[test]
fn peers_bind_the_context() {
    for mode in MODES {
        let (pk, sk) = mldsa::keygen(mode, &Stream::new("interop/ctx-seed").array());
        let msg = b"context binding";
        for p in peers(mode) {
            let a = (p.sign)(&sk, msg, b"ctx-a", &ZERO_RND).expect("sign a");
            let b = (p.sign)(&sk, msg, b"ctx-b", &ZERO_RND).expect("sign b");
            let e = (p.sign)(&sk, msg, b"", &ZERO_RND).expect("sign empty");
            assert!(
                a != b && a != e && b != e,
                "{:?} {}: context does not change the signature",
                mode,
                p.name
            );
            assert!((p.verify)(&pk, msg, b"ctx-a", &a), "{:?} {}", mode, p.name);
            assert!(
                !(p.verify)(&pk, msg, b"ctx-b", &a),
                "{:?} {}: verify ignores the context",
                mode,
                p.name
            );
            assert!(
                !(p.verify)(&pk, msg, b"", &a),
                "{:?} {}: verify ignores the context",
                mode,
                p.name
            );
            assert!(
                (p.sign)(&sk, msg, &[0u8; 256], &ZERO_RND).is_err(),
                "{:?} {}: 256-byte ctx accepted",
                mode,
                p.name
            );
        }
    }
}
