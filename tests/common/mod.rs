//! Shared helpers for the integration tests: ACVP JSON loading, hex, a deterministic byte
//! stream, and the FIPS 204 parameter table the byte-level tests need.
//!
//! Vectors live in `tests/vectors/acvp/ml-dsa/` (NIST ACVP, copied unchanged with its notice). Every
//! loader refuses an unknown `parameterSet` and an empty file, and [`run_cases`] refuses to
//! report success when it ran no case.
#![allow(dead_code)]

use core::fmt::Debug;
use core::panic::AssertUnwindSafe;
use std::fs;
use std::panic::catch_unwind;
use std::path::PathBuf;

use quasar_pq::mldsa::Mode;
use serde::Deserialize;
use serde_json::Value;
use sha3::digest::{ExtendableOutput, Update, XofReader};

pub(crate) mod peers;
#[cfg(all(feature = "sim", feature = "hazmat"))]
pub(crate) mod sim;
pub(crate) mod slhdsa;

// ---------------------------------------------------------------------------------------------
// Parameter sets
// ---------------------------------------------------------------------------------------------

/// The three ML-DSA parameter sets, in order.
pub(crate) const MODES: [Mode; 3] = [Mode::MlDsa44, Mode::MlDsa65, Mode::MlDsa87];

/// FIPS 204 Table 1 and Table 2, as the byte-level tests need them. Written out here (not read
/// from the library) so a wrong constant in the library cannot hide itself.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SetInfo {
    /// "ML-DSA-44" etc.
    pub name: &'static str,
    /// Rows of A.
    pub k: usize,
    /// Columns of A.
    pub l: usize,
    /// Range of the secret coefficients.
    pub eta: u32,
    /// Length of c~ in bytes (λ/4).
    pub c_tilde_len: usize,
    /// log2(γ1).
    pub gamma1_bits: u32,
    /// Maximum number of 1s in the hint.
    pub omega: usize,
    /// Number of ±1 in the challenge c.
    pub tau: usize,
    /// τ·η.
    pub beta: u32,
    /// γ2 = (q − 1) / gamma2_div.
    pub gamma2_div: i32,
    /// Public key bytes.
    pub pk_len: usize,
    /// Secret key bytes.
    pub sk_len: usize,
    /// Signature bytes.
    pub sig_len: usize,
}

impl SetInfo {
    /// Bytes of one packed polynomial of z (32 · (1 + log2 γ1)).
    pub(crate) fn z_poly_len(&self) -> usize {
        32 * (self.gamma1_bits as usize + 1)
    }
    /// Offset of the hint section in a signature.
    pub(crate) fn hint_offset(&self) -> usize {
        self.c_tilde_len + self.l * self.z_poly_len()
    }
    /// Bits per packed s1/s2 coefficient (bitlen 2η).
    pub(crate) fn eta_bits(&self) -> usize {
        if self.eta == 2 {
            3
        } else {
            4
        }
    }
    /// Offset of s1 in a secret key (ρ, K, tr).
    pub(crate) fn s1_offset(&self) -> usize {
        32 + 32 + 64
    }
    /// Offset of s2 in a secret key.
    pub(crate) fn s2_offset(&self) -> usize {
        self.s1_offset() + self.l * 32 * self.eta_bits()
    }
}

/// The table row for `mode`.
pub(crate) fn info(mode: Mode) -> SetInfo {
    match mode {
        Mode::MlDsa44 => SetInfo {
            name: "ML-DSA-44",
            k: 4,
            l: 4,
            eta: 2,
            c_tilde_len: 32,
            gamma1_bits: 17,
            omega: 80,
            tau: 39,
            beta: 78,
            gamma2_div: 88,
            pk_len: 1312,
            sk_len: 2560,
            sig_len: 2420,
        },
        Mode::MlDsa65 => SetInfo {
            name: "ML-DSA-65",
            k: 6,
            l: 5,
            eta: 4,
            c_tilde_len: 48,
            gamma1_bits: 19,
            omega: 55,
            tau: 49,
            beta: 196,
            gamma2_div: 32,
            pk_len: 1952,
            sk_len: 4032,
            sig_len: 3309,
        },
        Mode::MlDsa87 => SetInfo {
            name: "ML-DSA-87",
            k: 8,
            l: 7,
            eta: 2,
            c_tilde_len: 64,
            gamma1_bits: 19,
            omega: 75,
            tau: 60,
            beta: 120,
            gamma2_div: 32,
            pk_len: 2592,
            sk_len: 4896,
            sig_len: 4627,
        },
        #[allow(unreachable_patterns)]
        other => panic!("test table has no row for {other:?}"),
    }
}

