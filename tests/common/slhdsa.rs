//! ACVP SLH-DSA loading and the FIPS 205 Table 2 rows the SLH-DSA tests need.
//!
//! Vectors live in `tests/vectors/acvp/slh-dsa/` (NIST ACVP, copied unchanged with its notice). The
//! loaders keep every SHAKE case, skip the SHA2 sets explicitly (counted, so the tests can
//! pin how many were skipped), refuse an unknown SHAKE set and an empty file.

use std::fs;
use std::path::PathBuf;

use quasar_pq::slhdsa::Mode;
use serde::Deserialize;
use serde_json::Value;

use super::unhex;

/// FIPS 205 Table 2, one row, written out here (not read from the library).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SetInfo {
    pub name: &'static str,
    pub n: usize,
    pub h: usize,
    pub d: usize,
    pub hp: usize,
    pub a: usize,
    pub k: usize,
    pub lg_w: usize,
    pub m: usize,
    pub security_category: u8,
    pub pk_len: usize,
    pub sig_len: usize,
}

/// The six SHAKE rows of FIPS 205 Table 2 (the SHA2 rows share the numbers).
pub(crate) const TABLE_2: [SetInfo; 6] = [
    SetInfo {
        name: "SLH-DSA-SHAKE-128s",
        n: 16,
        h: 63,
        d: 7,
        hp: 9,
        a: 12,
        k: 14,
        lg_w: 4,
        m: 30,
        security_category: 1,
        pk_len: 32,
        sig_len: 7856,
    },
    SetInfo {
        name: "SLH-DSA-SHAKE-128f",
        n: 16,
        h: 66,
        d: 22,
        hp: 3,
        a: 6,
        k: 33,
        lg_w: 4,
        m: 34,
        security_category: 1,
        pk_len: 32,
        sig_len: 17088,
    },
    SetInfo {
        name: "SLH-DSA-SHAKE-192s",
        n: 24,
        h: 63,
        d: 7,
        hp: 9,
        a: 14,
        k: 17,
        lg_w: 4,
        m: 39,
        security_category: 3,
        pk_len: 48,
        sig_len: 16224,
    },
    SetInfo {
        name: "SLH-DSA-SHAKE-192f",
        n: 24,
        h: 66,
        d: 22,
        hp: 3,
        a: 8,
        k: 33,
        lg_w: 4,
        m: 42,
        security_category: 3,
        pk_len: 48,
        sig_len: 35664,
    },
    SetInfo {
        name: "SLH-DSA-SHAKE-256s",
        n: 32,
        h: 64,
        d: 8,
        hp: 8,
        a: 14,
        k: 22,
        lg_w: 4,
        m: 47,
        security_category: 5,
        pk_len: 64,
        sig_len: 29792,
    },
    SetInfo {
        name: "SLH-DSA-SHAKE-256f",
        n: 32,
        h: 68,
        d: 17,
        hp: 4,
        a: 9,
        k: 35,
        lg_w: 4,
        m: 49,
        security_category: 5,
        pk_len: 64,
        sig_len: 49856,
    },
];

/// The table row for `mode`.
pub(crate) fn info(mode: Mode) -> SetInfo {
    *TABLE_2
        .iter()
        .find(|r| r.name == mode.name())
        .unwrap_or_else(|| panic!("test table has no row for {mode:?}"))
}

/// `parameterSet` → `Some(mode)` for a SHAKE set, `None` for a SHA2 set (skipped); panics
/// on anything else.
pub(crate) fn mode_from_parameter_set(name: &str) -> Option<Mode> {
    let mode = match name {
        "SLH-DSA-SHAKE-128s" => Mode::Shake128s,
        "SLH-DSA-SHAKE-128f" => Mode::Shake128f,
        "SLH-DSA-SHAKE-192s" => Mode::Shake192s,
        "SLH-DSA-SHAKE-192f" => Mode::Shake192f,
        "SLH-DSA-SHAKE-256s" => Mode::Shake256s,
        "SLH-DSA-SHAKE-256f" => Mode::Shake256f,
        s if s.starts_with("SLH-DSA-SHA2-") => return None,
        other => panic!("unknown ACVP parameterSet {other:?}"),
    };
    assert_eq!(
        Mode::from_name(name),
        Some(mode),
        "Mode::from_name disagrees on {name:?}"
    );
    Some(mode)
}

