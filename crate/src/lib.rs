//! # quasar-pq
//!
//! Post-quantum consensus certificates, natively and in WebAssembly: the signature schemes a
//! validator set signs blocks with, the threshold protocols that hold a group key, and the
//! finality certificate a light client checks.
//!
//! | module | what | trust model, in one line |
//! |---|---|---|
//! | [`mldsa`] | ML-DSA (FIPS 204), written here: keys from seeds, hedged and deterministic signing with a context, external μ ([`mldsa::hazmat`]), prepared verification keys | a standard signature |
//! | [`slhdsa`] | SLH-DSA (FIPS 205, the six SHAKE sets), written here | a standard hash-based signature |
//! | [`bls`] | BLS12-381 min-pk with proofs of possession, aggregates over signer bitmaps | a classical signature: no post-quantum security |
//! | [`magnetar`] | per-validator SLH-DSA signatures, batches and aggregate certificates against a weighted registry | each validator signs alone; no shared secret |
//! | [`vss`], [`lss`] | verifiable secret sharing; DKG, refresh and reshare (any t-of-n to any t′-of-n′) with blame and activation certificates | fewer than t holders learn nothing; a dealer that cheats is named |
//! | [`lens`] | FROST (Ed25519, secp256k1/BIP-340, Ristretto255) on LSS keys | a genuine threshold signature: nobody ever holds the key |
//! | [`pulsar`] | Pulsar custody: t-of-n ML-DSA whose key is rebuilt by a combiner while it signs | the combiner is trusted while it signs (see [`pulsar::custody`]) |
//! | [`cert`] | the finality certificate (BLS, Pulsar, Magnetar and ML-DSA-set legs) and the light client | the caller's checkpoint set and policy; a quorum of weight signed |
//! | [`keystore`] | a member's keyring at rest: shares sealed with XChaCha20-Poly1305 under a key or an Argon2id passphrase, a crash-safe store that erases an old share only when the keyring accepted a verified activation | whoever holds the snapshot key reads the shares; a host that loses it loses them |
//! | [`party`] | the one shape of every protocol party: bytes in, bytes out, a round at a time | a peer's bad message is dropped and named, never fatal |
//! | [`keyfmt`] | ML-DSA and SLH-DSA keys as X.509 SubjectPublicKeyInfo, PKCS #8 (DER, PEM) and JOSE/COSE `AKP` keys | strict decoding; a private key is checked against itself |
//! | [`wire`], [`hash`], [`quorum`] | strict decoding, the shared 11-byte frame, domain-separated hashing, integer quorums | — |
//!
//! Every protocol party is a [`party::Party`] (`start` → `step` … → `Done`); each protocol's
//! module docs open with its call sequence. Key shares are made by a DKG and its key
//! ceremony (Pulsar: DKG → the combiner derives the ML-DSA key once → every member certifies
//! the key with a proof of possession of its share), used to sign, reshared to a new set, and
//! erased only after the new generation's activation certificate verifies.
//!
//! ```
//! use quasar_pq::mldsa::{MlDsa65, SigningKey};
//!
//! let sk = SigningKey::<MlDsa65>::from_seed(&[7u8; 32]);
//! let vk = sk.verifying_key();
//! let sig = sk.sign_deterministic(b"block 42", b"example").unwrap();
//! assert!(vk.verify(b"block 42", b"example", &sig).is_ok());
//! assert!(vk.verify(b"block 43", b"example", &sig).is_err());
//! ```
//!
//! # Features
//!
//! `std` (default: file-backed snapshots, timing), `threshold` (default: the threshold
//! stack), `devnet` (the test-chain devnet, `cert::devnet`), `full` (everything: the threshold
//! stack, the devnet and every WebAssembly export family), `light` (verification only: the
//! verify modules), `wasm-mldsa` … `wasm-corona` (one WebAssembly export family each: a module
//! holds the families it is built with; `scripts/build-wasm.mjs`), `wasm-small-heap` (the verify
//! modules' allocator), `parallel` (rayon batch verification), `sim` (the in-process simulator of parties, for tests, benches and KATs),
//! `hazmat` (misbehaving parties, for demos and tests only), `ct-check` (the constant-flow
//! harness).
#![cfg_attr(not(feature = "std"), no_std)]
// Lints: Cargo.toml's `[lints]` table (`missing_docs` denied, `unwrap_used` outside tests,
// casts, `unreachable_pub`). The table only warns on `unsafe_code` (tests may need it); the
// library denies it, allowed in hash::keccak_x4 (AVX2 after detection), hash::keccak_x2
// (aarch64: the NEON kernels, and the SHA-3 one after detection), ML-DSA's NTT kernels
// (`mldsa::ntt::{avx2, neon, simd128}`: AVX2 after detection, vector loads and stores),
// corona's sampler (`sample::wide`: the same code compiled for AVX2 / AVX-512, after
// detection), ct (value barrier, Valgrind requests) and the verify modules' WebAssembly
// allocator (`wasm::heap`).
#![deny(unsafe_code)]

extern crate alloc;

pub mod bls;
pub mod cert;
pub mod corona;
#[cfg(feature = "ct-check")]
pub mod ct;
#[cfg(not(feature = "ct-check"))]
mod ct;
mod error;
pub mod hash;
#[cfg(not(feature = "light"))]
pub mod keyfmt;
#[cfg(feature = "protocols")]
pub mod keystore;
#[cfg(feature = "protocols")]
pub mod lens;
#[cfg(feature = "protocols")]
pub mod lss;
pub mod magnetar;
pub mod mldsa;
pub mod party;
pub mod pulsar;
pub mod quorum;
pub mod slhdsa;
mod sort;
#[cfg(feature = "protocols")]
pub mod vss;
pub mod wire;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use error::Error;
pub use party::PartyId;