/// `parameterSet` string → [`Mode`]; panics on a set the tests do not know.
pub(crate) fn mode_from_parameter_set(name: &str) -> Mode {
    let mode = match name {
        "ML-DSA-44" => Mode::MlDsa44,
        "ML-DSA-65" => Mode::MlDsa65,
        "ML-DSA-87" => Mode::MlDsa87,
        other => panic!("unknown ACVP parameterSet {other:?}"),
    };
    assert_eq!(
        Mode::from_name(name),
        Some(mode),
        "Mode::from_name disagrees on {name:?}"
    );
    mode
}

/// Calls a function generic over `P: Params` with the typed parameter set of a runtime `Mode`:
/// `with_params!(mode, check::<P>(args…))` is written `with_params!(mode, check(args…))`.
#[allow(unused_macros)]
macro_rules! with_params {
    ($mode:expr, $f:ident ( $($arg:expr),* )) => {
        match $mode {
            quasar_pq::mldsa::Mode::MlDsa44 => $f::<quasar_pq::mldsa::MlDsa44>($($arg),*),
            quasar_pq::mldsa::Mode::MlDsa65 => $f::<quasar_pq::mldsa::MlDsa65>($($arg),*),
            quasar_pq::mldsa::Mode::MlDsa87 => $f::<quasar_pq::mldsa::MlDsa87>($($arg),*),
            #[allow(unreachable_patterns)]
            other => panic!("no typed parameter set for {other:?}"),
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Hex and deterministic bytes
// ---------------------------------------------------------------------------------------------

/// Decodes hex (either case); panics with the field name on bad input.
pub(crate) fn unhex(field: &str, s: &str) -> Vec<u8> {
    hex::decode(s).unwrap_or_else(|e| panic!("field {field}: bad hex: {e}"))
}

/// Decodes hex into a fixed-size array.
pub(crate) fn unhex_array<const N: usize>(field: &str, s: &str) -> [u8; N] {
    let v = unhex(field, s);
    v.as_slice()
        .try_into()
        .unwrap_or_else(|_| panic!("field {field}: expected {N} bytes, got {}", v.len()))
}

/// Lower-case hex of `b`, shortened in the middle when long (for messages).
pub(crate) fn short_hex(b: &[u8]) -> String {
    if b.len() <= 24 {
        hex::encode(b)
    } else {
        format!(
            "{}…{} ({} bytes)",
            hex::encode(&b[..12]),
            hex::encode(&b[b.len() - 12..]),
            b.len()
        )
    }
}

/// Index of the first differing byte, if any (or the shorter length).
pub(crate) fn first_diff(a: &[u8], b: &[u8]) -> Option<usize> {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .or_else(|| (a.len() != b.len()).then(|| a.len().min(b.len())))
}

/// A deterministic, labelled byte stream: SHAKE256("quasar-pq/test-stream/v1" ‖ 0x00 ‖ label).
/// Same label, same bytes, on every machine; so failures are reproducible by label.
pub(crate) struct Stream {
    reader: <sha3::Shake256 as ExtendableOutput>::Reader,
}

impl Stream {
    /// A stream for `label`.
    pub(crate) fn new(label: &str) -> Self {
        let mut h = sha3::Shake256::default();
        h.update(b"quasar-pq/test-stream/v1");
        h.update(&[0]);
        h.update(label.as_bytes());
        Self {
            reader: h.finalize_xof(),
        }
    }
    /// Fills `out`.
    pub(crate) fn fill(&mut self, out: &mut [u8]) {
        self.reader.read(out);
    }
    /// `n` fresh bytes.
    pub(crate) fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v = vec![0u8; n];
        self.fill(&mut v);
        v
    }
    /// A fresh array.
    pub(crate) fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        self.fill(&mut a);
        a
    }
    /// A fresh `u64`.
    pub(crate) fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.array())
    }
    /// Uniform-enough in `0..n` (n > 0; bias ≤ n/2^64, irrelevant for tests).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        assert!(n > 0);
        usize::try_from(self.u64() % n as u64).expect("below n")
    }
}

/// `[0; 32]`: the `rnd` of deterministic signing (FIPS 204 Alg. 2, line 5 variant).
pub(crate) const ZERO_RND: [u8; 32] = [0u8; 32];

// ---------------------------------------------------------------------------------------------
// Running cases
// ---------------------------------------------------------------------------------------------

