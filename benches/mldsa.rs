//! ML-DSA keygen / sign / verify: quasar-pq next to RustCrypto `ml-dsa`, `fips204` and
//! `libcrux-ml-dsa` (run-time dispatch, AVX2 where available, and its portable backend), in one
//! run, with the same inputs (DESIGN §8).
//!
//! Ids read `mldsa65/verify/quasar`, `mldsa65/verify/libcrux`, …; every operation starts from
//! bytes for every implementation:
//! - `keygen`: ML-DSA.KeyGen_internal from the 32-byte seed ξ to the pk and sk encodings;
//! - `sign`: deterministic pure ML-DSA.Sign from the encoded secret key, a fixed 64-byte
//!   message and an empty context (median and mean both matter: the rejection loop varies);
//! - `verify`: pure ML-DSA.Verify from the encoded public key.
//!
//! Seeds and the message are fixed and labelled (SHAKE256 of "quasar-pq/bench/…"), so reruns
//! and machines are comparable. With `--features bench-internals`, `quasar-avx2` lines hold
//! the four-way Keccak (ExpandA/S/Mask) to AVX2, libcrux's width, on an AVX-512 machine.
//! Run: `cargo bench --bench mldsa`; table:
//! `python3 scripts/bench-table.py`.
//!
//! With `--features bench-internals` (`cargo bench -p quasar-pq --bench mldsa --features
//! bench-internals`), each operation also runs as `quasar-portable`: quasar-pq as a target
//! without SIMD runs it (the NTT and pointwise kernels and the Keccak forced portable:
//! `mldsa::ntt::set_backend`, `hash::keccak_x4::set_backend`), so the SIMD gain shows in the same
//! run, and as `quasar-avx2`: the four-way Keccak held to AVX2, libcrux's width; and the group `ntt` times the kernels alone
//! (`ntt/simd`, `ntt/portable`, `inv_ntt/…`, `pointwise/…`; "simd" is AVX2 where the
//! CPU has it, NEON on aarch64, the portable code elsewhere).

use core::hint::black_box;
use core::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
#[cfg(feature = "bench-internals")]
use quasar_pq::mldsa::ntt::{self, Backend};
use quasar_pq::mldsa::{self, Mode};
use sha3::digest::{ExtendableOutput, Update, XofReader};

#[path = "../tests/common/peers.rs"]
mod peers;

/// PQClean's ML-DSA through `pqcrypto-mldsa` (its AVX2 code where the CPU has it). Its keys come
/// from the system's randomness, so it cannot join `peers` (keygen from ξ); instead it signs with
/// our secret key and each side verifies the other's signature before anything is timed.
#[cfg(target_arch = "x86_64")]
mod pqclean {
    use pqcrypto_traits::sign::{DetachedSignature as _, PublicKey as _, SecretKey as _};

    /// Sign(sk, M, ctx), pure, hedged by PQClean.
    type SignFn = fn(&[u8], &[u8], &[u8]) -> Vec<u8>;
    /// Verify(pk, M, ctx, σ), pure; false also for undecodable input.
    type VerifyFn = fn(&[u8], &[u8], &[u8], &[u8]) -> bool;

    /// keygen (random), sign and verify, over encodings.
    pub(crate) struct Set {
        pub keygen: fn() -> (Vec<u8>, Vec<u8>),
        pub sign: SignFn,
        pub verify: VerifyFn,
    }

    macro_rules! set {
        ($m:ident) => {
            Set {
                keygen: || {
                    let (pk, sk) = pqcrypto_mldsa::$m::keypair();
                    (pk.as_bytes().to_vec(), sk.as_bytes().to_vec())
                },
                sign: |sk, msg, ctx| {
                    let sk = pqcrypto_mldsa::$m::SecretKey::from_bytes(sk).expect("pqclean sk");
                    pqcrypto_mldsa::$m::detached_sign_ctx(msg, ctx, &sk)
                        .as_bytes()
                        .to_vec()
                },
                verify: |pk, msg, ctx, sig| {
                    let (Ok(pk), Ok(sig)) = (
                        pqcrypto_mldsa::$m::PublicKey::from_bytes(pk),
                        pqcrypto_mldsa::$m::DetachedSignature::from_bytes(sig),
                    ) else {
                        return false;
                    };
                    pqcrypto_mldsa::$m::verify_detached_signature_ctx(&sig, msg, ctx, &pk).is_ok()
                },
            }
        };
    }

    pub(crate) fn set(mode: quasar_pq::mldsa::Mode) -> Set {
        match mode.level() {
            44 => set!(mldsa44),
            65 => set!(mldsa65),
            _ => set!(mldsa87),
        }
    }
}

