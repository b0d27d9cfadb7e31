//! The `quasar` binary: the native demo end to end (one thread per party, bytes through
//! the router), misbehaving parties named, and one clear line for every bad argument.
#![cfg(all(feature = "std", feature = "threshold"))]

use std::process::{Command, Output};

fn quasar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_quasar"))
        .args(args)
        .output()
        .expect("the quasar binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// Runs a demo that must succeed; returns its stdout.
fn demo_ok(args: &[&str]) -> String {
    let mut all = vec!["demo"];
    all.extend_from_slice(args);
    let o = quasar(&all);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert!(o.status.success(), "{args:?} failed:\n{out}\n{err}");
    assert!(err.is_empty(), "{args:?} wrote to stderr: {err}");
    out
}

/// The table row of `phase`: its numeric columns (`-` as `None`).
fn row(out: &str, phase: &str) -> Vec<Option<f64>> {
    let line = out
        .lines()
        .find(|l| {
            l.strip_prefix(phase).is_some_and(|rest| {
                rest.starts_with("  ") && rest.trim_start().starts_with(|c: char| c.is_ascii_digit())
            })
        })
        .unwrap_or_else(|| panic!("no table row for {phase}:\n{out}"));
    line[phase.len()..]
        .split_whitespace()
        .map(|v| v.replace(',', "").parse::<f64>().ok())
        .collect()
}

/// Columns: wall, party min, median, max, parties, hub, msgs, bytes.
fn check_table(out: &str, phases: &[(&str, usize)]) {
    for &(phase, parties) in phases {
        let r = row(out, phase);
        assert_eq!(r.len(), 8, "{phase}: {r:?}");
        assert!(r[0].is_some_and(|w| w > 0.0), "{phase}: wall");
        assert_eq!(r[4], Some(parties as f64), "{phase}: parties");
        if parties > 0 {
            let (lo, mid, hi) = (r[1].unwrap(), r[2].unwrap(), r[3].unwrap());
            assert!(lo <= mid && mid <= hi, "{phase}: min ≤ median ≤ max");
        }
    }
    let total = row(out, "Total");
    assert!(
        total[6].is_some_and(|m| m > 0.0) && total[7].is_some_and(|b| b > 0.0),
        "traffic counted"
    );
}

/// The before/after fingerprints, which must be byte-identical.
fn check_same_key(out: &str) {
    let line = out
        .lines()
        .find(|l| l.starts_with("Group key"))
        .unwrap_or_else(|| panic!("no group key line:\n{out}"));
    let before = line
        .split("before reshare ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    let after = line
        .split("after reshare ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_eq!(before.len(), 16, "{line}");
    assert_eq!(before, after, "{line}");
    assert!(line.ends_with("byte-identical"), "{line}");
}

/// The (first) group key fingerprint printed.
fn fingerprint(out: &str) -> String {
    let line = out.lines().find(|l| l.starts_with("Group key")).unwrap();
    let rest = line.split("fingerprint: ").nth(1).unwrap();
    let rest = rest.strip_prefix("before reshare ").unwrap_or(rest);
    rest[..16].to_string()
}

#[test]
fn pulsar_3_of_5_reshared_to_5_of_7() {
    let out = demo_ok(&[
        "--scheme",
        "pulsar",
        "--parties",
        "5",
        "--threshold",
        "3",
        "--reshare",
        "7:5",
    ]);
    check_table(
        &out,
        &[
            ("DKG", 5),
            ("Key ceremony", 5),
            ("Round 1", 3),
            ("Round 2", 3),
            ("Combine", 0),
            ("Verify", 5),
            ("Reshare", 7),
            ("Activation", 7),
            ("Round 1 (gen 1)", 5),
            ("Verify (gen 1)", 7),
        ],
    );
    check_same_key(&out);
    assert!(out.contains("verified by 5 with plain mldsa::verify"), "{out}");
    assert!(out.contains("Trust model: Pulsar custody"), "{out}");
    assert!(!out.contains("Named and excluded"), "{out}");
    // The same seed gives the same key; another seed another one.
    let again = demo_ok(&[
        "--scheme",
        "pulsar",
        "--parties",
        "5",
        "--threshold",
        "3",
        "--set",
        "65",
    ]);
    let other = demo_ok(&[
        "--scheme",
        "pulsar",
        "--parties",
        "5",
        "--threshold",
        "3",
        "--seed",
        "01",
    ]);
    assert_eq!(fingerprint(&again), fingerprint(&out));
    assert_ne!(fingerprint(&again), fingerprint(&other));
}

#[test]
fn lens_ed25519_3_of_5_reshared_to_3_of_4() {
    let out = demo_ok(&[
        "--scheme",
        "lens",
        "--curve",
        "ed25519",
        "--parties",
        "5",
        "--threshold",
        "3",
        "--reshare",
        "4:3",
    ]);
    check_table(
        &out,
        &[
            ("DKG", 5),
            ("Round 1", 3),
            ("Round 2", 3),
            ("Aggregate", 0),
            ("Verify", 5),
            ("Reshare", 4),
            ("Activation", 5),
            ("Verify (gen 1)", 4),
        ],
    );
    check_same_key(&out);
    assert!(out.contains("Ed25519 (RFC 8032) verifier"), "{out}");
    assert!(out.contains("Trust model: Lens"), "{out}");
}

#[test]
fn cheating_parties_are_named_and_excluded() {
    // Pulsar: a bad share in every custody session (the combiner excludes it and signs
    // with the others) and a bad share in the reshare (complaint, no answer: disqualified).
    let out = demo_ok(&[
        "--scheme",
        "pulsar",
        "--parties",
        "5",
        "--threshold",
        "3",
        "--reshare",
        "7:5",
        "--cheat",
        "2",
    ]);
    assert!(out.contains("party 2 named in Combine: INVALID_SHARE"), "{out}");
    assert!(out.contains("signed with the shares of parties 1, 3, 4"), "{out}");
    assert!(
        out.contains("party 2 named in Reshare: UNANSWERED_COMPLAINT"),
        "{out}"
    );
    assert!(out.contains("Named and excluded:"), "{out}");
    check_same_key(&out);

    // Lens: a corrupted signature share; aggregation names it and the session is retried.
    let out = demo_ok(&[
        "--scheme",
        "lens",
        "--parties",
        "5",
        "--threshold",
        "3",
        "--cheat",
        "3",
    ]);
    assert!(
        out.contains("party 3 named in Aggregate: INVALID_SIGNATURE_SHARE"),
        "{out}"
    );
    assert!(out.contains("retrying with parties 1, 2, 4"), "{out}");
    assert!(out.contains("signed by parties 1, 2, 4"), "{out}");

    // Without enough honest parties the run fails cleanly, naming the culprit.
    let o = quasar(&[
        "demo",
        "--scheme",
        "pulsar",
        "--parties",
        "3",
        "--threshold",
        "3",
        "--cheat",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("quasar: ") && err.contains("NOT_ENOUGH_VALID_SHARES"),
        "{err}"
    );
    assert!(err.trim_end().ends_with("culprits: 2"), "{err}");
}

#[test]
fn bad_arguments_get_one_line_and_a_nonzero_exit() {
    for (args, want) in [
        (&[][..], "missing command"),
        (&["launch"][..], "unknown command 'launch'"),
        (&["demo"][..], "--scheme"),
        (&["demo", "--scheme", "rsa"][..], "unknown scheme 'rsa'"),
        (
            &["demo", "--scheme", "pulsar", "--frobnicate"][..],
            "unknown flag '--frobnicate'",
        ),
        (
            &["demo", "--scheme", "pulsar", "--parties"][..],
            "--parties needs a value",
        ),
        (
            &["demo", "--scheme", "pulsar", "--parties", "1"][..],
            "--parties must be between 2 and 256, got 1",
        ),
        (
            &["demo", "--scheme", "pulsar", "--parties", "300"][..],
            "--parties must be between 2 and 256, got 300",
        ),
        (
            &[
                "demo",
                "--scheme",
                "pulsar",
                "--parties",
                "21",
                "--threshold",
                "30",
            ][..],
            "--threshold must be between 1 and --parties (21), got 30",
        ),
        (
            &["demo", "--scheme", "pulsar", "--threshold", "0"][..],
            "--threshold must be between 1",
        ),
        (
            &["demo", "--scheme", "pulsar", "--reshare", "64"][..],
            "--reshare must be N:T",
        ),
        (
            &["demo", "--scheme", "pulsar", "--reshare", "7:9"][..],
            "--reshare threshold",
        ),
        (
            &["demo", "--scheme", "lens", "--curve", "p256"][..],
            "unknown curve 'p256'",
        ),
        (
            &["demo", "--scheme", "pulsar", "--set", "50"][..],
            "unknown ML-DSA set '50'",
        ),
        (&["demo", "--scheme", "pulsar", "--seed", "xyz"][..], "--seed"),
        (
            &["demo", "--scheme", "pulsar", "--parties", "5", "--cheat", "9"][..],
            "--cheat",
        ),
    ] {
        let o = quasar(args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}: nothing on stdout");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line, got {err:?}");
        assert!(
            err.starts_with("quasar: ") && err.contains(want),
            "{args:?}: {err}"
        );
    }
    let o = quasar(&["--help"]);
    assert!(o.status.success());
    assert!(text(&o.stdout).contains("quasar demo --scheme pulsar|lens"));
}