/// Directory of the SLH-DSA ACVP files.
pub(crate) fn acvp_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/acvp/slh-dsa")
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
    assert_eq!(f.algorithm, "SLH-DSA", "{file}: algorithm");
    assert_eq!(f.mode, mode, "{file}: mode");
    assert_eq!(f.revision, "FIPS205", "{file}: revision");
    assert!(!f.test_groups.is_empty(), "{file}: no test groups");
    f.test_groups
}

fn id(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

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
    pub sk_seed: Vec<u8>,
    pub sk_prf: Vec<u8>,
    pub pk_seed: Vec<u8>,
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
    #[serde(rename = "skSeed")]
    sk_seed: String,
    #[serde(rename = "skPrf")]
    sk_prf: String,
    #[serde(rename = "pkSeed")]
    pk_seed: String,
    sk: String,
    pk: String,
}

/// The SHAKE keyGen cases of `key-gen.json`, and how many SHA2 cases were skipped.
pub(crate) fn load_keygen() -> (Vec<KeyGenCase>, usize) {
    let (mut out, mut skipped) = (Vec::new(), 0);
    for g in load_file::<KeyGenGroup>("key-gen.json", "keyGen") {
        assert!(!g.tests.is_empty(), "keyGen group {} is empty", id(&g.tg_id));
        let Some(mode) = mode_from_parameter_set(&g.parameter_set) else {
            skipped += g.tests.len();
            continue;
        };
        for t in g.tests {
            out.push(KeyGenCase {
                tc_id: id(&t.tc_id),
                mode,
                sk_seed: unhex("skSeed", &t.sk_seed),
                sk_prf: unhex("skPrf", &t.sk_prf),
                pk_seed: unhex("pkSeed", &t.pk_seed),
                pk: unhex("pk", &t.pk),
                sk: unhex("sk", &t.sk),
            });
        }
    }
    assert!(!out.is_empty(), "key-gen.json: no SHAKE cases");
    (out, skipped)
}

/// One sigVer case (with the signing key and randomness the file also carries).
#[derive(Debug, Clone)]
pub(crate) struct SigVerCase {
    pub tc_id: String,
    pub mode: Mode,
    pub pk: Vec<u8>,
    pub sk: Vec<u8>,
    pub additional_randomness: Vec<u8>,
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
    tests: Vec<SigVerTest>,
}
#[derive(Deserialize)]
struct SigVerTest {
    #[serde(rename = "tcId")]
    tc_id: Value,
    #[serde(rename = "testPassed")]
    test_passed: Value,
    pk: String,
    sk: String,
    #[serde(rename = "additionalRandomness")]
    additional_randomness: String,
    message: String,
    signature: String,
    #[serde(default)]
    reason: Option<String>,
    /// Later revisions add a context and a signature interface; this loader refuses them.
    context: Option<String>,
}

/// The SHAKE sigVer cases of `sig-ver.json`, and how many SHA2 cases were skipped.
pub(crate) fn load_sigver() -> (Vec<SigVerCase>, usize) {
    let (mut out, mut skipped) = (Vec::new(), 0);
    for g in load_file::<SigVerGroup>("sig-ver.json", "sigVer") {
        assert!(!g.tests.is_empty(), "sigVer group {} is empty", id(&g.tg_id));
        let Some(mode) = mode_from_parameter_set(&g.parameter_set) else {
            skipped += g.tests.len();
            continue;
        };
        for t in g.tests {
            let tc_id = id(&t.tc_id);
            assert!(
                t.context.is_none(),
                "sigVer tcId {tc_id}: has a context; this loader knows the early layout only"
            );
            out.push(SigVerCase {
                tc_id,
                mode,
                pk: unhex("pk", &t.pk),
                sk: unhex("sk", &t.sk),
                additional_randomness: unhex("additionalRandomness", &t.additional_randomness),
                message: unhex("message", &t.message),
                signature: unhex("signature", &t.signature),
                passed: flag("testPassed", &t.test_passed),
                reason: t.reason.unwrap_or_default(),
            });
        }
    }
    assert!(!out.is_empty(), "sig-ver.json: no SHAKE cases");
    (out, skipped)
}

/// Cases per set, in [`Mode::ALL`] order.
pub(crate) fn count_per_mode<T>(cases: &[T], mode_of: impl Fn(&T) -> Mode) -> [usize; 6] {
    let mut n = [0usize; 6];
    for c in cases {
        let m = mode_of(c);
        n[Mode::ALL
            .iter()
            .position(|x| *x == m)
            .unwrap_or_else(|| panic!("unexpected mode {m:?}"))] += 1;
    }
    n
}