fn labelled<const N: usize>(label: &str) -> [u8; N] {
    let mut h = sha3::Shake256::default();
    h.update(b"quasar-pq/bench/");
    h.update(label.as_bytes());
    let mut out = [0u8; N];
    h.finalize_xof().read(&mut out);
    out
}

/// Runs `f` with the four-way Keccak held to AVX2 (libcrux's width; `quasar-avx2` lines,
/// with the `bench-internals` feature), then back to the fastest backend.
#[cfg(feature = "bench-internals")]
fn avx2<R>(f: impl FnOnce() -> R) -> R {
    use quasar_pq::hash::keccak_x4::{set_backend, Backend};
    set_backend(Backend::Avx2);
    let r = f();
    set_backend(Backend::Auto);
    r
}

fn group_name(mode: Mode) -> &'static str {
    match mode {
        Mode::MlDsa44 => "mldsa44",
        Mode::MlDsa65 => "mldsa65",
        Mode::MlDsa87 => "mldsa87",
        #[allow(unreachable_patterns)]
        _ => unreachable!("three sets"),
    }
}

fn bench_set(c: &mut Criterion, mode: Mode) {
    let name = group_name(mode);
    let seed: [u8; 32] = labelled(&format!("{name}/seed"));
    let msg: [u8; 64] = labelled(&format!("{name}/message"));
    let ctx: &[u8] = b"";
    let (pk, sk) = mldsa::keygen(mode, &seed);
    let sig = mldsa::sign(mode, &sk, &msg, ctx, None).expect("sign");
    let peers = peers::peers(mode);
    // Same inputs, same outputs: a bench of a wrong answer is no bench.
    for p in &peers {
        let (ppk, psk) = (p.keygen)(&seed);
        assert!(ppk == pk && psk == *sk, "{name}: {} keygen differs", p.name);
        assert_eq!(
            (p.sign)(&sk, &msg, ctx, &[0u8; 32]).expect("peer sign"),
            sig,
            "{name}: {} sign differs",
            p.name
        );
        assert!((p.verify)(&pk, &msg, ctx, &sig), "{name}: {} rejects", p.name);
    }
    #[cfg(target_arch = "x86_64")]
    let pqclean = {
        let q = pqclean::set(mode);
        assert!((q.verify)(&pk, &msg, ctx, &sig), "{name}: pqclean rejects ours");
        let theirs = (q.sign)(&sk, &msg, ctx);
        assert!(
            mldsa::verify(mode, &pk, &msg, ctx, &theirs).is_ok(),
            "{name}: ours rejects pqclean's"
        );
        q
    };

    let mut g = c.benchmark_group(name);
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50);

    g.bench_function("keygen/quasar", |b| {
        b.iter(|| mldsa::keygen(mode, black_box(&seed)))
    });
    #[cfg(feature = "bench-internals")]
    g.bench_function("keygen/quasar-portable", |b| {
        portable(|| b.iter(|| mldsa::keygen(mode, black_box(&seed))))
    });
    #[cfg(feature = "bench-internals")]
    g.bench_function("keygen/quasar-avx2", |b| {
        avx2(|| b.iter(|| mldsa::keygen(mode, black_box(&seed))))
    });
    for p in &peers {
        g.bench_function(format!("keygen/{}", p.name), |b| {
            b.iter(|| (p.keygen)(black_box(&seed)))
        });
    }
    #[cfg(target_arch = "x86_64")]
    g.bench_function("keygen/pqclean", |b| b.iter(pqclean.keygen));

    g.bench_function("sign/quasar", |b| {
        b.iter(|| mldsa::sign(mode, black_box(&sk), black_box(&msg), ctx, None).expect("sign"))
    });
    #[cfg(feature = "bench-internals")]
    g.bench_function("sign/quasar-portable", |b| {
        portable(|| b.iter(|| mldsa::sign(mode, black_box(&sk), black_box(&msg), ctx, None).expect("sign")))
    });
    #[cfg(feature = "bench-internals")]
    g.bench_function("sign/quasar-avx2", |b| {
        avx2(|| b.iter(|| mldsa::sign(mode, black_box(&sk), black_box(&msg), ctx, None).expect("sign")))
    });
    for p in &peers {
        g.bench_function(format!("sign/{}", p.name), |b| {
            b.iter(|| (p.sign)(black_box(&sk), black_box(&msg), ctx, &[0u8; 32]).expect("sign"))
        });
    }
    #[cfg(target_arch = "x86_64")]
    g.bench_function("sign/pqclean", |b| {
        b.iter(|| (pqclean.sign)(black_box(&sk), black_box(&msg), ctx))
    });
    // PQClean hedges with fresh randomness, so its time is the mean over the number of
    // rejection rounds; the deterministic lines above repeat one input's count. This line
    // hedges too (a new `rnd` each call), the like-for-like comparison with `sign/pqclean`.
    g.bench_function("sign/quasar-hedged", |b| {
        let mut n = 0u64;
        b.iter(|| {
            n += 1;
            let mut rnd = [0u8; 32];
            rnd[..8].copy_from_slice(&n.to_le_bytes());
            mldsa::sign(mode, black_box(&sk), black_box(&msg), ctx, Some(&rnd)).expect("sign")
        })
    });

    g.bench_function("verify/quasar", |b| {
        b.iter(|| mldsa::verify(mode, black_box(&pk), black_box(&msg), ctx, black_box(&sig)).expect("verify"))
    });
    #[cfg(feature = "bench-internals")]
    g.bench_function("verify/quasar-portable", |b| {
        portable(|| {
            b.iter(|| {
                mldsa::verify(mode, black_box(&pk), black_box(&msg), ctx, black_box(&sig)).expect("verify")
            })
        })
    });
    #[cfg(feature = "bench-internals")]
    g.bench_function("verify/quasar-avx2", |b| {
        avx2(|| {
            b.iter(|| {
                mldsa::verify(mode, black_box(&pk), black_box(&msg), ctx, black_box(&sig)).expect("verify")
            })
        })
    });
    for p in &peers {
        g.bench_function(format!("verify/{}", p.name), |b| {
            b.iter(|| assert!((p.verify)(black_box(&pk), black_box(&msg), ctx, black_box(&sig))))
        });
    }
    #[cfg(target_arch = "x86_64")]
    g.bench_function("verify/pqclean", |b| {
        b.iter(|| {
            assert!((pqclean.verify)(
                black_box(&pk),
                black_box(&msg),
                ctx,
                black_box(&sig)
            ))
        })
    });
    g.finish();
}