/// Runs `check` on every case, catching panics, and fails (listing every failure) if any case
/// failed or no case ran. Returns the number of cases run.
pub(crate) fn run_cases<T, F>(what: &str, cases: &[T], mut check: F) -> usize
where
    T: Debug,
    F: FnMut(&T) -> Result<(), String>,
{
    assert!(!cases.is_empty(), "{what}: no cases loaded");
    let mut failures = Vec::new();
    for case in cases {
        match catch_unwind(AssertUnwindSafe(|| check(case))) {
            Ok(Ok(())) => {}
            Ok(Err(msg)) => failures.push(msg),
            Err(panic) => failures.push(format!("PANIC: {}", panic_message(&panic))),
        }
    }
    let ran = cases.len();
    assert!(
        failures.is_empty(),
        "{what}: {} of {ran} cases failed:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
    eprintln!("{what}: {ran} cases passed");
    ran
}

/// The text of a caught panic payload.
pub(crate) fn panic_message(p: &Box<dyn core::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "<non-string panic>".to_string()
    }
}

/// Runs `f`, turning a panic into `Err(message)`. For "never a panic" assertions.
pub(crate) fn no_panic<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| panic_message(&p))
}

thread_local! {
    static QUIET: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// Silences the panic printout of *this thread* while `f` runs (panics are still caught and
/// reported by the caller); keeps the output of tests that probe thousands of inputs readable.
/// The hook is installed once and delegates to the previous one for every other thread, so
/// tests running in parallel keep their failure messages.
pub(crate) fn quiet_panics<R>(f: impl FnOnce() -> R) -> R {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|q| q.get()) {
                prev(info);
            }
        }));
    });
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            let was = self.0;
            QUIET.with(|q| q.set(was));
        }
    }
    let _reset = Reset(QUIET.with(|q| q.replace(true)));
    f()
}

// ---------------------------------------------------------------------------------------------
// ACVP files
// ---------------------------------------------------------------------------------------------

/// Directory of the ML-DSA ACVP files.
pub(crate) fn acvp_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/acvp/ml-dsa")
}

#[derive(Deserialize)]
struct AcvpFile<G> {
    algorithm: String,
    mode: String,
    revision: String,
    #[serde(rename = "testGroups")]
    test_groups: Vec<G>,
}

fn load_file<G: for<'de> Deserialize<'de>>(file: &str, mode: &str) -> Vec<G> {
    let path = acvp_dir().join(file);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let f: AcvpFile<G> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("cannot parse {}: {e}", path.display()));
    assert_eq!(f.algorithm, "ML-DSA", "{file}: algorithm");
    assert_eq!(f.mode, mode, "{file}: mode");
    assert_eq!(
        f.revision, "FIPS204",
        "{file}: revision (these loaders know the early FIPS204 layout only)"
    );
    assert!(!f.test_groups.is_empty(), "{file}: no test groups");
    f.test_groups
}

/// ACVP writes ids as numbers or strings; render either.
fn id(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// ACVP writes booleans as `true` or `"True"`.
fn flag(field: &str, v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::String(s) if s.eq_ignore_ascii_case("true") => true,
        Value::String(s) if s.eq_ignore_ascii_case("false") => false,
        other => panic!("field {field}: not a boolean: {other}"),
    }
}

/// One keyGen case.
#[derive(Debug, Clone)]
pub(crate) struct KeyGenCase {
    pub tc_id: String,
    pub mode: Mode,
    pub seed: [u8; 32],
    pub pk: Vec<u8>,
    pub sk: Vec<u8>,
}

#[derive(Deserialize)]
struct KeyGenGroup {
    #[serde(rename = "tgId")]
    tg_id: Value,
    #[serde(rename = "parameterSet")]
    parameter_set: String,
    tests: Vec<KeyGenTest>,
}
#[derive(Deserialize)]
struct KeyGenTest {
    #[serde(rename = "tcId")]
    tc_id: Value,
    seed: String,
    pk: String,
    sk: String,
}

/// All keyGen cases of `key-gen.json`.
pub(crate) fn load_keygen() -> Vec<KeyGenCase> {
    let mut out = Vec::new();
    for g in load_file::<KeyGenGroup>("key-gen.json", "keyGen") {
        let mode = mode_from_parameter_set(&g.parameter_set);
        assert!(!g.tests.is_empty(), "keyGen group {} is empty", id(&g.tg_id));
        for t in g.tests {
            out.push(KeyGenCase {
                tc_id: id(&t.tc_id),
                mode,
                seed: unhex_array("seed", &t.seed),
                pk: unhex("pk", &t.pk),
                sk: unhex("sk", &t.sk),
            });
        }
    }
    assert!(!out.is_empty(), "key-gen.json: no cases");
    out
}