/// Runs `f` as a target without SIMD would (the portable NTT and pointwise kernels and the
/// scalar Keccak), then restores the defaults.
#[cfg(feature = "bench-internals")]
fn portable<R>(f: impl FnOnce() -> R) -> R {
    use quasar_pq::hash::keccak_x4;
    ntt::set_backend(Backend::Portable);
    keccak_x4::set_backend(keccak_x4::Backend::Portable);
    let r = f();
    ntt::set_backend(Backend::Auto);
    keccak_x4::set_backend(keccak_x4::Backend::Auto);
    r
}

/// The kernels alone, SIMD against portable, on fixed inputs in their documented ranges.
#[cfg(feature = "bench-internals")]
fn bench_kernels(c: &mut Criterion) {
    let bytes: [u8; 1024] = labelled("ntt/input");
    // |a| < q: the NTT's input range; the NTT of it is in the pointwise range.
    let a: [i32; 256] = core::array::from_fn(|i| {
        let w = u32::from_le_bytes([bytes[4 * i], bytes[4 * i + 1], bytes[4 * i + 2], bytes[4 * i + 3]]);
        i32::try_from(w % 8_380_417).expect("< q") - 4_190_208
    });
    let mut a_hat = a;
    ntt::ntt(&mut a_hat);
    let mut g = c.benchmark_group("ntt");
    g.warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(50);
    for (label, backend) in [("simd", Backend::Auto), ("portable", Backend::Portable)] {
        ntt::set_backend(backend);
        g.bench_function(format!("ntt/{label}"), |b| {
            b.iter(|| {
                let mut x = black_box(a);
                ntt::ntt(&mut x);
                x
            })
        });
        g.bench_function(format!("inv_ntt/{label}"), |b| {
            b.iter(|| {
                let mut x = black_box(a);
                ntt::inv_ntt(&mut x);
                x
            })
        });
        g.bench_function(format!("pointwise/{label}"), |b| {
            let mut r = [0i32; 256];
            b.iter(|| {
                ntt::pointwise(&mut r, black_box(&a_hat), black_box(&a));
                black_box(&r);
            })
        });
    }
    ntt::set_backend(Backend::Auto);
    g.finish();
}

fn benches(c: &mut Criterion) {
    #[cfg(feature = "bench-internals")]
    bench_kernels(c);
    for mode in [Mode::MlDsa44, Mode::MlDsa65, Mode::MlDsa87] {
        bench_set(c, mode);
    }
}

criterion_group!(mldsa_benches, benches);
criterion_main!(mldsa_benches);