/// One sigGen case. `rnd` is `None` in the `deterministic` groups.
#[derive(Debug, Clone)]
pub(crate) struct SigGenCase {
    pub tc_id: String,
    pub mode: Mode,
    pub deterministic: bool,
    pub sk: Vec<u8>,
    pub message: Vec<u8>,
    pub rnd: Option<[u8; 32]>,
    pub signature: Vec<u8>,
}

#[derive(Deserialize)]
struct SigGenGroup {
    #[serde(rename = "tgId")]
    tg_id: Value,
    #[serde(rename = "parameterSet")]
    parameter_set: String,
    deterministic: Value,
    tests: Vec<SigGenTest>,
}
#[derive(Deserialize)]
struct SigGenTest {
    #[serde(rename = "tcId")]
    tc_id: Value,
    sk: String,
    message: String,
    rnd: Option<String>,
    signature: String,
    /// Later revisions add a context; this loader predates it and refuses files that have one.
    context: Option<String>,
}

/// All sigGen cases of `sig-gen.json`.
pub(crate) fn load_siggen() -> Vec<SigGenCase> {
    let mut out = Vec::new();
    for g in load_file::<SigGenGroup>("sig-gen.json", "sigGen") {
        let mode = mode_from_parameter_set(&g.parameter_set);
        let deterministic = flag("deterministic", &g.deterministic);
        assert!(!g.tests.is_empty(), "sigGen group {} is empty", id(&g.tg_id));
        for t in g.tests {
            let tc_id = id(&t.tc_id);
            assert!(
                t.context.is_none(),
                "sigGen tcId {tc_id}: has a context field; this loader knows the early layout only"
            );
            let rnd = t.rnd.as_deref().map(|r| unhex_array("rnd", r));
            assert_eq!(
                rnd.is_none(),
                deterministic,
                "sigGen tcId {tc_id}: rnd must be present exactly when deterministic is false"
            );
            out.push(SigGenCase {
                tc_id,
                mode,
                deterministic,
                sk: unhex("sk", &t.sk),
                message: unhex("message", &t.message),
                rnd,
                signature: unhex("signature", &t.signature),
            });
        }
    }
    assert!(!out.is_empty(), "sig-gen.json: no cases");
    out
}

/// One sigVer case with its group's public key.
#[derive(Debug, Clone)]
pub(crate) struct SigVerCase {
    pub tc_id: String,
    pub mode: Mode,
    pub pk: Vec<u8>,
    pub message: Vec<u8>,
    pub signature: Vec<u8>,
    pub passed: bool,
    pub reason: String,
}

#[derive(Deserialize)]
struct SigVerGroup {
    #[serde(rename = "tgId")]
    tg_id: Value,
    #[serde(rename = "parameterSet")]
    parameter_set: String,
    pk: String,
    tests: Vec<SigVerTest>,
}
#[derive(Deserialize)]
struct SigVerTest {
    #[serde(rename = "tcId")]
    tc_id: Value,
    #[serde(rename = "testPassed")]
    test_passed: Value,
    message: String,
    signature: String,
    #[serde(default)]
    reason: Option<String>,
    context: Option<String>,
}

/// All sigVer cases of `sig-ver.json`.
pub(crate) fn load_sigver() -> Vec<SigVerCase> {
    let mut out = Vec::new();
    for g in load_file::<SigVerGroup>("sig-ver.json", "sigVer") {
        let mode = mode_from_parameter_set(&g.parameter_set);
        let pk = unhex("pk", &g.pk);
        assert!(!g.tests.is_empty(), "sigVer group {} is empty", id(&g.tg_id));
        for t in g.tests {
            let tc_id = id(&t.tc_id);
            assert!(
                t.context.is_none(),
                "sigVer tcId {tc_id}: has a context field; this loader knows the early layout only"
            );
            out.push(SigVerCase {
                tc_id,
                mode,
                pk: pk.clone(),
                message: unhex("message", &t.message),
                signature: unhex("signature", &t.signature),
                passed: flag("testPassed", &t.test_passed),
                reason: t.reason.unwrap_or_default(),
            });
        }
    }
    assert!(!out.is_empty(), "sig-ver.json: no cases");
    out
}

/// Number of cases per parameter set, in [`MODES`] order (to pin the file's shape).
pub(crate) fn count_per_mode<T>(cases: &[T], mode_of: impl Fn(&T) -> Mode) -> [usize; 3] {
    let mut n = [0usize; 3];
    for c in cases {
        let m = mode_of(c);
        let i = MODES
            .iter()
            .position(|x| *x == m)
            .unwrap_or_else(|| panic!("unexpected mode {m:?}"));
        n[i] += 1;
    }
    n
}
